"""The agent under test, driven by the town (testing/engine_town): in-process with the town's clock, or as processes.

Outside `testing/engine_town/` on purpose: the town and its metrics import
nothing of the agent, and everything that does is here.

Each driver takes one Discord message (a `Delivery`), hands its body to the
agent, and returns the exit code and what the agent printed as its decision
record (`AgentRun`). The town never reads the agent's state: the metrics use
the town's own log, and the exit code and report line as a person would see
them.

The clock. The agent reads "now" from its clock: for a promise's due time
(from the notification's `created_at`), for expiry, for how fresh what it
learned is. The town's clock runs minutes per notification, the wall clock
a fraction of a second, so an agent on the wall clock would live in a
different time from the town. So:

- `InProcessAgent` calls `karakuri_agent.app.cycle.handle(body, settings,
  clock=...)` with the town's time (for tests); `machine_skew` sets the
  agent's machine clock that far off the town's: the agent is to take the
  world's time from the server (`created_at`, the `Date` of the town's
  answers), so no decision may change;
- `HandleAgent`: the installed console script, `karakuri-agent handle
  "<body>" --json`, a new process per message. With `clock_start`, the
  agent's clock starts at the town's time (`--clock-start`) and then ticks in
  real time (as with libfaketime's `@` mode); without it, the agent runs on
  the machine's clock, months away from the world's, and must take the
  world's time from the server (CONTRACT §9). Nothing of the agent is patched;
- `ListenAgent`: one `karakuri-agent listen --stdin` for the whole run, one
  JSON line per message, one report line back per message with an id.
"""

from __future__ import annotations

import json
import os
import subprocess
import threading
import time
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any, Callable, Iterable

from karakuri_agent.town.core import iso
from karakuri_agent.town.entities import Delivery
from karakuri_agent.town.world import SELF_ID, SELF_NAME
from testing.processes import console_script, pycache_prefix


@dataclass
class AgentRun:
    """What one invocation of the agent ended with, as a person running it would see it."""

    delivery: Delivery
    record: dict[str, Any] | None
    exit_code: int = 0
    stderr: str = ""
    seconds: float = 0.0


def live(town: Any, agent: Callable[[Delivery], AgentRun], deliveries: int,
         progress: Callable[[AgentRun], None] | None = None) -> list[AgentRun]:
    """Deliver `deliveries` Discord messages one after another, each handled by the agent before the next."""
    runs = []
    for _ in range(deliveries):
        run = agent(town.next_delivery())
        runs.append(run)
        if progress:
            progress(run)
    return runs


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


def _environment(base_url: str, api_key: str, state_dir: Path, work_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = pycache_prefix(work_dir)
    env.update(agent_environment(base_url, api_key, state_dir))
    return env


class HandleAgent:
    def __init__(self, base_url: str, api_key: str, state_dir: Path, work_dir: Path, *, clock_start: bool = True,
                 timeout: float = 60.0) -> None:
        self.env = _environment(base_url, api_key, state_dir, work_dir)
        self.argv = console_script("karakuri-agent", "agent")
        self.work_dir, self.clock_start, self.timeout = work_dir, clock_start, timeout

    def __call__(self, delivery: Delivery) -> AgentRun:
        argv = [*self.argv, "handle", delivery.discord, "--json"]
        if self.clock_start:
            argv += ["--clock-start", iso(delivery.time)]
        started = time.perf_counter()
        done = subprocess.run(argv, env=self.env, cwd=self.work_dir, capture_output=True, text=True,
                              timeout=self.timeout)
        return AgentRun(delivery, _last_json(done.stdout), done.returncode, done.stderr[-2000:],
                        time.perf_counter() - started)


class ListenAgent:
    """One resident `listen --stdin` process; each message waits for its report line (or a short quiet spell)."""

    def __init__(self, base_url: str, api_key: str, state_dir: Path, work_dir: Path, *, timeout: float = 60.0) -> None:
        env = _environment(base_url, api_key, state_dir, work_dir)
        self.proc = subprocess.Popen([*console_script("karakuri-agent", "agent"), "listen", "--stdin"], env=env,
                                     cwd=work_dir, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.lines: list[str] = []
        self.arrived = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        self.timeout = timeout

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self.arrived:
                self.lines.append(line.rstrip("\n"))
                self.arrived.notify_all()

    def __call__(self, delivery: Delivery) -> AgentRun:
        assert self.proc.stdin is not None
        seen = len(self.lines)
        started = time.perf_counter()
        message = {"content": delivery.discord, "author_id": "world", "channel_id": "town",
                   "id": f"m{delivery.index}"}
        self.proc.stdin.write(json.dumps(message, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.lines) > seen or self.proc.poll() is not None,
                                  timeout=self.timeout)
        record: dict[str, Any] | None = {"report": self.lines[-1]} if len(self.lines) > seen else None
        return AgentRun(delivery, record, 0 if self.proc.poll() is None else self.proc.returncode,
                        "", time.perf_counter() - started)

    def close(self) -> int:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


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
