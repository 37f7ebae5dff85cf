"""What a spoken decision says: its line (voice/), the next speaker, a memory brought up."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from karakuri_agent.decide.queries import (
    current_node_of,
    due_of,
    enum_of,
    is_close,
    knows_person,
    max_length_of,
    others_in,
    place_name_here,
    same_person_record,
)
from karakuri_agent.domain.commands import END, SPEAK
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.notification import TOKYO, Choice
from karakuri_agent.domain.records import Meeting
from karakuri_agent.domain.view import View
from karakuri_agent.ja import reasons
from karakuri_agent.memory import recall
from karakuri_agent.voice.speech import Memory, compose


# -- helpers -------------------------------------------------------------------------
def recalling(view: View, decision: Decision, choice: Choice, partner: dict[str, Any]) -> Decision:
    """A spoken decision that also brings up something `partner` told on an earlier day, if there is one."""
    if "message" not in decision.params:
        return decision
    memory = recall.for_partner(view, partner, opening=choice.command in ("conversation_start", "conversation_accept"))
    if memory is None:
        return decision
    message = recall.with_recall(decision.params["message"], memory, max_length_of(choice, "message"))
    return replace(decision, params={**decision.params, "message": message},
                   reason=reasons.with_memory(decision.reason, memory.explained()), recalled=memory)


def speech_params(view: View, choice: Choice, purpose: str, partner: dict[str, Any]) -> dict[str, Any]:
    """Params for a speaking command: the line, and the next speaker when asked for."""
    params: dict[str, Any] = {}
    wants = set(choice.param_schema) | set(choice.required_params)
    if not choice.param_schema and choice.command in SPEAK + END:
        wants |= {"message", "next_speaker_agent_id"}  # the contract's params, when the server omits a schema
    if "message" in wants or not choice.param_schema:
        last = _last_line(view, partner)
        promise = _promise_in(view, last) if purpose == "reply" else None
        params["message"] = compose(
            "promise_accept" if promise else purpose,
            persona=view.persona,
            partner_name=partner.get("name"),
            partner_known=knows_person(view, partner.get("id")),
            partner_close=bool(partner.get("id")) and is_close(view, str(partner.get("id"))),
            last_line=last,
            place_name=(promise or {}).get("place_name") or place_name_here(view),
            previous_lines=[*view.own_lines, *view.said_before],
            max_length=max_length_of(choice, "message"),
            seed=view.notification_id,
            time_text=_clock_text(promise),
            others=[p.get("name") or "" for p in others_in(view) if not same_person_record(p, partner)],
            memory=_memory(view, partner),
        )
    if "next_speaker_agent_id" in wants:
        speaker = _next_speaker(view, choice, partner)
        if speaker:
            params["next_speaker_agent_id"] = speaker
    return params


def _next_speaker(view: View, choice: Choice, partner: dict[str, Any]) -> str | None:
    """The partner, else another participant of this conversation; never the
    agent itself, and never someone outside the conversation when it is known."""
    options = enum_of(choice, "next_speaker_agent_id")
    members = [p.get("id") for p in others_in(view) if p.get("id")]
    preferred = [i for i in (partner.get("id"), *members) if i and not view.me.is_self(i, None)]
    fitting = [i for i in preferred if not options or i in options]
    if fitting:
        return fitting[0]
    offered = [o for o in options if not view.me.is_self(str(o), None)]
    return next((o for o in offered if not members or o in members), None)


def _memory(view: View, partner: dict[str, Any]) -> Memory:
    """What the agent can truly say of itself: where it is, where it went lately and
    today (the world's day), whom it talked with today, the promises ahead, and the
    lines of this talk so far (the one answered aside)."""
    here = current_node_of(view)
    visited = sorted((p for p in view.places if p.get("last_visited") and p.get("node_id") != here),
                     key=lambda p: p["last_visited"], reverse=True)
    today = view.now.astimezone(TOKYO).date()
    lines = [str(m.get("message") or "") for m in view.parsed.get("conversation_messages") or []]
    return Memory(here=place_name_here(view) or "",
                  recent_places=tuple(p["name"] for p in visited if p.get("name")),
                  known_places=tuple(p["name"] for p in view.places if p.get("name")),
                  today_places=tuple(p["name"] for p in visited if p.get("name") and _on(p["last_visited"], today)),
                  met_today=tuple(str(p.get("display_name") or "") for p in view.acquaintances.values()
                                  if _on(p.get("last_contact"), today) and p.get("display_name")
                                  and not same_person_record({"id": p.get("agent_id"), "name": p.get("display_name")},
                                                             partner)),
                  plans=_plans_ahead(view),
                  talk=tuple(line for line in lines[:-1] if line))


def _on(stamp: Any, day: Any) -> bool:
    """Whether an ISO time falls on ``day`` in the world's zone."""
    try:
        return bool(stamp) and datetime.fromisoformat(str(stamp)).astimezone(TOKYO).date() == day
    except ValueError:
        return False


def _plans_ahead(view: View) -> tuple[tuple[str, str], ...]:
    """(place, time) of the promises not yet due, soonest first."""
    ahead = []
    for meeting in view.meetings:
        due = due_of(meeting)
        if due is None or due <= view.now or meeting.get("status") == "fulfilled" or not meeting.get("place_name"):
            continue
        ahead.append((due, str(meeting.get("place_name")), due.astimezone(TOKYO).strftime("%H:%M")))
    return tuple((place, time) for _, place, time in sorted(ahead))


def _promise_in(view: View, line: str | None) -> dict[str, Any] | None:
    """The pending commitment made by this very line, if it made one."""
    if not line:
        return None
    return next((c for c in view.context.get("pending_commitments", []) if c.get("source_text") in line
                 or line in (c.get("source_text") or "")), None)


def _clock_text(commitment: Meeting | None) -> str | None:
    due = due_of(commitment) if commitment else None
    return due.astimezone(TOKYO).strftime("%H:%M") if due else None


def _last_line(view: View, partner: dict[str, Any]) -> str | None:
    """The partner's latest line: what the agent answers when it speaks to them."""
    for line in reversed(view.parsed.get("conversation_messages") or []):
        if same_person_record({"id": line.get("speaker_id"), "name": line.get("speaker")}, partner):
            return line.get("message")
    return None
