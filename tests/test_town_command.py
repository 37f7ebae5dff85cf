"""`karakuri-agent town`: a character lives days in the offline town, through the installed command.

A cat who naps from 21:00 (a pack rule), tires with every talk (a reaction
on a variable) and introduces herself by her own name: her life is printed
per day, the same for one seed every time, with nothing sent anywhere; its
state serves `day` and `state show` afterwards; `--compare` lists where a
pack that naps from 23:00 decided differently, and nothing for a copy.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from karakuri_agent.app.cli import agent
from testing.processes import console_script

pytestmark = pytest.mark.life

NAME = "猫又タマ"
BEHAVIOUR: dict[str, Any] = {
    "variables": {"energy": {"min": 0, "max": 100, "initial": 50, "max_delta": 30}},
    "rules": [{
        "id": "cat-nap", "description": "夜は丸くなって眠る",
        "when": {"type": "time", "between": ["21:00", "07:00"]},
        "conditions": [{"fact": "notification", "operator": "neq", "value": "conversation_message"}],
        "then": [{"type": "choose", "command": "wait", "params": {"duration": 6}},
                 {"type": "add", "path": "energy", "value": 5}],
        "priority": 100,
    }],
    "reactions": [{"id": "talk-tires", "on": "conversation_ended",
                   "then": [{"type": "subtract", "path": "energy", "value": 3}]}],
    "disable": [],
}


def _pack(directory: Path, behaviour: dict[str, Any]) -> Path:
    made = CliRunner().invoke(agent, ["persona", "init", str(directory), "--name", NAME])
    assert made.exit_code == 0, made.output
    (directory / "behaviour.json").write_text(json.dumps(behaviour, ensure_ascii=False), encoding="utf-8")
    return directory


@pytest.fixture(scope="module")
def packs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("packs")
    later = json.loads(json.dumps(BEHAVIOUR))
    later["rules"][0]["when"]["between"] = ["23:00", "07:00"]  # one rule differs: she naps two hours later
    return {"cat": _pack(root / "cat", BEHAVIOUR), "copy": _pack(root / "copy", BEHAVIOUR),
            "later": _pack(root / "later", later)}


def _town(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(agent, ["town", *args], env=env)


@pytest.fixture(scope="module")
def lived(packs: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """One day as the cat, kept in a state directory, with every socket call recorded (none may happen)."""
    state = tmp_path_factory.mktemp("life") / "state"
    tried: list[str] = []

    def refused(*args: Any, **kwargs: Any) -> Any:
        tried.append(repr(args[:2]))
        raise OSError("the town run opened a network connection")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(socket.socket, "connect", refused)
        patch.setattr(socket.socket, "connect_ex", refused)
        patch.setattr(socket, "create_connection", refused)
        patch.setattr(socket, "getaddrinfo", refused)
        result = _town("--pack", str(packs["cat"]), "--seed", "3", "--state-dir", str(state), "--json")
    return {"result": result, "state": state, "tried": tried}


def test_a_day_as_json_has_every_field_and_the_packs_rules_and_variables(lived, packs):
    result = lived["result"]
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["seed"] == 3 and out["pack"] == str(packs["cat"])
    [day] = out["days"]
    assert set(day) >= {"date", "places", "conversations", "promises", "gifts", "rules_fired", "variables"}
    assert set(day["promises"]) == {"kept", "missed", "called_off"}
    assert day["places"] and all(isinstance(p, str) and p for p in day["places"])
    assert day["conversations"] > 0
    assert day["rules_fired"]["cat-nap"] > 0, day["rules_fired"]  # the pack's own night rule fired
    assert "night-rest" not in day["rules_fired"]  # the bundled character's rule is not hers
    assert set(day["variables"]) == {"energy"} and day["variables"]["energy"] != 50  # it moved from its initial


def test_nothing_is_sent_anywhere(lived):
    assert lived["result"].exit_code == 0
    assert lived["tried"] == []


def test_the_state_serves_day_and_state_show_with_the_same_numbers(lived, packs):
    day = json.loads(lived["result"].output)["days"][0]
    env = {"KARAKURI_STATE_DIR": str(lived["state"]), "KARAKURI_PERSONA_DIR": str(packs["cat"])}
    shown = CliRunner().invoke(agent, ["day", "--date", day["date"], "--json"], env=env)
    assert shown.exit_code == 0, shown.output
    page = json.loads(shown.output)
    assert len(page["conversations"]) == day["conversations"]
    assert {v["label"] for v in page["places"]} >= set(day["places"])
    assert sum(1 for r in page["rules_fired"] if r["rule"] == "cat-nap") == day["rules_fired"]["cat-nap"]
    own = [line["text"] for c in page["conversations"] for line in c["lines"] if line["own"]]
    assert own and any(NAME in line for line in own), own[:5]  # she introduces herself by her own name
    assert not any("ニケ" in line for c in page["conversations"] for line in (x["text"] for x in c["lines"]))
    log = CliRunner().invoke(agent, ["log", "-n", "5", "--json"], env=env)
    assert log.exit_code == 0 and len(json.loads(log.output)) == 5, log.output
    state = CliRunner().invoke(agent, ["state", "show", "--json"], env=env)
    assert state.exit_code == 0, state.output
    energy = [v for v in json.loads(state.output)["variables"] if v["path"] == "energy"]
    assert energy and energy[0]["value"] == day["variables"]["energy"]


def test_the_same_seed_is_the_same_life_and_another_seed_another(packs):
    first = _town("--pack", str(packs["cat"]), "--seed", "5", "--json")
    again = _town("--pack", str(packs["cat"]), "--seed", "5", "--json")
    other = _town("--pack", str(packs["cat"]), "--seed", "6", "--json")
    assert first.exit_code == again.exit_code == other.exit_code == 0
    assert first.output == again.output
    assert json.loads(first.output)["days"] != json.loads(other.output)["days"]


def test_the_text_names_each_day_and_what_it_holds(packs):
    result = _town("--pack", str(packs["cat"]), "--days", "2", "--seed", "3")
    assert result.exit_code == 0, result.output
    for label in ("places", "conversations", "promises       kept", "gifts", "rules fired", "variables"):
        assert result.output.count(f"  {label}") == 2, label
    assert "cat-nap" in result.output and "energy = " in result.output


def test_residents_promise_and_take_back_and_the_days_count_it():
    """Residents propose meetings and call some off: kept, missed and called off, each on the day it fell due."""
    result = _town("--days", "3", "--seed", "11", "--json")  # the bundled character; a seed whose residents do both
    assert result.exit_code == 0, result.output
    days = json.loads(result.output)["days"]
    assert sum(d["promises"]["kept"] for d in days) >= 1
    assert sum(d["promises"]["called_off"] for d in days) >= 1


def test_compare_lists_where_one_rule_made_them_decide_differently(packs):
    result = _town("--pack", str(packs["cat"]), "--compare", str(packs["later"]), "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["differences"], found
    first = found["differences"][0]
    assert first["pack"]["rule"] == "cat-nap" and first["compare"]["rule"] != "cat-nap"
    assert "21:" in first["at"] or "22:" in first["at"]  # between her nap and the later one
    text = _town("--pack", str(packs["cat"]), "--compare", str(packs["later"]), "--seed", "3")
    assert text.exit_code == 0 and first["notification_id"] in text.output and "decided differently" in text.output


def test_compare_of_two_identical_packs_finds_nothing(packs):
    result = _town("--pack", str(packs["cat"]), "--compare", str(packs["copy"]), "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["differences"] == [] and found["parted_at"] is None and found["compared"] > 50


def test_a_broken_pack_is_one_line_naming_the_file(tmp_path):
    (tmp_path / "persona.json").write_text('{"name": 3}', encoding="utf-8")
    result = _town("--pack", str(tmp_path))
    assert result.exit_code == 2
    assert result.output.count("\n") == 1 and "persona.json" in result.output and "name" in result.output


@pytest.mark.parametrize("days", ["0", "31", "-1"])
def test_days_outside_one_to_thirty_are_refused(days):
    result = _town("--days", days)
    assert result.exit_code == 2 and "1 to 30" in result.output and result.output.count("\n") == 1


def test_a_used_state_directory_is_refused_and_left_alone(tmp_path):
    (tmp_path / "state.sqlite3").write_text("someone's life", encoding="utf-8")
    result = _town("--state-dir", str(tmp_path))
    assert result.exit_code == 2 and "already holds a state" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["state.sqlite3"]
    assert (tmp_path / "state.sqlite3").read_text(encoding="utf-8") == "someone's life"


def test_compare_keeps_no_state(tmp_path, packs):
    result = _town("--compare", str(packs["copy"]), "--state-dir", str(tmp_path / "s"))
    assert result.exit_code == 2 and "--compare" in result.output
    assert not (tmp_path / "s").exists()


def test_the_installed_command_lives_a_day(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env["HOME"] = str(tmp_path)
    done = subprocess.run([*console_script("karakuri-agent", "agent"), "town", "--seed", "2"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "1 day(s) in the offline town, seed 2" in done.stdout and "rules fired" in done.stdout
    assert list(tmp_path.iterdir()) == [] or not any(p.name.startswith("state") for p in tmp_path.iterdir())
    assert shutil.which  # the throwaway state went with the run (nothing left in the working directory)


def test_the_walkthrough_in_docs_town_md_runs_as_written_and_prints_what_it_shows(tmp_path):
    """docs/town.md: its pack, its commands in order, and its sample output word for word (one seed is one life)."""
    import re
    import sys

    page = (Path(__file__).resolve().parents[1] / "docs" / "town.md").read_text(encoding="utf-8")
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_", "XDG_"))}
    env.update(HOME=str(home), PATH=f"{Path(sys.executable).parent}:/usr/bin:/bin")

    def sh(command: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(["bash", "-c", command.replace("/tmp/", f"{tmp_path}/")], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, (command, done.stderr)
        return done

    for command in ("karakuri-agent persona init ~/tama --name 猫又タマ", "karakuri-agent persona check ~/tama"):
        assert f"`{command}`" in page.replace("\n   ", " ")
        sh(command)
    (home / "tama" / "behaviour.json").write_text(re.search(r"```json\n(.*?)```", page, re.S).group(1)
                                                  .replace("\n   ", "\n"), encoding="utf-8")
    commands = [line.strip() for block in re.findall(r"```sh\n(.*?)```", page, re.S) for line in block.splitlines()
                if line.strip()]
    assert commands[0].startswith("karakuri-agent town --pack ~/tama --days 3 --state-dir")
    lived = sh(commands[0]).stdout
    shown = re.search(r"   ```\n   (/home/me/tama: .*?)\n   …", page, re.S).group(1).replace("\n   ", "\n")
    assert lived.startswith(shown.replace("/home/me/tama", str(home / "tama"))), lived[:600]
    for command in commands[1:]:
        sh(command)
    assert "猫又タマ" in (tmp_path / "day.html").read_text(encoding="utf-8")
    shutil.copytree(home / "tama", home / "tama-late")
    late = home / "tama-late" / "behaviour.json"
    late.write_text(late.read_text(encoding="utf-8").replace('"21:00", "07:00"', '"23:00", "07:00"'), encoding="utf-8")
    example = re.search(r"\$ (karakuri-agent town --pack ~/tama --compare ~/tama-late)\n(.*?)\n```", page,
                        re.S)
    compared = sh(example.group(1)).stdout
    assert compared.strip() == example.group(2).replace("/home/me/", f"{home}/").strip()


@pytest.mark.parametrize("seed", [2, 5])
def test_every_firing_is_counted_in_town_day_and_the_state_alike(packs, tmp_path, seed):
    """Rules that fire without deciding (a `set`, a `context`) count as `log`'s "also fired" does: town's
    rules_fired per rule is the fire count `state show` keeps."""
    behaviour = json.loads(json.dumps(BEHAVIOUR))
    behaviour["variables"]["noted"] = {"min": 0, "max": 1000, "initial": 0, "max_delta": 5}
    behaviour["rules"] += [
        {"id": "note-arrival", "when": {"type": "notification", "types": ["movement_completed", "*_completed"]},
         "then": [{"type": "add", "path": "noted", "value": 1}], "priority": 900},
        {"id": "remember-room", "when": {"type": "every", "notifications": 3},
         "then": [{"type": "context", "text": "部屋の様子を覚えておく"}], "priority": 800, "max_fires": 4}]
    pack = _pack(tmp_path / "pack", behaviour)
    state = tmp_path / "state"
    result = _town("--pack", str(pack), "--seed", str(seed), "--state-dir", str(state), "--json")
    assert result.exit_code == 0, result.output
    counted: dict[str, int] = {}
    for day in json.loads(result.stdout)["days"]:
        for rule, count in day["rules_fired"].items():
            counted[rule] = counted.get(rule, 0) + count
    shown = CliRunner().invoke(agent, ["state", "show", "--json"], env={"KARAKURI_STATE_DIR": str(state),
                                                                        "KARAKURI_PERSONA_DIR": str(pack)})
    fires = {r["id"]: r["fires"] for r in json.loads(shown.stdout)["rules"] if r["fires"]}
    assert counted.get("note-arrival", 0) > 0 and counted.get("remember-room", 0) > 0, counted
    assert {rule: n for rule, n in counted.items() if rule in fires} == fires, (counted, fires)
