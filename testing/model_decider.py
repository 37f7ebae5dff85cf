"""The model decider on hand-built views: its choices, a view of a line said, a decider asking a loopback or mocked model, its answers."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import httpx

from karakuri_agent.decide.rules import RulePolicy
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.records import Parsed
from karakuri_agent.llm.decider import LLMDecider
from karakuri_agent.llm.settings import LLMSettings
from karakuri_agent.memory.context import Identity
from karakuri_agent.mind.view import View
from karakuri_agent.params import InvalidParams, merge, validate
from karakuri_agent.secret import Secret
from karakuri_agent.voice.persona_pack import load_persona
from testing.samples import SELF_ID, SELF_NAME
from testing.store_rows import as_lines, as_refs, as_transfers

BASE = "https://llm.test/v1"
MODEL_KEY = "sk-model-key-77aa88bb"
NOW = datetime(2026, 4, 18, 6, 0, tzinfo=timezone.utc)
ME = Identity(SELF_ID, SELF_NAME)
MEI = {"id": "1474403124906295517", "name": "桜草メイ"}


def gate(view: View, decision: Decision) -> list[str]:
    """A stand-in for the engine's gate: offered, valid against the schema, not said before."""
    choice = next((c for c in view.choices if c.command == decision.command), None)
    if choice is None:
        return [f"{decision.command} is not one of the offered choices"]
    try:
        validate(choice, merge(choice, decision.params))
    except InvalidParams as exc:
        return exc.problems
    if decision.params.get("message") in view.said_before:
        return ["message was already said"]
    return []


def choice(command: str, **fields) -> Choice:
    return Choice.from_json({"command": command, **fields})


ACCEPT = choice("conversation_accept", required_params=["message"],
                param_schema={"message": {"type": "string", "maxLength": 200}})
REJECT = choice("conversation_reject")
SPEAK = choice("conversation_speak", required_params=["message", "next_speaker_agent_id"],
               param_schema={"message": {"type": "string", "maxLength": 200},
                             "next_speaker_agent_id": {"type": "string"},
                             "transfer": {"type": "object"}})
END = choice("conversation_end", required_params=["message", "next_speaker_agent_id"],
             param_schema={"message": {"type": "string", "maxLength": 200},
                           "next_speaker_agent_id": {"type": "string"}})


def make_view(choices, *, line="こんにちは！", kind="conversation_requested", people=(), transfers=(), policy="known"):
    return View(
        notification_id="notif-llm",
        choices=list(choices),
        parsed=Parsed(notification_type=kind, participants=as_refs([MEI, {"id": ME.agent_id, "name": ME.name}]),
                      conversation_messages=as_lines([{"speaker": MEI["name"], "speaker_id": MEI["id"], "message": line}]),
                      location={"current_node": {"node_id": "6-11", "name": "喫茶店 店内"}},
                      transfers=as_transfers(transfers)),
        people=list(people), pending=[],
        me=ME, now=NOW, persona=load_persona(), transfer_policy=policy,
        said_before=["こんにちは、メイさん！"],
    )


def decider(base: str = BASE, timeout: float = 20, **kwargs) -> LLMDecider:
    settings = LLMSettings(base_url=base, model="test-model", api_key=Secret(MODEL_KEY), timeout=timeout)
    return LLMDecider(settings, RulePolicy(), gate=gate, **kwargs)


def answer(content: str, prompt_tokens: int = 300, completion_tokens: int = 20) -> httpx.Response:
    return httpx.Response(200, json={
        "id": "c", "object": "chat.completion", "created": 0, "model": "test-model",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens}})


def proposal(command: str, params: dict | None = None, reason: str = "理由") -> str:
    return json.dumps({"command": command, "params": params or {}, "reason": reason}, ensure_ascii=False)
