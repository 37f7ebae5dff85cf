"""Property tests for numbers and pack files (issue 28 items 1, 4, 5, 9, 13), each a class of bad input.

- No value reaches the ledger or the request that strict JSON cannot carry:
  whatever params a decider proposes, the gate admits only what
  `outside.dumps` writes, and the one JSON reader either returns such a
  value or raises JSONDecodeError.
- Every number a pack gives is bounded: a pack `persona check` passes runs
  through the engine at both ends of the plausible calendar without
  overflowing, and every server timestamp is unknown or safe to add a day to.
- Pack files of any nesting are read or refused in one line; never a
  RecursionError.
- Whatever the state stored and whatever a rule or model asks, every
  variable is within its pack's bounds and of its kind; a reaction runs at
  most once per notification; an id that passes the check prints as one line.
"""

from __future__ import annotations

import json
import math
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from karakuri_agent.behaviour.engine import Facts, Turn
from karakuri_agent.behaviour.pack import parse_behaviour
from karakuri_agent.behaviour.spec import VALUE_LIMIT
from karakuri_agent.behaviour.variables import Variables
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.notification import Notification, parse_timestamp
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.gate import Admitted, admit
from karakuri_agent.outside import DuplicateKey, UnreadableJson, dumps, loads, read_json_file

from testing.samples import CONVERSATION_REQUEST, NID

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ANY_FLOAT = st.floats(allow_nan=True, allow_infinity=True)
# Numbers of every size and kind a JSON text or a careless author could give.
ANY_NUMBER = st.one_of(ANY_FLOAT, st.integers(), st.integers(-(10 ** 400), 10 ** 400),
                       st.sampled_from([1e308, -1e308, 1e15, 10 ** 9, 10 ** 9 + 1, 0, -0.0, 5e-324]))
SCALARS = st.one_of(st.none(), st.booleans(), ANY_NUMBER, st.text(max_size=8))
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=5), inner, max_size=4)),
                      max_leaves=20)


def strictly_json(value: Any) -> bool:
    try:
        dumps(value)
    except ValueError:
        return False
    return True


# -- 1: nothing admitted that cannot be sent ------------------------------------------------------
@SETTINGS
@given(params=st.dictionaries(st.sampled_from(["message", "x", "y"]), VALUES, max_size=3),
       command=st.sampled_from(["conversation_accept", "conversation_reject"]))
def test_whatever_is_proposed_the_gate_admits_only_strict_json(params, command):
    notification = Notification.from_json(CONVERSATION_REQUEST, requested_id=NID)
    verdict = admit(notification, Decision(command, params))
    if isinstance(verdict, Admitted):
        assert json.loads(dumps(verdict.params)) == verdict.params
    elif not strictly_json(params):
        assert verdict.problems


NUMBER_TEXT = st.one_of(
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-1e999", "1E309", "0.0", "1e-400", "-0"]),
    st.integers(-(10 ** 400), 10 ** 400).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.builds(lambda d, e: f"{d}e{e}", st.integers(-99, 99), st.integers(-500, 500)),
)


@SETTINGS
@given(parts=st.lists(NUMBER_TEXT, min_size=1, max_size=6), wrap=st.sampled_from(["[{}]", '{{"a": [{}]}}', '"{}"']))
def test_the_json_reader_returns_strict_json_or_says_where_it_is_not(parts, wrap):
    text = wrap.format(", ".join(parts)) if wrap != '"{}"' else json.dumps(", ".join(parts))
    try:
        value = loads(text)
    except json.JSONDecodeError as exc:
        assert exc.msg and 0 <= exc.pos <= len(text)
        return
    assert strictly_json(value)


# -- 4: bounded numbers, safe dates -----------------------------------------------------------------
def rule_with(numbers: dict[str, Any]) -> dict[str, Any]:
    return {"id": "r", "when": {"type": "every", "notifications": numbers["every"]},
            "cooldown": {"minutes": numbers["minutes"]}, "max_fires": numbers["fires"], "priority": numbers["priority"],
            "then": [{"type": "add", "path": "energy", "value": numbers["add"]},
                     {"type": "directive", "text": "x", "duration": numbers["duration"]}]}


