"""Who is who: the one rule for "is this the same person", one reference to a person, the agent's own identity.

Ids decide when both sides have one; otherwise the exact, non-empty name
('灯屋ユウ' is not '灯屋ユウキ'). A second agent who happens to share the
agent's name, with another id, is someone else.

A person is one record, `PersonRef(id, name)`: a notification's
participants are PersonRefs, and the records that name someone say who
through it (`Line.person`, `Meeting.partner`, `Person.ref`), so no step
rebuilds a person from another record's keys by hand.
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
class PersonRef:
    """Someone as a record names them: the id when known, and the name (empty when not given)."""

    id: str | None
    name: str

    def __post_init__(self) -> None:
        """An empty id is no id: every record that names someone agrees on that."""
        if not self.id:
            object.__setattr__(self, "id", None)

    def same(self, other: PersonRef) -> bool:
        return same_person(self.id, self.name, other.id, other.name)

    def __bool__(self) -> bool:
        """Someone: an id or a name is known."""
        return bool(self.id or self.name)


# No one: whom the agent answers when nobody else is in the talk (falsy, as an empty name is).
NOBODY = PersonRef(None, "")


@dataclass(frozen=True)
class Identity:
    """Who the agent is, so it never counts itself as a person it met."""

    agent_id: str = ""
    name: str = ""

    def is_self(self, person_id: str | None, name: str | None) -> bool:
        return same_person(self.agent_id, self.name, person_id, name)

    def is_me(self, person: PersonRef) -> bool:
        return self.is_self(person.id, person.name)
