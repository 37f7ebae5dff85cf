"""An in-memory backend: the Store and Ledger protocols on plain dicts and lists.

For tests and for code that must not touch the disk (as httpx's
`MockTransport` sits beside its transports). It keeps the SQLite backend's
observable behaviour: the same orderings, the same bounds, the same
idempotent writes, `AlreadyAttempted` on a second claim, and a `batch()`
that is all or nothing. Nothing survives the process, so it is never chosen
by configuration: the ledger would not outlive one run.
"""

from __future__ import annotations

import copy
import os
from contextlib import contextmanager
from datetime import datetime, timedelta
from typing import Any, Callable, Iterable, Iterator

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.domain.heard import same_saying
from karakuri_agent.errors import AlreadyAttempted
from karakuri_agent.ja.phrases import relationship
from karakuri_agent.state.base import DAY_LIMIT
from karakuri_agent.state.told_store import FACT_COLUMNS, fact_values
from karakuri_agent.state.values import utc_text

_ACTIVITY_FIELDS = ("id", "created_at", "notification_id", "kind", "notification_type", "command", "params",
                    "success", "message", "reason", "model", "behaviour")
_COMMITMENT_FIELDS = ("id", "notification_id", "partner_id", "partner_name", "place_name", "node_id", "due_at",
                      "source_text")


