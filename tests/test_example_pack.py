"""The docs' example pack on the bundled session (issue 32 item 11), through `karakuri-agent demo`, `state show`, `log`.

More than one of its rules fires on the recorded session as it is, and
moved to the morning (`demo --at`) its morning walk fires too, every
recorded time moved alike (the epoch-millisecond `created_at` of some
notifications and the `completes_at` of answers included).
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from karakuri_agent.app.cli import agent

from testing.samples import ROOT

PACK = ROOT / "docs" / "examples" / "behaviour-pack"


def _lived(tmp_path, monkeypatch, *extra: str) -> tuple[dict, list]:
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(PACK))
    state = tmp_path / "state"
    result = CliRunner().invoke(agent, ["demo", "--state-dir", str(state), *extra])
    assert result.exit_code == 0, result.output
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(state))
    shown = json.loads(CliRunner().invoke(agent, ["state", "show", "--json"]).stdout)
    entries = json.loads(CliRunner().invoke(agent, ["log", "--json", "-n", "500"]).stdout)
    return {r["id"]: r["fires"] for r in shown["rules"]}, entries


def test_more_than_one_of_the_example_packs_rules_fires_on_the_bundled_session(tmp_path, monkeypatch):
    fires, entries = _lived(tmp_path, monkeypatch)
    assert fires == {"morning-walk": 0, "seek-mei": 0, "glad-you-asked": 2, "first-map": 1}, fires
    assert len([rule for rule, n in fires.items() if n]) >= 2
    said = [e["params"]["message"] for e in entries if e.get("command") == "conversation_accept" and e.get("params")]
    assert "桜草メイさん、声をかけてくれてうれしいです。" in said or "桜草メイさん、こんにちは。ちょうど話したかったところです。" in said, said


def test_moved_to_the_morning_the_walk_fires_and_every_time_moves(tmp_path, monkeypatch):
    fires, entries = _lived(tmp_path, monkeypatch, "--at", "2026-04-17T22:00:00Z")  # 07:00 in Tokyo
    assert fires["morning-walk"] == 1 and fires["glad-you-asked"] == 2, fires
    stamps = sorted(e["created_at"] for e in entries)
    assert stamps[0] >= "2026-04-17T22:00" and stamps[-1] < "2026-04-18T01:00", stamps  # none at the recorded times
