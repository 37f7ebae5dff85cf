"""Extract promises (meeting or going somewhere together) from conversation lines.

A promise is a line from ANOTHER agent that proposes or accepts meeting or
going together AND names a place and/or a time. It is a heuristic on
Japanese chat text, deliberately conservative: a missed promise costs less
than an invented one, because the agent would act on it (move, wait).

Documented choices:

- Proposal cues: strong cues (約束, 待ち合わせ, 合流, 集合, 落ち合う, 会いましょう,
  会おう, 行きましょう, 行こう, 一緒に, 来てね, 待ってる, 行かない？ ...) count
  anywhere in a sentence; weak cues (いいよ, OK, 了解, わかった, もちろん, どう？,
  しよう ...) count only when the same sentence names the place or time, so
  "いいよいいよ。会場は公民館に変更" is not a promise. A bare question such as
  "コンビニ行く？" is an idea, not a proposal: no cue. "行こうかな" and
  "行こうと思う" state the speaker's own plan: not a cue. A cue sentence with
  a refusal (行けない, 会えない, 無理, やめよう, キャンセル) does not count.
- Casual speech needs no cue word: a sentence that names a time AND a place
  followed by で / に / へ / 前 / 集合, or ending on it with な / ね
  ("5分後にコンビニ前な", "じゃあ明日14時、公民館で", "1時間後に喫茶店な！")
  is a meeting, unless it is a question, a deadline (18時まで),
  hearsay (らしい, って), a habit (毎朝, いつも) or about the past (昨日, さっき,
  a sentence ending in た).
- The addressee is not judged: in a group conversation a proposal to the
  group is a proposal to the agent; the caller may filter further. A call
  to everyone at once (`@everyone`, `@here`, a role mention) is an
  announcement, never a promise.
- A promise without a time is read (its place may be taken up by a later
  line) but is not a meeting: the caller records a meeting only when it has
  a time the agent understood, and asks for one otherwise. The time given
  after it by the same speaker ("じゃあ3時ね", "15時はどう？", no cue needed),
  or after the agent asked for one, makes that plan a meeting at its place.
- Times (Arabic digits, full-width accepted): `N分後`, `N時間後`, `N時間半後`,
  `N時間M分後` (at most a day ahead),
  `HH:MM`, `N時`, `N時半`, `N時M分`, with 今日 / 明日 / 明後日 and 午前 / 午後 /
  朝 / 夜 / 夕方. `あとで` / `後で` means now + 30 minutes (a typical "a bit
  later" in a town where actions take 10-60 minutes). A day word alone
  (明日 without an hour) is not a time.
- Every time is resolved against `now`, the moment the line was SAID (the
  caller passes the time it first saw the line), never the moment it is
  re-read: a line re-read in a later history keeps its due time.
- Clock times without a day word mean the next occurrence, read on a
  12-hour clock when no 午前/午後 is given: today at that hour if it is not
  more than 15 minutes past; else, for hours below 12, the same hour in the
  evening (9時 said at 21:00 means 21:00); else tomorrow. 今日 pins the day
  (a past time stays today, overdue), and so do 今夜 / 今晩; 明日 / 明後日 pin
  the day as said, where a bare 1時-6時 is in the afternoon (明日の3時 is 15:00). So a bare clock time is never more than a day after the
  line: "0時10分に" said at 23:50 is twenty minutes later. 0時 or 12時 with
  夜 / 今夜 / 晩 is the midnight that ends that day.
- Places: a name from `known_places` (`[{node_id, name}]`) gives its node id;
  it matches on the full name, each of its words (喫茶店 for 喫茶店 店内,
  校庭 for 学校 校庭), the word before 「 (喫茶店 for 喫茶店「さくら」) or
  the name inside 「」; a word naming parts of several buildings (店内 of
  喫茶店 店内 and 本屋 店内) names none; the longest match wins, ties go to
  the first place in the list. Else a place
  word from a built-in list, extended by a following `「名前」` (本屋「栞」).
  A node id written in the line (6-11) is taken as node_id.
- A naive `now` is taken as Asia/Tokyo; due times are aware, Asia/Tokyo."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Mapping, Sequence

from karakuri_agent.domain.identity import same_person
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.domain.records import Line
from karakuri_agent.ja.promise_words import (
    AFTER_COME,
    AGREEMENT,
    CALL_OFF,
    CALL_OFF_MEETING,
    COME_LEMMAS,
    DIGITS,
    DEADLINE,
    GO_LEMMAS,
    MASS_PING,
    MEETING_WORD,
    NAMES_A_DAY,
    NEGATIVE_LEMMAS,
    NOT_A_MEETING,
    PLACE_CHANGE,
    PLACE_PARTICLE,
    QUESTION_END,
    REFUSAL,
    SENTENCE_MARKS,
    STRONG_CUE,
    TOWN_PLACE,
    UNSEEN_SPOT,
    WEAK_CUE,
)
from karakuri_agent.ja.sentences import split_sentences
from karakuri_agent.reading.place_names import NODE_ID_IN_TEXT, place_in_text, unambiguous_keys
from karakuri_agent.reading.times import as_tokyo, due_in_text


@dataclass(frozen=True)
class Promise:
    """A meeting someone proposed to (or accepted with) the agent."""

    partner_id: str | None
    partner_name: str
    place_name: str | None
    node_id: str | None
    due_at: datetime | None
    source_text: str
    line_key: str = ""  # the same line (speaker, text, conversation) re-read later has the same key
    said_at: datetime | None = None  # when the line was said: what its times were read against


@dataclass(frozen=True)
class _PlaceWords:
    """Every way a place may be named (node ids, known names, place words), as two patterns.

    Built once per message, so a long message costs one scan per sentence
    whatever the number of known places.
    """

    named: re.Pattern[str]  # a place named anywhere
    spot: re.Pattern[str]  # a place named as where to be: 公民館で, コンビニ前, 神社に

    @classmethod
    def of(cls, known_places: Sequence[Mapping[str, Any]]) -> _PlaceWords:
        keys = set(unambiguous_keys(known_places))
        names = "|".join(sorted(map(re.escape, keys), key=len, reverse=True))
        place = "(?:" + "|".join([NODE_ID_IN_TEXT.pattern, TOWN_PLACE.pattern] + ([names] if names else [])) + ")"
        return cls(re.compile(place), re.compile(place + PLACE_PARTICLE.pattern))


def _casual_meeting(sentence: str, now: datetime, places: _PlaceWords) -> bool:
    """A time plus a place marked as where to be ("公民館で", "コンビニ前"), said as a plan."""
    if NOT_A_MEETING.search(sentence.strip()) or due_in_text(sentence, now) is None:
        return False
    return places.spot.search(sentence) is not None or UNSEEN_SPOT.search(sentence) is not None


def _asks_to_come(sentence: str) -> bool:
    """A question that ends on coming ("映画館来られへん？", "来てくれる？") or on not going ("行かへん？"),
    by the analyzer's lemmas: every form and dialect it cuts, not one surface at a time."""
    from karakuri_agent.reading.morphemes import words  # the analyzer: only for a sentence with a question

    found = [w for w in words(sentence.strip().rstrip(SENTENCE_MARKS)) if w.pos != "symbol"]
    for i in range(len(found) - 1, -1, -1):
        word = found[i]
        if word.pos == "verb" and word.lemma in COME_LEMMAS | GO_LEMMAS:
            tail = [w.lemma for w in found[i + 1:]]
            if all(lemma in AFTER_COME for lemma in tail):
                return word.lemma in COME_LEMMAS or any(lemma in NEGATIVE_LEMMAS for lemma in tail)
            return False
    return False


