"""Property tests for moving a recorded time (issue 32 items 3 and 11), each a class of bad outcome.

- A recorded time in either form the world sends (ISO 8601 text, epoch
  milliseconds) moves by exactly the offset and keeps its form; anything
  that is no time (a small number, a flag, garbled text) stays as it was.
- Every `*_at` of an answer, at any depth, moves; nothing else changes.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import example, given, settings
from hypothesis import strategies as st

from karakuri_agent.app.fixture_shift import _shift_times, _shifted

MOMENTS = st.datetimes(min_value=datetime(2002, 1, 1), max_value=datetime(2090, 12, 31),
                       timezones=st.just(timezone.utc)).map(lambda m: m.replace(microsecond=0))
OFFSETS = st.integers(-3000 * 86400, 3000 * 86400).map(lambda s: timedelta(seconds=s))


@settings(max_examples=300, deadline=None)
@given(MOMENTS, OFFSETS)
def test_a_time_moves_by_the_offset_in_the_form_it_was_recorded(moment, offset):
    ms = int(moment.timestamp() * 1000)
    assert _shifted(ms, offset) == ms + int(offset.total_seconds() * 1000)
    moved = _shifted(moment.isoformat().replace("+00:00", "Z"), offset)
    assert isinstance(moved, str) and datetime.fromisoformat(moved.replace("Z", "+00:00")) == moment + offset


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.booleans(), st.none(), st.integers(-10**6, 10**6), st.text(max_size=12).filter(
    lambda t: not t.strip()[:1].isdigit())), OFFSETS)
def test_what_is_no_time_stays_as_it_was(value, offset):
    assert _shifted(value, offset) == value


@settings(max_examples=200, deadline=None)
@example({"completes_at": 10**12}, timedelta(seconds=-1))  # a time near the old 2001 floor: moved below it, lost
@given(st.recursive(st.one_of(st.integers(10**12, 4 * 10**12), st.text(max_size=5), st.booleans()),
                    lambda inner: st.one_of(st.lists(inner, max_size=3),
                                            st.dictionaries(st.sampled_from(["completes_at", "arrives_at", "id",
                                                                             "message"]), inner, max_size=3)),
                    max_leaves=10), OFFSETS)
def test_every_at_key_moves_and_nothing_else_changes(answer, offset):
    moved = _shift_times(answer, offset)
    back = _shift_times(moved, -offset)
    assert back == answer

    def walk(a, b, key=None):
        if isinstance(a, dict):
            assert a.keys() == b.keys()
            for k in a:
                walk(a[k], b[k], k)
        elif isinstance(a, list):
            assert len(a) == len(b) and all(walk(x, y, key) is None for x, y in zip(a, b))
        elif not (key or "").endswith("_at") or isinstance(a, bool):
            assert a == b
    walk(answer, moved)
