"""behaviour.json: read and checked, variables clamped, rules selected by priority through the one gate."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings, strategies as st

from karakuri_agent.behaviour.build import build_behaviour
from karakuri_agent.behaviour.engine import within
from karakuri_agent.behaviour.pack import parse_behaviour
from karakuri_agent.behaviour.spec import Variable
from karakuri_agent.behaviour.variables import CLAMPED, IGNORED, Variables
from karakuri_agent.behaviour.selector import Selector
from karakuri_agent.decide.behaving import finish
from karakuri_agent.behaviour.builtin import BUILTIN_RULE_IDS
from karakuri_agent.decide.rules import BUILTIN_RULES, propose

from testing.views import END, MEI, MOVE, SPEAK, WAIT, choice, view
from testing.runs import run_agent
from testing.store_rows import as_refs
from testing.packs import TOKYO_NIGHT, TOKYO_NOON, pack_turn, with_pack

NIGHT_REST = {"id": "night-rest", "when": {"type": "time", "between": ["23:00", "06:00"]},
              "then": [{"type": "choose", "command": "wait", "params": {"duration": 6}}], "priority": 100}


def first(proposal):
    """The rules' selection and first candidate: what `finish` takes after the outcome."""
    return proposal.selection, proposal.candidates[0]


# -- the file --------------------------------------------------------------------------------
def test_the_contracts_example_reads_without_a_problem():
    data = {"variables": {"energy": {"min": 0, "max": 100, "initial": 80, "max_delta": 30,
                                     "bands": [[0, 30, "くたくた"], [30, 70, "ふつう"], [70, 100, "元気いっぱい"]]},
                          "affection": {"per": "person", "min": -100, "max": 100, "initial": 0, "max_delta": 10}},
            "rules": [NIGHT_REST], "reactions": [{"id": "talk-warms", "on": "conversation_ended", "then": [
                {"type": "add", "path": "affection.{partner}", "value": 5}]}], "disable": ["daily-life"]}
    behaviour, problems = parse_behaviour(data, builtin_ids=BUILTIN_RULE_IDS)
    assert problems == [] and behaviour.rules[0].when.between == ("23:00", "06:00")
    assert behaviour.variables["energy"].band(80) == "元気いっぱい" and behaviour.variables["energy"].band(100) == "元気いっぱい"


@pytest.mark.parametrize("spec, problem", [
    ({"min": 0, "max": 10, "initial": 50}, "behaviour.json: variables.energy.initial: 50 is outside min 0 to max 10"),
    ({"min": 0, "initial": -5}, "behaviour.json: variables.energy.initial: -5 is outside min 0 to max none"),
    ({"max": 1, "initial": 2}, "behaviour.json: variables.energy.initial: 2 is outside min none to max 1"),
])
def test_an_initial_value_outside_the_variables_range_is_named_not_clamped_silently(spec, problem):
    _, problems = parse_behaviour({"variables": {"energy": spec}}, builtin_ids=BUILTIN_RULE_IDS)
    assert problems == [problem]
    assert parse_behaviour({"variables": {"energy": {**spec, "initial": spec.get("min", spec.get("max"))}}},
                           builtin_ids=BUILTIN_RULE_IDS)[1] == []

