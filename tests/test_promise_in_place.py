"""A promise kept in place: the agent already at the promised place through its time kept it (issue 28, also)."""

from __future__ import annotations

import copy
from datetime import datetime, timedelta, timezone

import respx
from click.testing import CliRunner
from hypothesis import given, strategies as st

from testing.samples import BASE_URL, IDLE_REMINDER
from karakuri_agent.app.cli import agent
from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import handle
from karakuri_agent.app.day.model import build
from karakuri_agent.domain.records import Meeting
from karakuri_agent.memory.promises import KEEPABLE_AFTER_DUE, PRESENT_BEFORE_DUE, kept_by_being_there
from karakuri_agent.state.factory import open_state
from karakuri_agent.state.values import utc_text
from testing.day_records import day_entry, day_records, day_time

DUE = datetime(2026, 11, 29, 3, 0, tzinfo=timezone.utc)  # 12:00 in Tokyo
PROMISE = {"partner_id": "1474403124906295517", "partner_name": "桜草メイ", "place_name": "図書館",
           "node_id": "8-3", "due_at": utc_text(DUE), "source_text": "12時に図書館で会おうね"}
MEETING = Meeting(**{**PROMISE, "due_at": DUE})  # the same promise as the store reads it back


def idle_at(nid: str, at: datetime, here: str = "8-3 (図書館 閲覧室)") -> dict:
    value = copy.deepcopy(IDLE_REMINDER)
    value["notification"]["text"] = value["notification"]["text"].replace("6-11 (喫茶店 店内)", here)
    value.update(notification_id=nid, created_at=at.isoformat(), expires_at=(at + timedelta(minutes=10)).isoformat())
    return value


def test_standing_at_the_place_through_the_time_keeps_the_promise_and_day_says_kept(env):
    settings = load_settings()
    with open_state(settings, lambda: DUE - timedelta(hours=1)) as state:
        state.store.add_commitment("notif-made", PROMISE)
    with respx.mock(assert_all_called=False) as mock:
        for nid, minutes in (("notif-early", -40), ("notif-due", 2)):  # there early, still there at the time
            at = DUE + timedelta(minutes=minutes)
            mock.get(f"{BASE_URL}/agents/notifications/{nid}").respond(200, json=idle_at(nid, at))
            mock.post(f"{BASE_URL}/agents/commands").respond(200, json={"ok": True})
            handle(f"notification_id: {nid}", settings, dry_run=True, clock=lambda at=at: at, post=False)
    with open_state(settings, lambda: DUE) as state:
        [row] = state.store.commitments_between(DUE - timedelta(days=1), DUE + timedelta(days=1))
    assert row.status == "fulfilled"
    day = CliRunner().invoke(agent, ["day", "--date", "2026-11-29", "--json"])
    assert day.exit_code == 0 and '"status": "kept"' in day.stdout and '"missed"' not in day.stdout


def test_the_day_of_an_older_state_counts_being_there_as_keeping_it():
    promise = Meeting(id=1, notification_id="n", partner_id="1", partner_name="メイ", place_name=None,
                      node_id="8-3", due_at=day_time(60), source_text="約束", status="pending", created_at=day_time(0),
                      fulfilled_at=None)
    there = build(day_records(journal=[day_entry(30, "here", {"node_id": "8-3"}), day_entry(65, "here", {"node_id": "8-3"})],
                           promises=[promise], now_minutes=600))
    elsewhere = build(day_records(journal=[day_entry(65, "here", {"node_id": "6-11"})], promises=[promise], now_minutes=600))
    assert [p.status for p in there.promises] == ["kept"] and [p.status for p in elsewhere.promises] == ["missed"]


@given(offset=st.timedeltas(min_value=timedelta(hours=-6), max_value=timedelta(hours=6)),
       node=st.sampled_from(["8-3", "6-11"]))
def test_being_there_keeps_it_exactly_within_the_window_and_at_the_place(offset, node):
    kept = kept_by_being_there(MEETING, node, None, DUE + offset)
    assert kept == (node == "8-3" and -PRESENT_BEFORE_DUE <= offset <= KEEPABLE_AFTER_DUE)
