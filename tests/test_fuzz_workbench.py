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
            assert [row.get("behaviour") for row in rows] == [trace]
            assert state.store.recent_activity(1)[0].get("behaviour") == trace
        sqlite.close()
