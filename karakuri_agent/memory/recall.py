"""Which remembered fact to bring up to someone, and the line: a pure decision over the view.

On a later in-world day than the one a fact was told (the world's day, from
the view's `now` in Asia/Tokyo, never the machine's clock), within the
agent's first three lines of a conversation with that person, one of their
facts comes back ("ミケちゃん、元気？"). Never a fact about someone else,
except town news, and never news back to the one who told it; never a fact
taken back; never one brought up to this person in the last week; never a
line already said to them this week. The line passes the one gate with the
rest of the message.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain import fact_kinds
from karakuri_agent.domain.json_value import JsonValue
from karakuri_agent.domain.records import Recall
from karakuri_agent.domain.limits import MESSAGE_UNITS, utf16_units
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.ja import markup, phrases
from karakuri_agent.ja.listening_cues import FULL_STOP
from karakuri_agent.ja.safety import clean_line
from karakuri_agent.ja.speech_words import join_sentences
from karakuri_agent.voice.fitting import said_key

if TYPE_CHECKING:
    from karakuri_agent.mind.view import View

# The agent's first lines of a conversation, when a memory may come back.
RECALL_WITHIN_LINES = 3
# A fact brought up to someone is not brought up to them again within this.
RECALL_AGAIN_AFTER = timedelta(days=7)
# One memory per talk: none while another was brought up to the same person this recently.
ONE_PER_TALK = timedelta(hours=1)


def _order(kind: str, detail: str = "") -> int:
    """What comes first when several could: their plans near the day, then the rest of theirs, then news;
    a thing that happened comes before what they like only when it went well or badly (a passing remark,
    '昨日の夕焼け、不思議な色だった', is the least worth asking after)."""
    if kind == fact_kinds.EVENT and not detail:
        return 7
    return {fact_kinds.PLAN: 0, fact_kinds.PET: 1, fact_kinds.FAMILY: 2, fact_kinds.EVENT: 3, fact_kinds.WORK: 4, fact_kinds.LIKE: 5,
            fact_kinds.DISLIKE: 6, fact_kinds.NEWS: 8}.get(kind, 9)


def explained(recall: Recall) -> str:
    """For the decision's reason (`handle --explain`): which memory the line came from."""
    try:
        when = datetime.fromisoformat(recall.said_at).astimezone(TOKYO).strftime("%-m/%-d")
    except ValueError:
        when = phrases.SOME_TIME_AGO
    return phrases.remembered(when, recall.speaker, recall.source)


def kept_under(person: PersonRef) -> list[str]:
    """What someone's facts are stored under: their id, their name, and the given name lines call them
    by (news about them: 'メイさん、入院したらしいよ' is kept under メイ)."""
    from karakuri_agent.voice.names import called_names

    name = person.name
    return [str(person.id or ""), name, *(called_names(name) if name else ())]


def _about(row: Mapping[str, Any], person: PersonRef) -> bool:
    """Whether a fact is about ``person``: by id, else by name, or by a name a line called
    them by ('メイさん、入院したらしいよ' is about 桜草メイ, 'Kaiくん、…' about Kai_07)."""
    if row.get("about_id") and person.id:
        return str(row["about_id"]) == str(person.id)
    from karakuri_agent.voice.names import called_names

    about, name = str(row.get("about_name") or ""), person.name
    return bool(about) and (about == name or (len(about) >= 2 and name.endswith(about) and about != name[:len(about)])
                            or about in called_names(name))


def _told_by(row: Mapping[str, Any], person: PersonRef) -> bool:
    if row.get("speaker_id") and person.id:
        return str(row.get("speaker_id")) == str(person.id)
    return bool(row.get("speaker_name")) and row.get("speaker_name") == person.name


def _day(text: Any) -> date | None:
    try:
        return datetime.fromisoformat(str(text)).astimezone(TOKYO).date()
    except ValueError:
        return None


def _since(mentioned_at: Any, now: datetime) -> timedelta:
    """How long ago a fact was last brought up (never: forever); a time ahead (the clock stepped back) is now."""
    if not mentioned_at:
        return timedelta.max
    try:
        return max(now - datetime.fromisoformat(str(mentioned_at)), timedelta(0))
    except ValueError:
        return timedelta.max