def test_every_problem_is_named_in_one_run_one_line_each(tmp_path, home):
    from karakuri_agent.voice.persona_pack import PACK_FILE, bundled_pack_dir

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / PACK_FILE).write_bytes((bundled_pack_dir() / PACK_FILE).read_bytes())
    (pack / "behaviour.json").write_text(json.dumps({
        "variables": {"energy": {"min": 0, "max": 10}},
        "rules": [
            {"id": "a", "when": {"type": "timer"}, "then": []},
            {"id": "b", "when": {"type": "time", "between": ["25:00", "06:00"]},
             "conditions": [{"fact": "mood", "operator": "eq", "value": 1},
                            {"variable": "hunger", "operator": "like", "value": 1}],
             "then": [{"type": "jump"}]},
            {"id": "c", "when": {"type": "manual"}, "then": [{"type": "enable_rule", "rule": "zzz"},
                                                            {"type": "add", "path": "stamina", "value": 1},
                                                            {"type": "say", "phrases": ["{partnr}、やあ"]}],
             "colour": "red"},
            {"id": "c", "when": {"type": "day_start"}},
        ],
        "disable": ["no-such-rule"],
    }, ensure_ascii=False), encoding="utf-8")
    code, out, _ = run_agent(home, "persona", "check", str(pack), cwd=tmp_path)
    lines = out.strip().splitlines()
    assert code == 1
    expected = ["rules[a].when.type", "rules[b].conditions.0.fact",
                "rules[b].conditions.1.operator", "rules[b].then.0.type", "rules[c].colour",
                "rules[c].id: duplicate", "disable: 'no-such-rule'"]
    for part in expected:
        assert any(part in line and "behaviour.json" in line for line in lines), (part, lines)
    # a rule whose shape is fine is checked for meaning: the rule it names, the variable, the phrase
    (pack / "behaviour.json").write_text(json.dumps({
        "variables": {"energy": {"min": 0, "max": 10}},
        "rules": [{"id": "c", "when": {"type": "manual"}, "then": [
            {"type": "enable_rule", "rule": "zzz"}, {"type": "add", "path": "stamina", "value": 1},
            {"type": "say", "phrases": ["{partnr}、やあ"]}]},
            {"id": "d", "when": {"type": "time", "between": ["23:00", "24:30"]}}]}, ensure_ascii=False),
        encoding="utf-8")
    code, out, _ = run_agent(home, "persona", "check", str(pack), cwd=tmp_path)
    assert code == 1
    for part in ("rules[c].then[0].rule: 'zzz'", "rules[c].then[1].path: 'stamina'",
                 "rules[c].then[2].phrases[0]: unknown placeholder {partnr}", "rules[d].when.between: '24:30'"):
        assert part in out, (part, out)
    assert len(out.strip().splitlines()) == 4


def test_persona_init_writes_an_empty_behaviour_file_that_passes(tmp_path, home):

    code, _, err = run_agent(home, "persona", "init", str(tmp_path / "new"), "--name", "ハナ", cwd=tmp_path)
    assert code == 0, err
    assert json.loads((tmp_path / "new" / "behaviour.json").read_text()) == {
        "variables": {}, "rules": [], "reactions": [], "disable": []}
    assert "behaviour.json" in (tmp_path / "new" / "README.md").read_text(encoding="utf-8")
    assert run_agent(home, "persona", "check", str(tmp_path / "new"), cwd=tmp_path)[0] == 0


# -- the clamp -------------------------------------------------------------------------------
CHANGE = st.tuples(st.sampled_from(["set", "add", "subtract"]), st.floats(-500, 500, allow_nan=False))


@settings(max_examples=300, deadline=None)
@given(low=st.integers(-50, 0), span=st.integers(0, 100), delta=st.one_of(st.none(), st.integers(1, 40)),
       start=st.floats(0, 1), changes=st.lists(CHANGE, max_size=12))
def test_a_clamp_is_never_exceeded_whatever_is_asked(low, span, delta, start, changes):
    spec = Variable("energy", minimum=low, maximum=low + span, initial=low, max_delta=delta)
    first = low + start * span
    values = Variables({"energy": spec}, {"energy": first})
    for op, amount in changes:
        change = values.change(op, "energy", amount, "test")
        assert low <= change.after <= low + span
        if delta is not None:
            assert abs(change.after - first) <= delta + 1e-9
        assert change.status in ("applied", "clamped")


def test_unknown_paths_and_wrong_kinds_are_ignored_and_recorded():
    values = Variables({"met": Variable("met", kind="flag", initial=False),
                        "affection": Variable("affection", per_person=True, maximum=10, max_delta=3)}, {})
    assert values.change("add", "energy", 5, "r").status == IGNORED
    assert values.change("add", "met", 1, "r").status == IGNORED
    assert values.change("toggle", "met", None, "r").after is True
    change = values.change("add", "affection.桜草メイ", 9, "r")
    assert (change.after, change.status) == (3, CLAMPED) and values.get("affection.灯屋ユウ") == 0
    assert [c.status for c in values.changes] == ["ignored", "ignored", "applied", "clamped"]


