"""How people tell about themselves and others in Japanese: likes, plans, where they are from, what they do."""

from __future__ import annotations

import re

from karakuri_agent.domain.facts import DISLIKE, EVENT, FAMILY, LIKE, NEWS, PET, WORK

# A noun as a topic: kanji, katakana (with ー and ・), Latin letters; 1-12 of them, or kanji with one
# kana between (編み物, 落し物); never a run that ends in kana, which may be a verb.
NOUN = r"(?:[\u4e00-\u9fff々][ぁ-ん][\u4e00-\u9fff々]|[\u4e00-\u9fff々〆ァ-ヴーa-zA-Zａ-ｚＡ-Ｚ・]{1,12})"

NAME = r"[ァ-ヴー]{2,8}|[ぁ-ん]{2,6}"

PETS = {"猫": "猫", "ねこ": "猫", "ネコ": "猫", "犬": "犬", "いぬ": "犬", "イヌ": "犬", "うさぎ": "うさぎ",
         "ウサギ": "うさぎ", "ハムスター": "ハムスター", "インコ": "インコ", "金魚": "金魚", "カメ": "カメ"}

_FAMILY = {"妹": "妹さん", "弟": "弟さん", "姉": "お姉さん", "兄": "お兄さん", "娘": "娘さん",
           "息子": "息子さん", "母": "お母さん", "父": "お父さん", "おばあちゃん": "おばあちゃん",
           "おじいちゃん": "おじいちゃん", "祖母": "おばあさん", "祖父": "おじいさん"}

IS = r"(?:なんだ|なの|です|だよ|だな|だ|なんです|んだ)?"

OWN = r"(?:^|(?:私|わたし|僕|ぼく|俺|おれ|あたし|うち)(?:は|、)?)"

# Plans: the words of a dated plan and the topic they are remembered by.
PLAN_WORDS = (
    (re.compile(r"引っ越(?:す|しする|しします|します|しなんだ|しをする)"), "引っ越し"),
    (re.compile(r"旅行に行|旅行(?:する|します)"), "旅行"),
    (re.compile(r"結婚(?:する|します|式)"), "結婚"),
    (re.compile(r"(?:試験|テスト)が(?:ある|あります)"), "試験"),
    (re.compile(r"発表が(?:ある|あります)"), "発表"),
    (re.compile(r"面接が(?:ある|あります)"), "面接"),
    (re.compile(r"試合が(?:ある|あります)"), "試合"),
    (re.compile(r"誕生日"), "誕生日"),
)

WEEKDAYS = "月火水木金土日"

DATE = re.compile(
    r"(?P<rel>今日|明日|あした|明後日|あさって)"
    r"|(?P<week>今週|来週|再来週)の?(?P<wd>[月火水木金土日])曜(?:日)?"
    r"|(?P<weekend>今週末|週末|来週末)"
    r"|(?P<next>来週|来月)"
    r"|(?:(?P<m>\d{1,2})月)?(?P<d>\d{1,2})日"
)

# Things that happened to them: a time behind them, then something done.
_EVENT = re.compile(r"(?:昨日|きのう|この前|先週|おととい|一昨日)、?(?P<topic>" + NOUN + r")(?:を|に|で|が)?"
                    r"(?:しちゃった|しちゃって|したんだ|してきた|しました|行ってきた|になった|があった)")

# Town news: a new place opened, somewhere named.
_NEWS = re.compile(r"(?P<where>" + NOUN + r")に新しい(?P<what>" + NOUN + r")が(?:できた|オープンした|開いた)")

# A retraction of a plan: "やっぱり引っ越しはやめた", "旅行、中止になった".
RETRACT = re.compile(r"(?:やっぱり|やっぱ)?、?(?P<topic>" + NOUN + r")?(?:は|、|も)?"
                      r"(?:やめた|やめる|やめにした|中止になった|中止した|なしになった|なくなった|取りやめ)")

QUESTION = re.compile(r"[？?]|か$")

NEGATED = re.compile(r"じゃない|ではない|じゃなく|なかった|ません|ないよ|ないんだ|ない$")

SOMEONE_ELSE = re.compile(r"(?<!私)(?<!わたし)(?<!僕)(?<!ぼく)(?<!俺)(?<!おれ)(?<!あたし)(?<!うち)[がは]")

# How a fact of each kind is brought back ({topic}: its word; {detail}: what the news was).
RECALL_LINES = {
    PET: "{topic}ちゃん、元気？",
    LIKE: "最近も{topic}、楽しんでる？",
    DISLIKE: "そういえば{topic}、苦手って言ってたよね。",
    FAMILY: "{topic}は元気？",
    WORK: "{topic}のお仕事、忙しい？",
    EVENT: "この前の{topic}、その後どう？",
    NEWS: "{detail}ができたんだって！",
}
