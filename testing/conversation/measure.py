"""One seed of the conversation benchmark judged, and the seeds summed up: shared by
benchmarks/bench_conversation.py and its smoke form in tests/test_conversation_bench.py."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from .judge import judge
from .runner import KINDS, run_seed


def judged_seed(seed: int, per_kind: int, mode: str, pack: str | None,
                settings: dict[str, str] | None = None) -> dict[str, Any]:
    run = run_seed(seed, per_kind=per_kind, mode=mode, pack=pack, settings=settings)
    rows = []
    for record in run.judged:
        data = record.as_dict()
        data["verdict"] = judge(data, run.day).as_dict()
        rows.append(data)
    result = run.as_dict()
    result["judged"] = rows
    return result


def memory_seed(seed: int, mode: str, pack: str | None, settings: dict[str, str] | None = None) -> dict[str, Any]:
    from .memory import run_memory

    return run_memory(seed, mode=mode, pack=pack, settings=settings)


def summarise(seeds: list[dict[str, Any]]) -> dict[str, Any]:
    per_kind: dict[str, dict[str, Any]] = {}
    for kind in KINDS:
        shares, ok, total = [], 0, 0
        for seed in seeds:
            rows = [r for r in seed["judged"] if r["kind"] == kind]
            if not rows:
                continue
            good = sum(r["verdict"]["answers"] for r in rows)
            ok, total = ok + good, total + len(rows)
            shares.append(good / len(rows))
        per_kind[kind] = {"answered": ok, "lines": total, "share": ok / total if total else None,
                          "min": min(shares, default=None), "median": statistics.median(shares) if shares else None,
                          "max": max(shares, default=None)}
    rows = [r for seed in seeds for r in seed["judged"]]
    violations = Counter(v.split(":")[0] for r in rows for v in r["verdict"]["violations"])
    reasons = Counter(reason for r in rows for reason in r["verdict"]["reasons"]
                      if not reason.startswith("a hard fault"))
    overall = [sum(r["verdict"]["answers"] for r in s["judged"]) / len(s["judged"]) for s in seeds if s["judged"]]
    return {"per_kind": per_kind, "answered": sum(r["verdict"]["answers"] for r in rows), "lines": len(rows),
            "overall_spread": [min(overall), statistics.median(overall), max(overall)] if overall else None,
            "glued": sum(r["verdict"]["glued"] for r in rows), "violations": dict(violations),
            "reasons": dict(reasons.most_common(12))}


def pooled_memory(runs: list[dict[str, Any]]) -> dict[str, Any] | None:
    runs = [r for r in runs if r]
    if not runs:
        return None
    keys = ("told", "brought_back", "wrong_person", "retracted", "twice")
    total = {k: sum(r[k] for r in runs) for k in keys}
    shares = [r["brought_back"] / r["told"] for r in runs if r["told"]]
    total["share"] = total["brought_back"] / total["told"] if total["told"] else None
    total["spread"] = [min(shares), statistics.median(shares), max(shares)] if shares else None
    return total
