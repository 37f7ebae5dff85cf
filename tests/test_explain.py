"""Why a pack rule did not fire (issue 32 item 4), through `karakuri-agent handle --explain`, `demo` and `state show`.

Every pack rule tried says whether its trigger matched and each condition
with the value found and the result; the rules below the one that decided
say "not reached"; a crossing waits for its rule when a higher one decided.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from karakuri_agent.app.cli import agent
from karakuri_agent.voice.persona_pack import PACK_FILE, bundled_pack_dir


def _pack(tmp_path, monkeypatch, behaviour: dict) -> None:
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / PACK_FILE).write_bytes((bundled_pack_dir() / PACK_FILE).read_bytes())
    (pack / "behaviour.json").write_text(json.dumps(behaviour, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(pack))


def _explain(notification: str, *extra: str) -> str:
    dry = [] if "--state-dir" in extra else ["--dry-run"]  # a kept state: a (still offline) run that counts
    result = CliRunner().invoke(agent, ["handle", *dry, "--explain", "--fixtures", "bundled", *extra,
                                        f"notification_id: {notification}"])
    assert result.exit_code == 0, result.output
    return result.stdout


EXPLAINED = {
    "variables": {"energy": {"min": 0, "max": 100, "initial": 80}},
    "rules": [
        {"id": "sunny-nap", "when": {"type": "notification", "types": ["*"]}, "priority": 400,
         "conditions": [{"fact": "weather", "operator": "eq", "value": "はれ 20℃"},
                        {"variable": "energy", "operator": "gt", "value": 10}],
         "then": [{"type": "choose", "command": "wait", "params": {"duration": 1}}]},
        {"id": "with-mei", "when": {"type": "notification", "types": ["conversation_*"]}, "priority": 350,
         "condition_logic": "any",
         "conditions": [{"fact": "partner", "operator": "contains", "value": "桜草メイ"},
                        {"fact": "money", "operator": "gt", "value": 100}],
         "then": [{"type": "choose", "command": "conversation_speak"}, {"type": "say", "phrases": ["うん！"]}]},
        {"id": "night", "when": {"type": "time", "between": ["23:00", "06:00"]}, "priority": 100,
         "then": [{"type": "choose", "command": "wait", "params": {"duration": 6}}]},
        {"id": "low", "when": {"type": "variable_crossed", "variable": "energy", "direction": "drops_below",
                               "threshold": 30}, "priority": 20, "then": [{"type": "set", "path": "energy",
                                                                          "value": 50}]},
    ],
}


def test_every_rule_tried_says_its_trigger_and_each_condition_with_the_value_found(tmp_path, monkeypatch):
    _pack(tmp_path, monkeypatch, EXPLAINED)
    out = _explain("notif-demo01")
    lines = out.splitlines()
    assert ("  tried sunny-nap: notification agent_logged_in in [*] → true; weather eq はれ 20℃ → false"
            " (weather: はれ); energy gt 10 → true (energy: 80) — not wanted") in lines, out
    assert "  tried with-mei: notification agent_logged_in in [conversation_*] → false; any of: partner contains" \
           " 桜草メイ → false (partner: none), money gt 100 → " in out, out
    assert "  tried night: time 12:10 in 23:00-06:00 → false — not wanted" in lines, out
    assert "  tried low: energy drops_below 30 (80 → 80) → false — not wanted" in lines, out
    assert "  rule: daily-life" in lines


def test_rules_below_the_one_that_decided_are_not_reached(tmp_path, monkeypatch):
    _pack(tmp_path, monkeypatch, EXPLAINED)
    out = _explain("notif-demo05")
    lines = out.splitlines()
    assert "  rule: with-mei" in lines, out
    assert any(line.startswith("  tried with-mei: notification conversation_message in [conversation_*] → true;"
                               " any of: partner contains 桜草メイ → true (partner: 桜草メイ)") and
               line.endswith("— decided") for line in lines), out
    assert "  tried night: not reached" in lines and "  tried low: not reached" in lines, out
    record = json.loads(CliRunner().invoke(agent, ["handle", "--dry-run", "--json", "--fixtures", "bundled",
                                                   "notification_id: notif-demo05"]).stdout)
    tried = {t["rule"]: t for t in record["behaviour"]["tried"]}
    assert tried["low"] == {"rule": "low", "outcome": "not reached"}
    assert tried["sunny-nap"]["conditions"][0] == {"condition": "weather eq はれ 20℃ → false (weather: unknown)",
                                                   "holds": False}


def test_a_rule_switched_off_and_one_on_cooldown_say_so(tmp_path, monkeypatch):
    _pack(tmp_path, monkeypatch, {"rules": [
        {"id": "sleepy", "enabled": False, "when": {"type": "notification", "types": ["*"]},
         "then": [{"type": "choose", "command": "wait", "params": {"duration": 1}}]},
        {"id": "once", "when": {"type": "notification", "types": ["*"]}, "max_fires": 1, "priority": 60,
         "then": [{"type": "choose", "command": "get_map"}]}]})
    state = tmp_path / "state"
    _explain("notif-demo01", "--state-dir", str(state))
    lines = _explain("notif-demo02", "--state-dir", str(state)).splitlines()
    assert "  tried once: notification action_completed in [*] → true — gave way: spent" in lines, lines
    assert "  tried sleepy (switched off): notification action_completed in [*] → true — off" in lines, lines


def test_a_crossing_waits_for_its_rule_when_a_higher_rule_decided(tmp_path, monkeypatch):
    """Energy drops below 30 after notif-demo01; a higher rule decides notif-demo02; the crossing rule fires on 03."""
    _pack(tmp_path, monkeypatch, {
        "variables": {"energy": {"min": 0, "max": 100, "initial": 50}, "rested": {"type": "flag"}},
        "reactions": [{"id": "drain", "on": "agent_logged_in",
                       "then": [{"type": "subtract", "path": "energy", "value": 40}]}],
        "rules": [
            {"id": "busy", "when": {"type": "every", "notifications": 2}, "priority": 400, "max_fires": 1,
             "then": [{"type": "choose", "command": "get_map"}]},
            {"id": "low", "when": {"type": "variable_crossed", "variable": "energy", "direction": "drops_below",
                                   "threshold": 30}, "priority": 20,
             "then": [{"type": "set", "path": "rested", "value": True}]}]})
    state = tmp_path / "state"
    result = CliRunner().invoke(agent, ["demo", "--state-dir", str(state)])
    assert result.exit_code == 0, result.output
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(state))
    shown = json.loads(CliRunner().invoke(agent, ["state", "show", "--json"]).stdout)
    fires = {r["id"]: r["fires"] for r in shown["rules"]}
    assert fires == {"busy": 1, "low": 1}, shown
    assert {"path": "rested", "value": True} in [{k: v[k] for k in ("path", "value")} for v in shown["variables"]]
    log = CliRunner().invoke(agent, ["log", "--json", "-n", "200"]).stdout
    fired_on = [e["notification_id"] for e in json.loads(log) if "low" in ((e.get("behaviour") or {}).get("fired")
                                                                           or ())]
    assert fired_on == ["notif-demo03"], fired_on


def test_reset_behaviour_forgets_a_waiting_crossing():
    from karakuri_agent.app.behaviour_state import reset
    from karakuri_agent.behaviour.builtin import BUILTIN_RULE_IDS
    from karakuri_agent.behaviour.engine import CROSSINGS
    from karakuri_agent.behaviour.pack import parse_behaviour

    behaviour, _ = parse_behaviour(EXPLAINED, builtin_ids=BUILTIN_RULE_IDS)
    memory = {CROSSINGS: {"low": 50}, "variables": {"energy": 10}}
    assert reset(behaviour, memory)[0][CROSSINGS] == {}
    assert reset(behaviour, memory, rule="low")[0][CROSSINGS] == {}
    assert reset(behaviour, memory, variable="energy")[0][CROSSINGS] == {}
    assert reset(behaviour, memory, rule="night")[0][CROSSINGS] == {"low": 50}
