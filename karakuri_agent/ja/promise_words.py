"""How people make, agree to and withdraw a plan in Japanese: times, days, places and the words around them."""

from __future__ import annotations

import re

from karakuri_agent.patterns import lazy

STRONG_CUE = lazy(
    r"約束|待ち合わせ|待ちあわせ|待合せ|合流|集合|落ち合"
    r"|会いましょ|会おう|会お[！!〜ー]|会いに(?:行|い)|会わない[?？]|会える[?？]"
    r"|行きましょ|行こう(?!かな|と思|とおも)|いこう(?!かな|と思|とおも)|[行い]こ[！!っー〜～]"
    r"|遊ぼ|あそぼ"
    r"|行かない[?？]|行かん[?？]|向かいましょ"
    r"|(?:来る|くる|来ない|こない|来ん|こん|来ませんか|来ますか)[?？]"  # '12時に銭湯行くんだけど、来る？': come along
    r"|でも(?:どう|いかが)|など(?:どう|いかが)"  # '15時に銭湯でお茶でもどうだい？', '神社でお打ち合わせなどいかがでしょう。'
    r"|いかがでしょう(?:か)?(?:[。.!！]|$)"  # keigo asks without a question mark
    r"|一緒に|いっしょに|来てね|来てくれ|来てください|おいで|待ってる|待ってて|待ってます"
)

# Asked to come, read by lemma (reading/promise_lines._asks_to_come): a question ending on 来る in any
# form and dialect the analyzer cuts ("来られへん？", "来れる？", "来てくれない？", "来られますか？"), or on
# 行く negated ("行かへん？"). Only these words may follow the verb: a "の" ("誰か来るの？") asks about a fact.
COME_LEMMAS = frozenset({"来る"})
GO_LEMMAS = frozenset({"行く"})
NEGATIVE_LEMMAS = frozenset({"ない", "へん", "ん", "ず", "ぬ", "ひん"})
AFTER_COME = frozenset({"られる", "れる", "ます", "て", "呉れる", "くれる", "貰う", "もらう", "か", "な", "ね", "よ", "や",
                        "かな", "い", "ぃ"}) | NEGATIVE_LEMMAS
SENTENCE_MARKS = "?？!！〜ー～…。 "  # what ends a spoken sentence besides its words
QUESTION_END = lazy(r"(?:[?？]|か)[\s。！!〜ー～…]*$")

WEAK_CUE = lazy(
    r"いいよ|いいね|(?<![A-Za-z])OK(?![A-Za-z])|ＯＫ|オッケー|おっけー|了解|りょうかい|わかった|分かった"
    r"|賛成|もちろん|ぜひ|どう[?？]|どうかな|どうだい|いかが(?:ですか|でしょう)?[?？]|しよう(?!かな|と思)|しましょう",
    re.IGNORECASE,
)

# A day named in a line: without one, a new hour for a plan keeps the plan's day.
NAMES_A_DAY = lazy(r"今日|きょう|今夜|今晩|明日|あした|明後日|あさって|\d{1,2}日|[月火水木金土日]曜")

# A line that opens by agreeing ("了解、15時に喫茶店ね", "OK、公園な"): it takes up a plan, it proposes none.
AGREEMENT = lazy(r"^\s*(?:了解|りょうかい|(?<![A-Za-z])OK(?![A-Za-z])|ＯＫ|オッケー|おっけー|いいよ|いいね|わかった|分かった"
                       r"|賛成|もちろん|うん|おう)", re.IGNORECASE)

# A time said as a deadline, not as when to meet ("18時までに").
DEADLINE = lazy(r"まで")

# A call to everyone at once (Discord's @everyone / @here, a role mention): an announcement, not a
# plan made with the agent ("@everyone 今から広場に集合！").
MASS_PING = lazy(r"[@＠]\s*(?:everyone|here)(?![A-Za-z0-9_])|<@&\d+>", re.IGNORECASE)

REFUSAL = lazy(r"行けない|行けません|会えない|会えません|無理|やめよう|やめとく|キャンセル|断|中止|また今度")

# A meeting called off by the one who made it: words that say so alone ("キャンセルで", "行けなくなった"),
# and words that do only about a meeting ("約束はなしで", "待ち合わせはまた今度に"; "また今度！" alone is goodbye).
CALL_OFF = lazy(r"キャンセル|取り消|中止|行けなくな|来られなくな|来れなくな|会えなくな|行けそうにない")

CALL_OFF_MEETING = lazy(r"なしで|無しで|なしにし|また今度|またこんど|やめにしよう|やめよう|延期")

