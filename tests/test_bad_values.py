"""Bad numbers and bad pack files, refused at the door (issue 28, items 1, 4, 5, 9 and 13).

Each test is a fault found by trying the installed programs: a NaN that
passed the gate and lost the notification, a cooldown too large to add, a
date at the calendar's edge, a pack file of 50 000 brackets, a duplicate key
that dropped a list, a rule id that split `rules`, a reaction that ran twice,
a lowered `max` that kept a value above it. Their whole classes are fuzzed in
test_fuzz_values.py.
"""

from __future__ import annotations

import json
import math
import sqlite3
from datetime import datetime, timezone
from pathlib import Path

import pytest
import respx
from click.testing import CliRunner

from karakuri_agent.app.cli import agent, karakuri
from karakuri_agent.behaviour.engine import Facts, Turn
from karakuri_agent.behaviour.pack import parse_behaviour
from karakuri_agent.behaviour.variables import CLAMPED, IGNORED, Variables
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.notification import Notification, parse_timestamp
from karakuri_agent.gate import Admitted, Rejected, admit
from karakuri_agent.outside import dumps, dumps_shown, loads

from testing.samples import BASE_URL, BODY, CONVERSATION_REQUEST, NID, POST_URL

NAN, INF = float("nan"), float("inf")


def attempts(env) -> int:
    path = Path(env["KARAKURI_STATE_DIR"]) / "karakuri.db"
    if not path.exists():
        return 0
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0])
    finally:
        conn.close()


def pack(tmp_path: Path, behaviour: str | None = None, persona: str | None = None) -> Path:
    """A pack from `persona init`, with its behaviour.json (and persona.json) replaced by this text."""
    directory = tmp_path / "pack"
    assert CliRunner().invoke(agent, ["persona", "init", str(directory), "--name", "テスト"]).exit_code == 0
    if behaviour is not None:
        (directory / "behaviour.json").write_text(behaviour, encoding="utf-8")
    if persona is not None:
        (directory / "persona.json").write_text(persona, encoding="utf-8")
    return directory


def check(directory: Path):
    return CliRunner().invoke(agent, ["persona", "check", str(directory)])


# -- item 1: nothing claimed that cannot be sent -------------------------------------------------
@pytest.mark.parametrize("text", ['{"x": NaN}', '{"x": Infinity}', '{"x": [1, -Infinity]}', '{"x": 1e400}',
                                  '{"x": {"y": NaN}}'])
def test_karakuri_command_refuses_a_number_json_cannot_carry_and_claims_nothing(env, api, text):
    result = CliRunner().invoke(karakuri, ["command", NID, "conversation_reject", text])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "finite" in result.stderr and "Traceback" not in result.stderr
    assert api.routes[1].call_count == 0 and attempts(env) == 0
    # The notification is not lost: the same command with sane params goes out once.
    again = CliRunner().invoke(karakuri, ["command", NID, "conversation_reject", "{}"])
    assert again.exit_code == 0, again.output
    assert api.routes[1].call_count == 1


@pytest.mark.parametrize("line", ['{"content": "x", "id": %s}' % ("9" * 5000), '{"content": NaN}',
                                  '{"content": "x", "id": 1e400}'])
def test_listen_stdin_refuses_a_line_with_a_number_json_cannot_carry_as_that_line_only(line):
    from karakuri_agent.app.listen.stdin import BadLine, parse_line

    with pytest.raises(BadLine, match="not JSON"):
        parse_line(line)
    assert parse_line('{"content": "notification_id: notif-1"}').content == "notification_id: notif-1"


@pytest.mark.parametrize("value", [NAN, INF, -INF, [1.0, NAN], {"deep": {"er": INF}}, {1: "a key that is no text"},
                                   {"a set"}])
def test_the_gate_refuses_params_no_strict_json_can_carry(value):
    notification = Notification.from_json(CONVERSATION_REQUEST, requested_id=NID)
    verdict = admit(notification, Decision("conversation_reject", {"x": value}))
    assert isinstance(verdict, Rejected)
    assert any(p.startswith("x") for p in verdict.problems), verdict.problems


def test_the_gate_admits_only_what_the_request_can_carry_when_the_schema_says_nothing():
    notification = Notification.from_json(CONVERSATION_REQUEST, requested_id=NID)
    verdict = admit(notification, Decision("conversation_reject", {"x": 1e308, "y": [None, True, "text"]}))
    assert isinstance(verdict, Admitted)
    assert json.loads(dumps(verdict.params)) == verdict.params


