"""Files shipped beside the code: the bundled pack (skill/), the pack field
reference (docs/) and the recorded fixtures.

An installed wheel carries skill/ and docs/ inside the package; a source
checkout has them beside it, one folder up. The one place that knows both.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def shipped(*parts: str) -> Path:
    """``parts`` inside the installed package, or beside the source checkout."""
    installed = PACKAGE_DIR.joinpath(*parts)
    return installed if installed.exists() else PACKAGE_DIR.parent.joinpath(*parts)
