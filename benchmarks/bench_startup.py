"""Start-up of a one-shot `karakuri-agent handle` on a message with no notification id: whole processes.

Run from the repository root:

    .venv/bin/python benchmarks/bench_startup.py [--runs N] [--source DIR]

The message carries no id, so a run reads the settings and answers at once:
what is timed is interpreter start, imports and reading the settings, with
and without a `.env` in the working directory (python-dotenv is imported
only when there is one). `--source DIR` times the package in DIR instead
(another checkout, e.g. the previous version unpacked with `git archive`),
so two versions can be compared side by side on the same machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ENV_FILE = (
    "# a typical .env\n"
    "KARAKURI_API_BASE_URL=https://karakuri.example.com/api  # the world\n"
    "KARAKURI_API_KEY='bench-startup-key'\n"
    "KARAKURI_SELF_AGENT_ID=1470446478261747854\n"
    "KARAKURI_SELF_NAME=AIニケちゃん\n"
    "export KARAKURI_COOLDOWN_SECONDS=0\n"
)
AGENT = "import sys; from karakuri_agent.app.cli import agent; sys.exit(agent())"


def run_once(env: dict[str, str], cwd: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", AGENT, "handle", "hello, no id here"], env=env, cwd=cwd,
                          capture_output=True, text=True)
    elapsed = (time.perf_counter() - started) * 1000
    if done.returncode != 0:
        raise SystemExit(f"handle failed: {done.stderr.strip()}")
    return elapsed


def importtime(env: dict[str, str], cwd: Path, module: str) -> float:
    """Cumulative microseconds of `module` under -X importtime, in ms (0 when it was not imported)."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", AGENT, "handle", "hello"], env=env, cwd=cwd,
                          capture_output=True, text=True)
    for line in done.stderr.splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 3 and parts[2] == module:
            return int(parts[1]) / 1000
    return 0.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--source", type=Path, help="time the package in this directory instead")
    parser.add_argument("--smoke", action="store_true", help="1 run per case, no warm-up: seconds")
    args = parser.parse_args()
    if args.smoke:
        args.runs = 1
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    if args.source:
        env["PYTHONPATH"] = str(args.source.resolve())
    with tempfile.TemporaryDirectory() as scratch:
        bare, configured = Path(scratch) / "bare", Path(scratch) / "configured"
        bare.mkdir()
        configured.mkdir()
        (configured / ".env").write_text(ENV_FILE, encoding="utf-8")
        env["HOME"] = scratch
        print(f"karakuri-agent handle on a message with no id, {args.runs} runs each"
              f" (package: {args.source or 'installed'})")
        print(f"{'case':28} {'median_ms':>10} {'p90_ms':>8}  dotenv import ms")
        from_environment = {**env, "KARAKURI_API_BASE_URL": "https://karakuri.example.com/api",
                            "KARAKURI_API_KEY": "bench-startup-key"}
        for name, case_env, cwd in (("no .env (environment)", from_environment, bare),
                                    (".env of 6 lines", env, configured)):
            for _ in range(0 if args.smoke else 2):
                run_once(case_env, cwd)  # warm the bytecode and page caches
            samples = sorted(run_once(case_env, cwd) for _ in range(args.runs))
            p90 = samples[min(len(samples) - 1, int(0.9 * len(samples)))]
            print(f"{name:28} {statistics.median(samples):10.1f} {p90:8.1f}"
                  f"  {importtime(case_env, cwd, 'dotenv'):.1f}")


if __name__ == "__main__":
    main()
