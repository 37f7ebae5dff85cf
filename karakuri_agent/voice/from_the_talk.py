"""What the talk before a line answers: a detail of the plan it was settling, the options it weighed, a trouble told
just before (gone on with, or over), whether the agent remembers or knew what was told.

voice/answering.py asks here first, before what the line asks of the agent itself: a line read alone
('どっちが似合うと思う？', 'いや8時半だった', 'まだあるかなあ？') often means what the lines before it said.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from karakuri_agent.ja import listening_cues
from karakuri_agent.ja.question_words import WHICH_PLACE
from karakuri_agent.ja.sentences import is_asking, split_sentences
from karakuri_agent.reading import hearing, lexicon, told_of
from karakuri_agent.reading.choices import joined_pair, listed_options
from karakuri_agent.reading.normalised import normalised, unspaced
from karakuri_agent.reading.plan_detail import detail_named, only_which, option_named
from karakuri_agent.reading.question_kinds import asks_a_favour, names_a_question_word
from karakuri_agent.voice.reacting import reacted
from karakuri_agent.voice.situation import Situation, pick_option

if TYPE_CHECKING:
    from karakuri_agent.domain.understanding import Understanding

__all__ = ["answered_from_the_talk", "talk_topic"]

# A line that only says which detail of a plan ('いや8時半だった', 'あ、失礼しました、第三土曜の間違いでした。') holds
# little besides it: at most this many characters.
DETAIL_LINE_REST = 18


def talk_topic(lines: tuple[str, ...], skip: tuple[str, ...]) -> tuple[str, bool]:
    """What the talk has been about, and whether it is a verb phrase: what its first line
    that names something told or asked about (a talk is about what it was opened with)."""
    for line in lines:
        frame = hearing.framed(line, skip)  # '盆栽の松、枝ぶりが…': the talk is about the pine
        if frame:
            return frame, False
        heard = hearing.hear(line, other_names=skip)
        if heard and heard.topic:
            return heard.topic, heard.phrase
    return "", False


def _options_weighed(talk: tuple[str, ...]) -> tuple[str, ...]:
    """The options the newest line of ``talk`` that weighed some named ('ピンクか、アッシュか…', '北口と南口'), ()."""
    return next((tuple(o) for line in reversed(talk) if (o := listed_options(line) or joined_pair(normalised(line)) or ())), ())


def _which_of_the_talk(s: Situation, h: Understanding) -> list[str]:
    """'どっちが似合うと思う？' with no options of its own: one of those the talk named before
    ('ピンクか、アッシュか…'), the same pick every time; [] when it named none."""
    if h.question is None or h.question.options or not listening_cues.WHICH.search(h.question.text) \
            or WHICH_PLACE.search(h.question.text):  # '本日はどちらにいらっしゃったんですか？' asks where
        return []
    # ('いちご🍓とチョコバナナ🍫🍌で迷って…' → 'ニケちゃんならどっち頼む〜？')
    named = _options_weighed(s.memory.talk)
    return s.lines_of("choice", topic=pick_option(named, s)) if named else []


def _troubled_before(s: Situation, h: Understanding) -> list[str]:
    """'まじでいみわからん、どうおもう？' after '先輩に怒られた', 'まだあるかなあ？' after '財布忘れてもうた':
    a question of what the agent thinks of, or hopes for, the partner's trouble told just before is
    met with care for it, never with a cheerful opinion or a bare yes."""
    q = h.question
    if q is None or q.kind not in ("opinion", "yesno", "invite") or h.asks or h.self_topic \
            or listening_cues.YOU.search(q.text):
        return []
    for line in reversed(s.memory.talk[-2:]):
        before = hearing.hear(line)
        if before is not None and before.troubled:
            cared = reacted(s, before)  # as the trouble itself is met: no cheer word ('わあ' of 'うわあ' too)
            return [line for line in cared if not any(w in line for w in lexicon.cheer_words())] or cared
    return []


def _resolved(s: Situation, h: Understanding) -> list[str]:
    """'で、さっき交番行ったら、中身そのまま届いてた' after '駅で財布落としたんだよ': a trouble told just before in
    the talk, now found or come back (told_of.tells_found), is met with relief, not 'なるほどね'."""
    if h.kind not in ("news", "statement") or h.mood == "bad" or h.troubled or not told_of.tells_found(s.line):
        return []
    if _trouble_told_in(s, 3):
        return s.lines_of("relief", table="reactions")
    return []


def _trouble_told_in(s: Situation, last: int) -> bool:
    """Whether one of the talk's last lines told of trouble ('財布落とした', '石段で転んでしもうてな')."""
    return any((before := hearing.hear(line)) is not None and before.troubled for line in s.memory.talk[-last:])


