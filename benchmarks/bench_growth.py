"""Does a store holding a year of history cost more per run than an empty one?

Run from the repository root:

    .venv/bin/python benchmarks/bench_growth.py [--notifications 100000] [--runs 30]
    .venv/bin/python benchmarks/bench_growth.py --smoke   # 300 notifications, 1 run, nothing saved: seconds

1. Generates N handled notifications straight into a state directory with
   bulk SQL (the rows the cycle writes: notifications, attempts, activity,
   memory, commitments, people, places, utterances, knowledge), spread over
   a year, ids growing with time as in real use; the agent knows 300 people
   and 150 places.
2. Times `cycle.handle()` in process (an httpx.MockTransport serves a fixed
   notification under a fresh id each run; the POST is accepted) on three
   stores, alternating, median of `--runs` each, for two kinds of
   notification (a conversation request and an idle reminder):
   - empty: a new state directory;
   - known world: the same 300 people, 150 places and world knowledge as the
     big store, but one notification of history;
   - big: N notifications of history.
3. Prints the ratios (big/empty, and big/known world: the cost of history
   alone) and the store size per notification.
4. Captures every SQL statement a run executes (sqlite3 trace callback on
   the runtime's connection) and prints its EXPLAIN QUERY PLAN on the big
   store with its median time there, flagging full scans and temp b-trees.

Results are saved to benchmarks/results/bench_growth.json (gitignored), except
by a smoke run, which fails when no statement was captured or gc deleted nothing.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import random
import re
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.samples import API_KEY, BASE_URL, CONVERSATION_REQUEST, IDLE_REMINDER, SELF_ID, SELF_NAME  # noqa: E402

from karakuri_agent.app import cycle  # noqa: E402
from karakuri_agent.state.sqlite import backend as sqlite_state  # noqa: E402  (where the runtime opens its file)
from karakuri_agent.app.config import Settings  # noqa: E402
from karakuri_agent.secret import Secret
from karakuri_agent.state.sqlite.db import connect  # noqa: E402
from karakuri_agent.state.values import utc_text  # noqa: E402
from testing import smoke  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_growth.json"
AIM_RATIO = 1.1
NOW = datetime.now(timezone.utc)
PEOPLE = 300
PLACES = 150

KINDS = {"conversation_requested": CONVERSATION_REQUEST, "idle_reminder_fired": IDLE_REMINDER}


# -- generating a year of history ---------------------------------------------------------------
def _stamp(i: int, n: int) -> str:
    """Notification i of n, spread evenly over the last 365 days."""
    return utc_text(NOW - timedelta(days=365) + timedelta(seconds=365 * 86400 * i / n))


def generate(state_dir: Path, n: int, seed: int = 7) -> dict[str, int]:
    """Bulk-insert n handled notifications; returns the row counts per table."""
    rng = random.Random(seed)
    conn = connect(state_dir)
    conn.execute("PRAGMA synchronous = OFF")  # generation only: the benchmark reopens with the real settings
    bodies = [json.dumps(body, ensure_ascii=False, separators=(",", ":")) for body in KINDS.values()]
    counts: dict[str, int] = {}

    def notification_rows() -> Iterator[tuple[Any, ...]]:
        for i in range(n):
            nid = f"notif-hist{i:07d}"
            yield nid, _stamp(i, n), bodies[i % 2].replace("notif-01JDX9M7QZ", nid).replace("notif-x", nid)

    def attempt_rows() -> Iterator[tuple[Any, ...]]:
        for i in range(n):
            command, params = _command(i)
            stamp = _stamp(i, n)
            yield (f"notif-hist{i:07d}", command, params, stamp, 4242, "succeeded", stamp,
                   '{"ok":true,"message":"受け付けました","arrives_at":1764418200000}')

    def activity_rows() -> Iterator[tuple[Any, ...]]:
        for i in range(n):
            nid, stamp = f"notif-hist{i:07d}", _stamp(i, n)
            kind = "conversation_requested" if i % 2 == 0 else "idle_reminder_fired"
            command, params = _command(i)
            yield stamp, nid, "request", kind, None, None, None, None, None, None
            yield (stamp, nid, "command", kind, command, params, 1, "受け付けました",
                   '{"ok":true,"message":"受け付けました"}', "しばらく行っていない場所へ行ってみる")

    def memory_rows() -> Iterator[tuple[Any, ...]]:
        for i in range(n):
            command, params = _command(i)
            yield (_stamp(i, n), f"notif-hist{i:07d}", "action",
                   f"「{command}」を実行した。「こんにちは、今日もいい天気ですね。」と話した。理由: 誘いを受ける")

    def commitment_rows() -> Iterator[tuple[Any, ...]]:
        for i in range(0, n, 20):  # one promise every 20 notifications, 1 in 20 of them never kept
            stamp = _stamp(i, n)
            due = utc_text(datetime.fromisoformat(stamp) + timedelta(hours=2))
            pending = i % 400 == 0
            person = rng.randrange(PEOPLE)
            yield (stamp, f"notif-hist{i:07d}", f"{1474403124906290000 + person}", f"住人{person}", "喫茶店",
                   "6-11", due, f"じゃあ{i}時に喫茶店で会おうね", "pending" if pending else "fulfilled",
                   None if pending else due)

    def utterance_rows() -> Iterator[tuple[Any, ...]]:
        for i in range(0, n, 2):  # every conversation notification said one line
            yield f"id:conv-{i // 16}", f"こんにちは、{i}番目のひとことです。今日はどこへ行きますか？", _stamp(i, n)

    with conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("INSERT INTO notifications (notification_id, fetched_at, body) VALUES (?, ?, ?)",
                         notification_rows())
        conn.executemany(
            "INSERT INTO attempts (notification_id, command, params, claimed_at, pid, outcome, finished_at, result)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)", attempt_rows())
        conn.executemany(
            "INSERT INTO activity (created_at, notification_id, kind, notification_type, command, params, success,"
            " message, result, reason) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", activity_rows())
        conn.executemany("INSERT INTO memory (created_at, notification_id, kind, content) VALUES (?, ?, ?, ?)",
                         memory_rows())
        conn.executemany(
            "INSERT INTO commitments (created_at, notification_id, partner_id, partner_name, place_name, node_id,"
            " due_at, source_text, status, fulfilled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", commitment_rows())
        conn.executemany(
            "INSERT INTO people (agent_id, display_name, interactions, first_seen, last_contact) VALUES (?, ?, ?, ?, ?)",
            [(f"{1474403124906290000 + p}", f"住人{p}", rng.randrange(0, 400), _stamp(0, n), _stamp(n - 1, n))
             for p in range(PEOPLE)])
        conn.executemany(
            "INSERT INTO places (node_id, name, learned_at, visits, last_visited) VALUES (?, ?, ?, ?, ?)",
            [(f"{p // 10 + 1}-{p % 10 + 1}", f"場所{p}", _stamp(0, n), rng.randrange(0, 2000), _stamp(n - 1, n))
             for p in range(PLACES)])
        conn.executemany("INSERT INTO utterances (conversation_key, message, created_at) VALUES (?, ?, ?)",
                         utterance_rows())
        for key in ("get_map", "get_perception", "get_status", "get_nearby_agents"):
            conn.execute("INSERT INTO knowledge (key, value, updated_at) VALUES (?, ?, ?)",
                         (key, json.dumps({"nodes": [f"{p}-1" for p in range(40)]}), _stamp(n - 1, n)))
        conn.execute("COMMIT")
    conn.execute("ANALYZE")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for name in ("notifications", "attempts", "activity", "memory", "commitments", "people", "places",
                 "utterances", "knowledge"):
        counts[name] = conn.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
    conn.close()
    return counts


def _command(i: int) -> tuple[str, str]:
    if i % 2 == 0:
        return "conversation_accept", '{"message":"こんにちは、今日もいい天気ですね。"}'
    return "move", json.dumps({"target_node_id": f"{i % 15 + 1}-{i % 10 + 1}"})


def bytes_per_table(state_dir: Path) -> dict[str, int]:
    """Bytes on disk per table (its indexes included), from SQLite's dbstat table when compiled in."""
    conn = sqlite3.connect(state_dir / "karakuri.db")
    try:
        rows = conn.execute(
            "SELECT COALESCE(m.tbl_name, s.name), SUM(s.pgsize) FROM dbstat s"
            " LEFT JOIN sqlite_master m ON m.name = s.name GROUP BY 1 ORDER BY 2 DESC").fetchall()
    except sqlite3.OperationalError:
        return {}
    finally:
        conn.close()
    return {name: size for name, size in rows}


