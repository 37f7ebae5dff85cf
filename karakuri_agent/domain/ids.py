"""What a notification id looks like: the only ids that may reach a URL path.

A leaf: the trigger reads ids out of Discord text with it, the errors check
the ids a server names with it.
"""

from __future__ import annotations

import re

MAX_ID_LENGTH = 128

ID_PATTERN = re.compile(r"notif-[A-Za-z0-9_-]+")


def is_well_formed_id(value: str) -> bool:
    """`notif-[A-Za-z0-9_-]+`, at most MAX_ID_LENGTH: the only ids that may reach a URL path."""
    return len(value) <= MAX_ID_LENGTH and ID_PATTERN.fullmatch(value) is not None
