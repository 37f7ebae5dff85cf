#!/usr/bin/env python3
"""Compare two results files of benchmarks/bench_engine_town.py, decision by decision.

Standalone (standard library only; imports nothing of the repository), so it
reads results written by any version of the benchmark.

    python3 benchmarks/compare_runs.py A.json B.json            # first 20 differences
    python3 benchmarks/compare_runs.py A.json B.json --limit 50 # more
    python3 benchmarks/compare_runs.py A.json B.json --limit 0  # counts only

(a) Decisions: matched by (town seed, message index `delivery`). A decision
    differs when its command, its params (which hold any speech text, e.g.
    `message`) or its one-line report differ. Also counted, separately and
    not in the headline: the reason text, the exit code, the requests the
    town saw (method/status/command), and the town's step (type/time: once
    it differs, the town itself went another way).
(b) Metrics: every pooled row, matched by `key`: the pooled value and
    min / median / max over towns of each file, side by side.

Exit code: 0 when no decision differs, 1 when some do, 2 on unreadable input.
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from pathlib import Path
from typing import Any

HARD = ("outside_choices", "second_commands", "dead_or_idless", "drops")
PRIMARY = ("command", "params", "report")
SECONDARY = ("reason", "exit_code", "requests", "step")


def load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        sys.exit(f"compare.py: cannot read {path}: {exc}")
    if not isinstance(data, dict) or not isinstance(data.get("runs"), list):
        sys.exit(f"compare.py: {path} has no 'runs' list; is it a bench_engine_town.py results file?")
    return data


def canon(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def facets(d: dict[str, Any]) -> dict[str, Any]:
    """The comparable parts of one saved decision record."""
    decision = d.get("decision") or {}
    return {
        "command": decision.get("command"),
        "params": canon(decision.get("params") or {}),
        "report": d.get("report"),
        "reason": decision.get("reason"),
        "exit_code": d.get("exit_code"),
        "requests": canon([[r.get("method"), r.get("status"), r.get("command")] for r in d.get("requests") or []]),
        "step": canon([d.get("type"), d.get("time")]),
    }


def missing_decision_data(name: str, data: dict[str, Any]) -> list[str]:
    """What (a) needs that this file lacks, said exactly."""
    problems = []
    for run in data["runs"]:
        seed = run.get("seed")
        if "decisions" not in run:
            problems.append(f"{name}: runs[seed={seed}] has no 'decisions' list")
            continue
        for d in run["decisions"]:
            if "delivery" not in d:
                problems.append(f"{name}: a decision of seed {seed} has no 'delivery' index")
            elif "decision" not in d:
                problems.append(f"{name}: seed {seed} delivery {d['delivery']} has no 'decision' record")
            elif "report" not in d:
                problems.append(f"{name}: seed {seed} delivery {d['delivery']} has no 'report'")
            if len(problems) > 10:
                return problems + [f"{name}: (more left out)"]
    return problems


def by_key(data: dict[str, Any]) -> dict[tuple[Any, int], dict[str, Any]]:
    return {(run.get("seed"), d["delivery"]): d
            for run in data["runs"] for d in run.get("decisions") or [] if "delivery" in d}


def short(text: Any, width: int) -> str:
    text = "—" if text is None else str(text)
    return text if len(text) <= width else text[: width - 1] + "…"


def compare_decisions(a: dict[str, Any], b: dict[str, Any], limit: int, width: int) -> int:
    da, db = by_key(a), by_key(b)
    keys = sorted(set(da) | set(db), key=lambda k: (str(k[0]) if not isinstance(k[0], int) else f"{k[0]:012d}", k[1]))
    only = [k for k in keys if (k in da) != (k in db)]
    both = [k for k in keys if k in da and k in db]
    primary_diffs = []
    secondary: dict[str, int] = {f: 0 for f in SECONDARY}
    per_seed: dict[Any, list[int]] = {}
    for key in both:
        fa, fb = facets(da[key]), facets(db[key])
        fields = [f for f in PRIMARY if fa[f] != fb[f]]
        for f in SECONDARY:
            secondary[f] += fa[f] != fb[f]
        if fields:
            primary_diffs.append((key, fields, fa, fb, da[key].get("type")))
            per_seed.setdefault(key[0], []).append(key[1])

    print(f"(a) decisions compared: {len(both)}"
          + (f"; present in only one file: {len(only)}" if only else ""))
    print(f"    decisions that differ (command, params incl. speech, or report): {len(primary_diffs)}")
    by_field = {f: sum(f in fields for _, fields, *_ in primary_diffs) for f in PRIMARY}
    print("      by part: " + ", ".join(f"{f} {n}" for f, n in by_field.items()))
    labels = {"step": "town step type/time", "requests": "requests seen by the town"}
    print("    also differing (not counted above): " + ", ".join(
        f"{labels.get(f, f)} {n}" for f, n in secondary.items()))
    if per_seed:
        print("    per town (seed: differing decisions, first at message index):")
        for seed, idx in sorted(per_seed.items(), key=lambda kv: str(kv[0]).zfill(12)):
            print(f"      {seed}: {len(idx)}, first at {idx[0]}")
    if only:
        print("    only in one file (first 5): " + ", ".join(
            f"seed {s} #{i} ({'A' if (s, i) in da else 'B'})" for s, i in only[:5]))
    if limit and primary_diffs:
        print(f"\n    first {min(limit, len(primary_diffs))} differences (A | B):")
        for (seed, index), fields, fa, fb, step_type in primary_diffs[:limit]:
            print(f"    - seed {seed} #{index} [{step_type or 'no id'}] differs in {', '.join(fields)}")
            for f in fields:
                print(f"        A {f}: {short(fa[f], width)}")
                print(f"        B {f}: {short(fb[f], width)}")
            if "report" not in fields:
                print(f"        report (same): {short(fa['report'], width)}")
    return len(primary_diffs) + len(only)


def metric_rows(data: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """key -> {name, display, rate, value, spread}, from the pooled rows (their min / median / max over towns)."""
    out: dict[str, dict[str, Any]] = {}
    for r in data.get("pooled") or []:
        num, den = r.get("num"), r.get("den")
        spread = (r.get("min"), r.get("median"), r.get("max"))
        out[r["key"]] = {"name": r.get("name", r["key"]), "display": f"{num}/{den}" if den is not None else str(num),
                         "rate": den is not None, "value": num,
                         "spread": None if spread[0] is None else spread}
    return out


def fmt_spread(spread: Any, rate: Any) -> str:
    if spread is None:
        return "n/a"
    if rate:
        return " / ".join(f"{100 * v:.0f} %" for v in spread)
    return " / ".join(f"{v:g}" for v in spread)


def width_of(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int) -> str:
    return text + " " * (width - width_of(text))


def compare_metrics(a: dict[str, Any], b: dict[str, Any]) -> int:
    ma, mb = metric_rows(a), metric_rows(b)
    keys = list(ma) + [k for k in mb if k not in ma]
    head = ["", "metric", "A pooled", "B pooled", "A min / median / max", "B min / median / max"]
    body = []
    changed = 0
    for key in keys:
        ra, rb = ma.get(key, {}), mb.get(key, {})
        cells = [
            ra.get("name") or rb.get("name") or key,
            ra.get("display", "—"), rb.get("display", "—"),
            fmt_spread(ra.get("spread"), ra.get("rate")) if ra else "—",
            fmt_spread(rb.get("spread"), rb.get("rate")) if rb else "—",
        ]
        differs = cells[1] != cells[2] or cells[3] != cells[4]
        changed += differs
        body.append(["≠" if differs else "", key + ": " + short(cells[0], 60)] + cells[1:])
    widths = [max(width_of(row[i]) for row in [head] + body) for i in range(len(head))]
    print(f"(b) metrics (≠ marks a row whose pooled value or spread differs): {changed} of {len(keys)} differ")
    print("| " + " | ".join(pad(c, w) for c, w in zip(head, widths)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in body:
        print("| " + " | ".join(pad(c, w) for c, w in zip(row, widths)) + " |")
    hard_a = sum((ma.get(k) or {}).get("value") or 0 for k in HARD)
    hard_b = sum((mb.get(k) or {}).get("value") or 0 for k in HARD)
    print(f"    hard invariants ({', '.join(HARD)}), total: A {hard_a} | B {hard_b}")
    return changed


def describe(name: str, path: Path, data: dict[str, Any]) -> None:
    seeds = [r.get("seed") for r in data["runs"]]
    options = data.get("args") or {}
    print(f"{name}: {path}  (seeds {seeds}; {options.get('deliveries', '?')} messages; driver "
          f"{options.get('driver', '?')}; relay {options.get('relay', '?')})")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path, help="first results file (e.g. the baseline)")
    parser.add_argument("b", type=Path, help="second results file")
    parser.add_argument("--limit", type=int, default=20, help="differences to list (default 20; 0: none)")
    parser.add_argument("--width", type=int, default=160, help="characters shown per differing value")
    args = parser.parse_args(argv)
    a, b = load(args.a), load(args.b)
    describe("A", args.a, a)
    describe("B", args.b, b)
    print()
    problems = missing_decision_data("A", a) + missing_decision_data("B", b)
    if problems:
        print("(a) cannot compare every decision; missing per-decision data:")
        for p in problems:
            print("    " + p)
    differing = compare_decisions(a, b, args.limit, args.width)
    print()
    compare_metrics(a, b)
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
