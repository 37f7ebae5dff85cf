"""A SQLite state locked by another process: a report line and the state error's code, never an internal error,
and nothing lost (issue 28, 10). Real processes: the lock holder, `handle` and the wrapper."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from testing.samples import CONVERSATION_REQUEST
from karakuri_agent.report.line import FAILED
from karakuri_agent.state.sqlite import db
from testing.loopback import running_api
from testing.processes import loopback_env

pytestmark = pytest.mark.process

NID = CONVERSATION_REQUEST["notification_id"]
AGENT = [sys.executable, "-c", "import sys; from karakuri_agent.app.cli import agent; sys.exit(agent())"]
KARAKURI = [sys.executable, "-c", "import sys; from karakuri_agent.app.cli import karakuri; sys.exit(karakuri())"]
HOLD = ("import sqlite3, sys, time; c = sqlite3.connect(sys.argv[1], isolation_level=None);"
        " c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); time.sleep(40)")


@pytest.fixture
def api():
    with running_api() as server:
        server.notifications[NID] = CONVERSATION_REQUEST
        yield server


@pytest.fixture
def proc_env(api, tmp_path):
    env = loopback_env(api.base_url, tmp_path / "state")
    db.connect(tmp_path / "state").close()  # the file exists, migrated, as after earlier runs
    return env


def start(argv, env, cwd):
    return subprocess.Popen(argv, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_a_write_lock_held_past_the_busy_timeout_fails_the_run_with_its_code_and_loses_nothing(api, proc_env,
                                                                                                 tmp_path):
    holder = start([sys.executable, "-c", HOLD, str(tmp_path / "state" / "karakuri.db")], proc_env, tmp_path)
    try:
        assert holder.stdout.readline().strip() == "locked"
        handle = start([*AGENT, "handle", f"notification_id: {NID}"], proc_env, tmp_path)
        wrapper = start([*KARAKURI, "command", NID, "conversation_reject", "{}"], proc_env, tmp_path)
        handled = handle.communicate(timeout=90)
        wrapped = wrapper.communicate(timeout=90)
    finally:
        holder.kill()
        holder.wait(timeout=10)
    out, err = handled
    assert handle.returncode == 0, handled
    assert out.splitlines()[-1] == FAILED
    [line] = err.splitlines()
    assert line.startswith("karakuri-agent: state_busy: the state file ") and "locked" in line
    assert "internal error" not in err and "OperationalError" not in err
    out, err = wrapped
    assert wrapper.returncode == 1, wrapped
    assert json.loads(out)["error"] == "state_busy" and "Traceback" not in err
    assert api.posts_for(NID) == []  # nothing was sent without the ledger

    # The lock released: the same notification is handled as usual, once.
    again = subprocess.run([*AGENT, "handle", f"notification_id: {NID}"], env=proc_env, cwd=tmp_path,
                           capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and again.stdout.splitlines()[-1] != FAILED, again
    assert len(api.posts_for(NID)) == 1
