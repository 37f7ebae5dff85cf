"""A sealed set's replies judged by keywords the set's own author wrote, per kind (standard library only).

Each item carries `any_of` (short words one of which a good reply very
likely holds; empty when no word can say it) and `none_of` (words a good
reply never holds: cheer after bad news). A reply is *answered* when the
agent spoke at all on its turn, and *keyword-good* when it is answered,
holds one of `any_of` (for questions about its day: or a place it went to,
someone it met, its plan's place or time) and none of `none_of`. This is
the coarse judge; the set is also read reply by reply by a person (or a
model reading as one), whose verdicts `grades` turns into the same table.

Nothing here imports the agent.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from typing import Any, Iterable


def keyword_good(item: dict[str, Any], reply: dict[str, Any], day: dict[str, Any]) -> bool:
    text = reply.get("reply") or ""
    if not text:
        return False
    wanted = list(item.get("any_of") or [])
    if item["kind"] in ("q_day", "q_plan"):
        plan = day.get("plan") or {}
        wanted += [*day.get("visited", []), *day.get("met", []), *day.get("actions", []),
                   plan.get("place", ""), plan.get("time", "").split(":")[0] + "時"]
    hit = not wanted or any(w and w in text for w in wanted)
    return hit and not any(w and w in text for w in item.get("none_of") or [])


def table(runs: Iterable[dict[str, Any]], items: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per kind: answered and keyword-good shares, pooled over seeds and as min / median / max."""
    pooled: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    per_seed: dict[str, list[float]] = defaultdict(list)
    for run in runs:
        seed_counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for reply in run["replies"]:
            item = items[reply["id"]]
            good = keyword_good(item, reply, run["day"])
            counts = pooled[item["kind"]]
            counts[0] += 1
            counts[1] += bool(reply.get("reply"))
            counts[2] += good
            seed_counts[item["kind"]][0] += 1
            seed_counts[item["kind"]][1] += good
        for kind, (n, good) in seed_counts.items():
            per_seed[kind].append(good / n)
    out = {}
    for kind, (n, answered, good) in sorted(pooled.items()):
        shares = per_seed[kind]
        out[kind] = {"n": n, "answered": answered / n, "keyword_good": good / n,
                     "spread": (min(shares), statistics.median(shares), max(shares))}
    return out


def grades_table(grades: Iterable[dict[str, Any]], items: dict[str, dict[str, Any]]) -> dict[str, dict[str, float]]:
    """Per kind, from a reader's verdicts (`{"id", "seed", "grade": good|half|wrong}`): the shares of each."""
    counts: dict[str, dict[str, int]] = defaultdict(lambda: {"good": 0, "half": 0, "wrong": 0})
    for grade in grades:
        counts[items[grade["id"]]["kind"]][grade["grade"]] += 1
    return {kind: {g: c[g] / max(1, sum(c.values())) for g in c} | {"n": sum(c.values())}
            for kind, c in sorted(counts.items())}
