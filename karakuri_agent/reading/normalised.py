"""A line as the reader reads it: emoji and marks dropped, spaces between Japanese words closed, a dialect's
forms said as the standard ones the rest of the reader knows, a question with no mark given one.

Kept apart from reading/hearing.py so the one reading of a line starts from one normal form.
"""

from __future__ import annotations

import re
import unicodedata

from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.word_classes import KANJI_LETTER, STANDARD_DOKO, TOHOKU_DOGO, TOHOKU_VOICED
from karakuri_agent.ja.safety import thoughts_broken
from karakuri_agent.ja.sentences import is_asking, split_sentences, without_explaining

_MARKS = ("So", "Sk", "Cf", "Mn")  # emoji, their modifiers and joiners


def unspaced(text: str) -> str:
    """The line as words run together: kana written with spaces ('すきな いろ') names what it names."""
    return "".join(text.split())


_KANJI = re.compile(KANJI_LETTER)


def normalised(text: str) -> str:
    """Spaces between Japanese words dropped ('いっしょに いると たのしい'), a question with no
    question mark given one ('あさとよる どっちがすき' → '…どっちがすき？')."""
    # an emoji with a space after it ends what was said before ('おにごっこしよ🎤 楽しみ'): a full stop
    text = "".join(listening_cues.MARK if unicodedata.category(ch) in _MARKS else ch for ch in text)
    text = listening_cues.MARKS_THEN_SPACE.sub(listening_cues.FULL_STOP, text).replace(listening_cues.MARK, "").strip()
    text = listening_cues.KAOMOJI.sub("", text)  # 'おはよ〜☀️(｡•̀ᴗ-)✧' greets as 'おはよ〜' does
    text = listening_cues.ROMAJI_SYLLABLE.sub(_syllable, text)  # 'まｔあな' is またな
    text = listening_cues.IME_LEFTOVER.sub(_romaji, text)  # '図書館d' is 図書館: a typo, never said back
    text = _undrawn(text)  # 'くださぁい', 'すごぉい' say ください, すごい drawn out
    # a wide space typed between two thoughts ends one ('課題おわらん　締め切り明日なのに', '好きな本てなに　ずっと
    # 気になってた'); a narrow one between kana words does not ('あした ぱぱと つりに')
    text = thoughts_broken(text, listening_cues.FULL_STOP)  # as ja/safety.clean_line keeps it
    text = re.sub(r"(?<=[^\x00-\x7f])[ \u3000]+(?=[^\x00-\x7f])", "", text)
    text = listening_cues.KANJI_CLOCK.sub(_clock_in_digits, text)  # 'やっぱ九時にすっぺ' names 9時
    text = listening_cues.TOHOKU_SUKI.sub(listening_cues.STANDARD_SUKI, text)
    text = _unvoiced(text)  # 'ばあちゃん、先週亡ぐなったのっさ' tells of 亡くなる
    text = re.sub(TOHOKU_DOGO, STANDARD_DOKO, text)  # 'これがら、どごさ行ぐの？' asks where
    text = listening_cues.DIALECT_NAKU.sub(listening_cues.STANDARD_NAKU, text)
    text = listening_cues.KANSAI_NAN.sub(listening_cues.STANDARD_NO, text)  # '平気なん？' asks as '平気なの？' does
    # '三千円やけどな' concedes as '三千円だけどな' does: no burn (火傷) for the analyzer to find
    text = listening_cues.KANSAI_YAKEDO.sub(listening_cues.STANDARD_KEDO, text)
    text = listening_cues.FOUND_YOU.sub(listening_cues.FOUND, text)  # 'いたいた！' is 'there you are', no pain
    # '風強ない？', '寒ない？' deny as '強くない？' does: an adjective's stem right before ない
    text = listening_cues.STEM_NAI.sub(_adjective_nai, text)
    out = []
    for sentence in split_sentences(text):
        bare = sentence.rstrip(listening_cues.SENTENCE_TAIL)
        if not is_asking(sentence) and listening_cues.BARE_QUESTION.search(without_explaining(bare)) and not listening_cues.FAREWELL.search(sentence):
            sentence = bare + listening_cues.QUESTION_MARKS[0]
        out.append(sentence)
    return "".join(out)


