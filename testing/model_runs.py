"""A real run deciding with a loopback model: the model's key, its scripted answers, one `handle` asking it.

The Karakuri side is the loopback server of tests/conftest.py's `loopback`
fixture; `model_env` there is the agent configured to ask a model.
"""

from __future__ import annotations

import json
import subprocess
from typing import Any

from testing.runs import AGENT, NID, last_record
from testing.samples import CONVERSATION_REQUEST

MODEL_KEY = "sk-model-key-99ee00ff"
BODY = f"桜草メイ が話しかけています。notification_id: {NID}"
OFFERED = tuple(c["command"] for c in CONVERSATION_REQUEST["notification"]["choices"])
GOOD = "メイさん、こんにちは！今日はどこに行ってたの？"
record = last_record


def proposal(command: str, params: dict[str, Any] | None = None, reason: str = "理由") -> str:
    """A model's answer proposing `command`, as JSON text."""
    return json.dumps({"command": command, "params": params or {}, "reason": reason}, ensure_ascii=False)


def accept(message: Any) -> str:
    return proposal("conversation_accept", {"message": message})


def handle(env: dict[str, str], model: Any, *args: str, body: str = BODY,
           timeout: str = "20") -> subprocess.CompletedProcess[str]:
    """`karakuri-agent handle BODY --json` asking `model` (a loopback model server)."""
    env = {**env, "KARAKURI_LLM_BASE_URL": model.base_url, "KARAKURI_LLM_TIMEOUT": timeout}
    return subprocess.run([*AGENT, "handle", body, "--json", *args], env=env, capture_output=True, text=True,
                          timeout=120, cwd=env["KARAKURI_STATE_DIR"].rsplit("/", 1)[0])
