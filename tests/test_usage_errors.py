"""A command line the programs cannot take is one line on stderr and exit 2, in both programs (issue 28, 13)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from karakuri_agent.app.cli import agent, karakuri

PROGRAMS = {"karakuri-agent": "agent", "karakuri": "karakuri"}


def run(program, *args, cwd):
    code = f"import sys; from karakuri_agent.app.cli import {PROGRAMS[program]}; sys.exit({PROGRAMS[program]}())"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env["KARAKURI_STATE_DIR"] = str(cwd / "state")
    return subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=60)


CASES = [
    ("karakuri-agent", ["day", "--html", "."], "Invalid value for '--html'", "karakuri-agent day --help"),
    ("karakuri-agent", ["log", "-n", "0"], "0 is not in the range", "karakuri-agent log --help"),
    ("karakuri-agent", ["handle", "--bogus"], "No such option '--bogus'", "karakuri-agent handle --help"),
    ("karakuri-agent", ["nosuch"], "No such command 'nosuch'", "karakuri-agent --help"),
    ("karakuri-agent", ["gc"], "Missing option '--keep-days'", "karakuri-agent gc --help"),
    ("karakuri-agent", ["state", "copy", "--zzz"], "No such option '--zzz'", "karakuri-agent state copy --help"),
    ("karakuri", ["command"], "Missing argument 'NOTIFICATION_ID'", "karakuri command --help"),
    ("karakuri", ["get_notification", "a", "b"], "Got unexpected extra argument", "karakuri get_notification --help"),
]


@pytest.mark.parametrize("program,args,says,see", CASES, ids=[" ".join([p, *a]) for p, a, _, _ in CASES])
def test_a_usage_error_is_one_line_naming_the_program_and_where_help_is_and_exit_2(tmp_path, program, args, says, see):
    proc = run(program, *args, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == ""
    [line] = proc.stderr.splitlines()
    assert line.startswith(f"{program}: error: ") and says in line and f"(see `{see}`)" in line
    assert not (tmp_path / "state").exists()


def test_a_bare_program_still_shows_its_help(tmp_path):
    proc = run("karakuri", cwd=tmp_path)
    assert "Usage: " in proc.stdout + proc.stderr and "get_notification" in proc.stdout + proc.stderr


COMMANDS = [(agent, []), (agent, ["handle"]), (agent, ["log"]), (agent, ["day"]), (agent, ["doctor"]),
            (agent, ["gc"]), (agent, ["persona", "check"]), (agent, ["rules"]), (agent, ["state", "copy"]),
            (karakuri, ["command"]), (karakuri, ["get_notification"])]
OPTION = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=12)


@settings(max_examples=120, deadline=None)
@given(which=st.sampled_from(COMMANDS), option=OPTION, value=st.none() | st.text(max_size=8))
def test_any_unknown_option_on_any_command_is_exactly_one_line_and_exit_2(which, option, value):
    program, path = which
    option = "--x" + option.replace("=", "")
    if option in ("--x-help",):
        return
    args = [*path, option] + ([value] if value is not None else [])
    result = CliRunner().invoke(program, args)
    assert result.exit_code == 2, result.output
    [line] = result.stderr.splitlines()
    assert ": error: No such option" in line