# A promise named by what it is ("15時の約束、まだ大丈夫だよね？"): asked after, it is checked against the promises kept.
PROMISE_NAMED = lazy(r"約束|やくそく|待ち合わせ|待ちあわせ|まちあわせ")
MEETING_WORD = lazy(r"約束|待ち合わせ|待ちあわせ|待合せ|集合|会う|会おう|行く")

# Casual meetings without a cue word: what rules a time + place sentence out.
NOT_A_MEETING = lazy(
    r"[?？]|まで|らしい|そうだ|そうです|って(?:さ|よ|ね)?[。！!]?$|毎|いつも(?!の)"
    r"|昨日|きのう|おととい|さっき|先週|去年|前回|(?:た|だった|でした)(?:よ|ね|な|わ|けど)?[。！!…]*$"
)

PLACE_PARTICLE = lazy(
    r"\s*(?:の)?(?:前|入口|入り口)?\s*(?:で|に|へ|前|集合|(?:な|ね)(?=[。！!、\s]|$))"
)

# A place changed for a meeting already agreed ("やっぱり図書館にしない？", "場所を駅に変更").
PLACE_CHANGE = lazy(r"やっぱり|やっぱ|変更|変えよう|変えない|にしない[?？]|にしよう|にしましょう|の方がいい")

# One script's run inside a name: katakana (ー included), kanji, or hiragana.
SCRIPT_RUN = lazy(r"[ァ-ヴー]{2,}|[\u4e00-\u9fff々]{2,}|[ぁ-ゖ]{2,}")

DIGITS = str.maketrans("０１２３４５６７８９：", "0123456789:")

RELATIVE = lazy(r"(?<!\d)(?:(?P<h>\d{1,3})時間(?P<half>半)?)?(?:(?P<m>\d{1,4})分)?後")

LATER_WORD = lazy(r"あとで|後で")

CLOCK_JI = lazy(r"(?<!\d)(?P<h>\d{1,2})時(?!間)(?:(?P<half>半)|(?P<m>\d{1,2})分)?")

DAY_AFTER = lazy(r"明後日|あさって")

TOMORROW = lazy(r"明日|あした")

TODAY = lazy(r"今日|きょう|今夜|今晩")

PM = lazy(r"午後|夜|夕方|晩")

NIGHT = lazy(r"夜|晩")

AM = lazy(r"午前|朝")

TOWN_PLACES = (
    "図書館", "公園", "駅前", "駅", "神社", "お寺", "喫茶店", "カフェ", "本屋", "書店",
    "学校", "体育館", "映画館", "銭湯", "コンビニ", "公民館", "商店街", "ラーメン屋",
    "床屋", "美術館", "博物館", "病院", "交番", "広場", "市場", "スーパー", "パン屋",
    "花屋", "八百屋", "居酒屋", "レストラン", "食堂", "海岸", "河原", "港", "展望台",
    "バス停", "駐車場", "屋上", "校門", "会議室", "ホール",
    "役所", "市役所", "区役所", "役場", "郵便局", "警察署", "消防署", "ホテル", "旅館", "動物園", "水族館",
    "遊園地", "グラウンド", "競技場", "プール", "教会", "海辺", "砂浜", "遊歩道", "ロビー", "待合室",
)

TOWN_PLACE = lazy(
    "(?P<word>" + "|".join(sorted(map(re.escape, TOWN_PLACES), key=len, reverse=True)) + ")"
    r"(?P<proper>「[^「」\n]{1,30}」)?"
)

# A place the agent was not shown yet, said as where to be: a name ending like a place does
# (月見浜な, 桜ヶ丘公園で, 山田屋に), right after the time or a comma. Its node is found once a text shows it.
PLACE_END = (r"(?:浜|海岸|館|屋|店|園|場|所|駅|口|台|堂|院|局|署|寺|社|宮|橋|坂|通り|横丁|広場|ホール|センター"
              r"|ハウス|カフェ|テラス|パーク|ビル|タワー|亭|荘|湯|池|川|丘|森|港|城)")

UNSEEN_SPOT = lazy(
    r"(?:に|、|,|\s)(?P<word>[\u4e00-\u9fff々ァ-ヴー][\u4e00-\u9fff々ァ-ヴーぁ-ゖ]{0,10}?" + PLACE_END + r")"
    r"(?:の)?(?:前|入口|入り口)?\s*(?:で|に|へ|集合|(?:な|ね)(?=[。！!、\s]|$))"
)
