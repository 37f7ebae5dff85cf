"""Timing whole processes: what the per-message benchmarks have in common.

An agent is run once per Discord message, so its cost is a whole process:
interpreter start, imports, settings, the SQLite state and the HTTP round
trips. These helpers start children the same way in every benchmark.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

from testing.samples import API_KEY, SELF_ID


def console_script(name: str, entry: str) -> list[str]:
    """The installed console script `name`, or the same entry point (`karakuri_agent.app.cli:<entry>`) through python -c."""
    script = Path(sys.executable).parent / name
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", f"import sys; from karakuri_agent.app.cli import {entry}; sys.exit({entry}())"]


def pycache_prefix(work_dir: Path) -> str:
    """Where a child keeps its bytecode: the inherited PYTHONPYCACHEPREFIX, else one in `work_dir`.

    Either is out of the source tree. An inherited one (benchmarks/smoke.py
    gives each benchmark the run's) keeps the package compiled across
    benchmarks, so no child's first start pays for compiling it.
    """
    return os.environ.get("PYTHONPYCACHEPREFIX") or str(work_dir / "pycache")


def child_env(base_url: str, work_dir: Path, state_dir: Path) -> dict[str, str]:
    """A clean environment for the child processes.

    Inherited KARAKURI_* / DISCORD_* settings are dropped (no webhook, no
    persona or world file). Bytecode caching is switched on with a private
    cache directory: a wheel install ships compiled .pyc files, so a run that
    recompiles the package every time would not be representative, and the
    prefix keeps the .pyc files out of the source tree.
    """
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(
        PYTHONPYCACHEPREFIX=pycache_prefix(work_dir),
        KARAKURI_API_BASE_URL=base_url,
        KARAKURI_API_KEY=API_KEY,
        KARAKURI_STATE_DIR=str(state_dir),
        KARAKURI_SELF_AGENT_ID=SELF_ID,
    )
    return env


def run_once(argv: list[str], env: dict[str, str], cwd: Path) -> float:
    """Run one process to completion; its wall time in ms. A failing process stops the benchmark."""
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
    elapsed_ms = (time.perf_counter() - start) * 1000
    if proc.returncode != 0:
        sys.exit(f"benchmark aborted: {argv[-3:]} exited {proc.returncode}\n{proc.stdout}{proc.stderr}")
    return elapsed_ms


def measure(argv_for: Callable[[int], list[str]], runs: int, env: dict[str, str], cwd: Path,
            warmup: int = 2) -> list[float]:
    """Warm up (bytecode and page caches), then time `runs` processes; `argv_for(i)` builds the i-th command line."""
    for i in range(warmup):
        run_once(argv_for(i), env, cwd)
    return [run_once(argv_for(warmup + i), env, cwd) for i in range(runs)]


def import_costs(code: str, env: dict[str, str], cwd: Path, top: int = 10) -> list[dict[str, Any]]:
    """The `top` modules by cumulative import time of `code`, from `python -X importtime` (warm cache)."""
    argv = [sys.executable, "-X", "importtime", "-c", code]
    subprocess.run(argv, env=env, cwd=cwd, capture_output=True, check=True)  # warm the bytecode cache
    stderr = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True, check=True).stderr
    rows = []
    # Lines look like: "import time:       123 |       4567 |   package.module" (nesting shown by indent).
    for line in stderr.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, cumulative_us, module = line.removeprefix("import time:").split("|")
        rows.append({"module": module.strip(), "self_ms": int(self_us) / 1000,
                     "cumulative_ms": int(cumulative_us) / 1000})
    rows.sort(key=lambda row: row["cumulative_ms"], reverse=True)
    return rows[:top]


def loopback_env(base_url: str, state_dir: Path) -> dict[str, str]:
    """This process's environment for a child agent run against a loopback server: none of the
    caller's KARAKURI_/DISCORD_ settings, the test key and agent id, and a private state directory."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env.update(KARAKURI_API_BASE_URL=base_url, KARAKURI_API_KEY=API_KEY,
               KARAKURI_STATE_DIR=str(state_dir), KARAKURI_SELF_AGENT_ID=SELF_ID)
    return env
