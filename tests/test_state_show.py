"""`state show` and `state reset-behaviour`: what the pack's behaviour remembers, seen and set back (issue 32)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from click.testing import CliRunner

from karakuri_agent.app.cli import agent

PACK = Path(__file__).resolve().parents[1] / "docs" / "examples" / "behaviour-pack"


@pytest.fixture
def lived(tmp_path, env, monkeypatch):
    """The bundled session replayed by the example pack, its state kept."""
    state_dir = tmp_path / "lived"
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(PACK))
    assert CliRunner().invoke(agent, ["demo", "--state-dir", str(state_dir)]).exit_code == 0
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(state_dir))
    return state_dir


def _snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_mtime_ns, p.stat().st_size) for p in folder.iterdir()}


def test_state_show_lists_every_variable_with_its_band_and_each_rules_record_changing_nothing(lived):
    before = _snapshot(lived)
    shown = json.loads(CliRunner().invoke(agent, ["state", "show", "--json"]).stdout)
    assert _snapshot(lived) == before  # read only: not a byte, not a stamp changed
    values = {v["path"]: (v["value"], v["band"]) for v in shown["variables"]}
    assert values["affection.桜草メイ"] == (4, "まだよく知らない") and values["walked_today"] == (False, None)
    rules = {r["id"]: r for r in shown["rules"]}
    assert rules["first-map"]["fires"] == 1 and rules["first-map"]["max_fires"] == 2
    assert rules["seek-mei"] == {"id": "seek-mei", "enabled": True, "switched": False, "fires": 0,
                                 "max_fires": None, "spent": False, "cooldown_left": None}
    assert shown["directives"] == []
    text = CliRunner().invoke(agent, ["state", "show"]).stdout
    assert "  affection.桜草メイ = 4 (まだよく知らない)" in text and "  first-map: on, fired 1/2" in text


def test_state_show_without_a_state_creates_none_and_shows_the_initial_values(tmp_path, env, monkeypatch):
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(PACK))
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(tmp_path / "nowhere"))
    result = CliRunner().invoke(agent, ["state", "show", "--json"])
    assert result.exit_code == 0 and not (tmp_path / "nowhere").exists()
    shown = json.loads(result.stdout)
    assert {v["path"]: v["value"] for v in shown["variables"]} == {"affection.*": 0, "walked_today": False}


def test_reset_behaviour_sets_a_variable_a_rule_or_everything_back_to_the_packs_initial_values(lived):
    assert CliRunner().invoke(agent, ["state", "reset-behaviour", "--variable", "affection.桜草メイ"]).exit_code == 0
    shown = json.loads(CliRunner().invoke(agent, ["state", "show", "--json"]).stdout)
    assert "affection.桜草メイ" not in {v["path"] for v in shown["variables"]}
    assert CliRunner().invoke(agent, ["state", "reset-behaviour", "--rule", "first-map"]).exit_code == 0
    shown = json.loads(CliRunner().invoke(agent, ["state", "show", "--json"]).stdout)
    assert {r["id"]: r["fires"] for r in shown["rules"]}["first-map"] == 0
    result = CliRunner().invoke(agent, ["state", "reset-behaviour"])
    assert result.exit_code == 0 and "back to the pack's initial values" in result.stdout


@pytest.mark.parametrize("args, named", [(["--variable", "affecton"], "did you mean 'affection'?"),
                                         (["--rule", "seek-me"], "did you mean 'seek-mei'?")])
def test_an_unknown_rule_or_variable_is_exit_2_with_a_hint_and_changes_nothing(lived, args, named):
    before = _snapshot(lived)
    result = CliRunner().invoke(agent, ["state", "reset-behaviour", *args])
    assert result.exit_code == 2 and named in result.stderr and result.stderr.count("\n") == 1
    assert _snapshot(lived) == before


def test_log_since_says_when_more_entries_match_than_it_shows(lived):
    result = CliRunner().invoke(agent, ["log", "--since", "2026-04-18", "-n", "3", "--json"])
    assert result.exit_code == 0 and len(json.loads(result.stdout)) == 3
    assert "showing the newest 3 of " in result.stderr and "raise -n" in result.stderr
    everything = CliRunner().invoke(agent, ["log", "--since", "2026-04-18", "-n", "1000"])
    assert everything.exit_code == 0 and "showing the newest" not in everything.stderr


@pytest.mark.parametrize("path", ["affection.", ".桜草メイ", ".", "affection. ", " .x", ""])
def test_an_empty_or_malformed_variable_path_is_exit_2_and_resets_nothing(lived, path):
    before = _snapshot(lived)
    result = CliRunner().invoke(agent, ["state", "reset-behaviour", "--variable", path])
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and "--variable" in result.stderr
    assert _snapshot(lived) == before


PEOPLE = st.sampled_from(["桜草メイ", "リク", "Dr. K", "a.b"])


@settings(max_examples=200, deadline=None)
@given(path=st.one_of(st.text(alphabet=st.sampled_from(list("aff.ectionwalk_d 桜メイ")), max_size=14),
                      st.builds(lambda n, sep, p: n + sep + p, st.sampled_from(["affection", "walked_today", "x", ""]),
                                st.sampled_from([".", "", ". ", ".."]), st.one_of(st.just(""), PEOPLE))),
       values=st.dictionaries(st.builds(lambda p: "affection." + p, PEOPLE), st.integers(-100, 100), max_size=4))
def test_a_reset_path_resets_exactly_what_it_names_or_is_refused(path, values):
    """A name resets every person's value; NAME.PERSON that person's only; anything else is refused whole."""
    from karakuri_agent.app.behaviour_state import reset
    from karakuri_agent.errors import UsageError
    from karakuri_agent.voice.persona_pack import load_persona

    behaviour = load_persona(PACK).behaviour
    memory = {"variables": {**values, "walked_today": True}}
    try:
        state, _ = reset(behaviour, memory, variable=path)
    except UsageError:
        return
    name, dot, person = path.partition(".")
    assert name.strip() and (not dot or person.strip())
    kept = state["variables"]
    for stored, value in memory["variables"].items():
        named = stored == path or (not dot and stored.startswith(name + ".")) or stored == name
        assert (stored not in kept) == named, (path, stored)