def choose(rows: Iterable[Mapping[str, Any]], person: PersonRef, now: datetime,
           said: Iterable[str] = ()) -> Recall | None:
    """The fact to bring up to `person` now, or None."""
    from karakuri_agent.reading import told_facts

    today = now.astimezone(TOKYO).date()
    used = {said_key(line) for line in said}
    rows = list(rows)
    if any(_since(row.get("mentioned_at"), now) < ONE_PER_TALK for row in rows if not row.get("withdrawn_at")):
        return None
    found: list[tuple[tuple[int, str], Recall]] = []
    for row in rows:
        news = row.get("kind") == fact_kinds.NEWS
        if row.get("withdrawn_at") or (news and _told_by(row, person)) or not (news or _about(row, person)):
            continue
        told_on = _day(row.get("said_at"))
        if told_on is None or told_on >= today:
            continue
        if _since(row.get("mentioned_at"), now) < RECALL_AGAIN_AFTER:
            continue
        line = told_facts.recall_line(row, today)
        if line is None or said_key(line) in used:
            continue
        recall = Recall(str(row["fact_key"]), str(person.id or person.name or ""), line,
                        str(row.get("source") or ""), str(row.get("speaker_name") or ""), str(row.get("said_at")))
        found.append(((_order(str(row.get("kind")), str(row.get("detail") or "")), str(row.get("said_at"))), recall))
    if not found:
        return None
    best = min(k[0] for k, _ in found)
    same = [(k, r) for k, r in found if k[0] == best]
    return max(same, key=lambda kr: kr[0][1])[1]  # the newest of the best kind


def asked_of(rows: Iterable[Mapping[str, Any]], person: PersonRef, now: datetime, asked: str) -> Recall | None:
    """What `person` asks whether the agent remembers ('ぼくの ハムスターの なまえ、おぼえてる？'): a fact of
    theirs not taken back, told any day, the one whose topic the question names first, else their newest."""
    from karakuri_agent.reading import told_facts

    today = now.astimezone(TOKYO).date()
    found: list[tuple[tuple[bool, str], Recall]] = []
    for row in rows:
        if row.get("withdrawn_at") or not (_about(row, person) or _told_by(row, person)):
            continue
        line = told_facts.recall_line(row, today)
        if line is None:
            continue
        named = bool(row.get("topic")) and str(row["topic"]) in asked
        found.append(((named, str(row.get("said_at"))),
                      Recall(str(row["fact_key"]), str(person.id or person.name or ""), line, str(row.get("source") or ""),
                             str(row.get("speaker_name") or ""), str(row.get("said_at")))))
    return max(found, key=lambda kr: kr[0])[1] if found else None


def _as_read(line: str) -> str:
    """A line as the reader reads it, its spaces and breaks aside: one saying, however it was kept."""
    return "".join(clean_line(line).replace(FULL_STOP, "").split())


def linked(rows: Iterable[Mapping[str, Any]], person: PersonRef, line: str) -> str | None:
    """The thing `person`'s line names that they told the agent about before ('あのマフラー、やっと
    編み上がった！' after 'お母さんの誕生日に、マフラー編んでるの'): a noun of the line found in one of
    their facts not taken back (its topic or its line), the line itself aside; None without one."""
    from karakuri_agent.reading.morphemes import nouns  # the analyzer: only for a line that refers back
    from karakuri_agent.ja.word_classes import has_hiragana

    said = _as_read(line)  # the line itself, however its spaces were kept ('おわった　手応え')
    told = [row for row in rows if not row.get("withdrawn_at") and (_about(row, person) or _told_by(row, person))
            and _as_read(str(row.get("source") or "")) != said]
    if not told:
        return None
    topics = {str(row.get("topic") or "") for row in told}
    named = {noun for row in told for noun in nouns(str(row.get("source") or ""))}  # each told line read once
    # a noun in kana ('生まれ' of a dialect's 生まれだ) is too often a verb cut short: only as a topic
    return next((noun for noun in nouns(line) if noun in topics or (not has_hiragana(noun) and noun in named)), None)



# A thing told this long ago or less may be what a line that names nothing refers back to.
REFERRED_WITHIN = timedelta(days=14)


def referred(rows: Iterable[Mapping[str, Any]], person: PersonRef, line: str, now: datetime,
             before: Iterable[str] = ()) -> str | None:
    """What a line that names nothing ('例のやつ、受かった！', 'うまくいったよ！') most likely refers back to:
    the topic of the newest thing `person` told of themselves on an earlier day, within two weeks, not taken
    back; None when the line or the talk's lines `before` it name a thing (that is what it is about), or
    they told nothing."""
    from karakuri_agent.ja.word_classes import VAGUE_REFERENTS
    from karakuri_agent.reading.morphemes import nouns  # the analyzer: only for a line heard as news

    if any(noun not in VAGUE_REFERENTS for said in (line, *before) for noun in nouns(said)):
        return None
    today = now.astimezone(TOKYO).date()
    told = [row for row in rows if not row.get("withdrawn_at") and row.get("kind") != fact_kinds.NEWS
            and _about(row, person) and row.get("topic") and (day := _day(row.get("said_at"))) is not None
            and day < today and now - datetime.fromisoformat(str(row["said_at"])) <= REFERRED_WITHIN]
    newest = max(told, key=lambda row: str(row.get("said_at")), default=None)
    return str(newest["topic"]) if newest is not None else None


# A thing told as ahead is asked after from its day to this many days later, when the partner speaks of it.
DUE_WITHIN = timedelta(days=2)


