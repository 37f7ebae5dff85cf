"""Views built by hand for the deciders' tests: the agent, a partner, places, choices, a View over them."""

from __future__ import annotations

from datetime import datetime, timezone

from karakuri_agent.decide.rules import propose
from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.records import Parsed
from karakuri_agent.memory.context import Identity
from karakuri_agent.mind.view import View
from karakuri_agent.voice.persona_pack import load_persona
from testing.samples import SELF_ID, SELF_NAME
from testing.store_rows import (
    as_commands,
    as_lines,
    as_people,
    as_places,
    as_refs,
    as_transfers,
)

NOW = datetime(2026, 4, 18, 6, 0, tzinfo=timezone.utc)
ME = Identity(SELF_ID, SELF_NAME)
MEI = {"id": "1474403124906295517", "name": "桜草メイ"}
PLACES = [
    {"node_id": "1-1", "name": "駅 前", "visits": 0, "last_visited": None},
    {"node_id": "2-2", "name": "図書館 館内", "visits": 0, "last_visited": None},
    {"node_id": "3-3", "name": "公園 広場", "visits": 0, "last_visited": None},
]


def choice(command, **fields):
    return Choice.from_json({"command": command, **fields})


MOVE = choice("move", param_schema={"target_node_id": {"type": "string"}})
WAIT = choice("wait", param_schema={"duration": {"type": "integer", "minimum": 1, "maximum": 6}})
SPEAK = choice("conversation_speak", required_params=["message", "next_speaker_agent_id"],
               param_schema={"message": {"type": "string", "maxLength": 200},
                             "next_speaker_agent_id": {"type": "string"}})
END = choice("end_conversation", required_params=["message", "next_speaker_agent_id"])


def view(choices, *, here="1-1", commitments=(), recent=(), places=PLACES, messages=(), own_lines=(),
         people=(), transfers=(), knowledge=None, policy="known", kind="idle_reminder_fired"):
    location = {"current_node": {"node_id": here, "name": "駅 前"} if here else None, "nearby_agent_count": 0}
    return View(
        notification_id="notif-test",
        choices=list(choices),
        parsed=Parsed(notification_type=kind, participants=as_refs([MEI, {"id": ME.agent_id, "name": ME.name}]),
                      conversation_messages=as_lines(messages), location=location, transfers=as_transfers(transfers)),
        pending=list(commitments), people=as_people(people),
        me=ME,
        now=NOW,
        persona=load_persona(),
        recent_commands=as_commands(recent),
        knowledge_age=knowledge or {},
        places=as_places(places),
        own_lines=list(own_lines),
        meetings=list(commitments),
        transfer_policy=policy,
    )


def first(v):
    decisions = propose(v).candidates
    return decisions[0] if decisions else None