class MemoryStore:
    def __init__(self, clock: Callable[[], datetime] = utc_now) -> None:
        self._clock = clock
        self._tables: dict[str, Any] = {
            "notifications": {}, "activity": [], "memory": [], "commitments": [], "people": {}, "places": {},
            "knowledge": {}, "utterances": [], "heard_lines": {}, "journal": [], "behaviour_state": {},
            "told_facts": [], "fact_mentions": {},
        }

    def _stamp(self) -> str:
        return utc_text(self._clock())

    # -- notifications and activity --------------------------------------
    def save_notification(self, notification_id: str, body: dict[str, Any]) -> None:
        self._tables["notifications"][notification_id] = copy.deepcopy(body)

    def load_notification(self, notification_id: str) -> dict[str, Any] | None:
        body = self._tables["notifications"].get(notification_id)
        return copy.deepcopy(body) if body is not None else None

    def _add_activity(self, entry: dict[str, Any]) -> int:
        entry = {"id": len(self._tables["activity"]) + 1, "created_at": self._stamp(), **entry}
        self._tables["activity"].append(entry)
        return entry["id"]

    def record_request(self, notification_id: str, notification_type: str) -> int:
        for entry in self._tables["activity"]:
            if entry["notification_id"] == notification_id and entry["kind"] == "request":
                return entry["id"]
        return self._add_activity({"notification_id": notification_id, "kind": "request",
                                   "notification_type": notification_type})

    def record_command(self, notification_id: str, notification_type: str, command: str,
                       params: dict[str, Any], success: bool, message: str, result: Any,
                       reason: str = "") -> int:
        return self._add_activity({"notification_id": notification_id, "kind": "command",
                                   "notification_type": notification_type, "command": command,
                                   "params": copy.deepcopy(params), "success": bool(success), "message": message,
                                   "reason": reason})

    def record_report(self, notification_id: str, notification_type: str, report: str, *, dry_run: bool,
                      command: str | None, params: dict[str, Any] | None, reason: str, failed: bool,
                      model: dict[str, Any] | None = None, behaviour: dict[str, Any] | None = None) -> None:
        self._add_activity({"behaviour": copy.deepcopy(behaviour),"notification_id": notification_id, "kind": "dry_run" if dry_run else "report",
                            "notification_type": notification_type or None, "command": command,
                            "params": copy.deepcopy(params), "success": False if failed else None,
                            "message": report, "reason": reason or None, "model": copy.deepcopy(model)})

    def recent_activity(self, limit: int = 6) -> list[dict[str, Any]]:
        return [_present(e, _ACTIVITY_FIELDS) for e in reversed(self._tables["activity"])][:limit]

    def recent_commands(self, limit: int = 6) -> list[dict[str, Any]]:
        commands = [e for e in reversed(self._tables["activity"]) if e["kind"] == "command"]
        return [_present(e, _ACTIVITY_FIELDS) for e in commands[:limit]]

    # -- memory ------------------------------------------------------------
    def add_memory(self, notification_id: str | None, kind: str, content: str) -> None:
        self._tables["memory"].append({"created_at": self._stamp(), "kind": kind, "content": content})

    def recent_memory(self, since: datetime, limit: int = 12) -> list[dict[str, Any]]:
        newer = [dict(m) for m in self._tables["memory"] if m["created_at"] >= utc_text(since)]
        return sorted(newer, key=lambda m: m["created_at"], reverse=True)[:limit]

    # -- commitments ---------------------------------------------------------
    def hear_line(self, line_key: str, at: datetime, repeat_after: timedelta) -> datetime:
        heard = self._tables["heard_lines"]
        seen = heard.get(line_key)
        if seen is not None and same_saying(seen[0], seen[1], at, repeat_after):
            heard[line_key] = (seen[0], max(seen[1], at))
            return seen[0]
        heard[line_key] = (at, at)
        return at

    def add_commitment(self, notification_id: str, commitment: dict[str, Any]) -> None:
        rows = self._tables["commitments"]
        line = (commitment.get("line_key"), commitment.get("said_at"))
        if any((c["notification_id"] == notification_id and c["source_text"] == commitment["source_text"])
               or (line[0] is not None and (c["line_key"], c["said_at"]) == line) for c in rows):
            return
        rows.append({"id": len(rows) + 1, "created_at": self._stamp(), "notification_id": notification_id,
                     **{k: commitment.get(k) for k in ("partner_id", "partner_name", "place_name", "node_id",
                                                       "due_at", "source_text", "line_key", "said_at")},
                     "status": "pending", "fulfilled_at": None})

    def pending_commitments(self, due_after: datetime | None = None, limit: int = 8) -> list[dict[str, Any]]:
        after = utc_text(due_after) if due_after else ""
        rows = [c for c in self._tables["commitments"]
                if c["status"] == "pending" and (c["due_at"] is None or c["due_at"] >= after)]
        rows.sort(key=lambda c: (c["due_at"] is None, c["due_at"] or ""))
        return [{k: c[k] for k in _COMMITMENT_FIELDS} for c in rows[:limit]]

    def meetings(self, due_from: datetime, due_to: datetime, limit: int = 8) -> list[dict[str, Any]]:
        low, high = utc_text(due_from), utc_text(due_to)
        rows = [c for c in self._tables["commitments"] if c["status"] in ("pending", "fulfilled")
                and c["due_at"] is not None and low <= c["due_at"] <= high]
        rows.sort(key=lambda c: c["due_at"])
        return [{k: c[k] for k in (*_COMMITMENT_FIELDS, "status")} for c in rows[:limit]]

    def fulfil_commitments(self, ids: Iterable[int]) -> None:
        wanted, now = set(ids), self._stamp()
        for c in self._tables["commitments"]:
            if c["id"] in wanted and c["status"] == "pending":
                c.update(status="fulfilled", fulfilled_at=now)

    def withdraw_commitments(self, ids: Iterable[int]) -> None:
        wanted = set(ids)
        for c in self._tables["commitments"]:
            if c["id"] in wanted and c["status"] == "pending":
                c["status"] = "withdrawn"

    # -- people --------------------------------------------------------------
    def see_people(self, people: Iterable[dict[str, Any]]) -> None:
        now = self._stamp()
        for p in people:
            if p.get("id") and p.get("name"):
                known = self._tables["people"].setdefault(p["id"], _person(p["id"], p["name"], now))
                known["display_name"] = p["name"]

    def touch_person(self, agent_id: str, name: str) -> None:
        now = self._stamp()
        person = self._tables["people"].get(agent_id)
        if person is None:
            self._tables["people"][agent_id] = {**_person(agent_id, name, now), "interactions": 1, "last_contact": now}
            return
        person.update(interactions=person["interactions"] + 1, last_contact=now)
        if name:
            person["display_name"] = name

    def people(self, agent_ids: Iterable[str]) -> list[dict[str, Any]]:
        found = [self._tables["people"][i] for i in dict.fromkeys(agent_ids) if i in self._tables["people"]]
        return [{"agent_id": p["agent_id"], "display_name": p["display_name"], "nickname": p["nickname"],
                 "relationship": relationship(p["interactions"]), "interactions": p["interactions"],
                 "last_contact": p["last_contact"]} for p in found]

    def met_names(self, limit: int = 500) -> list[str]:
        met = [p for p in self._tables["people"].values() if p["interactions"] > 0 and p["display_name"]]
        met.sort(key=lambda p: p["last_contact"] or "", reverse=True)
        return [str(p["display_name"]) for p in met[:limit]]

    def person_id(self, name: str) -> str | None:
        named = [p for p in self._tables["people"].values() if p["display_name"] == name]
        named.sort(key=lambda p: (p["last_contact"] is not None, p["last_contact"] or ""), reverse=True)
        return named[0]["agent_id"] if named else None

    # -- places and world knowledge ------------------------------------------
    def _place(self, node_id: str) -> dict[str, Any]:
        return self._tables["places"].setdefault(
            node_id, {"node_id": node_id, "name": None, "learned_at": self._stamp(), "visits": 0, "last_visited": None})

    def learn_places(self, places: Iterable[dict[str, Any]]) -> None:
        for p in places:
            if p.get("node_id"):
                place = self._place(p["node_id"])
                place["name"] = p.get("name") or place["name"]

    def visit_place(self, node_id: str) -> None:
        place = self._place(node_id)
        place.update(visits=place["visits"] + 1, last_visited=self._stamp())

    def note_presence(self, node_id: str, name: str | None) -> None:
        place = self._place(node_id)
        place.update(last_visited=self._stamp(), name=place["name"] or name)

    def known_places(self, limit: int = 200) -> list[dict[str, Any]]:
        named = sorted((p for p in self._tables["places"].values() if p["name"] is not None), key=lambda p: p["node_id"])
        return [{k: p[k] for k in ("node_id", "name", "visits", "last_visited")} for p in named[:limit]]

    def set_knowledge(self, key: str, value: Any) -> None:
        self._tables["knowledge"][key] = {"value": copy.deepcopy(value), "updated_at": self._stamp()}

    # -- what people told the agent (the SQL backends' told_store.py, kept alike) --
    def learn_facts(self, facts: Iterable[dict[str, Any]]) -> None:
        rows = self._tables["told_facts"]
        for fact in facts:
            if all(r["fact_key"] != fact["fact_key"] for r in rows):
                rows.append({"id": len(rows) + 1, **dict(zip(FACT_COLUMNS, fact_values(fact))), "withdrawn_at": None})

    def _with_mention(self, row: dict[str, Any], listener: str) -> dict[str, Any]:
        return {**copy.deepcopy(row), "mentioned_at": self._tables["fact_mentions"].get((row["fact_key"], listener))}

    def told_facts(self, about: Iterable[str], *, listener: str = "", news: bool = False,
                   limit: int = 20) -> list[dict[str, Any]]:
        names = {a for a in about if a}
        rows = [r for r in self._tables["told_facts"] if r["about_id"] in names or r["about_name"] in names
                or (news and r["about_name"] == "")]
        rows.sort(key=lambda r: (r["said_at"], r["id"]), reverse=True)
        return [self._with_mention(r, listener) for r in rows[:limit]]

    def withdraw_facts(self, ids: Iterable[int], at: datetime) -> None:
        for row in self._tables["told_facts"]:
            if row["id"] in set(ids) and row["withdrawn_at"] is None:
                row["withdrawn_at"] = utc_text(at)

    def mention_fact(self, fact_key: str, listener: str, at: datetime) -> None:
        self._tables["fact_mentions"][(fact_key, listener)] = utc_text(at)

    def facts_learned(self, since: datetime, until: datetime, limit: int = 200) -> list[dict[str, Any]]:
        rows = sorted((r for r in self._tables["told_facts"] if utc_text(since) <= r["said_at"] < utc_text(until)),
                      key=lambda r: (r["said_at"], r["id"]))
        return [{**copy.deepcopy(r), "mentioned_at": None} for r in rows[:limit]]

    def behaviour_state(self) -> dict[str, Any]:
        return copy.deepcopy(dict(sorted(self._tables["behaviour_state"].items())))

    def save_behaviour_state(self, values: dict[str, Any]) -> None:
        self._tables["behaviour_state"].update(copy.deepcopy(values))

    def knowledge(self, key: str) -> dict[str, Any] | None:
        entry = self._tables["knowledge"].get(key)
        return copy.deepcopy(entry) if entry else None

    def knowledge_times(self) -> dict[str, str]:
        return {key: entry["updated_at"] for key, entry in list(self._tables["knowledge"].items())[:100]}

    # -- own lines -------------------------------------------------------------
    def add_utterance(self, conversation_key: str, message: str, *, opens: bool = False) -> None:
        self._tables["utterances"].append({"conversation_key": conversation_key, "message": message,
                                      "created_at": self._stamp(), "opens": int(opens)})

    def utterances(self, conversation_key: str, limit: int = 50) -> list[dict[str, Any]]:
        lines = [u for u in reversed(self._tables["utterances"]) if u["conversation_key"] == conversation_key]
        return [{k: u[k] for k in ("message", "created_at", "opens")} for u in lines[:limit]]

    def utterances_since(self, since: datetime, limit: int = 2000) -> list[dict[str, Any]]:
        lines = [u for u in reversed(self._tables["utterances"]) if u["created_at"] >= utc_text(since)]
        return [{k: u[k] for k in ("conversation_key", "message", "created_at")} for u in lines[:limit]]

    # -- the day view ----------------------------------------------------------
    def add_to_journal(self, notification_id: str, kind: str, key: str, at: datetime,
                       data: dict[str, Any]) -> None:
        journal = self._tables["journal"]
        if any(e["kind"] == kind and e["key"] == key for e in journal):
            return
        journal.append({"id": len(journal) + 1, "at": utc_text(at), "notification_id": notification_id,
                        "kind": kind, "key": key, "data": copy.deepcopy(data)})

    def journal_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[dict[str, Any]]:
        low, high = utc_text(start), utc_text(end)
        found = sorted((e for e in self._tables["journal"] if low <= e["at"] < high), key=lambda e: (e["at"], e["id"]))
        return [{k: copy.deepcopy(e[k]) for k in ("at", "notification_id", "kind", "data")} for e in found[:limit]]

    def activity_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[dict[str, Any]]:
        low, high = utc_text(start), utc_text(end)
        found = [e for e in self._tables["activity"] if low <= e["created_at"] < high]
        return [{k: v for k, v in _present(e, _ACTIVITY_FIELDS).items() if k != "model"} for e in found[:limit]]

    def commitments_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[dict[str, Any]]:
        low, high = utc_text(start), utc_text(end)
        found = [c for c in self._tables["commitments"]
                 if low <= c["created_at"] < high or (c["due_at"] is not None and low <= c["due_at"] < high)]
        fields = (*_COMMITMENT_FIELDS, "status", "created_at", "fulfilled_at")
        return [{k: c[k] for k in fields} for c in found[:limit]]

    @contextmanager
    def batch(self) -> Iterator[None]:
        """All or nothing, as a transaction: a failure restores what was there before."""
        before = copy.deepcopy(self._tables)
        try:
            yield
        except BaseException:
            self._tables = before
            raise