def test_run_command_from_python_with_nan_claims_nothing_and_sends_nothing(env, api):
    from karakuri_agent.app.config import load_settings
    from karakuri_agent.app.wrapper import run_command
    from karakuri_agent.errors import UsageError

    with pytest.raises(UsageError, match="finite number"):
        run_command(load_settings(), NID, "conversation_reject", {"x": NAN})
    assert api.routes[1].call_count == 0 and attempts(env) == 0


def test_act_itself_refuses_unsendable_params_before_the_claim():
    from karakuri_agent.app.operations import sendable
    from karakuri_agent.params import InvalidParams

    with pytest.raises(InvalidParams):
        sendable("wait", {"duration": NAN})
    sendable("wait", {"duration": 3})


def test_the_request_body_is_strict_json_built_before_any_request():
    from karakuri_agent.app.client import KarakuriClient
    from karakuri_agent.secret import Secret

    with respx.mock(assert_all_called=False) as mock:
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        client = KarakuriClient(BASE_URL, Secret("key"))
        with pytest.raises(ValueError):
            client.send_command(NID, "wait", {"duration": NAN})
        assert post.call_count == 0
        client.send_command(NID, "wait", {"duration": 2})
        assert loads(post.calls.last.request.content.decode()) == {
            "notification_id": NID, "command": "wait", "params": {"duration": 2}}
        assert post.calls.last.request.headers["content-type"] == "application/json"


@pytest.mark.parametrize("answer", ['{"command": "wait", "params": {"duration": NaN}}',
                                    '```json\n{"command": "wait", "state": {"energy": Infinity}}\n```',
                                    'I propose {"command": "wait", "params": {"duration": 1e999}}'])
def test_a_models_proposal_with_a_non_finite_number_is_unreadable_with_a_line_saying_why(answer):
    from karakuri_agent.llm.proposal import UnreadableProposal, read_proposal

    with pytest.raises(UnreadableProposal, match="finite"):
        read_proposal(answer)


def test_a_models_state_change_that_is_not_finite_is_ignored_and_the_variable_keeps_its_value():
    specs, _ = parse_behaviour({"variables": {"energy": {"min": 0, "max": 100, "initial": 50}}})
    variables = Variables(specs.variables, {"energy": 40})
    for value in (NAN, INF, -INF):
        assert variables.change("add", "energy", value, "model").status == IGNORED
    assert variables.change("set", "energy", NAN, "model").status == IGNORED
    assert variables.get("energy") == 40


@pytest.mark.parametrize("field, value", [("min", "NaN"), ("max", "Infinity"), ("initial", "NaN"),
                                          ("max_delta", "1e400"), ("bands", "[[0, NaN, \"x\"]]")])
def test_behaviour_json_with_a_non_finite_number_is_a_problem_naming_the_file(tmp_path, field, value):
    directory = pack(tmp_path, '{"variables": {"energy": {"%s": %s}}}' % (field, value))
    result = check(directory)
    assert result.exit_code != 0
    assert "behaviour.json: not valid JSON at line 1" in result.output and "finite" in result.output


@pytest.mark.parametrize("spec", [{"max": NAN}, {"min": NAN}, {"initial": NAN}, {"initial": INF},
                                  {"bands": [[0, NAN, "x"]]}, {"max_delta": INF}, {"min": "0"}, {"max": True}])
def test_a_non_finite_or_non_number_value_given_as_data_is_a_problem_too(spec):
    _, problems = parse_behaviour({"variables": {"energy": spec}})
    assert problems and all("variables.energy" in p for p in problems), problems


@pytest.mark.parametrize("action", [{"type": "add", "path": "energy", "value": NAN},
                                    {"type": "set", "path": "energy", "value": INF}])
def test_a_rules_change_of_nan_is_a_problem_and_never_reaches_a_variable(action):
    _, problems = parse_behaviour({"variables": {"energy": {}}, "rules": [
        {"id": "r", "when": {"type": "manual"}, "then": [action]}]})
    assert any("then[0].value" in p for p in problems), problems


def test_everything_printed_as_json_is_strict_json():
    text = dumps_shown({"a": NAN, "b": [INF, {"c": -INF}], "d": 1.5}, indent=2)
    assert json.loads(text, parse_constant=lambda c: pytest.fail(f"bare {c}")) == {
        "a": None, "b": [None, {"c": None}], "d": 1.5}
    with pytest.raises(ValueError):
        dumps({"a": NAN})


