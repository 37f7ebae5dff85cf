"""A far-off HTTP `Date` does not override a sane `created_at` (issue 28, 8; CONTRACT §9's order)."""

from __future__ import annotations

import copy
import email.utils
from datetime import datetime, timedelta, timezone

import pytest
import respx
from hypothesis import given, strategies as st

from testing.samples import BODY, CONVERSATION_REQUEST, GET_URL, POST_URL
from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import handle
from karakuri_agent.domain.clock import READ_LATE, server_now
from karakuri_agent.report import line as report

NOW = datetime.now(timezone.utc).replace(microsecond=0)


def run(created: datetime, date: datetime, machine: datetime = NOW):
    value = copy.deepcopy(CONVERSATION_REQUEST)
    value.update(created_at=created.isoformat(), expires_at=(created + timedelta(minutes=10)).isoformat())
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=value, headers={"Date": email.utils.format_datetime(date, usegmt=True)})
        post = mock.post(POST_URL).respond(200, json={"ok": True, "message": "会話を開始しました"})
        result = handle(BODY, load_settings(), clock=lambda: machine, post=False)
    return result, post.call_count


@pytest.mark.parametrize("date", [datetime(2100, 1, 1, tzinfo=timezone.utc), datetime(1990, 1, 1, tzinfo=timezone.utc),
                                  NOW + timedelta(days=3)], ids=["2100", "1990", "three days ahead"])
def test_a_live_notification_with_a_wild_date_is_handled_normally(env, date):
    result, posts = run(NOW, date)
    assert posts == 1 and result.sent and result.report != report.EXPIRED


@pytest.mark.parametrize("away", [timedelta(days=200), timedelta(days=-200)], ids=["ahead", "behind"])
def test_a_world_whose_clock_runs_months_away_keeps_its_own_time_whatever_the_date_says(env, state_dir, away):
    import sqlite3

    world = NOW + away  # the notification is stamped by the world; the HTTP server stamps the machine's time
    result, posts = run(world, NOW)
    assert posts == 1 and result.sent and result.report != report.EXPIRED
    stamps = [row[0] for row in sqlite3.connect(state_dir / "karakuri.db").execute("SELECT created_at FROM activity")]
    assert stamps and all(stamp.startswith(world.date().isoformat()) for stamp in stamps)  # the world's day


def test_a_notification_read_late_is_still_judged_by_the_date(env):
    created = NOW - timedelta(minutes=20)
    result, posts = run(created, NOW, machine=NOW + timedelta(hours=3))  # a machine off by hours changes nothing
    assert posts == 0 and result.report == report.EXPIRED


def test_a_wildly_late_date_the_machine_agrees_with_is_believed(env):
    created = NOW - timedelta(hours=5)  # delivered five hours late: both the server's Date and the machine say now
    result, posts = run(created, NOW, machine=NOW)
    assert posts == 0 and result.report == report.EXPIRED


MOMENT = st.datetimes(min_value=datetime(1975, 1, 1), max_value=datetime(8000, 1, 1), timezones=st.just(timezone.utc))
OFFSET = st.one_of(st.timedeltas(min_value=timedelta(hours=-30), max_value=timedelta(hours=30)),
                   st.timedeltas(min_value=timedelta(days=-3000), max_value=timedelta(days=3000)))


@given(created=MOMENT, date_offset=OFFSET)
def test_the_server_now_is_created_at_unless_the_date_is_that_notification_read_late(created, date_offset):
    date = created + date_offset
    now = server_now(created, date)
    assert now == (date if timedelta(0) <= date_offset <= READ_LATE else created)


@given(date=MOMENT)
def test_a_notification_made_now_expires_by_a_date_only_within_a_day_of_its_life(date):
    created, expires = NOW, NOW + timedelta(minutes=10)
    expired = server_now(created, date, expires) >= expires
    assert expired == (expires <= date <= expires + READ_LATE)
