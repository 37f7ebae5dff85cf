"""The `karakuri` wrapper end to end, in process, with respx as the api."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import stat
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx
import pytest
import respx
from click.testing import CliRunner

from karakuri_agent.app.cli import karakuri

from testing.samples import API_KEY, GET_URL, NID, POST_URL, SELF_ID, state_files_text



def run(*args: str):
    return CliRunner().invoke(karakuri, list(args))


def rows(state_dir, sql):
    conn = sqlite3.connect(state_dir / "karakuri.db")
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def test_get_notification_prints_the_notification_with_its_context(env, api):
    result = run("get_notification", NID)
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["notification_id"] == NID
    pre = out["nikechan_preprocess"]
    assert pre["turn_key"] == f"karakuri:{NID}"
    assert isinstance(pre["activity_log_id"], int)
    assert pre["parsed"]["has_choices"] is True
    assert [c["command"] for c in pre["parsed"]["choices"]] == ["conversation_accept", "conversation_reject"]
    assert set(pre["context"]) >= {"people", "pending_commitments", "recent_memory_entries",
                                   "recent_activity_logs", "unified_world_context", "known_places"}
    assert pre["decision_guidance"]


def test_the_agent_itself_is_never_a_person_met(env, api):
    pre = json.loads(run("get_notification", NID).stdout)["nikechan_preprocess"]
    assert [p["agent_id"] for p in pre["context"]["people"]] == ["1474403124906295517"]
    assert SELF_ID not in {r[0] for r in rows(env_state(env), "SELECT agent_id FROM people")}


def env_state(env):
    from pathlib import Path

    return Path(env["KARAKURI_STATE_DIR"])


def test_fetching_twice_leaves_one_request_entry(env, api):
    first = json.loads(run("get_notification", NID).stdout)["nikechan_preprocess"]["activity_log_id"]
    second = json.loads(run("get_notification", NID).stdout)["nikechan_preprocess"]["activity_log_id"]
    assert first == second
    assert rows(env_state(env), "SELECT COUNT(*) FROM activity WHERE kind = 'request'") == [(1,)]
    assert api.routes[0].call_count == 2  # fetching is not an action: both reached the api


@pytest.mark.parametrize("bad", ["notif-../../x", "notif-a b", "../etc", "notif-ａ"])
def test_bad_id_exits_2_without_any_request(env, bad):
    with respx.mock(assert_all_called=False) as mock:
        result = run("get_notification", bad)
        assert mock.calls.call_count == 0
    assert result.exit_code == 2
    assert "invalid notification id" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_server_error_is_printed_as_its_json_body_with_exit_1(env):
    body = {"error": "unauthorized", "message": "Invalid API key", "hint": "check the key"}
    with respx.mock:
        respx.get(GET_URL).respond(401, json=body)
        result = run("get_notification", NID)
    assert result.exit_code == 1
    assert json.loads(result.stdout) == body


def test_missing_configuration_names_the_variable(env, monkeypatch):
    monkeypatch.delenv("KARAKURI_API_KEY")
    result = run("get_notification", NID)
    assert result.exit_code == 2 and "KARAKURI_API_KEY" in result.stderr


def test_command_sends_one_post_and_records_the_outcome(env, api):
    result = run("command", NID, "conversation_accept", '{"message": "こんにちは、メイさん！"}')
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {"ok": True, "message": "会話を開始しました"}
    post = api.routes[1]
    assert post.call_count == 1
    assert json.loads(post.calls.last.request.content) == {
        "notification_id": NID, "command": "conversation_accept", "params": {"message": "こんにちは、メイさん！"}
    }
    state = env_state(env)
    assert rows(state, "SELECT command, success FROM activity WHERE kind = 'command'") == [("conversation_accept", 1)]
    assert rows(state, "SELECT COUNT(*) FROM memory") == [(1,)]
    assert rows(state, "SELECT interactions FROM people WHERE agent_id = '1474403124906295517'") == [(1,)]
    assert rows(state, "SELECT outcome FROM attempts") == [("succeeded",)]


def test_command_uses_the_stored_copy_when_there_is_one(env, api):
    run("get_notification", NID)
    run("command", NID, "conversation_reject", "{}")
    assert api.routes[0].call_count == 1


def test_second_attempt_is_refused_with_zero_requests(env, api):
    assert run("command", NID, "conversation_reject", "{}").exit_code == 0
    calls_before = api.calls.call_count
    again = run("command", NID, "conversation_accept", '{"message": "やっぱり話そう"}')
    assert again.exit_code == 1
    out = json.loads(again.stdout)
    assert out["error"] == "notification_already_attempted"
    assert out["previous"]["command"] == "conversation_reject"
    assert api.calls.call_count == calls_before


def test_command_not_in_the_choices_is_refused_without_post(env, api):
    result = run("command", NID, "move", '{"target_node_id": "1-1"}')
    assert result.exit_code == 2 and "not one of this notification's choices" in result.stderr
    assert api.routes[1].call_count == 0
    assert rows(env_state(env), "SELECT COUNT(*) FROM attempts") == [(0,)]


@pytest.mark.parametrize("params", ["[1]", '"text"', "{bad json", "", "null", '{"a":1} {"b":2}'])
def test_params_must_be_exactly_one_json_object(env, api, params):
    result = run("command", NID, "conversation_reject", params)
    assert result.exit_code == 2 and "one JSON object" in result.stderr
    assert api.calls.call_count == 0


def test_params_breaking_the_schema_are_never_sent(env, api):
    result = run("command", NID, "conversation_accept", json.dumps({"message": "あ" * 201}))
    assert result.exit_code == 2 and "at most 200" in result.stderr
    assert api.routes[1].call_count == 0


def test_server_refusal_is_recorded_and_never_retried(env, notification):
    body = {"error": "not_your_turn", "message": "It is not your turn."}
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).respond(409, json=body)
        result = run("command", NID, "conversation_reject", "{}")
        assert post.call_count == 1
    assert result.exit_code == 1 and json.loads(result.stdout) == body
    state = env_state(env)
    assert rows(state, "SELECT success, message FROM activity WHERE kind='command'") == [(0, "It is not your turn.")]
    assert rows(state, "SELECT outcome FROM attempts") == [("failed",)]
    assert rows(state, "SELECT COUNT(*) FROM memory") == [(0,)]


def test_post_timeout_spends_the_notification(env, notification):
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).mock(side_effect=httpx.ReadTimeout("no answer"))
        first = run("command", NID, "conversation_reject", "{}")
        second = run("command", NID, "conversation_reject", "{}")
        assert post.call_count == 1
    assert first.exit_code == 1 and json.loads(first.stdout)["error"] == "outcome_unknown"
    assert json.loads(second.stdout)["error"] == "notification_already_attempted"
    assert rows(env_state(env), "SELECT outcome FROM attempts") == [("unknown",)]


def test_expired_notification_gets_no_command(env, notification):
    notification["expires_at"] = "2020-01-01T00:00:00Z"
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).respond(200, json={})
        result = run("command", NID, "conversation_reject", "{}")
        assert post.call_count == 0
    assert result.exit_code == 1 and json.loads(result.stdout)["error"] == "notification_expired"


@pytest.mark.parametrize("argv", [["move", "1-1"], ["notif-01JDX9M7QZ"], ["get_status"], []])
def test_anything_else_on_the_command_line_is_a_usage_error(env, argv):
    with respx.mock(assert_all_called=False) as mock:
        result = run(*argv)
        assert mock.calls.call_count == 0
    assert result.exit_code == 2


def test_api_key_never_reaches_output_or_the_state_directory(env, api):
    outputs = [run("get_notification", NID), run("command", NID, "conversation_reject", "{}"),
               run("command", NID, "conversation_reject", "{}")]
    for result in outputs:
        assert API_KEY not in result.output
    assert API_KEY not in state_files_text(env_state(env))


def test_state_directory_is_private(env, api):
    run("get_notification", NID)
    state = env_state(env)
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    assert stat.S_IMODE((state / "karakuri.db").stat().st_mode) == 0o600


def test_information_results_become_world_knowledge(env, notification):
    notification["notification"]["choices"] = [{"command": "get_map", "description": "マップ"}]
    data = {"nodes": [{"node_id": "3-4", "name": "図書館 入口"}, {"id": "5-5", "label": "公園"}],
            "agents": [{"agent_id": "1481220937745113088", "name": "時雨ソラ"}]}
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        respx.post(POST_URL).respond(200, json={"command": "get_map", "data": data})
        assert run("command", NID, "get_map", "{}").exit_code == 0
    state = env_state(env)
    assert set(rows(state, "SELECT node_id, name FROM places")) >= {("3-4", "図書館 入口"), ("5-5", "公園")}
    assert ("1481220937745113088", "時雨ソラ") in rows(state, "SELECT agent_id, display_name FROM people")


def test_promise_in_a_line_becomes_a_pending_commitment(env, notification):
    said_at = datetime.now(timezone.utc).replace(microsecond=0)
    notification["created_at"] = said_at.isoformat()
    notification["notification"]["conversation_messages"] = [
        {"speaker": "桜草メイ", "message": "30分後に図書館で待ち合わせしましょう"}
    ]
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        pre = json.loads(run("get_notification", NID).stdout)["nikechan_preprocess"]
        run("get_notification", NID)
    [commitment] = pre["context"]["pending_commitments"]
    assert commitment["partner_name"] == "桜草メイ" and commitment["partner_id"] == "1474403124906295517"
    assert commitment["place_name"] == "図書館"
    assert datetime.fromisoformat(commitment["due_at"]) == said_at + timedelta(minutes=30)
    assert rows(env_state(env), "SELECT COUNT(*) FROM commitments") == [(1,)]


def test_world_context_is_read_from_the_configured_file_or_a_placeholder(env, api, tmp_path, monkeypatch):
    missing = json.loads(run("get_notification", NID).stdout)["nikechan_preprocess"]["context"]
    assert missing["unified_world_context"]["status"] == "missing"
    path = tmp_path / "world.json"
    path.write_text(json.dumps({"summary": "最近は本屋によく行く"}), encoding="utf-8")
    monkeypatch.setenv("KARAKURI_WORLD_CONTEXT_FILE", str(path))
    found = json.loads(run("get_notification", NID).stdout)["nikechan_preprocess"]["context"]
    assert found["unified_world_context"]["summary"] == "最近は本屋によく行く"
    assert set(found["unified_world_context"]) == set(missing["unified_world_context"])


def test_an_agent_position_is_not_learned_as_a_place(env, notification):
    notification["notification"]["choices"] = [{"command": "get_world_agents"}]
    data = {"agents": [{"agent_id": "1481220937745113088", "name": "時雨ソラ", "node_id": "3-4"}]}
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        respx.post(POST_URL).respond(200, json={"command": "get_world_agents", "data": data})
        assert run("command", NID, "get_world_agents", "{}").exit_code == 0
    assert ("3-4", "時雨ソラ") not in rows(env_state(env), "SELECT node_id, name FROM places")


def test_a_move_counts_as_a_visit_to_the_place(env, notification):
    notification["notification"]["choices"] = [{"command": "move", "param_schema": {"target_node_id": {"type": "string"}}}]
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        respx.post(POST_URL).respond(200, json={"ok": True})
        assert run("command", NID, "move", '{"target_node_id": "3-4"}').exit_code == 0
    assert rows(env_state(env), "SELECT visits FROM places WHERE node_id = '3-4'") == [(1,)]


def test_a_promise_resolves_a_place_named_in_the_same_text(env, notification):
    said_at = datetime.now(timezone.utc).replace(microsecond=0)
    notification["created_at"] = said_at.isoformat()
    notification["notification"]["text"] += "\n現在地: 6-11 (喫茶店 店内)"
    notification["notification"]["conversation_messages"] = [
        {"speaker": "桜草メイ", "message": "30分後に喫茶店で待ち合わせしましょう"}
    ]
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        pre = json.loads(run("get_notification", NID).stdout)["nikechan_preprocess"]
    [commitment] = pre["context"]["pending_commitments"]
    assert commitment["node_id"] == "6-11"


# -- skill/karakuri.sh: the shim runtimes call -----------------------------------------
SHIM = Path(__file__).resolve().parents[1] / "skill" / "karakuri.sh"


def _shim_in(directory: Path) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    copy = directory / "karakuri.sh"
    shutil.copy(SHIM, copy)
    return copy


def _fake_karakuri(path: Path) -> None:
    """Stands in for the installed console script: says where it is and what it got."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'#!/bin/sh\necho "{path}" "$@"\n')
    path.chmod(0o755)


