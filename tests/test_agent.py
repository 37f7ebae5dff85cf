"""An Agent is opened once and handles many messages; the CLI can set its clock."""

from __future__ import annotations

import copy
import json

import respx
from click.testing import CliRunner

from karakuri_agent.report import line as report
from karakuri_agent.app.cli import agent
from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import Agent
from karakuri_agent.state.memory import MemoryState

from testing.samples import BASE_URL

POST_URL = f"{BASE_URL}/agents/command"


def body(notification_id: str) -> str:
    return f"🔔 桜草メイ が話しかけています。\nnotification_id: {notification_id}"


class Collects:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def post(self, line: str) -> None:
        self.lines.append(line)


def test_one_agent_handles_many_messages_and_never_one_twice(env, notification, state_dir):
    second = copy.deepcopy(notification)
    second["notification_id"] = "notif-second"
    reporter = Collects()
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{BASE_URL}/agents/notifications/notif-01JDX9M7QZ").respond(200, json=notification)
        mock.get(f"{BASE_URL}/agents/notifications/notif-second").respond(200, json=second)
        mock.get(f"{BASE_URL}/agents/notifications/notif-third").respond(200, json={**second,
                                                                                   "notification_id": "notif-third"})
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        with Agent.open(load_settings(), state=MemoryState(), reporter=reporter) as opened:
            first = opened.handle(body("notif-01JDX9M7QZ"))
            other = opened.handle(body("notif-second"))
            again = opened.handle(body("notif-01JDX9M7QZ"))
            planned = opened.handle(body("notif-third"), dry_run=True)
        assert post.call_count == 2
    assert first.sent and other.sent and not again.sent and again.report == report.ALREADY_HANDLED
    assert [json.loads(c.request.content)["notification_id"] for c in post.calls] == ["notif-01JDX9M7QZ",
                                                                                       "notif-second"]
    assert reporter.lines == [first.report, other.report, again.report]  # a dry run posts nothing
    assert not planned.sent and planned.report.startswith(report.PREFIX)
    assert not state_dir.exists()  # the in-memory state touched no disk


def test_a_persona_pack_that_does_not_exist_is_a_configuration_error(env, monkeypatch, tmp_path):
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(tmp_path / "nowhere"))
    with respx.mock(assert_all_called=False) as mock:
        result = CliRunner().invoke(agent, ["handle", body("notif-01JDX9M7QZ")])
        assert mock.calls.call_count == 0
    assert result.exit_code == 2 and "KARAKURI_PERSONA_DIR" in result.stderr and "nowhere" in result.stderr


def test_the_old_persona_file_variable_is_refused_with_the_new_name(env, monkeypatch, tmp_path):
    monkeypatch.setenv("KARAKURI_PERSONA_FILE", str(tmp_path / "persona.json"))
    with respx.mock(assert_all_called=False) as mock:
        result = CliRunner().invoke(agent, ["handle", body("notif-01JDX9M7QZ")])
        assert mock.calls.call_count == 0
    assert result.exit_code == 2 and "KARAKURI_PERSONA_DIR" in result.stderr


def test_the_clock_can_be_set_from_the_command_line(env, notification):
    """--clock-start sets the machine's clock; the server's (`created_at`, `Date`) still has the last word."""
    no_time = {k: v for k, v in notification.items() if k != "created_at"}
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{BASE_URL}/agents/notifications/notif-01JDX9M7QZ").respond(200, json=no_time)
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        late = CliRunner().invoke(agent, ["handle", body("notif-01JDX9M7QZ"), "--json",
                                          "--clock-start", "2099-11-29T12:20:00Z"])  # after expires_at
        assert post.call_count == 0
    assert late.exit_code == 0 and json.loads(late.stdout)["report"] == report.EXPIRED


def test_a_machine_clock_past_expiry_does_not_expire_what_the_server_says_is_live(env, notification):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{BASE_URL}/agents/notifications/notif-01JDX9M7QZ").respond(
            200, json=notification, headers={"Date": "Sun, 29 Nov 2099 12:01:00 GMT"})
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        run = CliRunner().invoke(agent, ["handle", body("notif-01JDX9M7QZ"), "--json",
                                         "--clock-start", "2099-11-29T13:20:00Z"])  # an hour past expires_at
        assert post.call_count == 1
    assert run.exit_code == 0 and json.loads(run.stdout)["sent"] is True


def test_the_servers_date_expires_what_a_machine_clock_behind_would_keep_live(env, notification):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{BASE_URL}/agents/notifications/notif-01JDX9M7QZ").respond(
            200, json=notification, headers={"Date": "Sun, 29 Nov 2099 12:15:00 GMT"})  # 5 min past expires_at
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        run = CliRunner().invoke(agent, ["handle", body("notif-01JDX9M7QZ"), "--json",
                                         "--clock-start", "2099-11-29T07:15:00Z"])  # five hours behind
        assert post.call_count == 0
    assert run.exit_code == 0 and json.loads(run.stdout)["report"] == report.EXPIRED


def test_a_clock_that_is_not_a_time_is_refused(env):
    result = CliRunner().invoke(agent, ["handle", body("notif-01JDX9M7QZ"), "--clock-start", "yesterday"])
    assert result.exit_code == 2 and "--clock-start" in result.stderr