def _syllable(found: re.Match[str]) -> str:
    """A consonant typed in romaji and the vowel kana after it: the kana they make together."""
    row = listening_cues.ROMAJI_ROWS[unicodedata.normalize("NFKC", found.group(1)).lower()]
    return row[listening_cues.ROMAJI_VOWELS.index(found.group(2))]


def _romaji(found: re.Match[str]) -> str:
    """Any other letter left from typing in romaji: an n before a kana, ん ('ごめｎね'); else nothing ('だtった'
    is だった, 'なしｎ！' なし)."""
    letter = unicodedata.normalize("NFKC", found.group()).lower()
    after = found.string[found.end():found.end() + 1]
    return listening_cues.KANA_N if letter == listening_cues.ROMAJI_N and listening_cues.KANA.fullmatch(after or "x") else ""


def _clock_in_digits(found: re.Match[str]) -> str:
    """'九時' → '9時', '十一時' → '11時'."""
    number = sum(listening_cues.KANJI_DIGITS[ch] for ch in found["n"])
    return f"{number}{found.group()[len(found['n']):]}"


def _unvoiced(text: str) -> str:
    """Tohoku's voiced か-row after a kanji read unvoiced ('亡ぐなった' → '亡くなった', '行ぐべ', '起ぎれっか',
    '大ぎい') where only so the analyzer reads the kanji and the kana as one verb or adjective: '急ぐ', '投げる'
    read as they are stay as written. The analyzer runs only for a line holding such a pair."""
    spots = [i for i in range(1, len(text)) if text[i] in TOHOKU_VOICED and _KANJI.fullmatch(text[i - 1])]
    if not spots:
        return text
    from karakuri_agent.reading.morphemes import words  # the analyzer: only for a line that may need it

    def one_word(piece: str) -> bool:
        first = words(piece)[:1]
        return bool(first) and first[0].pos in ("verb", "adjective") and first[0].surface.startswith(piece[:2])

    for i in spots:
        window = text[i - 1:i + 4]
        plain = window[0] + TOHOKU_VOICED[window[1]] + window[2:]
        if not one_word(window) and one_word(plain):
            text = text[:i] + TOHOKU_VOICED[text[i]] + text[i + 1:]
    return text


def _vowel(letter: str) -> str:
    """The vowel a kana letter ends in ('さ' → 'A'), '' for anything else."""
    name = unicodedata.name(letter, "")
    return name[-1] if name.startswith(("HIRAGANA LETTER", "KATAKANA LETTER")) and "SMALL" not in name else ""


def _undrawn(text: str) -> str:
    """A small vowel after a letter ending in that vowel dropped: a voice drawn out in writing
    ('くださぁい', 'だよぉ'); one that makes a sound of its own stays ('ファン', 'ティー')."""
    return "".join(ch for i, ch in enumerate(text)
                   if not (i and ch in listening_cues.SMALL_VOWELS and _vowel(text[i - 1]) == listening_cues.SMALL_VOWELS[ch]))


def _adjective_nai(found: re.Match[str]) -> str:
    """Kansai's 'X ない' as 'Xくない' when X with い is one adjective to the analyzer (強い, 寒い), else as written."""
    from karakuri_agent.reading.morphemes import words  # the analyzer: only for a line saying ない after a kanji

    stem = found.group("stem")
    read = words(stem + listening_cues.ADJECTIVE_I)
    if len(read) == 1 and read[0].pos == "adjective" and read[0].lemma.startswith(stem):  # not 百均 as 等しい
        return stem + listening_cues.ADJECTIVE_KU_NAI + found.group("end")
    return found.group(0)
