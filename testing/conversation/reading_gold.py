"""The gold corpus's readings against the agent's, as confusion matrices (standard library only).

A gold item (benchmarks/understanding/dev-*.json) carries its line's reading
as a person gave it: `acts` (what the line does, the first being what it
mainly does), `polarity` (positive / negative / neutral: how what it tells
went) and `subject` (speaker, agent, third: whom it is about). The agent's
reading comes in as plain data (benchmarks/bench_understanding.py dumps it:
kind, asks, polarity, mood, subject, question kind); this module maps it onto
the gold's labels and counts. Nothing here imports the agent.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any, Iterable

# The gold's acts, coarsened to what a reading can be told apart by.
GOLD_ACT = {
    "question_about_agent_self": "ask_self", "question_about_agent_taste": "ask_self",
    "question_about_agent_day": "ask_day", "question_about_agent_plan": "ask_plan",
    "yes_no_question": "ask_other", "choice_question": "ask_choice", "question_about_world": "ask_other",
    "news": "tell", "statement": "tell", "feeling": "feeling", "worry": "feeling", "joke_or_riddle": "ask_other",
    "request": "tell", "invitation": "invitation", "offer": "offer", "thanks": "thanks", "apology": "apology",
    "farewell": "farewell", "greeting": "greeting", "retraction": "retraction", "compliment": "warmth",
    "warmth": "warmth",
}
POLARITY = {"positive": 1, "negative": -1, "neutral": 0}


def agent_act(reading: dict[str, Any]) -> str:
    """The agent's reading as one of GOLD_ACT's values."""
    kind, asks = reading.get("kind", ""), reading.get("asks", "")
    if kind == "question":
        if reading.get("question_kind") == "choice":
            return "ask_choice"
        return {"self": "ask_self", "favourite": "ask_self", "pastime": "ask_self", "side": "ask_self",
                "day": "ask_day", "plans": "ask_plan"}.get(asks, "ask_other")
    if kind in ("news", "plan", "statement", "remark", "looks"):
        return "tell"
    if kind in ("feeling", "concern"):
        return "feeling"
    if kind in ("warmth", "compliment"):
        return "warmth"
    return kind


def confusion(pairs: Iterable[tuple[str, str]]) -> dict[str, Counter[str]]:
    rows: dict[str, Counter[str]] = defaultdict(Counter)
    for gold, read in pairs:
        rows[gold][read] += 1
    return rows


def report(items: list[dict[str, Any]], readings: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """Acts, polarity and subject: agreement and the confusion matrix of each."""
    acts, polarity, subject = [], [], []
    for item in items:
        read = readings.get(item["id"])
        if read is None:
            continue
        gold = item["reading"]
        acts.append((GOLD_ACT.get(gold["acts"][0], gold["acts"][0]), agent_act(read)))
        polarity.append((str(POLARITY.get(gold["polarity"], 0)), str(read.get("polarity", 0))))
        subject.append((gold["subject"], read.get("subject", "")))
    out: dict[str, Any] = {}
    for name, pairs in (("acts", acts), ("polarity", polarity), ("subject", subject)):
        agree = sum(g == r for g, r in pairs)
        out[name] = {"agree": agree, "n": len(pairs), "matrix": confusion(pairs)}
    return out


def render(name: str, part: dict[str, Any]) -> str:
    """One confusion matrix as text: gold labels down, the agent's across."""
    matrix: dict[str, Counter[str]] = part["matrix"]
    columns = sorted({c for row in matrix.values() for c in row})
    width = max([len(c) for c in columns] + [5])
    lines = [f"{name}: {part['agree']} of {part['n']} agree ({100 * part['agree'] / max(part['n'], 1):.0f} %)",
             "gold \\ read".ljust(14) + " ".join(c.rjust(width) for c in columns)]
    for gold in sorted(matrix):
        lines.append(gold.ljust(14) + " ".join(str(matrix[gold].get(c, "")).rjust(width) for c in columns))
    return "\n".join(lines)
