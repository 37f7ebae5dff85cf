"""What the rest of the package may ask of the agent's state, whatever holds it.

Two protocols, as httpx has `BaseTransport` with `MockTransport` beside it:

- `Store`: what the agent remembers (activity, memory, promises, people,
  places, world knowledge, its own lines). Every read is bounded.
- `Ledger`: the one-action claim per notification. `claim` either inserts
  the claim or raises `AlreadyAttempted` (it was already claimed); no driver
  exception ever leaves a backend.

`State` bundles one backend's store and ledger with what only the backend can
do efficiently (forgetting old history) and its lifetime. Backends:
state/sqlite/ (the default, one file in the state directory) and
state/memory.py (tests, and anything that must not touch the disk);
state/factory.py chooses one from the settings.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Iterable, Protocol

from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.records import Activity, JournalEntry, Meeting, Node, Person, Place
from karakuri_agent.secret import Secret

# What one day's reads return at most: far above a day of notifications (one every few minutes).
DAY_LIMIT = 20_000

# Outcomes recorded after a claim.
SUCCEEDED, FAILED, UNKNOWN = "succeeded", "failed", "unknown"


class Store(Protocol):
    def save_notification(self, notification_id: str, body: dict[str, Any]) -> None: ...
    def load_notification(self, notification_id: str) -> dict[str, Any] | None: ...
    def record_request(self, notification_id: str, notification_type: str) -> int: ...
    def record_command(self, notification_id: str, notification_type: str, command: str,
                       params: dict[str, Any], success: bool, message: str, result: Any,
                       reason: str = "") -> int: ...
    def record_report(self, notification_id: str, notification_type: str, report: str, *, dry_run: bool,
                      command: str | None, params: dict[str, Any] | None, reason: str, failed: bool,
                      model: dict[str, Any] | None = None, behaviour: dict[str, Any] | None = None) -> None: ...
    def recent_activity(self, limit: int = 6) -> list[Activity]: ...
    def recent_commands(self, limit: int = 6) -> list[Activity]: ...
    def add_memory(self, notification_id: str | None, kind: str, content: str) -> None: ...
    def recent_memory(self, since: datetime, limit: int = 12) -> list[dict[str, Any]]: ...
    def hear_line(self, line_key: str, at: datetime, repeat_after: timedelta) -> datetime: ...
    def add_commitment(self, notification_id: str, commitment: dict[str, Any]) -> None: ...
    def pending_commitments(self, due_after: datetime | None = None, limit: int = 8) -> list[Meeting]: ...
    def fulfil_commitments(self, ids: Iterable[int]) -> None: ...
    def withdraw_commitments(self, ids: Iterable[int]) -> None: ...
    def see_people(self, people: Iterable[PersonRef]) -> None: ...
    def touch_person(self, agent_id: str, name: str) -> None: ...
    def people(self, agent_ids: Iterable[str]) -> list[Person]: ...
    def person_id(self, name: str) -> str | None: ...
    def met_names(self, limit: int = 500) -> list[str]: ...
    def learn_places(self, places: Iterable[Node]) -> None: ...
    def visit_place(self, node_id: str) -> None: ...
    def note_presence(self, node_id: str, name: str | None) -> None: ...
    def known_places(self, limit: int = 200) -> list[Place]: ...
    def set_knowledge(self, key: str, value: Any) -> None: ...
    def knowledge(self, key: str) -> dict[str, Any] | None: ...
    def knowledge_times(self) -> dict[str, str]: ...
    def add_utterance(self, conversation_key: str, message: str, *, opens: bool = False) -> None: ...
    def utterances(self, conversation_key: str, limit: int = 50) -> list[dict[str, Any]]: ...
    def utterances_since(self, since: datetime, limit: int = 2000) -> list[dict[str, Any]]: ...
    def meetings(self, due_from: datetime, due_to: datetime, limit: int = 8) -> list[Meeting]: ...
    def kept_since(self, since: datetime, limit: int = 8) -> list[Meeting]:
        """Promises kept (fulfilled) at `since` or later, by the store's clock: what the pack's `promise_kept` reacts to."""
    # -- the day view (`karakuri-agent day`): one window of time, start included, end not ----------
    def add_to_journal(self, notification_id: str, kind: str, key: str, at: datetime,
                       data: dict[str, Any]) -> None:
        """One fact of the day; a second one of the same kind and key is ignored (re-reading adds nothing)."""
    def journal_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[JournalEntry]:
        """The journal's facts in the window, in time order (then in the order written)."""
    def activity_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[Activity]:
        """Activity entries stamped in the window, oldest first."""
    def commitments_between(self, start: datetime, end: datetime, limit: int = DAY_LIMIT) -> list[Meeting]:
        """Promises heard in the window or falling due in it, with status, created_at and fulfilled_at; by id."""
    def learn_facts(self, facts: Iterable[dict[str, Any]]) -> None:
        """Keep what people told (told.Fact.to_row()); a fact already kept (same fact_key) stays as it was."""
    def told_facts(self, about: Iterable[str], *, listener: str = "", news: bool = False,
                   limit: int = 20) -> list[dict[str, Any]]:
        """Facts about these people (ids or names), town news too with `news`, newest first, each with
        `mentioned_at`: when it was last brought up to `listener` (None if never)."""
    def withdraw_facts(self, ids: Iterable[int], at: datetime) -> None: ...
    def mention_fact(self, fact_key: str, listener: str, at: datetime) -> None: ...
    def facts_learned(self, since: datetime, until: datetime, limit: int = 200) -> list[dict[str, Any]]:
        """Facts told from `since` to before `until`, oldest first (a day's view of what was learned)."""
    def behaviour_state(self) -> dict[str, Any]:
        """What a pack's behaviour remembers (variables, fire counts, cooldowns, directives), by key."""
    def save_behaviour_state(self, values: dict[str, Any]) -> None:
        """Keep these keys' values (each replaced whole); keys not named stay as they are."""
    def batch(self) -> AbstractContextManager[Any]:
        """One transaction, all or nothing; nested, a part of the outer one.

        It need not wait for the disk (everything the store keeps can be
        learned again): only `Ledger.claim` must, and a backend refuses a
        claim made inside a batch, where it would be neither committed nor
        durable before the command.
        """


