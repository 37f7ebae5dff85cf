"""Modes only on what the program creates; the reading commands create and change nothing (issue 28, 7).

Real processes: `doctor`, `log`, `day` and `handle` on a state directory someone else made.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from testing.samples import CONVERSATION_REQUEST
from karakuri_agent.state.sqlite import db
from testing.loopback import running_api
from testing.processes import loopback_env

pytestmark = pytest.mark.process

NID = CONVERSATION_REQUEST["notification_id"]
AGENT = [sys.executable, "-c", "import sys; from karakuri_agent.app.cli import agent; sys.exit(agent())"]
READING = (["doctor"], ["log"], ["day"], ["log", "--json"], ["day", "--json"])


@pytest.fixture
def api():
    with running_api() as server:
        server.notifications[NID] = CONVERSATION_REQUEST
        yield server


@pytest.fixture
def proc_env(api, tmp_path):
    env = loopback_env(api.base_url, tmp_path / "state")
    return env


def agent(env, cwd, *args):
    return subprocess.run([*AGENT, *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=90)


def snapshot(directory: Path) -> dict[str, tuple[int, str]]:
    """Every entry in the directory: its mode and its content's digest."""
    return {p.name: (p.stat().st_mode, hashlib.sha256(p.read_bytes()).hexdigest()) for p in directory.iterdir()}


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_shared_1777_state_directory_keeps_its_mode_through_every_command(proc_env, tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    os.chmod(state, 0o1777)
    assert agent(proc_env, tmp_path, "handle", f"notification_id: {NID}").returncode == 0
    assert mode(state) == 0o1777
    assert mode(state / "karakuri.db") == 0o600  # what the program made is private
    before = snapshot(state)
    for args in READING:
        result = agent(proc_env, tmp_path, *args)
        assert result.returncode in (0, 1) and "internal error" not in result.stderr, (args, result.stderr)
        assert mode(state) == 0o1777, args
        assert snapshot(state) == before, args  # no -wal, no -shm, not a byte changed
    assert agent(proc_env, tmp_path, "handle", f"notification_id: {NID}").returncode == 0
    assert mode(state) == 0o1777


def test_a_new_state_directory_is_made_private(proc_env, tmp_path):
    assert agent(proc_env, tmp_path, "handle", f"notification_id: {NID}").returncode == 0
    assert mode(tmp_path / "state") == 0o700 and mode(tmp_path / "state" / "karakuri.db") == 0o600


def test_log_and_day_read_a_read_only_state_directory_and_leave_it_as_it_was(proc_env, tmp_path):
    state = tmp_path / "state"
    assert agent(proc_env, tmp_path, "handle", f"notification_id: {NID}").returncode == 0
    os.chmod(state / "karakuri.db", 0o444)
    os.chmod(state, 0o555)
    try:
        before = snapshot(state)
        log = agent(proc_env, tmp_path, "log")
        assert log.returncode == 0 and f"{NID}  received conversation_requested" in log.stdout, log.stderr
        day = agent(proc_env, tmp_path, "day")
        assert day.returncode == 0 and "1" in day.stdout.splitlines()[0], day.stderr
        assert snapshot(state) == before and mode(state) == 0o555
    finally:
        os.chmod(state, 0o700)


def test_log_reads_what_a_running_process_committed_but_did_not_checkpoint(proc_env, tmp_path):
    """A -wal beside the file (a listener keeps its connection open): read through it, not around it."""
    assert agent(proc_env, tmp_path, "handle", f"notification_id: {NID}").returncode == 0
    writer = sqlite3.connect(tmp_path / "state" / "karakuri.db", isolation_level=None)
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("INSERT INTO activity (created_at, notification_id, kind, notification_type)"
                       " VALUES ('2026-04-18T03:30:00+00:00', 'notif-still-in-the-wal', 'request', 'idle_reminder')")
        assert (tmp_path / "state" / "karakuri.db-wal").exists()
        log = agent(proc_env, tmp_path, "log")
        assert log.returncode == 0 and "notif-still-in-the-wal" in log.stdout, log.stderr
    finally:
        writer.close()


def test_an_older_versions_state_is_read_without_being_migrated(proc_env, tmp_path):
    state = tmp_path / "state"
    path = db.prepare_state_dir(state)
    old = sqlite3.connect(path, isolation_level=None)
    old.execute("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL,"
                " applied_at TEXT NOT NULL)")
    for version, name, apply in db.MIGRATIONS[:4]:
        apply(old)
        old.execute("INSERT INTO schema_migrations VALUES (?, ?, '2026-01-01')", (version, name))
    old.execute("INSERT INTO activity (created_at, notification_id, kind, notification_type)"
                " VALUES ('2026-04-18T03:00:00+00:00', 'notif-from-long-ago', 'request', 'idle_reminder')")
    old.close()
    before = snapshot(state)
    log = agent(proc_env, tmp_path, "log")
    assert log.returncode == 0 and "notif-from-long-ago" in log.stdout, log.stderr
    assert snapshot(state) == before
    assert agent(proc_env, tmp_path, "handle", f"notification_id: {NID}").returncode == 0  # a run migrates it
    versions = sqlite3.connect(path).execute("SELECT count(*) FROM schema_migrations").fetchone()[0]
    assert versions == len(db.MIGRATIONS)
