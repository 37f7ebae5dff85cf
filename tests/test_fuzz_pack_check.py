"""Fuzz: through any series of edits to a pack, a load that remembers passes says exactly what a load that
checks every time says (the same persona, or the same problems)."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.voice.persona_pack import BrokenPack, load_persona

NIKE = Path(__file__).resolve().parents[1] / "skill" / "personas" / "nike"
PERSONA = json.loads((NIKE / "persona.json").read_text(encoding="utf-8"))
BEHAVIOUR = (NIKE / "behaviour.json").read_text(encoding="utf-8")
FIELDS = sorted(PERSONA)
ODD_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.text(max_size=6),
                       st.lists(st.text(max_size=4), max_size=2), st.dictionaries(st.text(max_size=3), st.text(max_size=3),
                                                                                 max_size=2))
EDITS = st.one_of(
    st.tuples(st.just("drop"), st.sampled_from(FIELDS)),
    st.tuples(st.just("set"), st.sampled_from(FIELDS), ODD_VALUES),
    st.tuples(st.just("restore"), st.sampled_from(FIELDS)),
    st.tuples(st.just("behaviour"), st.sampled_from([BEHAVIOUR, None, "{", '{"rules": []}', '{"rules": [{"id": 1}]}'])),
    st.tuples(st.just("raw"), st.sampled_from(["", "{", "[]", json.dumps(PERSONA, ensure_ascii=False)])),
)


def _outcome(directory: Path, checked_in: Path | None) -> Any:
    try:
        return load_persona(directory, checked_in=checked_in)
    except BrokenPack as exc:
        return ("broken", str(exc))


@settings(max_examples=40, deadline=None)
@given(st.lists(EDITS, min_size=1, max_size=6))
def test_remembered_and_fresh_checks_agree_through_any_edits(edits):
    with tempfile.TemporaryDirectory() as tmp:
        pack, state = Path(tmp) / "pack", Path(tmp) / "state"
        shutil.copytree(NIKE, pack)
        state.mkdir()
        data: dict[str, Any] = dict(PERSONA)
        for edit in edits:
            kind = edit[0]
            if kind == "drop":
                data.pop(edit[1], None)
            elif kind == "set":
                data[edit[1]] = edit[2]
            elif kind == "restore":
                data[edit[1]] = PERSONA[edit[1]]
            if kind == "behaviour":
                if edit[1] is None:
                    (pack / "behaviour.json").unlink(missing_ok=True)
                else:
                    (pack / "behaviour.json").write_text(edit[1], encoding="utf-8")
            else:
                text = edit[1] if kind == "raw" else json.dumps(data, ensure_ascii=False)
                (pack / "persona.json").write_text(text, encoding="utf-8")
            for _ in range(2):  # the second load is the one that may use a remembered pass
                assert _outcome(pack, state) == _outcome(pack, None)
