"""The PostgreSQL backend: one ledger for many processes, migrations once, copy, and the database going away.

Tests that need a server use the `postgres_url` fixture (an empty schema in
KARAKURI_TEST_DATABASE_URL's database) and are skipped, with the reason in the
summary, without one. Those about an unreachable database need no server.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from urllib.parse import urlsplit

import pytest

from testing.samples import API_KEY, CONVERSATION_REQUEST, SELF_ID
from karakuri_agent.report import line as report
from karakuri_agent.app.config import load_settings
from karakuri_agent.secret import redact
from karakuri_agent.errors import AlreadyAttempted, StateUnavailable
from karakuri_agent.state.copy import copy_state
from karakuri_agent.state.factory import open_url
from testing.loopback import running_api

NID = CONVERSATION_REQUEST["notification_id"]
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
AGENT = [sys.executable, "-c", "import sys; from karakuri_agent.app.cli import agent; sys.exit(agent())"]
KARAKURI = [sys.executable, "-c", "import sys; from karakuri_agent.app.cli import karakuri; sys.exit(karakuri())"]
PASSWORD = "pw-never-shown-8c1f"


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def api():
    with running_api() as server:
        server.notifications[NID] = CONVERSATION_REQUEST
        yield server


def agent_env(api, state_dir, database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env.update(KARAKURI_API_BASE_URL=api.base_url, KARAKURI_API_KEY=API_KEY, KARAKURI_STATE_DIR=str(state_dir),
               KARAKURI_SELF_AGENT_ID=SELF_ID, KARAKURI_DATABASE_URL=database_url)
    return env


def run(program: list[str], env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*program, *args], env=env, capture_output=True, text=True, timeout=120)


# -- the ledger and the migrations, many connections at once -------------------------
def test_one_claim_wins_among_connections_racing_on_one_notification(postgres_url):
    states = [open_url(postgres_url, None, lambda: NOW) for _ in range(8)]
    start, outcomes = threading.Barrier(len(states)), []

    def claim(state, n):
        start.wait()
        try:
            state.ledger.claim("notif-race", "move", {"target_node_id": f"{n}-1"})
            outcomes.append(("won", n))
        except AlreadyAttempted as exc:
            outcomes.append(("lost", exc.previous["params"]["target_node_id"]))

    threads = [threading.Thread(target=claim, args=(s, n)) for n, s in enumerate(states)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    [winner] = [n for result, n in outcomes if result == "won"]
    assert sorted(outcomes) == sorted([("won", winner)] + [("lost", f"{winner}-1")] * 7)
    for state in states:
        state.close()


def test_processes_opening_an_empty_database_at_once_migrate_it_once(postgres_url):
    import psycopg

    from karakuri_agent.state.postgres_schema import MIGRATIONS
    from karakuri_agent.state.postgres import connect

    start, errors, conns = threading.Barrier(6), [], []

    def open_one():
        start.wait()
        try:
            conns.append(connect(postgres_url))
        except Exception as exc:  # noqa: BLE001 - any failure is the test's finding
            errors.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and len(conns) == 6
    with psycopg.connect(postgres_url) as conn:
        versions = [row[0] for row in conn.execute("SELECT version FROM schema_migrations ORDER BY version")]
    assert versions == [version for version, _, _ in MIGRATIONS]
    for conn in conns:
        conn.close()


# -- copy ------------------------------------------------------------------------------
def fill(state) -> None:
    store = state.store
    state.ledger.claim("n1", "move", {"target_node_id": "2-1"})
    state.ledger.finish("n1", "succeeded", {"ok": True})
    state.ledger.claim("n2", "wait", {})
    store.save_notification("n1", {"notification_id": "n1", "text": "駅へ"})
    store.record_request("n1", "idle_reminder_fired")
    store.record_command("n1", "idle_reminder_fired", "move", {"target_node_id": "2-1"}, True, "着きました", {})
    store.add_memory("n1", "action", "駅へ向かった")
    store.add_commitment("n1", {"partner_name": "メイ", "source_text": "明日駅で", "due_at": None})
    store.touch_person("7", "メイ")
    store.learn_places([{"node_id": "2-1", "name": "駅"}])
    store.set_knowledge("get_map", {"nodes": [1, 2]})
    store.add_utterance("with:7", "またね", opens=True)
    store.hear_line("line-1", NOW, timedelta(hours=1))
    store.save_behaviour_state({"variables": {"affection.メイ": 5}, "rules": {"twice": {"fires": 2}}})
    store.record_report("n1", "idle_reminder_fired", "駅へ向かいます", dry_run=False, command=None, params=None,
                        reason="", failed=False, behaviour={"rule": "walk", "gave_way": []})
    store.learn_facts([{"fact_key": "7|pet|ミケ|", "kind": "pet", "topic": "ミケ", "about_id": "7", "about_name": "メイ",
                        "speaker_id": "7", "speaker_name": "メイ", "said_at": NOW.isoformat(), "source": "ミケ飼ってる"}])
    store.mention_fact("7|pet|ミケ|", "7", NOW)


def what_it_knows(state) -> tuple:
    store = state.store
    return (state.ledger.previous("n1"), state.ledger.previous("n2"), store.load_notification("n1"),
            [replace(e, id=0) for e in store.recent_activity(10)],
            store.recent_memory(NOW - timedelta(days=1)),
            [replace(c, id=0) for c in store.pending_commitments()],
            store.people(["7"]), store.known_places(), store.knowledge("get_map"), store.utterances("with:7"),
            store.hear_line("line-1", NOW, timedelta(hours=1)), store.behaviour_state(),
            [{k: v for k, v in f.items() if k != "id"} for f in store.told_facts(["7"], listener="7")])


def test_migration_7_makes_withdrawn_promises_a_status_and_moves_command_answers_apart(postgres_url):
    from psycopg.types.json import Jsonb

    from karakuri_agent.state.postgres import connect
    from karakuri_agent.state.postgres_schema import migrate

    conn = connect(postgres_url)
    for source in ("駅で3時", "公園で4時"):
        conn.execute("INSERT INTO commitments (created_at, notification_id, partner_name, source_text, status)"
                     " VALUES ('2026-01-01', 'n1', 'メイ', %s, 'pending')", (source,))
    ids = [r[0] for r in conn.execute("SELECT id FROM commitments ORDER BY id")]
    for key, value in [("withdrawn_promises", [ids[0], "x"]), ("get_map", {"nodes": [1]}), ("trips", [])]:
        conn.execute("INSERT INTO knowledge (key, value, updated_at) VALUES (%s, %s, '2026-01-01')", (key, Jsonb(value)))
    conn.execute("DELETE FROM schema_migrations WHERE version = 7")  # as a database from before it
    assert migrate(conn) == [7]
    assert [r[0] for r in conn.execute("SELECT status FROM commitments ORDER BY id")] == ["withdrawn", "pending"]
    assert sorted(r[0] for r in conn.execute("SELECT key FROM knowledge")) == ["result:get_map", "trips"]
    conn.close()


def test_copy_to_postgresql_and_back_keeps_everything_and_copies_nothing_twice(postgres_url, tmp_path):
    clock = lambda: NOW  # noqa: E731
    sqlite, postgres = open_url("", tmp_path / "a", clock), open_url(postgres_url, None, clock)
    fill(sqlite)
    postgres.ledger.claim("n2", "action", {"action_id": "sit"})  # another machine already took n2
    copied = copy_state(sqlite, postgres)
    assert copied["attempts"] == 1 and copied["activity"] == 3 and copied["utterances"] == 1
    assert copied["behaviour_state"] == 2
    assert copy_state(sqlite, postgres) == dict.fromkeys(copied, 0)
    assert postgres.ledger.previous("n2")["command"] == "action"  # a claim in the target always stands

    back = open_url("", tmp_path / "b", clock)
    copy_state(postgres, back)
    assert what_it_knows(back)[2:] == what_it_knows(sqlite)[2:] == what_it_knows(postgres)[2:]
    assert back.ledger.previous("n1") == sqlite.ledger.previous("n1")
    assert back.ledger.previous("n2")["command"] == "action"
    for state in (sqlite, postgres, back):
        state.close()


def test_state_copy_command_names_the_database_without_its_password(postgres_url, tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env["KARAKURI_STATE_DIR"] = str(tmp_path / "state")
    sqlite = open_url("", tmp_path / "state", lambda: NOW)
    fill(sqlite)
    sqlite.close()
    parts = urlsplit(postgres_url)
    with_password = parts._replace(netloc=f"{parts.username}:{PASSWORD}@{parts.hostname}:{parts.port}").geturl()
    first = run(AGENT, env, "state", "copy", "--to", with_password)
    again = run(AGENT, env, "state", "copy", "--to", with_password)
    assert first.returncode == 0 and "attempts 2" in first.stdout, first.stderr
    assert again.returncode == 0 and "attempts 0" in again.stdout
    assert PASSWORD not in first.stdout + first.stderr + again.stdout and ":***@" in first.stdout


# -- the database going away -----------------------------------------------------------------
@pytest.mark.postgres
def test_an_unreachable_database_fails_the_run_in_one_line_and_sends_nothing(api, tmp_path):
    url = f"postgresql://karakuri:{PASSWORD}@127.0.0.1:{closed_port()}/karakuri"
    env = agent_env(api, tmp_path / "state", url)
    handled = run(AGENT, env, "handle", f"notification_id: {NID}")
    assert handled.returncode == 0 and handled.stdout.strip() == report.FAILED
    [line] = handled.stderr.strip().splitlines()
    assert "state_unavailable" in line and "127.0.0.1" in line
    wrapped = run(KARAKURI, env, "command", NID, "conversation_reject", "{}")
    assert wrapped.returncode == 1 and '"state_unavailable"' in wrapped.stdout
    assert api.gets == [] and api.posts == []
    assert PASSWORD not in handled.stdout + handled.stderr + wrapped.stdout + wrapped.stderr


def test_the_database_url_password_is_a_secret_on_its_own(tmp_path):
    settings = load_settings({"KARAKURI_DATABASE_URL": f"postgresql://k:{PASSWORD}@db/k", "KARAKURI_API_BASE_URL":
                              "https://karakuri.test/api", "KARAKURI_API_KEY": API_KEY}, env_file=tmp_path / ".env")
    assert redact(f"auth failed for password {PASSWORD}", settings.secrets) == "auth failed for password ***"


class CuttableProxy:
    """A TCP relay to the test database that can be cut (the database goes away) and opened again."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.up = True
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if not self.up:
                client.close()
                continue
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def cut(self) -> None:
        self.up = False
        for s in self.sockets:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def close(self) -> None:
        self.cut()
        self.listener.close()