class Ledger(Protocol):
    def claim(self, notification_id: str, command: str, params: dict[str, Any]) -> None:
        """Take the notification, or raise AlreadyAttempted carrying the earlier claim."""

    def finish(self, notification_id: str, outcome: str, result: dict[str, Any]) -> None:
        """Record what happened after the claim (SUCCEEDED, FAILED or UNKNOWN)."""

    def previous(self, notification_id: str) -> dict[str, Any] | None:
        """The claim on this notification (command, params, claimed_at, outcome, finished_at), or None."""

    def recent_claims(self, limit: int) -> list[dict[str, Any]]:
        """The newest claims first (notification_id, command, params, claimed_at, outcome: `claimed` until finished)."""


class State(Protocol):
    # Read-only to its users (properties), so a backend's own store and ledger types fit.
    @property
    def store(self) -> Store: ...

    @property
    def ledger(self) -> Ledger: ...

    def forget_before(self, keep_days: int, now: datetime, *, dry_run: bool = False) -> dict[str, Any]:
        """Delete history older than `keep_days` (never the ledger); rows deleted per table and the cutoff.

        `dry_run`: the same counts, with nothing deleted (the deletes are rolled back).
        """

    def turn(self, agent: str) -> AbstractContextManager[None]:
        """The agent's turn: one notification's read-decide-write at a time, across processes and machines
        (state/agent_turn.py); StateBusy when another run holds it too long."""

    def close(self) -> None: ...


class StateLocation(Protocol):
    """Where the configured state is (app/config.py's Settings is one): all opening a state needs."""

    @property
    def database_url(self) -> Secret | None: ...

    @property
    def state_dir(self) -> Path: ...
