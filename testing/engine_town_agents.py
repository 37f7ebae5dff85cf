"""The agent under test, driven by the engine town: `karakuri-agent handle` per message, or one `listen --stdin`.

Outside `testing/engine_town/` on purpose: the town and its metrics import
nothing of the agent. The settings, the in-process driver and the record
reader are `testing/town_agents.py`'s; this module adds the two process
drivers the engine town's benchmark uses:

- `HandleAgent`: the installed console script, `karakuri-agent handle
  "<body>" --json`, a new process per message. With `clock_start`, the
  agent's clock starts at the town's time (`--clock-start`); without it, the
  agent runs on the machine's clock, months away from the world's, and must
  take the world's time from the server (CONTRACT §9);
- `ListenAgent`: one `karakuri-agent listen --stdin` for the whole run, one
  JSON line per message, one report line back per message with an id.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from karakuri_agent.town.entities import Delivery
from karakuri_agent.town.core import iso
from testing.processes import console_script, pycache_prefix
from testing.town.sim import AgentRun
from testing.town_agents import InProcessAgent, _last_json, agent_environment

__all__ = ["HandleAgent", "InProcessAgent", "ListenAgent"]


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
        return AgentRun(delivery, _last_json(done.stdout), done.returncode, done.stderr[-2000:],  # type: ignore[arg-type]
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
        return AgentRun(delivery, record, 0 if self.proc.poll() is None else self.proc.returncode,  # type: ignore[arg-type]
                        "", time.perf_counter() - started)

    def close(self) -> int:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return self.proc.wait()


if __name__ == "__main__":  # pragma: no cover - a manual smoke run
    sys.exit("run benchmarks/bench_engine_town.py")
