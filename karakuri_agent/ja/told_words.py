"""How people tell about themselves and others in Japanese: likes, plans, where they are from, what they do."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

from karakuri_agent.domain.fact_kinds import DISLIKE, EVENT, FAMILY, LIKE, NEWS, PET, PLAN, WORK
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.ja.sentences import is_asking
from karakuri_agent.patterns import lazy

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
    (lazy(r"引っ越(?:す|しする|しします|します|しなんだ|しをする)"), "引っ越し"),
    (lazy(r"旅行に行|旅行(?:する|します)"), "旅行"),
    (lazy(r"結婚(?:する|します|式)"), "結婚"),
    (lazy(r"(?:試験|テスト)が(?:ある|あります)"), "試験"),
    (lazy(r"発表が(?:ある|あります)"), "発表"),
    (lazy(r"面接が(?:ある|あります)"), "面接"),
    (lazy(r"試合が(?:ある|あります)"), "試合"),
    (lazy(r"誕生日"), "誕生日"),
)

WEEKDAYS = "月火水木金土日"

DATE = lazy(
    r"(?P<rel>今日|明日|あした|明後日|あさって)"
    r"|(?P<week>今週|来週|再来週)の?(?P<wd>[月火水木金土日])曜(?:日)?"
    r"|(?P<weekend>今週末|週末|来週末)"
    r"|(?P<next>来週|来月)"
    r"|(?:(?P<m>\d{1,2})月)?(?P<d>\d{1,2})日"
)

# Things that happened to them: a time behind them, then something done.
_EVENT = lazy(r"(?:昨日|きのう|この前|先週|おととい|一昨日)、?(?P<topic>" + NOUN + r")(?:を|に|で|が)?"
                    r"(?:しちゃった|しちゃって|したんだ|してきた|しました|行ってきた|になった|があった)",
              needs=("昨日", "きのう", "この前", "先週", "おととい"))

# Town news: a new place opened, somewhere named.
NEWS_LINE = lazy(r"(?P<where>" + NOUN + r")に新しい(?P<what>" + NOUN + r")が(?:できた|オープンした|開いた)",
                 needs=("に新しい",))

# A retraction of a plan: "やっぱり引っ越しはやめた", "旅行、中止になった".
RETRACT = lazy(r"(?:やっぱり|やっぱ)?、?(?P<topic>" + NOUN + r")?(?:は|、|も)?"
                      r"(?:やめた|やめる|やめにした|中止になった|中止した|なしになった|なくなった|取りやめ)",
               needs=("やめ", "中止", "なしになった", "なくなった"))

QUESTION = lazy(r"[？?]|か$")

NEGATED = lazy(r"じゃない|ではない|じゃなく|なかった|ません|ないよ|ないんだ|ない$")

SOMEONE_ELSE = lazy(r"(?<!私)(?<!わたし)(?<!僕)(?<!ぼく)(?<!俺)(?<!おれ)(?<!あたし)(?<!うち)[がは]")

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

_PET = "|".join(sorted(PETS, key=len, reverse=True))

_FAM = "|".join(sorted(_FAMILY, key=len, reverse=True))

def without_ending(sentence: str) -> str:
    return sentence.rstrip("。！!♪〜~ー…")

def resolve_date(sentence: str, said_at: datetime) -> date | None:
    """The day a date word means, counted from when the line was said (in the world's zone)."""
    found = DATE.search(sentence)
    if found is None:
        return None
    today = said_at.astimezone(TOKYO).date()
    if found["rel"]:
        return today + timedelta(days={"今日": 0, "明日": 1, "あした": 1}.get(found["rel"], 2))
    if found["wd"]:
        monday = today - timedelta(days=today.weekday())
        weeks = {"今週": 0, "来週": 1, "再来週": 2}[found["week"]]
        return monday + timedelta(weeks=weeks, days=WEEKDAYS.index(found["wd"]))
    if found["weekend"]:
        saturday = today + timedelta(days=(5 - today.weekday()) % 7)
        return saturday + timedelta(weeks=1) if found["weekend"] == "来週末" else saturday
    if found["next"] == "来週":
        return today - timedelta(days=today.weekday()) + timedelta(weeks=1)
    if found["next"] == "来月":
        return (today.replace(day=1) + timedelta(days=32)).replace(day=1)
    day = int(found["d"])
    month = int(found["m"]) if found["m"] else today.month
    try:
        when = date(today.year, month, day)
    except ValueError:
        return None
    if when < today - timedelta(days=7):  # "3日に" said on the 28th: next month's (or next year's)
        try:
            when = date(today.year + 1, month, day) if found["m"] else (
                (today.replace(day=1) + timedelta(days=32)).replace(day=day))
        except ValueError:
            return None
    return when

# What the speaker says of themselves, each pattern with the fixed words every match of it holds.
_PET_KEPT = lazy(rf"(?P<pet>{_PET})を飼って(?:る|いる|います|て)", needs=("を飼って",))
_PET_NAMED = lazy(rf"(?P<name>{NAME})(?:っていう|という|って)(?P<pet>{_PET})を飼って", needs=("を飼って",))
_LIKE = lazy(rf"{OWN}(?P<topic>{NOUN})が(?P<how>大好き|好き|苦手|嫌い){IS}$", needs=("好き", "苦手", "嫌い"))
_FAMILY_HAS = lazy(rf"{OWN}(?P<who>{_FAM})が(?:いる|います|いて|いるんだ)", needs=("がい",))
_WORK = lazy(rf"(?P<topic>{NOUN})で(?:働いて|バイトして|勤めて)|(?P<at>{NOUN})に勤めて|仕事は(?P<job>{NOUN}){IS}$",
             needs=("働いて", "バイトして", "勤めて", "仕事は"))


def _own(plain: str, start: int) -> bool:
    """Nobody else is the subject before `start` ('弟が猫を飼ってる' is the brother's cat, not the speaker's)."""
    return SOMEONE_ELSE.search(plain[:start]) is None

def personal_facts(sentence: str) -> list[tuple[str, str, str, bool]]:
    """(kind, topic, detail, needs a date) read from one of the speaker's sentences about themselves."""
    plain = without_ending(sentence)
    found: list[tuple[str, str, str, bool]] = []
    pet = _PET_KEPT.search(plain)
    named = _PET_NAMED.search(plain)
    if named and _own(plain, named.start()):
        found.append((PET, named["name"], PETS[named["pet"]], False))
    elif pet and not named and _own(plain, pet.start()):
        name = re.search(rf"名前は(?P<name>{NAME})", plain)
        found.append((PET, name["name"] if name else PETS[pet["pet"]], PETS[pet["pet"]], False))
    if NEGATED.search(plain):
        return found
    like = _LIKE.search(plain)
    if like:
        found.append((DISLIKE if like["how"] in ("苦手", "嫌い") else LIKE, like["topic"], "", False))
    family = _FAMILY_HAS.search(plain)
    if family:
        found.append((FAMILY, _FAMILY[family["who"]], family["who"], False))
    work = _WORK.search(plain)
    if work and _own(plain, work.start()):
        found.append((WORK, work["topic"] or work["at"] or work["job"], "", False))
    for pattern, topic in PLAN_WORDS:
        plan = pattern.search(plain)
        if plan:
            if _own(plain, plan.start()):
                found.append((PLAN, topic, "", True))
            break
    event = _EVENT.search(plain)
    if event and not any(kind == PLAN for kind, *_ in found):
        found.append((EVENT, event["topic"], "", False))
    return found


def is_question(plain_sentence: str, sentence: str) -> bool:
    """A question tells nothing."""
    return bool(QUESTION.search(plain_sentence)) or is_asking(sentence)


TAKING_BACK = "やっぱ"  # "やっぱりやめた": a retraction even without the plan's name


def news_topic(where: str, what: str) -> str:
    return f"{where}の{what}"


def news_detail(where: str, what: str) -> str:
    return f"{where}に新しい{what}"


def ask_after_pet(kind: str) -> str:
    """A pet known only by its kind (猫) is asked after as 猫ちゃん."""
    return f"{kind}ちゃん、元気にしてる？"


def ask_about_plan(topic: str, days_left: int) -> str:
    """A plan brought back before its day, on it, or after it."""
    if days_left > 0:
        return f"{topic}の準備、進んでる？"
    return f"{topic}、今日だよね！" if days_left == 0 else f"{topic}、どうだった？"


# Someone named at the start of a line of news about them: '{name}さん、入院したらしいよ', 'メイちゃんとこ、…'.
ABOUT_SOMEONE = lazy(r"^(?:ねえ|あのね|そういえば|聞いた[？?]?)?、?(?!(?:オレ|ボク|ウチ|ワタシ|アタシ|ワシ)[、はが])"
                           r"(?:(?P<name>[ァ-ヴー]{2,8}|[\u4e00-\u9fff]{1,3}[ァ-ヴー]{2,6})(?:さん|くん|君|ちゃん|さま|様)?"
                           r"|(?!お|みな|あか|ねえ|にい|ばあ|じい|かあ|とう)(?P<called>[ぁ-ゖ]{2,6}|[A-Za-z][A-Za-z0-9]{1,15})"
                           r"(?:さん|くん|君|ちゃん|さま|様))(?:とこ|の家|んち)?(?:の|、|は|が|って|も)")


def about_someone(message: str) -> str:
    """The name a line of news opens with ('メイさん、入院したらしいよ' → 'メイ', 'ことねさんとこの…' →
    'ことね', 'Kaiくん、…' → 'Kai'): a kana or Latin name only with its さん/くん/ちゃん ('' when none)."""
    found = ABOUT_SOMEONE.search(message)
    return (found["name"] or found["called"] or "") if found else ""
# A told thing taken back as a mistake: 'あれ勘違いだったみたい'.
MISTAKEN = lazy(r"勘違い|間違い|まちがい|嘘だった|うそだった|デマ|違ったみたい|ちがったみたい")
# The kind of a fact read from any words (reading/hearing.py's reading): its mood, or a plan.
GOOD_DETAIL, BAD_DETAIL, PLAN_DETAIL = "good", "bad", "plan"


def bring_back(topic: str, detail: str, about_other: bool) -> str:
    """The line that brings back something told on an earlier day, by whom it was about and how it felt."""
    if about_other:
        return {GOOD_DETAIL: f"{topic}のこと聞いたよ、おめでとう！", BAD_DETAIL: f"{topic}のこと聞いたよ。大丈夫？"}.get(
            detail, f"そういえば、{topic}のこと聞いたよ！")
    return {BAD_DETAIL: f"そういえば{topic}、その後大丈夫？", PLAN_DETAIL: f"そういえば{topic}、どうなった？"}.get(
        detail, f"そういえば{topic}、その後どう？")
# Words of small talk, not of a person's life: never kept as something told.
SMALL_TALK = frozenset({"雨", "晴れ", "雪", "天気", "風", "空", "くもり", "曇り", "気温", "台風", "夕焼け", "星",
                        "気持ち", "人", "人混み", "眠気", "暑さ", "寒さ", "日差し", "景色", "夕日", "雨降り"})
# Hearsay with no one named: a rumour, not the speaker's own.
HEARSAY = lazy(r"らしい|らしいね|らしいよ|そうだ|そうです|だって$|んだって|って聞いた|みたいだよ")


def of_family(plain: str) -> bool:
    """A family member is the subject ('弟が来週引っ越す', '父はパン屋で働いてる'): their news, not the speaker's."""
    return re.search(rf"(?:{_FAM}|{_OTHERS})(?:さん|ちゃん)?(?:が|は|も)", plain) is not None


def is_family(word: str) -> bool:
    return word in _FAMILY or word in _FAMILY.values()


def family_owner(sentence: str, topic: str) -> str:
    """'娘が明日引っ越しする' → '娘さんの', '母の検査結果' → 'お母さんの': whose a plan told of family is,
    its subject or the owner of the thing itself ('' otherwise: '祖父の家を片付けに' is the speaker's)."""
    found = re.search(rf"(?:^|[、\s])(?:うちの)?(?P<who>{_FAM})(?:が|は|の{re.escape(topic)})", sentence)
    return f"{_FAMILY[found['who']]}の" if found else ""


_OTHERS = "友達|友だち|先輩|後輩|彼氏|彼女|彼|先生|同僚|上司|店長|近所の人|[ァ-ヴー]{2,6}(?:さん|くん|ちゃん)"
# Meeting talk ('図書館で待ってるね'): the promises' business, not something told.
MEETING = lazy(r"待って|待ち合わせ|集合|向かう|行くね|来てね|おいで")


def stem(word: str) -> str:
    """A word without its kana ending, to find it in another form ('引っ越し' in '引っ越す')."""
    bare = re.sub("[ぁ-ゖ]+$", "", word)  # a range: str.rstrip would strip the three characters 'ぁ', '-', 'ゖ'
    return bare if len(bare) >= 2 else word


def negated_near(plain: str, topic: str) -> bool:
    """The clause that holds ``topic`` is negated ('まだ全然登れないけど' does not negate 'ボルダリング始めた')."""
    for part in re.split(r"[、,]", plain):
        if topic in part:
            return NEGATED.search(part) is not None
    return NEGATED.search(plain) is not None


def owner_noun(sentence: str, topic: str) -> str:
    """'簿記の試験' → '簿記の', '弟の引っ越し' → '弟さんの': what a plan's word belongs to, when a short noun
    says it, someone of theirs as they are called to them ('' otherwise)."""
    found = re.search(rf"(?P<noun>{NOUN})の{re.escape(topic)}", sentence)
    return f"{_FAMILY.get(found['noun'], found['noun'])}の" if found and len(found["noun"]) <= 4 else ""
