"""The agent under test, driven by the town: as real processes, or in-process with the town's clock.

This module lives outside `testing/town/` on purpose: the town and its
metrics import nothing of the agent (a test checks it), and everything that
does is here.

Both drivers take one Discord message (a `Delivery`), hand its body to the
agent, and return the exit code and what the agent printed as its decision
record. The town never reads the agent's state: the metrics use the town's
own log, and the exit code and report line as a person would see them.

The clock. The agent reads "now" from its clock: for a promise's due time
(from the notification's `created_at`), for expiry, for how fresh what it
learned is. The town's clock runs 10 minutes per notification, the wall
clock a fraction of a second, so an agent on the wall clock would live in a
different time from the town. So:

- `InProcessAgent` calls `karakuri_agent.app.cycle.handle(body, settings,
  clock=...)` with the town's time (for tests);
- `ProcessAgent` runs the real CLI entry point (`karakuri_agent.app.cli:agent`,
  which the `karakuri-agent` console script runs) as a new process per
  notification, `handle "<body>" --json --clock-start <town time>`: the
  agent's clock starts at the town's time and then ticks in real time (as
  with libfaketime's `@` mode). Nothing of the agent is patched.

`machine_skew` sets the agent's machine clock that far off the town's (an
hour ahead, five hours behind): the agent is to take the world's time from
the server (`created_at`, the `Date` of the town's answers), so no decision
may change.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path
from typing import Any, Iterable

from testing.processes import pycache_prefix
from testing.town.sim import AgentRun, Delivery, iso
from testing.town.world import SELF_ID, SELF_NAME

AGENT_CODE = "import sys; from karakuri_agent.app.cli import agent; sys.exit(agent(prog_name='karakuri-agent'))"


def agent_environment(base_url: str, api_key: str, state_dir: Path) -> dict[str, str]:
    """The agent's settings: the town's API, a private state directory, no webhook."""
    return {
        "KARAKURI_API_BASE_URL": base_url,
        "KARAKURI_API_KEY": api_key,
        "KARAKURI_STATE_DIR": str(state_dir),
        "KARAKURI_SELF_AGENT_ID": SELF_ID,
        "KARAKURI_SELF_NAME": SELF_NAME,
        "KARAKURI_GET_RETRY_BUDGET": "2",
    }


class ProcessAgent:
    """One real `karakuri-agent handle <body> --json` process per notification, one state directory."""

    def __init__(self, base_url: str, api_key: str, state_dir: Path, work_dir: Path, *,
                 python: str = sys.executable, timeout: float = 60.0, machine_skew: timedelta = timedelta(0)) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = pycache_prefix(work_dir)
        env.update(agent_environment(base_url, api_key, state_dir))
        self.env, self.work_dir, self.python, self.timeout = env, work_dir, python, timeout
        self.machine_skew = machine_skew

    def __call__(self, delivery: Delivery) -> AgentRun:
        started = time.perf_counter()
        done = subprocess.run([self.python, "-c", AGENT_CODE, "handle", delivery.discord, "--json",
                               "--clock-start", iso(delivery.time + self.machine_skew)], env=self.env,
                              cwd=self.work_dir, capture_output=True, text=True, timeout=self.timeout)
        seconds = time.perf_counter() - started
        return AgentRun(delivery, _last_json(done.stdout), done.returncode, done.stderr[-2000:], seconds)


class InProcessAgent:
    """`handle()` called directly with the town's clock: fast, for tests."""

    def __init__(self, base_url: str, api_key: str, state_dir: Path, *, extra_env: dict[str, str] | None = None,
                 machine_skew: timedelta = timedelta(0)) -> None:
        from karakuri_agent.app.config import load_settings

        self.machine_skew = machine_skew
        self.settings = load_settings({**agent_environment(base_url, api_key, state_dir), **(extra_env or {})},
                                      env_file=state_dir.parent / "town-no-such.env")

    def __call__(self, delivery: Delivery) -> AgentRun:
        from karakuri_agent.app.cycle import handle

        started = time.perf_counter()
        try:
            result = handle(delivery.discord, self.settings, clock=lambda: delivery.time + self.machine_skew)
        except Exception as exc:  # a crash or a refusal is a finding, not the end of the run
            from karakuri_agent.errors import KarakuriError

            code = getattr(exc, "exit_code", 1)  # the exit code the CLI would give it
            said = f"{type(exc).__name__}: {exc}"  # a crash is said as the CLI says it: see crashed()
            return AgentRun(delivery, None, code if isinstance(code, int) else 1,
                            said if isinstance(exc, KarakuriError) else f"internal error ({said})",
                            time.perf_counter() - started)
        return AgentRun(delivery, result.record(), 0, "", time.perf_counter() - started)


def crashed(runs: Iterable[AgentRun]) -> list[AgentRun]:
    """The runs in which the agent crashed (a bug), not refused or reported a fault: the CLI's
    `internal error (...)` line (InProcessAgent says the same), or a traceback."""
    return [r for r in runs if "internal error (" in r.stderr or "Traceback (most recent call last)" in r.stderr]


def _last_json(stdout: str) -> dict[str, Any] | None:
    for line in reversed(stdout.strip().splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    return None
