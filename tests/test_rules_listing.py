"""`karakuri-agent rules`: each rule's trigger, cooldown, max fires and why it is off; UTF-8 JSON; --pack errors
name the pack (issue 32 item 11)."""

from __future__ import annotations

import json

from click.testing import CliRunner

from karakuri_agent.app.cli import agent
from karakuri_agent.voice.persona_pack import PACK_FILE, bundled_pack_dir

PACK = {
    "rules": [
        {"id": "ねむる", "when": {"type": "time", "between": ["23:00", "06:00"]}, "priority": 80,
         "cooldown": {"notifications": 3}, "max_fires": 2, "description": "夜はねむる",
         "then": [{"type": "choose", "command": "wait", "params": {"duration": 6}}]},
        {"id": "sleeping", "when": {"type": "day_start"}, "enabled": False, "then": []},
        {"id": "walk", "when": {"type": "notification", "types": ["idle_reminder_fired"]},
         "cooldown": {"minutes": 30}, "then": []},
    ],
    "disable": ["inactive-check"],
}


def _pack(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / PACK_FILE).write_bytes((bundled_pack_dir() / PACK_FILE).read_bytes())
    (pack / "behaviour.json").write_text(json.dumps(PACK, ensure_ascii=False), encoding="utf-8")
    return pack


def test_rules_shows_trigger_cooldown_max_fires_and_what_switched_a_rule_off(tmp_path, env):
    result = CliRunner().invoke(agent, ["rules", "--pack", str(_pack(tmp_path))])
    assert result.exit_code == 0, result.output
    lines = {line.split()[1]: line for line in result.stdout.splitlines()}
    assert lines["ねむる"].endswith("夜はねむる  [on time, cooldown 3 notifications, at most 2 fires]")
    assert "[on notification, cooldown 30 minutes]" in lines["walk"]
    assert "(off: enabled: false)" in lines["sleeping"] and "(off: disable)" in lines["inactive-check"]


def test_rules_json_is_utf8_with_every_field(tmp_path, env):
    result = CliRunner().invoke(agent, ["rules", "--pack", str(_pack(tmp_path)), "--json"])
    assert "\\u" not in result.stdout and "ねむる" in result.stdout
    rules = {r["id"]: r for r in json.loads(result.stdout)}
    assert (rules["ねむる"]["cooldown"], rules["ねむる"]["max_fires"], rules["ねむる"]["off_by"]) == (
        "3 notifications", 2, None)
    assert rules["sleeping"]["off_by"] == "enabled: false" and rules["inactive-check"]["off_by"] == "disable"
    assert rules["inactive-check"]["enabled"] is False


def test_a_broken_pack_given_by_pack_is_named_so_not_by_the_setting(tmp_path, env):
    pack = _pack(tmp_path)
    (pack / PACK_FILE).write_text('{"name": 1}', encoding="utf-8")
    result = CliRunner().invoke(agent, ["rules", "--pack", str(pack)])
    assert result.exit_code == 2 and f"--pack {pack}: " in result.stderr
    assert "KARAKURI_PERSONA_DIR" not in result.stderr and result.stderr.count("\n") == 1


def test_a_japanese_rule_id_keeps_the_columns_aligned(tmp_path):
    """A wide character takes two terminal columns: the source column starts at one column on every line."""
    from karakuri_agent.terminal import columns

    result = CliRunner().invoke(agent, ["rules", "--pack", str(_pack(tmp_path))])
    assert result.exit_code == 0, result.output
    starts = {columns(line[: line.index(" pack ") if " pack " in line else line.index(" built-in ")])
              for line in result.stdout.splitlines()}
    assert len(starts) == 1, result.stdout
