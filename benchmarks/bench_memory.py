"""A life across days: facts told on day 1 brought back on days 2-3, closeness, in the simulated town.

Run from the repository root:

    .venv/bin/python benchmarks/bench_memory.py --in-process                 # 20 towns (seeds 1..20), 3 days
    .venv/bin/python benchmarks/bench_memory.py --seeds 40 --seed 300 --messages 180
    .venv/bin/python benchmarks/bench_memory.py --smoke                      # 1 town, 1 message a day, nothing saved

Each town (testing/town/) runs three in-world days of `--messages / 3`
notifications each, the clock jumping to 10:00 of the next day in between.
On day 1 its people tell the agent about themselves (a pet and its name, a
dated plan, family, a hobby; some plans are taken back later that day); on
the later days they meet it again. The numbers are computed from the town's
log alone (testing/town/memory.py); every single-day row is printed too.
Saved to benchmarks/results/memory.json, except by a smoke run (saved only
with --output), which fails when nothing was acted on or the agent crashed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.town import Town, live, serving  # noqa: E402
from testing.town.memory import memory_rows  # noqa: E402
from testing.town.metrics import measure, pool, spread, table  # noqa: E402
from testing.town_agents import InProcessAgent, ProcessAgent, crashed  # noqa: E402
from testing import smoke  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "memory.json"
DAYS = 3


def run_town(seed: int, messages: int, *, in_process: bool) -> tuple[dict, float]:
    town = Town(seed=seed, days=DAYS, per_day=max(1, messages // DAYS))
    work = Path(tempfile.mkdtemp(prefix="karakuri-days-"))
    started = time.perf_counter()
    try:
        with serving(town) as server:
            agent = (InProcessAgent(server.base_url, town.api_key, work / "state") if in_process
                     else ProcessAgent(server.base_url, town.api_key, work / "state", work))
            runs = live(town, agent, messages)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result = measure(town, runs)
    result["memory"] = memory_rows(town, result["details"]) + [
        r for r in result["extras"] if r["key"] == "first_meeting_to_known"]  # はじめまして to someone met before
    result["crashed"] = [r.stderr.strip()[-300:] for r in crashed(runs)]
    return result, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=180, help="Discord messages per town, over 3 days")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", type=int, default=20, metavar="K")
    parser.add_argument("--in-process", action="store_true", help="handle() in this process, the town's clock")
    parser.add_argument("--output", type=Path,
                        help=f"where to save the results (default {RESULTS_FILE.relative_to(ROOT)})")
    parser.add_argument("--smoke", action="store_true",
                        help="1 town, 1 message a day, saved only with --output: does the path still run")
    args = parser.parse_args(argv)
    if args.smoke:
        args.seeds, args.messages = 1, DAYS
    elif args.output is None:
        args.output = RESULTS_FILE
    seeds = list(range(args.seed, args.seed + args.seeds))
    results = []
    for seed in seeds:
        result, elapsed = run_town(seed, args.messages, in_process=args.in_process)
        results.append({"seed": seed, **result})
        misses = [r["key"] for r in result["memory"] if r["holds"] is False]
        print(f"town seed {seed}: {elapsed:.1f} s; misses: {', '.join(misses) or 'none'}", flush=True)
    print(f"\n{len(seeds)} towns (seeds {seeds[0]}..{seeds[-1]}), {args.messages} messages over {DAYS} days each\n")
    print(table(pool(results, "memory"), spread(results, seeds, "memory")))
    print()
    print(table(pool(results, "rows"), spread(results, seeds, "rows")))
    if args.smoke:
        acted = next(r for r in pool(results, "rows") if r["key"] == "acted")
        bad = [line for result in results for line in result["crashed"]]
        smoke.require((bool(acted["num"]), "no notification acted on"),
                      (not bad, f"{len(bad)} runs crashed, the first: {bad[0] if bad else ''}"))
    if args.output is None:
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({
        "measured_at": datetime.now(timezone.utc).isoformat(timespec="seconds"), "seeds": seeds,
        "messages": args.messages, "memory": pool(results, "memory"), "rows": pool(results, "rows"),
        "runs": [{"seed": r["seed"], "memory": r["memory"], "details": r["details"].get("memory")} for r in results],
    }, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
