"""`persona check` refuses what can never work in the world (issue 32 item 6): an unknown command, event,
notification type, or a param out of the world's range; each named by file, rule, field and what is expected."""

from __future__ import annotations

import json

import pytest

from karakuri_agent.behaviour.pack import parse_behaviour
from karakuri_agent.behaviour.vocabulary import NOTIFICATION_TYPES
from karakuri_agent.behaviour.builtin import BUILTIN_RULE_IDS
from karakuri_agent.domain.commands import KNOWN

from testing.runs import run_agent

BROKEN = {
    "rules": [
        {"id": "beam", "when": {"type": "notification", "types": ["idle_reminder_fired"]},
         "then": [{"type": "choose", "command": "teleport"}]},
        {"id": "ask", "when": {"type": "notification", "types": ["conversation_reqested", "*_completed"]},
         "then": [{"type": "choose", "command": "conversation_accept"}]},
        {"id": "nap", "when": {"type": "time", "between": ["23:00", "06:00"]},
         "then": [{"type": "choose", "command": "wait", "params": {"duration": 60}}]},
        {"id": "glob", "when": {"type": "notification", "types": ["*_finished"]}, "then": []},
    ],
    "reactions": [{"id": "hello", "on": "conversation_startd", "then": []}],
}


def test_persona_check_names_file_rule_field_and_what_is_expected_for_each(tmp_path, home):
    from karakuri_agent.voice.persona_pack import PACK_FILE, bundled_pack_dir

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / PACK_FILE).write_bytes((bundled_pack_dir() / PACK_FILE).read_bytes())
    (pack / "behaviour.json").write_text(json.dumps(BROKEN), encoding="utf-8")
    code, out, _ = run_agent(home, "persona", "check", str(pack), cwd=tmp_path)
    lines = out.strip().splitlines()
    assert code == 1 and len(lines) == 5, lines
    expected = [
        "rules[beam].then[0].command: 'teleport' is no command of the world",
        "rules[ask].when.types: 'conversation_reqested' matches no notification type the world sends"
        " (docs/behaviour.md) (did you mean 'conversation_requested'?)",
        "rules[nap].then[0].params.duration: 60 is outside what the world allows for wait, expected a whole"
        " number from 1 to 6",
        "rules[glob].when.types: '*_finished' matches no notification type",
        "reactions[hello].on: 'conversation_startd' is no event",
    ]
    for part in expected:
        assert any(part in line and str(pack / "behaviour.json") in line for line in lines), (part, lines)
    assert "did you mean 'conversation_started'?" in next(line for line in lines if "reactions[hello]" in line)


@pytest.mark.parametrize("good", [
    {"rules": [{"id": "r", "when": {"type": "notification", "types": ["*_completed", "*"]},
                "then": [{"type": "choose", "command": "wait", "params": {"duration": 6}}]}]},
    {"rules": [{"id": "r", "when": {"type": "after_command", "command": "conversation_speak"},
                "then": [{"type": "avoid", "commands": ["move", "get_map"]}]}]},
    {"reactions": [{"id": "x", "on": "transfer_*", "then": []}, {"id": "y", "on": "promise_kept", "then": []}]},
])
def test_what_the_world_knows_passes(good):
    assert parse_behaviour(good, builtin_ids=BUILTIN_RULE_IDS)[1] == []


def test_every_listed_notification_type_and_command_is_a_snake_case_word():
    assert all(t.replace("_", "").isalpha() and t.islower() for t in (*NOTIFICATION_TYPES, *KNOWN))
    assert len(set(NOTIFICATION_TYPES)) == len(NOTIFICATION_TYPES)
