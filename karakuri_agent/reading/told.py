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

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from typing import Any, Iterable, Mapping

from karakuri_agent.domain.facts import DISLIKE, EVENT, FAMILY, LIKE, NEWS, PET, PLAN, WORK
from karakuri_agent.domain.notification import TOKYO
from karakuri_agent.ja.told import (
    _EVENT,
    _FAMILY,
    _NEWS,
    DATE,
    IS,
    NAME,
    NEGATED,
    NOUN,
    OWN,
    PETS,
    PLAN_WORDS,
    QUESTION,
    RECALL_LINES,
    RETRACT,
    SOMEONE_ELSE,
    WEEKDAYS,
)

_PET = "|".join(sorted(PETS, key=len, reverse=True))
_FAM = "|".join(sorted(_FAMILY, key=len, reverse=True))


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
    """Someone took a plan back: their plan about `topic` (or their latest plan, when no topic is named)."""

    speaker_id: str | None
    speaker_name: str
    topic: str | None
    said_at: datetime
    source: str = field(default="", compare=False)


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"(?<=[。！!？?])|\n", text) if s.strip()]


def _plain(sentence: str) -> str:
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


def _own(plain: str, start: int) -> bool:
    """Nobody else is the subject before `start` ('弟が猫を飼ってる' is the brother's cat, not the speaker's)."""
    return SOMEONE_ELSE.search(plain[:start]) is None


def _personal(sentence: str) -> list[tuple[str, str, str, bool]]:
    """(kind, topic, detail, needs a date) read from one of the speaker's sentences about themselves."""
    plain = _plain(sentence)
    found: list[tuple[str, str, str, bool]] = []
    pet = re.search(rf"(?P<pet>{_PET})を飼って(?:る|いる|います|て)", plain)
    named = re.search(rf"(?P<name>{NAME})(?:っていう|という|って)(?P<pet>{_PET})を飼って", plain)
    if named and _own(plain, named.start()):
        found.append((PET, named["name"], PETS[named["pet"]], False))
    elif pet and not named and _own(plain, pet.start()):
        name = re.search(rf"名前は(?P<name>{NAME})", plain)
        found.append((PET, name["name"] if name else PETS[pet["pet"]], PETS[pet["pet"]], False))
    if NEGATED.search(plain):
        return found
    like = re.search(rf"{OWN}(?P<topic>{NOUN})が(?P<how>大好き|好き|苦手|嫌い){IS}$", plain)
    if like:
        found.append((DISLIKE if like["how"] in ("苦手", "嫌い") else LIKE, like["topic"], "", False))
    family = re.search(rf"{OWN}(?P<who>{_FAM})が(?:いる|います|いて|いるんだ)", plain)
    if family:
        found.append((FAMILY, _FAMILY[family["who"]], family["who"], False))
    work = re.search(rf"(?P<topic>{NOUN})で(?:働いて|バイトして|勤めて)|(?P<at>{NOUN})に勤めて|仕事は(?P<job>{NOUN}){IS}$",
                     plain)
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


def read_line(line: Mapping[str, Any], said_at: datetime,
              conversation_id: str | None = None) -> tuple[list[Fact], list[Retraction]]:
    """The facts and retractions in one line (the caller leaves out the agent's own)."""
    message = str(line.get("message") or "")
    speaker_id = str(line["speaker_id"]) if line.get("speaker_id") else None
    speaker = str(line.get("speaker") or "")
    if not message or not (speaker or speaker_id):
        return [], []
    facts: list[Fact] = []
    retractions: list[Retraction] = []
    for sentence in _sentences(message):
        plain = _plain(sentence)
        if QUESTION.search(plain) or "？" in sentence or "?" in sentence:
            continue  # a question tells nothing
        retract = RETRACT.search(plain)
        topic = next((t for _, t in PLAN_WORDS if t in plain), None) or (retract["topic"] if retract else None)
        if retract and (topic or "やっぱ" in plain):
            retractions.append(Retraction(speaker_id, speaker, topic, said_at, message))
            continue
        news = _NEWS.search(plain)
        if news:
            facts.append(Fact(NEWS, f"{news['where']}の{news['what']}", speaker_id, speaker, None, "", said_at,
                              message, detail=f"{news['where']}に新しい{news['what']}",
                              conversation_id=conversation_id))
            continue
        for kind, topic, detail, dated in _personal(sentence):
            due = resolve_date(sentence, said_at) if dated else None
            if dated and due is None:
                continue  # a plan with no day to know when to ask is not worth keeping
            facts.append(Fact(kind, topic, speaker_id, speaker, speaker_id, speaker, said_at, message,
                              detail=detail, due_on=due, conversation_id=conversation_id))
    return facts, retractions


def read_lines(lines: Iterable[Mapping[str, Any]], said_at: Any, *, is_self: Any,
               conversation_id: str | None = None) -> tuple[list[Fact], list[Retraction]]:
    """Facts and retractions in lines of a conversation, others' lines only.

    `said_at(line)` says when each line was first heard; `is_self(id, name)`
    picks out the agent's own lines.
    """
    facts: list[Fact] = []
    retractions: list[Retraction] = []
    for line in lines:
        if is_self(line.get("speaker_id"), line.get("speaker")):
            continue
        more, back = read_line(line, said_at(line), conversation_id)
        facts += more
        retractions += back
    return facts, retractions


def retracted(rows: Iterable[Mapping[str, Any]], retraction: Retraction) -> list[int]:
    """The stored facts a retraction withdraws: the speaker's own plans (of its topic, else the latest)."""
    plans = [r for r in rows if r.get("kind") == PLAN and not r.get("withdrawn_at")
             and ((retraction.speaker_id and r.get("about_id") == retraction.speaker_id)
                  or (not retraction.speaker_id and r.get("about_name") == retraction.speaker_name))
             and str(r.get("said_at") or "") <= retraction.said_at.isoformat()]
    if retraction.topic:
        return [int(r["id"]) for r in plans if r.get("topic") and (r["topic"] in retraction.topic
                                                                  or retraction.topic in r["topic"])]
    latest = max(plans, key=lambda r: str(r.get("said_at") or ""), default=None)
    return [int(latest["id"])] if latest else []


def recall_line(row: Mapping[str, Any], today: date) -> str | None:
    """The line that brings a stored fact back on `today` (world's day), or None when it is not the time.

    A plan is asked about only from a week before its day to three days after.
    """
    kind, topic, detail = row.get("kind"), str(row.get("topic") or ""), str(row.get("detail") or "")
    if not topic:
        return None
    if kind == PET and topic in PETS.values():  # a pet known only by its kind (猫ちゃん) is asked after so
        return f"{topic}ちゃん、元気にしてる？"
    if kind in RECALL_LINES:
        return RECALL_LINES[kind].format(topic=topic, detail=detail)
    if kind == PLAN:
        try:
            due = date.fromisoformat(str(row.get("due_on")))
        except ValueError:
            return None
        if today < due - timedelta(days=7) or today > due + timedelta(days=3):
            return None
        if today < due:
            return f"{topic}の準備、進んでる？"
        return f"{topic}、今日だよね！" if today == due else f"{topic}、どうだった？"
    return None
