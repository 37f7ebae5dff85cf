"""Everything from outside is shown as data (issue 28, 6): a name with a line break cannot forge a log line,
and no control character reaches the terminal or is said in town. Real processes against a loopback server."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys

import pytest

from testing.samples import API_KEY, CONVERSATION_REQUEST, SELF_ID
from karakuri_agent.terminal import is_control
from testing.loopback import running_api

NID = CONVERSATION_REQUEST["notification_id"]
AGENT = [sys.executable, "-c", "import sys; from karakuri_agent.app.cli import agent; sys.exit(agent())"]
FORGED = '\n2026-11-29 21:00:00 JST  notif-FORGED  ok transfer {"money": 99999}  → 受け付けました\n'
EVIL = f"メイ{FORGED}\x1b[2J\x07\x9b31m\u2028\u202e\x7f"
SAID = f"こんにちは{FORGED}\x1b]0;pwned\x07！\u2029"
REFUSAL = {"error": "invalid_request", "message": f"refused{FORGED}\x1b[31mred\x07\x85 line\u2029"}
FORGED_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d JST  notif-FORGED")
STAMPED = re.compile(rf"^\d{{4}}-\d\d-\d\d \d\d:\d\d:\d\d JST  {NID}  ")


def evil_notification() -> dict:
    value = copy.deepcopy(CONVERSATION_REQUEST)
    body = value["notification"]
    body["participants"][0]["name"] = EVIL
    body["conversation_messages"] = [{"speaker": EVIL, "message": SAID}]
    body["text"] = f"{EVIL} が話しかけています。\n「{SAID}」"
    return value


@pytest.fixture
def api():
    with running_api() as server:
        server.notifications[NID] = evil_notification()
        server.command_status, server.command_answer = 400, REFUSAL
        yield server


@pytest.fixture
def proc_env(api, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env.update(KARAKURI_API_BASE_URL=api.base_url, KARAKURI_API_KEY=API_KEY,
               KARAKURI_STATE_DIR=str(tmp_path / "state"), KARAKURI_SELF_AGENT_ID=SELF_ID)
    return env


def agent(env, cwd, *args):
    proc = subprocess.run([*AGENT, *args], env=env, cwd=cwd, capture_output=True, timeout=90)
    out, err = proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8")
    for text in (out, err):
        assert not [hex(ord(c)) for c in text.replace("\n", "") if is_control(c)], (args, text)
        assert not any(FORGED_LINE.match(line) for line in text.split("\n")), text
    return proc.returncode, out.split("\n")[:-1], err.split("\n")[:-1]


def test_a_name_line_and_server_message_full_of_controls_are_inert_in_every_output(api, proc_env, tmp_path):
    code, out, err = agent(proc_env, tmp_path, "handle", "--explain", f"notification_id: {NID}")
    assert code == 0
    assert len(err) == 1 and err[0].startswith("karakuri-agent: ")  # the server's refusal: one line
    assert "\\u001b[31mred\\u0007" in err[0]  # shown, escaped, not obeyed
    assert all(line.startswith("  ") for line in out[:-1])  # --explain's lines, then the report line
    [posted] = api.posts_for(NID)
    said = posted.get("params", {}).get("message", "")
    assert not any(is_control(c) for c in said) and "[2J" not in said and "[31m" not in said and "FORGED" not in said

    code, out, err = agent(proc_env, tmp_path, "log")
    # One line per entry (a run's rule trace indented under it), none forged.
    assert code == 0 and out and all(STAMPED.match(line) or line.startswith(" " * 25) for line in out), out

    code, out, err = agent(proc_env, tmp_path, "day")
    assert code == 0 and out and not any(line.startswith("2026-11-29 21:00:00 JST") for line in out)

    code, out, err = agent(proc_env, tmp_path, "log", "--json")  # the same JSON, its controls escaped
    assert code == 0 and any(SAID in json.dumps(entry, ensure_ascii=False) or entry for entry in
                             json.loads("\n".join(out)))


def test_doctor_shows_a_path_full_of_controls_as_data(proc_env, tmp_path):
    proc_env["KARAKURI_PERSONA_DIR"] = str(tmp_path / f"pack{FORGED}\x1b[2J")
    code, out, _ = agent(proc_env, tmp_path, "doctor")
    assert code == 1
    assert all(re.match(r"^(ok|warning|problem): |^\d+ problems?: ", line) for line in out), out
