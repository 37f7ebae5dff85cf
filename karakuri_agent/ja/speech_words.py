"""The agent's own words that are not the persona's: the fallbacks, the forms of address and the joins between phrases."""

from __future__ import annotations

import re
from typing import Iterable

from karakuri_agent.ja.name_words import HONORIFICS
from karakuri_agent.patterns import lazy

# How an answer names the day of a plan that is not today's ('明日の17:00', '土曜の10:00').
DAY_AHEAD = {1: "明日の", 2: "あさっての"}
WEEKDAYS = "月火水木金土日"
WEEKDAY_OF = "曜の"


def plan_day(days: int, weekday: int) -> str:
    """The words before a plan's time: none for today's."""
    if days <= 0:
        return ""
    return DAY_AHEAD.get(days) or WEEKDAYS[weekday] + WEEKDAY_OF


# Used only when a tiny max_length leaves nothing else unused.
LAST_RESORT = ("…", "！", "♪", "うん", "ね", "あ", "え", "お", "ん", "？")

TERMINATORS = "。！？!?♪…"

CLOSERS = "」』）)〜~ー"

BRACKET_TAG = lazy(r"^[【\[（(][^】\]）)]*[】\]）)]|[【\[（(][^】\]）)]*[】\]）)]$")

FAMILY_GIVEN = lazy(r"^[\u4e00-\u9fff々]{2,3}([\u3040-\u30ffー]{2,6})$")

THANKS = lazy(r"ありがと|助か|サンキュ|感謝|thanks|thx", re.IGNORECASE)

APOLOGY = lazy(r"(?:^|(?<=[。！!？?]))(?:わり[ぃいー]?|わるい|悪い)(?:な|ね|のう)?(?:[、,！!。]|$)|[てで](?:わり[ぃいー]?|わるい|悪い)(?:な|ね|のう)?(?:[、,！!。]|$)|ごめ[〜ーぇ]*ん|^ごめ(?=[、,！!。]|$)|ゴメン|すみません|すまん|すまなかった|すまねえ|悪かった|わりがった|わるがった|申し訳|失礼(?:いた)?しました|失礼しちゃ|堪忍")

OPINION = lazy(r"どう思う|どうかな|どうだろ|どう[？?]")

QUESTION = lazy(r"[？?]")


ADDRESS = lazy(r"^[^、。！？!?]{1,16}?(?:" + "|".join(HONORIFICS) + r")、")
# A name called and nothing more ('あかりさん', 'あかりさん、'): no line.
ADDRESS_ONLY = lazy(r"^[^、。！？!?]{1,16}?(?:" + "|".join(HONORIFICS) + r")、?$")


# A line ending as a request or an order (送金して, 見てください, 来い).
REQUEST = lazy(r"(?:て|で|なさい|ください|下さい|しろ|せよ|くれ|ちょうだい|こい|来い)(?:よ|ね|な)?[。！!]*$")

# 白石ミオ: a family name in kanji and a given name in katakana, a person, not a topic.
PERSON_NAME = lazy(r"^[\u4e00-\u9fff]{1,3}[ァ-ヴー]{2,4}$")

# Kanji that may follow a one-kanji subject without making a longer word ('本好き').
SUBJECT_FOLLOWERS = "好嫌苦読買借"

# What a template's place, topic and time read as when the notification names none.
HERE = "ここ"
THERE = "そこ"  # a promised place not named: "there"
IT = "それ"
THAT_TIME = "その時間"
LIKE_WORD = "好き"  # a question about what one likes ("何が好き？")
PAUSE = "、"
# A place label in brackets, as the server writes a node's part: "(店内)".
BRACKETED_LABEL = lazy(r"[(（]\s*([^\s)）]+)[^)）]*[)）]")
# What a time text may end with that a template adds itself ("15時に" -> "15時").
TIME_PARTICLE = "に "


def is_kanji(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or ch == "々"


def addressed(partner: str, text: str) -> str:
    """The line opened with the partner's name: 'メイさん、こんにちは'."""
    return f"{partner}{PAUSE}{text}"


def tidy_unnamed(text: str) -> str:
    """'はじめまして、！' -> 'はじめまして！' when the partner has no usable name."""
    text = re.sub(r"、+(?=[。！？!?、]|$)", "", text)
    text = re.sub(r"(?<=[。！？!?])、+", "", text)  # 'メイ。、よろしく' -> 'メイ。よろしく'
    return re.sub(r"^[、。！!？?\s]+", "", text)


def usable_unnamed(template: str) -> bool:
    """A template reads well without a name when {partner} only sits between
    punctuation ('はじめまして、{partner}！'), not inside a phrase ('{partner}も')."""
    for match in re.finditer(r"\{partner\}", template):
        before = template[match.start() - 1] if match.start() else "、"
        after = template[match.end()] if match.end() < len(template) else "！"
        if before not in "、。！？!? " or after not in "、。！？!? ":
            return False
    return True


def join_sentences(parts: Iterable[str]) -> str:
    """Sentences run together the Japanese way, each closed by punctuation."""
    out = ""
    for part in filter(None, parts):
        if out and out[-1] not in TERMINATORS + CLOSERS:
            out += "。"
        out += part
    return out

# An answer that already opens with where it stands on a yes/no question ('うん、', 'あんまり…', 'もちろん').
STANCE_OPENING = lazy(r"^(?:うん|ううん|うーん|んー|えっと|えー|はい|いいえ|いや|ええ|もちろん|まあ|あんまり|あまり|全然|ぜんぜん|たまに|実は|じつは|そう|えへへ|ふふ)")