EDGES = st.sampled_from([datetime(1971, 1, 1, tzinfo=timezone.utc), datetime(8999, 12, 31, 23, 59, tzinfo=timezone.utc),
                         datetime(2026, 11, 29, 12, tzinfo=timezone.utc)])


@SETTINGS
@given(numbers=st.fixed_dictionaries({k: ANY_NUMBER for k in ("every", "minutes", "fires", "priority", "add",
                                                               "duration")}),
       variable=st.fixed_dictionaries({}, optional={k: ANY_NUMBER for k in ("min", "max", "initial", "max_delta")}),
       when=st.lists(EDGES, min_size=1, max_size=4))
def test_a_pack_the_check_passes_never_overflows_at_the_calendars_edges(numbers, variable, when):
    behaviour, problems = parse_behaviour({"variables": {"energy": variable}, "rules": [rule_with(numbers)]})
    if problems:
        assert all(line.count("\n") == 0 for line in problems)
        return
    memory: dict[str, Any] = {}
    for moment in when:  # the clock may step back and forth: cooldowns and days still compute
        turn = Turn.begin(behaviour, Facts("idle_reminder_fired", moment.astimezone(TOKYO)), memory)
        rule = behaviour.rules[0]
        if turn.wants(rule) and turn.blocked(rule) is None:
            turn.fire(rule)
        memory = turn.memory()
        energy = turn.variables.get("energy")
        assert -VALUE_LIMIT <= energy <= VALUE_LIMIT
        assert strictly_json(memory)


@SETTINGS
@given(value=st.one_of(st.integers(-(10 ** 20), 10 ** 20), ANY_FLOAT,
                       st.builds(lambda y, rest: f"{y:04d}{rest}", st.integers(1, 9999),
                                 st.sampled_from(["-12-31T23:59:59.999Z", "-01-01T00:00:00Z", "-06-15T12:00:00-12:00",
                                                  "-12-31T23:59:59+14:00", "-01-01"]))))
def test_every_server_timestamp_is_unknown_or_safe_for_a_days_arithmetic(value):
    moment = parse_timestamp(value)
    if moment is None:
        return
    for step in (timedelta(days=2), -timedelta(days=2)):
        (moment + step).astimezone(TOKYO).astimezone(timezone.utc)


@SETTINGS
@given(digits=st.integers(1, 6000), unit=st.sampled_from(["円", "分", "秒", "〜5分"]), lead=st.sampled_from(["", "報酬: ", "1,"]))
def test_every_number_in_an_actions_details_is_bounded_or_unknown(digits, unit, lead):
    from karakuri_agent.reading.offers import _details

    found = _details("act", "する", None, lead + "9" * digits + unit)
    for key in ("cost", "reward", "minutes", "min_minutes", "max_minutes"):
        value = found[key]
        assert value is None or 0 <= value < 10 ** 15
    if found["minutes"] is not None:
        datetime(8999, 12, 31, tzinfo=timezone.utc) - timedelta(days=1) + timedelta(minutes=found["minutes"])


@SETTINGS
@given(year=st.integers(1, 9999), month=st.integers(1, 12), day=st.integers(1, 28))
def test_any_date_for_day_is_a_window_or_a_usage_error(year, month, day):
    from karakuri_agent.app.day.read import parse_date, window
    from karakuri_agent.errors import UsageError

    try:
        start, end = window(parse_date(f"{year:04d}-{month:02d}-{day:02d}"))
    except UsageError as exc:
        assert "--date must be" in exc.message
        return
    assert end - start == timedelta(days=1)
    start.astimezone(timezone.utc), end.astimezone(timezone.utc)


