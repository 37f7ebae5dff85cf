"""`karakuri-agent listen`: each message once, in order, through one opened Agent.

In-process tests of the Listener (filters, ids seen, expired while catching
up, the log line) and real `listen --stdin` processes against the loopback
API: order, one report per notification, duplicates, `kill -9` and a
restart, SIGTERM in the middle of a message.
"""

from __future__ import annotations

import io
import json
import logging
import signal
import subprocess
import sys

import pytest
import respx

from karakuri_agent.report import line as report
from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import Agent
from karakuri_agent.errors import ConfigError
from karakuri_agent.app.listen import stdin
from karakuri_agent.app.listen.listener import LAST_SEEN_KEY, Listener, Message
from karakuri_agent.app.listen.stdin import BadLine, parse_line
from karakuri_agent.state.memory import MemoryState

from testing.samples import API_KEY, BASE_URL
from testing.loopback import running_api
from testing.runs import AGENT, CHANNEL, WORLD, body, listen_line, notification


POST_URL = f"{BASE_URL}/agents/command"


class Collects:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def post(self, line: str) -> None:
        self.lines.append(line)


@pytest.fixture
def listen_env(env, monkeypatch):
    for name in ("KARAKURI_CHANNEL_IDS", "KARAKURI_WORLD_AUTHOR_IDS", "DISCORD_BOT_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    return env


# -- settings ----------------------------------------------------------------------------
def test_channel_and_author_ids_are_read_as_sets_and_a_channel_name_is_refused(listen_env, monkeypatch):
    monkeypatch.setenv("KARAKURI_CHANNEL_IDS", f" {CHANNEL}, 1 ,")
    monkeypatch.setenv("KARAKURI_WORLD_AUTHOR_IDS", WORLD)
    settings = load_settings()
    assert settings.channel_ids == {CHANNEL, "1"} and settings.world_author_ids == {WORLD}
    monkeypatch.setenv("KARAKURI_CHANNEL_IDS", "#general")
    with pytest.raises(ConfigError, match="KARAKURI_CHANNEL_IDS must be Discord ids"):
        load_settings()


def test_the_bot_token_is_a_secret_that_never_prints(listen_env, monkeypatch):
    monkeypatch.setenv("DISCORD_BOT_TOKEN", "bot-token-do-not-leak")
    settings = load_settings()
    assert settings.discord_bot_token.get() == "bot-token-do-not-leak"
    assert "bot-token-do-not-leak" not in repr(settings) and "bot-token-do-not-leak" in settings.secrets


# -- one stdin line ------------------------------------------------------------------------
def test_a_line_becomes_a_message_with_string_ids():
    line = json.dumps({"content": "x", "author_id": int(WORLD), "channel_id": CHANNEL, "id": "9"})
    assert parse_line(line) == Message("x", WORLD, CHANNEL, "9")
    assert parse_line('{"content": ""}') == Message("")


@pytest.mark.parametrize("line, problem", [
    ("not json", "not JSON"),
    ("[1, 2]", "a JSON object is expected, not an array"),
    ('{"id": "1"}', 'no "content" string'),
    ('{"content": 3}', 'no "content" string'),
    ('{"content": "x", "id": [1]}', '"id" must be a string or an integer'),
    ('{"content": "x", "author_id": true}', '"author_id" must be a string or an integer'),
])
def test_a_line_that_is_not_a_message_says_why(line, problem):
    with pytest.raises(BadLine, match=problem.replace("[", r"\[")):
        parse_line(line)


# -- the Listener in one process -----------------------------------------------------------
def run_listener(messages, *, catching_up=False, reporter=None):
    """Feed messages to one Listener over in-memory state; what each handle returned, and the state."""
    state = MemoryState()
    with Agent.open(load_settings(), state=state) as agent:
        listener = Listener(agent, reporter_for=lambda message: reporter)
        return [listener.handle(m, catching_up=catching_up) for m in messages], state


def test_only_watched_channels_and_world_authors_count(listen_env, monkeypatch):
    monkeypatch.setenv("KARAKURI_CHANNEL_IDS", CHANNEL)
    monkeypatch.setenv("KARAKURI_WORLD_AUTHOR_IDS", WORLD)
    with respx.mock(assert_all_called=False) as mock:
        get = mock.get(url__regex=rf"{BASE_URL}/agents/notifications/.*").respond(200, json=notification("notif-a"))
        mock.post(POST_URL).respond(200, json={"ok": True})
        results, _ = run_listener([
            Message(body("notif-a"), "123", CHANNEL, "1"),   # a person in the channel
            Message(body("notif-a"), WORLD, "999", "2"),     # the world, in another channel
            Message(body("notif-a"), WORLD, CHANNEL, "3"),   # the one that counts
        ])
    assert [r is not None for r in results] == [False, False, True]
    assert get.call_count == 1


def test_a_message_seen_again_is_skipped_and_another_message_with_its_id_sends_nothing(listen_env):
    reporter = Collects()
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{BASE_URL}/agents/notifications/notif-a").respond(200, json=notification("notif-a"))
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        first = Message(body("notif-a"), WORLD, CHANNEL, "1")
        results, state = run_listener([first, first, Message(body("notif-a"), WORLD, CHANNEL, "2")],
                                      reporter=reporter)
    assert post.call_count == 1
    assert results[1] is None and results[2].report == report.ALREADY_HANDLED
    assert reporter.lines == [results[0].report, report.ALREADY_HANDLED]
    assert state.store.knowledge(LAST_SEEN_KEY)["value"] == {CHANNEL: "2"}


def test_a_message_without_an_id_is_remembered_and_reports_nothing(listen_env):
    reporter = Collects()
    results, state = run_listener([Message("ログアウトが完了しました。", WORLD, CHANNEL, "41")], reporter=reporter)
    assert results == [None] and reporter.lines == []
    assert state.store.knowledge(LAST_SEEN_KEY)["value"] == {CHANNEL: "41"}


def test_a_malformed_id_is_one_warning_and_the_loop_goes_on(listen_env, caplog):
    caplog.set_level(logging.INFO, logger="karakuri_agent.app.listen")
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{BASE_URL}/agents/notifications/notif-a").respond(200, json=notification("notif-a"))
        mock.post(POST_URL).respond(200, json={"ok": True})
        results, _ = run_listener([Message("notification_id: notif-x?y=1", WORLD, CHANNEL, "1"),
                                   Message(body("notif-a"), WORLD, CHANNEL, "2")])
    assert results[0] is None and results[1].sent
    warning = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warning) == 1 and warning[0].getMessage().startswith("message 1 skipped: ")