def test_print_json_writes_strict_json(capsys):
    from karakuri_agent.app.cli_support import print_json

    print_json({"energy": NAN})
    assert json.loads(capsys.readouterr().out) == {"energy": None}


@pytest.mark.parametrize("name, value", [("KARAKURI_COOLDOWN_SECONDS", "1e300"), ("KARAKURI_HTTP_TIMEOUT", "1e20"),
                                         ("KARAKURI_GET_RETRY_BUDGET", "100000")])
def test_a_numeric_setting_past_a_day_of_seconds_is_refused_naming_it(env, monkeypatch, name, value):
    from karakuri_agent.app.config import load_settings
    from karakuri_agent.errors import ConfigError

    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError, match=f"{name} must be at most 86400 seconds"):
        load_settings()


# -- item 4: every number bounded where it is read; dates never overflow -------------------------
@pytest.mark.parametrize("rule, field, allowed", [
    ({"cooldown": {"minutes": 1e15}}, "cooldown.minutes", "from 0 (exclusive) to 525600"),
    ({"cooldown": {"notifications": 10 ** 12}}, "cooldown.notifications", "from 1 to 1000000"),
    ({"max_fires": 10 ** 9}, "max_fires", "from 1 to 1000000"),
    ({"priority": 10 ** 6}, "priority", "from -1000 to 1000"),
    ({"when": {"type": "every", "notifications": 10 ** 10}}, "when.notifications", "from 1 to 1000000"),
    ({"when": {"type": "every", "notifications": 2.5}}, "when.notifications", "valid integer"),
    ({"then": [{"type": "directive", "text": "x", "duration": 10 ** 8}]}, "then.0.duration", "from 1 to 1000000"),
])
def test_persona_check_names_the_field_and_the_allowed_range(tmp_path, rule, field, allowed):
    raw = {"id": "r", "when": {"type": "manual"}, "then": [{"type": "choose", "command": "wait",
                                                             "params": {"duration": 1}}], **rule}
    result = check(pack(tmp_path, json.dumps({"rules": [raw]})))
    assert result.exit_code != 0
    [line] = [line for line in result.output.splitlines() if f"rules[r].{field}" in line]
    assert allowed in line, line


@pytest.mark.parametrize("spec, field", [({"max": 1e12}, "max"), ({"min": -1e10}, "min"),
                                         ({"initial": 1e30}, "initial"), ({"max_delta": 1e300}, "max_delta"),
                                         ({"bands": [[0, 1e20, "x"]]}, "bands")])
def test_a_variables_numbers_are_bounded_too(spec, field):
    _, problems = parse_behaviour({"variables": {"energy": spec}})
    assert any(f"variables.energy.{field}" in p and "expected a number from" in p for p in problems), problems


def test_a_cooldown_of_a_year_in_minutes_runs_at_the_calendars_late_edge():
    behaviour, problems = parse_behaviour({"rules": [{
        "id": "r", "when": {"type": "manual"}, "cooldown": {"minutes": 525600}}]})
    assert problems == []
    late = datetime(8999, 12, 31, 23, 0, tzinfo=timezone.utc)
    memory = {"rules": {"r": {"fires": 1, "last_seq": 1, "last_at": datetime(1971, 1, 1, tzinfo=timezone.utc).isoformat()}}}
    turn = Turn.begin(behaviour, Facts("idle_reminder_fired", late), memory)
    assert turn.blocked(behaviour.rules[0]) is None


@pytest.mark.parametrize("detail", ["9" * 5000 + "円", "9" * 30 + "分", "報酬: " + "9" * 400 + "円", "9" * 40 + "秒"])
def test_an_actions_amount_or_length_of_absurd_size_in_the_servers_text_is_unknown(detail):
    from karakuri_agent.reading.offers import _details

    found = _details("act", "する", None, f"{detail}、30分")
    assert found["cost"] is None and found["reward"] is None and found["minutes"] == 30


@pytest.mark.parametrize("date", ["0001-01-01", "9999-12-31", "1970-12-31", "9000-01-01"])
def test_day_at_the_calendars_edge_is_one_clear_line(env, date):
    result = CliRunner().invoke(agent, ["day", "--date", date])
    assert result.exit_code == 2, result.output
    assert "--date must be from 1971-01-01 to 8999-12-31" in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