# -- 9: deep JSON ------------------------------------------------------------------------------------
NESTED = st.builds(lambda depth, kinds, tail: "".join(kinds[i % len(kinds)][0] for i in range(depth)) + tail
                   + "".join(kinds[i % len(kinds)][1] for i in reversed(range(depth))),
                   st.integers(0, 60_000), st.lists(st.sampled_from([("[", "]"), ('{"a":', "}")]), min_size=1, max_size=3),
                   st.sampled_from(["1", '"x"', "[]", "{}", "NaN", ""]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=NESTED)
def test_a_pack_file_of_any_nesting_is_read_or_refused_in_one_line(tmp_path_factory, text):
    path: Path = tmp_path_factory.mktemp("nest") / "behaviour.json"
    path.write_text(text, encoding="utf-8")
    try:
        read_json_file(path, 1_000_000, max_depth=32)
    except UnreadableJson as exc:
        assert str(exc).startswith(str(path)) and "\n" not in str(exc)


@SETTINGS
@given(data=VALUES, key=st.text(min_size=1, max_size=5))
def test_a_key_given_twice_anywhere_is_refused_naming_it(data, key):
    text = json.dumps({"k": data}).replace('{"k": ', '{' + json.dumps(key) + ': 1, ' + json.dumps(key) + ': ', 1)
    try:
        loads(text, unique_keys=True)
    except DuplicateKey as exc:
        assert exc.key in (key, *_keys(data))
    except json.JSONDecodeError:
        assert not strictly_json(data) or _longest_integer(data) > 300
    else:
        raise AssertionError("a duplicate key passed")


def _longest_integer(value: Any) -> int:
    if isinstance(value, dict):
        return max(map(_longest_integer, value.values()), default=0)
    if isinstance(value, list):
        return max(map(_longest_integer, value), default=0)
    return len(str(abs(value))) if isinstance(value, int) and not isinstance(value, bool) else 0


def _keys(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [*value, *(k for v in value.values() for k in _keys(v))]
    if isinstance(value, list):
        return [k for v in value for k in _keys(v)]
    return []


# -- 13 and 5: variables always within the pack, reactions once, ids one line ------------------------
SPECS = st.fixed_dictionaries({}, optional={
    "type": st.sampled_from(["number", "flag"]),
    "min": st.integers(-100, 0), "max": st.integers(1, 100), "max_delta": st.integers(1, 50),
    "per": st.just("person")})


@SETTINGS
@given(spec=SPECS, stored=st.dictionaries(st.sampled_from(["energy", "energy.メイ", "other"]), VALUES, max_size=3),
       changes=st.lists(st.tuples(st.sampled_from(["set", "add", "subtract", "toggle"]),
                                  st.sampled_from(["energy", "energy.メイ"]), VALUES), max_size=6))
def test_whatever_was_stored_and_asked_every_variable_stays_in_its_bounds_and_kind(spec, stored, changes):
    if spec.get("type") == "flag":
        spec = {k: v for k, v in spec.items() if k in ("type", "per")}
    behaviour, problems = parse_behaviour({"variables": {"energy": spec}})
    assert problems == []
    variables = Variables(behaviour.variables, stored)
    for op, path, value in changes:
        variables.change(op, path, value, "model")
    definition = behaviour.variables["energy"]
    for path in variables.values:
        value = variables.get(path)
        if definition.kind == "flag":
            assert isinstance(value, bool)
        else:
            assert isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
            assert (definition.minimum is None or value >= definition.minimum) and (
                definition.maximum is None or value <= definition.maximum)
    assert strictly_json(variables.values)


@SETTINGS
@given(globs=st.lists(st.sampled_from(["*", "*_fired", "idle_*", "day_start", "*_completed", "conversation_*"]),
                      min_size=1, max_size=4),
       events=st.lists(st.lists(st.sampled_from(["idle_reminder_fired", "movement_completed", "action_completed",
                                                 "conversation_ended", "day_start"]), max_size=3), max_size=3))
def test_a_reaction_runs_at_most_once_per_notification(globs, events):
    behaviour, problems = parse_behaviour({"reactions": [{"id": f"r{i}", "on": g} for i, g in enumerate(globs)]})
    assert problems == []
    turn = Turn.begin(behaviour, Facts("idle_reminder_fired", datetime(2026, 11, 29, tzinfo=timezone.utc)), {})
    for batch in events:
        turn.react(batch, {})
    assert len(turn.reacted) == len(set(turn.reacted))


@SETTINGS
@given(rid=st.text(min_size=1, max_size=12))
def test_a_rule_id_the_check_passes_is_one_printable_line(rid):
    _, problems = parse_behaviour({"rules": [{"id": rid, "when": {"type": "manual"}}],
                                   "variables": {rid.replace(".", "_").replace("{", "_"): {}}})
    if not problems:
        assert rid.isprintable() or all(c not in rid for c in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
        assert "\x1b" not in rid and "\n" not in rid
    assert all("\n" not in p and "\x1b" not in p for p in problems)


# -- the doors end to end: `karakuri command` and `persona check` -----------------------------------
PARAM_TEXT = st.one_of(
    st.builds(lambda n: '{"x": %s}' % n, NUMBER_TEXT),
    st.builds(lambda n, k: '{"%s": [%s, {"y": %s}]}' % (k, n, n), NUMBER_TEXT, st.sampled_from(["x", "message"])),
    st.builds(lambda v: json.dumps({"x": v}, allow_nan=True), VALUES),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(text=PARAM_TEXT)
def test_karakuri_command_sends_strict_json_once_or_claims_nothing(env, monkeypatch, tmp_path_factory, text):
    import sqlite3

    import respx
    from click.testing import CliRunner

    from karakuri_agent.app.cli import karakuri
    from testing.samples import GET_URL, POST_URL

    state = tmp_path_factory.mktemp("state")
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(state))
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        result = CliRunner().invoke(karakuri, ["command", NID, "conversation_reject", text])
    claimed = 0
    if (state / "karakuri.db").exists():  # params refused as text: the state is not even opened
        conn = sqlite3.connect(state / "karakuri.db")
        try:
            claimed = conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0]
        finally:
            conn.close()
    if result.exit_code == 0:
        assert post.call_count == 1 and claimed == 1
        assert strictly_json(loads(post.calls.last.request.content.decode()))
    else:
        assert result.exit_code == 2 and post.call_count == 0 and claimed == 0, result.output
        assert result.stderr.count("\n") == 1


PACK_TEXT = st.one_of(
    NESTED,
    st.builds(lambda k: '{"%s": 1, "%s": 2}' % (k, k), st.sampled_from(["name", "rules", "variables", "x"])),
    st.builds(lambda n: '{"name": "テスト", "rules": {"conversation_turns": %s}}' % n, NUMBER_TEXT),
    st.builds(lambda n: '{"variables": {"e": {"max": %s, "initial": %s}}}' % (n, n), NUMBER_TEXT),
    st.builds(lambda n: '{"rules": [{"id": "r", "when": {"type": "every", "notifications": %s},'
                        ' "cooldown": {"minutes": %s}}]}' % (n, n), NUMBER_TEXT),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(persona=st.one_of(st.none(), PACK_TEXT), behaviour=st.one_of(st.none(), PACK_TEXT))
def test_any_pack_file_gives_one_line_problems_or_a_pack_the_engine_can_run(tmp_path_factory, persona, behaviour):
    from karakuri_agent.voice.persona_pack import load_persona, problems

    directory = tmp_path_factory.mktemp("pack")
    (directory / "persona.json").write_text(persona or '{"name": "テスト"}', encoding="utf-8")
    if behaviour is not None:
        (directory / "behaviour.json").write_text(behaviour, encoding="utf-8")
    found = problems(directory)
    assert all("\n" not in line and line.startswith(str(directory)) for line in found), found
    behaviour = load_persona(directory).behaviour if not found else None
    if behaviour is not None:
        memory: dict[str, Any] = {}
        for moment in (datetime(8999, 12, 31, tzinfo=timezone.utc), datetime(1971, 1, 1, tzinfo=timezone.utc)):
            turn = Turn.begin(behaviour, Facts("idle_reminder_fired", moment), memory)
            for rule in behaviour.rules:
                if turn.wants(rule) and turn.blocked(rule) is None:
                    turn.fire(rule)
            memory = turn.memory()
        assert strictly_json(memory)


def test_an_int_too_large_for_a_float_is_no_number_and_changes_nothing():
    """CI found it: a stored 3e-169, then 10**400 set, overflowed the sum ('int too large to convert to float')."""
    behaviour, _ = parse_behaviour({"variables": {"energy": {}}})
    variables = Variables(behaviour.variables, {})
    variables.change("set", "energy", 2.9e-169, "model")
    change = variables.change("set", "energy", 10**400, "model")
    assert change.after == 2.9e-169 and variables.get("energy") == 2.9e-169