# -- triggers and options --------------------------------------------------------------------
def test_a_time_window_may_cross_midnight():
    assert within("23:30", "23:00", "06:00") and within("05:59", "23:00", "06:00")
    assert not within("06:00", "23:00", "06:00") and not within("12:00", "23:00", "06:00")
    assert within("07:00", "06:00", "09:00") and not within("09:00", "06:00", "09:00")


@pytest.mark.parametrize("when, fact, wanted", [
    ({"type": "notification", "types": ["*_completed"]}, {"notification": "movement_completed"}, True),
    ({"type": "notification", "types": ["*_completed"]}, {"notification": "idle_reminder_fired"}, False),
    ({"type": "keyword", "keywords": ["お祭り"]}, {"text": "今夜お祭りだって"}, True),
    ({"type": "keyword", "keywords": ["お祭り"]}, {"text": "こんにちは"}, False),
    ({"type": "after_command", "command": "move"}, {"previous_command": "move"}, True),
    ({"type": "after_command", "command": "move"}, {"previous_command": "wait"}, False),
    ({"type": "day_start"}, {}, True),
    ({"type": "manual"}, {}, False),
])
def test_each_trigger_wants_to_fire_only_when_it_holds(when, fact, wanted):
    rule = {"id": "r", "when": when, "then": []}
    turn = pack_turn([rule], **fact)
    assert turn.wants(turn.behaviour.rules[0]) is wanted


def test_every_n_day_start_and_crossing_follow_the_remembered_state():
    every = {"id": "e", "when": {"type": "every", "notifications": 3}, "then": []}
    memory: dict = {}
    fired = []
    for n in range(6):
        turn = pack_turn([every], memory)
        fired.append(turn.wants(turn.behaviour.rules[0]))
        memory = turn.memory()
    assert fired == [False, False, True, False, False, True]
    assert not pack_turn([], memory).day_started  # the same in-world day
    assert pack_turn([], memory, now=TOKYO_NIGHT + timedelta(hours=1)).day_started  # 00:30: a new day
    crossed = {"id": "x", "when": {"type": "variable_crossed", "variable": "energy", "direction": "drops_below",
                                   "threshold": 30}, "then": []}
    turn = pack_turn([crossed], memory)
    turn.variables.change("set", "energy", 20, "test")
    later = pack_turn([crossed], turn.memory())
    assert later.wants(later.behaviour.rules[0])
    assert not pack_turn([crossed], later.memory()).wants(later.behaviour.rules[0])  # crossed once, not again


CROSSED = {"id": "x", "when": {"type": "variable_crossed", "variable": "energy", "direction": "drops_below",
                               "threshold": 30}, "then": []}


def test_a_crossing_made_by_a_rule_in_the_same_notification_fires_once_not_again_in_the_next():
    # A rule of higher priority drains energy (50 -> 20) before the crossing rule is asked.
    turn = pack_turn([CROSSED])
    turn.variables.change("set", "energy", 20, "drain")
    assert turn.wants(turn.behaviour.rules[0])
    later = pack_turn([CROSSED], turn.memory())
    later.variables.change("set", "energy", 0, "drain")  # still below: no new crossing
    assert not later.wants(later.behaviour.rules[0])


@settings(max_examples=200, deadline=None)
@given(steps=st.lists(st.tuples(st.sampled_from(["before", "after"]), st.integers(0, 100)), min_size=1, max_size=12))
def test_a_crossing_fires_once_per_crossing_between_two_looks(steps):
    """Whether the value moves before the check (a rule) or after it (a reaction), a crossing is counted once.

    The rule looks once per notification; what it sees is compared with what
    it saw the time before (a dip and a return in between is no crossing).
    """
    memory: dict = {}
    seen, fired, crossings = [50], 0, 0
    for when, target in steps + [("before", None)]:
        turn = pack_turn([CROSSED], memory)
        if when == "before" and target is not None:
            turn.variables.change("set", "energy", target, "rule")
        fired += turn.wants(turn.behaviour.rules[0])
        seen.append(turn.variables.get("energy"))
        crossings += seen[-2] >= 30 > seen[-1]
        if when == "after":
            turn.variables.change("set", "energy", target, "reaction")
        memory = turn.memory()
    assert fired == crossings


