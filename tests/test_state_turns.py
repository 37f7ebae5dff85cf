"""Two runs of one agent at once: each reads, decides and writes the agent's state in its own turn.

A pack rule with `max_fires: 1` fires once however many notifications are
handled at once, and a counter each notification raises by one ends at the
number of notifications: no run writes back a state computed without another
run's change (state/agent_turn.py), on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import threading
import time

import pytest
import respx
from hypothesis import HealthCheck, given, settings, strategies as st

from testing.samples import BASE_URL, IDLE_REMINDER
from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import Agent
from karakuri_agent.app.registry import build_decider
from karakuri_agent.domain.clock import utc_now
from karakuri_agent.errors import StateBusy
from karakuri_agent.state.factory import open_state
from karakuri_agent.state.agent_turn import file_turn
from karakuri_agent.voice.persona_pack import bundled_pack_dir
from testing.loopback import running_api
from testing.processes import console_script, loopback_env

pytestmark = pytest.mark.process

BUNDLED_PACK = bundled_pack_dir()
PACK = {
    "variables": {"seen": {"min": 0, "max": 1000, "initial": 0, "max_delta": 5}},
    "rules": [{"id": "once", "when": {"type": "notification", "types": ["idle_reminder_fired"]}, "max_fires": 1,
               "priority": 500, "then": [{"type": "choose", "command": "wait", "params": {"duration": 5}}]}],
    "reactions": [{"id": "count", "on": "idle_reminder_fired", "then": [{"type": "add", "path": "seen", "value": 1}]}],
}


def write_pack(directory):
    directory.mkdir(parents=True)
    shutil.copy(BUNDLED_PACK / "persona.json", directory / "persona.json")
    (directory / "behaviour.json").write_text(json.dumps(PACK), encoding="utf-8")
    return directory


def reminder(notification_id: str) -> dict:
    body = copy.deepcopy(IDLE_REMINDER)
    body["notification_id"] = notification_id
    return body


def shown_state(env: dict) -> tuple[int, int]:
    """(the counter's value, the rule's fires) as `state show --json` says them."""
    out = subprocess.run([*console_script("karakuri-agent", "agent"), "state", "show", "--json"], env=env,
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    shown = json.loads(out.stdout)
    seen = next(v["value"] for v in shown["variables"] if v["path"] == "seen")
    fires = next(r["fires"] for r in shown["rules"] if r["id"] == "once")
    return seen, fires


@pytest.mark.parametrize("runs", [2, 3])
def test_runs_at_once_fire_a_once_rule_once_and_count_every_notification(tmp_path, database_url, runs):
    ids = [f"notif-turn{i}" for i in range(runs)]
    with running_api() as api:
        for nid in ids:
            api.notifications[nid] = reminder(nid)
        arrived = threading.Barrier(runs)

        def overlap(_nid: str) -> None:
            """Answer a GET once every run has asked (or 1.5 s later): without turns, all would read at once."""
            try:
                arrived.wait(timeout=1.5)
            except threading.BrokenBarrierError:
                pass

        api.on_get = overlap
        env = {**loopback_env(api.base_url, tmp_path / "state"), "KARAKURI_PERSONA_DIR": str(write_pack(tmp_path / "pack")),
               "KARAKURI_DATABASE_URL": database_url}
        procs = [subprocess.Popen([*console_script("karakuri-agent", "agent"), "handle"], env=env, text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                 for _ in ids]
        for proc, nid in zip(procs, ids):
            proc.stdin.write(f"notification_id: {nid}")
            proc.stdin.close()
        for proc in procs:
            assert proc.wait(timeout=120) == 0, proc.stderr.read()
        commands = [(p["command"], p["params"]) for p in api.posts]
    assert len(commands) == runs
    assert commands.count(("wait", {"duration": 5})) == 1, commands  # the once rule decided once
    assert shown_state(env) == (runs, 1)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(pauses=st.lists(st.floats(0, 0.05), min_size=2, max_size=4))
def test_any_interleaving_of_runs_in_one_directory_loses_no_update(tmp_path_factory, pauses):
    """Agents opened on one state directory, each deciding after its own pause (a model's answer time)."""
    root = tmp_path_factory.mktemp("turns")
    environ = {"KARAKURI_API_BASE_URL": BASE_URL, "KARAKURI_API_KEY": "sk-test-turns", "KARAKURI_SELF_AGENT_ID": "1",
               "KARAKURI_STATE_DIR": str(root / "state"), "KARAKURI_PERSONA_DIR": str(write_pack(root / "pack"))}
    config = load_settings(environ)

    class Slow:
        def __init__(self, pause: float) -> None:
            self.inner, self.pause = build_decider(config), pause

        def propose(self, view):
            time.sleep(self.pause)
            return self.inner.propose(view)

    results = []
    with respx.mock(assert_all_called=False) as mock:
        for i in range(len(pauses)):
            mock.get(f"{BASE_URL}/agents/notifications/notif-f{i}").respond(200, json=reminder(f"notif-f{i}"))
        post = mock.post(f"{BASE_URL}/agents/command").respond(200, json={"ok": True})

        def run(i: int, pause: float) -> None:
            with Agent.open(config, decider=Slow(pause)) as agent:
                results.append(agent.handle(f"notification_id: notif-f{i}"))

        threads = [threading.Thread(target=run, args=(i, p)) for i, p in enumerate(pauses)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        sent = [json.loads(c.request.content) for c in post.calls]
    assert len(results) == len(pauses) and all(r.sent for r in results)
    assert [s["params"] for s in sent if s["command"] == "wait"].count({"duration": 5}) == 1
    with open_state(config, utc_now) as opened:
        memory = opened.store.behaviour_state()
    assert memory["variables"]["seen"] == len(pauses)
    assert memory["rules"]["once"]["fires"] == 1


def test_a_turn_held_past_the_wait_is_state_busy_and_given_back_with_the_holder(tmp_path):
    (tmp_path / "state").mkdir()
    with file_turn(tmp_path / "state"):
        started = time.monotonic()
        with pytest.raises(StateBusy, match="held its turn"):
            with file_turn(tmp_path / "state", wait=0.2):
                pass
        assert time.monotonic() - started >= 0.2
    with file_turn(tmp_path / "state", wait=0.2):  # given back: taken at once
        pass
