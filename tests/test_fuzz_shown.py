"""Fuzz: any string as a name, a line or a server's message is shown as data (issue 28, 6).

Every output line has no control character and there are exactly as many lines as entries; what the voice
says of a name and what the report names carry none either.
"""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from karakuri_agent.app.history import format_entries
from karakuri_agent.report.line import ReportFacts, action_report, webhook_payload
from karakuri_agent.terminal import is_control, shown
from karakuri_agent.voice.names import address_name, place_label_of

# Any text, with the troublemakers made likely: line breaks, ESC sequences, BEL, C1, DEL, bidi, separators.
NASTY = st.sampled_from(["\n", "\r", "\x1b[2J", "\x1b]0;t\x07", "\x07", "\x9b31m", "\x85", "\x7f", "\u2028",
                         "\u2029", "\u202e", "\u2066", "\ufeff", "\x00", "\t", "\ud800", "\U000e0001"])
TEXT = st.lists(st.one_of(st.text(max_size=8), NASTY), max_size=8).map("".join)
STAMP = "2026-11-29T12:00:00+00:00"


def inert(line: str) -> bool:
    return not any(is_control(c) for c in line)


@settings(max_examples=300, deadline=None)
@given(text=TEXT)
def test_shown_is_one_inert_line_and_keeps_json_the_same_json(text):
    line = shown(text)
    assert inert(line) and "\n" not in line
    encoded = json.dumps(text, ensure_ascii=False)
    assert json.loads(shown(encoded)) == text  # what --json prints through it is still the same value


@settings(max_examples=200, deadline=None)
@given(nid=TEXT, message=TEXT, reason=TEXT, command=TEXT, kind=st.sampled_from(["request", "command", "report",
                                                                                 "dry_run", "claimed"]),
       count=st.integers(1, 4))
def test_log_lines_are_one_per_entry_and_inert_whatever_the_entries_hold(nid, message, reason, command, kind, count):
    entry = {"created_at": STAMP, "notification_id": nid, "kind": kind, "notification_type": message,
             "command": command, "params": {"message": message}, "message": message, "reason": reason,
             "success": False}
    printed = "\n".join(shown(line) for line in format_entries([dict(entry) for _ in range(count)]))
    lines = printed.split("\n")
    assert len(lines) == count and all(inert(line) for line in lines)


@settings(max_examples=200, deadline=None)
@given(name=TEXT, place=TEXT)
def test_what_is_said_of_a_name_or_a_place_holds_no_control_and_no_escape_leftover(name, place):
    for text, said in ((name, address_name(name)), (place, place_label_of(place))):
        assert inert(said)
        if "[2J" not in text.replace("\x1b[2J", "") and "]0;t" not in text.replace("\x1b]0;t", ""):
            assert "[2J" not in said and "]0;t" not in said  # an escape sequence is dropped whole


@settings(max_examples=200, deadline=None)
@given(partner=TEXT, place=TEXT, item=TEXT)
def test_the_report_line_names_no_control_character(partner, place, item):
    line = action_report("conversation_requested", "conversation_accept", {},
                         facts=ReportFacts(partner=partner, place=place, item=item))
    assert inert(line) and "\n" not in line and inert(webhook_payload(line)["content"])