def _run_shim(shim: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(shim), *args], env={"PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                          timeout=30)


def test_shim_runs_the_karakuri_of_the_projects_venv(tmp_path):
    shim = _shim_in(tmp_path / "project" / "skill")
    installed = tmp_path / "project" / ".venv" / "bin" / "karakuri"
    _fake_karakuri(installed)
    proc = _run_shim(shim, "get_notification", NID)
    assert proc.returncode == 0 and proc.stdout.split() == [str(installed), "get_notification", NID]


def test_shim_prefers_a_karakuri_next_to_it(tmp_path):
    shim = _shim_in(tmp_path / "bin")
    _fake_karakuri(tmp_path / "bin" / "karakuri")
    proc = _run_shim(shim, "command", NID, "wait", '{"duration": 1}')
    assert proc.stdout == f'{tmp_path / "bin" / "karakuri"} command {NID} wait {{"duration": 1}}\n'


def test_shim_without_karakuri_says_how_to_install_in_one_line(tmp_path):
    proc = _run_shim(_shim_in(tmp_path / "skill"), "get_notification", NID)
    assert proc.returncode == 127 and proc.stdout == ""
    [line] = proc.stderr.splitlines()
    assert "pip install" in line and "not found" not in line  # ours, not the shell's


def test_fixtures_dir_bundled_serves_the_wrapper_too(env, monkeypatch):
    monkeypatch.setenv("KARAKURI_FIXTURES_DIR", "bundled")
    result = run("get_notification", "notif-demo01")
    assert result.exit_code == 0 and json.loads(result.stdout)["notification"]["type"] == "agent_logged_in"
    monkeypatch.setenv("KARAKURI_FIXTURES_DIR", str(Path(env["KARAKURI_STATE_DIR"]) / "nowhere"))
    missing = run("get_notification", "notif-demo01")
    assert missing.exit_code == 2 and "does not exist" in missing.stderr
