"""The model side's inputs: its settings, reading its answers, and the prompt it is shown."""

from __future__ import annotations

import subprocess
from dataclasses import replace
import sys
from datetime import datetime, timezone

import pytest

from karakuri_agent.memory.context import Identity
from karakuri_agent.errors import ConfigError
from karakuri_agent.llm.prompt import build_messages, persona_card
from karakuri_agent.llm.proposal import Proposal, UnreadableProposal, read_proposal
from karakuri_agent.llm.settings import LLMSettings
from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.records import Meeting, Parsed
from karakuri_agent.mind.view import View
from karakuri_agent.voice.persona_pack import load_persona
from testing.store_rows import as_lines, as_refs

GOOD = '{"command": "conversation_accept", "params": {"message": "うん、いいよ！"}, "reason": "誘いを受ける"}'


# -- settings ------------------------------------------------------------------------------
def llm_env(**overrides: str) -> dict[str, str]:
    return {"KARAKURI_LLM_BASE_URL": "http://localhost:11434/v1", "KARAKURI_LLM_MODEL": "qwen2.5:7b", **overrides}


@pytest.mark.parametrize("given, expected", [
    ("http://localhost:11434/v1", "http://localhost:11434/v1"),
    ("http://localhost:11434", "http://localhost:11434/v1"),
    ("http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1"),
    ("https://llm.example.com/v1/chat/completions", "https://llm.example.com/v1"),
    ("http://[::1]:8000/v1", "http://[::1]:8000/v1"),
])
def test_the_base_url_is_normalised_to_the_v1_base(given, expected):
    assert LLMSettings.from_env(llm_env(KARAKURI_LLM_BASE_URL=given)).base_url == expected


@pytest.mark.parametrize("given, says", [
    ("", "is not set"),
    ("http://192.168.1.20:11434/v1", "https://"),
    ("http://llm.example.com/v1", "https://"),
    ("ftp://localhost/v1", "http(s) URL"),
    ("https://llm.example.com/api", "end in /v1"),
    ("https://llm.example.com/v1?key=abc", "query"),
])
def test_a_bad_base_url_is_one_clear_line(given, says):
    with pytest.raises(ConfigError) as error:
        LLMSettings.from_env(llm_env(KARAKURI_LLM_BASE_URL=given))
    assert says in error.value.message and "\n" not in error.value.message
    assert error.value.message.startswith("KARAKURI_LLM_BASE_URL")


def test_an_error_about_the_base_url_never_echoes_it():
    with pytest.raises(ConfigError) as error:
        LLMSettings.from_env(llm_env(KARAKURI_LLM_BASE_URL="http://user:hunter22@llm.example.com/v1"))
    assert "hunter22" not in str(error.value)


def test_the_model_is_required_and_the_timeout_defaults_to_twenty_seconds():
    with pytest.raises(ConfigError, match="KARAKURI_LLM_MODEL"):
        LLMSettings.from_env(llm_env(KARAKURI_LLM_MODEL=" "))
    settings = LLMSettings.from_env(llm_env())
    assert settings.timeout == 20 and settings.api_key is None
    assert LLMSettings.from_env(llm_env(KARAKURI_LLM_TIMEOUT="7.5")).timeout == 7.5
    with pytest.raises(ConfigError, match="KARAKURI_LLM_TIMEOUT"):
        LLMSettings.from_env(llm_env(KARAKURI_LLM_TIMEOUT="soon"))


def test_the_key_never_shows_in_the_settings_repr():
    settings = LLMSettings.from_env(llm_env(KARAKURI_LLM_API_KEY="sk-model-key-123456"))
    assert settings.api_key.get() == "sk-model-key-123456"
    assert "sk-model-key-123456" not in repr(settings) and "sk-model-key-123456" not in str(settings)


# -- reading the answer ------------------------------------------------------------------------
@pytest.mark.parametrize("answer", [
    GOOD,
    f"```json\n{GOOD}\n```",
    f"はい、こうします。\n```\n{GOOD}\n```\n以上です。",
    f"考えました: {GOOD} これでどうでしょう。",
    f"[{GOOD}, {{\"command\": \"conversation_reject\", \"params\": {{}}, \"reason\": \"断る\"}}]",
    f"<think>{{\"command\": \"conversation_reject\"}} かな？</think>{GOOD}",
    f"[注意] 答え: {GOOD}",
])
def test_the_first_proposal_is_read_through_fences_prose_lists_and_thinking(answer):
    assert read_proposal(answer) == Proposal(command="conversation_accept", params={"message": "うん、いいよ！"},
                                             reason="誘いを受ける")


@pytest.mark.parametrize("answer, problem", [
    ("", "no JSON object"),
    ("I would accept the conversation.", "no JSON object"),
    ("[1, 2, 3]", "no JSON object"),
    ('{"params": {}, "reason": "x"}', "command"),
    ('{"command": "move", "params": "7-11"}', "params"),
])
def test_an_answer_without_a_proposal_is_a_short_problem(answer, problem):
    with pytest.raises(UnreadableProposal) as error:
        read_proposal(answer)
    assert problem in error.value.problem and "\n" not in error.value.problem


def test_missing_params_are_empty_and_a_long_reason_becomes_one_short_line():
    proposal = read_proposal('{"command": " wait ", "params": null, "reason": "長い\\n理由' + "。" * 300 + '"}')
    assert proposal.command == "wait" and proposal.params == {}
    assert "\n" not in proposal.reason and len(proposal.reason) <= 120 and proposal.reason.startswith("長い 理由")


def test_a_reason_carries_no_terminal_control_codes():
    proposal = read_proposal('{"command": "wait", "reason": "\\u001b[2J画面を\\u0007消す\\u200e"}')
    assert proposal.reason == "[2J画面を消す"


