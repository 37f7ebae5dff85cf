"""`karakuri-agent town --days N`: how long a character's life in the offline town takes, as a whole process.

Run from the repository root:

    .venv/bin/python benchmarks/bench_town.py [--days 3] [--seeds 1 2 3] [--pack DIR]
    .venv/bin/python benchmarks/bench_town.py --smoke    # one day of one seed, nothing saved (benchmarks/smoke.py)

Each seed is one run of the installed console script (`karakuri-agent town
--days N --seed S --json`) in a clean environment (no KARAKURI_* variable, a
temporary working directory): start-up, the town, every notification through
the real cycle and its SQLite state, the summary. It prints the wall time,
the CPU time (user + system) of the process, the notifications the
character handled and the wall time per notification. On a shared machine
the CPU time is the steadier number.
Aim: a three-day life in seconds. Results are saved to
benchmarks/results/bench_town.json (gitignored).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing import smoke  # noqa: E402
from testing.processes import console_script  # noqa: E402


def run(days: int, seed: int, pack: str | None, work: Path) -> dict[str, float | int]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    argv = [*console_script("karakuri-agent", "agent"), "town", "--days", str(days), "--seed", str(seed), "--json"]
    if pack:
        argv += ["--pack", pack]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, cwd=work, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        sys.exit(f"seed {seed}: exit {done.returncode}: {done.stderr.strip()}")
    notifications = sum(d["notifications"] for d in json.loads(done.stdout)["days"])
    return {"seed": seed, "seconds": round(seconds, 2), "cpu_seconds": round(cpu, 2), "notifications": notifications,
            "ms_per_notification": round(seconds * 1000 / max(1, notifications), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--days", type=int, default=3)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--pack", default=None)
    parser.add_argument("--smoke", action="store_true", help="one day of one seed, no warm-up, nothing saved")
    args = parser.parse_args()
    if args.smoke:
        args.days, args.seeds = 1, args.seeds[:1]
    with tempfile.TemporaryDirectory(prefix="bench-town-") as scratch:
        work = Path(scratch)
        if not args.smoke:
            run(1, args.seeds[0], args.pack, work)  # warm-up: bytecode cache
        rows = [run(args.days, seed, args.pack, work) for seed in args.seeds]
    print(f"karakuri-agent town --days {args.days} ({os.cpu_count()} CPUs, Python {platform.python_version()})")
    print(f"{'seed':>5} {'seconds':>8} {'cpu s':>6} {'notifications':>14} {'ms each':>8}")
    for row in rows:
        print(f"{row['seed']:>5} {row['seconds']:>8} {row['cpu_seconds']:>6} {row['notifications']:>14}"
              f" {row['ms_per_notification']:>8}")
    if args.smoke:
        smoke.require((all(row["notifications"] > 0 for row in rows), "the character handled no notification"))
        return
    out = ROOT / "benchmarks" / "results"
    out.mkdir(exist_ok=True)
    (out / "bench_town.json").write_text(json.dumps({"days": args.days, "rows": rows}, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