def _proposal_sentence(message: str, now: datetime, known_places: Sequence[Mapping[str, Any]]) -> str | None:
    """The sentence that proposes or accepts meeting, or None."""
    places = _PlaceWords.of(known_places)
    for sentence in split_sentences(message):
        if REFUSAL.search(sentence) or CALL_OFF.search(sentence):  # "今日の15時の図書館の約束、行けなくなって…"
            continue
        if STRONG_CUE.search(sentence) or _casual_meeting(sentence, now, places):
            return sentence
        if QUESTION_END.search(sentence) and _asks_to_come(sentence):
            return sentence
        if WEAK_CUE.search(sentence) and (due_in_text(sentence, now) or places.named.search(sentence)):
            return sentence
    return None


def extract_promise(
    message: object,
    *,
    speaker_name: str,
    speaker_id: str | None,
    now: datetime,
    known_places: Sequence[Mapping[str, Any]] = (),
) -> Promise | None:
    """A Promise when `message` proposes/accepts meeting and names a place or time.

    Place and time are read from the proposing sentence first, then from the
    whole message (so "明日15時はどう？喫茶店で会おう！" keeps both). Never
    raises on odd input: anything that is not text gives None.
    """
    if not isinstance(message, str) or not isinstance(now, datetime):
        return None
    text = message.translate(DIGITS)
    if MASS_PING.search(text):
        return None
    tokyo_now = as_tokyo(now)
    places = [place for place in known_places if isinstance(place, Mapping)]
    sentence = _proposal_sentence(text, tokyo_now, places)
    if sentence is None:
        return None
    due_at = due_in_text(sentence, tokyo_now) or due_in_text(text, tokyo_now)
    place_name, node_id = place_in_text(sentence, places)
    if (place_name, node_id) == (None, None):
        place_name, node_id = place_in_text(text, places)
    if due_at is None and place_name is None and node_id is None:
        return None
    return Promise(
        partner_id=speaker_id,
        partner_name=speaker_name,
        place_name=place_name,
        node_id=node_id,
        due_at=due_at,
        source_text=message,
    )