def test_cooldowns_count_notifications_or_world_minutes_and_max_fires_spends_a_rule():
    rule = {"id": "r", "when": {"type": "day_start"}, "then": [], "cooldown": {"minutes": 60}, "max_fires": 2}
    turn = pack_turn([rule])
    spec = turn.behaviour.rules[0]
    turn.fire(spec)
    assert pack_turn([rule], turn.memory(), now=TOKYO_NIGHT + timedelta(minutes=30)).blocked(spec) == "on cooldown"
    # a last firing ahead of now (the clock stepped back) counts as just now: it holds at most a window,
    # and one further ahead than a window blocks nothing (CONTRACT §9, the cycle's own cooldown rule)
    assert pack_turn([rule], turn.memory(), now=TOKYO_NIGHT - timedelta(minutes=30)).blocked(spec) == "on cooldown"
    assert pack_turn([rule], turn.memory(), now=TOKYO_NIGHT - timedelta(hours=5)).blocked(spec) is None
    assert pack_turn([rule], turn.memory(), now=TOKYO_NIGHT - timedelta(hours=48)).blocked(spec) is None
    later = pack_turn([rule], turn.memory(), now=TOKYO_NIGHT + timedelta(minutes=61))
    assert later.blocked(spec) is None
    later.fire(spec)
    assert pack_turn([rule], later.memory(), now=TOKYO_NIGHT + timedelta(days=3)).blocked(spec) == "spent"
    by_count = {"id": "n", "when": {"type": "day_start"}, "then": [], "cooldown": {"notifications": 2}}
    turn = pack_turn([by_count])
    turn.fire(turn.behaviour.rules[0])
    blocked = []
    memory = turn.memory()
    for _ in range(3):
        t = pack_turn([by_count], memory)
        blocked.append(t.blocked(t.behaviour.rules[0]))
        memory = t.memory()
    assert blocked == ["on cooldown", "on cooldown", None]


# -- the selector, the gate and the built-in rules ----------------------------------------------
def test_night_rest_outranks_the_day_but_never_a_conversation_turn():
    idle = with_pack(view([MOVE, WAIT]), {"rules": [NIGHT_REST]})
    chosen = propose(idle)
    assert (chosen.candidates[0].command, chosen.candidates[0].params, chosen.candidates[0].rule) == ("wait", {"duration": 6}, "night-rest")
    talk = with_pack(view([SPEAK, END, WAIT], kind="conversation_message",
                          messages=[{"speaker": "桜草メイ", "speaker_id": MEI["id"], "message": "こんばんは！"}]),
                     {"rules": [NIGHT_REST]})
    assert propose(talk).candidates[0].rule == "conversation-turn" and propose(talk).candidates[0].command == "conversation_speak"
    noon = with_pack(view([MOVE, WAIT]), {"rules": [NIGHT_REST]}, now=TOKYO_NOON)
    assert propose(noon).candidates[0].rule == "daily-life"


def test_without_a_behaviour_the_built_in_rules_decide_as_before():
    v = view([MOVE, WAIT])
    decisions = propose(v)
    assert decisions.candidates[0].rule == "daily-life" and decisions.selection.gave_way == []
    assert replace(v, persona=replace(v.persona, behaviour=build_behaviour({}))).persona.behaviour.empty


def test_a_rule_whose_command_is_not_offered_gives_way_and_says_why():
    v = with_pack(view([MOVE]), {"rules": [NIGHT_REST]})
    chosen = propose(v)
    assert chosen.candidates[0].command == "move" and chosen.candidates[0].rule == "daily-life"
    assert chosen.selection.gave_way == [{"rule": "night-rest", "why": "not offered: wait"}]


