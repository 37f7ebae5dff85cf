"""Property tests for a pack changed over a live state (issue 32 item 8), each a class of bad outcome.

- Whatever the state holds and however the pack changed (variables
  dropped, renamed with or without `renamed_from`, kinds changed), a
  notification's load and save loses no value: a value of a variable the
  pack has is there (fitted), one renamed moves to the new name (unless
  the new name already has one), one the pack dropped is kept as it was,
  and `left_behind` names exactly the dropped names.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from karakuri_agent.app.behaviour_state import left_behind
from karakuri_agent.behaviour.builtin import BUILTIN_RULE_IDS
from karakuri_agent.behaviour.engine import Facts, Turn
from karakuri_agent.behaviour.pack import parse_behaviour

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
NOW = datetime(2026, 4, 18, 12, 0, tzinfo=timezone(timedelta(hours=9)))
NAMES = ["energy", "affection", "mood", "visited", "エネルギー"]
PEOPLE = ["桜草メイ", "朝凪ソラ"]
VALUES = st.one_of(st.integers(-50, 150), st.booleans(), st.floats(allow_nan=True, allow_infinity=True),
                   st.text(max_size=3))


@SETTINGS
@given(stored=st.dictionaries(st.tuples(st.sampled_from(NAMES), st.one_of(st.none(), st.sampled_from(PEOPLE))),
                              VALUES, max_size=8),
       kept_names=st.sets(st.sampled_from(NAMES), max_size=3),
       per_person=st.sets(st.sampled_from(NAMES)),
       flags=st.sets(st.sampled_from(NAMES)),
       rename=st.one_of(st.none(), st.tuples(st.sampled_from(NAMES), st.sampled_from(["closeness", "stamina"]))))
def test_no_stored_value_is_lost_when_the_pack_changes(stored, kept_names, per_person, flags, rename):
    memory_vars = {name + (f".{who}" if who else ""): value for (name, who), value in stored.items()}
    variables = {}
    for name in kept_names:
        variables[name] = ({"type": "flag", "initial": False} if name in flags
                           else {"min": 0, "max": 100, "initial": 10}) | ({"per": "person"} if name in per_person
                                                                             else {})
    if rename is not None and rename[0] not in kept_names:
        old, new = rename
        variables[new] = {"min": 0, "max": 100, "initial": 10, "renamed_from": old} | (
            {"per": "person"} if old in per_person else {})
    behaviour, problems = parse_behaviour({"variables": variables}, builtin_ids=BUILTIN_RULE_IDS)
    assert problems == [], problems
    turn = Turn.begin(behaviour, Facts(notification="idle_reminder_fired", now=NOW), {"variables": memory_vars})
    saved = turn.memory()["variables"]
    for path, value in memory_vars.items():
        name, dot, key = path.partition(".")
        spec = behaviour.variables.get(name)
        if spec is not None and bool(key) == spec.per_person:
            assert path in saved  # the pack's own: fitted, never dropped
            continue
        target = next((n + dot + key for n, s in behaviour.variables.items() if name in s.renamed_from), None)
        moved = (target is not None and target not in memory_vars
                 and bool(key) == behaviour.variables[target.partition(".")[0]].per_person)
        if moved:
            assert target in saved and path not in saved
        else:
            assert saved.get(path, "missing") == value or (value != value and saved.get(path) != saved.get(path))
    reported = {line.split("'")[1] for line in left_behind(behaviour, {"variables": memory_vars})
                if line.startswith("the state holds variable")}
    assert reported == {p.partition(".")[0] for p in saved if behaviour.variables.get(p.partition(".")[0]) is None
                        or bool(p.partition(".")[2]) != behaviour.variables[p.partition(".")[0]].per_person}


RULE_IDS = ["late-rest", "map-first", "stroll", "greeting"]  # none a built-in rule's id


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(stored=st.dictionaries(st.sampled_from(NAMES), st.integers(0, 100), max_size=4),
       fired=st.sets(st.sampled_from(RULE_IDS), max_size=3),
       pack=st.one_of(st.none(), st.tuples(st.sets(st.sampled_from(NAMES), max_size=3),
                                           st.sets(st.sampled_from(RULE_IDS), max_size=3))))
def test_persona_check_against_any_lived_state_names_what_any_pack_lacks(tmp_path_factory, monkeypatch, stored,
                                                                         fired, pack):
    """`persona check --state` over any state and any pack (none of its own behaviour included): no internal
    error, and every stored variable and fired rule the pack lacks is named, nothing else."""
    import json
    import shutil

    from click.testing import CliRunner

    from karakuri_agent.app.cli import agent
    from karakuri_agent.voice.persona_pack import bundled_pack_dir
    from karakuri_agent.state.factory import open_url

    root = tmp_path_factory.mktemp("lived")
    state = open_url("", root / "state", lambda: NOW)
    state.store.save_behaviour_state({"variables": dict(stored),
                                      "rules": {rule: {"fires": 1, "last_seq": 1} for rule in fired}})
    state.close()
    directory = root / "pack"
    shutil.copytree(bundled_pack_dir(), directory)
    (directory / "behaviour.json").unlink()
    if pack is not None:
        names, rules = pack
        (directory / "behaviour.json").write_text(json.dumps({
            "variables": {name: {"min": 0, "max": 100, "initial": 10} for name in names},
            "rules": [{"id": rule, "when": {"type": "time", "between": ["23:00", "06:00"]},
                       "then": [{"type": "choose", "command": "wait", "params": {"duration": 6}}]}
                      for rule in rules]}, ensure_ascii=False), encoding="utf-8")
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(root / "state"))
    result = CliRunner().invoke(agent, ["persona", "check", str(directory), "--state"])
    assert result.exit_code == 0 and "internal error" not in result.output, result.output
    names, rules = pack if pack is not None else (set(), set())
    said = result.stdout
    for name in stored:
        assert (f"variable '{name}'" in said) == (name not in names), said
    for rule in fired:
        assert (f"rule '{rule}'" in said) == (rule not in rules), said