def proposes_without_time(message: object, *, now: datetime, known_places: Sequence[Mapping[str, Any]] = ()) -> bool:
    """The line proposes doing something together but says no time the agent understood.

    "夕方に公園を散歩しようと思っています。一緒にどうですか？", "折り紙教室、一緒に
    申し込みませんか": what the agent answers with a question about the time.
    A call to everyone is no proposal to the agent.
    """
    if not isinstance(message, str) or not isinstance(now, datetime):
        return False
    text = message.translate(DIGITS)
    if MASS_PING.search(text):
        return False
    places = [place for place in known_places if isinstance(place, Mapping)]
    sentence = _proposal_sentence(text, as_tokyo(now), places)
    return sentence is not None and due_in_text(text, as_tokyo(now)) is None


def _is_self(line: Line, self_id: str | None, self_name: str | None) -> bool:
    """True when the line was said by the agent itself (by id, else name)."""
    return same_person(self_id, self_name, line.speaker_id, line.speaker)


def line_key(line: Line, conversation_id: str | None) -> str:
    """One key per line said: same speaker, same text, same conversation.

    The speaker is their name, which every reading carries (an id may be
    missing from one text and resolved in the next, and must not make the
    same line look new); without a conversation id the key is speaker and
    text only (the caller bounds how long such a key stands for one saying).
    """
    speaker = line.speaker or line.speaker_id or ""
    raw = "\x1f".join((str(conversation_id or ""), str(speaker), line.message))
    return hashlib.sha256(raw.encode("utf-8")).hexdigest()


