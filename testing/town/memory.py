"""A life across days, measured from the town's log alone (no import of the agent's package).

Facts people planted on day 1 (world.plant_facts), conversations on the later
days: whether the agent brought one of the partner's facts up within its first
three lines, told one to someone else, recalled a fact taken back or recalled
one twice; and, when several people were nearby on a free notification,
whether it started with the closest (the person it had exchanged the most
lines with so far).
"""

from __future__ import annotations

from typing import Any

from .metrics import AIMS, row
from .sim import Town
from .world import Planted

FIRST_LINES = 3


def _said(town: Town) -> list[Planted]:
    return [f for facts in town.planted.values() for f in facts if f.said_at is not None]


def _lines(town: Town) -> list[tuple[Any, dict[str, Any], Any]]:
    """(conversation, agent line, its time), in order."""
    steps = town.steps
    return sorted(((c, line, steps[line["step"]].time) for c in town.conversations for line in c.agent_lines),
                  key=lambda t: t[1]["step"])


def _recalls(line: dict[str, Any], fact: Planted) -> bool:
    """The agent's line names the fact, not only taking up a word of the line it answers."""
    heard = getattr(line.get("partner_line"), "text", "") or ""
    return any(k in line["message"] and k not in heard for k in fact.keywords)


def memory_rows(town: Town, details: dict[str, Any]) -> list[dict[str, Any]]:
    later = town.day_starts[1] if len(town.day_starts) > 1 else None
    said = _said(town)
    kept = [f for f in said if f.retracted_at is None]
    lines = _lines(town)
    eligible = brought = 0
    brought_up: list[dict[str, Any]] = []
    used: set[str] = set()  # facts already brought up (once a week each: the run is shorter)
    for conv in sorted(town.conversations, key=lambda c: c.agent_lines[0]["step"] if c.agent_lines else -1):
        own = conv.agent_lines[:FIRST_LINES]
        if not own:
            continue
        began = town.steps[own[0]["step"]].time
        facts = [f for f in kept if f.owner in conv.everyone and f.text not in used and f.said_at < began]
        hit = next((f for f in facts for line in own if _recalls(line, f)), None)
        if hit is not None:
            used.add(hit.text)  # on day 1 too: past midnight in Tokyo, day 1 is already a later world day
        if later is None or began < later or not facts:
            continue  # not a later day, or nothing of theirs left to bring up
        eligible += 1
        brought += hit is not None
        brought_up.append({"conversation": conv.id, "partners": conv.everyone, "fact": hit.text if hit else None})
    wrong, retracted, twice = [], [], []
    for fact in said:
        times = []
        for conv, line, at in lines:
            if at <= fact.said_at or not _recalls(line, fact):
                continue
            if fact.owner not in line["participants"] and fact.owner not in conv.everyone:
                wrong.append({"step": line["step"], "fact": fact.text, "line": line["message"]})
            elif fact.retracted_at is not None and at > fact.retracted_at:
                retracted.append({"step": line["step"], "fact": fact.text, "line": line["message"]})
            elif at >= (later or at):
                times.append((conv.id, at))
        conversations = sorted({c for c, _ in times})
        if len(conversations) > 1:
            twice.append({"fact": fact.text, "conversations": conversations})
    closest = chosen = 0
    starts: list[dict[str, Any]] = []
    for step in town.steps:
        sent = step.posts[0] if step.posts else None
        if not sent or sent.get("command") != "conversation_start" or len(step.nearby) < 2:
            continue
        exchanged = {p: sum(1 for c, line, _ in lines if line["step"] < step.index and p in c.everyone)
                     for p in step.nearby}
        best = max(exchanged.values())
        if list(exchanged.values()).count(best) != 1 or best == 0:
            continue  # nobody closer than the rest
        chosen += 1
        target = (sent.get("params") or {}).get("target_agent_id")
        closest += target == max(exchanged, key=exchanged.get)
        starts.append({"step": step.index, "exchanged": exchanged, "target": target})
    details["memory"] = {"brought_up": brought_up, "wrong_person": wrong, "retracted": retracted, "twice": twice, "closest_first": starts,
                         "planted": [{"owner": f.owner, "text": f.text, "retracted": f.retracted_at is not None}
                                     for f in said]}
    return [
        row("fact_brought_up", "later-day talks where a partner's planted fact came up in the agent's first 3 lines",
            "≥ 70 %", num=brought, den=eligible),
        row("fact_to_wrong_person", "facts told to someone they are not about", "0", num=len(wrong), pooled_by="sum"),
        row("retracted_recalled", "recalls of a fact taken back", "0", num=len(retracted), pooled_by="sum"),
        row("fact_twice", "facts brought up in two talks (within a week)", "0", num=len(twice), pooled_by="sum"),
        row("closest_first", "free talks started with the closest of several nearby", "60-90 %",
            num=closest, den=chosen),
    ]


AIMS.update({
    "fact_brought_up": lambda v: v >= 0.7, "fact_to_wrong_person": lambda v: v == 0,
    "retracted_recalled": lambda v: v == 0, "fact_twice": lambda v: v == 0,
    "closest_first": lambda v: 0.6 <= v <= 0.9,
})
