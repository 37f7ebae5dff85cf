"""What people tell the agent about themselves, read from conversation lines: pure.

The agent remembers a partner's cat, their work, their move next Saturday,
and brings it up on a later day. Everything Japanese about that lives here:
the patterns that read a fact from a line ("猫を飼ってるの、名前はミケ"), a
retraction ("やっぱり引っ越しはやめた"), town news ("駅前に新しいパン屋が
できたんだって"), and the line that brings a fact back ("ミケちゃん、元気？").

The reading is conservative on purpose: a fact missed costs a little
warmth, a fact invented puts words in someone's mouth. A pattern reads only
a speaker's plain statement about themselves (not a question, not a
negation), and a topic only a run of kanji or katakana (a noun), never a
phrase. Dates are resolved against when the line was said, in the world's
zone (Asia/Tokyo), never the machine's clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from typing import Any, Iterable, Mapping

from karakuri_agent.domain.records import Line
from karakuri_agent.domain.fact_kinds import (
    EVENT,
    NEWS,
    PET,
    PLAN,
)
from karakuri_agent.ja import told_words
from karakuri_agent.ja.sentences import split_sentences
from karakuri_agent.ja.told_words import (
    NEWS_LINE,
    PETS,
    PLAN_WORDS,
    RECALL_LINES,
    RETRACT,
)


@dataclass(frozen=True)
class Fact:
    """One thing someone told: who said it, about whom ('' for the town), when, and its line."""

    kind: str
    topic: str
    speaker_id: str | None
    speaker_name: str
    about_id: str | None
    about_name: str  # '' when the fact is news about the town
    said_at: datetime
    source: str
    detail: str = ""
    due_on: date | None = None
    conversation_id: str | None = None

    @property
    def key(self) -> str:
        """One fact per teller, kind and topic (a plan also per date): told again, it is the same fact."""
        who = self.about_id or self.about_name or "town"
        return f"{who}|{self.kind}|{self.topic}|{self.due_on.isoformat() if self.due_on else ''}"

    def to_row(self) -> dict[str, Any]:
        return {"fact_key": self.key, "kind": self.kind, "topic": self.topic, "detail": self.detail,
                "speaker_id": self.speaker_id, "speaker_name": self.speaker_name, "about_id": self.about_id,
                "about_name": self.about_name,
                "said_at": self.said_at.astimezone(timezone.utc).isoformat(timespec="milliseconds"),
                "due_on": self.due_on.isoformat() if self.due_on else None, "source": self.source,
                "conversation_id": self.conversation_id}


@dataclass(frozen=True)
class Retraction:
    """Someone took a plan back: their plan about `topic` (or their latest plan, when no topic is named);
    or news they told about `about_name`, found mistaken."""

    speaker_id: str | None
    speaker_name: str
    topic: str | None
    said_at: datetime
    source: str = field(default="", compare=False)
    about_name: str = ""


def read_line(line: Line, said_at: datetime,
              conversation_id: str | None = None) -> tuple[list[Fact], list[Retraction]]:
    """The facts and retractions in one line (the caller leaves out the agent's own)."""
    message = line.message
    speaker_id = str(line.speaker_id) if line.speaker_id else None
    speaker = line.speaker
    if not message or not (speaker or speaker_id):
        return [], []
    facts: list[Fact] = []
    retractions: list[Retraction] = []
    for sentence in split_sentences(message):
        plain = told_words.without_ending(sentence)
        if told_words.is_question(plain, sentence):
            continue  # a question tells nothing
        retract = RETRACT.search(plain)
        topic = next((t for _, t in PLAN_WORDS if t in plain), None) or (retract["topic"] if retract else None)
        if retract and (topic or told_words.TAKING_BACK in plain):
            topic = topic or _taken_back(sentence)  # 'やっぱり申し込みはやめたわ': the analyzer names it
            retractions.append(Retraction(speaker_id, speaker, topic, said_at, message))
            continue
        news = NEWS_LINE.search(plain)
        if news:
            facts.append(Fact(NEWS, told_words.news_topic(news["where"], news["what"]), speaker_id, speaker, None, "",
                              said_at, message, detail=told_words.news_detail(news["where"], news["what"]),
                              conversation_id=conversation_id))
            continue
        for kind, topic, detail, dated in told_words.personal_facts(sentence):
            due = told_words.resolve_date(sentence, said_at) if dated else None
            if dated and due is None:
                continue  # a plan with no day to know when to ask is not worth keeping
            owner = told_words.owner_noun(sentence, topic) if kind == PLAN else ""
            facts.append(Fact(kind, f"{owner}{topic}" if owner else topic, speaker_id, speaker, speaker_id, speaker,
                              said_at, message, detail=detail, due_on=due, conversation_id=conversation_id))
    if not facts and not retractions:
        return _heard(message, speaker_id, speaker, said_at, conversation_id)
    return facts, retractions


def _taken_back(sentence: str) -> str | None:
    """What a retraction no pattern named takes back, as the voice reads it ('申し込み'), or None."""
    from karakuri_agent.reading.hearing import hear  # the analyzer: only for such a line

    heard = hear(sentence)
    return heard.topic if heard is not None and heard.kind == "retraction" and heard.topic else None


def _heard(message: str, speaker_id: str | None, speaker: str, said_at: datetime,
           conversation_id: str | None) -> tuple[list[Fact], list[Retraction]]:
    """What a line tells in words no pattern above knows, read as the voice reads it
    (reading/hearing.py): a thing that happened to the speaker or to someone they name,
    or a told thing taken back. Only a noun topic is kept, never a phrase."""
    from karakuri_agent.reading.hearing import hear  # the analyzer: only when a line tells something

    about_name = told_words.about_someone(message)
    heard = hear(message, other_names=(about_name,) if about_name else ())
    if heard is None:
        return [], []
    ahead = _sentence_ahead(message)
    if ahead and ahead != message and heard.kind not in ("retraction", "question"):
        # '明日、最終プレゼンなんだ。これ決まったらボーナス確定': what is ahead is the presentation
        heard = hear(ahead, other_names=(about_name,) if about_name else ()) or heard
    if heard.kind == "retraction" or told_words.MISTAKEN.search(message):
        if not (heard.topic or about_name):
            return [], []  # 'もう迷うのはやめた': nothing told before is named
        return [], [Retraction(speaker_id, speaker, heard.topic or None, said_at, message, about_name=about_name)]
    told = heard.kind in ("news", "plan", "feeling") or (heard.kind == "statement" and heard.mood)
    plain = told_words.without_ending(message)
    if not told or not heard.topic or heard.phrase or told_words.negated_near(plain, heard.topic) \
            or heard.topic in told_words.SMALL_TALK or told_words.MEETING.search(plain):
        return [], []
    topic = thing_told(ahead or message, heard.topic)
    family = told_words.family_owner(ahead, topic) if ahead and not told_words.is_family(topic) else ""
    if not about_name and (told_words.HEARSAY.search(plain) or (told_words.of_family(plain) and not family)):
        return [], []  # a rumour about no one named, or someone else's ('弟が猫を飼ってる'): not the speaker's
    topic = family + topic  # '娘さんの引っ越し''
    due = told_words.resolve_date(ahead, said_at) if ahead else None
    detail = told_words.PLAN_DETAIL if heard.kind == "plan" and heard.mood != "bad" else {
        "good": told_words.GOOD_DETAIL, "bad": told_words.BAD_DETAIL}.get(heard.mood, "")
    if about_name:
        return [Fact(EVENT, topic, speaker_id, speaker, None, about_name, said_at, message, detail=detail,
                     conversation_id=conversation_id)], []
    return [Fact(EVENT, topic, speaker_id, speaker, speaker_id, speaker, said_at, message, detail=detail,
                 due_on=due, conversation_id=conversation_id)], []


def _sentence_ahead(message: str) -> str:
    """The sentence of a line that names a time ahead ('明日', '来週の土曜'), where a plan is told ('' without)."""
    from karakuri_agent.reading.lexicon import names_a_time_ahead

    return next((s for s in split_sentences(message) if names_a_time_ahead(s)), "")


def thing_told(message: str, topic: str) -> str:
    """What a line told of: the topic heard, unless that names a feeling ('来週、資格の試験なんだ。めっちゃ
    緊張する' is about the exam, not the nerves), then the thing named last before the feeling (the head of
    '資格の試験'), else the first named after it."""
    from karakuri_agent.reading.lexicon import is_feeling
    from karakuri_agent.reading.morphemes import nouns

    if not is_feeling(topic):
        return topic
    found = nouns(message)
    at = found.index(topic) if topic in found else len(found)
    things = [(i, noun) for i, noun in enumerate(found) if not is_feeling(noun) and noun not in told_words.SMALL_TALK]
    before = [noun for i, noun in things if i < at]
    return before[-1] if before else next((noun for i, noun in things if i > at), topic)


def read_lines(lines: Iterable[Line], said_at: Any, *, is_self: Any,
               conversation_id: str | None = None) -> tuple[list[Fact], list[Retraction]]:
    """Facts and retractions in lines of a conversation, others' lines only.

    `said_at(line)` says when each line was first heard; `is_self(id, name)`
    picks out the agent's own lines.
    """
    facts: list[Fact] = []
    retractions: list[Retraction] = []
    for line in lines:
        if is_self(line.speaker_id, line.speaker):
            continue
        more, back = read_line(line, said_at(line), conversation_id)
        facts += more
        retractions += back
    return facts, retractions


def retracted(rows: Iterable[Mapping[str, Any]], retraction: Retraction) -> list[int]:
    """The stored facts a retraction withdraws: what the speaker told of its topic (a plan, a thing
    that happened, news about someone), else their latest plan."""
    rows = list(rows)
    told = [r for r in rows if not r.get("withdrawn_at") and r.get("kind") != PLAN
            and ((retraction.speaker_id and r.get("speaker_id") == retraction.speaker_id)
                 or (not retraction.speaker_id and r.get("speaker_name") == retraction.speaker_name))
            and str(r.get("said_at") or "") <= retraction.said_at.isoformat() and r.get("topic")
            and (str(r["topic"]) in retraction.source
                 or (retraction.topic and (retraction.topic in str(r["topic"]) or str(r["topic"]) in retraction.topic
                                           or told_words.stem(retraction.topic) in str(r.get("source") or ""))))]
    plans = _retracted_plans(rows, retraction) if retraction.topic or not told else []
    return [int(r["id"]) for r in told] + plans


def _retracted_plans(rows: Iterable[Mapping[str, Any]], retraction: Retraction) -> list[int]:
    plans = [r for r in rows if r.get("kind") == PLAN and not r.get("withdrawn_at")
             and ((retraction.speaker_id and r.get("about_id") == retraction.speaker_id)
                  or (not retraction.speaker_id and r.get("about_name") == retraction.speaker_name))
             and str(r.get("said_at") or "") <= retraction.said_at.isoformat()]
    if retraction.topic:
        return [int(r["id"]) for r in plans if r.get("topic") and (r["topic"] in retraction.topic
                                                                  or retraction.topic in r["topic"])]
    latest = max(plans, key=lambda r: str(r.get("said_at") or ""), default=None)
    return [int(latest["id"])] if latest else []


def due_day(row: Mapping[str, Any]) -> date | None:
    """The day a stored fact's thing is due ('明日、面接なんだ' said on the 1st: the 2nd), None when it names none."""
    try:
        return date.fromisoformat(str(row.get("due_on")))
    except ValueError:
        return None


def recall_line(row: Mapping[str, Any], today: date) -> str | None:
    """The line that brings a stored fact back on `today` (world's day), or None when it is not the time.

    A plan is asked about only from a week before its day to three days after.
    """
    kind, topic, detail = row.get("kind"), str(row.get("topic") or ""), str(row.get("detail") or "")
    if not topic:
        return None
    if kind == PET and topic in PETS.values():  # a pet known only by its kind (猫ちゃん) is asked after so
        return told_words.ask_after_pet(topic)
    if kind == EVENT and row.get("about_name") and row.get("about_name") != row.get("speaker_name"):
        return told_words.bring_back(topic, detail, about_other=True)  # news about someone, to them
    if kind == EVENT and detail in (told_words.GOOD_DETAIL, told_words.BAD_DETAIL, told_words.PLAN_DETAIL):
        due = due_day(row)
        if due is not None and detail != told_words.GOOD_DETAIL and due <= today <= due + timedelta(days=3):
            return told_words.ask_about_plan(topic, (due - today).days)  # on its day, or how it went
        return told_words.bring_back(topic, detail, about_other=False)
    if kind in RECALL_LINES:
        return RECALL_LINES[kind].format(topic=topic, detail=detail)
    if kind == PLAN:
        due = due_day(row)
        if due is None or today < due - timedelta(days=7) or today > due + timedelta(days=3):
            return None
        return told_words.ask_about_plan(topic, (due - today).days)
    return None