def extract_promises(
    lines: Sequence[Line],
    *,
    self_id: str | None,
    self_name: str | None,
    now: datetime,
    known_places: Sequence[Mapping[str, Any]] = (),
    conversation_id: str | None = None,
    said_at: Callable[[str], datetime] | None = None,
    standing: Sequence[Promise] = (),
) -> list[Promise]:
    """Promises in parsed lines `{speaker, speaker_id, message}`, in order.

    `standing` are promises made in earlier notifications: a line that moves
    a meeting ("やっぱり図書館にしない？") moves the speaker's latest one even
    when the line that made it is no longer in the history shown.

    The agent's own lines are skipped: a promise is what someone else asked
    of (or agreed with) the agent. `said_at(line_key)` tells when a line was
    said (the first time it was seen); without it every line was said `now`.
    Each promise carries its line's key and that time, so a caller can keep
    one promise per line said.
    """
    promises: list[Promise] = []
    offered: Promise | None = None  # the agent's own latest proposal: what a partner's "了解" takes up
    for line in lines:
        if not isinstance(line, Line):
            continue
        if _is_self(line, self_id, self_name):
            offered = extract_promise(line.message, speaker_name="", speaker_id=None, now=now,
                                      known_places=known_places) or offered
            continue
        key = line_key(line, conversation_id)
        when = said_at(key) if said_at else now
        speaker = line.speaker
        speaker_name = str(speaker) if speaker is not None else ""
        promise = extract_promise(
            line.message,
            speaker_name=speaker_name,
            speaker_id=str(line.speaker_id) if line.speaker_id is not None else None,
            now=when,
            known_places=known_places,
        )
        if calls_off(line.message, when):  # what the speaker proposed a moment ago is off
            promises = [p for p in promises if not _made_by(p, line)]
            continue
        earlier = next((p for p in reversed([*standing, *promises]) if _made_by(p, line)), None)
        if promise is None and earlier is not None and _placed_only(earlier) and earlier in promises:
            promise = _time_for(line.message, earlier, when)
            promises = [p for p in promises if p is not earlier or promise is None]
        if earlier is not None and (promise is None or promise.due_at is None):
            promise = _moved(line.message, earlier, known_places, when) or promise
        elif earlier is not None and promise is not None and changes_plan(line.message):
            promise = _retimed(line.message, promise, earlier)
            promises = [p for p in promises if p is not earlier]  # said a moment ago: the new time replaces it
        elif earlier is not None and promise is not None and _timed_only(promise) and _placed_only(earlier):
            # "公園で会おう！" and, asked when, "15時はどう？": the time of the plan made a moment ago
            promise = dataclasses.replace(promise, place_name=earlier.place_name, node_id=earlier.node_id)
            promises = [p for p in promises if p is not earlier]
        if promise is not None and offered is not None:
            promise = _with_offered_place(line, promise, offered)
        if promise and not _takes_up(line, promise, [p for p in [*standing, *promises] if p.line_key != key]):
            promises.append(dataclasses.replace(promise, line_key=key, said_at=when))
    return promises


def _retimed(message: object, promise: Promise, earlier: Promise) -> Promise:
    """"いや、やっぱ17時にしよう" after "明日16時に銭湯行こうぜ": the plan's day and place at the new hour."""
    text = str(message or "").translate(DIGITS)
    due = promise.due_at
    if due is not None and earlier.due_at is not None and not NAMES_A_DAY.search(text):
        local, day = due.astimezone(TOKYO), earlier.due_at.astimezone(TOKYO)
        due = local.replace(year=day.year, month=day.month, day=day.day)
    if promise.place_name or promise.node_id:
        return dataclasses.replace(promise, due_at=due)
    return dataclasses.replace(promise, due_at=due, place_name=earlier.place_name, node_id=earlier.node_id)


def _time_for(message: object, plan: Promise, now: datetime) -> Promise | None:
    """"じゃあ3時ね" after its speaker's "公園で会おう！": the time of that plan (no cue needed), else None."""
    text = str(message or "").translate(DIGITS)
    due = due_in_text(text, now)
    if due is None or REFUSAL.search(text) or DEADLINE.search(text):
        return None
    return dataclasses.replace(plan, due_at=due, source_text=str(message))


def _timed_only(promise: Promise) -> bool:
    return promise.due_at is not None and not (promise.place_name or promise.node_id)


def _placed_only(promise: Promise) -> bool:
    return promise.due_at is None and bool(promise.place_name or promise.node_id)


def _with_offered_place(line: Line, promise: Promise, offered: Promise) -> Promise:
    """An agreement to the agent's own proposal that names no place known here meets where the agent said.

    So does the time given when the agent asked for one ("公園、いいね！何時ごろにする？" → "15時はどう？").
    """
    if _timed_only(promise) and _placed_only(offered):
        return dataclasses.replace(promise, place_name=offered.place_name, node_id=offered.node_id)
    message = line.message.translate(DIGITS)
    if promise.place_name or promise.node_id or not AGREEMENT.search(message):
        return promise
    if promise.due_at is not None and offered.due_at is not None and _clock_of(promise.due_at) != _clock_of(offered.due_at):
        return promise
    return dataclasses.replace(promise, place_name=offered.place_name, node_id=offered.node_id)


