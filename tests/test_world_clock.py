"""The world's clock is the server's (CONTRACT §9): a machine clock off by hours changes no decision.

The server here says it is SERVER (`created_at`) and answers with a `Date`
a minute later (live) or five minutes past `expires_at` (expired). The
machine's clock is set an hour ahead of it and five hours behind, through
every front end: `handle`, the `karakuri` wrapper and `listen --stdin`'s
loop. The town (tests/test_town_behaviour.py) does the same over whole lives.
"""

from __future__ import annotations

import copy
import email.utils
import io
import json
from datetime import datetime, timedelta, timezone

import pytest
import respx

from karakuri_agent.report import line as report
from karakuri_agent.domain.clock import WorldClock
from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import Agent, handle
from karakuri_agent.errors import NotActionable
from karakuri_agent.app.listen import stdin
from karakuri_agent.app.listen.listener import Listener
from karakuri_agent.app.wrapper import run_command

from testing.samples import BASE_URL, BODY, CONVERSATION_REQUEST, GET_URL, IDLE_REMINDER, NID, POST_URL

SERVER = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
SKEWS = {"on time": timedelta(0), "an hour ahead": timedelta(hours=1), "five hours behind": timedelta(hours=-5)}
LIVE, EXPIRED = SERVER + timedelta(minutes=1), SERVER + timedelta(minutes=15)


def served(at: datetime, *, nid: str = NID, template: dict = CONVERSATION_REQUEST) -> dict:
    value = copy.deepcopy(template)
    value.update(notification_id=nid, created_at=SERVER.isoformat(), expires_at=(SERVER + timedelta(minutes=10)).isoformat())
    return value


def date_header(at: datetime) -> dict[str, str]:
    return {"Date": email.utils.format_datetime(at, usegmt=True)}


def machine(skew: timedelta):
    return lambda: datetime.now(timezone.utc).replace(year=2026, month=11, day=29, hour=12, minute=1) + skew


# -- the clock itself ------------------------------------------------------------------------
def test_before_the_server_speaks_the_world_clock_is_the_machines():
    assert WorldClock(lambda: SERVER)() == SERVER


def test_the_later_server_reading_sets_now_and_monotonic_time_advances_it():
    ticks = iter([100.0, 160.0])
    clock = WorldClock(lambda: SERVER - timedelta(hours=5), monotonic=lambda: next(ticks))
    clock.read_server(SERVER, SERVER + timedelta(minutes=3))
    assert clock() == SERVER + timedelta(minutes=4)  # the Date (the later), a minute on


@pytest.mark.parametrize("reading", [datetime(9999, 12, 31, tzinfo=timezone.utc), datetime(1, 1, 2, tzinfo=timezone.utc),
                                     datetime(2026, 1, 1)])  # out of range, or naive: not a clock
def test_an_implausible_server_time_is_not_believed(reading):
    clock = WorldClock(lambda: SERVER)
    clock.read_server(reading)
    assert not clock.from_server and clock() == SERVER


# -- handle ------------------------------------------------------------------------------------
def _handle(skew: timedelta, date: datetime) -> tuple[object, int]:
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=served(date), headers=date_header(date))
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        result = handle(BODY, load_settings(), clock=machine(skew), post=False)
        return result, post.call_count


@pytest.mark.parametrize("skew", SKEWS.values(), ids=SKEWS.keys())
def test_handle_acts_on_a_live_notification_whatever_the_machine_clock_says(env, skew):
    result, posts = _handle(skew, LIVE)
    assert posts == 1 and result.sent and result.decision.command == "conversation_accept"


@pytest.mark.parametrize("skew", SKEWS.values(), ids=SKEWS.keys())
def test_handle_sends_nothing_for_an_expired_notification_whatever_the_machine_clock_says(env, skew):
    result, posts = _handle(skew, EXPIRED)
    assert posts == 0 and result.report == report.EXPIRED
    assert f"clock said {EXPIRED.isoformat()}" in result.error["message"]  # judged on the server's clock, and it says so


