"""Fuzz: the `weather` reading and a condition on an unknown fact, over any text and any value (issue 32, item 7)."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from karakuri_agent.behaviour.engine import compare
from karakuri_agent.reading.textparse import parse_weather

OPERATORS = st.sampled_from(["eq", "neq", "contains", "gt", "lt", "gte", "lte", "like"])
VALUES = st.one_of(st.none(), st.integers(), st.text(max_size=8), st.booleans())


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300), st.text(alphabet="はれくもり雨雪 0123456789℃-:：\n", max_size=40))
def test_the_weather_is_read_or_none_never_an_error_and_never_spans_lines(noise, line):
    sky = parse_weather(f"{noise}\n天気: {line}")
    assert sky is None or (sky and "\n" not in sky and "℃" not in sky)


@settings(max_examples=300, deadline=None)
@given(OPERATORS, VALUES)
def test_no_condition_on_an_unknown_fact_ever_holds(operator, value):
    assert compare(None, operator, value) is False


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["はれ", "くもり", "雨", "雪"]), st.integers(-30, 45))
def test_the_sky_of_any_server_weather_line_is_read(sky, degrees):
    assert parse_weather(f"現在時刻: 2026-04-18 15:02 (Asia/Tokyo)\n天気: {sky} {degrees}℃\n現在地: 6-11") == sky
