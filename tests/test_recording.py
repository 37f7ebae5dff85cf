"""Recordings, made and replayed: nothing optional loses a sent command's outcome; a broken file is one line.

`handle --record DIR` checks DIR before anything is read or sent, writes
what it recorded only after the outcome is in the state and the report is
made, and keeps every message when runs record into DIR at once. A
recording replayed (`handle --fixtures`, `--at`, `demo --fixtures`) that is
broken in any way is one clear line naming the file: never an internal
error, never a hang, nothing run that cannot be.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from datetime import datetime, timezone

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings, strategies as st

from testing.samples import CONVERSATION_REQUEST
from karakuri_agent.app.cli import agent
from karakuri_agent.app.fixtures import bundled_fixtures_dir
from karakuri_agent.app.recording import Recorder
from testing.loopback import running_api
from testing.processes import console_script, loopback_env

pytestmark = pytest.mark.process

NID = CONVERSATION_REQUEST["notification_id"]
AGENT = console_script("karakuri-agent", "agent")


@pytest.fixture
def api():
    with running_api() as server:
        server.notifications[NID] = CONVERSATION_REQUEST
        yield server


def record(env, directory, nid=NID, **popen):
    return subprocess.run([*AGENT, "handle", "--record", str(directory)], env=env, input=f"notification_id: {nid}",
                          capture_output=True, text=True, timeout=120, **popen)


def ledger_outcome(state, nid):
    import sqlite3

    with sqlite3.connect(state / "karakuri.db") as conn:
        row = conn.execute("SELECT outcome FROM attempts WHERE notification_id = ?", (nid,)).fetchone()
    return row and row[0]


def _commands_a_file(directory):
    directory.mkdir()
    (directory / "commands").write_text("not a folder")


def _session_a_directory(directory):
    (directory / "session.json").mkdir(parents=True)


def _session_corrupt(directory):
    directory.mkdir()
    (directory / "session.json").write_text('{"self": {}, "messages": [')


def _session_of_wrong_shape(directory):
    directory.mkdir()
    (directory / "session.json").write_text(json.dumps({"self": {}, "messages": [5, None]}))


def _session_a_fifo(directory):
    directory.mkdir()
    os.mkfifo(directory / "session.json")


def _session_to_dev_zero(directory):
    directory.mkdir()
    (directory / "session.json").symlink_to("/dev/zero")


@pytest.mark.parametrize("break_it, said", [
    (_commands_a_file, "is not a directory"),
    (_session_a_directory, "is a directory"),
    (_session_corrupt, "not valid JSON"),
    (_session_of_wrong_shape, "message 1 is not"),
    (_session_a_fifo, "FIFO"),
    (_session_to_dev_zero, "character device"),
])
def test_a_directory_that_cannot_take_a_recording_is_refused_before_anything_is_sent(api, tmp_path, break_it, said):
    env = loopback_env(api.base_url, tmp_path / "state")
    break_it(tmp_path / "rec")
    run = record(env, tmp_path / "rec")
    assert run.returncode == 2, run
    assert run.stderr.count("\n") == 1 and said in run.stderr and "nothing was sent" in run.stderr or \
        "recorded session" in run.stderr, run.stderr
    assert "internal error" not in run.stderr and "Traceback" not in run.stderr
    assert api.gets == [] and api.posts == []


def test_a_recording_that_fails_after_the_send_keeps_the_outcome_and_the_report(api, tmp_path, monkeypatch):
    """The directory was fine when checked and broke before the save (a disk gone read-only, a folder replaced)."""
    env = loopback_env(api.base_url, tmp_path / "state")
    directory = tmp_path / "rec"

    def break_after_the_command(_nid):
        shutil.rmtree(directory / "commands")
        (directory / "commands").write_text("now a file")
        (directory / "session.json").mkdir()

    api.on_get = break_after_the_command
    run = record(env, directory)
    assert run.returncode == 0, run.stderr
    assert len(api.posts) == 1 and run.stdout.strip().splitlines()[-1].startswith("からくり:")
    problems = run.stderr.strip().splitlines()
    assert len(problems) == 2 and all("recording_failed" in p and "internal error" not in p for p in problems)
    assert ledger_outcome(tmp_path / "state", NID) == "succeeded"
    log = subprocess.run([*AGENT, "log"], env=env, capture_output=True, text=True, timeout=60).stdout
    assert "outcome not recorded" not in log and "conversation_accept" in log


def test_six_runs_recording_into_one_directory_at_once_keep_every_message(api, tmp_path):
    ids = [f"notif-rec{i}" for i in range(6)]
    for nid in ids:
        api.notifications[nid] = {**CONVERSATION_REQUEST, "notification_id": nid}
    env = loopback_env(api.base_url, tmp_path / "state")
    procs = [subprocess.Popen([*AGENT, "handle", "--record", str(tmp_path / "rec")], env=env, text=True,
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in ids]
    for proc, nid in zip(procs, ids):
        proc.stdin.write(f"notification_id: {nid}")
        proc.stdin.close()
    assert [proc.wait(timeout=120) for proc in procs] == [0] * 6
    session = json.loads((tmp_path / "rec" / "session.json").read_text())
    assert sorted(m["message"] for m in session["messages"]) == sorted(f"notification_id: {nid}" for nid in ids)
    assert sorted(p.name for p in (tmp_path / "rec" / "commands").iterdir()) == sorted(f"{n}.json" for n in ids)
    assert not [p for p in (tmp_path / "rec").rglob("*.tmp")]


def test_the_recorder_never_raises_into_the_request_it_records(tmp_path):
    import httpx

    recorder = Recorder(tmp_path / "rec", ("sk-secret",))
    recorder.check()
    transport = recorder.transport(httpx.MockTransport(lambda request: httpx.Response(200, text="not json")))
    with httpx.Client(transport=transport) as client:
        assert client.get("https://x.test/api/agents/notifications/notif-a").status_code == 200
        assert client.post("https://x.test/api/agents/command", content=b"\xff not json").status_code == 200
    (tmp_path / "rec" / "notifications").rmdir()
    (tmp_path / "rec" / "notifications").write_text("")
    problems = recorder.save("notification_id: notif-a", datetime.now(timezone.utc), {"id": "1", "name": "n"})
    assert len(problems) == 1 and "notifications" in problems[0]


# -- a recording replayed, broken in any way ----------------------------------------------------------------------
CORRUPTIONS = {
    "not JSON": lambda p: p.write_text("{ not json"),
    "a list": lambda p: p.write_text("[1, 2]"),
    "a number": lambda p: p.write_text("5"),
    "null": lambda p: p.write_text("null"),
    "a bad status": lambda p: p.write_text(json.dumps({"status": "ok", "body": {}})),
    "a status of 1000": lambda p: p.write_text(json.dumps({"status": 1000, "body": {}})),
    "a body of the wrong shape": lambda p: p.write_text(json.dumps({"status": 200, "body": [1, "x", None]})),
    "bad headers": lambda p: p.write_text(json.dumps({"status": 200, "headers": [1], "body": {}})),
    "a directory": lambda p: p.mkdir(),
    "a FIFO": lambda p: os.mkfifo(p),
    "a link to /dev/zero": lambda p: p.symlink_to("/dev/zero"),
    "a link to nothing": lambda p: p.symlink_to(p.parent / "missing"),
    "NaN": lambda p: p.write_text('{"status": 200, "body": {"created_at": NaN}}'),
}
SESSION_CORRUPTIONS = {
    **CORRUPTIONS,
    "a message 5": lambda p: p.write_text(json.dumps({"self": {}, "messages": [5]})),
    "a message null": lambda p: p.write_text(json.dumps({"self": {}, "messages": [None]})),
    "a time past 9999": lambda p: p.write_text(json.dumps({"self": {}, "messages": [
        {"at": "9999-12-31T23:59:00Z", "message": "notification_id: notif-demo01"}]})),
}
FILES = ["session.json", "notifications/notif-demo01.json", "commands/notif-demo01.json",
         "notifications/notif-demo02.json"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(file=st.sampled_from(FILES), data=st.data(),
       how=st.sampled_from([["handle", "--fixtures"], ["handle", "--dry-run", "--fixtures"], ["demo", "--fixtures"],
                            ["listen", "--stdin", "--fixtures"]]),
       at=st.sampled_from([None, "2026-04-18T14:00:00Z", "2026-04-18T03:11:00Z", "9999-12-31T20:00:00Z"]))
def test_a_broken_recording_is_one_line_naming_the_file_never_an_internal_error(tmp_path_factory, file, data, how, at):
    corruptions = SESSION_CORRUPTIONS if file == "session.json" else CORRUPTIONS
    name = data.draw(st.sampled_from(sorted(corruptions)))
    root = tmp_path_factory.mktemp("broken")
    directory = root / "rec"
    shutil.copytree(bundled_fixtures_dir(), directory)
    target = directory / file
    target.unlink()
    corruptions[name](target)
    args = [*how, str(directory), *(["--at", at] if at else [])]
    message = "notification_id: notif-demo01"
    given_in = json.dumps({"content": message, "id": "1"}) + "\n" if how[0] == "listen" else message
    result = CliRunner().invoke(agent, args, input=given_in, env={"KARAKURI_STATE_DIR": str(root / "live")})
    err = result.stderr
    assert "internal error" not in err and "Traceback" not in err, (name, file, args, err)
    assert result.exit_code in (0, 2), (name, file, args, result.exit_code, err, result.stdout)
    if result.exit_code == 2:
        assert len(err.strip().splitlines()) == 1 and (str(directory) in err or (at or "--") in err), (name, file, err)
    assert not (root / "live").exists()  # a fixture run never touches the live state
