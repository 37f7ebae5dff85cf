"""Making persona packs for people: a new pack to fill in, and SKILL.md for one.

``init`` writes the smallest pack that passes ``persona check`` (the name,
the identity fields spelled out so they are easy to change, the rules at
their defaults, an empty behaviour.json) and, since JSON has no comments, the field reference
(docs/persona.md) beside it as README.md. ``skill_text`` fills skill/SKILL.md
(a template: ``{{name}}``, ``{{agent_id}}``, ...) for a pack, so the skill
never names a character of its own.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from karakuri_agent.behaviour.spec import BEHAVIOUR_FILE
from karakuri_agent.mind.persona import Persona, Rules
from karakuri_agent.errors import UsageError
from karakuri_agent.ja import phrases
from karakuri_agent.shipped import shipped
from karakuri_agent.voice.persona_pack import PACK_FILE

# An empty behaviour.json: every key there to fill, nothing changed until it is.
EMPTY_BEHAVIOUR: dict[str, Any] = {"variables": {}, "rules": [], "reactions": [], "disable": []}

__all__ = ["init_pack", "skill_text"]


def _starter(name: str) -> dict[str, Any]:
    words = phrases.starter_pack(name)
    return {
        "name": name,
        "short_name": name,
        "first_person": words["first_person"],
        "honorific": words["honorific"],
        "tone": words["tone"],
        "likes": [],
        "topics": [],
        "favourite_places": [],
        "greetings": words["greetings"],
        # What she likes and does, to answer questions about herself (docs/persona.md, Tastes).
        "tastes": {"favourites": {}, "likes": [], "dislikes": [], "pastimes": [], "time_of_day": "", "habits": []},
        "rules": {field: getattr(Rules(), field) for field in ("conversation_turns", "talk_again_after",
                                                                "start_conversations", "sociability")},
    }


def init_pack(directory: Path, name: str) -> list[Path]:
    """Write a new pack for ``name`` into ``directory`` (new or empty); the files written."""
    if not name.strip():
        raise UsageError("--name must not be empty")
    if directory.exists() and (not directory.is_dir() or any(directory.iterdir())):
        raise UsageError(f"{directory} already exists and is not an empty directory: choose a new one")
    directory.mkdir(parents=True, exist_ok=True)
    pack = directory / PACK_FILE
    pack.write_text(json.dumps(_starter(name.strip()), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    behaviour = directory / BEHAVIOUR_FILE
    behaviour.write_text(json.dumps(EMPTY_BEHAVIOUR, indent=2) + "\n", encoding="utf-8")
    readme = directory / "README.md"
    readme.write_text(shipped("docs", "persona.md").read_text(encoding="utf-8") + "\n"
                      + shipped("docs", "behaviour.md").read_text(encoding="utf-8"), encoding="utf-8")
    return [pack, behaviour, readme]


def skill_text(persona: Persona, agent_id: str) -> str:
    """skill/SKILL.md for ``persona``; ``agent_id`` is the agent's id in the world."""
    fields = {
        "name": persona.name,
        "short_name": persona.short_name,
        "first_person": persona.first_person,
        "tone": persona.tone,
        "agent_id": agent_id,
    }
    text = shipped("skill", "SKILL.md").read_text(encoding="utf-8")
    for key, value in fields.items():
        text = text.replace("{{" + key + "}}", value)
    return text