class MemoryLedger:
    def __init__(self, clock: Callable[[], datetime] = utc_now) -> None:
        self._clock = clock
        self._claims: dict[str, dict[str, Any]] = {}

    def claim(self, notification_id: str, command: str, params: dict[str, Any]) -> None:
        if notification_id in self._claims:
            raise AlreadyAttempted(notification_id, self.previous(notification_id) or {})
        self._claims[notification_id] = {"command": command, "params": copy.deepcopy(params),
                                         "claimed_at": utc_text(self._clock()), "outcome": None,
                                         "finished_at": None, "pid": os.getpid()}

    def finish(self, notification_id: str, outcome: str, result: dict[str, Any]) -> None:
        claim = self._claims.get(notification_id)
        if claim is not None:
            claim.update(outcome=outcome, finished_at=utc_text(self._clock()))

    def recent_claims(self, limit: int) -> list[dict[str, Any]]:
        newest = sorted(self._claims.items(), key=lambda item: item[1]["claimed_at"], reverse=True)[:limit]
        return [{"notification_id": nid, **{k: copy.deepcopy(c[k]) for k in ("command", "params", "claimed_at")},
                 "outcome": c["outcome"] or "claimed"} for nid, c in newest]  # as the databases' default says

    def previous(self, notification_id: str) -> dict[str, Any] | None:
        claim = self._claims.get(notification_id)
        if claim is None:
            return None
        return {k: copy.deepcopy(claim[k]) for k in ("command", "params", "claimed_at", "outcome", "finished_at")}


