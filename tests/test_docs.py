"""The README and docs/ are true: every command in their shell blocks is run here, as a user runs it.

Each command line of a ```sh block is either run (in a shell, with the
installed programs, in a fresh home and working directory, against a loopback
server where it talks to one) and its documented answer checked, or listed in
NOT_RUN with the reason. A command added to the docs without either fails
`test_every_command_in_the_docs_is_run_or_says_why_not`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from testing import loopback as lb
from testing.samples import API_KEY, CONVERSATION_REQUEST, SELF_ID

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BIN = Path(sys.executable).parent
EXPIRED = "からくり: 通知の期限が切れていました。"

# Commands a test cannot run as written, and why (each checked elsewhere where it can be).
NOT_RUN = {
    "python3 -m venv .venv && .venv/bin/pip install": "installs the package (the suite runs in such an install)",
    ".venv/bin/pip install": "installs an extra (the suite's environment has them all)",
    "pip install": "installs an extra (the suite's environment has them all)",
    "git pull": "fetches a new version",
    ".venv/bin/python benchmarks/": "a benchmark (minutes; its short form is tests/test_town_behaviour.py)",
    "scripts/with-postgres.sh": "runs the suite itself against a throwaway PostgreSQL",
    ".venv/bin/python -m pytest -q -m": "runs a lane of the suite itself (tests/conftest.py names the lanes)",
    "ollama pull": "downloads a model",
    "karakuri-agent listen\n": "needs a Discord bot token (the bot is tested in tests/test_listen_discord.py)",
    "karakuri-agent state copy --to postgresql://karakuri:PASSWORD@db.example.net":
        "names an example database (state copy is tested on PostgreSQL in tests/test_postgres.py)",
    "karakuri-agent state copy --from postgresql://karakuri:PASSWORD@db.example.net":
        "names an example database (state copy is tested on PostgreSQL in tests/test_postgres.py)",
    "export KARAKURI_DATABASE_URL=": "sets a variable for the commands after it",
    "sudo systemctl": "needs systemd and root (the unit runs `listen`, tested in tests/test_listen*.py)",
    "journalctl": "needs systemd",
    "KARAKURI_LLM_BASE_URL=http://localhost:8080/v1": "needs a model server on localhost:8080 (demo --decider llm is"
                                                      " run against a scripted model in tests/test_llm_requests.py)",
    "cd /home/karakuri/agent && sudo -u karakuri": "needs the systemd set-up's user (`log` itself is run above)",
    "karakuri-agent town --pack ~/tama": "docs/town.md's walkthrough needs its pack: run in order, with the pack"
                                         " the page shows, by tests/test_town_command.py",
    "KARAKURI_STATE_DIR=/tmp/tama-life": "docs/town.md's walkthrough (tests/test_town_command.py)",
    "KARAKURI_ENV_FILE=nike.env karakuri-agent day": "needs docs/fleet.md's env files (`day` itself is run above)",
    "karakuri-agent doctor --fleet fleet.toml": "needs docs/fleet.md's fleet (run on a fleet of its own by"
                                                " tests/test_fleet.py)",
    "karakuri-agent listen --fleet fleet.toml": "needs docs/fleet.md's fleet (run on a fleet of its own by"
                                                " tests/test_fleet.py)",
    ".venv/bin/lint-imports && .venv/bin/mypy": "the shape checks CI runs before the suite (.ci/run); tests/test_layers.py"
                                               " holds the same rooms from the source",
}


def shell_commands(path: Path) -> list[str]:
    """Every command line of the file's ```sh blocks (not the .env lines some blocks show)."""
    found = []
    for block in re.findall(r"```(?:sh|bash)\n(.*?)```", path.read_text(encoding="utf-8"), re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = " ".join(re.sub(r"\s+#\s.*$", "", line).split())
            if not line or line.startswith("#"):
                continue
            if re.match(r"[A-Z_][A-Z0-9_]*=", line) and " " not in line.partition("=")[2].split("#")[0].strip() \
                    and "karakuri-agent" not in line:
                continue  # a line of .env, shown in a shell block
            found.append(line)
    return found


def not_run(command: str) -> str | None:
    return next((why for start, why in NOT_RUN.items() if (command + "\n").startswith(start)), None)


@pytest.fixture
def user(tmp_path):
    """A fresh user: a home, a working directory, the installed programs on PATH, no settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_", "XDG_"))}
    (tmp_path / "home").mkdir()
    (tmp_path / "work").mkdir()
    env.update(HOME=str(tmp_path / "home"), PATH=f"{BIN}:/usr/bin:/bin")
    return env, tmp_path / "work"


def sh(command: str, env: dict[str, str], cwd: Path, tmp: Path) -> subprocess.CompletedProcess[str]:
    """The command as the docs show it, with `.venv/bin/` the suite's own and /tmp paths made private."""
    command = command.replace(".venv/bin/", f"{BIN}/").replace("/tmp/karakuri-demo", str(tmp / "karakuri-demo"))
    return subprocess.run(["bash", "-c", command], env=env, cwd=cwd, capture_output=True, text=True, timeout=180)


def commands_of(name: str) -> list[str]:
    return [c for c in shell_commands(ROOT / name) if not_run(c) is None]


def test_every_command_in_the_docs_is_run_or_says_why_not():
    run_here = set(RUN)
    missing = [(path.name, c) for path in DOCS for c in shell_commands(path) if not_run(c) is None
               and c not in run_here]
    assert missing == [], "a command in the docs that no test runs"


# The documented answer of each command run: (exit code, a piece of stdout, a piece of stderr).
RUN: dict[str, tuple[int, str, str]] = {
    "echo 'notification_id: notif-demo01' | .venv/bin/karakuri-agent handle --dry-run --fixtures bundled":
        (0, "予定です（ドライラン）。", ""),
    "echo 'notification_id: notif-demo01' | .venv/bin/karakuri-agent handle --fixtures bundled"
    " --at 2026-04-18T05:00:00Z": (0, EXPIRED, "notification_expired"),
    # The recording holds one notification that expired before it was handled: said on stderr.
    ".venv/bin/karakuri-agent demo --state-dir /tmp/karakuri-demo >/dev/null": (0, "", "notification_expired"),
    "KARAKURI_STATE_DIR=/tmp/karakuri-demo .venv/bin/karakuri-agent log": (0, "JST  notif-demo04  report からくり: ", ""),
    "karakuri-agent doctor": (0, "a real run would work", ""),
    "printf '%s' \"$MESSAGE_BODY\" | karakuri-agent handle": (0, "からくり: 会話の誘いを確認。", ""),
    "echo '{\"content\": \"notification_id: notif-demo01\", \"id\": \"1\"}' | karakuri-agent listen --stdin"
    " --fixtures bundled": (0, "からくり: ログイン通知を確認。", "outcome=succeeded"),
    "karakuri-agent listen --stdin < messages.jsonl": (0, "からくり: 会話の誘いを確認。", "outcome=succeeded"),
    # A fresh user has handled nothing yet: the day is shown empty, and why (nothing is created).
    "karakuri-agent day --html ~/today.html": (0, "(Asia/Tokyo)", "no state yet"),
    "karakuri-agent day": (0, "(Asia/Tokyo)", "no state yet"),
    "karakuri-agent day --date 2026-11-29": (0, "2026-11-29 (Asia/Tokyo)", "no state yet"),
    "karakuri-agent day --json": (0, '"date": ', "no state yet"),
    "karakuri-agent day --html today.html": (0, "(Asia/Tokyo)", "no state yet"),
    "karakuri-agent persona init mypack --name タロウ": (0, "wrote mypack/persona.json", ""),
    "karakuri-agent persona check mypack": (0, "mypack: ok", ""),
    # The state the commands above lived in is the bundled character's: its closeness is not mypack's.
    "karakuri-agent persona check mypack --state": (0, "mypack: the state holds variable 'closeness'", ""),
    "karakuri-agent persona skill mypack --agent-id 123": (0, "タロウ", ""),
}


def check(command: str, done: subprocess.CompletedProcess[str]) -> None:
    code, out, err = RUN[command]
    assert done.returncode == code, (command, done.stdout, done.stderr)
    assert out in done.stdout, (command, done.stdout)
    assert err in done.stderr if err else done.stderr == "", (command, done.stderr)


def test_the_readmes_commands_work_as_it_says(user, tmp_path):
    env, cwd = user
    nid = CONVERSATION_REQUEST["notification_id"]
    with lb.running_api() as server:
        server.notifications[nid] = CONVERSATION_REQUEST
        # "Setting up a real agent": a .env in the working directory, as step 2 writes it.
        real = {"KARAKURI_API_BASE_URL": server.base_url, "KARAKURI_API_KEY": API_KEY,
                "KARAKURI_SELF_AGENT_ID": SELF_ID, "KARAKURI_SELF_NAME": "AIニケちゃん",
                "KARAKURI_STATE_DIR": str(tmp_path / "state")}
        for command in commands_of("README.md"):
            if "karakuri-agent doctor" in command or "MESSAGE_BODY" in command:
                (cwd / ".env").write_text("".join(f"{k}={v}\n" for k, v in real.items()), encoding="utf-8")
                done = sh(command, {**env, "MESSAGE_BODY": f"🔔 notification_id: {nid}"}, cwd, tmp_path)
            else:
                (cwd / ".env").unlink(missing_ok=True)
                done = sh(command, env, cwd, tmp_path)
            check(command, done)
        assert len(server.posts_for(nid)) == 1  # the forwarded message acted once; doctor only read


def test_the_docs_commands_work_as_they_say(user, tmp_path):
    env, cwd = user
    nid = CONVERSATION_REQUEST["notification_id"]
    with lb.running_api() as server:
        server.notifications[nid] = CONVERSATION_REQUEST
        env = {**env, "KARAKURI_API_BASE_URL": server.base_url, "KARAKURI_API_KEY": API_KEY,
               "KARAKURI_STATE_DIR": str(tmp_path / "state")}
        (cwd / "messages.jsonl").write_text(json.dumps({"content": f"notification_id: {nid}", "id": "7"}) + "\n")
        ran = 0
        for path in DOCS[1:]:
            for command in commands_of(f"docs/{path.name}"):
                check(command, sh(command, env, cwd, tmp_path))
                ran += 1
    assert ran >= 5


def test_the_report_examples_the_demo_prints_are_its_own_lines(user, tmp_path):
    """docs/report.md: the first examples are lines of the bundled demo, word for word."""
    env, cwd = user
    text = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    examples = re.search(r"Examples:.*?```\n(.*?)```", text, re.S).group(1).splitlines()
    demo = sh("karakuri-agent demo", env, cwd, tmp_path).stdout.splitlines()
    assert "the first thirteen are lines the bundled demo prints" in text
    assert [line for line in examples[:13] if line not in demo] == []
    assert len(examples) > 13 and all(line.startswith("からくり: ") for line in examples)


def test_a_clone_without_the_ci_only_texts_runs_quietly_and_says_why_in_the_summary(tmp_path):
    """No banner, no failure: the cases that need the real server texts skip with one reason."""
    clone = tmp_path / "clone"
    (clone / "tests").mkdir(parents=True)
    for name in ("conftest.py", "test_trigger.py"):
        (clone / "tests" / name).write_text((ROOT / "tests" / name).read_text(encoding="utf-8"), encoding="utf-8")
    (clone / "testing").symlink_to(ROOT / "testing")
    (clone / "tests" / "data").symlink_to(ROOT / "tests" / "data")
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-ra", "-p", "no:cacheprovider",
                           "tests/test_trigger.py"], cwd=clone, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    assert "MISSING" not in done.stdout and "!!!!" not in done.stdout
    assert "provided by CI only" in done.stdout and "skipped" in done.stdout


def test_the_readmes_walkthrough_commands_in_the_prose_work(user, tmp_path):
    """"Bring your own character" and the closed pipe, in the order the README gives them."""
    env, cwd = user
    wanted = {
        "karakuri-agent persona init ~/taro --name タロウ": "wrote",
        "karakuri-agent persona check ~/taro": "taro: ok",
        "KARAKURI_PERSONA_DIR=~/taro karakuri-agent demo": "タロウ",
        "karakuri-agent persona skill ~/taro --agent-id 1470446478261747854 > SKILL.md": "",
        "karakuri-agent demo | head -2": "▶ ",
    }
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [c for c in wanted if f"`{c}`" not in readme] == []
    for command, out in wanted.items():
        done = sh(f"set -o pipefail; {command}", env, cwd, tmp_path)
        assert done.returncode == 0 and out in done.stdout and "Traceback" not in done.stderr, (command, done.stderr)
    assert "タロウ" in (cwd / "SKILL.md").read_text(encoding="utf-8")
