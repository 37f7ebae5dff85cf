"""The text parser against the project's own server-format texts, which run everywhere.

`tests/data/server-texts.json` holds texts written for this project in the
server's format (arrival, talk request, conversation turn, transfers, a
closing announcement), each with what a reader finds in it, written by hand,
and why the case is there. They keep the parser tested when the larger set
of recorded real texts is not beside the checkout (that set's cases then
skip, and the run's summary says so).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from testing.store_rows import as_lines, as_refs, as_transfers

from karakuri_agent.reading import textparse as tp

DATA = json.loads((Path(__file__).parent / "data" / "server-texts.json").read_text(encoding="utf-8"))
ME: dict[str, str] = DATA["self"]
ROSTER: dict[str, str] = DATA["roster"]  # the people the agent has met, by name
CASES = [pytest.param(case, id=case["id"]) for case in DATA["cases"]]


def test_the_own_texts_cover_every_parser():
    """So a parser cannot go untested by a set where it never finds anything."""
    expected = [case["expected"] for case in DATA["cases"]]
    for field in ("participants", "lines", "next_speakers", "choices", "transfers", "places"):
        assert any(e.get(field) for e in expected), field


@pytest.mark.parametrize("case", CASES)
def test_people_and_lines_are_read_as_a_reader_reads_them(case: dict[str, Any]):
    text, expected = case["text"], case["expected"]
    assert tp.parse_participants(text, ROSTER) == as_refs(expected["participants"]), case["why"]
    assert tp.parse_lines(text, ROSTER) == as_lines(expected["lines"]), case["why"]
    assert tp.parse_next_speakers(text, ROSTER) == as_refs(expected["next_speakers"]), case["why"]


@pytest.mark.parametrize("case", CASES)
def test_choices_and_transfers_are_read_as_a_reader_reads_them(case: dict[str, Any]):
    text, expected = case["text"], case["expected"]
    assert tp.parse_choice_commands(text) == expected["choices"], case["why"]
    assert tp.parse_transfers(text, ME["id"], ME["name"], ROSTER) == as_transfers(expected["transfers"]), case["why"]


@pytest.mark.parametrize("case", [c for c in CASES if "places" in c.values[0]["expected"]])
def test_places_position_clock_and_headcount_are_read(case: dict[str, Any]):
    text, expected = case["text"], case["expected"]
    assert tp.parse_places(text) == expected["places"], case["why"]
    assert tp.parse_current_node(text) == expected["current_node"]
    assert tp.parse_clock(text).isoformat() == expected["clock"]
    assert tp.parse_nearby_agent_count(text) == expected["nearby"]