def store_bytes(state_dir: Path) -> int:
    return sum(p.stat().st_size for p in state_dir.iterdir() if p.is_file())


# -- timing handle() ------------------------------------------------------------------------------
class Server:
    """The fixed notification under whatever id is asked for; every command accepted."""

    def __init__(self, body: dict[str, Any]) -> None:
        self.body = body

    def __call__(self, request: httpx.Request) -> httpx.Response:
        if request.method == "GET":
            nid = request.url.path.rsplit("/", 1)[-1]
            return httpx.Response(200, json={**copy.deepcopy(self.body), "notification_id": nid})
        return httpx.Response(200, json={"ok": True, "message": "受け付けました"})


def settings_for(state_dir: Path) -> Settings:
    return Settings(api_base_url=BASE_URL, api_key=Secret(API_KEY), state_dir=state_dir,
                    self_agent_id=SELF_ID, self_name=SELF_NAME)


def time_handle(state_dir: Path, kind: str, i: int) -> float:
    settings = settings_for(state_dir)
    transport = httpx.MockTransport(Server(KINDS[kind]))
    body = f"通知があります。notification_id: notif-bench-{kind[:4]}-{i:05d}"
    start = time.perf_counter()
    result = cycle.handle(body, settings, transport=transport)
    elapsed = (time.perf_counter() - start) * 1000
    if not result.sent or not result.outcome.success:
        sys.exit(f"benchmark aborted: {kind} run {i} did not act: {result.report}")
    return elapsed