def test_an_internal_error_on_one_message_is_one_error_line_and_the_next_message_is_handled(listen_env, caplog):
    from karakuri_agent.decide.rules import RulePolicy

    class FailsOnce:
        """The rules, except that the first proposal is a bug."""

        def __init__(self) -> None:
            self.calls = 0

        def propose(self, view):
            self.calls += 1
            if self.calls == 1:
                raise RuntimeError("a bug")
            return RulePolicy().propose(view)

    caplog.set_level(logging.INFO, logger="karakuri_agent.app.listen")
    with respx.mock(assert_all_called=False) as mock:
        for nid in ("notif-a", "notif-b"):
            mock.get(f"{BASE_URL}/agents/notifications/{nid}").respond(200, json=notification(nid))
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        with Agent.open(load_settings(), state=MemoryState(), decider=FailsOnce()) as agent:
            listener = Listener(agent)
            results = [listener.handle(Message(body(nid), WORLD, CHANNEL, str(i)))
                       for i, nid in enumerate(("notif-a", "notif-b"))]
    assert results[0] is None and results[1].sent and post.call_count == 1
    (error,) = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert error.getMessage() == "message 0: internal error (RuntimeError); set KARAKURI_DEBUG=1 for details"
    assert listener.last_seen == {CHANNEL: "1"}  # the failed message is not marked seen: a redelivery retries it