def test_a_rule_refused_by_the_gate_gives_way():
    rule = {**NIGHT_REST, "then": [{"type": "choose", "command": "wait", "params": {"duration": 60}}]}
    behaviour, problems = parse_behaviour({"rules": [rule]}, builtin_ids=BUILTIN_RULE_IDS)
    assert [p.split(": ", 2)[1] for p in problems] == ["rules[night-rest].then[0].params.duration"]  # check says so
    v = view([MOVE, WAIT])  # and the gate still refuses it, should such a pack be run anyway
    chosen = propose(replace(v, persona=replace(v.persona, behaviour=behaviour), now=TOKYO_NIGHT, behaviour_memory={}))
    assert chosen.candidates[0].rule == "daily-life" and chosen.selection.gave_way[0]["why"].startswith("refused by the gate")


def test_move_names_a_place_by_label_and_an_unknown_one_gives_way():
    walk = {"id": "walk", "when": {"type": "time", "between": ["06:00", "23:00"]},
            "then": [{"type": "choose", "command": "move", "params": {"target": "図書館"}}]}
    chosen = propose(with_pack(view([MOVE, WAIT]), {"rules": [walk]}, now=TOKYO_NOON))
    assert (chosen.candidates[0].command, chosen.candidates[0].params, chosen.candidates[0].rule) == ("move", {"target_node_id": "2-2"}, "walk")
    lost = {**walk, "then": [{"type": "choose", "command": "move", "params": {"target": "神社"}}]}
    chosen = propose(with_pack(view([MOVE, WAIT]), {"rules": [lost]}, now=TOKYO_NOON))
    assert chosen.candidates[0].rule == "daily-life" and "神社" in chosen.selection.gave_way[0]["why"]


def test_conversation_start_names_a_person_and_say_gives_the_line():
    seek = {"id": "seek", "when": {"type": "time", "between": ["06:00", "23:00"]},
            "then": [{"type": "choose", "command": "conversation_start", "params": {"target": "桜草メイ"}},
                     {"type": "say", "phrases": ["{partner}、会いたかった！"]}]}
    start = choice("conversation_start", param_schema={"target_agent_id": {"type": "string"},
                                                       "message": {"type": "string", "maxLength": 200}})
    v = view([start, MOVE])
    v = replace(v, nearby_agents=as_refs([MEI]))
    chosen = propose(with_pack(v, {"rules": [seek]}, now=TOKYO_NOON))
    assert chosen.candidates[0].params == {"target_agent_id": MEI["id"], "message": "桜草メイさん、会いたかった！"}


def test_disable_switches_a_built_in_rule_off_and_rules_lists_the_order_tried():
    data = {"rules": [NIGHT_REST], "disable": ["keep-commitment"]}
    behaviour, _ = parse_behaviour(data, builtin_ids=BUILTIN_RULE_IDS)
    entries = Selector(BUILTIN_RULES, behaviour).entries()
    assert [e.id for e in entries if e.enabled] == ["conversation-turn", "conversation-request", "inactive-check",
                                                   "transfer-offer", "night-rest", "daily-life"]
    assert [(e.id, e.enabled) for e in entries][-1] == ("keep-commitment", False)
    assert all(e.description for e in entries)


def test_the_bundled_pack_ships_night_rest_and_rules_shows_it(home, tmp_path):

    code, out, _ = run_agent(home, "rules", cwd=tmp_path)
    ids = [line.split()[1] for line in out.strip().splitlines()]
    assert code == 0 and ids.index("keep-commitment") < ids.index("night-rest") < ids.index("daily-life")


