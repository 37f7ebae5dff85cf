"""The 48 notification texts as the public server formats them, when the checkout has them beside it.

They live beside the checkout (`../shared/examples/real-texts.json`), not in it: a clone without them
skips their cases, each with `NO_REAL_TEXTS` as the reason in the summary (the project's own texts in
tests/data still run).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

# Beside the checkout the tests were started from (not resolved: a clone may link testing/ to another).
EXAMPLES = Path(__file__).absolute().parents[2] / "shared" / "examples" / "real-texts.json"
NO_REAL_TEXTS = "the 48 real server texts are provided by CI only; tests/data's texts were checked instead"


def real_texts() -> list[dict[str, Any]]:
    """The texts with what a parser should find in each; the calling test skips without them."""
    if not EXAMPLES.exists():
        pytest.skip(NO_REAL_TEXTS)
    data: list[dict[str, Any]] = json.loads(EXAMPLES.read_text(encoding="utf-8"))
    return data