def test_the_database_going_away_mid_run_sends_nothing_and_the_notification_is_handled_later(
        api, postgres_url, tmp_path):
    target = urlsplit(postgres_url)
    proxy = CuttableProxy(target.hostname, target.port)
    try:
        through_proxy = target._replace(netloc=f"{target.username}@127.0.0.1:{proxy.port}").geturl()
        env = agent_env(api, tmp_path / "state", through_proxy)
        api.on_get = lambda _: proxy.cut()  # connected and migrated; gone before anything is claimed
        failed = run(AGENT, env, "handle", f"notification_id: {NID}")
        assert failed.returncode == 0 and failed.stdout.strip().splitlines()[-1] == report.FAILED, failed.stderr
        [line] = failed.stderr.strip().splitlines()
        assert "state_unavailable" in line
        assert api.gets == [NID] and api.posts == []

        api.on_get, proxy.up = None, True
        handled = run(AGENT, env, "handle", f"notification_id: {NID}")
        assert handled.returncode == 0 and handled.stderr == "", handled.stderr
        assert handled.stdout.strip() != report.FAILED and len(api.posts_for(NID)) == 1
    finally:
        proxy.close()


def test_concurrent_handle_runs_on_several_machines_sharing_one_database_send_one_command(
        api, postgres_url, tmp_path):
    api.hold_post_seconds = 0.3  # keep the winner busy while the others arrive
    procs = [subprocess.Popen([*AGENT, "handle", f"notification_id: {NID}"],
                              env=agent_env(api, tmp_path / f"machine-{n}", postgres_url),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for n in range(6)]
    results = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in procs]
    assert [code for code, _, _ in results] == [0] * 6, results
    assert len(api.posts_for(NID)) == 1
    assert sum(out.strip() == report.ALREADY_HANDLED for _, out, _ in results) == 5, results


