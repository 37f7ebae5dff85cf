"""The agent's own words that are not the persona's: the fallbacks, the forms of address and the joins between phrases."""

from __future__ import annotations

import re

# Used only when a tiny max_length leaves nothing else unused.
LAST_RESORT = ("…", "！", "♪", "うん", "ね", "あ", "え", "お", "ん", "？")

HONORIFICS = (
    "ちゃん", "くん", "君", "さん", "様", "さま", "先生", "せんせい",
    "先輩", "センパイ", "氏", "たん", "っち", "殿",
)

TERMINATORS = "。！？!?♪…"

CLOSERS = "」』）)〜~ー"


BRACKET_TAG = re.compile(r"^[【\[（(][^】\]）)]*[】\]）)]|[【\[（(][^】\]）)]*[】\]）)]$")

FAMILY_GIVEN = re.compile(r"^[\u4e00-\u9fff々]{2,3}([\u3040-\u30ffー]{2,6})$")

THANKS = re.compile(r"ありがと|助か|サンキュ|感謝|thanks|thx", re.IGNORECASE)

APOLOGY = re.compile(r"ごめん|すみません|すまん|悪かった|申し訳")

OPINION = re.compile(r"どう思う|どうかな|どうだろ|どう[？?]")

QUESTION = re.compile(r"[？?]")

GREETING = re.compile(r"こんにちは|おはよう|こんばんは|やっほー|はじめまして")

ADDRESS = re.compile(r"^[^、。！？!?]{1,16}?(?:" + "|".join(HONORIFICS) + r")、")

# Taking up a word of the partner's line the pack has nothing for: neutral, whatever the word.
ECHOES = ("{topic}の話、もっと聞かせて！", "えっ、{topic}？それでそれで？", "{topic}かあ、なるほどね。")

# A run of kanji or katakana: the words a Japanese line carries its content in.
CONTENT_RUN = re.compile(r"[\u4e00-\u9fff々ァ-ヴー]{2,}")

# What may follow a noun ending in kanji; anything else (がり, け, き) makes it part of another word.
AFTER_NOUN = frozenset("のをにでへはもとや、。！？!?しっ")

# が marks a subject (帽子が), unless a verb goes on (雨上がり, 上がって).
SUBJECT = re.compile(r"^が(?![りるれろっ])")

# Words saying when, not what: nothing to take up.
WHEN_WORDS = frozenset({"今日", "昨日", "明日", "最近", "今度", "今朝", "今夜", "毎日", "以前", "前回"})

# A line ending as a request or an order (送金して, 見てください, 来い).
REQUEST = re.compile(r"(?:て|で|なさい|ください|下さい|しろ|せよ|くれ|ちょうだい|こい|来い)(?:よ|ね|な)?[。！!]*$")

# 白石ミオ: a family name in kanji and a given name in katakana, a person, not a topic.
PERSON_NAME = re.compile(r"^[\u4e00-\u9fff]{1,3}[ァ-ヴー]{2,4}$")

# Kanji that may follow a one-kanji subject without making a longer word ('本好き').
SUBJECT_FOLLOWERS = "好嫌苦読買借"
