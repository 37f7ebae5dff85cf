"""`karakuri-agent -v` logs one line per notification to stderr; without it a run says nothing there."""

from __future__ import annotations

import subprocess
import sys

from karakuri_agent.fixtures import bundled_fixtures_dir

AGENT = [sys.executable, "-c", "import sys; from karakuri_agent.cli import agent; sys.exit(agent())"]
MESSAGE = "AIニケちゃん への通知があります。notification_id: notif-demo01"


def run_agent(tmp_path, *flags: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "KARAKURI_STATE_DIR": str(tmp_path / "state"),
           "KARAKURI_ENV_FILE": str(tmp_path / "no.env"), "KARAKURI_SELF_NAME": "AIニケちゃん"}
    return subprocess.run([*AGENT, *flags, "handle", "--fixtures", str(bundled_fixtures_dir()),
                           "--clock-start", "2026-04-18T03:10:05Z", MESSAGE],
                          env=env, capture_output=True, text=True, timeout=120)  # a slow, shared machine


def test_verbose_logs_one_line_with_id_decision_outcome_and_time(tmp_path):
    done = run_agent(tmp_path, "-v")
    assert done.returncode == 0, done.stderr
    [line] = done.stderr.splitlines()
    assert "notif-demo01" in line and "decision=" in line and "decision=none" not in line
    assert "outcome=succeeded" in line and line.endswith(" ms")
    assert done.stdout.strip().splitlines()[-1].startswith("からくり: ")


def test_a_one_shot_run_is_silent_on_stderr_by_default(tmp_path):
    done = run_agent(tmp_path)
    assert done.returncode == 0 and done.stderr == ""
