"""`listen --fleet`: many agents in one process, each acting only as itself with its own key and state.

The fleet file and the env files it names are read whole before anything
runs (a bad one stops the fleet, the file and the setting named); real
`listen --fleet --stdin` processes against the loopback API show each
message going to the agent whose channel holds it, on that agent's key, into
that agent's state only.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

from karakuri_agent.app.fleet import apart, env_files, load_fleet
from karakuri_agent.app.listen.fleet_run import Fleet
from karakuri_agent.app.listen.listener import Message
from karakuri_agent.errors import ConfigError
from testing.loopback import running_api
from testing.runs import AGENT, WORLD, body, notification

NAMES = ("ニケ", "タマ", "ユキ")


def write_fleet(tmp_path: Path, base_url: str, count: int = 3, **extra: dict[str, str]) -> Path:
    """A fleet file of `count` agents, each its env file with its own key, id, channel and state."""
    tables = []
    for i in range(count):
        settings = {"KARAKURI_API_KEY": f"key-of-agent-{i}-abcdef", "KARAKURI_SELF_AGENT_ID": f"10{i}",
                    "KARAKURI_SELF_NAME": NAMES[i % len(NAMES)] + str(i), "KARAKURI_CHANNEL_IDS": f"90{i}",
                    "KARAKURI_STATE_DIR": str(tmp_path / f"state-{i}"), **extra.get(f"a{i}", {})}
        (tmp_path / f"a{i}.env").write_text("".join(f"{k}={v}\n" for k, v in settings.items()), encoding="utf-8")
        tables.append(f'[[agent]]\nenv_file = "a{i}.env"\n')
    path = tmp_path / "fleet.toml"
    path.write_text("\n".join(tables), encoding="utf-8")
    return path


def base_env(base_url: str) -> dict[str, str]:
    return {"KARAKURI_API_BASE_URL": base_url, "KARAKURI_API_KEY": "the-process-default-key"}


# -- the fleet file ----------------------------------------------------------------------------
@pytest.mark.unit
def test_each_env_file_overrides_the_processs_environment_which_gives_the_defaults(tmp_path):
    path = write_fleet(tmp_path, "http://127.0.0.1:9/api")
    members = load_fleet(path, {**base_env("http://127.0.0.1:9/api"), "KARAKURI_COOLDOWN_SECONDS": "7"})
    assert [m.settings.api_key.get() for m in members] == [f"key-of-agent-{i}-abcdef" for i in range(3)]
    assert all(m.settings.api_base_url == "http://127.0.0.1:9/api" for m in members)  # the default, taken
    assert all(m.settings.cooldown_seconds == 7 for m in members)
    assert [m.name for m in members] == ["ニケ0", "タマ1", "ユキ2"]
    assert [m.env_file for m in members] == [tmp_path / f"a{i}.env" for i in range(3)]


@pytest.mark.unit
@pytest.mark.parametrize("text, problem", [
    ("[[agent]\n", "not TOML"),
    ("", r"no \[\[agent\]\] tables"),
    ("agent = 3\n", r"no \[\[agent\]\] tables"),
    ('workers = 3\n[[agent]]\nenv_file = "a0.env"\n', "'workers' is not a fleet setting"),
    ('[[agent]]\nenv_file = "a0.env"\nname = "x"\n', "agent 1: 'name' is not read"),
    ('[[agent]]\nenv_file = ""\n', "agent 1: env_file is not set"),
    ('[[agent]]\nenv_file = "a0.env"\n[[agent]]\nenv_file = "none.env"\n', "agent 2: env_file .*none.env does not exist"),
    ('[[agent]]\nenv_file = "."\n', "is a directory"),
    ('[[agent]]\nenv_file = "a0.env"\n[[agent]]\nenv_file = "./a0.env"\n', "agent 2: env_file .*a0.env is agent 1's too"),
])
def test_a_fleet_file_that_is_not_one_is_refused_saying_where(tmp_path, text, problem):
    write_fleet(tmp_path, "http://127.0.0.1:9/api")
    path = tmp_path / "fleet.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError, match=problem) as raised:
        env_files(path)
    assert str(path) in raised.value.message


@pytest.mark.unit
def test_a_bad_setting_in_one_env_file_stops_the_fleet_naming_the_file_and_the_setting(tmp_path):
    path = write_fleet(tmp_path, "", a1={"KARAKURI_DECIDER": "magic"})
    with pytest.raises(ConfigError) as raised:
        load_fleet(path, base_env("http://127.0.0.1:9/api"))
    assert raised.value.message.startswith(f"{tmp_path / 'a1.env'}: KARAKURI_DECIDER must be one of")


@pytest.mark.unit
@pytest.mark.parametrize("clash, setting", [
    ({"KARAKURI_SELF_AGENT_ID": "100"}, "KARAKURI_SELF_AGENT_ID (100)"),
    ({"KARAKURI_CHANNEL_IDS": "999,900"}, "KARAKURI_CHANNEL_IDS (900)"),
    ({"KARAKURI_API_KEY": "key-of-agent-0-abcdef"}, "KARAKURI_API_KEY:"),
    ({"KARAKURI_STATE_DIR": "{state0}/../state-0"}, "KARAKURI_STATE_DIR"),
])
def test_two_agents_that_would_be_one_stop_the_fleet(tmp_path, clash, setting):
    clash = {k: v.replace("{state0}", str(tmp_path / "state-0")) for k, v in clash.items()}
    path = write_fleet(tmp_path, "", a2=clash)
    with pytest.raises(ConfigError) as raised:
        load_fleet(path, base_env("http://127.0.0.1:9/api"))
    message = raised.value.message
    assert f"{tmp_path / 'a0.env'} and {tmp_path / 'a2.env'} name the same {setting}" in message
    assert "key-of-agent-0-abcdef" not in message  # a key is never shown


@pytest.mark.unit
def test_every_agent_needs_an_id_and_its_channels(tmp_path):
    path = write_fleet(tmp_path, "", a0={"KARAKURI_SELF_AGENT_ID": "", "KARAKURI_SELF_NAME": "",
                                         "KARAKURI_CHANNEL_IDS": ""})
    members = [m for m in _members(path)]
    problems = apart(members)
    assert any("a0.env: KARAKURI_SELF_AGENT_ID is not set" in p for p in problems)
    assert any("a0.env: KARAKURI_CHANNEL_IDS is not set" in p for p in problems)


def _members(path: Path):
    from karakuri_agent.app.fleet import read_member

    return [read_member(f, base_env("http://127.0.0.1:9/api")) for f in env_files(path)]


# -- the router ---------------------------------------------------------------------------------
class Slow:
    """A listener stand-in: records what it handled, on which thread, and can be held."""

    def __init__(self, channel: str, hold: threading.Event | None = None) -> None:
        self.channel, self.hold, self.handled = channel, hold, []
        self.last_seen: dict[str, str] = {}

        class Runtime:
            settings = type("S", (), {"channel_ids": frozenset({channel})})

        self.agent = type("A", (), {"runtime": Runtime})

    def handle(self, message, *, catching_up=False):
        if self.hold is not None:
            assert self.hold.wait(30)
        self.handled.append(message.message_id)
        self.last_seen[message.channel_id] = message.message_id
        pass


@pytest.mark.unit
def test_one_slow_agent_holds_one_worker_and_each_agents_messages_stay_in_order(caplog):
    caplog.set_level(logging.INFO)
    held = threading.Event()
    slow, quick = Slow("1", held), Slow("2")
    fleet = Fleet([slow, quick], workers=2)  # type: ignore[list-item]
    for i in range(5):
        fleet.handle(Message("x", WORLD, "1", f"s{i}"))
        fleet.handle(Message("x", WORLD, "2", f"q{i}"))
    fleet.handle(Message("x", WORLD, "3", "nobody"))
    deadline = time.monotonic() + 30
    while len(quick.handled) < 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert quick.handled == [f"q{i}" for i in range(5)] and slow.handled == []  # the slow one held nobody else
    held.set()
    fleet.close(finish_queued=True)
    assert slow.handled == [f"s{i}" for i in range(5)]
    assert fleet.last_seen == {"1": "s4", "2": "q4"}
    assert "message nobody skipped: channel 3 is no agent's of this fleet" in caplog.text


@pytest.mark.unit
def test_a_stop_finishes_what_is_in_hand_and_starts_nothing_new():
    held = threading.Event()
    slow = Slow("1", held)
    fleet = Fleet([slow], workers=1)  # type: ignore[list-item]
    for i in range(3):
        fleet.handle(Message("x", WORLD, "1", f"s{i}"))
    stopping = threading.Thread(target=fleet.close, kwargs={"finish_queued": False})
    time.sleep(0.05)
    stopping.start()
    time.sleep(0.05)
    held.set()
    stopping.join(30)
    assert slow.handled == ["s0"]


# -- real processes ------------------------------------------------------------------------------
def line(nid: str, channel: str, message_id: str) -> str:
    return json.dumps({"content": body(nid), "author_id": WORLD, "channel_id": channel, "id": message_id},
                      ensure_ascii=False) + "\n"


def ledger(state: Path) -> list[str]:
    files = list(state.glob("*.db")) + list(state.glob("*.sqlite*"))
    db = next(f for f in files if f.suffix in (".db", ".sqlite", ".sqlite3"))
    with sqlite3.connect(db) as conn:
        return sorted(row[0] for row in conn.execute("SELECT notification_id FROM attempts"))


@pytest.mark.process
def test_a_fleet_acts_as_each_agent_with_its_own_key_into_its_own_state_only(tmp_path, proc_env):
    with running_api() as api:
        nids = {i: [f"notif-fleet-{i}-{n}" for n in range(3)] for i in range(3)}
        for group in nids.values():
            for nid in group:
                api.notifications[nid] = notification(nid)
        path = write_fleet(tmp_path, api.base_url)
        feed = [line(nids[i][n], f"90{i}", f"{i}{n}") for n in range(3) for i in range(3)]
        feed.insert(4, line("notif-nobody", "12345", "99"))
        env = {**{k: v for k, v in proc_env.items() if not k.startswith("KARAKURI_")}, **base_env(api.base_url)}
        proc = subprocess.run([*AGENT, "listen", "--fleet", str(path), "--stdin", "--workers", "2"], env=env,
                              cwd=tmp_path, input="".join(feed), capture_output=True, text=True, timeout=180)
        assert proc.returncode == 0, proc.stderr
        keys = {f"notif-fleet-{i}-{n}": f"Bearer key-of-agent-{i}-abcdef" for i in range(3) for n in range(3)}
        assert {(method, nid) for method, nid, _ in api.authorizations} >= {("GET", nid) for nid in keys}
        assert all(auth == keys[nid] for _, nid, auth in api.authorizations)  # each on its own key only
        assert [p["notification_id"] for p in api.posts].count("notif-fleet-0-0") == 1
        assert len(api.posts) == 9 and "notif-nobody" not in api.gets
        assert len(proc.stdout.splitlines()) == 9
        assert "message 99 skipped: channel 12345 is no agent's of this fleet" in proc.stderr
        assert "ニケ0: message 00 notif-fleet-0-0 decision=" in proc.stderr
        for i in range(3):
            assert ledger(tmp_path / f"state-{i}") == sorted(nids[i])  # nothing of another agent's
        for i in range(3):
            assert f"key-of-agent-{i}-abcdef" not in proc.stderr + proc.stdout


@pytest.mark.process
def test_a_bad_env_file_stops_the_fleet_at_start_with_one_line_and_no_request(tmp_path, proc_env):
    with running_api() as api:
        path = write_fleet(tmp_path, api.base_url, a1={"KARAKURI_CHANNEL_IDS": "#general"})
        env = {**{k: v for k, v in proc_env.items() if not k.startswith("KARAKURI_")}, **base_env(api.base_url)}
        proc = subprocess.run([*AGENT, "listen", "--fleet", str(path), "--stdin"], env=env, cwd=tmp_path,
                              input=line("notif-x", "900", "1"), capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2
        assert f"{tmp_path / 'a1.env'}: KARAKURI_CHANNEL_IDS must be Discord ids" in proc.stderr
        assert api.gets == [] and api.posts == []
        assert not (tmp_path / "state-0").exists()  # nothing opened


@pytest.mark.process
def test_doctor_checks_every_agent_on_its_own_key_and_that_no_two_are_one(tmp_path, proc_env):
    with running_api() as api:
        path = write_fleet(tmp_path, api.base_url, count=2)
        env = {**{k: v for k, v in proc_env.items() if not k.startswith("KARAKURI_")}, **base_env(api.base_url)}
        done = subprocess.run([*AGENT, "doctor", "--fleet", str(path)], env=env, cwd=tmp_path, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        lines = done.stdout.splitlines()
        assert any(line.startswith("a0.env: ok: settings: read") and "wins over the environment" in line
                   for line in lines)
        assert any(line.startswith("a1.env: ok: ") for line in lines)
        assert {auth for _, _, auth in api.authorizations} == {f"Bearer key-of-agent-{i}-abcdef" for i in range(2)}
        assert api.posts == []  # a read, never an action
        write_fleet(tmp_path, api.base_url, count=2, a1={"KARAKURI_CHANNEL_IDS": "900"})
        done = subprocess.run([*AGENT, "doctor", "--fleet", str(path)], env=env, cwd=tmp_path, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 1
        assert f"fleet.toml: problem: {tmp_path / 'a0.env'} and {tmp_path / 'a1.env'} name the same" \
               " KARAKURI_CHANNEL_IDS (900)" in done.stdout