def _trouble_goes_on(s: Situation, h: Understanding) -> list[str]:
    """'まあ大したことはないんじゃが、膝がのう' after '神社の石段で転んでしもうてな', '今度は長くなるって先生が
    いうんだよ' after '亭主がまた入院することになってね': a line that tells nothing good or bad of its own, after a
    trouble told just before, goes on with it and is listened to, never met with 'なるほどね' or a topic."""
    if h.kind not in ("news", "statement") or h.mood or h.emotions or h.question is not None \
            or is_asking(s.line) or not s.memory.talk or listening_cues.WONDERED.search(s.line):
        return []  # 'ほんで、その後なに入るんやろな' wonders at something else
    if not _trouble_told_in(s, 2):
        return []
    said = s.memory.talk[-1]  # its own last line, if it spoke: not said twice
    return [line for line in s.lines_of("trouble_ongoing", table="reactions") if line not in said]


def _story_goes_on(s: Situation, h: Understanding) -> list[str]:
    """'で、竿ごと持っていかれた' after '昨日、川で釣りしよったら' / 'でっかい鯉がかかってさ', 'それがまさかのうちの担任
    だった😂': the next turn of a story the partner is telling (concepts.json `story_goes_on`), which tells nothing
    the reader is sure is good or bad, is met with surprise (`reactions.story_twist`), not 'へえ、そうなんだね'."""
    if h.kind not in ("news", "statement") or h.mood or h.troubled or h.question is not None \
            or is_asking(s.line) or not s.memory.talk:
        return []
    words = lexicon.section("story_goes_on")
    line = unspaced(s.line)
    if not (line.startswith(words["openers"]) or any(w in line for w in words["twists"])):
        return []
    return s.lines_of("story_twist", table="reactions")


def _detail_noted(s: Situation, h: Understanding) -> list[str]:
    """'いや8時半だった' after '明日の集合、公民館前な' / '9時', '北で' after '駅の北口と南口、どっちで待つ？', 'やっぱ
    後のほうかなあ' after two mufflers weighed: a short line that only gives or corrects a detail of what the talk
    was settling is noted ('8時半ね、了解！'); [] where the talk's last lines named neither a detail nor options."""
    own = detail_named(s.line)  # found as written: no analyzer before a line could be one
    if h.troubled or h.kind in ("farewell", "greeting", "thanks", "invitation") or not s.memory.talk \
            or (not own and len(unspaced(s.line)) > DETAIL_LINE_REST) \
            or (h.question is not None and names_a_question_word(h.question.text)):  # '明日の朝、何時に起きる？' asks
        return []
    recent = s.memory.talk[-3:]
    options = _options_weighed(recent)
    detail = option_named(s.line, options) if options else ""
    if not detail and any(detail_named(line) for line in recent):
        detail = own
    if not detail or len(unspaced(s.line)) - len(detail) > DETAIL_LINE_REST or not only_which(s.line, detail):
        return []  # a line that tells more than which ('6時は早すぎた', 'やっぱり あした いけない')
    return s.lines_of("noted", topic=detail)


def answered_from_the_talk(s: Situation, h: Understanding) -> list[str]:
    """What the talk between the two answers, before what the line asks of the agent itself: the options or
    the trouble told just before, a promise not to forget, whether it remembers or knew what was told, a
    question after an apology; [] when none of these."""
    noted = _detail_noted(s, h)
    if noted:
        return noted
    if h.kind in ("question", "invitation"):
        context = _which_of_the_talk(s, h) or _troubled_before(s, h)
        if context:
            return context
    resolved = _resolved(s, h) or _trouble_goes_on(s, h) or _story_goes_on(s, h)
    if resolved:
        return resolved
    if listening_cues.WONT_FORGET_ASKED.search(s.line) and not h.emotions & {"grief", "unwell", "hurt"}:
        return s.lines_of("wont_forget")  # 'ココが ひっこしても わすれない？', '忘れないでね'
    q = h.question
    if h.kind != "question" or q is None:
        return []
    if listening_cues.REMEMBER_ASKED.search(q.text):
        # '前にお話しした猫のこと、覚えてますか？': someone it knows, yes; else it says it cannot recall, honestly
        return s.lines_of("remember" if s.known else "forgot")
    # (the question's own clause is short: '遅ぐなってわりぃな、待ったべ？' asks '待ったべ？')
    if q.kind == "yesno" and "apology" in h.acts and len(q.text.rpartition(listening_cues.PAUSE)[2]) <= listening_cues.SHORT_ASK \
            and not listening_cues.KNOWS_ASKED.search(q.text) and not asks_a_favour(q.text):  # 'ごめん、返してもらえる？' asks
        return s.lines_of("apology", table="reactions")  # 'ごめん遅れた！待った？': never 'うん、待ったよ'
    told_first = len(split_sentences(normalised(s.line))) > 1  # '1たす1は、たまに3になるっちゃん。知っとった？'
    if q.kind == "yesno" and (s.memory.talk or told_first) and listening_cues.KNEW_ASKED.search(q.text):
        return s.lines_of("didnt_know")  # '昔この町に映画館があった…あんた、知ってたかい？'
    return []