def test_log_and_gc_read_the_shared_database(api, postgres_url, tmp_path):
    env = agent_env(api, tmp_path / "state", postgres_url)
    assert run(AGENT, env, "handle", f"notification_id: {NID}").returncode == 0
    logged = run(AGENT, env, "log")
    assert logged.returncode == 0 and f"{NID}  received conversation_requested" in logged.stdout
    assert not (tmp_path / "state" / "karakuri.db").exists()  # nothing went to a SQLite file
    collected = run(AGENT, env, "gc", "--keep-days", "30", "--json")
    assert collected.returncode == 0 and '"activity": 0' in collected.stdout


def test_a_state_that_lost_its_database_fails_typed_and_carries_on_once_it_is_back(postgres_url):
    target = urlsplit(postgres_url)
    proxy = CuttableProxy(target.hostname, target.port)
    try:
        state = open_url(target._replace(netloc=f"{target.username}@127.0.0.1:{proxy.port}").geturl(), None,
                         lambda: NOW)
        proxy.cut()
        with pytest.raises(StateUnavailable):
            state.store.recent_activity()
        with pytest.raises(StateUnavailable):  # reconnecting is refused while the database is away
            state.ledger.claim("n1", "wait", {})
        proxy.up = True
        state.ledger.claim("n1", "wait", {})  # a resident process needs no restart
        assert state.ledger.previous("n1")["command"] == "wait"
        state.close()
    finally:
        proxy.close()


