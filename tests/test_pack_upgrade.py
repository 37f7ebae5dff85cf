"""A pack changed over a live state (issue 32 item 8), through `persona check --state`, `doctor`, runs and resets.

A variable or rule the pack no longer has is reported and kept, not
erased, until `state reset-behaviour`; a variable's `renamed_from` moves
the old values to the new name on load.
"""

from __future__ import annotations

import json
import shutil

import respx
from click.testing import CliRunner

from testing.samples import BASE_URL, CONVERSATION_REQUEST
from karakuri_agent.app.cli import agent

from testing.samples import ROOT
from testing.runs import PROBE_URL

RENAMED = "the state holds variable 'affection' (1 value), which the pack no longer has"
DROPPED = "the state holds rule 'first-map' (fired 1), which the pack no longer has"


def _sora_lived(tmp_path, monkeypatch):
    """The docs' example pack lived through the bundled session, then renamed (affection → fondness) and
    without its first-map rule."""
    pack = tmp_path / "pack"
    shutil.copytree(ROOT / "docs" / "examples" / "behaviour-pack", pack)
    state = tmp_path / "lived"
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(pack))
    assert CliRunner().invoke(agent, ["demo", "--state-dir", str(state)]).exit_code == 0
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(state))
    data = json.loads((pack / "behaviour.json").read_text(encoding="utf-8"))
    text = json.dumps({**data, "rules": [r for r in data["rules"] if r["id"] != "first-map"]}, ensure_ascii=False)
    text = text.replace('"affection"', '"fondness"').replace("affection.", "fondness.")
    (pack / "behaviour.json").write_text(text, encoding="utf-8")
    return pack


def _check(pack) -> list[str]:
    result = CliRunner().invoke(agent, ["persona", "check", str(pack), "--state"])
    assert result.exit_code == 0, result.output
    return [line.removeprefix(f"{pack}: ") for line in result.stdout.splitlines()]


def _run_once(nid: str) -> None:
    """A real run (against a mocked server) that saves the behaviour memory."""
    body = {**CONVERSATION_REQUEST, "notification_id": nid}
    with respx.mock(assert_all_called=False) as mock:
        mock.get(f"{BASE_URL}/agents/notifications/{nid}").respond(200, json=body)
        mock.post(f"{BASE_URL}/agents/command").respond(200, json={"ok": True})
        result = CliRunner().invoke(agent, ["handle", f"notification_id: {nid}"])
    assert result.exit_code == 0, result.output


def test_what_the_pack_dropped_is_reported_and_kept_across_runs(env, tmp_path, monkeypatch):
    pack = _sora_lived(tmp_path, monkeypatch)
    lines = _check(pack)
    assert any(line.startswith(RENAMED) for line in lines) and any(line.startswith(DROPPED) for line in lines), lines
    with respx.mock(assert_all_called=False) as mock:
        mock.get(PROBE_URL).respond(404, json={"error": "not_found", "message": "none"})
        doctor = CliRunner().invoke(agent, ["doctor"]).stdout.splitlines()
    assert any(line.startswith(f"warning: behaviour: {RENAMED}") for line in doctor), doctor
    assert any(line.startswith(f"warning: behaviour: {DROPPED}") for line in doctor), doctor
    _run_once("notif-01UPGRADE1")  # a run under the new pack saves its memory: the old values go with it
    assert any(line.startswith(RENAMED) for line in _check(pack))
    shown = json.loads(CliRunner().invoke(agent, ["state", "show", "--json"]).stdout)
    assert [v for v in shown["variables"] if v["path"].startswith("fondness.")] == [
        {"path": "fondness.*", "value": 0, "band": "まだよく知らない", "initial": 0, "per_person": True}]


def test_renamed_from_moves_the_old_values_to_the_new_name(env, tmp_path, monkeypatch):
    pack = _sora_lived(tmp_path, monkeypatch)
    data = json.loads((pack / "behaviour.json").read_text(encoding="utf-8"))
    data["variables"]["fondness"]["renamed_from"] = "affection"
    (pack / "behaviour.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert not any(line.startswith(RENAMED) for line in _check(pack))
    shown = json.loads(CliRunner().invoke(agent, ["state", "show", "--json"]).stdout)
    assert {"path": "fondness.桜草メイ", "value": 4} in [{k: v[k] for k in ("path", "value")} for v in shown["variables"]]
    _run_once("notif-01UPGRADE2")
    lines = _check(pack)
    assert not any("affection" in line for line in lines), lines
    shown = json.loads(CliRunner().invoke(agent, ["state", "show", "--json"]).stdout)
    assert {"path": "fondness.桜草メイ", "value": 4} in [{k: v[k] for k in ("path", "value")} for v in shown["variables"]]


def test_reset_behaviour_forgets_what_the_pack_left_behind(env, tmp_path, monkeypatch):
    pack = _sora_lived(tmp_path, monkeypatch)
    assert CliRunner().invoke(agent, ["state", "reset-behaviour", "--variable", "affection"]).exit_code == 0
    lines = _check(pack)
    assert not any(line.startswith(RENAMED) for line in lines) and any(line.startswith(DROPPED) for line in lines)
    done = CliRunner().invoke(agent, ["state", "reset-behaviour", "--rule", "first-map"])
    assert done.exit_code == 0, done.output
    assert _check(pack)[-1] == "the state remembers no variable or rule the pack no longer has"
    wrong = CliRunner().invoke(agent, ["state", "reset-behaviour", "--rule", "first-mapp"])
    assert wrong.exit_code == 2 and "no such rule" in wrong.stderr


def test_renamed_from_naming_a_variable_of_the_pack_is_refused(tmp_path):
    pack = tmp_path / "pack"
    shutil.copytree(ROOT / "docs" / "examples" / "behaviour-pack", pack)
    data = json.loads((pack / "behaviour.json").read_text(encoding="utf-8"))
    data["variables"]["affection"]["renamed_from"] = ["walked_today"]
    (pack / "behaviour.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(agent, ["persona", "check", str(pack)])
    assert result.exit_code == 1
    assert "variables.affection.renamed_from: walked_today is a variable of the pack now" in result.stdout


def test_a_pack_that_dropped_its_behaviour_file_reports_everything_the_state_kept(env, tmp_path, monkeypatch):
    pack = _sora_lived(tmp_path, monkeypatch)
    (pack / "behaviour.json").unlink()  # a persona.json alone: the pack has no variables or rules any more
    lines = _check(pack)
    assert any(line.startswith("the state holds variable 'affection'") for line in lines), lines
    assert any(line.startswith(DROPPED) for line in lines), lines
    with respx.mock(assert_all_called=False) as mock:  # doctor says the same
        mock.get(PROBE_URL).respond(404, json={"error": "not_found", "message": "none"})
        doctor = CliRunner().invoke(agent, ["doctor"]).stdout.splitlines()
    assert any(line.startswith(f"warning: behaviour: {DROPPED}") for line in doctor), doctor
