"""What the world taught by saying no: commands it refused, and the nodes NPCs stand on.

The engine answers a move onto an NPC's node with `impassable_node` and an
action it will not do here with `action_not_available`; it accepts an
action the agent cannot pay for and refuses it in the next notification
(「映画を観る」を実行できませんでした。…). Each refusal is kept under one
knowledge note, keyed by command, params (spoken words aside) and the place
the agent stood, for a while of world time: the same command in the same
situation is not tried again, so the next choice is a different one.

NPCs (`近くのNPC: 猫@12-9`, the map's list, an answer's `npcs`) are kept
by node: such a node is never a destination, even if an earlier version of
the agent learned it as a place.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any, Iterable, Mapping

from karakuri_agent.domain.records import Parsed, Refusal, here_id
from karakuri_agent.ja.notification_text import ACTION_REJECTED
from karakuri_agent.memory import knowledge
from karakuri_agent.reading import offers, textparse
from karakuri_agent.state.base import Store

# How long a refusal holds the same command back, in world time: long enough for the rest of the
# day's choices to be tried, short enough that what changed (money earned, a shop opened) is tried again.
REFUSAL_WINDOW = timedelta(hours=3)
MAX_REFUSALS = 100
MAX_NPCS = 200

# Answers about the moment or the connection, not the command: the same command may well pass later.
TRANSIENT = frozenset({
    "notification_stale", "notification_expired", "not_logged_in", "unauthorized", "service_unavailable",
    "server_unreachable", "outcome_unknown", "rate_limited", "too_many_requests", "invalid_config",
    "transfer_refund_failed", "not_your_turn",
})
# Refusals about the target itself, wherever the agent stands: a wall, an NPC's node, off the map.
ANYWHERE = frozenset({"impassable_node", "out_of_bounds"})
EVERYWHERE = "*"
# Spoken words never make a command a different one: the same move with another line is the same move.
SPOKEN = ("message",)


def params_key(params: Mapping[str, Any]) -> str:
    """The params as one comparable text, without the spoken words."""
    kept = {k: v for k, v in params.items() if k not in SPOKEN}
    return json.dumps(kept, ensure_ascii=False, sort_keys=True, default=str)


def refusal_code(result: Mapping[str, Any]) -> str | None:
    """The error code of an answer that refused the command itself; None for a moment's trouble."""
    code = result.get("error")
    return code if isinstance(code, str) and code and code not in TRANSIENT and not code.startswith("http_5") else None


def learn_refusal(store: Store, *, command: str, params: Mapping[str, Any], place: str | None, code: str,
                  now: datetime) -> None:
    """Keep one refusal (replacing an older one of the same command, params and place)."""
    entry: Refusal = {"command": command, "params": params_key(params),
             "place": EVERYWHERE if code in ANYWHERE else place, "error": code, "at": now.isoformat()}
    kept = [r for r in _refusals(store) if not _same(r, entry) and _fresh(r, now)]
    store.set_knowledge(knowledge.REFUSED, (kept + [entry])[-MAX_REFUSALS:])


def refusals(store: Store, now: datetime) -> list[Refusal]:
    """The refusals still holding their command back, oldest first."""
    return [r for r in _refusals(store) if _fresh(r, now)]


def is_refused(refused: Iterable[Mapping[str, Any]], command: str | None, params: Mapping[str, Any],
               place: str | None) -> bool:
    """This command, with these params, here, was refused within the window (the caller passes fresh ones)."""
    if command is None:
        return False
    key = params_key(params)
    return any(r.get("command") == command and r.get("params") == key and r.get("place") in (EVERYWHERE, place)
               for r in refused)


def learn_from_text(store: Store, parsed: Parsed, text: str, now: datetime) -> None:
    """What a notification's text teaches: the NPCs' nodes, and an action the world refused to start."""
    learn_npcs(store, parsed.npcs or offers.parse_npcs(text))
    if any(ACTION_REJECTED.match(line) for line in textparse.server_lines(text)):
        last = next(iter(store.recent_commands(1)), None)
        if last and last.command == "action" and last.success:
            learn_refusal(store, command="action", params=last.params or {}, place=here_id(parsed),
                          code="action_rejected", now=now)


def learn_npcs(store: Store, npcs: Iterable[Mapping[str, Any]]) -> None:
    """Remember which nodes NPCs stand on (node → name), newest last."""
    seen = {str(n["node_id"]): str(n.get("name") or "") for n in npcs if n.get("node_id")}
    if not seen:
        return
    known = npc_nodes(store)
    merged = {**{k: v for k, v in known.items() if k not in seen}, **seen}
    merged = dict(list(merged.items())[-MAX_NPCS:])
    if merged != known:
        store.set_knowledge(knowledge.NPCS, merged)


def npc_nodes(store: Store) -> dict[str, str]:
    entry = store.knowledge(knowledge.NPCS)
    value = (entry or {}).get("value")
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


def _refusals(store: Store) -> list[Refusal]:
    """The refusals kept, oldest first, read back from the knowledge table's JSON."""
    entry = store.knowledge(knowledge.REFUSED)
    value = (entry or {}).get("value")
    return [{"command": str(r.get("command") or ""), "params": str(r.get("params") or ""),
             "place": r.get("place") if isinstance(r.get("place"), str) else None,
             "error": str(r.get("error") or ""), "at": str(r.get("at") or "")}
            for r in value if isinstance(r, dict)] if isinstance(value, list) else []


def _same(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    return all(a.get(k) == b.get(k) for k in ("command", "params", "place"))


def _fresh(entry: Mapping[str, Any], now: datetime) -> bool:
    try:
        at = datetime.fromisoformat(str(entry.get("at")))
    except ValueError:
        return False
    return now - at <= REFUSAL_WINDOW if at <= now else True  # a stamp ahead (the clock stepped back): just now
