"""How the agent answers lines nobody who writes its lexicon has read: a sealed set, per kind.

Run from the repository root:

    .venv/bin/python benchmarks/bench_sealed.py                          # the newest set in benchmarks/sealed/, seeds 1..3
    .venv/bin/python benchmarks/bench_sealed.py --set benchmarks/understanding/set-1.json --seed 11 --seeds 5
    .venv/bin/python benchmarks/bench_sealed.py --smoke                  # 1 seed, 12 items, nothing saved

A sealed set is written by someone who never reads the agent's code, and
those who write its lexicon never read it (benchmarks/sealed/README.md):
this script prints only the per-kind scores, never a line or a reply. Per
seed (testing/conversation/sealed.py) the installed agent lives a day and
then hears every item in a talk of its own; each reply is judged by the
set's own keywords (testing/conversation/sealed_judge.py, which imports
nothing of the package). The replies are saved, unprinted, to
benchmarks/results/sealed.json (gitignored) for a reader to grade one by
one; `--grades FILE` prints that reader's verdicts per kind beside them.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing import smoke  # noqa: E402
from testing.conversation.sealed import run_set  # noqa: E402
from testing.conversation.sealed_judge import grades_table, table  # noqa: E402

SETS = ROOT / "benchmarks" / "sealed"
RESULTS_FILE = ROOT / "benchmarks" / "results" / "sealed.json"


def newest_set() -> Path:
    found = sorted(SETS.glob("set-*.json"), key=lambda p: int(p.stem.split("-")[1]))
    if not found:
        raise SystemExit(f"no sealed set in {SETS}")
    return found[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", type=Path, default=None, help="the set [the newest in benchmarks/sealed/]")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--mode", choices=("listen", "handle"), default="listen")
    parser.add_argument("--output", type=Path, default=RESULTS_FILE)
    parser.add_argument("--grades", type=Path, help="a reader's verdicts on the saved replies, to print per kind")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args(argv)
    path = args.set or newest_set()
    items = json.loads(path.read_text(encoding="utf-8"))["items"]
    by_id = {item["id"]: item for item in items}
    if args.smoke:
        kinds: dict[str, dict] = {}
        for item in items:
            kinds.setdefault(item["kind"], item)
        run = run_set(list(kinds.values())[:12], args.seed, mode=args.mode)
        smoke.require((len(run["replies"]) == min(12, len(kinds)), "not every item was said"),
                      (any(r["reply"] for r in run["replies"]), "no item got a reply"),
                      (not run["errors"], f"the agent logged errors: {run['errors'][:1]}"))
        print(f"smoke: {len(run['replies'])} items said, {sum(bool(r['reply']) for r in run['replies'])} answered")
        return 0
    runs = [run_set(items, seed, mode=args.mode) for seed in range(args.seed, args.seed + args.seeds)]
    rows = table(runs, by_id)
    print(f"sealed set {path.name}: {len(items)} lines x {len(runs)} seeds ({args.seed}..{args.seed + args.seeds - 1})")
    print(f"{'kind':14} {'n':>4} {'answered':>9} {'keyword-good':>13}  min / median / max over seeds")
    for kind, row in rows.items():
        low, mid, high = row["spread"]
        print(f"{kind:14} {row['n']:>4} {row['answered']:>8.0%} {row['keyword_good']:>12.0%}"
              f"   {low:.0%} / {mid:.0%} / {high:.0%}")
    total = sum(r["n"] for r in rows.values())
    good = sum(r["keyword_good"] * r["n"] for r in rows.values())
    print(f"{'all':14} {total:>4} {'':>9} {good / total:>12.0%}")
    errors = [e for run in runs for e in run["errors"]]
    if errors:
        print(f"agent errors: {len(errors)}")
    if args.grades:
        print("\na reader's verdicts (good / half / wrong):")
        for kind, row in grades_table(json.loads(args.grades.read_text(encoding="utf-8")), by_id).items():
            print(f"{kind:14} {row['n']:>4}   {row['good']:.0%} / {row['half']:.0%} / {row['wrong']:.0%}")
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps({"set": path.name, "runs": runs, "table": rows}, ensure_ascii=False, indent=1),
                           encoding="utf-8")
    print(f"replies saved to {args.output} (for a reader; not printed here)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