# -- query plans ----------------------------------------------------------------------------------
def capture_statements(state_dir: Path, kind: str) -> list[str]:
    """Every SQL statement one handle() run executes, with values bound, in order."""
    seen: list[str] = []
    original = sqlite_state.connect

    def traced(path: Path) -> sqlite3.Connection:
        conn = original(path)
        conn.set_trace_callback(seen.append)
        return conn

    sqlite_state.connect = traced
    try:
        time_handle(state_dir, kind, 99_000)
    finally:
        sqlite_state.connect = original
    return seen


def _shape(sql: str) -> str:
    """The statement with literal values blanked, to group repeats."""
    return re.sub(r"'(?:[^']|'')*'|\b\d+(?:\.\d+)?\b", "?", " ".join(sql.split()))


def plans(state_dir: Path, statements: list[str]) -> list[dict[str, Any]]:
    conn = sqlite3.connect(state_dir / "karakuri.db")
    found: dict[str, dict[str, Any]] = {}
    for sql in statements:
        head = sql.lstrip().split(None, 1)[0].upper()
        if head not in ("SELECT", "INSERT", "UPDATE", "DELETE") or "sqlite_master" in sql:
            continue
        shape = _shape(sql)
        if shape in found:
            continue
        rows = conn.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
        detail = [r[3] for r in rows]
        median_ms = None
        if head == "SELECT":
            samples = []
            for _ in range(15):
                start = time.perf_counter()
                conn.execute(sql).fetchall()
                samples.append((time.perf_counter() - start) * 1000)
            median_ms = statistics.median(samples)
        # A full scan matters only when it costs something on the big store (a reverse rowid
        # scan with LIMIT, or a 4-row table, does not); a temp b-tree is a sort at every run.
        slow = median_ms is not None and median_ms > 0.05
        flags = [d for d in detail if (d.startswith("SCAN") and "USING" not in d and slow) or "TEMP B-TREE" in d]
        found[shape] = {"sql": shape, "plan": detail, "median_ms_big_store": median_ms, "flags": flags}
    conn.close()
    return list(found.values())


# -- retention ------------------------------------------------------------------------------------
def run_gc(state_dir: Path, keep_days: int = 30) -> dict[str, Any]:
    """gc on the big store (a year of history: about 11/12 of it goes), then VACUUM."""
    from karakuri_agent.state.retention import STATEMENTS, forget
    from karakuri_agent.state.sqlite.store import SQLiteStore

    conn = connect(state_dir)
    before = store_bytes(state_dir)
    cutoff = utc_text(NOW - timedelta(days=keep_days))
    plans_ = {" ".join(sql.split()): [r[3] for r in conn.execute(
        "EXPLAIN QUERY PLAN " + sql, {"cutoff": cutoff, "keep_activity": 6, "keep_commands": 6, "keep_memory": 12})]
        for sql in STATEMENTS.values()}
    start = time.perf_counter()
    deleted = forget(SQLiteStore(conn), keep_days=keep_days, now=NOW)
    gc_s = time.perf_counter() - start
    start = time.perf_counter()
    conn.execute("VACUUM")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    vacuum_s = time.perf_counter() - start
    conn.close()
    return {"deleted": {k: v for k, v in deleted.items() if k != "cutoff"}, "gc_s": gc_s, "vacuum_s": vacuum_s,
            "bytes_before": before, "bytes_after": store_bytes(state_dir), "plans": plans_}


