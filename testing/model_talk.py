"""A partner's line to the agent as a View: who speaks, what they said, the pack answering."""

from __future__ import annotations

from datetime import datetime, timezone

from karakuri_agent.domain.identity import Identity
from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.records import Parsed
from karakuri_agent.mind.view import View
from karakuri_agent.voice.persona_pack import load_persona
from testing.store_rows import as_lines, as_refs

NOW = datetime(2027, 5, 10, 4, 0, tzinfo=timezone.utc)  # 13:00 in the town
ME = Identity("1470000000000000001", "AIニケちゃん")
RIKU = {"id": "1500000000000000001", "name": "真白リク"}
SPEAK = Choice.from_json({"command": "conversation_speak", "required_params": ["message", "next_speaker_agent_id"],
                          "param_schema": {"message": {"type": "string", "maxLength": 200},
                                           "next_speaker_agent_id": {"type": "string", "enum": [RIKU["id"]]}}})
END = Choice.from_json({"command": "end_conversation", "required_params": ["message", "next_speaker_agent_id"],
                        "param_schema": {"message": {"type": "string", "maxLength": 200},
                                         "next_speaker_agent_id": {"type": "string", "enum": [RIKU["id"]]}}})


def turn(line: str, *, persona=None, **extra) -> View:
    """A conversation turn in which 真白リク has just said `line` to the agent."""
    fields = dict(
        notification_id="notif-talk", choices=[SPEAK, END],
        parsed=Parsed(notification_type="conversation_message",
                      participants=as_refs([RIKU, {"id": ME.agent_id, "name": ME.name}]),
                      participants_listed=True, present=as_refs([RIKU]),
                      conversation_messages=as_lines([{"speaker": RIKU["name"], "speaker_id": RIKU["id"],
                                                       "message": line}]),
                      location={"current_node": {"node_id": "5-2", "name": "公園 芝生広場"}}),
        people=[], pending=[],
        me=ME, now=NOW, persona=persona or load_persona(),
        day_places=("公園 芝生広場", "図書館 閲覧室"), day_people=("あおい",),
        day_received=(("あおい", None, 500), ("ことね", "melon-pan", 2)),
    )
    fields.update(extra)
    return View(**fields)
