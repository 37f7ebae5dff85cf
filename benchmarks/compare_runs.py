#!/usr/bin/env python3
"""Compare two results files of benchmarks/bench_behaviour.py, decision by decision.

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
(b) Metrics: every row of `rows` and `extras`, matched by `key`: the pooled
    value and min / median / max over towns of each file, side by side.

Exit code: 0 when no decision differs, 1 when some do, 2 on unreadable input.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import unicodedata
from pathlib import Path
from typing import Any

HARD = ("violations", "second_commands", "dead_or_idless", "drops")
PRIMARY = ("command", "params", "report")
SECONDARY = ("reason", "exit_code", "requests", "step")


def load(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        sys.exit(f"compare.py: cannot read {path}: {exc}")
    if not isinstance(data, dict) or not isinstance(data.get("runs"), list):
        sys.exit(f"compare.py: {path} has no 'runs' list; is it a bench_behaviour.py results file?")
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
    """key -> {name, display, pooled_by, min, median, max}, from the pooled rows and the per-town runs."""
    out: dict[str, dict[str, Any]] = {}
    for section in ("rows", "extras"):
        for r in data.get(section) or []:
            out[r["key"]] = {"name": r.get("name", r["key"]), "display": r.get("display", str(r.get("value"))),
                             "pooled_by": r.get("pooled_by"), "value": r.get("value"), "section": section}
        per_town: dict[str, list[Any]] = {}
        for run in data["runs"]:
            for r in run.get(section) or []:
                per_town.setdefault(r["key"], []).append(r.get("value"))
        for key, values in per_town.items():
            present = [v for v in values if v is not None]
            entry = out.setdefault(key, {"name": key, "display": "—", "pooled_by": None, "section": section})
            entry["spread"] = ((min(present), statistics.median(present), max(present)) if present else None)
    return out


def fmt_spread(spread: Any, pooled_by: Any) -> str:
    if spread is None:
        return "n/a"
    if pooled_by == "rate":
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
            fmt_spread(ra.get("spread"), ra.get("pooled_by")) if ra else "—",
            fmt_spread(rb.get("spread"), rb.get("pooled_by")) if rb else "—",
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
    for name, data in (("A", a), ("B", b)):
        tally: dict[str, int] = {}
        for run in data["runs"]:
            for k, n in ((run.get("details") or {}).get("violations") or {}).items():
                tally[k] = tally.get(k, 0) + n
        if tally:
            print(f"      {name} referee tally: " + ", ".join(f"{k} {n}" for k, n in tally.items()))
    return changed


def describe(name: str, path: Path, data: dict[str, Any]) -> None:
    seeds = data.get("seeds") or [r.get("seed") for r in data["runs"]]
    span = f"{seeds[0]}..{seeds[-1]}" if seeds else "none"
    print(f"{name}: {path}  (measured {data.get('measured_at', '?')}; seeds {span} ({len(seeds)}); "
          f"{data.get('messages', '?')} messages; {data.get('mode', '?')}; "
          f"machine skew {data.get('machine_skew_hours', '?')} h)")


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
