"""Does the agent live well? A simulated town and measured behaviour (issue 4).

Run from the repository root:

    .venv/bin/python benchmarks/bench_behaviour.py                  # 20 towns (seeds 1..20), 120 messages each
    .venv/bin/python benchmarks/bench_behaviour.py --seeds 40 --seed 100 --messages 200
    .venv/bin/python benchmarks/bench_behaviour.py --in-process     # faster: handle() in this process
    .venv/bin/python benchmarks/bench_behaviour.py --smoke          # 1 town, 4 messages, nothing saved: seconds

Each seed generates a different town (testing/town/): its map, people,
clock, Discord messages, promises and server faults all vary within what the
contract allows. The town serves the contract's two endpoints on 127.0.0.1,
plays the server and referee, and logs what it saw; the numbers are computed
from that log alone. By default every message is handled by a new
`karakuri-agent handle "<body>" --json` process with one state directory per
town, its clock set to the town's (see testing/town_agents.py).

Printed: per metric the pooled value over all towns, the spread over towns
(min / median / max) and the seeds whose town misses the aim. Saved with the
details to benchmarks/results/behaviour.json. Tune on a few seeds if you
must; judge on others (`--seed` far from the ones you looked at).
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.town import Town, live, serving  # noqa: E402
from testing.town_agents import InProcessAgent, ProcessAgent, crashed  # noqa: E402
from testing import smoke  # noqa: E402
from testing.town.metrics import measure, pool, spread, table  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "behaviour.json"
PLAIN_IDS = 0.2  # the rest of the messages spread over the eleven markup forms the contract names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=120, help="Discord messages per town (default 120)")
    parser.add_argument("--seed", type=int, default=1, help="the first town's seed (default 1)")
    parser.add_argument("--seeds", type=int, default=20, metavar="K",
                        help="run K towns (seeds SEED..SEED+K-1), each with a fresh state (default 20)")
    parser.add_argument("--plain-ids", type=float, default=PLAIN_IDS, metavar="SHARE",
                        help=f"share of messages with no markup around the id (default {PLAIN_IDS}; "
                             "1 shows the rest of the behaviour apart from reading ids in markup)")
    parser.add_argument("--in-process", action="store_true",
                        help="call handle() in this process with the town's clock instead of real processes")
    parser.add_argument("--machine-skew", type=float, default=0.0, metavar="HOURS",
                        help="run the agent's machine clock this many hours off the town's (e.g. 1 or -5); the agent"
                             " takes the world's time from the town's answers, so nothing should change")
    parser.add_argument("--output", type=Path,
                        help=f"where to save the JSON results (default {RESULTS_FILE.relative_to(ROOT)})")
    parser.add_argument("--smoke", action="store_true",
                        help="1 town, 4 messages, saved only with --output: does the path still run (seconds)")
    parser.add_argument("--keep-state", action="store_true", help="keep the temporary state directories")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each decision as it is made")
    parser.add_argument("--pack", type=Path, metavar="DIR",
                        help="the persona pack the agent uses (KARAKURI_PERSONA_DIR; default: the bundled one)")
    parser.add_argument("--no-behaviour", action="store_true",
                        help="the bundled pack without its behaviour.json: the default behaviour, unchanged")
    args = parser.parse_args(argv)
    if args.smoke:
        args.seeds, args.messages = 1, 4
    elif args.output is None:
        args.output = RESULTS_FILE
    pack_dir = args.pack
    if args.no_behaviour:
        from karakuri_agent.voice.persona_pack import PACK_FILE, bundled_pack_dir

        pack_dir = Path(tempfile.mkdtemp(prefix="karakuri-pack-"))
        (pack_dir / PACK_FILE).write_bytes((bundled_pack_dir() / PACK_FILE).read_bytes())
    if args.messages < 1 or args.seeds < 1:
        parser.error("--messages and --seeds must be at least 1")
    if not 0 <= args.plain_ids <= 1:
        parser.error("--plain-ids must be between 0 and 1")

    mode = "in-process handle()" if args.in_process else "one karakuri-agent process per message"
    seeds = list(range(args.seed, args.seed + args.seeds))
    runs_out = []
    for seed in seeds:
        result, runs, elapsed = run_town(seed, args.messages, args.plain_ids, in_process=args.in_process,
                                         verbose=args.verbose, keep_state=args.keep_state, pack_dir=pack_dir,
                                         machine_skew=timedelta(hours=args.machine_skew))
        runs_out.append({"seed": seed, "elapsed_seconds": round(elapsed, 2),
                         "seconds_per_message": round(sum(r.seconds for r in runs) / len(runs), 3),
                         **result, "decisions": _decisions(runs),
                         "crashed": [r.stderr.strip()[-300:] for r in crashed(runs)]})  # the agent's bugs
        failing = [r["key"] for r in result["rows"] if r["holds"] is False]
        print(f"town seed {seed}: {elapsed:.1f} s; misses: {', '.join(failing) or 'none'}", flush=True)
    rows, extras = pool(runs_out, "rows"), pool(runs_out, "extras")
    row_spread, extra_spread = spread(runs_out, seeds, "rows"), spread(runs_out, seeds, "extras")
    print(f"\n{len(seeds)} towns (seeds {seeds[0]}..{seeds[-1]}), {args.messages} messages each, {mode}, "
          f"{args.plain_ids:.0%} of ids without markup, machine clock {args.machine_skew:+g} h off the town's")
    print("pooled value over all towns; min / median / max over towns; seeds whose town misses the aim\n")
    print(table(rows, row_spread))
    print()
    print(table(extras, extra_spread))
    failing = [r["name"] for r in rows if r["holds"] is False]
    print()
    print("aims that do NOT hold (pooled): " + ("; ".join(failing) if failing else "none"))
    if args.smoke:
        acted = next(r for r in rows if r["key"] == "acted")
        bad = [line for run in runs_out for line in run["crashed"]]
        smoke.require((bool(acted["num"]), "no notification acted on"),
                      (not bad, f"{len(bad)} runs crashed, the first: {bad[0] if bad else ''}"))
    if args.output is None:
        return 0

    args.output.parent.mkdir(parents=True, exist_ok=True)
    saved = {
        "measured_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "seeds": seeds,
        "messages": args.messages,
        "plain_ids": args.plain_ids,
        "mode": mode,
        "machine_skew_hours": args.machine_skew,
        "rows": rows,
        "extras": extras,
        "spread": {"rows": row_spread, "extras": extra_spread},
        "runs": runs_out,
    }
    args.output.write_text(json.dumps(saved, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    print(f"saved {args.output.relative_to(ROOT) if args.output.is_relative_to(ROOT) else args.output}")
    return 0


def run_town(seed: int, messages: int, plain_ids: float, *, in_process: bool, verbose: bool = False,
             keep_state: bool = False, pack_dir: Path | None = None,
             machine_skew: timedelta = timedelta(0)) -> tuple[dict, list, float]:
    """One town, one agent state directory, `messages` Discord messages; the measured result."""
    town = Town(seed=seed, plain_ids=plain_ids)
    work = Path(tempfile.mkdtemp(prefix="karakuri-town-"))
    state_dir = work / "state"
    started = time.perf_counter()
    try:
        with serving(town) as server:
            pack = {"KARAKURI_PERSONA_DIR": str(pack_dir)} if pack_dir else {}
            if in_process:
                agent = InProcessAgent(server.base_url, town.api_key, state_dir, machine_skew=machine_skew,
                                       extra_env=pack)
            else:
                agent = ProcessAgent(server.base_url, town.api_key, state_dir, work, machine_skew=machine_skew)
                agent.env.update(pack)
            runs = live(town, agent, messages, progress=_progress(verbose, messages))
    finally:
        if keep_state:
            print(f"state directory kept at {state_dir}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    elapsed = time.perf_counter() - started
    if sys.stderr.isatty() and not verbose:
        print(file=sys.stderr)
    return measure(town, runs), runs, elapsed


def _decisions(runs: list) -> list[dict]:
    return [
        {"delivery": r.delivery.index, "form": r.delivery.form, "time": r.delivery.time.isoformat(),
         "step": r.delivery.step.index if r.delivery.step else None,
         "type": r.delivery.step.type if r.delivery.step else None,
         "requests": r.delivery.requests, "exit_code": r.exit_code,
         "decision": (r.record or {}).get("decision"), "report": (r.record or {}).get("report")}
        for r in runs
    ]


def _progress(verbose: bool, total: int):
    def show(run) -> None:
        delivery = run.delivery
        if verbose:
            decision = (run.record or {}).get("decision") or {}
            params = json.dumps(decision.get("params") or {}, ensure_ascii=False)
            kind = delivery.step.type if delivery.step else "(no id)"
            print(f"{delivery.index:4d} {delivery.time:%m-%d %H:%M} {delivery.form:7s} {kind:28s} "
                  f"exit {run.exit_code} {decision.get('command') or '-'} {params[:80]}", file=sys.stderr)
        elif sys.stderr.isatty():
            print(f"\r{delivery.index + 1}/{total}", end="", file=sys.stderr, flush=True)
    return show


if __name__ == "__main__":
    sys.exit(main())
