"""Who is who: the one rule for "is this the same person", and the agent's own identity.

Ids decide when both sides have one; otherwise the exact, non-empty name
('灯屋ユウ' is not '灯屋ユウキ'). A second agent who happens to share the
agent's name, with another id, is someone else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def same_person(a_id: Any, a_name: Any, b_id: Any, b_name: Any) -> bool:
    """Whether (a_id, a_name) and (b_id, b_name) name one person."""
    if a_id and b_id:
        return str(a_id) == str(b_id)
    return bool(a_name) and a_name == b_name


@dataclass(frozen=True)
class Identity:
    """Who the agent is, so it never counts itself as a person it met."""

    agent_id: str = ""
    name: str = ""

    def is_self(self, person_id: str | None, name: str | None) -> bool:
        return same_person(self.agent_id, self.name, person_id, name)
