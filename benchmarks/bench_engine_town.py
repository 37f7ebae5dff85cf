"""The agent in the engine town: a town on the real Karakuri World engine's rules (issue 30).

Run from the repository root:

    .venv/bin/python benchmarks/bench_engine_town.py [--seeds 3 5 11] [--deliveries 60]
        [--driver handle|listen|inprocess] [--machine-clock] [--style new|old|oldest] [--login spawn|anywhere]
        [--generation older|newer]
    .venv/bin/python benchmarks/bench_engine_town.py --smoke   # seed 3, 4 messages, nothing saved: seconds

For each seed, builds `testing/engine_town`'s town (map, buildings, NPCs,
residents, the engine's texts and error codes), serves it on 127.0.0.1, and
hands the agent `--deliveries` Discord messages one after another:

- `handle` (default): the installed `karakuri-agent handle "<body>" --json`,
  a new process per message, its clock started at the town's time
  (`--machine-clock`: no `--clock-start`; the agent's clock is the
  machine's, months away from the world's);
- `listen`: one `karakuri-agent listen --stdin` for the whole run;
- `inprocess`: `handle()` called directly (fast; what tests/test_engine_town.py uses).

Prints, per metric, the pooled value over the seeds and its spread
(min / median / max of the per-seed values), with the seeds that miss the
aim, and saves everything to benchmarks/results/bench_engine_town.json (gitignored;
a smoke run saves nothing, and fails when no command was accepted or the agent crashed).
The metrics are computed in testing/engine_town/metrics.py from the town's
own log, without importing the agent.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.engine_town import API_KEY, EngineTown, serving  # noqa: E402
from testing.engine_town.metrics import measure, pooled, table  # noqa: E402
from testing.engine_town_agents import HandleAgent, InProcessAgent, ListenAgent  # noqa: E402
from testing.town_agents import crashed  # noqa: E402
from testing import smoke  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_engine_town.json"


def run_seed(seed: int, deliveries: int, driver: str, *, machine_clock: bool, style: str | None,
             work: Path, login: str = "spawn", generation: str = "older") -> dict[str, Any]:
    town = EngineTown(seed, style=style, login=login, generation=generation)
    state_dir = work / f"state-{seed}"
    started = time.perf_counter()
    with serving(town) as server:
        agent: Any
        if driver == "listen":
            agent = ListenAgent(server.base_url, API_KEY, state_dir, work)
        elif driver == "inprocess":
            agent = InProcessAgent(server.base_url, API_KEY, state_dir)
        else:
            agent = HandleAgent(server.base_url, API_KEY, state_dir, work, clock_start=not machine_clock)
        exits: list[dict[str, Any]] = []
        runs = []
        try:
            for _ in range(deliveries):
                run = agent(town.next_delivery())
                runs.append(run)
                if run.exit_code != 0:
                    lines = run.stderr.strip().splitlines()
                    exits.append({"message": run.delivery.index, "kind": run.delivery.step.kind if run.delivery.step else None,
                                  "exit": run.exit_code, "stderr": lines[-1] if lines else ""})
        finally:
            if isinstance(agent, ListenAgent):
                agent.close()
    result = measure(town)
    result["exits"] = exits
    result["accepted"] = sum(1 for step in town.steps[:len(town.deliveries)] if step.accepted is not None)
    result["crashed"] = [run.stderr.strip()[-300:] for run in crashed(runs)]
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[3, 5, 11])
    parser.add_argument("--deliveries", type=int, default=60)
    parser.add_argument("--driver", choices=("handle", "listen", "inprocess"), default="handle")
    parser.add_argument("--machine-clock", action="store_true", help="run the agent on the machine's clock")
    parser.add_argument("--style", choices=("new", "old", "oldest"), default=None, help="the engine text generation (default: per seed)")
    parser.add_argument("--login", choices=("spawn", "anywhere"), default="spawn",
                        help="where the agent logs in: the spawn with a resident beside it, or anywhere on the map")
    parser.add_argument("--generation", choices=("older", "newer"), default="older",
                        help="the API's notifications: type and text, or kind, summary, payload and perception")
    parser.add_argument("--smoke", action="store_true",
                        help="seed 3, 4 messages, nothing saved: does the path still run")
    args = parser.parse_args()
    if args.smoke:
        args.seeds, args.deliveries = args.seeds[:1], 4
    results = []
    with tempfile.TemporaryDirectory(prefix="engine-town-") as tmp:
        for seed in args.seeds:
            result = run_seed(seed, args.deliveries, args.driver, machine_clock=args.machine_clock, style=args.style,
                              work=Path(tmp), login=args.login, generation=args.generation)
            results.append(result)
            print(f"seed {seed}: {result['style']} texts, {result['deliveries']} messages, "
                  f"{len(result['exits'])} non-zero exits, {result['seconds']} s", flush=True)
            for bad in result["exits"]:
                print(f"    message {bad['message']} ({bad['kind']}): exit {bad['exit']}: {bad['stderr'][:160]}")
    rows = pooled(results)
    print()
    print(f"engine town, driver {args.driver}{' (machine clock)' if args.machine_clock else ''}, "
          f"seeds {args.seeds}, {args.deliveries} messages each")
    print(table(rows))
    if args.smoke:
        bad = [line for result in results for line in result["crashed"]]
        smoke.require((all(result["accepted"] for result in results), "no command accepted by the town"),
                      (not bad, f"{len(bad)} runs crashed, the first: {bad[0] if bad else ''}"))
        return 0
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(json.dumps({"args": vars(args), "pooled": rows, "per_seed": results},
                                       ensure_ascii=False, indent=1, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