@pytest.mark.parametrize("date", ["1971-01-01", "8999-12-31"])
def test_day_at_the_plausible_edge_is_an_empty_day(env, api, date):
    from karakuri_agent.app.cycle import handle
    from karakuri_agent.app.config import load_settings

    handle(BODY, load_settings())  # a state to read
    for extra in ([], ["--json"]):
        result = CliRunner().invoke(agent, ["day", "--date", date, *extra])
        assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["date"] == date


@pytest.mark.parametrize("value", ["9999-12-31T23:59:59.999Z", "0001-01-01T00:00:00Z", 253402300799999, -62135596800000,
                                   10 ** 18, "9999-12-31T23:59:59-12:00"])
def test_a_server_time_outside_the_plausible_years_is_unknown(value):
    assert parse_timestamp(value) is None


def test_a_move_answered_with_an_arrival_at_the_calendars_edge_does_not_crash_the_run(env, notification):
    from karakuri_agent.app.cycle import handle
    from karakuri_agent.app.config import load_settings

    idle = json.loads(json.dumps(notification))
    idle["notification_id"] = "notif-edge"
    idle["expires_at"] = "9999-12-31T23:59:59.999Z"
    idle["notification"].update(type="idle_reminder_fired", text="現在地: 1-1 (駅 前)", participants=[],
                                choices=[{"command": "move", "param_schema": {"target_node_id": {
                                    "type": "string", "enum": ["2-2"]}}}])
    with respx.mock:
        respx.get(f"{BASE_URL}/agents/notifications/notif-edge").respond(200, json=idle)
        respx.post(POST_URL).respond(200, json={"ok": True, "arrives_at": "9999-12-31T23:59:59.999Z",
                                                "completes_at": 253402300799999})
        result = handle("notification_id: notif-edge", load_settings())
    assert result.sent and result.error is None and result.report
    log = CliRunner().invoke(agent, ["day"])
    assert log.exit_code == 0, log.output


# -- item 9: deep JSON ----------------------------------------------------------------------------
DEEP = "[" * 50_000 + "]" * 50_000


@pytest.mark.parametrize("which", ["behaviour", "persona"])
def test_a_deeply_nested_pack_file_is_one_clear_problem_for_check_rules_and_handle(env, api, tmp_path, monkeypatch,
                                                                                   which):
    directory = pack(tmp_path, **{which: DEEP})
    name = f"{which}.json"
    result = check(directory)
    assert result.exit_code != 0 and f"{name}: not valid JSON at line 1 column 33: nested deeper than 32 levels" \
        in result.output
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(directory))
    for args in (["rules"], ["handle", BODY]):
        run = CliRunner().invoke(agent, args)
        assert run.exit_code == 2, run.output
        assert f"{name}: not valid JSON" in run.stderr and "RecursionError" not in run.output
    assert api.routes[1].call_count == 0


def test_nesting_just_inside_the_bound_is_read(tmp_path):
    from karakuri_agent.outside import read_json_file

    path = tmp_path / "x.json"
    path.write_text("[" * 32 + "]" * 32)
    assert read_json_file(path, 10_000, max_depth=32) == json.loads("[" * 32 + "]" * 32)
    path.write_text(json.dumps(["[" * 40, {"k\\\"[[[": "]"}]))  # brackets in a string do not count
    assert read_json_file(path, 10_000, max_depth=2) == ["[" * 40, {"k\\\"[[[": "]"}]


# -- item 13: duplicate keys, ids that split lines, reactions run once, values re-clamped --------
def test_a_duplicate_key_in_behaviour_json_names_the_file_and_key(tmp_path):
    result = check(pack(tmp_path, '{"rules": [{"id": "a", "when": {"type": "manual"}}], "rules": []}'))
    assert result.exit_code != 0
    assert "behaviour.json: duplicate key 'rules'" in result.output


def test_a_duplicate_key_in_persona_json_names_the_file_and_key(tmp_path):
    result = check(pack(tmp_path, persona='{"name": "テスト", "name": "別の名前"}'))
    assert result.exit_code != 0 and "persona.json: duplicate key 'name'" in result.output


@pytest.mark.parametrize("bad", ["a\nb", "a\rb", "a\u2028b", "a\x1b[31mb", "a\x07", "a\u202eb", "a\x85b"])
def test_an_id_or_name_with_a_line_break_or_control_character_is_refused(bad):
    _, problems = parse_behaviour({
        "variables": {bad: {}},
        "rules": [{"id": bad, "when": {"type": "manual"}}],
        "reactions": [{"id": bad, "on": "day_start"}]})
    assert len([p for p in problems if "line break" in p]) == 3, problems
    assert all("\n" not in p and "\x1b" not in p and "\u2028" not in p for p in problems)


