"""What a one-shot run loads and does, held in CI without timing anything.

A one-shot `karakuri-agent handle` and a `karakuri get_notification` are whole
processes against a loopback server, with every feature on (a configured
pack with its rules, the journal, recall). Each child reports the modules it
ended with and every SQL statement its connections ran (sqlite3's own trace
callback), so these tests fail when a run starts importing what it does not
need, or starts talking to its database more, long before a stopwatch would
notice. benchmarks/bench_oneshot.py is where the time itself is measured.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from testing.loopback import running_api
from testing.processes import loopback_env

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[1]
RECORDED = ROOT / "karakuri_agent" / "recorded" / "notifications"

# Run in the child: count statements on every connection, run one program, report modules and counts.
CHILD = """
import collections, json, sqlite3, sys
statements = collections.Counter()
_connect = sqlite3.connect
def connect(*args, **kwargs):
    conn = _connect(*args, **kwargs)
    conn.set_trace_callback(lambda sql: statements.update([(sql.split() or [''])[0].upper()]))
    return conn
sqlite3.connect = connect
from karakuri_agent.app.cli import agent, karakuri
program = {'karakuri-agent': agent, 'karakuri': karakuri}[sys.argv[1]]
try:
    program(sys.argv[2:], prog_name=sys.argv[1])
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print(json.dumps({'exit': code, 'modules': sorted(k for k, v in sys.modules.items() if v is not None),
                  'statements': dict(statements)}))
