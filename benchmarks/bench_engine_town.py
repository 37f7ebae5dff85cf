"""The agent in the engine town: a town on the real Karakuri World engine's rules (issue 30).

Run from the repository root:

    .venv/bin/python benchmarks/bench_engine_town.py [--seeds 3 5 11] [--deliveries 60]
        [--driver handle|listen|inprocess] [--machine-clock] [--style new|old|oldest] [--login spawn|anywhere]
        [--generation older|newer] [--relay plain|markup|rough] [--meet-chance 0.9] [--prank-chance 0.3]
        [--namesakes] [--output FILE]
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

`--relay` says how the messages come (karakuri_agent/town/relay.py): `plain`,
the one form `karakuri-agent town` uses; `markup` (default), the id in every
markup the contract allows; `rough`, also messages without an id, repeated,
late and expired ones, and GETs and POSTs a server answers 503 or 429 first.
`--meet-chance` adds a timed meeting to that share of conversations (default:
only what each conversation's plan draws), `--prank-chance` a line that tries
to give the agent orders (a plea for its money, a mention, a link, an injected
instruction), and `--namesakes` gives a second resident the first one's name
and one sound more.

Prints, per metric, the pooled value over the seeds and its spread
(min / median / max of the per-seed values), with the seeds that miss the
aim, and saves everything, each message's decision too, to
benchmarks/results/bench_engine_town.json or `--output` (gitignored; a smoke run
saves only with `--output`, and fails when no command was accepted or the agent
crashed). `benchmarks/compare_runs.py A.json B.json` compares two such files
decision by decision.
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

from testing.engine_town import API_KEY, EngineTown, Relay, serving  # noqa: E402
from testing.engine_town.metrics import measure, pooled, table  # noqa: E402
from testing.town_agents import HandleAgent, InProcessAgent, ListenAgent, crashed  # noqa: E402
from testing import smoke  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_engine_town.json"


RELAYS = {"plain": Relay(), "markup": Relay(markup=True), "rough": Relay.rough()}


def run_seed(seed: int, deliveries: int, driver: str, *, machine_clock: bool, style: str | None,
             work: Path, login: str = "spawn", generation: str = "older", relay: str = "markup",
             meet_chance: float = 0.0, prank_chance: float = 0.0, namesakes: bool = False) -> dict[str, Any]:
    town = EngineTown(seed, style=style, login=login, generation=generation, relay=RELAYS[relay], namesakes=namesakes)
    town.meet_chance, town.prank_chance = meet_chance, prank_chance
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
    result = measure(town, runs)
    result["exits"] = exits
    result["accepted"] = sum(1 for step in town.steps if step.accepted is not None)
    result["decisions"] = [
        {"delivery": r.delivery.index, "form": r.delivery.form, "time": r.delivery.time.isoformat(),
         "step": r.delivery.step.index if r.delivery.step else None,
         "type": r.delivery.step.type if r.delivery.step else None,
         "requests": r.delivery.requests, "exit_code": r.exit_code,
         "decision": (r.record or {}).get("decision"), "report": (r.record or {}).get("report")}
        for r in runs]
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
    parser.add_argument("--relay", choices=sorted(RELAYS), default="markup",
                        help="how the messages come: one plain form, every id markup, or every irregularity too")
    parser.add_argument("--meet-chance", type=float, default=0.0,
                        help="the share of conversations that propose a timed meeting besides their plan")
    parser.add_argument("--prank-chance", type=float, default=0.0,
                        help="the share of conversations with a line that tries to give the agent orders")
    parser.add_argument("--namesakes", action="store_true", help="two residents with look-alike names")
    parser.add_argument("--output", type=Path, default=None, help=f"where to save (default {RESULTS_FILE})")
    parser.add_argument("--smoke", action="store_true",
                        help="seed 3, 4 messages, saved only with --output: does the path still run")
    args = parser.parse_args()
    if args.smoke:
        args.seeds, args.deliveries = args.seeds[:1], 4
    results = []
    with tempfile.TemporaryDirectory(prefix="engine-town-") as tmp:
        for seed in args.seeds:
            result = run_seed(seed, args.deliveries, args.driver, machine_clock=args.machine_clock, style=args.style,
                              work=Path(tmp), login=args.login, generation=args.generation, relay=args.relay,
                              meet_chance=args.meet_chance, prank_chance=args.prank_chance, namesakes=args.namesakes)
            results.append(result)
            print(f"seed {seed}: {result['style']} texts, {result['deliveries']} messages, "
                  f"{len(result['exits'])} non-zero exits, {result['seconds']} s", flush=True)
            for bad in result["exits"]:
                print(f"    message {bad['message']} ({bad['kind']}): exit {bad['exit']}: {bad['stderr'][:160]}")
    rows = pooled(results)
    print()
    print(f"engine town, driver {args.driver}{' (machine clock)' if args.machine_clock else ''}, "
          f"relay {args.relay}, seeds {args.seeds}, {args.deliveries} messages each")
    print(table(rows))
    output = args.output or (None if args.smoke else RESULTS_FILE)
    if output is not None:
        output.parent.mkdir(parents=True, exist_ok=True)
        output.write_text(json.dumps({"args": vars(args), "pooled": rows, "runs": results},
                                     ensure_ascii=False, indent=1, default=str))
    if args.smoke:
        bad = [line for result in results for line in result["crashed"]]
        smoke.require((all(result["accepted"] for result in results), "no command accepted by the town"),
                      (not bad, f"{len(bad)} runs crashed, the first: {bad[0] if bad else ''}"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
