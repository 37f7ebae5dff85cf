"""No reply is the partner's name alone: whatever was said, whichever seed, opening a talk or answering in it.

A plan whose parts all fell to the filters (cheer after bad news, words to
avoid, what was said already) once left only the opening name (「あかりさん」
for a failed exam, said again the next day).
The lines are the development corpus's, which people wrote as partners do.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import compose

pytestmark = pytest.mark.fuzz

CORPUS = Path(__file__).resolve().parents[1] / "benchmarks" / "understanding" / "dev-1.json"
LINES = [item["line"] for item in json.loads(CORPUS.read_text(encoding="utf-8"))["items"]]
PERSONA = load_persona()


@settings(max_examples=300, deadline=None)
@given(line=st.sampled_from(LINES), seed=st.text(max_size=6), purpose=st.sampled_from(["reply", "accept"]),
       known=st.booleans(), name=st.sampled_from(["あかり", "源", "ミオ", "Alex"]))
def test_a_reply_is_never_the_partners_name_alone(line, seed, purpose, known, name):
    said: list[str] = []
    for _ in range(3):  # what it said already is not said again: the pool thins out turn by turn
        said.append(compose(purpose, persona=PERSONA, partner_name=name, partner_known=known, last_line=line,
                            seed=seed, previous_lines=said, said_today=said))
        called = {f"{name}{honorific}" for honorific in ("", "さん", "ちゃん", "くん")}
        assert said[-1].strip().rstrip("、。") not in called and said[-1].strip(), (line, said)
