"""Property tests for what the character author reads back (issue 32), each a class of bad outcome.

- Whatever rule trace a run recorded, every store hands it back whole to the
  day's reader (`activity_between`), as `log` reads it (`recent_activity`):
  no store drops a column `day` builds from.
"""

from __future__ import annotations

import tempfile
from datetime import datetime, timedelta, timezone
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from karakuri_agent.state.factory import open_url
from karakuri_agent.state.memory import MemoryState

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NOW = datetime(2026, 11, 29, 1, 0, tzinfo=timezone.utc)
NAMES = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)
TRACES = st.fixed_dictionaries({
    "rule": st.one_of(st.none(), NAMES),
    "gave_way": st.lists(st.fixed_dictionaries({"rule": NAMES, "why": NAMES}), max_size=2),
    "changes": st.lists(st.fixed_dictionaries({
        "path": NAMES, "before": st.integers(-10**6, 10**6), "after": st.one_of(st.integers(-10**6, 10**6),
                                                                                  st.booleans()),
        "status": st.sampled_from(["applied", "clamped", "ignored"])}), max_size=3)})


@SETTINGS
@given(trace=TRACES)
def test_every_store_hands_the_recorded_rule_trace_to_the_day(trace):
    with tempfile.TemporaryDirectory() as folder:
        sqlite = open_url("", Path(folder) / "state", lambda: NOW)
        for state in (MemoryState(lambda: NOW), sqlite):
            state.store.record_report("n1", "idle_reminder", "ok", dry_run=False, command="wait",
                                      params=None, reason="", failed=False, behaviour=trace)
            rows = state.store.activity_between(NOW - timedelta(hours=1), NOW + timedelta(hours=1))
            assert [row.behaviour for row in rows] == [trace]
            assert state.store.recent_activity(1)[0].behaviour == trace
        sqlite.close()


JSONISH = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), NAMES),
                       lambda inner: st.one_of(st.lists(inner, max_size=3),
                                               st.dictionaries(NAMES, inner, max_size=3)), max_leaves=8)
MEMORY = st.dictionaries(st.sampled_from(["clock", "rules", "switches", "variables", "previous_variables",
                                          "directives", "context"]), JSONISH, max_size=7)


@SETTINGS
@given(memory=MEMORY)
def test_any_saved_behaviour_memory_is_shown_and_reset_without_an_error(memory):
    """An older or hand-edited state's shapes read as empty: `state show` and `reset-behaviour` never crash."""
    from karakuri_agent.app.behaviour_state import reset, shown, text_lines
    from karakuri_agent.voice.persona_pack import load_persona

    behaviour = load_persona(Path(__file__).resolve().parents[1] / "docs" / "examples" / "behaviour-pack").behaviour
    view = shown(behaviour, memory, NOW)
    assert len(text_lines(view)) >= 3 and {r["id"] for r in view["rules"]} == {r.id for r in behaviour.rules}
    for kwargs in ({}, {"rule": "first-map"}, {"variable": "affection"}, {"variable": "affection.メイ"}):
        after, done = reset(behaviour, memory, **kwargs)
        assert done and shown(behaviour, after, NOW)["rules"]
    everything, _ = reset(behaviour, memory)
    assert [v["value"] for v in shown(behaviour, everything, NOW)["variables"]] == [0, False]


WORDS = st.from_regex(r"[a-z][a-z_*]{0,20}", fullmatch=True)


@SETTINGS
@given(command=WORDS, pattern=WORDS, duration=st.integers(-10**6, 10**6))
def test_persona_check_passes_exactly_what_the_world_knows(command, pattern, duration):
    """A command, a notification-type glob, an event and a wait's duration pass only when the world has them."""
    import fnmatch

    from karakuri_agent.behaviour.builtin import BUILTIN_RULE_IDS
    from karakuri_agent.behaviour.pack import parse_behaviour
    from karakuri_agent.behaviour.spec import EVENTS
    from karakuri_agent.behaviour.vocabulary import NOTIFICATION_TYPES
    from karakuri_agent.domain.commands import KNOWN

    pack = {"rules": [{"id": "r", "when": {"type": "notification", "types": [pattern]},
                       "then": [{"type": "choose", "command": command}]},
                      {"id": "w", "when": {"type": "day_start"},
                       "then": [{"type": "choose", "command": "wait", "params": {"duration": duration}}]}],
            "reactions": [{"id": "x", "on": pattern, "then": []}]}
    problems = parse_behaviour(pack, builtin_ids=BUILTIN_RULE_IDS)[1]
    types_ok = any(fnmatch.fnmatchcase(t, pattern) for t in NOTIFICATION_TYPES)
    on_ok = types_ok or any(fnmatch.fnmatchcase(e, pattern) for e in EVENTS)
    assert any(".when.types:" in p for p in problems) == (not types_ok)
    assert any(".on:" in p for p in problems) == (not on_ok)
    assert any(".command:" in p for p in problems) == (command not in KNOWN)
    assert any(".params.duration:" in p for p in problems) == (not 1 <= duration <= 6)
    assert all(p.count("\n") == 0 and p.startswith("behaviour.json: ") for p in problems)
