"""SQLite against PostgreSQL: one run's cost, claims per second, and claims from many processes at once.

Run from the repository root with a PostgreSQL to measure against (a fresh
schema is made in it and dropped at the end):

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_state.py
    .venv/bin/python benchmarks/bench_state.py --database-url postgresql://…  [--notifications 100000]
    .venv/bin/python benchmarks/bench_state.py --smoke     # tiny; PostgreSQL only when there is one: seconds

1. Generates N handled notifications into a SQLite state (bench_growth.py's
   filler: a year of notifications, claims, activity, memory, promises, lines,
   300 people, 150 places) and copies it into PostgreSQL with `state copy`'s
   code (the copy is timed too).
2. `handle()` in process on each backend (an httpx.MockTransport serves a
   conversation request under a fresh id; the command is accepted): median
   and p90 of `--runs`, alternating backends.
3. Claim throughput, one process: `--claims` claims of distinct ids in a row
   on each backend (each claim committed, as before a real command).
4. Concurrent claims: P processes (1, 2, 4, 8) each claiming distinct ids as
   fast as they can for `--seconds`; total claims per second the one
   database sustains, on each backend.

Results are saved to benchmarks/results/bench_state.json (gitignored), except
by a smoke run, which fails when no claim went through.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import sys
import tempfile
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_growth import KINDS, Server, generate  # noqa: E402
from testing.samples import API_KEY, BASE_URL, SELF_ID, SELF_NAME, in_schema  # noqa: E402

from karakuri_agent.app import cycle  # noqa: E402
from karakuri_agent.app.config import Settings  # noqa: E402
from karakuri_agent.secret import Secret
from karakuri_agent.state.copy import copy_state  # noqa: E402
from karakuri_agent.state.factory import open_url  # noqa: E402
from testing import smoke  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_state.json"
NOW = datetime.now(timezone.utc)


def settings_for(state_dir: Path, url: str) -> Settings:
    return Settings(api_base_url=BASE_URL, api_key=Secret(API_KEY), state_dir=state_dir, self_agent_id=SELF_ID,
                    self_name=SELF_NAME, database_url=Secret(url) if url else None)


def time_handle(settings: Settings, i: int) -> float:
    transport = httpx.MockTransport(Server(KINDS["conversation_requested"]))
    body = f"通知があります。notification_id: notif-bench-{i:06d}"
    start = time.perf_counter()
    result = cycle.handle(body, settings, transport=transport, post=False)
    elapsed = (time.perf_counter() - start) * 1000
    if not result.sent or not result.outcome.success:
        sys.exit(f"benchmark aborted: run {i} did not act: {result.report}")
    return elapsed


def claims_in_a_row(url: str, state_dir: Path, count: int, prefix: str) -> float:
    """Claims per second, one connection, each claim committed."""
    state = open_url(url, state_dir, lambda: NOW)
    try:
        start = time.perf_counter()
        for i in range(count):
            state.ledger.claim(f"{prefix}-{i:07d}", "wait", {})
        return count / (time.perf_counter() - start)
    finally:
        state.close()


def _claimer(url: str, state_dir: str, prefix: str, seconds: float, start_at: float, out: Any) -> None:
    state = open_url(url, Path(state_dir), lambda: NOW)
    done = 0
    while time.time() < start_at:
        time.sleep(0.001)
    deadline = start_at + seconds
    while time.time() < deadline:
        state.ledger.claim(f"{prefix}-{done:07d}", "wait", {})
        done += 1
    state.close()
    out.put(done)


def concurrent_claims(url: str, state_dir: Path, processes: int, seconds: float, start_delay: float = 2.0) -> float:
    """Total claims per second from `processes` processes claiming distinct ids at once."""
    out: Any = multiprocessing.Queue()
    start_at = time.time() + start_delay  # every process connected before the clock starts
    run = uuid.uuid4().hex[:6]
    procs = [multiprocessing.Process(target=_claimer, args=(url, str(state_dir), f"c{run}-{p}", seconds, start_at, out))
             for p in range(processes)]
    for p in procs:
        p.start()
    total = sum(out.get(timeout=seconds + 120) for _ in procs)
    for p in procs:
        p.join()
    return total / seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("KARAKURI_TEST_DATABASE_URL", ""))
    parser.add_argument("--notifications", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--claims", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--smoke", action="store_true",
                        help="300 notifications, 1 run, 20 claims, 2 processes for 0.2 s, nothing saved; without a"
                             " database SQLite only: does the path still run")
    args = parser.parse_args()
    counts, start_delay = (1, 2, 4, 8), 2.0
    if args.smoke:
        args.notifications, args.runs, args.claims, args.seconds = 300, 1, 20, 0.2
        counts, start_delay = (2,), 0.5
        if not args.database_url:
            smoke.skip_part("postgres", "no database (run under scripts/with-postgres.sh or give --database-url)")
    elif not args.database_url:
        sys.exit("bench_state: give --database-url or run under scripts/with-postgres.sh")
    schema = f"bench_{uuid.uuid4().hex[:8]}"
    if args.database_url:
        import psycopg

        with psycopg.connect(args.database_url, autocommit=True) as conn:
            conn.execute(f'CREATE SCHEMA "{schema}"')
    pg_url = in_schema(args.database_url, schema) if args.database_url else ""
    urls = {"sqlite": "", **({"postgres": pg_url} if pg_url else {})}
    results: dict[str, Any] = {"notifications": args.notifications, "python": platform.python_version(),
                               "cpus": os.cpu_count()}
    try:
        with tempfile.TemporaryDirectory() as tmp:
            sqlite_dir = Path(tmp) / "state"
            t0 = time.perf_counter()
            results["rows"] = generate(sqlite_dir, args.notifications)
            results["generate_s"] = round(time.perf_counter() - t0, 1)
            print(f"{args.notifications} notifications generated ({results['generate_s']} s)", end="", flush=True)
            if pg_url:
                source, target = open_url("", sqlite_dir, lambda: NOW), open_url(pg_url, sqlite_dir, lambda: NOW)
                t0 = time.perf_counter()
                copy_state(source, target)
                results["copy_to_postgres_s"] = round(time.perf_counter() - t0, 1)
                target.conn.execute("ANALYZE")
                source.close()
                target.close()
                print(f", copied to PostgreSQL in {results['copy_to_postgres_s']} s", end="")
            print(flush=True)

            backends = {name: settings_for(sqlite_dir, url) for name, url in urls.items()}
            times: dict[str, list[float]] = {name: [] for name in backends}
            for i in range(args.runs + 2):
                for name, settings in backends.items():
                    elapsed = time_handle(settings, i * 2 + (name == "postgres"))
                    if i >= 2:  # the first two warm caches
                        times[name].append(elapsed)
            for name, values in times.items():
                values.sort()
                results[f"handle_ms_{name}"] = {"median": round(statistics.median(values), 1),
                                                "p90": round(values[int(len(values) * 0.9) - 1], 1)}
                print(f"handle() on {name}: median {results[f'handle_ms_{name}']['median']} ms,"
                      f" p90 {results[f'handle_ms_{name}']['p90']} ms", flush=True)

            for name, url in urls.items():
                rate = claims_in_a_row(url, sqlite_dir, args.claims, f"row-{name}")
                results[f"claims_per_s_one_process_{name}"] = round(rate)
                print(f"claims in a row on {name}: {rate:.0f}/s", flush=True)

            for name, url in urls.items():
                for processes in counts:
                    rate = concurrent_claims(url, sqlite_dir, processes, args.seconds, start_delay)
                    results[f"claims_per_s_{processes}_processes_{name}"] = round(rate)
                    print(f"{processes} processes claiming at once on {name}: {rate:.0f}/s", flush=True)
    finally:
        if args.database_url:
            with psycopg.connect(args.database_url, autocommit=True) as conn:
                conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    if args.smoke:
        smoke.require(*((results[f"claims_per_s_{counts[0]}_processes_{name}"] > 0,
                         f"no claim went through from {counts[0]} processes on {name}") for name in urls))
        return
    RESULTS_FILE.parent.mkdir(exist_ok=True)
    RESULTS_FILE.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
