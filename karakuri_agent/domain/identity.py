"""Who is who: the one rule for "is this the same person", one reference to a person, the agent's own identity.

Ids decide when both sides have one; otherwise the exact, non-empty name
('灯屋ユウ' is not '灯屋ユウキ'). A second agent who happens to share the
agent's name, with another id, is someone else.

Records name people in four spellings (a participant's `{id, name}`, a
line's `{speaker_id, speaker}`, a remembered person's `{agent_id,
display_name}`, a promise's `{partner_id, partner_name}`); `PersonRef.of`
reads any of them, so no step rebuilds one spelling from another by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping


def same_person(a_id: Any, a_name: Any, b_id: Any, b_name: Any) -> bool:
    """Whether (a_id, a_name) and (b_id, b_name) name one person."""
    if a_id and b_id:
        return str(a_id) == str(b_id)
    return bool(a_name) and a_name == b_name


# (id key, name key) of each spelling, the most particular first: a promise's row has an `id` of its own.
SPELLINGS = (("partner_id", "partner_name"), ("agent_id", "display_name"), ("speaker_id", "speaker"), ("id", "name"))


@dataclass(frozen=True)
class PersonRef:
    """Someone as a record names them: the id when known, and the name (empty when not given)."""

    id: str | None
    name: str

    @classmethod
    def of(cls, record: Mapping[str, Any]) -> PersonRef:
        """The person a record names, in whichever of the four spellings it uses."""
        for id_key, name_key in SPELLINGS:
            if id_key in record or name_key in record:
                found = record.get(id_key)
                return cls(str(found) if found else None, str(record.get(name_key) or ""))
        return cls(None, "")

    def same(self, other: PersonRef) -> bool:
        return same_person(self.id, self.name, other.id, other.name)

    def as_participant(self) -> dict[str, str | None]:
        """The `{id, name}` spelling, as a conversation's participants are given."""
        return {"id": self.id, "name": self.name}


@dataclass(frozen=True)
class Identity:
    """Who the agent is, so it never counts itself as a person it met."""

    agent_id: str = ""
    name: str = ""

    def is_self(self, person_id: str | None, name: str | None) -> bool:
        return same_person(self.agent_id, self.name, person_id, name)

    def is_me(self, person: PersonRef) -> bool:
        return self.is_self(person.id, person.name)
