"""Shared test fixtures: a private state dir, a configured environment, notification bodies."""

from __future__ import annotations

import copy
import json
import os
import sys
import uuid
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

BASE_URL = "https://karakuri.test/api"
API_KEY = "sk-test-4f9a8b7c6d5e"
WEBHOOK_URL = "https://discord.test/api/webhooks/123/hook-token-do-not-leak"
SELF_ID = "1470446478261747854"
SELF_NAME = "AIニケちゃん"
# The 48 real server texts live beside the checkout, not in it; without them their
# cases skip, and the summary says so (the project's own texts in tests/data still run).
EXAMPLES = Path(__file__).resolve().parents[2] / "shared" / "examples" / "real-texts.json"

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


@pytest.fixture(autouse=True)
def fresh_model_servers() -> Iterator[None]:
    """What a model server was found to refuse is remembered for the process: not from test to test."""
    yield
    chat = sys.modules.get("karakuri_agent.llm.chat")
    if chat is not None:
        chat.forget_servers()


@pytest.fixture
def notification() -> dict[str, Any]:
    """A fresh copy of the contract's example notification (safe to mutate)."""
    return copy.deepcopy(CONVERSATION_REQUEST)


@pytest.fixture
def api(notification):
    """A mocked API: the example notification and an accepting command endpoint."""
    import respx

    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=notification)
        mock.post(POST_URL).respond(200, json={"ok": True, "message": "会話を開始しました"})
        yield mock


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, state_dir: Path, tmp_path: Path) -> dict[str, str]:
    """A configured environment with no .env file around and no webhook."""
    monkeypatch.chdir(tmp_path)
    for name in ("KARAKURI_FIXTURES_DIR", "DISCORD_WEBHOOK_URL", "KARAKURI_WORLD_CONTEXT_FILE",
                 "KARAKURI_AGENT_DISABLED", "KARAKURI_COOLDOWN_SECONDS", "KARAKURI_PERSONA_FILE",
                 "KARAKURI_PERSONA_DIR", "KARAKURI_TRANSFER_POLICY", "KARAKURI_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    values = {
        "KARAKURI_API_BASE_URL": BASE_URL,
        "KARAKURI_API_KEY": API_KEY,
        "KARAKURI_STATE_DIR": str(state_dir),
        "KARAKURI_SELF_AGENT_ID": SELF_ID,
        "KARAKURI_SELF_NAME": SELF_NAME,
        "KARAKURI_GET_RETRY_BUDGET": "0.5",
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values


def state_files_text(state_dir: Path) -> str:
    """Everything in the state directory as text (for secret scans)."""
    return "".join(p.read_bytes().decode("utf-8", "replace") for p in state_dir.rglob("*") if p.is_file())


def real_texts() -> list[dict[str, Any]]:
    if not EXAMPLES.exists():
        pytest.skip(NO_REAL_TEXTS)
    return json.loads(EXAMPLES.read_text(encoding="utf-8"))


# -- PostgreSQL: tests that need it run when KARAKURI_TEST_DATABASE_URL is set ------------
TEST_DATABASE_URL = os.environ.get("KARAKURI_TEST_DATABASE_URL", "")
NO_POSTGRES = ("PostgreSQL backend not tested: KARAKURI_TEST_DATABASE_URL is not set"
               " (scripts/with-postgres.sh runs a command with a throwaway server)")
needs_postgres = pytest.mark.skipif(not TEST_DATABASE_URL, reason=NO_POSTGRES)


def in_schema(url: str, schema: str) -> str:
    """The URL with its search_path set to `schema`: each test gets its own empty set of tables."""
    parts = urlsplit(url)
    query = [*parse_qsl(parts.query), ("options", f"-csearch_path={schema}")]
    return parts._replace(query=urlencode(query)).geturl()


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A URL to an empty schema in the test database (skipped loudly without one), dropped afterwards."""
    if not TEST_DATABASE_URL:
        pytest.skip(NO_POSTGRES)
    import psycopg

    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(TEST_DATABASE_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    yield in_schema(TEST_DATABASE_URL, schema)
    with psycopg.connect(TEST_DATABASE_URL, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest) -> str:
    """KARAKURI_DATABASE_URL for each durable backend: "" (the SQLite file), then the test PostgreSQL."""
    return request.getfixturevalue("postgres_url") if request.param == "postgres" else ""


@pytest.fixture
def any_backend(env: dict[str, str], database_url: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """`env` with the state on each durable backend in turn."""
    monkeypatch.setenv("KARAKURI_DATABASE_URL", database_url)
    return {**env, "KARAKURI_DATABASE_URL": database_url}


# Without the real texts (CI provides them) their cases skip, each with this reason in the
# summary (-ra): a clone runs everything it holds, tests/data's server texts included.
NO_REAL_TEXTS = "the 48 real server texts are provided by CI only; tests/data's texts were checked instead"