def due_now(rows: Iterable[Mapping[str, Any]], person: PersonRef, now: datetime) -> Recall | None:
    """What `person` told on an earlier day was ahead of them and whose day is today or just past ('明日、
    フルマラソンなんだ' told yesterday): the newest such thing, not taken back, not brought up this week nor
    another thing in this talk (its `line` is its topic, for the caller's words); None without one."""
    from karakuri_agent.reading.told_facts import due_day

    today = now.astimezone(TOKYO).date()
    rows = [row for row in rows if not row.get("withdrawn_at")]
    if any(_since(row.get("mentioned_at"), now) < ONE_PER_TALK for row in rows):
        return None
    due = [row for row in rows if row.get("kind") != fact_kinds.NEWS and _about(row, person) and row.get("topic")
           and (told := _day(row.get("said_at"))) is not None and told < today
           and (on := due_day(row)) is not None and on <= today <= on + DUE_WITHIN
           and _since(row.get("mentioned_at"), now) >= RECALL_AGAIN_AFTER]
    newest = max(due, key=lambda row: str(row.get("said_at")), default=None)
    if newest is None:
        return None
    return Recall(str(newest["fact_key"]), str(person.id or person.name or ""), str(newest["topic"]),
                  str(newest.get("source") or ""), str(newest.get("speaker_name") or ""), str(newest.get("said_at")))


def for_partner(view: View, person: PersonRef, *, opening: bool = False) -> Recall | None:
    """A memory to bring up to `person` in this conversation, within the agent's first lines.

    `opening`: the line starts the conversation (a start or an accept), the first whatever the lines
    kept from an earlier talk with the same people say.
    """
    if (not opening and len(view.own_lines) >= RECALL_WITHIN_LINES) or not person.id:
        return None
    return choose(view.told.get(str(person.id), ()), person, view.now, view.said_before)


def with_recall(message: str, recall: Recall, max_length: int | None) -> str:
    """The message with the memory's line after it; the memory's line alone when both do not fit."""
    joined = join_sentences((message, recall.line))  # never glued on: 'よかったね' + '。' + 'そういえば…' 
    return joined if utf16_units(joined) <= (MESSAGE_UNITS if max_length is None else max_length) else recall.line


# How many of a person's facts the model's prompt carries.
PROMPT_FACTS = 5
# A fact's line as the prompt quotes it (said by someone else: data, cut short).
SOURCE_CHARS = 60

# The pack's per-person variable that says how close the agent is to someone.
CLOSENESS = "closeness"
SOCIABILITY = "sociability"


def closeness_spec(view: View) -> Any:
    """The pack's `closeness` variable (behaviour.spec.Variable), or None when the pack has none."""
    behaviour = view.persona.behaviour
    return behaviour.variables.get(CLOSENESS) if behaviour is not None else None


def sociability(view: View) -> float:
    """How readily the agent speaks first, 0 to 1: the pack's `sociability` variable where it has one
    (its place between min and max), else the persona's rule."""
    behaviour = view.persona.behaviour
    spec = behaviour.variables.get(SOCIABILITY) if behaviour is not None else None
    if (spec is not None and not spec.per_person and spec.minimum is not None and spec.maximum is not None
            and spec.maximum > spec.minimum):
        value = _variables(view).get(SOCIABILITY, spec.initial)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return max(0.0, min(1.0, (float(value) - float(spec.minimum)) / float(spec.maximum - spec.minimum)))
    return float(view.persona.rules.sociability)


def closeness(view: View, name: str | None) -> float | None:
    """How close the agent is to `name` by the pack's variable; None without one."""
    spec = closeness_spec(view)
    if spec is None:
        return None
    value = _variables(view).get(f"{CLOSENESS}.{name}", spec.initial)
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


def _variables(view: View) -> dict[str, JsonValue]:
    """The pack's variables as saved (name → value)."""
    saved = view.behaviour_memory.get("variables")
    return saved if isinstance(saved, dict) else {}


def about(view: View, person: PersonRef) -> dict[str, Any]:
    """What the agent remembers of someone, for the model's prompt: their facts (not taken back)
    with when they were told, and the band of the pack's closeness variable."""
    out: dict[str, Any] = {}
    spec, value = closeness_spec(view), closeness(view, person.name)
    band = spec.band(value) if spec is not None and value is not None and person.name else None
    if band:
        out["closeness"] = band
    rows = [r for r in view.told.get(str(person.id or ""), ())
            if not r.get("withdrawn_at") and (r.get("kind") == fact_kinds.NEWS or _about(r, person))]
    facts = [f"{_day(r.get('said_at')) or ''} {r.get('speaker_name') or ''}{markup.quoted(str(r.get('source') or '')[:SOURCE_CHARS])}".strip()
             for r in rows[:PROMPT_FACTS]]
    if facts:
        out["facts"] = facts
    return out
