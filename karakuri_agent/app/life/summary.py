"""Each day of a town life, read back from the agent's state as `karakuri-agent day` reads it.

The counts are the day page's own (`app/day/`: places visited, conversations,
promises kept, missed and called off, gifts, the rules that decided), so
what `town` prints for a date is what `day --date` shows on the same state
(a promise counted on the day it falls due, where `day` also lists it on the
day it was made). The
variables are the pack's at the day's end: every one, with its value then
(`state show`'s reading of the behaviour memory).
"""

from __future__ import annotations

from collections import Counter
from datetime import date
from typing import Any, Iterable

from karakuri_agent.app.day.model import CANCELLED, KEPT, MISSED, ZONE, build
from karakuri_agent.app.day.read import records_for
from karakuri_agent.state.base import Store


def variables(persona: Any, store: Store) -> dict[str, Any]:
    """Every variable of the pack as the state holds it now (path → value); a pack without behaviour: none."""
    if persona.behaviour is None:
        return {}
    from karakuri_agent.app.behaviour_state import shown

    view = shown(persona.behaviour, store.behaviour_state(), None)
    return {str(v["path"]): v["value"] for v in view["variables"]}


def day(store: Store, when: date, at_end: dict[str, Any] | None) -> dict[str, Any]:
    """One day as `town --json` prints it."""
    read = build(records_for(store, when))
    places = list(dict.fromkeys(v.label for v in read.places if v.label and v.label != v.node_id))  # a bare street node is no place
    # A promise is listed on the day it was made and on the day it falls due: it counts on the day it falls due.
    statuses = Counter(p.status for p in read.promises
                       if p.due_at is not None and p.due_at.astimezone(ZONE).date() == when)
    return {
        "date": when.isoformat(),
        "notifications": read.notifications,
        "places": places,
        "conversations": len(read.conversations),
        "promises": {"kept": statuses[KEPT], "missed": statuses[MISSED], "called_off": statuses[CANCELLED]},
        "gifts": len(read.transfers),
        "rules_fired": dict(sorted(Counter(r.rule for r in read.rules_fired).items())),
        "variables": dict(sorted((at_end or {}).items())),
    }


def as_json(life: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"days": life.days, "pack": life.pack, "seed": life.seed}
    if life.cut_short is not None:
        out["cut_short"] = life.cut_short.isoformat()
    return out


def text_lines(life: Any) -> Iterable[str]:
    """The life as a person reads it: one block per day."""
    yield f"{life.pack}: {len(life.days)} day(s) in the offline town, seed {life.seed} (Asia/Tokyo; nothing was sent)"
    for each in life.days:
        yield ""
        yield f"{each['date']}: {each['notifications']} notifications"
        yield f"  places         {', '.join(each['places']) or 'none'}"
        yield f"  conversations  {each['conversations']}"
        promises = each["promises"]
        yield f"  promises       kept {promises['kept']}, missed {promises['missed']}, called off {promises['called_off']}"
        yield f"  gifts          {each['gifts']}"
        fired = each["rules_fired"]
        yield "  rules fired    " + (", ".join(f"{rule} {n}" for rule, n in fired.items()) or "none")
        values = each["variables"]
        yield "  variables      " + (", ".join(f"{path} = {value}" for path, value in values.items())
                                     or "none (the pack has no behaviour.json variables)")
    if life.cut_short is not None:
        yield ""
        yield (f"the life stopped on {life.cut_short.isoformat()}: more notifications that day than a day holds"
               " (the character was never left idle)")
