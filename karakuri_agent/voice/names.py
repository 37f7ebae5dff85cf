"""How the agent says a name: a person's, with the persona's honorific; a place's, as people say it."""

from __future__ import annotations

import re
import unicodedata

from karakuri_agent.ja import place_words
from karakuri_agent.ja.name_words import HONORIFICS, NICKNAME_ENDINGS
from karakuri_agent.ja.phrases import DEFAULT_HONORIFIC
from karakuri_agent.ja.safety import clean_text
from karakuri_agent.ja.speech_words import BRACKET_TAG, BRACKETED_LABEL, FAMILY_GIVEN, TIME_PARTICLE
from karakuri_agent.voice.fitting import cut_units
from karakuri_agent.voice.persona_pack import LONGEST_LABEL, LONGEST_NAME

_BOT_TAG = re.compile(r"[\W_]*(?:(?<![A-Za-z])[Bb][Oo][Tt]|(?<=[a-z])B[Oo][Tt])$")

_NAME_CAP = LONGEST_NAME
_LABEL_CAP = LONGEST_LABEL


def _strip_decorations(name: str) -> str:
    """'Luna☆Bot' -> 'Luna', '【公式】メイ♪' -> 'メイ'."""
    name = BRACKET_TAG.sub("", name).strip()
    name = _BOT_TAG.sub("", name).strip() or name
    name = "".join(ch for ch in name if unicodedata.category(ch) not in ("So", "Sk", "Sm"))
    name = name.replace("\u200d", "").replace("\ufe0f", "")
    while name and unicodedata.category(name[0])[0] in "PZ":
        name = name[1:]
    while name and unicodedata.category(name[-1])[0] in "PZ":
        name = name[:-1]
    return name


def address_name(name: str | None, honorific: str = DEFAULT_HONORIFIC) -> str:
    """How the agent calls someone: 'メイさん', 'コウくん', 'Lunaさん'; '' if unusable.

    ``honorific`` is the persona's (a pack may say 'くん', '様' or nothing).

    A kanji family name followed by a kana given name is shortened to the
    given name, the way the town's people call each other ('桜草メイ' ->
    'メイさん'). An honorific already there is kept, never doubled.
    """
    if not name:
        return ""
    bare = _strip_decorations(clean_text(name))
    if not bare:
        return ""
    if bare.endswith(HONORIFICS):
        return cut_units(bare, _NAME_CAP)
    given = FAMILY_GIVEN.match(bare)
    if given:
        bare = given.group(1)
    return cut_units(bare, _NAME_CAP - len(honorific)) + honorific


def place_label_of(place_name: str | None) -> str:
    """'6-11 (喫茶店 店内)' -> '喫茶店'; '本屋「栞」' stays as it is."""
    if not place_name:
        return ""
    label = clean_text(place_name)
    label = re.sub(r"^\d+-\d+\s*", "", label)
    inner = BRACKETED_LABEL.fullmatch(label)
    if inner:
        label = inner.group(1)
    return cut_units(label.strip(), _LABEL_CAP)


def time_label_of(time_text: str | None) -> str:
    """'18時に' -> '18時' so templates can say '{time}に' without doubling it."""
    if not time_text:
        return ""
    label = clean_text(time_text).rstrip(TIME_PARTICLE)
    return cut_units(label, _LABEL_CAP)


def given_name_of(name: str) -> str:
    """'黒瀬コウ' -> 'コウ', 'コウくん' -> 'コウ': how a line names someone."""
    called = address_name(name)
    for honorific in sorted(HONORIFICS, key=len, reverse=True):
        if called.endswith(honorific):
            return called[: -len(honorific)]
    return called


def called_names(name: str) -> tuple[str, ...]:
    """Every way a partner's line may call someone: '黒瀬コウ' → 'コウ', 'Kai_07' → 'Kai07', 'Kai'
    (a handle's letters), 'ひよりん' → 'ひより' (a nickname's stem: ひよりさん, ひよりちゃん)."""
    given = given_name_of(name)
    handle = _strip_decorations(name)
    letters = m.group() if handle.isascii() and (m := re.match(r"[A-Za-z]+", handle)) else ""
    stem = given[:-1] if len(given) >= 3 and given.endswith(NICKNAME_ENDINGS) else ""
    return tuple(dict.fromkeys(n for n in (given, letters, stem) if len(n) >= 2))


def place_word_of(name: str) -> str:
    """'本屋 店内' -> '本屋': the building, as people say it."""
    label = place_label_of(name)
    return place_words.building(label) if label else ""
