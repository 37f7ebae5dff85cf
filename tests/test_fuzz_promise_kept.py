"""Property tests for the pack's `promise_kept` reaction (issue 32 item 11), each a class of bad outcome.

- However often the store reads a kept promise back (a resident process,
  a world clock that steps back, a frozen fixture clock), across restarts
  (the memory saved and read again), the reaction runs once per promise,
  for that promise's partner (two kept with one person in one notification:
  once, as every reaction runs once per person), never for one without a partner.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from karakuri_agent.decide.behaving import finish
from karakuri_agent.domain.records import Meeting

from testing.closeness_views import start_view

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NAMES = ["桜草メイ", "黒瀬コウ", "白石リン", ""]


@SETTINGS
@given(reads=st.lists(st.lists(st.tuples(st.integers(1, 6), st.sampled_from(NAMES)), max_size=4), min_size=1,
                      max_size=6),
       minutes=st.integers(0, 120))
def test_each_kept_promise_is_reacted_to_once_for_its_partner(reads, minutes):
    v = start_view("notif-kept", {})
    memory: dict = {"variables": {}}
    partner_of: dict[int, str] = {}
    reacted: list[str] = []
    counted: set[int] = set()
    expected: list[str] = []
    for step, read in enumerate(reads):
        kept = []
        for promise_id, name in read:
            name = partner_of.setdefault(promise_id, name)  # one promise, one partner
            kept.append(Meeting(id=promise_id, partner_id=None, partner_name=name, status="fulfilled"))
        new = {p.id: p.partner_name for p in kept if p.id not in counted}
        counted |= set(new)
        expected += sorted({name for name in new.values() if name})
        now = replace(v, behaviour_memory=memory, now=v.now + timedelta(minutes=minutes * step))
        saved, trace = finish(now, None, None, None, None, kept=kept)
        before = {k: val for k, val in (memory.get("variables") or {}).items()}
        memory = saved or memory
        grew = [path.split(".", 1)[1] for path, value in (memory.get("variables") or {}).items()
                if path.startswith("closeness.") and value != before.get(path, 0)]
        reacted += [c["path"].split(".", 1)[1] for c in (trace or {}).get("changes", [])
                    if c.get("by") == "promise-kept-closer"]
        assert set(grew) <= set(partner_of.values())
    assert sorted(reacted) == sorted(expected)
