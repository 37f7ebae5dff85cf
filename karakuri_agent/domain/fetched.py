"""A fetched notification with what was read from it: the input of building a View and of the wrapper's output."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from karakuri_agent.domain.json_value import JsonValue
from karakuri_agent.domain.identity import Identity
from karakuri_agent.domain.notification import Notification
from karakuri_agent.domain.records import Activity, Meeting, Parsed, Person, Place


@dataclass(frozen=True)
class Remembered:
    """What the store adds to a notification, read once: the decision context's memory.

    The View holds it as typed fields; memory/context.render_context lays it
    out as `nikechan_preprocess.context` for the wrapper (with each person's
    relationship label), the only producer of that block.
    """

    people: tuple[Person, ...]  # the people the notification names, as met before
    pending: tuple[Meeting, ...]  # promises not kept yet, soonest first (undated last)
    memory: tuple[dict[str, JsonValue], ...]  # the newest memory lines of the last days
    activity: tuple[Activity, ...]  # the newest activity entries, without a model's trace
    world: dict[str, JsonValue]  # the shared "life background" (or its placeholder)
    places: tuple[Place, ...]  # known places, with visits and last_visited


@dataclass
class Fetched:
    """A notification with what reading it taught and what the store remembers about it."""

    notification: Notification
    me: Identity
    parsed: Parsed
    remembered: Remembered
    activity_id: int  # the fetch's one `request` entry
    read_at: datetime | None = None  # the world's time it was read (what it taught the store is stamped from then)
