"""`karakuri-agent -v` logs one line per notification to stderr; without it a run says nothing there."""

from __future__ import annotations

import subprocess
import sys

import pytest

from karakuri_agent.app.fixtures import bundled_fixtures_dir

AGENT = [sys.executable, "-c", "import sys; from karakuri_agent.app.cli import agent; sys.exit(agent())"]
MESSAGE = "AIニケちゃん への通知があります。notification_id: notif-demo01"


def run_agent(tmp_path, *flags: str) -> subprocess.CompletedProcess[str]:
    # No .env in the working directory (tmp_path): the environment only.
    env = {"PATH": "/usr/bin:/bin", "KARAKURI_STATE_DIR": str(tmp_path / "state"), "KARAKURI_SELF_NAME": "AIニケちゃん"}
    before, after = (flags, ()) if "--after" not in flags else ((), tuple(f for f in flags if f != "--after"))
    return subprocess.run([*AGENT, *before, "handle", *after, "--fixtures", str(bundled_fixtures_dir()),
                           "--clock-start", "2026-04-18T03:10:05Z", MESSAGE],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)  # a slow, shared machine


@pytest.mark.parametrize("flags", [("-v",), ("--after", "-v")], ids=["before", "after the subcommand"])
def test_verbose_logs_one_line_with_id_decision_outcome_and_time(tmp_path, flags):
    done = run_agent(tmp_path, *flags)
    assert done.returncode == 0, done.stderr
    [line] = done.stderr.splitlines()
    assert "notif-demo01" in line and "decision=" in line and "decision=none" not in line
    assert "outcome=succeeded" in line and line.endswith(" ms")
    assert done.stdout.strip().splitlines()[-1].startswith("からくり: ")


def test_a_one_shot_run_is_silent_on_stderr_by_default(tmp_path):
    done = run_agent(tmp_path)
    assert done.returncode == 0 and done.stderr == ""
