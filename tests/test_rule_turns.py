"""A pack rule that speaks in a conversation or leaves one (issue 32 item 2), through `karakuri-agent handle`.

The world takes a turn only with a next speaker who is a current
participant other than the agent (the engine's `resolveNextSpeaker`); a
rule's turn gets it filled as the built-in turn does (the partner; in a
group, who spoke last), `"{partner}"` and a participant's name too, and
its `say` phrases as the message.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from testing.samples import BODY, POST_URL
from karakuri_agent.app.cli import agent
from karakuri_agent.voice.persona_pack import PACK_FILE, bundled_pack_dir

MEI, SORA, ME = "1474403124906295517", "1480000000000000001", "1470446478261747854"


def _turn(*, speakers: list[tuple[str, str, str]], enum: list[str] | None, end_command: str = "end_conversation"):
    """A conversation_message turn among the agent, 桜草メイ and 朝凪ソラ; `speakers` are (id, name, line)."""
    schema = {"message": {"type": "string", "maxLength": 200},
              "next_speaker_agent_id": {"type": "string", **({"enum": enum} if enum else {})}}
    lines = "\n".join(f"{name}: 「{line}」" for _, name, line in speakers)
    return {
        "notification_id": "notif-01JDX9M7QZ", "created_at": "2026-11-29T03:00:00.000Z",
        "expires_at": "2099-11-29T12:10:00.000Z", "status": "pending",
        "notification": {
            "type": "conversation_message",
            "text": f"参加者: 桜草メイ (id: {MEI})、朝凪ソラ (id: {SORA})、AIニケちゃん (id: {ME})\n\n{lines}",
            "participants": [{"id": MEI, "name": "桜草メイ"}, {"id": SORA, "name": "朝凪ソラ"},
                             {"id": ME, "name": "AIニケちゃん"}],
            "conversation_messages": [{"speaker_id": i, "speaker": n, "message": m} for i, n, m in speakers],
            "choices": [
                {"command": "conversation_speak", "description": "返答する",
                 "required_params": ["message", "next_speaker_agent_id"], "param_schema": schema},
                {"command": end_command, "description": "会話から退出する",
                 "required_params": ["message", "next_speaker_agent_id"], "param_schema": schema},
            ],
        },
    }


def _pack(tmp_path, monkeypatch, then: list[dict]) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / PACK_FILE).write_bytes((bundled_pack_dir() / PACK_FILE).read_bytes())
    rule = {"id": "nyan", "when": {"type": "notification", "types": ["conversation_message"]},
            "then": then, "priority": 400}
    (pack / "behaviour.json").write_text(json.dumps({"rules": [rule]}, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(pack))


def _run(notification) -> tuple[str, dict | None]:
    import respx

    with respx.mock(assert_all_called=False) as mock:
        mock.get(url__regex=r".*/agents/notifications/notif-01JDX9M7QZ$").respond(200, json=notification)
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        result = CliRunner().invoke(agent, ["handle", "--explain", BODY])
    assert result.exit_code == 0, result.output
    sent = json.loads(post.calls[-1].request.content) if post.calls else None
    return result.stdout, sent


GROUP = [(MEI, "桜草メイ", "こんにちは！"), (SORA, "朝凪ソラ", "いい天気だね")]


@pytest.mark.parametrize("command", ["conversation_speak", "end_conversation", "conversation_end"])
def test_a_rules_turn_goes_to_who_spoke_last_in_a_group_with_its_say_line(env, tmp_path, monkeypatch, command):
    _pack(tmp_path, monkeypatch, [{"type": "choose", "command": command},
                                  {"type": "say", "phrases": ["{partner}、にゃーん"]}])
    out, sent = _run(_turn(speakers=GROUP, enum=[MEI, SORA], end_command=command if command != "conversation_speak"
                           else "end_conversation"))
    assert "  rule: nyan" in out, out
    assert sent is not None and sent["command"] == command
    assert sent["params"] == {"message": "朝凪ソラさん、にゃーん", "next_speaker_agent_id": SORA}


def test_without_an_enum_the_turn_still_names_a_participant_and_the_built_in_line_is_kept(env, tmp_path,
                                                                                          monkeypatch):
    _pack(tmp_path, monkeypatch, [{"type": "choose", "command": "conversation_speak"}])
    out, sent = _run(_turn(speakers=[(SORA, "朝凪ソラ", "いい天気だね"), (MEI, "桜草メイ", "本は好き？")], enum=None))
    assert "  rule: nyan" in out, out
    assert sent["params"]["next_speaker_agent_id"] == MEI
    assert sent["params"]["message"].strip()  # the built-in turn's line: never empty, never a key


@pytest.mark.parametrize(("named", "expected"), [("{partner}", SORA), ("桜草メイ", MEI), (MEI, MEI)])
def test_next_speaker_may_be_partner_a_participants_name_or_id(env, tmp_path, monkeypatch, named, expected):
    _pack(tmp_path, monkeypatch, [{"type": "choose", "command": "conversation_speak",
                                   "params": {"next_speaker_agent_id": named}},
                                  {"type": "say", "phrases": ["またね"]}])
    out, sent = _run(_turn(speakers=GROUP, enum=[MEI, SORA]))
    assert "  rule: nyan" in out, out
    assert sent["params"] == {"message": "またね", "next_speaker_agent_id": expected}


@pytest.mark.parametrize(("named", "why"), [
    ("誰か", "誰か is not someone in this conversation"),
    (ME, "the turn cannot go to the agent itself"),  # the world's `cannot_nominate_self`
    ("AIニケちゃん", "the turn cannot go to the agent itself"),
])
def test_a_next_speaker_outside_the_conversation_makes_the_rule_give_way(env, tmp_path, monkeypatch, named, why):
    _pack(tmp_path, monkeypatch, [{"type": "choose", "command": "conversation_speak",
                                   "params": {"next_speaker_agent_id": named}}])
    out, sent = _run(_turn(speakers=GROUP, enum=None))
    assert "  rule: conversation-turn" in out and f"gave way: nyan ({why}" in out, out
    assert sent is not None and sent["params"]["next_speaker_agent_id"] in (MEI, SORA)


def test_the_bundled_session_takes_a_rules_farewell(tmp_path, monkeypatch):
    """The recorded turn (notif-demo05) ends with the rule's line, its next speaker the partner."""
    _pack(tmp_path, monkeypatch, [{"type": "choose", "command": "end_conversation",
                                   "params": {"next_speaker_agent_id": "{partner}"}},
                                  {"type": "say", "phrases": ["{partner}、またにゃ"]}])
    result = CliRunner().invoke(agent, ["handle", "--dry-run", "--json", "--fixtures", "bundled",
                                        "notification_id: notif-demo05"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)["decision"]
    assert record["command"] == "end_conversation", record
    assert record["params"] == {"message": "桜草メイさん、またにゃ", "next_speaker_agent_id": MEI}
