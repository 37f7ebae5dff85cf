"""Any line at all is understood without failing, and what it is about is a piece of it, short."""

from __future__ import annotations

import re
import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.hearing import hear
from karakuri_agent.domain.understanding import KINDS
from karakuri_agent.reading.morphemes import nouns, words
from karakuri_agent.reading.normalised import normalised, unspaced

JAPANESE = st.text(alphabet=st.sampled_from(list("あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをんがぎぐげご"
                                                "っゃゅょーアイウカキクサシスタチツナニヌハヒフマミムラリルンー日本市民走手伝猫犬雨今明来週行好嫌"
                                                "、。！？?!…～ 　0123456789abc@#")), max_size=120)


@settings(max_examples=200, deadline=None)
@given(JAPANESE)
@example("なbえ")
def test_any_line_is_understood(line: str) -> None:
    heard = hear(line, own_names=("ニケ",))
    if not line.strip():
        assert heard is None
        return
    assert heard is not None and heard.kind in KINDS
    if heard.topic and not heard.phrase:
        # Read from the line as written without spaces and emoji ('いっしょに いると' is one phrase).
        plain = "".join(ch for ch in line if not ch.isspace() and unicodedata.category(ch) not in ("So", "Sk", "Cf", "Mn"))
        # a letter left over from typing in romaji between two Japanese letters ('えbこ') is read as not there,
        # or as the kana it makes with the vowel after it ('なbえ' is なべ)
        retyped = re.sub(r"(?<=[ぁ-ヿ一-鿿])[a-vx-z](?=[ぁ-ヿ一-鿿、。！？?!…～ 　]|$)", "", plain)
        assert (heard.topic in plain or heard.topic in retyped or heard.topic in unspaced(normalised(line))) \
            and (len(heard.topic) < 8 or len(words(heard.topic)) == 1)


@settings(max_examples=200, deadline=None)
@given(JAPANESE)
def test_nouns_are_pieces_of_the_line(line: str) -> None:
    assert all(noun and noun in line for noun in nouns(line))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["来週", "市民マラソン", "に", "出る", "んだ", "、", "財布", "なくしちゃった", "やっぱり", "旅行", "は",
                                  "やめた", "公民館の会議室", "に変更になった", "って", "よ", "！", "引っ越し", "を", "手伝った"]),
                min_size=1, max_size=10).map("".join))
@example("公民館の会議室に変更になった公民館の会議室なくしちゃった")
def test_what_is_said_back_never_repeats_eight_characters_of_the_line(line: str) -> None:
    heard = hear(line)
    assert heard is not None
    said = heard.clause or heard.topic
    # The thing told, named (and a な after it): a short noun phrase may meet the line's next kana by chance
    # (公民館の会議室 + な of なくしちゃった); a long one would itself be an echo.
    named = (len(words(heard.topic)) == 1 or len(heard.topic) < 8) and said in (heard.topic, heard.topic + "な")
    assert named or not any(line[i:i + 8] in said for i in range(len(line) - 7)), (line, said)
