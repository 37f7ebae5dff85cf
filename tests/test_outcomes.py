"""Once the server accepted a command, the run always reports it, and `log` always shows it as sent.

Built from what broke: a list or object value for a target on a choice whose
schema gives no type (recording raised TypeError, no report, the claim left
`claimed` and `log` showing only "received"), and the state refusing the
write between the claim and the outcome (a full disk). Also the inputs that
crashed a run without a report line: lone surrogates.
"""

from __future__ import annotations

import copy
import json
import sqlite3

import pytest
import respx
from click.testing import CliRunner

from karakuri_agent.report import line as report
from karakuri_agent.app.cli import agent, karakuri
from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import handle
from karakuri_agent.state.sqlite.ledger import Ledger
from karakuri_agent.state.sqlite.store import SQLiteStore

from testing.samples import BASE_URL, BODY, CONVERSATION_REQUEST, GET_URL, IDLE_REMINDER, NID, POST_URL

UNTYPED_TARGETS = [
    ("move", {"target_node_id": ["1-1", "2-2"]}),
    ("move", {"target_node_id": {"node": "1-1"}}),
    ("conversation_start", {"target_agent_id": ["1474403124906295517"], "message": "こんにちは"}),
    ("conversation_start", {"target_agent_id": {"id": 1}, "message": "こんにちは"}),
]


def untyped(command: str, params: dict) -> dict:
    value = copy.deepcopy(IDLE_REMINDER)
    value["notification_id"] = NID
    value["notification"]["choices"] = [{"command": command, "param_schema": {name: {} for name in params}}]
    return value


@pytest.mark.parametrize("command, params", UNTYPED_TARGETS)
def test_a_list_or_object_target_on_an_untyped_choice_is_sent_recorded_and_shown(env, command, params):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=untyped(command, params))
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        sent = CliRunner().invoke(karakuri, ["command", NID, command, json.dumps(params, ensure_ascii=False)])
        assert post.call_count == 1
    assert sent.exit_code == 0 and json.loads(sent.stdout) == {"ok": True}, sent.stderr
    shown = CliRunner().invoke(agent, ["log"]).stdout
    assert f"{NID}  ok  {command}" in shown


def _break_outcome_writes(monkeypatch, *, ledger_too: bool) -> None:
    """The disk fills up once the command has gone out: every later write is refused."""
    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(SQLiteStore, "record_command", full)
    monkeypatch.setattr(SQLiteStore, "record_report", full)
    if ledger_too:
        monkeypatch.setattr(Ledger, "finish", full)


@pytest.mark.parametrize("ledger_too", [False, True], ids=["the store refuses", "the ledger refuses too"])
def test_an_outcome_that_cannot_be_written_still_gives_the_report_and_log_shows_it_sent(env, monkeypatch, ledger_too):
    with respx.mock(assert_all_called=False) as mock, monkeypatch.context() as patch:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)

        def accept(request):
            _break_outcome_writes(patch, ledger_too=ledger_too)
            return respx.MockResponse(200, json={"ok": True, "message": "会話を開始しました"})

        post = mock.post(POST_URL).mock(side_effect=accept)
        run = CliRunner().invoke(agent, ["handle", BODY])
        assert post.call_count == 1
    assert run.exit_code == 0
    assert run.stdout.splitlines()[-1].startswith(report.PREFIX)
    assert run.stdout.splitlines()[-1] not in (report.FAILED, report.UNKNOWN_OUTCOME)
    problems = run.stderr.splitlines()
    assert len(problems) == 1 and "outcome_not_recorded" in problems[0] and "log" in problems[0]
    shown = CliRunner().invoke(agent, ["log"]).stdout
    assert f"{NID}  SENT conversation_accept" in shown and "(outcome not recorded)" in shown
    with respx.mock(assert_all_called=False) as mock:  # and it is never sent again
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        again = mock.post(POST_URL).respond(200, json={"ok": True})
        assert CliRunner().invoke(agent, ["handle", BODY]).stdout.splitlines()[-1] == report.ALREADY_HANDLED
        assert again.call_count == 0


def test_the_report_is_posted_even_when_the_outcome_cannot_be_written(env, monkeypatch):
    posted = []

    class Collects:
        def post(self, line):
            posted.append(line)

    from karakuri_agent.app.cycle import Agent

    with respx.mock(assert_all_called=False) as mock, monkeypatch.context() as patch:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        mock.post(POST_URL).mock(side_effect=lambda request: (_break_outcome_writes(patch, ledger_too=True),
                                                              respx.MockResponse(200, json={"ok": True}))[1])
        with Agent.open(load_settings(), reporter=Collects()) as opened:
            result = opened.handle(BODY)
    assert result.sent and result.unrecorded and posted == [result.report]
    assert result.record()["outcome_recorded"] is False


# -- lone surrogates ---------------------------------------------------------------------------
def _with_surrogates(where: str) -> bytes:
    text = json.dumps(CONVERSATION_REQUEST)
    if where == "text":
        return text.replace("\\u3053\\u3093\\u306b\\u3061\\u306f", "\\ud800").encode()  # こんにちは
    if where == "name":
        return text.replace("\\u685c\\u8349\\u30e1\\u30a4", "\\udfff\\u30e1\\u30a4").encode()  # 桜草メイ
    return text.replace('"params": {}', '"params": {"tone": "\\ud83d"}', 1).encode()


@pytest.mark.parametrize("where", ["text", "name", "params"])
def test_a_lone_surrogate_from_the_server_is_handled_and_reported(env, where):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, content=_with_surrogates(where), headers={"Content-Type": "application/json"})
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        run = CliRunner().invoke(agent, ["handle", BODY, "--json"])
        assert post.call_count == 1
        json.dumps(json.loads(post.calls.last.request.content)).encode("utf-8")
    assert run.exit_code == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["sent"] and record["report"].startswith(report.PREFIX)
    assert "\ud800" not in run.stdout and "internal error" not in run.stderr


