"""What the model is told about a conversation turn: the line understood, and what is true of the agent.

The rules answer a partner's line from what it is (reading/hearing.py's
`Understanding`: its kind, its topic as whole words, what a question asks about)
and from what the agent knows (decide/speaking.py's `memory_of`: where it
went today, whom it talked with, its promises ahead; the pack's tastes;
what this partner told on earlier days). The model gets the same
knowledge, as data, so its line can be as grounded as the rules': never
the rules' own line, which a small model only copies.

Pure and bounded: every list is cut, every text is cut, and nothing here
reads settings, so no key can reach it. Japanese labels live in ja/prompt_text.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from karakuri_agent.domain.understanding import FAVOURITE, PASTIME, SIDE, TALK
from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.decide.queries import partner_of
from karakuri_agent.decide.speaking import asks_time, last_line_of, memory_of, promise_in
from karakuri_agent.domain.commands import END, SPEAK
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.mind.persona import Persona
from karakuri_agent.domain.records import Meeting
from karakuri_agent.mind.view import View
from karakuri_agent.ja import listening_cues
from karakuri_agent.ja import prompt_text
from karakuri_agent.ja.safety import clean_line
from karakuri_agent.memory import recall
from karakuri_agent.reading import hearing
from karakuri_agent.domain.understanding import Understanding
from karakuri_agent.voice.names import given_name_of, place_word_of

# The choices on which the agent answers a partner's line.
ANSWERING = ("conversation_accept", *SPEAK, *END)
# Bounds: the understanding is paid for on every turn.
PLACES = 6
PEOPLE = 6
GIFTS = 4
PLANS = 5
TASTES = 8
OPTIONS = 4
TEXT = 40

Sections = list[tuple[str, list[Any]]]


@dataclass(frozen=True)
class TurnUnderstood:
    """A turn understood: whose line it answers, and the prompt's sections that say what is known."""

    partner: PersonRef
    sections: Sections


def understand(view: View) -> TurnUnderstood | None:
    """The understanding of the line this turn answers; None when the turn answers no one's line."""
    if not any(c.command in ANSWERING for c in view.choices):
        return None
    partner = partner_of(view)
    line = last_line_of(view, partner) if partner else None
    text = clean_line(line or "")  # read as the voice reads it: a break between two thoughts ends one
    if not text:
        return None
    persona = view.persona
    partner_name = partner.name
    others = [p.name for p in view.parsed.participants
              if not view.me.is_self(p.id, p.name)]
    heard = hearing.hear(text, own_names=(persona.short_name, persona.name),
                             other_names=(*filter(None, (given_name_of(o) for o in others)),
                                          given_name_of(partner_name) or partner_name))
    memory = memory_of(view, partner)
    told = recall.about(view, partner).get("facts") or []
    plans: list[Any] = _plans(view)
    sections: Sections = [
        (prompt_text.HEARD, [_heard(view, partner, line, heard)]),
        (prompt_text.MY_DAY, [_day(view, memory.here, memory.today_places, memory.met_today)]),
        (prompt_text.MY_PLANS, plans or [prompt_text.NO_PLANS]),
        (prompt_text.MY_TASTES, tastes(persona, heard, text)),
        (prompt_text.TOLD_BEFORE, list(told)),
    ]
    return TurnUnderstood(partner, sections)


def _heard(view: View, partner: PersonRef, line: str | None, heard: Understanding | None) -> dict[str, Any]:
    """The line's kind, what it asks about, its topic, the thing told and how it feels."""
    out: dict[str, Any] = {"from": _cut(partner.name)}
    if heard is None:
        return _drop_empty(out)
    out["kind"] = prompt_text.KIND_LABELS.get(heard.kind, heard.kind)
    question = heard.question
    if heard.kind == "question":
        out["asks"] = prompt_text.ASKS_LABELS.get(heard.asks, heard.asks)
        if question is not None:
            out["question"] = prompt_text.QUESTION_LABELS.get(question.kind)
            out["options"] = [_cut(o) for o in question.options[:OPTIONS]]
        if heard.favourite:
            out["about"] = prompt_text.FAVOURITE_LABELS.get(heard.favourite)
        if heard.asks == TALK:
            out["talk_topic"] = _cut(_talk_topic(view, partner))
    out["topic"] = _cut(heard.topic)
    if heard.kind in ("news", "plan", "feeling", "retraction", "statement"):
        out["told"] = _cut(heard.clause)
        out["mood"] = prompt_text.MOOD_LABELS.get(heard.mood)
    # A meeting this very line set, whatever its kind ('3時からお茶会があるのですが、ご一緒にいかがですか'),
    # or one it proposes without a time: as the rules' reply reads it.
    meeting = promise_in(view, line, partner)
    if meeting is not None and meeting.due_at is not None:
        out["meeting"] = _drop_empty({"place": _cut(meeting.place_name),
                                      "at": meeting.due_at.astimezone(TOKYO).strftime("%H:%M")})
    elif heard.kind in ("invitation", "question", "statement", "plan", "news") and asks_time(view, partner):
        out["meeting"] = prompt_text.NO_TIME_SAID
    return _drop_empty(out)


