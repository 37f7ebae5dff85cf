"""The knowledge table's keys, each named: what the agent keeps learning, apart from its commands' answers.

Named keys hold the agent's own notes (the buildings it saw, whom it talked
with, its walks, where `listen` stopped reading). A command's last answer
(`get_map`, `get_nearby_agents`, ...) is kept under `result:<command>`, so no
command name can ever collide with a note, and the age of what a command
told is read from those keys alone.
"""

from __future__ import annotations

BUILDINGS = "buildings"
PARTNERS = "conversation_partners"
TRIPS = "trips"
LAST_SEEN = "listen.last_seen"
NPCS = "npcs"  # node → name of the NPCs seen: nodes that are never a destination
REFUSED = "refused"  # commands the world refused, by params and place, with when (memory/lessons.py)
HOLDINGS = "holdings"  # money and items, as far as known (memory/kept_holdings.py)
NAMED = (BUILDINGS, PARTNERS, TRIPS, LAST_SEEN, NPCS, REFUSED, HOLDINGS)

RESULT_PREFIX = "result:"


def result_key(command: str) -> str:
    """Where the last answer to `command` is kept."""
    return RESULT_PREFIX + command


def command_of(key: str) -> str | None:
    """The command whose answer a key holds; None for a named note."""
    return key[len(RESULT_PREFIX):] if key.startswith(RESULT_PREFIX) else None
