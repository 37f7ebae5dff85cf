"""Does the agent live well? A simulated town and measured behaviour (issue 4).

Run from the repository root:

    .venv/bin/python benchmarks/bench_behaviour.py                     # 120 notifications, seed 1
    .venv/bin/python benchmarks/bench_behaviour.py --notifications 300 --seed 7
    .venv/bin/python benchmarks/bench_behaviour.py --in-process        # faster, handle() in this process

The town (`benchmarks/town/`) serves the contract's two endpoints on
127.0.0.1 and plays the server: it issues notifications one at a time, with
the choices varying in every shape the contract allows, refuses commands
that are not offered or break the schema (400 `invalid_request`) and second
commands (409 `state_conflict`), and moves other people around. By default
every notification is handled by a new `karakuri-agent handle "<body>" --json`
process with one state directory, its clock set to the town's (see
`benchmarks/town/drive.py`). The table is printed, and the numbers with
their details are saved to benchmarks/results/behaviour.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.town import InProcessAgent, ProcessAgent, Town, live, serving  # noqa: E402
from benchmarks.town.metrics import measure, pool, table  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "behaviour.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notifications", type=int, default=120, help="how many notifications (default 120)")
    parser.add_argument("--seed", type=int, default=1, help="the town's random seed (default 1)")
    parser.add_argument("--seeds", type=int, default=1, metavar="K",
                        help="run K towns (seeds SEED..SEED+K-1), each with a fresh state, and pool the numbers")
    parser.add_argument("--in-process", action="store_true",
                        help="call handle() in this process with the town's clock instead of real processes")
    parser.add_argument("--output", type=Path, default=RESULTS_FILE, help="where to save the JSON results")
    parser.add_argument("--keep-state", action="store_true", help="keep the temporary state directories")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each decision as it is made")
    args = parser.parse_args(argv)
    if args.notifications < 1 or args.seeds < 1:
        parser.error("--notifications and --seeds must be at least 1")

    mode = "in-process handle()" if args.in_process else "one karakuri-agent process per notification"
    runs_out = []
    for seed in range(args.seed, args.seed + args.seeds):
        result, runs, elapsed = run_town(seed, args.notifications, in_process=args.in_process,
                                         verbose=args.verbose, keep_state=args.keep_state)
        runs_out.append({"seed": seed, "elapsed_seconds": round(elapsed, 2),
                         "seconds_per_notification": round(sum(r.seconds for r in runs) / len(runs), 3),
                         **result, "decisions": _decisions(runs)})
        print(f"town seed {seed}, {args.notifications} notifications, {mode}, {elapsed:.1f} s")
        if args.seeds > 1:
            print("  " + " | ".join(f"{r['key']} {r['display']}" for r in result["rows"]))
    if args.seeds == 1:
        rows, extras = runs_out[0]["rows"], runs_out[0]["extras"]
    else:
        rows, extras = pool(runs_out, "rows"), pool(runs_out, "extras")
        print(f"\npooled over seeds {args.seed}..{args.seed + args.seeds - 1}")
    print()
    print(table(rows))
    print()
    print(table(extras))
    failing = [r["name"] for r in rows if r["holds"] is False]
    print()
    print("aims that do NOT hold: " + ("; ".join(failing) if failing else "none"))

    args.output.parent.mkdir(parents=True, exist_ok=True)
    saved = {
        "measured_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"python": platform.python_version(), "platform": platform.platform()},
        "seeds": list(range(args.seed, args.seed + args.seeds)),
        "notifications": args.notifications,
        "mode": mode,
        "rows": rows,
        "extras": extras,
        "runs": runs_out,
    }
    args.output.write_text(json.dumps(saved, ensure_ascii=False, indent=1, default=str), encoding="utf-8")
    print(f"saved {args.output.relative_to(ROOT) if args.output.is_relative_to(ROOT) else args.output}")
    return 0


def run_town(seed: int, notifications: int, *, in_process: bool, verbose: bool = False,
             keep_state: bool = False) -> tuple[dict, list, float]:
    """One town, one agent state directory, `notifications` notifications; the measured result."""
    town = Town(seed=seed)
    work = Path(tempfile.mkdtemp(prefix="karakuri-town-"))
    state_dir = work / "state"
    started = time.perf_counter()
    try:
        with serving(town) as server:
            if in_process:
                agent = InProcessAgent(server.base_url, town.api_key, state_dir)
            else:
                agent = ProcessAgent(server.base_url, town.api_key, state_dir, work)
            runs = live(town, agent, notifications, progress=_progress(verbose, notifications))
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
        {"step": r.step.index, "notification_id": r.step.notification_id, "type": r.step.type,
         "time": r.step.time.isoformat(), "node": r.step.node,
         "decision": (r.record or {}).get("decision"), "posts": r.step.posts,
         "rejected_candidates": (r.record or {}).get("rejected_candidates"), "exit_code": r.exit_code}
        for r in runs
    ]


def _progress(verbose: bool, total: int):
    def show(run) -> None:
        step = run.step
        if verbose:
            decision = (run.record or {}).get("decision") or {}
            params = json.dumps(decision.get("params") or {}, ensure_ascii=False)
            print(f"{step.index:4d} {step.time:%m-%d %H:%M} {step.type:28s} @{step.node:4s} "
                  f"{decision.get('command') or '-'} {params[:80]}  ({decision.get('reason') or ''})",
                  file=sys.stderr)
        else:
            if sys.stderr.isatty():
                print(f"\r{step.index + 1}/{total}", end="", file=sys.stderr, flush=True)
    return show


if __name__ == "__main__":
    sys.exit(main())