"""

# Never on a one-shot run of the default decider against SQLite: other programs' and other paths' packages.
NEVER = {"openai", "discord", "aiohttp", "psycopg", "rich", "pygments", "httpx._main",
         "karakuri_agent.llm.decider", "karakuri_agent.llm.chat", "karakuri_agent.app.listen",
         "karakuri_agent.app.day", "karakuri_agent.app.demo", "karakuri_agent.app.doctor",
         "karakuri_agent.state.postgres", "karakuri_agent.state.copy"}
# Only when the run needs them: the pack's check (first run of a pack), the analyzer (a partner's line),
# the retry machinery (a failed first GET).
ONLY_WHEN_NEEDED = {"pydantic", "karakuri_agent.voice.persona_schema", "fugashi", "tenacity"}
# An arrival's one-shot run on a state that exists: its statements, all told (77 when this was written).
MAX_STATEMENTS = 90
MAX_GET_STATEMENTS = 40


# 2026-04-18 12:30 in Tokyo: the recordings' own day and time (their texts' 現在時刻).
MIDDAY_MS = 1776483000000


def _current(name: str, notification_id: str, minutes_later: int) -> dict[str, Any]:
    """A recorded notification as the server would send it `minutes_later` than the recording, live for an hour.

    The world's clock is the server's (its `created_at`), so the runs happen at the recording's midday
    whatever the machine's clock says: at night the pack's night rule would decide instead, a path of
    its own (it saves its record before the claim: one commit more).
    """
    body: dict[str, Any] = copy.deepcopy(json.loads((RECORDED / name).read_text(encoding="utf-8"))["body"])
    created = MIDDAY_MS + minutes_later * 60_000
    body.update(notification_id=notification_id, created_at=created, expires_at=created + 3600 * 1000)
    return body


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    """One-shot processes on one state: a first arrival (the pack is checked; the state is created after
    it), a second (checked again, and its key kept in the state directory), a third (not checked), a
    conversation turn, a read, and an arrival whose first GET fails once."""
    tmp = tmp_path_factory.mktemp("oneshot")
    pack = tmp / "pack"
    shutil.copytree(ROOT / "skill" / "personas" / "nike", pack)
    out: dict[str, dict[str, Any]] = {}
    with running_api() as api:
        for nid, name in (("notif-arrival-1", "notif-demo03.json"), ("notif-arrival-2", "notif-demo03.json"),
                          ("notif-arrival-3", "notif-demo03.json"),
                          ("notif-turn-1", "notif-demo05.json"), ("notif-read-1", "notif-demo03.json"),
                          ("notif-retried-1", "notif-demo03.json")):
            api.notifications[nid] = _current(name, nid, minutes_later=len(api.notifications))
        env = {**loopback_env(api.base_url, tmp / "state"), "KARAKURI_PERSONA_DIR": str(pack)}
        runs = [("first arrival", ["karakuri-agent", "handle", "notification_id: notif-arrival-1"]),
                ("second arrival", ["karakuri-agent", "handle", "notification_id: notif-arrival-2"]),
                ("arrival", ["karakuri-agent", "handle", "notification_id: notif-arrival-3"]),
                ("turn", ["karakuri-agent", "handle", "notification_id: notif-turn-1"]),
                ("read", ["karakuri", "get_notification", "notif-read-1"])]
        for name, argv in runs:
            out[name] = _child(argv, env, tmp)
        busy = iter([True])  # the first GET of this one is answered 503, the retry 200
        original = api.on_get

        def once_busy(notification_id: str) -> None:
            if next(busy, False):
                raise ConnectionResetError  # the handler dies: the client sees the connection drop
        api.on_get = once_busy
        out["retried"] = _child(["karakuri-agent", "handle", "notification_id: notif-retried-1"],
                                {**env, "KARAKURI_GET_RETRY_BUDGET": "5"}, tmp)
        api.on_get = original
        out["posts"] = {"count": len(api.posts)}
    return out


def _child(argv: list[str], env: dict[str, str], cwd: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", CHILD, *argv], env=env, cwd=cwd, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["exit"] in (0, None), (argv, done.stdout, done.stderr)
    return report


def _loaded(report: dict[str, Any], names: set[str]) -> set[str]:
    return {m for m in report["modules"] if m in names or m.split(".")[0] in names}


def test_each_run_acted_or_read_as_asked(runs):
    assert runs["posts"]["count"] == 5  # the five handles sent one command each; the read sent none


@pytest.mark.parametrize("run", ["first arrival", "second arrival", "arrival", "turn", "read", "retried"])
def test_no_one_shot_run_loads_another_programs_packages(runs, run):
    assert _loaded(runs[run], NEVER) == set()


def test_an_arrival_on_a_checked_pack_loads_nothing_it_does_not_need(runs):
    assert _loaded(runs["arrival"], ONLY_WHEN_NEEDED) == set()


def test_each_heavy_package_is_loaded_when_its_run_needs_it(runs):
    # The other side of the guard: the packages it keeps out are still there when they are wanted.
    for checked in ("first arrival", "second arrival"):
        assert {"pydantic", "karakuri_agent.voice.persona_schema"} <= _loaded(runs[checked], ONLY_WHEN_NEEDED)
    assert "fugashi" in _loaded(runs["turn"], ONLY_WHEN_NEEDED)  # a partner's line was read
    assert "tenacity" in _loaded(runs["retried"], ONLY_WHEN_NEEDED)


def test_a_read_loads_no_deciding_and_no_other_command(runs):
    loaded = set(runs["read"]["modules"])
    assert {m for m in loaded if m.startswith(("karakuri_agent.decide", "karakuri_agent.behaviour",
                                               "karakuri_agent.app.cli_", "karakuri_agent.llm"))} \
        <= {"karakuri_agent.app.cli_support"}
    assert "pydantic" not in loaded and "fugashi" not in _loaded(runs["read"], {"fugashi"})


def test_a_handle_talks_to_its_database_a_bounded_number_of_times(runs):
    arrival = runs["arrival"]["statements"]
    assert sum(arrival.values()) <= MAX_STATEMENTS, arrival
    assert arrival.get("COMMIT", 0) <= 3 and arrival.get("CREATE", 0) == 0  # no schema work once it exists
    assert sum(runs["read"]["statements"].values()) <= MAX_GET_STATEMENTS, runs["read"]["statements"]


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")
def test_a_handle_syncs_a_bounded_number_of_times(tmp_path):
    # fdatasync/fsync of one one-shot handle on a state that exists: the claim, and SQLite's write-ahead
    # log being created again and checkpointed at close (5 when this was written).
    pack = tmp_path / "pack"
    shutil.copytree(ROOT / "skill" / "personas" / "nike", pack)
    with running_api() as api:
        for nid in ("notif-sync-1", "notif-sync-2"):
            api.notifications[nid] = _current("notif-demo03.json", nid, minutes_later=len(api.notifications))
        env = {**loopback_env(api.base_url, tmp_path / "state"), "KARAKURI_PERSONA_DIR": str(pack)}
        _child(["karakuri-agent", "handle", "notification_id: notif-sync-1"], env, tmp_path)
        counted = tmp_path / "strace.txt"
        subprocess.run(["strace", "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", str(counted), sys.executable,
                        "-c", CHILD, "karakuri-agent", "handle", "notification_id: notif-sync-2"],
                       env=env, cwd=tmp_path, capture_output=True, check=True, timeout=120)
    syncs = sum(int(row.split()[3]) for row in counted.read_text().splitlines()
                if row.split() and row.split()[-1] in ("fsync", "fdatasync"))
    assert 1 <= syncs <= 5