def test_an_expired_notification_met_while_catching_up_is_recorded_not_posted(listen_env, caplog):
    caplog.set_level(logging.INFO, logger="karakuri_agent.app.listen")
    reporter = Collects()
    old = notification("notif-old", expires_at="2020-01-01T00:00:00.000Z")
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{BASE_URL}/agents/notifications/notif-old").respond(200, json=old)
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        (result,), state = run_listener([Message(body("notif-old"), WORLD, CHANNEL, "5")], catching_up=True,
                                        reporter=reporter)
    assert post.call_count == 0 and reporter.lines == []
    assert result.report == report.EXPIRED
    assert [e.message for e in state.store.recent_activity() if e.kind == "report"] == [report.EXPIRED]
    (line,) = [r for r in caplog.records if r.name == "karakuri_agent.app.listen.listener"]
    assert line.levelno == logging.INFO  # not a failure
    assert "notif-old" in line.getMessage() and "outcome=notification_expired report=skipped" in line.getMessage()


def test_an_expired_notification_delivered_live_is_reported(listen_env):
    reporter = Collects()
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{BASE_URL}/agents/notifications/notif-old").respond(
            200, json=notification("notif-old", expires_at="2020-01-01T00:00:00.000Z"))
        run_listener([Message(body("notif-old"), WORLD, CHANNEL, "5")], reporter=reporter)
    assert reporter.lines == [report.EXPIRED]


def test_the_stdin_loop_prints_one_flushed_line_per_notification_and_skips_bad_lines(listen_env, caplog):
    caplog.set_level(logging.INFO, logger="karakuri_agent.app.listen")
    lines = "\n".join([json.dumps({"content": body("notif-a"), "id": "1"}), "{oops", "",
                       json.dumps({"content": "こんにちは", "id": "2"}),
                       json.dumps({"content": body("notif-a"), "id": "3"})]) + "\n"
    out = io.StringIO()
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{BASE_URL}/agents/notifications/notif-a").respond(200, json=notification("notif-a"))
        mock.post(POST_URL).respond(200, json={"ok": True})
        with Agent.open(load_settings(), state=MemoryState()) as agent:
            stdin.run(Listener(agent), io.StringIO(lines), out)
    printed = out.getvalue().splitlines()
    assert len(printed) == 2 and printed[1] == report.ALREADY_HANDLED
    assert printed[0].startswith(report.PREFIX) and printed[0] != report.ALREADY_HANDLED
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING] == [
        "line 2 skipped: not JSON (Expecting property name enclosed in double quotes at position 1)"]


# -- real processes ------------------------------------------------------------------------
IDS = [f"notif-listen-{i}" for i in range(5)]


@pytest.fixture
def loopback():
    with running_api() as server:
        for nid in IDS:
            server.notifications[nid] = notification(nid)
        yield server


def listen(env, tmp_path, *flags: str):
    return subprocess.Popen([*AGENT, *flags, "listen", "--stdin"], env=env, cwd=tmp_path, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)


def finish(proc, stdin_text: str = "") -> tuple[int, list[str], str]:
    out, err = proc.communicate(stdin_text, timeout=120)  # generous: a loaded 2-core machine
    return proc.returncode, out.splitlines(), err


def test_messages_are_handled_in_order_with_one_report_each(loopback, proc_env, tmp_path):
    feed = [listen_line(IDS[0], "10"), listen_line(None, "11"), "not json\n", listen_line(IDS[1], "12"), listen_line(IDS[2], "13"),
            listen_line(IDS[1], "12"), listen_line(IDS[3], "14", channel_id="1")]
    proc_env["KARAKURI_CHANNEL_IDS"] = CHANNEL
    code, out, err = finish(listen(proc_env, tmp_path), "".join(feed))
    assert code == 0
    assert loopback.gets == IDS[:3]  # in order; the chat line, the bad line, the repeat and the other channel: no GET
    assert [p["notification_id"] for p in loopback.posts] == IDS[:3]
    assert len(out) == 3 and all(o.startswith(report.PREFIX) for o in out)
    assert "line 3 skipped: not JSON" in err
    assert err.count(" decision=") == 3  # one log line per notification
    assert "no notification id" not in err  # the chat line is silent unless -v


def test_with_v_a_message_without_an_id_is_one_log_line_and_nothing_on_stdout(loopback, proc_env, tmp_path):
    code, out, err = finish(listen(proc_env, tmp_path, "-v"), listen_line(None, "11"))
    assert code == 0 and out == [] and loopback.gets == []
    assert "message 11: no notification id, nothing to do" in err