# -- main -------------------------------------------------------------------------------------------
def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notifications", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="300 notifications, 1 run: does the path still run")
    args = parser.parse_args()
    if args.smoke:
        args.notifications, args.runs = 300, 1
    warmups = 1 if args.smoke else 3

    work = Path(tempfile.mkdtemp(prefix="karakuri-growth-"))
    try:
        empty, world, big = work / "empty", work / "world", work / "big"
        connect(empty).close()
        generate(world, 1)
        started = time.perf_counter()
        counts = generate(big, args.notifications)
        generated_s = time.perf_counter() - started
        size = store_bytes(big)
        print(f"generated {args.notifications} handled notifications in {generated_s:.1f} s")
        print("rows: " + ", ".join(f"{name} {count}" for name, count in counts.items()))
        print(f"store size: {size / 1e6:.1f} MB, {size / args.notifications:.0f} bytes per notification")
        tables = bytes_per_table(big)
        if tables:
            print("  per notification: " + ", ".join(
                f"{name} {size / args.notifications:.0f}" for name, size in tables.items() if size > args.notifications))

        results: dict[str, Any] = {}
        for kind in KINDS:
            stores = {"empty": empty, "world": world, "big": big}
            for state in stores.values():  # warm-up: imports, bytecode, OS page cache
                for w in range(warmups):
                    time_handle(state, kind, 90_000 + w)
            samples: dict[str, list[float]] = {name: [] for name in stores}
            for i in range(args.runs):  # alternate, so drift hits all alike
                for name, state in stores.items():
                    samples[name].append(time_handle(state, kind, i))
            med = {name: statistics.median(values) for name, values in samples.items()}
            results[kind] = {"median_ms": med, "ratio_big_empty": med["big"] / med["empty"],
                             "ratio_big_world": med["big"] / med["world"], "samples_ms": samples}

        print()
        print(f"{'handle() in process, median':30} {'empty ms':>9} {'world ms':>9} {'big ms':>8}"
              f" {'big/empty':>10} {'big/world':>10}")
        for kind, r in results.items():
            m = r["median_ms"]
            print(f"{kind:30} {m['empty']:9.2f} {m['world']:9.2f} {m['big']:8.2f}"
                  f" {r['ratio_big_empty']:10.3f} {r['ratio_big_world']:10.3f}")
        for key, label in (("ratio_big_empty", "big/empty"), ("ratio_big_world", "big/known world")):
            worst = max(r[key] for r in results.values())
            verdict = "holds" if worst <= AIM_RATIO else "does NOT hold"
            print(f"aim: {label} ≤ {AIM_RATIO} median: {verdict} (worst {worst:.3f})")

        print("\nquery plans on the big store (statements of one conversation_requested + one idle run):")
        statements = capture_statements(big, "conversation_requested") + capture_statements(big, "idle_reminder_fired")
        planned = plans(big, statements)
        for entry in planned:
            took = f"{entry['median_ms_big_store']:.3f} ms" if entry["median_ms_big_store"] is not None else "write"
            mark = "  <-- " + "; ".join(entry["flags"]) if entry["flags"] else ""
            print(f"- [{took}] {entry['sql'][:150]}")
            for line in entry["plan"]:
                print(f"      {line}")
            if mark:
                print(f"     {mark}")

        print("\nretention on the big store: gc(keep_days=30), then VACUUM")
        retention = run_gc(big)
        print(f"gc deleted {retention['deleted']} in {retention['gc_s']:.2f} s;"
              f" VACUUM {retention['vacuum_s']:.1f} s; store {retention['bytes_before'] / 1e6:.1f} MB ->"
              f" {retention['bytes_after'] / 1e6:.1f} MB")
        for sql, plan in retention["plans"].items():
            print(f"- {sql[:110]}")
            for line in plan:
                print(f"      {line}")
        after_gc = statistics.median(time_handle(big, "conversation_requested", 95_000 + i) for i in range(args.runs))
        print(f"handle() conversation_requested after gc: {after_gc:.2f} ms median")
        retention["handle_after_gc_ms"] = after_gc
        if args.smoke:
            smoke.require((bool(planned), "no statement captured from a run"),
                          (sum(retention["deleted"].values()) > 0, "gc deleted nothing from a year of history"))
            return

        RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
        RESULTS_FILE.write_text(json.dumps({
            "measured_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                        "python": platform.python_version(), "sqlite": sqlite3.sqlite_version},
            "notifications": args.notifications, "rows": counts, "store_bytes": size,
            "bytes_per_notification": size / args.notifications, "bytes_per_table": tables, "handle": results, "plans": planned,
            "retention": retention,
        }, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"\nsaved {RESULTS_FILE.relative_to(ROOT)}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
