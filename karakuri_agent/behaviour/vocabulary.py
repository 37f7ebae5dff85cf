"""The world's words a pack may name, and the check that it names only those (`persona check`).

A rule that chooses a command the world has not got, a reaction on an event
that never happens, a trigger on a notification type the world never sends
or a `wait` longer than the world allows can never work; `persona check`
refuses each one, naming the file, the rule, the field and what is
expected, with the closest known word where there is one. The lists are
documented in docs/behaviour.md ("The world's vocabulary").
"""

from __future__ import annotations

import difflib
import fnmatch
from typing import Any, Iterable, Mapping

from karakuri_agent.behaviour.spec import EVENTS, Reaction, Rule
from karakuri_agent.domain.commands import KNOWN as COMMANDS

# Every notification type the world sends an agent (its Discord notifier's events).
NOTIFICATION_TYPES = (
    "agent_logged_in", "agent_logged_out", "idle_reminder_fired", "server_announcement_fired",
    "server_event_created", "server_event_cleared",
    "movement_started", "movement_completed", "action_started", "action_completed", "action_rejected",
    "wait_started", "wait_completed", "item_use_started", "item_use_completed", "item_use_venue_rejected",
    "conversation_requested", "conversation_accepted", "conversation_rejected", "conversation_message",
    "conversation_ended", "conversation_pending_join_cancelled", "conversation_join", "conversation_leave",
    "conversation_inactive_check", "conversation_interval_interrupted", "conversation_turn_started",
    "conversation_closing",
    "transfer_requested", "transfer_accepted", "transfer_rejected", "transfer_timeout", "transfer_cancelled",
    "transfer_escrow_lost",
    "map_info_requested", "world_agents_info_requested", "status_info_requested", "nearby_agents_info_requested",
    "active_conversations_info_requested", "server_events_info_requested", "perception_requested",
    "available_actions_requested",
)
# The whole numbers a command's params take where the world bounds them: (command, param) → (low, high).
PARAM_RANGES: Mapping[tuple[str, str], tuple[int, int]] = {
    ("wait", "duration"): (1, 6),  # in tens of in-world minutes
    ("action", "duration_minutes"): (1, 10080),
}


def entry_problems(entry: Rule | Reaction, where: str) -> list[str]:
    """Every command, event, notification type and bounded param a rule or reaction names but the world has not.

    `where` names the file and the entry (`behaviour.json: rules[night]`), as every other problem does.
    """
    if isinstance(entry, Rule):
        return _trigger(entry, where) + _actions(entry.then, where)
    out: list[str] = []
    if not _matches(entry.on, (*EVENTS, *NOTIFICATION_TYPES)):
        out.append(f"{where}.on: {entry.on!r} is no event, expected one of {', '.join(EVENTS)} or a"
                   f" notification type (docs/behaviour.md){_hint(entry.on, (*EVENTS, *NOTIFICATION_TYPES))}")
    return out + _actions(entry.then, where)


def _trigger(rule: Rule, where: str) -> list[str]:
    when = rule.when
    out = [f"{where}.when.types: {t!r} matches no notification type the world sends (docs/behaviour.md)"
           f"{_hint(t, NOTIFICATION_TYPES)}" for t in when.types if not _matches(t, NOTIFICATION_TYPES)]
    if when.type == "after_command" and when.command and when.command not in COMMANDS:
        out.append(_no_command(f"{where}.when.command", when.command))
    return out


def _actions(actions: Iterable[Any], where: str) -> list[str]:
    out: list[str] = []
    for index, action in enumerate(actions):
        at = f"{where}.then[{index}]"
        if action.type == "choose" and action.command:
            if action.command not in COMMANDS:
                out.append(_no_command(f"{at}.command", action.command))
            for name, value in (action.params or {}).items():
                bounds = PARAM_RANGES.get((action.command, name))
                if bounds is not None and not _within(value, bounds):
                    out.append(f"{at}.params.{name}: {value!r} is outside what the world allows for"
                               f" {action.command}, expected a whole number from {bounds[0]} to {bounds[1]}")
        elif action.type == "avoid":
            out += [_no_command(f"{at}.commands", c) for c in action.commands if c not in COMMANDS]
    return out


def _no_command(field: str, command: str) -> str:
    return f"{field}: {command!r} is no command of the world (docs/behaviour.md){_hint(command, sorted(COMMANDS))}"


def _within(value: Any, bounds: tuple[int, int]) -> bool:
    if isinstance(value, str) and value.startswith("{"):  # a slot filled at run time: checked when sent
        return True
    return isinstance(value, int) and not isinstance(value, bool) and bounds[0] <= value <= bounds[1]


def _matches(pattern: str, known: Iterable[str]) -> bool:
    """A name or a glob (`*_completed`) that matches at least one known word."""
    return any(fnmatch.fnmatchcase(word, pattern) for word in known)


def _hint(wrong: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(wrong, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