def test_without_the_driver_a_postgresql_url_says_what_to_install(monkeypatch, tmp_path):
    from karakuri_agent.errors import ConfigError

    monkeypatch.setitem(sys.modules, "psycopg", None)  # as if the extra were not installed
    monkeypatch.delitem(sys.modules, "karakuri_agent.state.postgres", raising=False)
    with pytest.raises(ConfigError, match=r"pip install '\.\[postgres\]'"):
        open_url(f"postgresql://k:{PASSWORD}@127.0.0.1:{closed_port()}/k", tmp_path, lambda: NOW)


def test_agents_sharing_one_database_each_in_a_schema_of_its_own_never_meet(postgres_url):
    """A fleet's agents on one database: each URL names its schema (made on first use); no row crosses."""
    import uuid

    import psycopg

    from testing.samples import in_schema

    database = os.environ["KARAKURI_TEST_DATABASE_URL"]  # set: postgres_url skips without it
    names = [f"agent_{uuid.uuid4().hex[:10]}" for _ in range(2)]
    states = [open_url(in_schema(database, name), None, lambda: NOW) for name in names]
    try:
        states[0].store.learn_places([{"node_id": "2-1", "name": "駅"}])
        states[0].ledger.claim("notif-a", "move", {"target_node_id": "2-1"})
        assert [p.name for p in states[0].store.known_places()] == ["駅"]
        assert states[1].store.known_places() == [] and states[1].ledger.previous("notif-a") is None
    finally:
        for state in states:
            state.close()
        with psycopg.connect(database, autocommit=True) as conn:
            for name in names:
                conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
