"""A `.env` that cannot be read is an error for every command, never a setting silently left out (issue 28, 3 and 13).

Run as a user runs them: the installed programs in their own processes.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from testing.samples import BASE_URL, NID, SELF_ID

AGENT = "import sys; from karakuri_agent.app.cli import agent; sys.exit(agent())"
WRAPPER = "import sys; from karakuri_agent.app.cli import karakuri; sys.exit(karakuri())"
BODY = f"notification_id: {NID}"


@pytest.fixture
def user(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    # A server nobody listens on: no command may get as far as asking it.
    env.update(KARAKURI_API_BASE_URL="http://127.0.0.1:9/api", KARAKURI_API_KEY="k" * 20,
               KARAKURI_SELF_AGENT_ID=SELF_ID, KARAKURI_STATE_DIR=str(tmp_path / "state"))
    return env


def run(code, env, cwd, *args, stdin=""):
    proc = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=60)
    return proc.returncode, proc.stdout, proc.stderr


EVERY_COMMAND = [(AGENT, ["handle", BODY]), (AGENT, ["handle", "--dry-run", BODY]), (AGENT, ["log"]),
                 (AGENT, ["day"]), (AGENT, ["gc", "--keep-days", "3"]), (AGENT, ["listen", "--stdin"]),
                 (AGENT, ["persona", "skill"]), (WRAPPER, ["get_notification", NID]),
                 (WRAPPER, ["command", NID, "wait", "{}"])]


@pytest.mark.parametrize("code,args", EVERY_COMMAND, ids=[" ".join(a[:2]) for _, a in EVERY_COMMAND])
def test_an_unclosed_quote_in_dotenv_stops_every_command_with_one_line_naming_the_file_and_line(user, tmp_path,
                                                                                                 code, args):
    env_file = tmp_path / ".env"
    env_file.write_text(f"# the agent\nKARAKURI_API_BASE_URL={BASE_URL}\nKARAKURI_AGENT_DISABLED=\"1\n",
                        encoding="utf-8")
    status, out, err = run(code, user, tmp_path, *args)
    assert status == 2, (out, err)
    assert out == ""
    [line] = err.splitlines()
    assert f"{env_file}, line 3: not a NAME=value line" in line
    assert "Traceback" not in err and not (tmp_path / "state").exists()


def test_doctor_lists_the_bad_line_as_a_problem_and_reads_the_lines_around_it(user, tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text("KARAKURI_AGENT_DISABLED=\"1\nKARAKURI_COOLDOWN_SECONDS=ten\n", encoding="utf-8")
    status, out, err = run(AGENT, user, tmp_path, "doctor")
    assert status == 1, (out, err)
    problems = [line for line in out.splitlines() if line.startswith("problem: ")]
    assert f"problem: {env_file}, line 1: not a NAME=value line" in problems[0]
    assert any("KARAKURI_COOLDOWN_SECONDS" in line for line in problems)  # the next line was still read
    assert "a real run would work" not in out


@pytest.mark.process
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this system")
def test_a_fifo_as_karakuri_env_file_is_named_a_fifo_not_missing_and_nothing_blocks(user, tmp_path):
    fifo = tmp_path / "settings.env"
    os.mkfifo(fifo)
    user["KARAKURI_ENV_FILE"] = str(fifo)
    for args in (["handle", BODY], ["log"]):
        status, out, err = run(AGENT, user, tmp_path, *args)
        assert status == 2 and out == "", (out, err)
        [line] = err.splitlines()
        assert f"KARAKURI_ENV_FILE names {fifo}, which is a FIFO (named pipe), not a regular file" in line
    status, out, _ = run(AGENT, user, tmp_path, "doctor")
    assert status == 1 and "problem: KARAKURI_ENV_FILE names" in out and "FIFO" in out


def test_a_directory_named_dotenv_in_the_working_directory_is_said_to_be_a_directory(user, tmp_path):
    (tmp_path / ".env").mkdir()
    status, out, err = run(AGENT, user, tmp_path, "handle", BODY)
    assert status == 2 and out == ""
    [line] = err.splitlines()
    assert f"cannot read {tmp_path / '.env'}: it is a directory, not a regular file" in line
