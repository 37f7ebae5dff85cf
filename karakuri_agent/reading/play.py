"""Word play a line starts, and how it is played back: a classic riddle's answer, a pun laughed at,
a shiritori word that starts with the partner's last sound.

What a Japanese speaker knows by heart is data (ja/lexicon/play.json), not
patterns: a riddle is known by its words and answered ('パンはパンでも食べられないパンは
なーんだ？' → フライパン), a pun is known and laughed at, and shiritori is played
by its one rule (the word said next starts with the sound the last one ended
on; a word ending in ん loses).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from karakuri_agent.ja.word_classes import LONG_VOWEL
from karakuri_agent.reading.morphemes import hiragana, katakana, words
from karakuri_agent.shipped import shipped

__all__ = ["played"]


@functools.lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(shipped("ja", "lexicon", "play.json").read_text(encoding="utf-8"))
    return data


def _folded(text: str) -> str:
    """The line as play.json's entries are written: katakana as hiragana, no spaces."""
    return hiragana("".join(text.split()))


def played(text: str) -> tuple[str, str] | None:
    """The game ``text`` plays and what plays it back: ('riddle', its answer), ('pun', ''), ('shiritori',
    the word said next) or ('shiritori_lost', '': the partner's word ended in ん); None when it plays none."""
    folded = _folded(text)
    data = _data()
    for riddle in data["riddles"]:
        if any(ask in folded for ask in riddle["asks"]):
            return "riddle", riddle["answer"]
    if any(pun in folded for pun in data["puns"]):
        return "pun", ""
    game = data["shiritori"]
    if any(ask in folded for ask in game["asks"]):
        return _next_word(text, game)
    return None


def _next_word(text: str, game: dict[str, Any]) -> tuple[str, str] | None:
    """The word that follows the line's last word in kana ('じゃあ、りんご' → 'ゴリラ'); with no word of the
    partner's, the game's own name starts it ('しりとりしよ' → 'りす'). A word in kanji has a reading only the
    analyzer guesses: None, the line is read as what else it is."""
    asked = max(text.rfind(ask) for ask in game["asks"])
    nouns = [w.surface for w in words(text[asked:])[1:] if w.pos == "noun" and not w.proper]  # no one's name
    if nouns and not all(_is_kana(ch) for ch in nouns[-1]):
        return None
    last = _folded(nouns[-1]).rstrip(LONG_VOWEL) if nouns else game["asks"][0]
    if not last:
        return None
    end = game["small"].get(last[-1], last[-1])
    if end == game["lost"]:
        return "shiritori_lost", ""
    word = game["words"].get(end)
    return ("shiritori", word) if word else None


def _is_kana(ch: str) -> bool:
    """Hiragana, katakana or the long-vowel mark: a letter whose sound shiritori can read."""
    return ch != hiragana(ch) or ch != katakana(ch) or ch == LONG_VOWEL
