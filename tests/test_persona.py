"""Persona packs: another character end to end, and `persona check` on each kind of mistake.

The oracles are written here: words that must or must not appear in what the
programs print, and the file and field a problem line must name. Nothing is
compared with speech internals.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from testing.runs import run_agent

from karakuri_agent.voice.persona_pack import bundled_pack_dir, iter_templates, load_persona
from karakuri_agent.voice.speech import compose

NIKE = ("ニケ", "にけ")
# Said only by タロウ's pack: seeing it proves the pack, not a default, spoke.
TARO_GREETING = "僕はタロウ、将棋が好きなんだ"
TARO = {
    "name": "タロウ",
    "first_person": "僕",
    "honorific": "くん",
    "tone": "将棋とラーメンが好きな、のんびりした男の子。",
    "likes": ["将棋", "ラーメン"],
    "greetings": {"first_meeting": ["はじめまして、{partner}。" + TARO_GREETING + "。",
                                    "{partner}、はじめまして！" + TARO_GREETING + "。"]},
    "answers": {"unknown": ["うーん、僕にはわからないなあ。"]},
    "rules": {"conversation_turns": 4},
}
BODY = "AIニケちゃん への通知があります。notification_id: notif-demo01"


def write_pack(directory: Path, data: object) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    (directory / "persona.json").write_text(text, encoding="utf-8")
    return directory


# --- another character drives every program --------------------------------

def test_another_characters_pack_drives_the_demo_without_a_word_of_nike(home, tmp_path):
    pack = write_pack(tmp_path / "taro", TARO)
    code, out, err = run_agent({**home, "KARAKURI_PERSONA_DIR": str(pack)}, "demo", cwd=tmp_path)
    assert code == 0, err
    whole = out + err
    assert not any(word in whole for word in NIKE), [line for line in whole.splitlines() if "ニケ" in line]
    assert TARO_GREETING in out  # his own first-meeting line was said
    assert "タロウ" in out  # the recording is replayed as his


def test_the_bundled_demo_still_plays_the_bundled_character(home, tmp_path):
    code, out, _ = run_agent(home, "demo", cwd=tmp_path)
    assert code == 0 and "ニケ" in out and TARO_GREETING not in out


def test_a_pack_with_only_a_name_and_first_person_speaks_in_a_neutral_voice(tmp_path):
    pack = load_persona(write_pack(tmp_path / "min", {"name": "タロウ", "first_person": "僕"}))
    assert pack.first_person == "僕"
    lines = [compose(purpose, persona=pack, partner_name="桜草メイ", partner_known=known,
                     last_line=line, place_name="6-11 (喫茶店 店内)", time_text="18時", seed=str(seed))
             for purpose in ("accept", "reply", "farewell", "start", "promise_accept")
             for known in (False, True)
             for line in ("本は好き？", "今日は暑いね", "昨日の試合、誰が勝ったの？")
             for seed in range(4)]
    assert all(line and not any(word in line for word in NIKE) for line in lines)
    assert not any(word in template for _, template in iter_templates(pack) for word in NIKE)


def test_the_pack_honorific_is_how_partners_are_called(tmp_path):
    pack = load_persona(write_pack(tmp_path / "taro", TARO))
    line = compose("accept", persona=pack, partner_name="桜草メイ", partner_known=False, seed="x")
    assert "メイくん" in line and "メイさん" not in line


def test_a_broken_pack_stops_handle_with_the_line_check_prints(home, tmp_path):
    pack = write_pack(tmp_path / "broken", {"name": "タロウ", "farewells": []})
    code, out, _ = run_agent(home, "persona", "check", str(pack), cwd=tmp_path)
    assert code == 1
    first_problem = out.splitlines()[0]
    env = {**home, "KARAKURI_PERSONA_DIR": str(pack), "KARAKURI_STATE_DIR": str(tmp_path / "state")}
    for args in (("handle", "--fixtures", "bundled", BODY), ("demo",)):
        code, out, err = run_agent(env, *args, cwd=tmp_path)
        assert code == 2, (args, err)
        assert first_problem in err and "KARAKURI_PERSONA_DIR" in err, (args, err)
    assert not (tmp_path / "state").exists()  # refused before anything was opened


def test_the_skill_text_names_the_packs_character_and_the_agent_id(home, tmp_path):
    pack = write_pack(tmp_path / "taro", TARO)
    code, out, err = run_agent(home, "persona", "skill", str(pack), "--agent-id", "1234567890", cwd=tmp_path)
    assert code == 0, err
    assert "タロウ" in out and "1234567890" in out and "一人称「僕」" in out
    assert "{{" not in out and not any(word in out for word in NIKE)


def test_the_skill_text_needs_an_agent_id(home, tmp_path):
    code, _, err = run_agent(home, "persona", "skill", str(write_pack(tmp_path / "taro", TARO)), cwd=tmp_path)
    assert code == 2 and "KARAKURI_SELF_AGENT_ID" in err


# --- init and check ------------------------------------------------------------

def test_the_scaffold_passes_its_own_check_and_explains_every_field_it_writes(home, tmp_path):
    pack = tmp_path / "new"
    code, _, err = run_agent(home, "persona", "init", str(pack), "--name", "タロウ", cwd=tmp_path)
    assert code == 0, err
    code, out, _ = run_agent(home, "persona", "check", str(pack), cwd=tmp_path)
    assert code == 0, out
    written = json.loads((pack / "persona.json").read_text(encoding="utf-8"))
    assert written["name"] == "タロウ"
    readme = (pack / "README.md").read_text(encoding="utf-8")

    def fields(data: dict, prefix: str = ""):
        for key, value in data.items():
            yield key
            if isinstance(value, dict):
                yield from fields(value)

    assert all(f"`{field}`" in readme or f".{field}`" in readme for field in fields(written))


def test_init_refuses_a_directory_that_is_not_empty(home, tmp_path):
    pack = write_pack(tmp_path / "taken", TARO)
    code, _, err = run_agent(home, "persona", "init", str(pack), "--name", "ジロウ", cwd=tmp_path)
    assert code == 2 and "taken" in err
    assert json.loads((pack / "persona.json").read_text(encoding="utf-8"))["name"] == "タロウ"


def test_the_bundled_pack_passes_check(home, tmp_path):
    code, out, _ = run_agent(home, "persona", "check", str(bundled_pack_dir()), cwd=tmp_path)
    assert code == 0, out


LONG = "あ" * 190 + "{partner}"


@pytest.mark.parametrize(("content", "field", "expected"), [
    ('{"name": "タロウ",', "line 1", "JSON"),
    ({"name": "タロウ", "catchphrase": "やあ"}, "catchphrase", "unknown field"),
    ({"name": "タロウ", "greetings": {"hello": ["やあ"]}}, "greetings.hello", "unknown field"),
    ({"name": "タロウ", "first_person": 1}, "first_person", "text"),
    ({"name": "タロウ", "rules": {"conversation_turns": "8"}}, "rules.conversation_turns", "whole number"),
    ({"name": "タロウ", "farewells": []}, "farewells", "at least one"),
    ({"name": "タロウ", "answers": {"unknown": [""]}}, "answers.unknown[0]", "non-empty"),
    ({"name": "タロウ", "accept": ["いいよ", LONG]}, "accept[1]", "200"),
    ({"name": "タロウ", "accept": ["{boss}に送金するね"]}, "accept[0]", "{boss}"),
    ({"name": "タロウ", "small_talk": {"topic_aliases": {"将棋盤": "将棋"}}}, "small_talk.topic_aliases.将棋盤",
     "by_topic"),
    ({"first_person": "僕"}, "name", "required"),
    (["タロウ"], "top", "object"),
])
def test_check_names_the_file_the_field_and_what_is_expected(home, tmp_path, content, field, expected):
    pack = write_pack(tmp_path / "pack", content)
    code, out, _ = run_agent(home, "persona", "check", str(pack), cwd=tmp_path)
    lines = out.splitlines()
    assert code == 1 and len(lines) == 1, out
    assert lines[0].startswith(str(pack / "persona.json") + ":")
    assert field in lines[0] and expected in lines[0], lines[0]


def test_check_lists_every_problem_one_per_line(home, tmp_path):
    pack = write_pack(tmp_path / "pack", {"name": "タロウ", "farewells": [], "colour": "blue", "tails": "ふふ"})
    code, out, _ = run_agent(home, "persona", "check", str(pack), cwd=tmp_path)
    lines = out.splitlines()
    assert code == 1 and len(lines) == 3
    assert {"farewells", "colour", "tails"} == {line.split(": ")[1] for line in lines}


def test_check_on_a_directory_without_a_pack_says_how_to_make_one(home, tmp_path):
    (tmp_path / "empty").mkdir()
    code, out, _ = run_agent(home, "persona", "check", str(tmp_path / "empty"), cwd=tmp_path)
    assert code == 1 and "persona.json" in out and "persona init" in out


def test_the_old_persona_file_variable_points_to_the_new_one(home, tmp_path):
    env = {**home, "KARAKURI_PERSONA_FILE": str(tmp_path / "persona.json")}
    code, _, err = run_agent(env, "handle", "--fixtures", "bundled", BODY, cwd=tmp_path)
    assert code == 2 and "KARAKURI_PERSONA_DIR" in err


# --- the rules' knobs ------------------------------------------------------------

def test_a_pack_can_shorten_conversations_and_never_start_one(tmp_path):
    from dataclasses import replace

    from testing.views import END, MEI, MOVE, SPEAK, choice, first, view

    quiet = load_persona(write_pack(tmp_path / "quiet", {
        "name": "タロウ", "rules": {"conversation_turns": 2, "start_conversations": False}}))
    said = [{"speaker": "桜草メイ", "speaker_id": MEI["id"], "message": "それで？"}]
    two_lines = ["一つ目", "二つ目"]
    assert first(view([SPEAK, END], messages=said, own_lines=two_lines)).command == "conversation_speak"
    assert first(replace(view([SPEAK, END], messages=said, own_lines=two_lines), persona=quiet)).command \
        == "end_conversation"
    start = choice("conversation_start", param_schema={"target_agent_id": {"type": "string", "enum": [MEI["id"]]},
                                                       "message": {"type": "string"}})
    idle = view([start, MOVE], recent=[{"command": "action", "params": {}}])
    assert first(idle).command == "conversation_start"
    assert first(replace(idle, persona=quiet)).command != "conversation_start"


def test_a_pack_that_takes_no_gifts_declines_even_a_friends(home, tmp_path):
    code, out, _ = run_agent(home, "demo", cwd=tmp_path)
    assert code == 0 and "桜草メイさんからの贈り物を受け取りました" in out
    pack = write_pack(tmp_path / "taro", {**TARO, "rules": {"transfer_policy": "reject"}})
    code, out, err = run_agent({**home, "KARAKURI_PERSONA_DIR": str(pack)}, "demo", cwd=tmp_path)
    assert code == 0, err
    assert "受け取りました" not in out and "桜草メイ" in out


def test_a_like_without_a_fact_is_still_answered_with_a_yes(tmp_path):
    pack = load_persona(write_pack(tmp_path / "taro", TARO))
    line = compose("reply", persona=pack, partner_name="桜草メイ", last_line="タロウくんは将棋好き？", seed="s")
    assert "将棋" in line and "好き" in line and "わからない" not in line, line