def test_a_restart_after_kill_9_sends_no_second_command(loopback, proc_env, tmp_path):
    first = listen(proc_env, tmp_path)
    first.stdin.write(listen_line(IDS[0], "10"))
    first.stdin.flush()
    assert first.stdout.readline().startswith(report.PREFIX)  # handled and reported: now kill it
    first.kill()
    first.wait(timeout=60)

    # Mid-command: the claim is taken, the POST is in flight when the process dies.
    loopback.hold_post_seconds = 30
    loopback.post_started.clear()  # set by the first process's POST: wait for the second's
    second = listen(proc_env, tmp_path)
    second.stdin.write(listen_line(IDS[1], "11"))
    second.stdin.flush()
    assert loopback.post_started.wait(timeout=60)
    second.kill()
    second.wait(timeout=60)
    loopback.hold_post_seconds = 0
    gets_before = len(loopback.gets)

    code, out, err = finish(listen(proc_env, tmp_path), listen_line(IDS[0], "10") + listen_line(IDS[1], "11"))
    assert code == 0
    assert [p["notification_id"] for p in loopback.posts] == IDS[:2]  # nothing sent twice
    assert len(loopback.gets) == gets_before  # and nothing even read again
    assert out == [report.ALREADY_HANDLED]  # message 10 was seen; message 11 was claimed, not finished


def test_sigterm_in_the_middle_of_a_message_finishes_it_and_starts_nothing_new(loopback, proc_env, tmp_path):
    loopback.get_released.clear()  # hold the first GET until the signal has been sent
    proc = listen(proc_env, tmp_path)
    proc.stdin.write(listen_line(IDS[0], "10") + listen_line(IDS[1], "11"))
    proc.stdin.flush()
    assert loopback.get_started.wait(timeout=60)
    proc.send_signal(signal.SIGTERM)
    loopback.get_released.set()
    code, out, err = finish(proc)
    assert code == 0, err
    assert loopback.gets == [IDS[0]] and [p["notification_id"] for p in loopback.posts] == [IDS[0]]
    assert len(out) == 1 and out[0].startswith(report.PREFIX)


def test_sigterm_while_waiting_for_input_exits_0(loopback, proc_env, tmp_path):
    proc = listen(proc_env, tmp_path)
    proc.stdin.write(listen_line(IDS[0], "10"))
    proc.stdin.flush()
    assert proc.stdout.readline().startswith(report.PREFIX)
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 0
    assert [p["notification_id"] for p in loopback.posts] == [IDS[0]]


def test_the_report_and_the_log_carry_no_api_key(loopback, proc_env, tmp_path):
    code, out, err = finish(listen(proc_env, tmp_path), listen_line(IDS[0], "10") + listen_line("notif-missing", "11"))
    assert code == 0 and len(out) == 2
    assert API_KEY not in "\n".join(out) + err


def test_with_a_webhook_each_report_is_posted_there_too_with_mentions_disabled(loopback, proc_env, tmp_path):
    proc_env["DISCORD_WEBHOOK_URL"] = f"{loopback.base_url.removesuffix('/api')}/api/webhooks/1/hook-token"
    code, out, err = finish(listen(proc_env, tmp_path), listen_line(IDS[0], "10") + listen_line(None, "11") + listen_line(IDS[0], "12"))
    assert code == 0 and len(out) == 2, err
    webhook = [p for p in loopback.posts if "notification_id" not in p]
    assert [p["content"] for p in webhook] == out  # the same lines, in the same order; the chat line posts nothing
    assert all(p["allowed_mentions"] == {"parse": []} for p in webhook)
    assert "report=posted" in err and "hook-token" not in err


def test_a_one_shot_run_loads_neither_discord_py_nor_the_listener():
    code = ("import sys, karakuri_agent.app.cli, karakuri_agent.app.cycle;"
            " print(sorted(m for m in sys.modules if m.split('.')[0] in {'discord', 'aiohttp'}"
            " or m.startswith('karakuri_agent.app.listen')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
