"""Fitting a line to the server's limits: whole sentences within maxLength, never one said before."""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Collection, Iterable, Iterator, Sequence

from karakuri_agent.ja.speech_words import ADDRESS, ADDRESS_ONLY, CLOSERS, LAST_RESORT, PAUSE, TERMINATORS
from karakuri_agent.domain.limits import utf16_units

# How many candidates a tiny max_length may cut shorter before giving up.
_SHORTER_TRIES = 40


def cut_units(text: str, limit: int) -> str:
    """The longest prefix within ``limit`` units, never splitting a character
    or leaving a dangling emoji joiner or variation selector."""
    out, used = [], 0
    for ch in text:
        width = 2 if ord(ch) > 0xFFFF else 1
        if used + width > limit:
            break
        out.append(ch)
        used += width
    cut = "".join(out)
    while cut and (cut[-1] in "\u200d\ufe0f " or unicodedata.combining(cut[-1])):
        cut = cut[:-1]
    return cut


def _sentence_ends(text: str) -> Iterator[int]:
    """Indices just after a sentence ends ('！？' and a closing '」' stay with it)."""
    for i, ch in enumerate(text):
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if ch in TERMINATORS and nxt not in TERMINATORS + CLOSERS:
            yield i + 1
        elif (ch in CLOSERS and i > 0 and text[i - 1] in TERMINATORS + CLOSERS
              and nxt not in TERMINATORS + CLOSERS):
            yield i + 1


def _fit(text: str, max_length: int) -> tuple[str, bool]:
    """``text`` within ``max_length`` units, and whether it still reads as
    whole sentences: whole sentences if one fits, else up to a comma (shown
    as '…'), else a clean cut. Never empty."""
    if utf16_units(text) <= max_length:
        return text, True
    whole = [i for i in _sentence_ends(text) if utf16_units(text[:i]) <= max_length]
    if whole:
        return text[: whole[-1]], True
    commas = [i for i, ch in enumerate(text) if ch == PAUSE and utf16_units(text[: i + 1]) <= max_length]
    if commas and commas[-1] > 0:
        return text[: commas[-1]] + "…", False
    return cut_units(text, max_length) or "…", False


def _ends_cleanly(line: str, cut: str) -> bool:
    """Whether ``cut`` of ``line`` ends where a phrase does ('そっか' of 'そっか、なるほどね。'), not in a
    word ('それは大変だった' reads as broken)."""
    rest = line[len(cut):]
    return cut[-1] in TERMINATORS or rest[:1] in (PAUSE, *TERMINATORS)


def stable_index(seed: str, salt: str, size: int) -> int:
    """A choice that is the same on every run and machine (hash() is salted)."""
    digest = hashlib.sha256(f"{seed}\x1f{salt}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % size


def rotated(items: Sequence[str], seed: str, salt: str) -> list[str]:
    if not items:
        return []
    k = stable_index(seed, salt, len(items))
    return list(items[k:]) + list(items[:k])


def said_key(line: str) -> str:
    """What two lines are compared by to tell whether one was already said: no
    whitespace and no opening name. Spacing changes nothing in Japanese, and
    'メイさん、またね' says what 'またね' says. The gate compares by it too."""
    return ADDRESS.sub("", "".join(line.split()), count=1)


def choose_line(lines: Iterable[str], used: set[str], max_length: int, *,
                said_today: Collection[str] = ()) -> str:
    """The first line not said before that fits as whole sentences; else the
    first one cut to fit; for a tiny max_length with all of them used, a
    shorter cut or a one-word line still says something new.

    `used` is what may never be said again (to these people, in this talk);
    `said_today` what is better not said twice today to anyone: a whole line
    said today to someone else comes before a line cut short, which reads as
    broken ('へえ、そうな')."""
    seen: list[str] = []
    first_cut: str | None = None
    said_elsewhere: str | None = None
    for line in lines:
        fitted, whole = _fit(line, max_length)
        key = said_key(fitted)
        if key not in used:
            if whole and key not in said_today:
                return fitted
            if whole:
                said_elsewhere = said_elsewhere or fitted
            else:
                first_cut = first_cut or fitted
        seen.append(line)
    if said_elsewhere:
        return said_elsewhere
    if first_cut:
        return first_cut
    for line in list(dict.fromkeys(seen))[:_SHORTER_TRIES]:
        for limit in range(min(max_length, utf16_units(line)) - 1, 0, -1):
            shorter = cut_units(line, limit)
            # a cut keeps more than the opening name ('あかりさん、…' cut to 'あかりさん' says nothing)
            if shorter and said_key(shorter) not in used and not ADDRESS_ONLY.match(shorter) \
                    and _ends_cleanly(line, shorter):
                return shorter
    for word in LAST_RESORT:
        if utf16_units(word) <= max_length and said_key(word) not in used:
            return word
    return _fit(seen[0], max_length)[0] if seen else "…"