def _takes_up(line: Line, promise: Promise, earlier: Sequence[Promise]) -> bool:
    """The line agrees to a plan someone made, or its proposer says it again: no promise of its own.

    "了解、15時に喫茶店ね" after "明日15時に喫茶店で会おうよ！" is the same
    meeting: one promise per plan, made by the line that proposed it. A line
    that proposes by itself ("10時に神社で会おう") is its speaker's own
    promise, even when someone proposed the same before.
    """
    message = line.message.translate(DIGITS)
    agrees = bool(AGREEMENT.search(message)) and not STRONG_CUE.search(message)
    changes = bool(PLACE_CHANGE.search(message))
    for plan in earlier:
        if _made_by(plan, line):
            # Its proposer saying it again: the same time is the same plan, unless the line changes it or
            # names another place ("16時に図書館" and later "16時、喫茶店に行くんだけど、来る？": now the café).
            if not changes and promise.due_at is not None and promise.due_at == plan.due_at and _same_place(promise, plan):
                return True
            if _same_plan(promise, plan):
                return True
        elif agrees and _same_plan(promise, plan, by_clock=True):
            return True
    return False


def _clock_of(moment: datetime) -> tuple[int, int]:
    """The time of day as said: 10時 is 10:00 or 22:00, depending on when it was said."""
    local = moment.astimezone(TOKYO)
    return local.hour % 12, local.minute


def _same_plan(promise: Promise, earlier: Promise, *, by_clock: bool = False) -> bool:
    """The same time (or none said) at the same place (or none said, or one naming the other: 食堂 of 港の食堂).

    `by_clock`: an agreement often says the hour alone ("了解、11時ね" to a
    plan for tomorrow at 11): the time of day is compared, not the day or the half of it.
    """
    if promise.due_at is not None and earlier.due_at is not None:
        if by_clock:
            if _clock_of(promise.due_at) != _clock_of(earlier.due_at):
                return False
        elif promise.due_at != earlier.due_at:
            return False
    if promise.due_at is not None and earlier.due_at is None:
        return False  # a time where there was none is news
    return _same_place(promise, earlier)


def _same_place(promise: Promise, earlier: Promise) -> bool:
    """The same node, else no place said, or one name inside the other (食堂 of 港の食堂)."""
    if promise.node_id and earlier.node_id:
        return promise.node_id == earlier.node_id
    here, there = promise.place_name, earlier.place_name
    return not here or (there is not None and (here in there or there in here))


def _moved(message: object, earlier: Promise, known_places: Sequence[Mapping[str, Any]], now: datetime) -> Promise | None:
    """The same meeting at another place, when its proposer changes the place and says no new time.

    "やっぱり図書館にしない？時間はそのままで。" after a meeting at 15時 means 15時
    at the library: the earlier time stays, the place is the new one.
    """
    if not isinstance(message, str):
        return None
    text = message.translate(DIGITS)
    if not PLACE_CHANGE.search(text) or REFUSAL.search(text) or due_in_text(text, earlier.said_at or now):
        return None
    place_name, node_id = place_in_text(text, [p for p in known_places if isinstance(p, Mapping)])
    if (place_name, node_id) == (None, None) or (place_name, node_id) == (earlier.place_name, earlier.node_id):
        return None
    return dataclasses.replace(earlier, place_name=place_name, node_id=node_id, source_text=message)


def _made_by(promise: Promise, line: Line) -> bool:
    """The promise was made by the line's speaker: by id when both have one, else by name."""
    return same_person(promise.partner_id, promise.partner_name, line.speaker_id, line.speaker)


def calls_off(message: object, now: datetime) -> bool:
    """The line calls a meeting off ("ごめん、さっきの約束なしで！") and proposes no other (read at `now`, the world's)."""
    if not isinstance(message, str):
        return False
    if not any(CALL_OFF.search(sentence) or (CALL_OFF_MEETING.search(sentence) and MEETING_WORD.search(sentence))
               for sentence in split_sentences(message)):
        return False
    return extract_promise(message, speaker_name="", speaker_id=None, now=now) is None


def changes_plan(message: object) -> bool:
    """The line changes a plan already made (やっぱり, 変更, にしない？): what it proposes replaces the old one."""
    return isinstance(message, str) and PLACE_CHANGE.search(message.translate(DIGITS)) is not None
