"""At most one command per notification across real, concurrent, killed processes."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys

import pytest

from conftest import API_KEY, CONVERSATION_REQUEST, SELF_ID
from loopback import running_api

NID = CONVERSATION_REQUEST["notification_id"]
KARAKURI = [sys.executable, "-c", "import sys; from karakuri_agent.cli import karakuri; sys.exit(karakuri())"]


@pytest.fixture
def api():
    with running_api() as server:
        server.notifications[NID] = CONVERSATION_REQUEST
        yield server


@pytest.fixture
def proc_env(api, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env.update(KARAKURI_API_BASE_URL=api.base_url, KARAKURI_API_KEY=API_KEY,
               KARAKURI_STATE_DIR=str(tmp_path / "state"), KARAKURI_SELF_AGENT_ID=SELF_ID)
    return env


def karakuri(env, *args, **kwargs):
    return subprocess.Popen([*KARAKURI, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=env["KARAKURI_STATE_DIR"].rsplit("/", 1)[0], **kwargs)


def test_eight_concurrent_processes_on_one_id_send_exactly_one_post(api, proc_env):
    api.hold_post_seconds = 0.3  # keep the winner busy while the others arrive
    procs = [karakuri(proc_env, "command", NID, "conversation_reject", "{}") for _ in range(8)]
    results = [(p.wait(timeout=60), p.stdout.read(), p.stderr.read()) for p in procs]
    assert len(api.posts_for(NID)) == 1
    codes = sorted(code for code, _, _ in results)
    assert codes == [0] + [1] * 7, results
    refused = [json.loads(out)["error"] for code, out, _ in results if code == 1]
    assert refused == ["notification_already_attempted"] * 7


def test_process_killed_after_its_claim_spends_the_notification(api, proc_env, tmp_path):
    api.hold_post_seconds = 30  # the POST is in flight when the process dies
    victim = karakuri(proc_env, "command", NID, "conversation_reject", "{}")
    assert api.post_started.wait(timeout=30)
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=10)
    api.hold_post_seconds = 0
    requests_before = len(api.gets) + len(api.posts)

    later = karakuri(proc_env, "command", NID, "conversation_accept", '{"message": "こんにちは"}')
    code, out = later.wait(timeout=60), later.stdout.read()
    assert code == 1 and json.loads(out)["error"] == "notification_already_attempted"
    assert len(api.gets) + len(api.posts) == requests_before
    conn = sqlite3.connect(tmp_path / "state" / "karakuri.db")
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("SELECT outcome FROM attempts").fetchall() == [("claimed",)]


def test_real_process_output_carries_no_api_key(api, proc_env):
    for args in (("get_notification", NID), ("command", NID, "conversation_reject", "{}")):
        p = karakuri(proc_env, *args)
        p.wait(timeout=60)
        assert API_KEY not in p.stdout.read() + p.stderr.read()


def test_first_runs_racing_on_a_new_state_directory_all_open_it(api, proc_env):
    """Creating the file and switching it to WAL at once must not fail any of them."""
    procs = [karakuri(proc_env, "get_notification", NID) for _ in range(8)]
    results = [(p.wait(timeout=60), p.stderr.read()) for p in procs]
    assert [code for code, _ in results] == [0] * 8, results