def test_a_rule_without_choose_changes_things_and_the_next_rule_decides():
    tired = {"id": "tired", "when": {"type": "time", "between": ["23:00", "06:00"]},
             "then": [{"type": "subtract", "path": "energy", "value": 50}, {"type": "avoid", "commands": ["move"]}],
             "priority": 200}
    data = {"variables": {"energy": {"min": 0, "max": 100, "initial": 80, "max_delta": 30}}, "rules": [tired]}
    v = with_pack(view([MOVE, WAIT]), data)
    chosen = propose(v)
    assert chosen.candidates[0].command == "wait" and chosen.candidates[0].rule == "daily-life"
    memory, trace = finish(v, chosen.selection, chosen.candidates[0], "wait", True)
    assert memory["variables"] == {"energy": 50} and memory["rules"]["tired"]["fires"] == 1
    assert trace["changes"][0]["status"] == "clamped" and trace["fired"] == ["tired"]


def test_reactions_run_after_the_outcome_and_fill_the_partner():
    data = {"variables": {"affection": {"per": "person", "min": 0, "max": 100, "max_delta": 5}},
            "reactions": [{"id": "warm", "on": "conversation_ended",
                           "then": [{"type": "add", "path": "affection.{partner}", "value": 8}]}]}
    v = with_pack(view([SPEAK, END], kind="conversation_message"), data, now=TOKYO_NOON)
    memory, trace = finish(v, *first(propose(v)), "end_conversation", True)
    assert memory["variables"] == {"affection.桜草メイ": 5} and trace["reactions"] == ["warm"]
    memory, _ = finish(v, *first(propose(v)), "end_conversation", False)
    assert memory["variables"] == {}  # a failed command ended nothing


def test_a_models_state_deltas_are_clamped_the_same_way():
    from karakuri_agent.domain.decision import Decision

    data = {"variables": {"energy": {"min": 0, "max": 100, "initial": 90, "max_delta": 10}}}
    v = with_pack(view([MOVE, WAIT]), data, now=TOKYO_NOON)
    memory, trace = finish(v, None, Decision("wait", {"duration": 1}, deltas={"energy": 40, "mood": 1}),
                           "wait", True)
    assert memory["variables"] == {"energy": 100}
    assert [c["status"] for c in trace["changes"]] == ["clamped", "ignored"]


# -- the trace: --explain, --json, log ------------------------------------------------------------
WELCOME = {
    "variables": {"affection": {"per": "person", "min": 0, "max": 100, "max_delta": 10}},
    "rules": [
        {"id": "rest-first", "when": {"type": "notification", "types": ["*"]},
         "then": [{"type": "choose", "command": "wait", "params": {"duration": 1}}], "priority": 500},
        {"id": "warm-welcome", "description": "誘いにはいつも明るく応える",
         "when": {"type": "notification", "types": ["conversation_requested"]},
         "then": [{"type": "choose", "command": "conversation_accept"},
                  {"type": "say", "phrases": ["{partner}、声をかけてくれてうれしい！"]}],
         "priority": 400, "max_fires": 1},
    ],
    "reactions": [{"id": "met", "on": "conversation_started",
                   "then": [{"type": "add", "path": "affection.{partner}", "value": 25}]}],
}


