"""The command vocabulary: every command name the agent knows, grouped by what it means.

One place, so the rules (policy), the cooldown (cycle), what an outcome
teaches (record), the fixtures and the report agree on what "a reply" or
"an information command" is. Two spellings exist for a few commands because
servers have used both; both are listed wherever one is.
"""

from __future__ import annotations

SPEAK = ("conversation_speak",)
END = ("conversation_end", "end_conversation")
ACCEPT_TRANSFER = ("transfer_accept", "accept_transfer")
REJECT_TRANSFER = ("transfer_reject", "reject_transfer")

# Commands that answer inline with data instead of starting something in the world.
INFORMATION = (
    "get_perception",
    "get_available_actions",
    "get_map",
    "get_world_agents",
    "get_status",
    "get_nearby_agents",
    "get_active_conversations",
    "get_event",
)
# Commands that start or continue a conversation (the agent's line is remembered).
CONVERSATION = frozenset(
    {"conversation_start", "conversation_accept", *SPEAK, *END, "conversation_leave", "conversation_join",
     "conversation_stay"}
)
# The two that open one: turns are counted from there.
OPENING = frozenset({"conversation_start", "conversation_accept"})
# Commands that count as contact with the other agent (a refusal does not).
CONTACT = CONVERSATION | {"transfer", *ACCEPT_TRANSFER}
# Choices that answer someone: never skipped by the cooldown.
RESPONSE = frozenset(
    {"conversation_accept", "conversation_reject", "conversation_stay", "conversation_leave",
     *SPEAK, *END, *ACCEPT_TRANSFER, *REJECT_TRANSFER}
)
# Acting in the world without anyone to answer.
WORLD = ("move", "action", "use_item", "wait", "transfer")

KNOWN = frozenset({*WORLD, *INFORMATION, *CONVERSATION, *RESPONSE, "conversation_reject"})

# The notification type of a conversation's last round (the max turns, a leaving partner, a server
# announcement): its only turn is the parting line.
CLOSING_NOTIFICATION = "conversation_closing"
