"""The installed programs run by tests as a user runs them: their command lines, a clean environment, one run.

Tests that need a whole process (exit codes, signals, what a bot sees on
stdout and stderr) start it through these, against a loopback server
(testing/loopback.py) or a fixtures directory; the fixtures that hand them a
server and an environment are in tests/conftest.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from karakuri_agent.app.doctor import PROBE_ID
from testing.samples import API_KEY, BASE_URL, CONVERSATION_REQUEST, SELF_ID

# `karakuri-agent` and `karakuri`, through this interpreter (installed or not).
AGENT = [sys.executable, "-c", "import sys; from karakuri_agent.app.cli import agent; sys.exit(agent())"]
KARAKURI = [sys.executable, "-c", "import sys; from karakuri_agent.app.cli import karakuri; sys.exit(karakuri())"]
NID = CONVERSATION_REQUEST["notification_id"]
# What `doctor` asks the server for: a made-up notification, never an action.
PROBE_URL = f"{BASE_URL}/agents/notifications/{PROBE_ID}"
# The first message of the bundled recorded session.
DEMO01 = "AIニケちゃん への通知があります。notification_id: notif-demo01"


def clean_env(home: Path) -> dict[str, str]:
    """A user with no configuration at all: none of the caller's KARAKURI_/DISCORD_/XDG_ settings, HOME and
    the data dir inside `home` (created)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_", "XDG_"))}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"))
    home.mkdir(parents=True, exist_ok=True)
    return env


def agent_env(api: Any, tmp_path: Path, **extra: str) -> dict[str, str]:
    """A configured agent against the loopback `api` (its key, id and a private state directory)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env.update(KARAKURI_API_BASE_URL=api.base_url, KARAKURI_API_KEY=API_KEY,
               KARAKURI_STATE_DIR=str(tmp_path / "state"), KARAKURI_SELF_AGENT_ID=SELF_ID, **extra)
    return env


def run_agent(env: dict[str, str], *args: str, cwd: Path, stdin: str | None = None,
              stdout: Any = subprocess.PIPE) -> tuple[int, str, str]:
    """`karakuri-agent ARGS` to its end: (exit code, stdout, stderr)."""
    proc = subprocess.run([*AGENT, *args], env=env, cwd=cwd, input=stdin, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120)
    return proc.returncode, proc.stdout or "", proc.stderr


def run_handle(env: dict[str, str], body: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """`karakuri-agent handle BODY` to its end."""
    return subprocess.run([*AGENT, "handle", body], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=120)  # generous: a cold interpreter on a loaded machine


def last_record(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    """The `--json` record a run printed last (the run must have exited 0)."""
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return record


def invoke(program: Any, *args: str, stdin: str | None = None) -> Any:
    """A click program (`karakuri_agent.app.cli.agent` or `karakuri`) run in this process: its click Result."""
    from click.testing import CliRunner

    return CliRunner().invoke(program, list(args), input=stdin)


def doctor_lines() -> tuple[int, list[str]]:
    """`karakuri-agent doctor` in this process: its exit code and lines."""
    from karakuri_agent.app.cli import agent

    result = invoke(agent, "doctor")
    return result.exit_code, result.stdout.splitlines()


# -- listen's messages: one JSON line each, from the world's author in the agent's channel
WORLD, CHANNEL = "555000111", "777000222"


def body(notification_id: str) -> str:
    """A Discord message carrying `notification_id`."""
    return f"🔔 桜草メイ が話しかけています。\nnotification_id: {notification_id}"


def notification(notification_id: str, *, expires_at: str = "2099-11-29T12:10:00.000Z") -> dict[str, Any]:
    """The sample notification under another id (and expiry)."""
    value = json.loads(json.dumps(CONVERSATION_REQUEST))
    value.update(notification_id=notification_id, expires_at=expires_at)
    return value


def listen_line(nid: str | None, message_id: str, **extra: str) -> str:
    """One `listen --stdin` line: the message carrying `nid` (or people chatting) from the world's author."""
    content = body(nid) if nid else "桜草メイ: みんなおはよう！"
    return json.dumps({"content": content, "author_id": WORLD, "channel_id": CHANNEL, "id": message_id, **extra},
                      ensure_ascii=False) + "\n"
