"""The pack's `promise_kept` reaction fires exactly when `day` says a promise was kept (issue 32 item 11).

One rule of keeping (memory/promises.py: standing there around its time,
going there, talking with the partner there): the bundled session keeps
its promise with 桜草メイ by going to 公民館; the reaction fires on that
notification, once, with her as `{partner}`.
"""

from __future__ import annotations

import json
import shutil

from click.testing import CliRunner

from karakuri_agent.app.cli import agent

from testing.samples import ROOT


def test_the_reaction_fires_on_the_notification_that_day_says_kept_the_promise(tmp_path, monkeypatch):
    pack = tmp_path / "nike"
    shutil.copytree(ROOT / "skill" / "personas" / "nike", pack)
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(pack))
    state = tmp_path / "state"
    assert CliRunner().invoke(agent, ["demo", "--state-dir", str(state)]).exit_code == 0
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(state))
    day = json.loads(CliRunner().invoke(agent, ["day", "--date", "2026-04-18", "--json"]).stdout)
    kept = [p for p in day["promises"] if p["status"] == "kept"]
    assert [(p["partner"], p["kept_at"]) for p in kept] == [("桜草メイ", "2026-04-18T13:20:05+09:00")], day["promises"]
    entries = json.loads(CliRunner().invoke(agent, ["log", "--json", "-n", "500"]).stdout)
    reacted = [(e["notification_id"], e["created_at"]) for e in entries
               if "promise-kept-closer" in ((e.get("behaviour") or {}).get("reactions") or ())]
    assert [nid for nid, _ in reacted] == ["notif-demo08"], reacted
    changes = [c for e in entries for c in ((e.get("behaviour") or {}).get("changes") or ())
               if c.get("by") == "promise-kept-closer"]
    assert [(c["path"], c["after"] - c["before"]) for c in changes] == [("closeness.桜草メイ", 8)], changes
