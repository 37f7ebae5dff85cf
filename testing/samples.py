"""Sample notifications and the fake agent's credentials, shared by tests and benchmarks."""

from __future__ import annotations

import copy
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from karakuri_agent.town.world import SELF_ID, SELF_NAME  # the one agent of the tests: the town's

BASE_URL = "https://karakuri.test/api"
# The checkout the tests run from.
ROOT = Path(__file__).resolve().parents[1]
API_KEY = "sk-test-4f9a8b7c6d5e"
WEBHOOK_URL = "https://discord.test/api/webhooks/123/hook-token-do-not-leak"

CONVERSATION_REQUEST: dict[str, Any] = {
    "notification_id": "notif-01JDX9M7QZ",
    "created_at": "2026-11-29T12:00:00.000Z",
    "expires_at": "2099-11-29T12:10:00.000Z",
    "status": "pending",
    "notification": {
        "type": "conversation_requested",
        "text": "桜草メイ が話しかけています。\n「こんにちは！」\n"
        "参加者: 桜草メイ (id: 1474403124906295517)、AIニケちゃん (id: 1470446478261747854)",
        "participants": [
            {"id": "1474403124906295517", "name": "桜草メイ"},
            {"id": "1470446478261747854", "name": "AIニケちゃん"},
        ],
        "conversation_messages": [{"speaker": "桜草メイ", "message": "こんにちは！"}],
        "choices": [
            {
                "command": "conversation_accept",
                "description": "会話を受諾して返答する",
                "params": {},
                "required_params": ["message"],
                "param_schema": {
                    "message": {"type": "string", "description": "返答の発言内容", "maxLength": 200}
                },
            },
            {"command": "conversation_reject", "description": "会話を断る", "params": {}},
        ],
    },
}


# An idle reminder with an enum move, an action and a wait (used by the benchmarks).
IDLE_REMINDER: dict[str, Any] = {
    "notification_id": "notif-x",
    "created_at": "2026-11-29T12:00:00.000Z",
    "expires_at": "2099-11-29T12:10:00.000Z",
    "status": "pending",
    "notification": {
        "type": "idle_reminder_fired",
        "text": "あなた (AIニケちゃん) は待機中です。\n現在地: 6-11 (喫茶店 店内)\n近くのエージェント: 0人\n"
                "移動先: 7-11(喫茶店 入口)、8-3 (図書館 閲覧室)、9-2 (公園 噴水前)",
        "choices": [
            {"command": "move", "description": "移動する", "required_params": ["target_node_id"],
             "param_schema": {"target_node_id": {"type": "string", "enum": ["7-11", "8-3", "9-2"]}}},
            {"command": "action", "description": "コーヒーを飲む", "params": {"action_id": "drink-coffee"}},
            {"command": "wait", "description": "待つ", "required_params": ["duration"],
             "param_schema": {"duration": {"type": "integer", "minimum": 1, "maximum": 6}}},
        ],
    },
}


# The example notification as the server serves it (respx), for in-process tests.
NID = CONVERSATION_REQUEST["notification_id"]
BODY = f"🔔 桜草メイ が話しかけています。「こんにちは！」\nnotification_id: {NID}"
GET_URL = f"{BASE_URL}/agents/notifications/{NID}"
POST_URL = f"{BASE_URL}/agents/command"

def in_schema(url: str, schema: str) -> str:
    """The URL with its search_path set to `schema`: each test gets its own empty set of tables."""
    parts = urlsplit(url)
    query = [*parse_qsl(parts.query), ("options", f"-csearch_path={schema}")]
    return parts._replace(query=urlencode(query)).geturl()


def state_files_text(state_dir: Path) -> str:
    """Everything in the state directory as text (for secret scans)."""
    return "".join(p.read_bytes().decode("utf-8", "replace") for p in state_dir.rglob("*") if p.is_file())


def conversation_turn(nid: str, at: datetime, speaker: str, speaker_id: str, line: str, *,
                      kind: str = "conversation_message", conversation_id: str | None = None) -> dict[str, Any]:
    """A partner's line in the engine's form: that line alone, no history of the talk; a request when `kind`
    is `conversation_requested`, else a turn offering `conversation_speak`."""
    body = copy.deepcopy(CONVERSATION_REQUEST)
    body["notification_id"], body["created_at"] = nid, at.isoformat()
    n = body["notification"]
    n["participants"] = [{"id": speaker_id, "name": speaker}, {"id": SELF_ID, "name": SELF_NAME}]
    n["conversation_messages"] = [{"speaker": speaker, "speaker_id": speaker_id, "message": line}]
    n["text"] = f"{speaker}: 「{line}」"
    if conversation_id is not None:
        n["conversation_id"] = conversation_id
    if kind == "conversation_message":
        n["type"] = kind
        n["choices"] = [{"command": "conversation_speak", "required_params": ["message"],
                         "param_schema": {"message": {"type": "string", "maxLength": 200}}}]
    return body