class MemoryState:
    """A store and a ledger that live as long as this object."""

    def __init__(self, clock: Callable[[], datetime] = utc_now) -> None:
        self.store = MemoryStore(clock)
        self.ledger = MemoryLedger(clock)

    def forget_before(self, keep_days: int, now: datetime, *, dry_run: bool = False) -> dict[str, Any]:
        """Old activity, memory and day journal go; the ledger, people, places and knowledge stay (as retention.py)."""
        from karakuri_agent.domain.limits import ACTIVITY_LIMIT, MEMORY_LIMIT, RECENT_COMMANDS

        cutoff = utc_text(now - timedelta(days=keep_days))
        tables = self.store._tables
        newest = {e["id"] for e in tables["activity"][-ACTIVITY_LIMIT:]}
        newest |= {e["id"] for e in [e for e in tables["activity"] if e["kind"] == "command"][-RECENT_COMMANDS:]}
        kept_memory = sorted(tables["memory"], key=lambda m: m["created_at"])[-MEMORY_LIMIT:]
        before = {name: len(tables[name]) for name in ("activity", "memory")}
        before["journal"] = len(tables["journal"])
        kept = {"activity": [e for e in tables["activity"] if e["created_at"] >= cutoff or e["id"] in newest],
                "memory": [m for m in tables["memory"] if m["created_at"] >= cutoff or m in kept_memory],
                "journal": [e for e in tables["journal"] if e["at"] >= cutoff]}
        if not dry_run:
            tables.update(kept)
        return {**{name: before[name] - len(kept[name]) for name in before}, "cutoff": cutoff}

    def close(self) -> None:
        """Nothing to release."""


def _person(agent_id: str, name: str, now: str) -> dict[str, Any]:
    return {"agent_id": agent_id, "display_name": name, "nickname": None, "interactions": 0, "first_seen": now,
            "last_contact": None}


def _present(entry: dict[str, Any], fields: tuple[str, ...]) -> dict[str, Any]:
    """Only the fields that have a value, as the SQLite store returns them."""
    return {k: copy.deepcopy(entry[k]) for k in fields if entry.get(k) is not None}
