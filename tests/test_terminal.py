"""What a person at a terminal sees, from real processes: a prompt for stdin, visible waits, `doctor`."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time

import pytest

from testing import loopback as lb
from testing.samples import API_KEY, CONVERSATION_REQUEST, SELF_ID

pytestmark = pytest.mark.process

AGENT = [sys.executable, "-c", "import sys; from karakuri_agent.app.cli import agent; sys.exit(agent())"]
NID = CONVERSATION_REQUEST["notification_id"]
DEMO01 = "AIニケちゃん への通知があります。notification_id: notif-demo01"


@pytest.fixture
def home(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_", "XDG_"))}
    env.update(HOME=str(tmp_path / "home"), KARAKURI_STATE_DIR=str(tmp_path / "state"), KARAKURI_SELF_AGENT_ID=SELF_ID)
    (tmp_path / "home").mkdir()
    return env


def read_until(fd: int, wanted: str, timeout: float = 60) -> str:
    """What the terminal showed, up to and including `wanted` (or everything by the deadline)."""
    seen = b""
    deadline = time.monotonic() + timeout
    while wanted.encode() not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
    return seen.decode("utf-8", "replace")


def test_handle_with_no_body_on_a_terminal_says_it_reads_stdin_and_then_does(home, tmp_path):
    master, slave = pty.openpty()
    proc = subprocess.Popen([*AGENT, "handle", "--dry-run", "--fixtures", "bundled"], stdin=slave,
                            stdout=subprocess.PIPE, stderr=slave, env=home, cwd=tmp_path)
    os.close(slave)
    try:
        shown = read_until(master, "Ctrl-D")
        assert "reading the message from standard input" in shown and "Ctrl-D" in shown
        os.write(master, DEMO01.encode() + b"\n\x04")
        out, _ = proc.communicate(timeout=60)
    finally:
        proc.kill()
        os.close(master)
    assert proc.returncode == 0
    assert out.decode().splitlines()[-1].endswith("予定です（ドライラン）。")


def test_a_retried_read_shows_a_waiting_line_on_a_terminal_and_none_in_a_pipe(home, tmp_path):
    with lb.running_api() as server:
        server.notifications[NID] = CONVERSATION_REQUEST
        home.update(KARAKURI_API_BASE_URL=server.base_url, KARAKURI_API_KEY=API_KEY)
        body = f"notification_id: {NID}"

        server.script["GET"] = [lb.status(503, {"error": "service_unavailable", "message": "busy"})]
        master, slave = pty.openpty()
        proc = subprocess.Popen([*AGENT, "handle", "--dry-run", body], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=slave, env=home, cwd=tmp_path)
        os.close(slave)
        try:
            shown = read_until(master, "try 2 of 4")
            out, _ = proc.communicate(timeout=60)
        finally:
            proc.kill()
            os.close(master)
        assert "karakuri-agent: still waiting for the server, try 2 of 4" in shown
        assert proc.returncode == 0 and "（ドライラン）" in out.decode()

        server.script["GET"] = [lb.status(503, {"error": "service_unavailable", "message": "busy"})]
        piped = subprocess.run([*AGENT, "handle", "--dry-run", body], capture_output=True, text=True, env=home,
                               cwd=tmp_path, timeout=60)
        assert piped.returncode == 0 and piped.stderr == ""


def test_doctor_against_a_real_server_process_accepts_the_key_with_one_read(home, tmp_path):
    with lb.running_api() as server:
        home.update(KARAKURI_API_BASE_URL=server.base_url, KARAKURI_API_KEY=API_KEY)
        done = subprocess.run([*AGENT, "doctor"], capture_output=True, text=True, env=home, cwd=tmp_path, timeout=60)
        assert done.returncode == 0, done.stdout
        assert [r.method for r in server.log] == ["GET"]
        assert "ok: server: the key was accepted" in done.stdout
        assert done.stdout.splitlines()[-1] == "a real run would work"

        server.script["GET"] = [lb.delay(3)]
        home["KARAKURI_HTTP_TIMEOUT"] = "0.5"
        slow = subprocess.run([*AGENT, "doctor"], capture_output=True, text=True, env=home, cwd=tmp_path, timeout=60)
        assert slow.returncode == 1 and "problem: server: slow:" in slow.stdout
        assert server.count("POST") == 0


def test_doctor_says_unreachable_for_a_closed_port(home, tmp_path):
    with lb.running_api() as server:
        url = server.base_url
    home.update(KARAKURI_API_BASE_URL=url, KARAKURI_API_KEY=API_KEY)
    done = subprocess.run([*AGENT, "doctor"], capture_output=True, text=True, env=home, cwd=tmp_path, timeout=60)
    assert done.returncode == 1 and "problem: server: unreachable:" in done.stdout


# -- Ctrl-C ------------------------------------------------------------------------------------
def interrupted_run(home, tmp_path, api, wait_for):
    import signal

    home.update(KARAKURI_API_BASE_URL=api.base_url, KARAKURI_API_KEY=API_KEY)
    proc = subprocess.Popen([*AGENT, "handle", f"notification_id: {NID}"], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=home, cwd=tmp_path)
    assert wait_for.wait(timeout=60)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def test_ctrl_c_while_fetching_abandons_the_run_with_a_report_a_line_and_exit_130(home, tmp_path):
    import sqlite3

    from karakuri_agent.report.line import INTERRUPTED
    from testing.loopback import running_api

    with running_api() as api:
        api.notifications[NID] = CONVERSATION_REQUEST
        api.get_released.clear()  # the GET is in flight when Ctrl-C comes
        try:
            code, out, err = interrupted_run(home, tmp_path, api, api.get_started)
        finally:
            api.get_released.set()
        assert code == 130
        assert out.splitlines() == [INTERRUPTED]
        [line] = err.splitlines()
        assert line.startswith("karakuri-agent: interrupted: stopped before anything was sent")
        assert api.posts == []
        db = tmp_path / "state" / "karakuri.db"
        assert not db.exists() or sqlite3.connect(db).execute("SELECT count(*) FROM attempts").fetchone() == (0,)

        # The notification was not spent: the next run acts on it, once.
        home.update(KARAKURI_API_BASE_URL=api.base_url, KARAKURI_API_KEY=API_KEY)
        again = subprocess.run([*AGENT, "handle", f"notification_id: {NID}"], capture_output=True, text=True,
                               env=home, cwd=tmp_path, timeout=60)
        assert again.returncode == 0 and len(api.posts) == 1


def test_ctrl_c_during_the_command_finishes_and_records_it_then_exits_130(home, tmp_path):
    import sqlite3

    from testing.loopback import running_api

    with running_api() as api:
        api.notifications[NID] = CONVERSATION_REQUEST
        api.hold_post_seconds = 1.5  # the command is on its way when Ctrl-C comes
        code, out, err = interrupted_run(home, tmp_path, api, api.post_started)
        assert code == 130
        assert len(api.posts) == 1
        [line] = err.splitlines()
        assert "interrupted: the command already on its way is finished and recorded first" in line
        report = out.splitlines()[-1]
        assert report.startswith("からくり: ") and "失敗" not in report and "止めました" not in report
        db = sqlite3.connect(tmp_path / "state" / "karakuri.db")
        assert db.execute("SELECT outcome FROM attempts").fetchall() == [("succeeded",)]


def test_ctrl_c_during_the_wrappers_command_finishes_and_records_it_then_exits_130(home, tmp_path):
    import json
    import signal
    import sqlite3

    from testing.loopback import running_api

    wrapper = [sys.executable, "-c", "import sys; from karakuri_agent.app.cli import karakuri; sys.exit(karakuri())"]
    with running_api() as api:
        api.notifications[NID] = CONVERSATION_REQUEST
        api.hold_post_seconds = 1.5
        home.update(KARAKURI_API_BASE_URL=api.base_url, KARAKURI_API_KEY=API_KEY)
        proc = subprocess.Popen([*wrapper, "command", NID, "conversation_reject", "{}"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=home, cwd=tmp_path)
        assert api.post_started.wait(timeout=60)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and len(api.posts) == 1
    assert json.loads(out)  # the server's answer, printed as usual
    assert "interrupted: the command already on its way is finished and recorded first" in err
    db = sqlite3.connect(tmp_path / "state" / "karakuri.db")
    assert db.execute("SELECT outcome FROM attempts").fetchall() == [("succeeded",)]