def _plans(view: View) -> list[dict[str, Any]]:
    """Its promises not kept yet, soonest first: the meetings the rules keep (placed on the map, so
    with their place) before the other pending ones, each once."""
    seen: set[object] = set()
    out: list[tuple[bool, datetime | None, dict[str, Any]]] = []
    for promise in [*view.meetings, *view.pending]:
        key = promise.id or (promise.partner_name, promise.due_at)
        if promise.status in ("fulfilled", "withdrawn") or key in seen:
            continue
        seen.add(key)
        out.append((promise.due_at is not None, promise.due_at, promise_shown(promise)))  # undated first
    return [shown for _, _, shown in sorted(out, key=lambda row: row[:2])][:PLANS]


def promise_shown(commitment: Meeting) -> dict[str, Any]:
    """A promise as the prompt shows it: with whom, where, when (the world's time)."""
    return _drop_empty({
        "with": _cut(commitment.partner_name),
        "place": _cut(commitment.place_name),
        "node_id": commitment.node_id,
        "at": clock(commitment.due_at) if commitment.due_at else None,
    })


def clock(moment: datetime) -> str:
    return moment.astimezone(TOKYO).strftime("%m/%d %H:%M")


def _talk_topic(view: View, partner: PersonRef) -> str:
    """What the talk was about, as the rules read it: the first line before this one that names a thing."""
    from karakuri_agent.voice.from_the_talk import talk_topic

    memory = memory_of(view, partner)
    persona = view.persona
    return talk_topic(memory.talk, (partner.name, persona.name, persona.short_name))[0]


def _day(view: View, here: str, places: Sequence[str], people: Sequence[str]) -> dict[str, Any]:
    """Where it is, where it went today, whom it talked with today, what it was given today."""
    went = [_cut(place_word_of(p) or p) for p in dict.fromkeys(places) if p][:PLACES]
    got = [prompt_text.gift_from(_cut(giver), prompt_text.received(item, amount))
           for giver, item, amount in view.day_received[:GIFTS]]
    nowhere = prompt_text.ONLY_HERE if here else prompt_text.NO_PLACE_YET
    return _drop_empty({"here": _cut(place_word_of(here) or here), "went": went or nowhere,
                        "talked_with": [_cut(p) for p in people[:PEOPLE]], "got": got})


def tastes(persona: Persona, heard: Understanding | None, text: str) -> list[dict[str, Any]]:
    """The pack's tastes this line touches: the favourite asked for, habits and likes or dislikes the line
    names, morning or night; for a question about the agent that names none of them, its favourites."""
    own = persona.tastes
    out: list[dict[str, Any]] = []
    asks = heard.asks if heard is not None and heard.kind == "question" else None
    if heard is not None and asks == FAVOURITE and heard.favourite:
        thing = own.favourites.get(heard.favourite, "")
        if not thing and heard.favourite == "place" and persona.favourite_places:
            thing = persona.favourite_places[0]
        if not thing and heard.favourite == "pastime" and own.pastimes:
            thing = own.pastimes[0]
        if thing:
            out.append({"kind": prompt_text.FAVOURITE_LABELS.get(heard.favourite), "is": _cut(thing)})
    if asks == PASTIME and own.pastimes:
        out.append({"kind": prompt_text.FAVOURITE_LABELS["pastime"], "is": [_cut(p) for p in own.pastimes[:2]]})
    for habit in own.habits:
        said = next((w for w in habit.words if w and w in text), None)
        if said:
            out.append({"habit": _cut(said), "does": prompt_text.DOES if habit.does else prompt_text.DOES_NOT})
    night = any(w in text for w in listening_cues.NIGHT_WORDS)
    morning = any(w in text for w in listening_cues.MORNING_WORDS)
    if own.time_of_day and (night or morning):
        out.append({"kind": prompt_text.FAVOURITE_LABELS["time_of_day"], "is": prompt_text.TIME_OF_DAY.get(own.time_of_day)})
    season = own.favourites.get("season", "")
    if season and any(s in text for s in listening_cues.SEASONS):
        out.append({"kind": prompt_text.FAVOURITE_LABELS["season"], "is": _cut(season)})
    for things, feel in ((own.likes, prompt_text.LIKED), (own.dislikes, prompt_text.DISLIKED)):
        out += [{"thing": _cut(t), "feel": feel} for t in things if t and t in text]
    for fact in persona.facts.values():
        said = next((w for w in fact.words if w and w in text), None)
        if said and fact.likes is not None:
            out.append({"thing": _cut(said), "feel": prompt_text.LIKED if fact.likes else prompt_text.DISLIKED})
    if not out and asks in ("", FAVOURITE, PASTIME, SIDE):
        out = [{"kind": prompt_text.FAVOURITE_LABELS.get(kind), "is": _cut(thing)}
               for kind, thing in own.favourites.items() if thing]
        if own.time_of_day:
            out.append({"kind": prompt_text.FAVOURITE_LABELS["time_of_day"], "is": prompt_text.TIME_OF_DAY.get(own.time_of_day)})
    unique = list({repr(sorted(item.items())): item for item in out}.values())
    return unique[:TASTES]


def _cut(text: Any, limit: int = TEXT) -> Any:
    return text[:limit] if isinstance(text, str) else text


def _drop_empty(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if v not in (None, "", [], {})}
