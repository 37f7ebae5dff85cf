"""Fuzz: moving a recorded text in time changes its clock line only, and moving back restores it (issue 32, item 3)."""

from __future__ import annotations

from datetime import datetime, timedelta

from hypothesis import given, settings, strategies as st

from karakuri_agent.app.fixture_shift import shift_text

MOMENTS = st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2090, 12, 31))
OFFSETS = st.timedeltas(min_value=timedelta(days=-3000), max_value=timedelta(days=3000))
MINUTES = st.integers(-3000 * 1440, 3000 * 1440).map(lambda m: timedelta(minutes=m))  # the line shows minutes


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200), OFFSETS)
def test_any_text_moves_without_error_and_keeps_its_lines(text, offset):
    moved = shift_text(text, offset)
    assert moved.count("\n") == text.count("\n")


@settings(max_examples=300, deadline=None)
@given(MOMENTS, MINUTES, st.text(alphabet="あい 「」:\n", max_size=30))
def test_the_clock_line_moves_and_comes_back(moment, offset, around):
    line = f"現在時刻: {moment:%Y-%m-%d %H:%M} (Asia/Tokyo)"
    text = f"{around}\n{line}\n{around}"
    moved = shift_text(text, offset)
    assert f"現在時刻: {moment.replace(second=0, microsecond=0) + offset:%Y-%m-%d %H:%M}" in moved
    assert shift_text(moved, -offset) == text
