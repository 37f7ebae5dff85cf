"""Any line at all is understood without failing, and what it is about is a piece of it, short."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.listening import KINDS, hear
from karakuri_agent.reading.words import nouns

JAPANESE = st.text(alphabet=st.sampled_from(list("あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんがぎぐげご"
                                                "っゃゅょーアイウカキクサシスタチツナニヌハヒフマミムラリルンー日本市民走手伝猫犬雨今明来週行好嫌"
                                                "、。！？?!…～ 　0123456789abc@#")), max_size=120)


@settings(max_examples=200, deadline=None)
@given(JAPANESE)
def test_any_line_is_understood(line: str) -> None:
    heard = hear(line, own_names=("ニケ",))
    if not line.strip():
        assert heard is None
        return
    assert heard is not None and heard.kind in KINDS
    if heard.topic and not heard.phrase:
        assert heard.topic in line and len(heard.topic) <= 16


@settings(max_examples=200, deadline=None)
@given(JAPANESE)
def test_nouns_are_pieces_of_the_line(line: str) -> None:
    assert all(noun and noun in line for noun in nouns(line))