def test_a_lone_surrogate_in_command_params_is_sent_cleaned(env):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        run = CliRunner().invoke(karakuri, ["command", NID, "conversation_accept", '{"message": "やあ\\ud800"}'])
        assert post.call_count == 1
    assert run.exit_code == 0, run.stderr
    assert json.loads(post.calls.last.request.content)["params"]["message"] == "やあ\ufffd"


def test_params_nested_too_deeply_are_a_usage_error(env):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        deep = '{"message": ' + "[" * 5000 + "]" * 5000 + "}"
        run = CliRunner().invoke(karakuri, ["command", NID, "conversation_accept", deep])
        assert post.call_count == 0 and mock.calls.call_count == 0
    assert run.exit_code == 2 and "nested" in run.stderr


def test_handle_with_a_lone_surrogate_in_the_result_still_reports(env):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        mock.post(POST_URL).respond(200, content=b'{"ok": true, "message": "\\udc80"}')
        result = handle(BODY, load_settings(), post=False)
    assert result.sent and result.unrecorded is None and result.report.startswith(report.PREFIX)


def test_log_lists_a_command_entry_once_when_the_outcome_was_written(env):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        mock.post(POST_URL).respond(200, json={"ok": True})
        handle(BODY, load_settings(), post=False)
    shown = CliRunner().invoke(agent, ["log"]).stdout
    assert "SENT" not in shown and "conversation_accept" in shown
    assert BASE_URL not in shown


# -- inputs that crashed a run without a report line --------------------------------------------
WAIT = {"notification_id": NID, "created_at": "2026-11-29T12:00:00.000Z", "expires_at": "2099-11-29T12:10:00.000Z",
        "notification": {"type": "idle_reminder_fired", "text": "待機中です。", "choices": [
            {"command": "wait", "required_params": ["duration"],
             "param_schema": {"duration": {"type": "integer", "minimum": 1, "maximum": 6}}}]}}


@pytest.mark.parametrize("params", ['{"duration": "--5"}', '{"duration": "²"}', '{"duration": "٣"}',
                                    '{"duration": "%s"}' % ("1" * 5000), '{"duration": %s}' % ("1" * 5000)])
def test_odd_integer_params_are_refused_in_one_line_and_nothing_is_sent(env, params):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=WAIT)
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        run = CliRunner().invoke(karakuri, ["command", NID, "wait", params])
        assert post.call_count == 0
    assert run.exit_code == 2 and len(run.stderr.splitlines()) == 1 and "internal error" not in run.stderr


@pytest.mark.parametrize("flag", ["--at", "--clock-start"])
@pytest.mark.parametrize("moment", ["9999-12-31T23:59:59-14:00", "0001-01-01T00:00:00+14:00"])
def test_a_time_at_the_edge_of_the_calendar_is_a_usage_error(env, flag, moment):
    args = ["handle", BODY, flag, moment] + (["--fixtures", "bundled"] if flag == "--at" else [])
    with respx.mock(assert_all_called=False) as mock:
        run = CliRunner().invoke(agent, args)
        assert mock.calls.call_count == 0
    assert run.exit_code == 2 and "ISO 8601" in run.stderr and "internal error" not in run.stderr


@pytest.mark.parametrize("key", ["clé-ünïcode", "キー1234", "abc\r\ndef", "abc\nX-Injected: 1", "abc def"])
def test_an_api_key_no_http_header_can_carry_is_a_configuration_error(env, monkeypatch, key):
    monkeypatch.setenv("KARAKURI_API_KEY", key)
    with respx.mock(assert_all_called=False) as mock:
        run = CliRunner().invoke(agent, ["handle", BODY])
        assert mock.calls.call_count == 0
    assert run.exit_code == 2 and "KARAKURI_API_KEY" in run.stderr and "unreachable" not in run.stderr
    assert key not in run.stderr


def _special(kind: str, tmp_path):
    import os

    if kind == "/dev/zero":
        return "/dev/zero"
    if kind == "fifo":
        path = tmp_path / "fifo"
        os.mkfifo(path)
        return str(path)
    if kind == "directory":
        return str(tmp_path)
    path = tmp_path / "huge.json"
    path.write_text('{"x": "' + "あ" * 400_000 + '"}', encoding="utf-8")
    return str(path)


KINDS = ["/dev/zero", "fifo", "directory", "huge"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_world_context_file_that_is_no_small_regular_file_is_invalid_not_a_hang(env, monkeypatch, tmp_path, kind):
    monkeypatch.setenv("KARAKURI_WORLD_CONTEXT_FILE", _special(kind, tmp_path))
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        mock.post(POST_URL).respond(200, json={"ok": True})
        result = handle(BODY, load_settings(), post=False)
    assert result.sent and result.report.startswith(report.PREFIX)


@pytest.mark.parametrize("kind", KINDS)
def test_a_persona_json_that_is_no_small_regular_file_is_a_configuration_error(env, monkeypatch, tmp_path, kind):
    pack = tmp_path / "pack"
    pack.mkdir()
    target = _special(kind, tmp_path)
    (pack / "persona.json").symlink_to(target)
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(pack))
    with respx.mock(assert_all_called=False) as mock:
        run = CliRunner().invoke(agent, ["handle", BODY])
        assert mock.calls.call_count == 0
    assert run.exit_code == 2 and "persona.json" in run.stderr and "internal error" not in run.stderr
    checked = CliRunner().invoke(agent, ["persona", "check", str(pack)])
    assert checked.exit_code != 0 and "cannot be read" in checked.stdout + checked.stderr
