"""Every required param a choice's schema describes gets a value within its bounds.

The rules say what to do (`action sleep`); the schema may ask for more
(`duration_minutes`, an integer from 30 to 480): a decision without it
fails the gate (`duration_minutes is required`) and the agent did nothing
instead. So before a decision is handed over, each required param it
lacks is filled: a length for a ranged action (a sleep at night lasts until
the morning, a rest by day is short; never past a meeting the agent must
set off for), the schema's own enum, a number within minimum and maximum.
A text-only range (`寝る (action_id: sleep, 30〜480分, duration_minutes:
分数を指定)`, the choice's schema silent) is read from the offered action.
A param nothing sensible can be chosen for (free text) is left to the rule.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from karakuri_agent.decide.queries import MEETING_GRACE, next_meeting, pick_stable
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.notification import Choice, offered_choice
from karakuri_agent.domain.clock import MORNING, TOKYO, is_night
from karakuri_agent.mind.view import View
from karakuri_agent.domain.records import Offer
from karakuri_agent.ja.phrases import is_sleep

DURATION_MINUTES = "duration_minutes"
# A ranged action by day: about an hour (within its bounds); a nap, the shortest it allows.
DAY_MINUTES = 60


def completed(view: View, decision: Decision) -> Decision:
    """The decision with every missing required param the schema (or the offered action's text) bounds."""
    if decision.command is None:
        return decision
    choice = offered_choice(view.choices, decision.command, decision.params)
    if choice is None:
        return decision
    params = {**choice.params, **decision.params}
    added: dict[str, Any] = {}
    for name in _wanted(view, choice, params):
        value = _value(view, choice, params, name)
        if value is not None:
            added[name] = value
    return replace(decision, params={**decision.params, **added}) if added else decision


def _wanted(view: View, choice: Choice, params: dict[str, Any]) -> list[str]:
    """Required params not given yet, and a length the offered action's text asks for."""
    wanted = [name for name in choice.required_params if params.get(name) in (None, "")]
    if (choice.command == "action" and DURATION_MINUTES not in wanted and params.get(DURATION_MINUTES) is None
            and _text_range(view, params) is not None
            and (DURATION_MINUTES in choice.param_schema or not choice.param_schema)):
        wanted.append(DURATION_MINUTES)
    return wanted


def _value(view: View, choice: Choice, params: dict[str, Any], name: str) -> Any:
    spec = choice.param_schema.get(name) or {}
    enum = spec.get("enum")
    if isinstance(enum, list) and enum:
        return pick_stable(enum, f"{view.notification_id}:{name}")
    low, high = _bound(spec.get("minimum")), _bound(spec.get("maximum"))
    if name == DURATION_MINUTES:
        # The schema's bounds and the action's own range, both: a generic choice's schema may be wider.
        text_low, text_high = _text_range(view, params) or (None, None)
        low = max((b for b in (low, text_low) if b is not None), default=None)
        high = min((b for b in (high, text_high) if b is not None), default=None)
        if low is None and high is None:
            return None
        return _minutes(view, params, low or 1, high if high is not None else max(low or 1, DAY_MINUTES))
    if spec.get("type") in ("integer", "number") and (low is not None or high is not None):
        return low if low is not None else high
    return None


def _minutes(view: View, params: dict[str, Any], low: int, high: int) -> int:
    """How long: a sleep at night until the morning, a sleep by day the shortest, else about an hour;
    never past the time to set off for a meeting, when the range allows that."""
    low, high = min(low, high), max(low, high)
    if is_sleep(_action_name(view, params)):
        wanted = _until_morning(view.now.astimezone(TOKYO)) if is_night(view.now) else low
    else:
        wanted = DAY_MINUTES
    meeting = next_meeting(view)
    due = meeting.due_at if meeting is not None else None
    if due is not None:
        wanted = min(wanted, int((due - MEETING_GRACE - view.now) / timedelta(minutes=1)))
    return max(low, min(high, wanted))


def _until_morning(local: datetime) -> int:
    morning = local.replace(hour=MORNING, minute=0, second=0, microsecond=0)
    if morning <= local:
        morning += timedelta(days=1)
    return int((morning - local) / timedelta(minutes=1))


def _option(view: View, params: dict[str, Any]) -> Offer | None:
    action_id = params.get("action_id")
    return next((a for a in view.parsed.actions if a.get("action_id") == action_id), None)


def _text_range(view: View, params: dict[str, Any]) -> tuple[int, int] | None:
    option = _option(view, params)
    low, high = (option.get("min_minutes"), option.get("max_minutes")) if option else (None, None)
    return None if low is None or high is None else (int(low), int(high))


def _action_name(view: View, params: dict[str, Any]) -> str:
    option = _option(view, params)
    if option and option.get("name"):
        return str(option["name"])
    choice = offered_choice(view.choices, "action", params)
    return f"{choice.description} {params.get('action_id') or ''}" if choice else str(params.get("action_id") or "")


def _bound(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