# -- the prompt ------------------------------------------------------------------------------
NOW = datetime(2026, 4, 18, 6, 0, tzinfo=timezone.utc)
ME = Identity("1470446478261747854", "AIニケちゃん")
MEI = {"id": "1474403124906295517", "name": "桜草メイ"}
ACCEPT = Choice.from_json({"command": "conversation_accept", "required_params": ["message"],
                           "param_schema": {"message": {"type": "string", "maxLength": 200}}})
REJECT = Choice.from_json({"command": "conversation_reject", "description": "会話を断る"})


def request_view(**extra) -> View:
    return View(
        notification_id="notif-prompt",
        choices=[ACCEPT, REJECT],
        parsed=Parsed(notification_type="conversation_requested",
                      participants=as_refs([MEI, {"id": ME.agent_id, "name": ME.name}]),
                      conversation_messages=as_lines([{"speaker": "桜草メイ", "speaker_id": MEI["id"],
                                                       "message": "図書館に行かない？"}]),
                      location={"current_node": {"node_id": "6-11", "name": "喫茶店 店内"}}),
        people=[], pending=[Meeting(partner_name="桜草メイ", place_name="神社", node_id="3-3",
                                    due_at=datetime.fromisoformat("2026-04-18T07:00:00+00:00"))],
        me=ME, now=NOW, persona=load_persona(),
        said_before=["こんにちは、メイさん！"],
        **extra,
    )


def prompt_text(messages) -> str:
    return "\n".join(m["content"] for m in messages)


def test_the_prompt_carries_persona_situation_choices_and_the_rules_default():
    default = Decision("conversation_accept", {"message": "うん、いいよ！"}, "メイの誘いを受ける")
    messages = build_messages(persona_card(load_persona()), request_view(), default)
    assert [m["role"] for m in messages] == ["system", "user"]
    system, user = messages[0]["content"], messages[1]["content"]
    assert "AIニケちゃん" in system and "「わたし」" in system and "お金や物を渡さない" in system
    assert '"line":"図書館に行かない？"' in user  # the partner's line, as quoted data
    assert '"command":"conversation_accept"' in user and '"maxLength":200' in user
    assert '"command":"conversation_reject"' in user
    # The rules' choice is the default, without its line: a model shown the line copies it.
    assert '{"command":"conversation_accept","params":{"message":"<自分の言葉で1〜2文>"},"reason":"メイの誘いを受ける"}' in user
    assert "うん、いいよ！" not in user
    assert "こんにちは、メイさん！" in user  # what was said before, so it is not said again
    assert '"place":"神社"' in user and '"at":"04/18 16:00"' in user  # a promise, in the world's time


def test_a_repair_shows_the_previous_answer_and_each_problem():
    messages = build_messages(persona_card(load_persona()), request_view(), None,
                              repair=("{\"command\": \"move\"}", ["move is not one of the offered choices"]))
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[2]["content"] == "{\"command\": \"move\"}"
    assert "- move is not one of the offered choices" in messages[3]["content"]


def test_the_persona_is_a_plain_mapping_any_pack_can_fill():
    card = {"name": "テスト太郎", "first_person": "ぼく", "tone": "のんびり", "likes": ["将棋", "お茶"]}
    system = build_messages(card, request_view(), None)[0]["content"]
    assert "テスト太郎" in system and "「ぼく」" in system and "将棋、お茶" in system and "ニケ" not in system


def test_long_conversations_are_cut_to_the_last_lines():
    lines = [{"speaker": "桜草メイ", "speaker_id": MEI["id"], "message": f"発言{i:02d}"} for i in range(30)]
    view = request_view()
    view = replace(view, parsed=replace(view.parsed, conversation_messages=as_lines(lines)))
    user = build_messages(persona_card(load_persona()), view, None)[1]["content"]
    assert "発言29" in user and "発言22" in user and "発言21" not in user


def test_importing_the_cli_loads_neither_openai_nor_pydantic():
    code = "import sys, karakuri_agent.app.cli; print(sorted({'openai', 'pydantic'} & set(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_prompt_carries_each_participants_facts_and_closeness_band():
    from dataclasses import replace
    from pathlib import Path

    pack = load_persona(Path(__file__).resolve().parents[1] / "skill" / "personas" / "nike")
    told = {MEI["id"]: [
        {"kind": "pet", "topic": "ミケ", "about_id": MEI["id"], "about_name": "桜草メイ", "speaker_name": "桜草メイ",
         "said_at": "2026-04-17T01:00:00.000+00:00", "source": "猫を飼ってるの、名前はミケ。", "withdrawn_at": None},
        {"kind": "plan", "topic": "引っ越し", "about_id": MEI["id"], "about_name": "桜草メイ", "speaker_name": "桜草メイ",
         "said_at": "2026-04-17T02:00:00.000+00:00", "source": "来週の土曜に引っ越すんだ。",
         "withdrawn_at": "2026-04-17T03:00:00.000+00:00"}]}
    view = replace(request_view(told=told, behaviour_memory={"variables": {"closeness.桜草メイ": 30}}), persona=pack)
    user = build_messages(persona_card(pack), view, None)[1]["content"]
    participant = next(line for line in user.splitlines() if '"name":"桜草メイ"' in line and "closeness" in line)
    assert '"closeness":"友達"' in participant
    # What the one whose line is answered told is in the understanding, once: not in her participant line.
    told_section = user.split("## この相手から前に聞いたこと\n")[1].split("\n## ")[0]
    assert told_section == '"2026-04-17 桜草メイ「猫を飼ってるの、名前はミケ。」"'
    assert user.count("猫を飼ってるの") == 1
    assert "引っ越" not in user  # taken back: not carried