def test_rules_output_cannot_be_split_by_an_id(tmp_path, env, monkeypatch):
    directory = pack(tmp_path, json.dumps({"rules": [{"id": "a\nnotif-FORGED ok", "when": {"type": "manual"}}]}))
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(directory))
    result = CliRunner().invoke(agent, ["rules"])
    assert result.exit_code == 2 and "\nnotif-FORGED" not in result.output


@pytest.mark.parametrize("on", ["*", "*_fired", "idle_*"])
def test_a_reaction_on_a_glob_runs_once_per_notification(on):
    behaviour, problems = parse_behaviour({
        "variables": {"count": {"min": 0, "max": 100}},
        "reactions": [{"id": "every", "on": on, "then": [{"type": "add", "path": "count", "value": 1}]}]})
    assert problems == []
    now = datetime(2026, 11, 29, 12, tzinfo=timezone.utc)
    turn = Turn.begin(behaviour, Facts("idle_reminder_fired", now), {})  # a new day: day_start runs
    turn.react(["idle_reminder_fired", "movement_completed", "action_fired"], {})
    turn.react(["idle_reminder_fired"], {})
    assert turn.reacted == ["every"] and turn.variables.get("count") == 1


def test_a_reaction_per_person_still_runs_once_for_each_person():
    behaviour, _ = parse_behaviour({
        "variables": {"trust": {"per": "person", "min": -10, "max": 10}},
        "reactions": [{"id": "broken", "on": "promise_broken",
                       "then": [{"type": "subtract", "path": "trust.{partner}", "value": 1}]}]})
    turn = Turn.begin(behaviour, Facts("idle_reminder_fired", datetime(2026, 11, 29, tzinfo=timezone.utc)), {})
    for partner in ("メイ", "コウ", "メイ"):
        turn.react(["promise_broken"], {"partner": partner})
    assert turn.variables.get("trust.メイ") == -1 and turn.variables.get("trust.コウ") == -1


@pytest.mark.parametrize("spec, stored, loaded", [
    ({"min": 0, "max": 50}, 80, 50),
    ({"min": 10, "max": 100}, 3, 10),
    ({"type": "flag"}, 1, True),
    ({"type": "flag"}, 0, False),
    ({"min": 0, "max": 100, "initial": 20}, True, 20),  # a flag turned number starts again
    ({"min": 0, "max": 100, "initial": 20}, NAN, 20),  # what an older version kept
    ({"min": 0, "max": 100, "initial": 20}, "80", 20),
    ({}, 10 ** 30, 1_000_000_000),
])
def test_a_stored_value_is_fitted_to_the_pack_when_the_state_is_loaded(spec, stored, loaded):
    behaviour, problems = parse_behaviour({"variables": {"energy": spec}})
    assert problems == []
    variables = Variables(behaviour.variables, {"energy": stored})
    assert variables.get("energy") == loaded and type(variables.get("energy")) is type(loaded)
    [change] = variables.changes
    assert change.by == "pack" and change.status == CLAMPED and change.after == loaded


def test_a_value_within_the_pack_is_loaded_untouched():
    behaviour, _ = parse_behaviour({"variables": {"energy": {"min": 0, "max": 100}, "seen": {"type": "flag"}}})
    variables = Variables(behaviour.variables, {"energy": 40, "seen": True})
    assert variables.values == {"energy": 40, "seen": True} and variables.changes == []


def test_a_lowered_max_is_saved_clamped_after_the_next_notification():
    behaviour, _ = parse_behaviour({"variables": {"energy": {"min": 0, "max": 50}}})
    turn = Turn.begin(behaviour, Facts("idle_reminder_fired", datetime(2026, 11, 29, tzinfo=timezone.utc)),
                      {"variables": {"energy": 90}})
    assert turn.memory()["variables"] == {"energy": 50}
    assert not math.isnan(turn.variables.get("energy"))


def test_a_variable_without_bounds_never_overflows():
    behaviour, _ = parse_behaviour({"variables": {"energy": {}}})
    variables = Variables(behaviour.variables, {})
    for _ in range(5):
        variables.change("add", "energy", 1e308, "model")
    assert variables.get("energy") == 1_000_000_000
    assert variables.changes[-1].why.startswith("the limit of every variable")

