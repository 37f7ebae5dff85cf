"""The ids of the package's own rules: names a pack may use (`disable`, and never reuse).

Kept here, below the rules themselves (decide/rules/), so checking a pack
needs no decision code; the rules take their ids from these names, and
`karakuri-agent rules` lists them in this order.
"""

from __future__ import annotations

CONVERSATION_TURN = "conversation-turn"
CONVERSATION_REQUEST = "conversation-request"
INACTIVE_CHECK = "inactive-check"
TRANSFER_OFFER = "transfer-offer"
KEEP_COMMITMENT = "keep-commitment"
DAILY_LIFE = "daily-life"

BUILTIN_RULE_IDS = (CONVERSATION_TURN, CONVERSATION_REQUEST, INACTIVE_CHECK, TRANSFER_OFFER, KEEP_COMMITMENT,
                    DAILY_LIFE)
