"""Reading what a partner's line asks, so a reply can answer it first.

Pure and language-level: it knows Japanese question forms (question words,
"AとBどっち", invitations), never a persona. Which answer to give is the
persona's business (speech.py); this module only says what kind of answer
is wanted, which part of the line is the question, and, for a choice, the
options offered.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Question", "read_question", "sentences"]

_SENTENCE = re.compile(r"[^。！？!?\n]*(?:[。！？!?]+[」』）)]*|$)")
_ASKS = re.compile(r"[？?]")
# "AとBどっち", "AかBか、どちらがいい", "AとBとC、どれにする"
_WHICH = re.compile(r"(?:どっち|どちら|どれ)")
_CHOICE_TAIL = ("、", "なら", "だったら", "では", "の", "か")
# What ends the words before the options: punctuation, a topic 'は', 'って'.
_CHOICE_HEAD = re.compile(r"[、,。！!？?\s]|(?<=[ぁ-ん])は(?=[^ぁ-ん])|って")
# Options are short words, so only this much before 'どっち' can hold them
# (which also keeps the reading linear on a very long line).
_CHOICE_WINDOW = 60
# An option is said back, so it is a short word: no digits (ids), no link or
# mention characters, no punctuation.
_OPTION = re.compile(r"^[^\s\d、。！？!?「」『』()（）@＠<>:/#.\-_=&%\\|*~`]{1,12}$")
_OPINION = re.compile(r"どう思う|どうかな|どうだろ|どう感じ")
_WHY = re.compile(r"なんで|なぜ|どうして")
_WHERE = re.compile(r"どこ(?!か)")
_WHERE_NOW = re.compile(r"(?:今|いま).{0,4}どこ|どこに(?:いる|居る)")
_PAST = re.compile(r"(?:た|だ|てた|ってた|ってきた|てきた)(?:の|ん)?[？?]?$|行った|いた")
_WHEN = re.compile(r"いつ(?!か|も)|何時")
_WHO = re.compile(r"誰(?!か)|だれ(?!か)")
_WHO_WITH = re.compile(r"(?:誰|だれ)と")
_DOING = re.compile(r"(?:何|なに|なん)(?:を|か)?(?:して|やって|する|しよう)")
_HOW = re.compile(r"調子|最近どう|どうしてた|どうだった|どうしてる")
# "コウくんは？": a question put to someone named (town names are katakana or
# Latin; kanji names come from the participants), who may not be the agent.
_NAMED = re.compile(r"([ァ-ヶーA-Za-z]{1,10})(?:くん|ちゃん|さん|君|先輩)(?:は|って|も|、)")
_PLACE_WORDS = re.compile(r"場所|ところ|お店|おみせ|スポット")
_WHAT = re.compile(r"(?:何|なに|なん)(?!か|だか|て|で(?!す))|どんな|どの|どれ|どっち|どちら|どう(?:なる|やって|すれば|したら)"
                   r"|好きな.{0,8}は")
# "何か読んだ？", "どこか行った？": an indefinite word makes a yes/no question.
_INDEFINITE = re.compile(r"何か|なにか|なんか|どこか|誰か|だれか|いつか")
_LIKE = re.compile(r"好き|すき|好み|嫌い|きらい|苦手")
# "ちょっといい？": asking leave, answered with "いいよ".
_ALLOW = re.compile(r"ちょっといい|(?:いい|いいか|いいかな|大丈夫|話せる|できる)[？?]")
# "どうした？": what brings the agent over.
_WHAT_UP = re.compile(r"どうした[のん]?[？?]|なあに[？?]")
_PAST_ASK = re.compile(r"(?:た|だ)(?:の|ん)?[？?]$")
_INVITE = re.compile(
    r"(?:行く|行こう|行かない|いかない|来る|来ない|しよう|しない|食べる|食べない|飲む|飲まない"
    r"|やる|やらない|見る|観る|見ない|観ない|遊ぶ|遊ばない|みない|どう)[？?]"
    r"|(?:こう|ぼう|ろう|よう|もう|ごう|話そう)(?:ね|よ|か)?[？?]"  # "また遊ぼうね？", "行こうか？"
    r"|一緒に|ませんか|ましょう"
)


@dataclass(frozen=True)
class Question:
    """What a line asks: the kind of answer wanted, and where it was asked."""

    kind: str
    text: str  # the asking sentence, to find the subject in
    options: tuple[str, ...] = ()  # for a choice, the options as written
    detail: bool = False  # a yes/no that also wants the thing ("何か読んだ？")
    past: bool = False  # asks about something done ("おみくじ引いた？")


def sentences(line: str) -> list[str]:
    """The line's sentences, each with its closing punctuation."""
    return [s.strip() for s in _SENTENCE.findall(line) if s.strip()]


