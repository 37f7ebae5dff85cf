"""A pack's behaviour on a hand-built view: the clock at noon or night in Tokyo, a pack's rules begun on a view."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

from karakuri_agent.behaviour.build import build_behaviour
from karakuri_agent.behaviour.builtin import BUILTIN_RULE_IDS
from karakuri_agent.behaviour.engine import Facts, Turn
from karakuri_agent.behaviour.pack import parse_behaviour

TOKYO_NIGHT = datetime(2026, 4, 18, 14, 30, tzinfo=timezone.utc)  # 23:30 in Tokyo
TOKYO_NOON = datetime(2026, 4, 18, 3, 0, tzinfo=timezone.utc)  # 12:00 in Tokyo


def with_pack(v, data, now=TOKYO_NIGHT, memory=None):
    behaviour, problems = parse_behaviour(data, builtin_ids=BUILTIN_RULE_IDS)
    assert problems == []
    return replace(v, persona=replace(v.persona, behaviour=behaviour), now=now, behaviour_memory=memory or {})


def facts(now=TOKYO_NIGHT, **extra):
    return Facts(notification=extra.pop("notification", "idle_reminder_fired"), now=now.astimezone(
        timezone(timedelta(hours=9))), **extra)


def pack_turn(rules, memory=None, **fact):
    return Turn.begin(build_behaviour({"rules": rules, "variables": {"energy": {"min": 0, "max": 100,
                                                                               "initial": 50}}}), facts(**fact),
                      memory or {})