def test_the_same_decision_an_hour_ahead_and_five_hours_behind(env, tmp_path, monkeypatch):
    records = []
    for i, skew in enumerate(SKEWS.values()):
        monkeypatch.setenv("KARAKURI_STATE_DIR", str(tmp_path / f"state{i}"))
        result, _ = _handle(skew, LIVE)
        records.append(json.dumps(result.record()["decision"], ensure_ascii=False))
    assert len(set(records)) == 1


# -- a cooldown whose last command is stamped in the future --------------------------------
def _idle(nid: str, created: datetime) -> dict:
    value = copy.deepcopy(IDLE_REMINDER)
    value.update(notification_id=nid, created_at=created.isoformat(), expires_at=(created + timedelta(minutes=10)).isoformat())
    return value


@pytest.mark.parametrize("ahead, skipped", [(timedelta(days=30), False),  # the clock stepped back a month
                                            (timedelta(minutes=2), True)])  # within the window: just now
def test_a_last_command_stamped_in_the_future_counts_as_just_now_and_blocks_no_longer(env, monkeypatch, ahead, skipped):
    monkeypatch.setenv("KARAKURI_COOLDOWN_SECONDS", "600")
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{BASE_URL}/agents/notifications/notif-first").respond(200, json=_idle("notif-first", SERVER + ahead))
        mock.get(f"{BASE_URL}/agents/notifications/notif-then").respond(200, json=_idle("notif-then", SERVER))
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        assert handle("notification_id: notif-first", load_settings(), post=False).sent
        then = handle("notification_id: notif-then", load_settings(), post=False)
    assert (then.report == report.idle_report("idle_reminder_fired", why=report.COOLING_DOWN)) is skipped
    assert post.call_count == (1 if skipped else 2)


# -- the karakuri wrapper ------------------------------------------------------------------
@pytest.mark.parametrize("skew", SKEWS.values(), ids=SKEWS.keys())
def test_the_wrapper_judges_expiry_on_the_servers_clock(env, skew):
    for date, nid in ((LIVE, NID), (EXPIRED, "notif-late")):
        with respx.mock(assert_all_called=False) as mock:
            mock.get(f"{BASE_URL}/agents/notifications/{nid}").respond(200, json=served(date, nid=nid),
                                                                       headers=date_header(date))
            post = mock.post(POST_URL).respond(200, json={"ok": True})
            if date is LIVE:
                assert run_command(load_settings(), nid, "conversation_reject", {}, clock=machine(skew)).result == {"ok": True}
            else:
                with pytest.raises(NotActionable):
                    run_command(load_settings(), nid, "conversation_reject", {}, clock=machine(skew))
            assert post.call_count == (1 if date is LIVE else 0)


# -- listen --stdin ------------------------------------------------------------------------------
@pytest.mark.parametrize("skew", SKEWS.values(), ids=SKEWS.keys())
def test_the_resident_loop_reports_the_same_whatever_the_machine_clock_says(env, tmp_path, monkeypatch, skew):
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(tmp_path / "listen-state"))
    lines = "".join(json.dumps({"content": f"notification_id: {nid}", "id": str(i)}) + "\n"
                    for i, nid in enumerate(["notif-live", "notif-late"]))
    out = io.StringIO()
    with respx.mock(assert_all_called=False) as mock:
        for nid, date in (("notif-live", LIVE), ("notif-late", EXPIRED)):
            mock.get(f"{BASE_URL}/agents/notifications/{nid}").respond(200, json=served(date, nid=nid),
                                                                       headers=date_header(date))
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        with Agent.open(load_settings(), clock=machine(skew)) as agent:
            stdin.run(Listener(agent), io.StringIO(lines), out)
    printed = out.getvalue().splitlines()
    assert post.call_count == 1 and len(printed) == 2
    assert printed[0] != report.EXPIRED and printed[1] == report.EXPIRED
