"""The kinds of fact a person tells about themselves (reading/told_facts.py reads them, the state stores them)."""

from __future__ import annotations

# Kinds of fact, as the state stores them.
LIKE, DISLIKE, PET, FAMILY, WORK, PLAN, EVENT, NEWS = (
    "like", "dislike", "pet", "family", "work", "plan", "event", "news")
KINDS = frozenset({LIKE, DISLIKE, PET, FAMILY, WORK, PLAN, EVENT, NEWS})