def read_question(line: str | None, *, own_names: tuple[str, ...] = (),
                  other_names: tuple[str, ...] = ()) -> Question | None:
    """The question the line ends on, or None for a statement.

    A question that names someone ('コウくんは？', or one of ``other_names``)
    and not the agent (``own_names``) is not for the agent to answer.
    """
    if not line:
        return None
    asking = [s for s in sentences(line) if _ASKS.search(s)]
    if not asking:
        return None
    text = asking[-1]
    named = [m.group(1) for m in _NAMED.finditer(text)] + [n for n in other_names if n and n in text]
    if named and not any(n and n in text for n in own_names):
        return None
    options = _options(text)
    if options:
        return Question("choice", text, options)
    return Question(_kind(text), text, detail=bool(_INDEFINITE.search(text)),
                    past=bool(_PAST_ASK.search(text)))


# Question forms, most specific first: the first that matches decides.
_FORMS: tuple[tuple[re.Pattern[str], str], ...] = (
    (_OPINION, "opinion"), (_WHAT_UP, "what_up"), (_WHY, "why"), (_INDEFINITE, "indefinite"),
    (_WHERE, "where"), (_WHEN, "when"), (_WHO, "who"), (_DOING, "doing"), (_HOW, "how"),
    (_WHAT, "what"), (_LIKE, "like"), (_ALLOW, "allow"), (_INVITE, "invite"),
)
# Forms the rest of the sentence narrows down.
_NARROWER: dict[str, Callable[[str], str]] = {
    "indefinite": lambda t: "where_before" if "どこか" in t and _PAST.search(t) else "yesno",
    "where": lambda t: "where_now" if _WHERE_NOW.search(t) else "where_before" if _PAST.search(t) else "where",
    "who": lambda t: "who_with" if _WHO_WITH.search(t) else "who",
    "what": lambda t: "where" if _PLACE_WORDS.search(t) else "what",
}


def _kind(text: str) -> str:
    """The answer wanted: the first form that matches, narrowed by the text."""
    form = next((kind for pattern, kind in _FORMS if pattern.search(text)), "yesno")
    narrower = _NARROWER.get(form)
    return narrower(text) if narrower else form


def _without_tail(text: str) -> str:
    """'コーヒーと紅茶、' / '山と海なら' / 'AかBか' -> the options alone."""
    while True:
        text = text.rstrip()
        tail = next((t for t in _CHOICE_TAIL if text.endswith(t)), None)
        if tail is None:
            return text
        text = text[: -len(tail)]


def _options(text: str) -> tuple[str, ...]:
    """'コーヒーと紅茶、どっちが好き？' -> ('コーヒー', '紅茶'); () if not a choice."""
    which = _WHICH.search(text)
    if not which:
        return ()
    before = _without_tail(text[max(0, which.start() - _CHOICE_WINDOW): which.start()])
    heads = [m.end() for m in _CHOICE_HEAD.finditer(before)]
    before = before[heads[-1]:] if heads else before
    parts = before.split("と") if "と" in before else before.rsplit("か", 1)
    parts = [p.strip() for p in parts]
    if len(parts) < 2 or len(set(parts)) != len(parts) or not all(_OPTION.match(p) for p in parts):
        return ()
    return tuple(parts)
