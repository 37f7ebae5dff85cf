"""Splitting a line into sentences: the one splitter the readers share.

A sentence ends at 。！？ (or their ASCII forms), taking any run of them and
the closing brackets after them along; a line break ends one too.
"""

from __future__ import annotations

import re

SENTENCE = re.compile(r"[^。！？!?\n]*(?:[。！？!?]+[」』）)]*|$)")


def split_sentences(text: str) -> list[str]:
    """The sentences of `text`, stripped, none empty: 'うん！本が好き。' -> ['うん！', '本が好き。']."""
    return [s.strip() for s in SENTENCE.findall(text) if s.strip()]


def is_asking(sentence: str) -> bool:
    """A sentence with a question mark (full-width or ASCII) asks something."""
    return "？" in sentence or "?" in sentence
