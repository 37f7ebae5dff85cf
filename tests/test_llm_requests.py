"""What the client asks the model for, read off the wire of a loopback model server.

Every request carries a bound and (unless the server refused it) the
proposal's JSON Schema built from this notification's choices; a refusal
steps down once per field and is remembered; the repair shows the model its
answer and the gate's problems; `probe` asks once and reports the latency.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from karakuri_agent.app.cli import agent
from karakuri_agent.secret import Secret
from karakuri_agent.errors import ConfigError
from karakuri_agent.llm.chat import probe
from karakuri_agent.llm.decider import LLMDecider
from karakuri_agent.llm.answer_schema import proposal_schema
from karakuri_agent.llm.settings import DEFAULT_MAX_TOKENS, LLMSettings
from karakuri_agent.decide.rules import RulePolicy
from testing.llm_server import HANG, running_model
from testing.model_decider import ACCEPT, END, MODEL_KEY, REJECT, SPEAK, choice, gate, make_view, proposal

pytestmark = pytest.mark.process

GOOD = proposal("conversation_accept", {"message": "メイさん、こんにちは！何の話？"}, "誘いに応える")
BUY_TEA = choice("action", description="お茶を買う", params={"action_id": "buy-tea"})
BUY_RICE = choice("action", description="おにぎりを買う", params={"action_id": "buy-onigiri"})
WAIT = choice("wait", required_params=["duration"],
              param_schema={"duration": {"type": "integer", "minimum": 1, "maximum": 6, "description": "10分単位"}})


def offered_commands(schema: dict) -> list[str]:
    """The commands a proposal schema allows, in order."""
    return [value for alternative in schema.get("anyOf", ()) for value in alternative["properties"]["command"]["enum"]]


def settings(base_url: str, **fields) -> LLMSettings:
    return LLMSettings(base_url=base_url, model="test-model", api_key=Secret(MODEL_KEY), **fields)


def ask(server, view, **fields):
    decider = LLMDecider(settings(server.base_url, **fields), RulePolicy(), gate=gate)
    return decider, decider.propose(view).candidates


def refusal(field: str, message: str | None = None) -> tuple[int, dict]:
    return 400, {"error": {"message": message or f"'{field}' is not supported", "type": "invalid_request_error",
                           "param": field}}


def alternative(schema: dict, command: str) -> dict:
    return next(a for a in schema["anyOf"] if a["properties"]["command"]["enum"] == [command])


# -- bounded, reproducible, shaped ------------------------------------------------------------------
def test_the_request_carries_a_bound_a_temperature_and_the_schema_of_the_offered_choices():
    with running_model([GOOD]) as server:
        _, decisions = ask(server, make_view([ACCEPT, REJECT]))
    assert decisions[0].command == "conversation_accept"
    [body] = server.requests
    assert body["max_tokens"] == DEFAULT_MAX_TOKENS and body["temperature"] == 0
    assert body["response_format"]["type"] == "json_schema"
    schema = body["response_format"]["json_schema"]["schema"]
    assert offered_commands(schema) == ["conversation_accept", "conversation_reject"]
    params = alternative(schema, "conversation_accept")["properties"]["params"]
    assert params["required"] == ["message"] and params["additionalProperties"] is False
    assert params["properties"]["message"] == {"type": "string", "maxLength": 200, "minLength": 1}
    assert alternative(schema, "conversation_reject")["properties"]["params"]["properties"] == {}


def test_the_bounds_come_from_the_settings():
    env = {"KARAKURI_LLM_BASE_URL": "http://127.0.0.1:1/v1", "KARAKURI_LLM_MODEL": "m",
           "KARAKURI_LLM_MAX_TOKENS": "256", "KARAKURI_LLM_TEMPERATURE": "0.7"}
    read = LLMSettings.from_env(env)
    assert (read.max_tokens, read.temperature) == (256, 0.7)
    with running_model([GOOD]) as server:
        ask(server, make_view([ACCEPT, REJECT]), max_tokens=read.max_tokens, temperature=read.temperature)
    assert (server.requests[0]["max_tokens"], server.requests[0]["temperature"]) == (256, 0.7)


@pytest.mark.parametrize("name, raw", [
    ("KARAKURI_LLM_MAX_TOKENS", "0"), ("KARAKURI_LLM_MAX_TOKENS", "15"), ("KARAKURI_LLM_MAX_TOKENS", "8193"),
    ("KARAKURI_LLM_MAX_TOKENS", "400.5"), ("KARAKURI_LLM_MAX_TOKENS", "-1"), ("KARAKURI_LLM_MAX_TOKENS", "lots"),
    ("KARAKURI_LLM_TEMPERATURE", "2.5"), ("KARAKURI_LLM_TEMPERATURE", "-0.1"), ("KARAKURI_LLM_TEMPERATURE", "nan"),
    ("KARAKURI_LLM_TEMPERATURE", "warm"),
])
def test_a_bound_out_of_range_is_a_configuration_error_naming_the_variable(name, raw):
    env = {"KARAKURI_LLM_BASE_URL": "http://127.0.0.1:1/v1", "KARAKURI_LLM_MODEL": "m", name: raw}
    with pytest.raises(ConfigError, match=f"^{name} must be") as caught:
        LLMSettings.from_env(env)
    assert repr(raw) in str(caught.value)


def test_choices_sharing_a_command_are_told_apart_by_their_own_params():
    schema = proposal_schema([BUY_TEA, BUY_RICE, WAIT])
    assert offered_commands(schema) == ["action", "action", "wait"]
    actions = [a["properties"]["params"] for a in schema["anyOf"][:2]]
    assert [a["properties"]["action_id"] for a in actions] == [{"enum": ["buy-tea"]}, {"enum": ["buy-onigiri"]}]
    assert all(a["required"] == ["action_id"] for a in actions)
    wait = schema["anyOf"][2]["properties"]["params"]
    assert wait["properties"]["duration"] == {"type": "integer", "minimum": 1, "maximum": 6}  # no description
    assert wait["required"] == ["duration"]


def test_every_request_of_a_repair_carries_the_same_bound_and_schema():
    with running_model([proposal("move", {"target_node_id": "7-11"}), GOOD]) as server:
        ask(server, make_view([ACCEPT, REJECT]))
    first, second = server.requests
    assert first["response_format"] == second["response_format"]
    assert first["max_tokens"] == second["max_tokens"] == DEFAULT_MAX_TOKENS


# -- what a server refuses ---------------------------------------------------------------------------
def test_a_refused_schema_falls_back_to_a_json_object_then_to_text_and_is_remembered():
    script = [refusal("response_format", "response_format type json_schema is not supported"),
              refusal("response_format", "'response_format.type' must be 'text'"), GOOD, GOOD]
    with running_model(script) as server:
        decider, decisions = ask(server, make_view([ACCEPT, REJECT]))
        assert decisions[0].command == "conversation_accept"
        assert decider.last_trace.outcome == "model" and decider.last_trace.response_format == "text"
        formats = [r.get("response_format", {}).get("type") for r in server.requests]
        assert formats == ["json_schema", "json_object", None]
        assert all(r["max_tokens"] == DEFAULT_MAX_TOKENS for r in server.requests)  # bounded all the same
        ask(server, make_view([ACCEPT, REJECT]))  # the next notification, a new decider: learnt once
        assert len(server.requests) == 4 and "response_format" not in server.requests[3]


def test_a_server_that_takes_only_max_completion_tokens_gets_it():
    message = ("Unsupported parameter: 'max_tokens' is not supported with this model."
               " Use 'max_completion_tokens' instead.")
    with running_model([(400, {"error": {"message": message, "param": None}}), GOOD]) as server:
        decider, _ = ask(server, make_view([ACCEPT, REJECT]))
    first, second = server.requests
    assert "max_completion_tokens" not in first and first["max_tokens"] == DEFAULT_MAX_TOKENS
    assert "max_tokens" not in second and second["max_completion_tokens"] == DEFAULT_MAX_TOKENS
    assert second["response_format"]["type"] == "json_schema" and decider.last_trace.outcome == "model"


def test_a_model_with_a_fixed_temperature_is_asked_without_one():
    with running_model([refusal("temperature", "Unsupported value: 'temperature' does not support 0"), GOOD]) as server:
        ask(server, make_view([ACCEPT, REJECT]))
    assert "temperature" in server.requests[0] and "temperature" not in server.requests[1]
    assert server.requests[1]["max_tokens"] == DEFAULT_MAX_TOKENS


def test_a_refusal_that_names_no_field_leaves_the_decision_to_the_rules_at_once():
    with running_model([(400, {"error": {"message": "context length exceeded"}})]) as server:
        view = make_view([ACCEPT, REJECT])
        decider, decisions = ask(server, view)
    assert decisions == RulePolicy().propose(view).candidates and len(server.requests) == 1
    assert decider.last_trace.error == "http 400"


def test_a_server_refusing_everything_is_not_asked_forever():
    script = [refusal("response_format")] * 2 + [refusal("temperature")] + [refusal("max_tokens")] * 3
    with running_model(script) as server:
        decider, _ = ask(server, make_view([ACCEPT, REJECT]))
    # schema → object → text, no temperature, the other token field, then the refusal stands.
    assert len(server.requests) == 5 and decider.last_trace.error == "http 400"
    assert all("max_tokens" in r or "max_completion_tokens" in r for r in server.requests)


# -- a repair that can repair ---------------------------------------------------------------------------
def test_the_repair_shows_the_model_its_answer_and_the_gate_s_problems():
    bad = proposal("conversation_accept", {"message": "こんにちは、メイさん！"}, "挨拶")  # said before
    with running_model([bad, GOOD]) as server:
        decider, decisions = ask(server, make_view([ACCEPT, REJECT]))
    assert decisions[0].params["message"] == "メイさん、こんにちは！何の話？" and decider.last_trace.repaired
    messages = server.requests[1]["messages"]
    assert messages[:2] == server.requests[0]["messages"]
    assert messages[2]["role"] == "assistant"
    assert json.loads(messages[2]["content"]) == {"command": "conversation_accept",
                                                  "params": {"message": "こんにちは、メイさん！"}, "reason": "挨拶"}
    assert messages[3]["role"] == "user" and "- message was already said" in messages[3]["content"]
    assert "command は次のどれか: conversation_accept, conversation_reject" in messages[3]["content"]


def test_after_an_unreadable_answer_the_repair_asks_for_the_json_alone():
    echo = "## 状況\n## 状況\n## 状況"
    with running_model([echo, proposal("conversation_speak", {"message": "いいね！", "next_speaker_agent_id": "1474403124906295517"})]) as server:
        view = make_view([SPEAK, END], kind="conversation_message")
        decider, decisions = ask(server, view)
    assert decisions[0].command == "conversation_speak" and decider.last_trace.repaired
    messages = server.requests[1]["messages"]
    assert len(messages) == 3 and all(m["role"] != "assistant" for m in messages)  # the echo is not shown back
    last = messages[-1]["content"]
    assert "no JSON object" in last and "JSON オブジェクト1つだけ" in last and echo not in last
    rules = RulePolicy().propose(view).candidates[0]
    assert json.loads(last.splitlines()[-1])["command"] == rules.command  # the shape, filled by the rules


# -- the budget ------------------------------------------------------------------------------------------
def test_when_the_budget_runs_out_the_trace_says_why_the_rules_acted(caplog):
    with running_model([HANG]) as server:
        decider, _ = ask(server, make_view([ACCEPT, REJECT]), timeout=0.5)
    trace = decider.last_trace
    assert trace.out_of_time and trace.budget == 0.5
    assert "timeout: no usable answer within 0.5 s (KARAKURI_LLM_TIMEOUT) → rules decided" in trace.line()
    assert "KARAKURI_LLM_TIMEOUT=0.5 s; the rules decided" in caplog.text


# -- probe, for doctor -----------------------------------------------------------------------------------
def test_probe_asks_once_with_a_tiny_bounded_prompt_and_reports_the_latency():
    with running_model(['{"ok": true}']) as server:
        ok, seconds, message = probe(settings(server.base_url))
    assert ok and 0 <= seconds < 5
    assert message.startswith("model test-model: answered in ") and "json_schema" in message
    [body] = server.requests
    assert body["max_tokens"] == 16 and body["response_format"]["type"] == "json_schema"
    assert sum(len(m["content"]) for m in body["messages"]) < 100


def test_probe_of_a_model_that_does_not_answer_says_so_without_the_key():
    with running_model([HANG]) as server:
        ok, seconds, message = probe(settings(server.base_url, timeout=0.5))
    assert not ok and seconds >= 0.5
    assert "no answer (timeout)" in message and MODEL_KEY not in message and server.base_url not in message


# -- demo and the CLI ------------------------------------------------------------------------------------
def test_demo_with_the_model_deciding_asks_it_and_shows_what_it_proposed(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env of the user's
    with running_model(lambda request: '{"command": "wait", "params": {"duration": 1}, "reason": "待つ"}') as server:
        for name, value in {"KARAKURI_LLM_BASE_URL": server.base_url, "KARAKURI_LLM_MODEL": "tiny",
                            "KARAKURI_LLM_TIMEOUT": "5"}.items():
            monkeypatch.setenv(name, value)
        result = CliRunner().invoke(agent, ["demo", "--decider", "llm"])
    assert result.exit_code == 0, result.output
    assert len(server.requests) >= 5 and all("response_format" in r and "max_tokens" in r for r in server.requests)
    assert "model tiny: " in result.stdout and "wait" in result.stdout


def test_demo_honours_the_environment_s_decider(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("KARAKURI_LLM_MODEL=from-env-file\n", encoding="utf-8")
    monkeypatch.setenv("KARAKURI_DECIDER", "llm")
    with running_model(lambda request: "not json") as server:
        monkeypatch.setenv("KARAKURI_LLM_BASE_URL", server.base_url)
        result = CliRunner().invoke(agent, ["demo", "--json"])
    assert result.exit_code == 0, result.output
    assert server.requests and {r["model"] for r in server.requests} == {"from-env-file"}
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(records) == 17  # the session still replays whole: the rules decided each time