def test_explain_json_and_log_name_the_rule_the_rules_that_gave_way_and_every_change(env, api, tmp_path,
                                                                                     monkeypatch):
    import json as _json

    from click.testing import CliRunner

    from testing.samples import BODY
    from karakuri_agent.app.cli import agent
    from karakuri_agent.voice.persona_pack import PACK_FILE, bundled_pack_dir

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / PACK_FILE).write_bytes((bundled_pack_dir() / PACK_FILE).read_bytes())
    (pack / "behaviour.json").write_text(_json.dumps(WELCOME, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(pack))
    result = CliRunner().invoke(agent, ["handle", "--explain", BODY])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "  rule: warm-welcome" in out
    assert "  gave way: rest-first (not offered: wait)" in out
    assert "affection.桜草メイ 0 → 10 (met: add 25, clamped, at most 10 per notification)" in out
    sent = [c for c in api.calls if c.request.method == "POST" and "notifications" not in str(c.request.url)]
    assert _json.loads(sent[-1].request.content)["params"]["message"] == "桜草メイさん、声をかけてくれてうれしい！"
    log = CliRunner().invoke(agent, ["log"]).stdout
    assert "rule: warm-welcome" in log and "affection.桜草メイ 0 → 10" in log
    entries = _json.loads(CliRunner().invoke(agent, ["log", "--json"]).stdout)
    assert entries[-1]["behaviour"]["rule"] == "warm-welcome"


# -- the model ------------------------------------------------------------------------------------
MOODY = {"variables": {"energy": {"min": 0, "max": 100, "initial": 50, "max_delta": 10,
                                  "bands": [[0, 30, "くたくた"], [30, 70, "ふつう"], [70, 100, "元気いっぱい"]]}},
         "rules": [{"id": "calm", "when": {"type": "day_start"},
                    "then": [{"type": "directive", "text": "今日は静かに過ごす", "persistent": True}]}]}


def test_the_prompt_shows_the_variables_with_their_band_words_and_the_active_directives():
    from karakuri_agent.llm.prompt import build_messages, persona_card

    v = with_pack(view([MOVE, WAIT]), MOODY, now=TOKYO_NOON)
    memory, _ = finish(v, *first(propose(v)), "move", True)  # the day starts: the directive is on from now
    later = with_pack(view([MOVE, WAIT]), MOODY, now=TOKYO_NOON + timedelta(minutes=5), memory=memory)
    user = build_messages(persona_card(later.persona), later, None)[1]["content"]
    assert '{"name":"energy","value":50,"band":"ふつう"}' in user and "今日は静かに過ごす" in user
    assert 'state' in user
    plain = build_messages(persona_card(load_plain()), view([MOVE, WAIT]), None)[1]["content"]
    assert "energy" not in plain and "心がけ" not in plain


def load_plain():
    from karakuri_agent.voice.persona_pack import load_persona

    return replace(load_persona(), behaviour=None)


@pytest.mark.process
def test_a_models_proposal_carries_its_state_deltas_to_the_engine():
    import respx

    from testing.model_decider import BASE, answer, decider

    v = with_pack(view([MOVE, WAIT]), MOODY, now=TOKYO_NOON)
    with respx.mock(assert_all_called=False) as router:
        router.post(f"{BASE}/chat/completions").side_effect = [answer(json.dumps(
            {"command": "wait", "params": {"duration": 1}, "reason": "疲れた", "state": {"energy": -40}}))]
        proposed = decider().propose(v)
    chosen = proposed.candidates[0]
    assert chosen.command == "wait" and chosen.deltas == {"energy": -40}
    memory, trace = finish(v, proposed.selection, chosen, "wait", True)
    assert memory["variables"]["energy"] == 40 and trace["changes"][0]["status"] == "clamped"
    assert trace["changes"][0]["by"] == "model"


def test_the_bundled_night_rest_is_switched_off_by_disable(tmp_path, home):
    from karakuri_agent.voice.persona_pack import bundled_pack_dir, load_persona

    pack = tmp_path / "nike"
    pack.mkdir()
    for name in ("persona.json", "behaviour.json"):
        (pack / name).write_bytes((bundled_pack_dir() / name).read_bytes())
    data = json.loads((pack / "behaviour.json").read_text(encoding="utf-8"))
    (pack / "behaviour.json").write_text(json.dumps({**data, "disable": ["night-rest"]}), encoding="utf-8")
    assert run_agent(home, "persona", "check", str(pack), cwd=tmp_path)[0] == 0
    v = view([MOVE, WAIT])
    night = replace(v, persona=load_persona(pack), now=TOKYO_NIGHT)
    assert propose(night).candidates[0].rule == "daily-life"
    bundled = replace(v, persona=load_persona(), now=TOKYO_NIGHT)
    assert propose(bundled).candidates[0].rule == "night-rest"
    code, out, _ = run_agent(home, "rules", "--pack", str(pack), cwd=tmp_path)
    assert "night-rest" in out and "(off: disable)" in out.splitlines()[-1]


# -- the example pack: a second character whose day differs because of its rules ---------------------
def test_the_example_pack_walks_in_the_morning_and_seeks_out_the_one_it_grew_fond_of(tmp_path, home):
    from pathlib import Path

    from karakuri_agent.voice.persona_pack import load_persona
    from karakuri_agent.domain.records import Place

    pack = Path(__file__).resolve().parents[1] / "docs" / "examples" / "behaviour-pack"
    assert run_agent(home, "persona", "check", str(pack), cwd=tmp_path)[0] == 0
    sora = load_persona(pack)
    places = [Place("1-1", "駅 前"), Place("4-4", "公園 広場")]
    morning = datetime(2026, 4, 17, 22, 30, tzinfo=timezone.utc)  # 07:30 in Tokyo
    v = replace(view([MOVE, WAIT]), persona=sora, now=morning, places=places)
    proposed = propose(v)
    walk = proposed.candidates[0]
    assert (walk.rule, walk.params) == ("morning-walk", {"target_node_id": "4-4"})
    memory, _ = finish(v, proposed.selection, walk, "move", True)
    assert propose(replace(v, behaviour_memory=memory)).candidates[0].rule != "morning-walk"  # once a day
    start = choice("conversation_start", param_schema={"target_agent_id": {"type": "string"},
                                                       "message": {"type": "string", "maxLength": 200}})
    noon = replace(v, choices=[start, MOVE, WAIT], now=TOKYO_NOON, nearby_agents=as_refs([MEI]), behaviour_memory=memory)
    assert propose(noon).candidates[0].rule != "seek-mei"  # not fond of her yet
    talk = replace(view([SPEAK, END], kind="conversation_message"), persona=sora, now=TOKYO_NOON)
    for n in range(30):  # time together: every turn of talk adds affection, at most 5 per notification
        talk = replace(talk, notification_id=f"notif-talk-{n}", behaviour_memory=memory)
        memory, _ = finish(talk, *first(propose(talk)), "conversation_speak", True)
    assert memory["variables"]["affection.桜草メイ"] == 60
    seek = propose(replace(noon, behaviour_memory=memory)).candidates[0]
    assert seek.rule == "seek-mei" and seek.params["target_agent_id"] == MEI["id"]
    assert seek.params["message"].startswith("桜草メイさん、")


def test_a_keyword_rule_reads_the_newest_line_else_the_notifications_text():
    festival = {"id": "festival", "when": {"type": "keyword", "keywords": ["お祭り"]},
                "then": [{"type": "choose", "command": "wait", "params": {"duration": 2}}], "priority": 60}
    idle = replace(with_pack(view([MOVE, WAIT]), {"rules": [festival]}, now=TOKYO_NOON),
                   text="広場でお祭りが始まりました。")
    assert propose(idle).candidates[0].rule == "festival"
    assert propose(replace(idle, text="静かな午後です。")).candidates[0].rule == "daily-life"


def test_the_schema_the_model_is_asked_for_lets_it_change_the_packs_variables_only():
    import respx

    from karakuri_agent.decide.behaving import begin
    from testing.model_decider import BASE, answer, decider

    def variables(v):
        turn = begin(v)
        return {shown["path"] for shown in turn.variables.shown()} if turn is not None else set()

    moody, plain = (with_pack(view([MOVE, WAIT]), pack, now=TOKYO_NOON) for pack in (MOODY, {"rules": [NIGHT_REST]}))
    assert variables(moody) and not variables(plain)
    with respx.mock(assert_all_called=False) as router:
        route = router.post(f"{BASE}/chat/completions")
        route.side_effect = [answer(json.dumps({"command": "wait", "params": {"duration": 1}, "reason": "休む"}))] * 2
        decider().propose(moody)
        decider().propose(plain)
    asked_moody, asked_plain = (json.loads(call.request.content)["response_format"]["json_schema"]["schema"]
                                for call in route.calls)
    for alternative in asked_moody["anyOf"]:
        state = alternative["properties"]["state"]
        assert set(state["properties"]) == variables(moody) and state["additionalProperties"] is False
        assert "state" not in alternative["required"]  # a change is optional
    assert all("state" not in alternative["properties"] for alternative in asked_plain["anyOf"])
