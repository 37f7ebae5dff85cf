"""KARAKURI_DECIDER=llm through the registry, the cycle, the state and the CLI (model mocked with respx)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest
import respx
from click.testing import CliRunner

from karakuri_agent.app.cli import agent
from karakuri_agent.app.config import load_settings
from karakuri_agent.secret import redact
from karakuri_agent.app.cycle import Agent, handle
from karakuri_agent.domain.clock import utc_now
from karakuri_agent.app.registry import build_decider
from karakuri_agent.errors import ConfigError
from karakuri_agent.gate import problems_in_view, spoken_problems
from karakuri_agent.llm.decider import LLMDecider
from karakuri_agent.domain.model_trace import LLMTrace
from karakuri_agent.state.memory import MemoryState

from testing.samples import BASE_URL, CONVERSATION_REQUEST

MODEL_URL = "https://llm.test/v1"
MODEL_KEY = "sk-model-key-55cc66dd"
NID = CONVERSATION_REQUEST["notification_id"]
BODY = f"桜草メイ が話しかけています。notification_id: {NID}"
GET_URL = f"{BASE_URL}/agents/notifications/{NID}"
POST_URL = f"{BASE_URL}/agents/command"
LINE = "メイさん、こんにちは！今日は何してたの？"


def proposal(command: str, params: dict | None = None, reason: str = "挨拶を返す") -> str:
    return json.dumps({"command": command, "params": params or {}, "reason": reason}, ensure_ascii=False)


def completion(content: str) -> dict:
    return {"id": "c", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 900, "completion_tokens": 30, "total_tokens": 930}}


@pytest.fixture
def llm_env(env, monkeypatch):
    values = {"KARAKURI_DECIDER": "llm", "KARAKURI_LLM_BASE_URL": MODEL_URL, "KARAKURI_LLM_MODEL": "m",
              "KARAKURI_LLM_API_KEY": MODEL_KEY}
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return {**env, **values}


@pytest.fixture
def world(notification):
    """The Karakuri API and the model, both mocked; `world.notification` may be changed per test."""
    with respx.mock(assert_all_called=False) as mock:
        mock.notification = notification
        mock.get(GET_URL).mock(side_effect=lambda request: respx.MockResponse(200, json=mock.notification))
        mock.post(POST_URL).respond(200, json={"ok": True, "message": "会話を受諾しました"})
        mock.post(f"{MODEL_URL}/chat/completions").respond(
            200, json=completion(proposal("conversation_accept", {"message": LINE})))
        yield mock


def posts(world) -> list[dict]:
    return [json.loads(call.request.content) for call in world.routes[1].calls]


def model_calls(world) -> int:
    return world.routes[2].call_count


# -- the registry ------------------------------------------------------------------------------
def test_the_llm_decider_is_built_from_the_settings_with_the_gate_and_the_rules_behind_it(llm_env):
    settings = load_settings()
    decider = build_decider(settings)
    assert isinstance(decider, LLMDecider)
    assert decider._gate is problems_in_view
    assert settings.llm.base_url == MODEL_URL and settings.llm.model == "m" and settings.llm.timeout == 20
    assert redact(f"key={MODEL_KEY}", settings.secrets) == "key=***"


def test_the_model_settings_come_from_the_env_file_too(llm_env, monkeypatch, tmp_path):
    monkeypatch.delenv("KARAKURI_LLM_MODEL")
    (tmp_path / ".env").write_text("KARAKURI_LLM_MODEL=qwen2.5:7b\nKARAKURI_LLM_TIMEOUT=45\n", encoding="utf-8")
    settings = load_settings()
    assert (settings.llm.model, settings.llm.timeout) == ("qwen2.5:7b", 45)


def test_the_rules_path_reads_no_model_settings(env, monkeypatch):
    monkeypatch.setenv("KARAKURI_LLM_BASE_URL", "not a url")  # ignored: the model does not decide
    settings = load_settings()
    assert settings.llm is None and settings.decider == "rules"


def test_a_missing_model_name_is_one_configuration_error_before_any_request(llm_env, monkeypatch, world):
    monkeypatch.delenv("KARAKURI_LLM_MODEL")
    result = CliRunner().invoke(agent, ["handle", BODY])
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "karakuri-agent: error: KARAKURI_LLM_MODEL is not set: name the model to ask (e.g. qwen2.5:7b)"]
    assert world.calls.call_count == 0


def test_without_pydantic_the_registry_says_how_to_install_the_extra(llm_env, monkeypatch):
    monkeypatch.delitem(sys.modules, "karakuri_agent.llm.decider", raising=False)
    monkeypatch.delitem(sys.modules, "karakuri_agent.llm.proposal", raising=False)
    monkeypatch.setitem(sys.modules, "pydantic", None)  # an import of it fails as if not installed
    with pytest.raises(ConfigError, match=r"in the clone, pip install '\.\[llm\]'"):
        build_decider(load_settings())


# -- no model call when nothing is to be decided --------------------------------------------------
@pytest.mark.parametrize("change", [
    pytest.param(lambda n: n.update(status="processed"), id="processed"),
    pytest.param(lambda n: n.update(expires_at="2000-01-01T00:00:00.000Z"), id="expired"),
    pytest.param(lambda n: n["notification"].update(choices=[]), id="no-choices"),
])
def test_no_model_call_for_a_notification_with_nothing_to_decide(llm_env, world, change):
    change(world.notification)
    result = handle(BODY, load_settings(), post=False)
    assert model_calls(world) == 0 and posts(world) == [] and result.model is None


def test_no_model_call_without_an_id_or_when_already_handled(llm_env, world):
    settings = load_settings()
    handle("こんにちは、ただの雑談です", settings, post=False)
    assert model_calls(world) == 0 and world.routes[0].call_count == 0
    handle(BODY, settings, post=False)
    assert model_calls(world) == 1 and len(posts(world)) == 1  # the counter counts
    again = handle(BODY, settings, post=False)
    assert model_calls(world) == 1 and len(posts(world)) == 1 and again.model is None


# -- what is recorded and shown ----------------------------------------------------------------------
def test_the_model_s_line_is_sent_as_proposed_and_its_trace_recorded_and_shown(llm_env, world):
    runner = CliRunner()
    result = runner.invoke(agent, ["handle", BODY, "--explain"])
    assert result.exit_code == 0, result.output
    assert posts(world) == [{"notification_id": NID, "command": "conversation_accept", "params": {"message": LINE}}]
    assert "  model m: conversation_accept → sent as proposed (900+30 tokens, " in result.stdout
    logged = runner.invoke(agent, ["log"]).stdout.splitlines()
    model_lines = [line for line in logged if "model m:" in line]
    assert len(model_lines) == 1 and "conversation_accept → sent as proposed" in model_lines[0]
    report_at = max(i for i, line in enumerate(logged) if NID in line)
    # under the run's report entry, among its detail lines (the pack's reactions may follow)
    assert logged.index(model_lines[0]) > report_at and all(line.startswith(" ") for line in logged[report_at + 1:])
    entries = json.loads(runner.invoke(agent, ["log", "--json"]).stdout)
    traced = [e for e in entries if e.get("model")]
    assert [e["kind"] for e in traced] == ["report"]
    trace = traced[0]["model"]
    assert trace["outcome"] == "model" and trace["sent"] is True and trace["prompt_tokens"] == 900
    assert trace["proposals"] == [{"command": "conversation_accept", "params": {"message": LINE},
                                   "reason": "挨拶を返す"}]


def test_json_carries_the_trace_with_the_gate_s_problems_and_the_rules_decision(llm_env, world):
    world.routes[2].side_effect = [
        respx.MockResponse(200, json=completion(proposal("transfer", {"target_agent_id": "x", "money": 500}))),
        respx.MockResponse(200, json=completion("わかりません")),
    ]
    result = CliRunner().invoke(agent, ["handle", BODY, "--json"])
    record = json.loads(result.stdout.strip().splitlines()[-1])
    trace = record["model"]
    assert trace["outcome"] == "rules" and trace["sent"] is True
    assert trace["problems"][0] == ["transfer: the agent never gives money or items because it was asked"]
    assert trace["proposals"][1] == {"unreadable": "わかりません"}
    assert len(posts(world)) == 1 and posts(world)[0]["command"] in ("conversation_accept", "conversation_reject")
    assert record["sent"] is True


def test_a_dry_run_asks_the_model_shows_the_verdict_and_sends_nothing(llm_env, world):
    result = CliRunner().invoke(agent, ["handle", BODY, "--dry-run"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"  would send: conversation_accept {json.dumps({'message': LINE}, ensure_ascii=False)}"
    assert "model m: conversation_accept → would be sent as proposed" in lines[1]
    assert model_calls(world) == 1 and posts(world) == []


def test_a_dry_run_shows_what_the_gate_refused(llm_env, world):
    world.routes[2].side_effect = [
        respx.MockResponse(200, json=completion(proposal("conversation_accept", {"message": "<@123> やあ"}))),
        respx.MockResponse(200, json=completion(proposal("conversation_accept", {"message": "やあ、メイさん！"}))),
    ]
    result = CliRunner().invoke(agent, ["handle", BODY, "--dry-run"])
    model_line = next(line for line in result.stdout.splitlines() if "model m:" in line)
    assert "conversation_accept (message contains a mention, link, Discord id or chat markup" in model_line
    assert model_line.split(" (")[-2].endswith("→ would be sent after one repair")
    assert posts(world) == []


def test_the_trace_is_kept_by_the_in_memory_store_too(llm_env, world):
    state = MemoryState(utc_now)
    with Agent.open(load_settings(), state=state) as opened:
        result = opened.handle(BODY)
    assert result.sent
    [entry] = [e for e in state.store.recent_activity(10) if e.model]
    assert entry.kind == "report" and LLMTrace.from_json(entry.model).line() == result.model.line()


def test_the_decision_context_for_a_runtime_carries_no_model_trace(llm_env, world):
    handle(BODY, load_settings(), post=False)
    from karakuri_agent.app.wrapper import get_notification

    world.notification = copy.deepcopy(world.notification) | {"notification_id": "notif-next"}
    world.get(f"{BASE_URL}/agents/notifications/notif-next").respond(200, json=world.notification)
    context = get_notification(load_settings(), "notif-next")["nikechan_preprocess"]["context"]
    assert context["recent_activity_logs"] and all("model" not in e for e in context["recent_activity_logs"])


def test_a_trace_line_says_what_became_of_the_proposal():
    trace = LLMTrace("m", proposals=[{"command": "move"}], problems=[["move is not offered"]], outcome="rules",
                     error=None, prompt_tokens=1, completion_tokens=2, ms=3)
    assert trace.line() == "model m: move (move is not offered) → rules decided (1+2 tokens, 3 ms)"
    admitted = LLMTrace("m", proposals=[{"command": "wait"}], outcome="model")
    assert admitted.line().startswith("model m: wait → admitted as proposed (")
    admitted.sent = False
    assert "→ admitted as proposed, not sent" in admitted.line()
    assert LLMTrace.from_json({**admitted.to_json(), "added_later": 1}) == admitted


@pytest.mark.parametrize("line", ["1474403124906295517 さん、こんにちは", "notif-01JDX9M7QZ の件だけど"])
def test_a_bare_id_in_a_line_is_refused(line):
    assert spoken_problems({"message": line}, []) == [
        "message contains a mention, link, Discord id or chat markup: say it in plain words"]


@pytest.mark.process
def test_a_rules_path_handle_imports_neither_openai_nor_pydantic(env, tmp_path):
    code = ("import sys, respx; from karakuri_agent.app.cli import agent\n"
            f"with respx.mock() as m:\n"
            f"    m.get({GET_URL!r}).respond(200, json={CONVERSATION_REQUEST!r})\n"
            f"    m.post({POST_URL!r}).respond(200, json={{'ok': True}})\n"
            f"    agent(['handle', {BODY!r}], standalone_mode=False)\n"
            "    assert m.routes[1].call_count == 1\n"
            "print(sorted({'openai', 'pydantic'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "[]"
