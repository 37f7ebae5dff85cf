"""How questions are asked in Japanese: the words and endings that make a line a question, and what it asks about."""

from __future__ import annotations

from collections.abc import Callable

from karakuri_agent.ja.name_words import HONORIFICS
from karakuri_agent.ja.word_classes import NOT_AFTER_A_STATE
from karakuri_agent.patterns import lazy


# "AとBどっち", "AかBか、どちらがいい", "AとBとC、どれにする"
WHICH = lazy(r"(?:どっち|どちら|どれ)")

CHOICE_TAIL = ("、", "なら", "だったら", "やったら", "では", "の", "か")

# What ends the words before the options: punctuation, a topic 'は', 'って'.
CHOICE_HEAD = lazy(r"[、,。！!？?\s]|(?<=[ぁ-ん])は(?=[^ぁ-ん])|って")

# An option is said back, so it is a short word: no digits (ids), no link or
# mention characters, no punctuation.
OPTION = lazy(r"^[^\s\d、。！？!?「」『』()（）@＠<>:/#.\-_=&%\\|*~`]{1,12}$")

OPINION = lazy(r"どう(?:思う|おもう|思います|思われ)|どうかな|どうだろ|どう感じ")

WHY = lazy(r"なんで|なぜ|どうして(?!る|た|ます|いる|ん)")  # 'どうしてる？' asks how one is doing, not why

# 'どちら' asking where, not which ('今からどちらへ行かれるんですか'; 'どっちにする？' still asks which).
WHICH_PLACE = lazy(r"(?:どちら|どっち)(?:へ|で|まで|から|に(?!する|すん|しよ|し[たま]|なさ))")
WHERE = lazy(r"どこ(?!か)|" + WHICH_PLACE.pattern)

WHERE_NOW = lazy(r"(?:今|いま)(?![年日度月週回朝晩夜])[^はっ]{0,4}どこ|どこに(?:いる|居る)")  # not '今年の桜はどこが'

PAST = lazy(r"(?:た|だ|てた|ってた|ってきた|てきた)(?:の|ん)?[？?]?$|行った|いた")

WHEN = lazy(r"いつ(?!か|も)|何時")

WHO = lazy(r"誰(?!か)|だれ(?!か)|だあれ|だーれ")

WHO_WITH = lazy(r"(?:誰|だれ)と")

DOING = lazy(r"(?:何|なに|なん)(?:を|か)?(?:して|やって|する|しよう)")

HOW = lazy(r"調子|最近どう|どうしてた|どうだった|どうしてる")

# "コウくんは？": a question put to someone named (town names are katakana or
# Latin; kanji names come from the participants), who may not be the agent.
NAMED = lazy(r"([ァ-ヶーA-Za-z]{1,10})(?:" + "|".join(HONORIFICS) + r")(?:は|って|も|、)")

PLACE_WORDS = lazy(r"場所|ところ|お店|おみせ|スポット")

WHAT = lazy(r"(?:何|なに|なん)(?!か|だか|て|で(?!す))|(?:何|なん)て(?:いう|言う|ゆう)|どんな|どの|どれ|どっち|どちら"
            r"|どう(?:なる|やって|すれば|したら)"
                   r"|好きな.{0,8}は")

# "何か読んだ？", "どこか行った？": an indefinite word makes a yes/no question.
INDEFINITE = lazy(r"(?:何か|なにか|なんか|どこか|誰か|だれか|いつか)(?!ら)")  # not 'どこから' (where from)

LIKE = lazy(r"好き|すき|好み(?!焼)|嫌い|きらい|苦手")  # 'お好み焼き' is a dish, no liking

# "ちょっといい？": asking leave, answered with "いいよ".
# Not advice asked; 大丈夫？ asks leave only after what one would do ('借りても大丈夫？'): alone it is concern.
# ('駅前の内科って評判いい？' asks how a thing is: not after a noun, but for 今 and 隣)
ALLOW = lazy(r"ちょっといい|(?<!ほうが)(?<!方が)(?:(?<=[今隣])|(?<![\u4e00-\u9fff々ァ-ヴー]))(?:いい|いいか|いいかな|話せる|(?:相談|電話|お願い|今|いま)できる)[？?]|(?<=[てでも])大丈夫[？?]")  # 'スキーできる？' asks what it can do

# "どうした？": what brings the agent over.
WHAT_UP = lazy(r"どうした[のん]?[？?]|なあに[？?]")

PAST_ASK = lazy(r"(?:た|だ)(?:の|ん)?[？?]$")

INVITE = lazy(
    r"(?:行く|行こう|行かない|いかない|来る|来ない|しよう|しない|食べる|食べない|飲む|飲まない"
    r"|やる|やらない|見る|観る|見ない|観ない|遊ぶ|遊ばない|みない|" + NOT_AFTER_A_STATE + r"どう)[？?]"
    r"|(?:こう|ぼう|(?<![だか])ろう|よう|(?<!お)もう|ごう|話そう)(?:ね|よ|か)?[？?]"  # "また遊ぼうね？", "行こうか？" (not おもう？, なんだろう？)
    r"|一緒に(?!(?:いる|いて|おる|居る)と)|(?<!あり)(?<!ござい)(?<!知り)(?<!存じ)ませんか|ましょう"  # ありませんか asks whether there is
    # ('一緒にいると落ち着く' is a condition; '知りませんか' asks whether one knows)
    r"|(?:せえ|せー|せぇ|しい|行か|いか|来え|こー|きい|食べ|飲ま|見い|やら|遊ば|寄ら)(?:へん|ひん)[？?]"  # Kansai
    r"|(?:飲ま|行か|来|こ|せ|食べ|見|遊ば|やら|寄ら)んかね"  # the older way
)

# Forms the rest of the sentence narrows down.
# Words that make a question one about a habit ('よく行く？', '普段飲む？'), not an invitation.
HABIT = lazy(r"よく(?=[^なか])|いつも|たまに|普段|ふだん|毎日|毎朝|毎晩|しょっちゅう|たまには")
NARROWER: dict[str, Callable[[str], str]] = {
    "indefinite": lambda t: "where_before" if "どこか" in t and PAST.search(t) else "yesno",
    "where": lambda t: "where_now" if WHERE_NOW.search(t) else "where_before" if PAST.search(t) else "where",
    "who": lambda t: "who_with" if WHO_WITH.search(t) else "who",
    "what": lambda t: "where" if PLACE_WORDS.search(t) else "what",
    # 'カラオケってよく行く？', 'いつも何時に寝る？': a habit asked of, no invitation
    "invite": lambda t: "yesno" if HABIT.search(t) else "invite",
}

# How options are joined: "AとB" (and), else "AかBか" (or).
AND = "と"
OR = "か"
NOMINAL = "の"  # a clause made a noun ('ひとりでいるの'), an option of its own

# A question of what kind of one the agent is ('朝つよいほう？', 'せっかちなほう？', '映画で泣くタイプ？', '昼寝する人？'):
# the word its question ends on.
TRAIT_MARKS = frozenset({"ほう", "方", "派", "タイプ", "人", "系", "性格", "質"})
ABLE = "出来る"  # 'スキーできる？': what it can do
# Verbs whose potential asks whether one is free to, not able to ('15時に会えますか？', '来れる？').
MEETING_VERBS = frozenset({"会う", "行く", "来る", "遊ぶ", "寄る"})
# What happens to one now and then ('寂しくなることありますか？', '怒ることある？').
NOW_AND_THEN = lazy(r"(?:[うくぐすつぬぶむる]|ない)こと(?:が|は|って|も)?(?:ある|あり|あん|ない|ござい)")  # not 'いいことあった？'
