"""`karakuri-agent day` on a year of state, and its page in Chromium.

Run from the repository root:

    .venv/bin/python benchmarks/bench_day.py [--notifications 100000] [--runs 7]
    .venv/bin/python benchmarks/bench_day.py --smoke    # 300 notifications, one day, one rendering: seconds

1. Generates bench_growth.py's year of history (N handled notifications over
   365 days, 300 people, 150 places) and adds the day view's journal as the
   agent writes it: where each notification found the agent, an arrival per
   move, the lines of each conversation (the partner's and the agent's), a
   gift every 50 notifications.
2. Times `karakuri-agent day` as a whole process (start-up, imports, the
   SQLite file, the reads, the rendering), median of `--runs`, for the
   latest day and for a day in the middle of the year, in the three forms:
   plain, `--json`, `--html FILE`. Aim: under a second.
3. Prints the query plan of each of the day's reads (an index, not a scan).
4. Times headless Chromium (Debian's `chromium`) rendering the page of the
   busiest day: `--dump-dom` and a screenshot at phone width, median of
   `--runs`. Aim: under 2 s. Skipped, and said so, when Chromium is absent.

Results are saved to benchmarks/results/bench_day.json (gitignored), except
by a smoke run, which fails when a day printed nothing or the page is empty.
"""

from __future__ import annotations

import argparse
import json
import platform
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_growth import NOW, _stamp, generate  # noqa: E402
from testing.browser import FLAGS  # noqa: E402
from testing.processes import console_script  # noqa: E402
from testing import smoke  # noqa: E402

from karakuri_agent.app.day.read import ZONE  # noqa: E402
from karakuri_agent.state.sqlite.db import connect  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_day.json"
AIM_DAY_SECONDS = 1.0
AIM_PAGE_SECONDS = 2.0


def add_journal(state_dir: Path, n: int) -> int:
    """The journal rows N notifications would have written (bench_growth's notifications, same times)."""
    conn = connect(state_dir)
    conn.execute("PRAGMA synchronous = OFF")

    def rows():
        for i in range(n):
            nid, stamp = f"notif-hist{i:07d}", _stamp(i, n)
            node = f"{i % 15 + 1}-{i % 10 + 1}"
            yield stamp, nid, "here", nid, json.dumps({"node_id": node, "label": f"場所{i % 150}"})
            if i % 2:  # a move: where it arrives
                yield stamp, nid, "arrival", nid, json.dumps({"node_id": f"{(i + 1) % 15 + 1}-{(i + 1) % 10 + 1}"})
            else:  # a conversation turn: the partner's line and the agent's
                talk = f"id:conv-{i // 16}"
                person = f"住人{(i // 16) % 300}"
                for speaker, own in ((person, False), ("AIニケちゃん", True)):
                    data = {"conversation": talk, "partners": [person], "speaker": speaker,
                            "text": f"{speaker}の{i}番目のひとことです。今日はどこへ行きますか？", "own": own}
                    yield stamp, nid, "line", f"{nid}:{speaker}", json.dumps(data, ensure_ascii=False)
            if i % 50 == 0:
                gift = {"direction": "received", "partner": f"住人{i % 300}", "item": {"item_id": "お茶", "quantity": 1},
                        "money": None}
                yield stamp, nid, "transfer", f"{nid}:0", json.dumps(gift, ensure_ascii=False)

    with conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.executemany("INSERT INTO journal (at, notification_id, kind, key, data) VALUES (?, ?, ?, ?, ?)", rows())
        conn.execute("COMMIT")
    conn.execute("ANALYZE")
    count = conn.execute("SELECT COUNT(*) FROM journal").fetchone()[0]
    conn.close()
    return int(count)


def time_day(state_dir: Path, date_text: str, extra: list[str], runs: int) -> tuple[float, str]:
    env = {"PATH": "/usr/bin:/bin", "KARAKURI_STATE_DIR": str(state_dir), "HOME": str(state_dir.parent)}
    command = [*console_script("karakuri-agent", "agent"), "day", "--date", date_text, *extra]
    times, output = [], ""
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        times.append(time.perf_counter() - started)
        output = done.stdout
    return statistics.median(times), output


def query_plans(state_dir: Path, date_text: str) -> list[tuple[str, str]]:
    """EXPLAIN QUERY PLAN of the day's reads, with the day's window."""
    from karakuri_agent.app.day.read import parse_date, window
    from karakuri_agent.state.values import utc_text

    start, end = (utc_text(t) for t in window(parse_date(date_text)))
    reads = {
        "journal": ("SELECT at, notification_id, kind, data FROM journal WHERE at >= ? AND at < ? ORDER BY at, id"
                    " LIMIT 20000", (start, end)),
        "activity": ("SELECT id FROM activity WHERE created_at >= ? AND created_at < ? ORDER BY id LIMIT 20000",
                     (start, end)),
        "commitments": ("SELECT id FROM commitments WHERE id IN (SELECT id FROM commitments WHERE created_at >= ?"
                        " AND created_at < ? UNION SELECT id FROM commitments WHERE due_at >= ? AND due_at < ?)"
                        " ORDER BY id LIMIT 20000", (start, end, start, end)),
    }
    conn = sqlite3.connect(state_dir / "karakuri.db")
    plans = []
    for name, (sql, args) in reads.items():
        plan = "; ".join(row[3] for row in conn.execute(f"EXPLAIN QUERY PLAN {sql}", args))
        plans.append((name, plan))
    conn.close()
    return plans


def time_page(page: Path, runs: int, work: Path, *, forms: int = 2) -> dict[str, float] | None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return None
    results = {}
    for name, extra in (("dump_dom", ["--dump-dom"]),
                        ("screenshot_390", ["--window-size=390,2000", f"--screenshot={work / 'shot.png'}"]))[:forms]:
        times = []
        for run in range(runs):
            started = time.perf_counter()
            subprocess.run([chromium, *FLAGS, f"--user-data-dir={work / f'profile-{name}-{run}'}", *extra,
                            page.as_uri()], capture_output=True, check=True, timeout=120)
            times.append(time.perf_counter() - started)
        results[name] = statistics.median(times)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notifications", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--smoke", action="store_true",
                        help="300 notifications, 1 run, one day, one page rendering: does the path still run")
    args = parser.parse_args()
    if args.smoke:
        args.notifications, args.runs = 300, 1
    silent: list[str] = []
    work = Path(tempfile.mkdtemp(prefix="bench-day-"))
    try:
        state_dir = work / "state"
        started = time.perf_counter()
        counts = generate(state_dir, args.notifications)
        counts["journal"] = add_journal(state_dir, args.notifications)
        print(f"generated {args.notifications:,} notifications in {time.perf_counter() - started:.1f} s:"
              f" {', '.join(f'{k} {v:,}' for k, v in counts.items())}")
        latest = datetime.fromisoformat(_stamp(args.notifications - 1, args.notifications)).astimezone(ZONE).date()
        middle = (NOW - timedelta(days=180)).astimezone(ZONE).date()
        results: dict[str, object] = {"notifications": args.notifications, "counts": counts,
                                      "python": platform.python_version(), "day_seconds": {}}
        print(f"\n`karakuri-agent day` as a process, median of {args.runs} (aim: under {AIM_DAY_SECONDS:.0f} s)")
        for label, day in (("latest day", latest), ("a day mid-year", middle))[:1 if args.smoke else 2]:
            for form, extra in (("plain", []), ("--json", ["--json"]), ("--html", ["--html", str(work / "day.html")])):
                seconds, output = time_day(state_dir, day.isoformat(), extra, args.runs)
                results["day_seconds"][f"{label} {form}"] = seconds  # type: ignore[index]
                first = output.splitlines()[0] if output else ""
                if not output.strip() and form != "--html":
                    silent.append(f"{label} {form}")
                print(f"  {label:<15} {day} {form:<7} {seconds * 1000:7.0f} ms"
                      f"  {'ok' if seconds < AIM_DAY_SECONDS else 'OVER THE AIM'}  {first[:70]}")
        print("\nquery plans of the day's reads")
        for name, plan in query_plans(state_dir, middle.isoformat()):
            print(f"  {name:<12} {plan}")
        page = work / "day.html"
        time_day(state_dir, middle.isoformat(), ["--html", str(page)], 1)
        print(f"\nthe page of {middle}: {page.stat().st_size / 1024:.0f} KiB")
        rendered = time_page(page, args.runs, work, forms=1 if args.smoke else 2)
        if rendered is None:
            print(f"  chromium: {smoke.SKIPPED}not installed (Debian: apt-get install chromium), the page not timed")
        else:
            for name, seconds in rendered.items():
                print(f"  chromium {name:<15} {seconds * 1000:7.0f} ms"
                      f"  {'ok' if seconds < AIM_PAGE_SECONDS else 'OVER THE AIM'} (aim: under {AIM_PAGE_SECONDS:.0f} s)")
            results["page_seconds"] = rendered
        if args.smoke:
            smoke.require((not silent, f"`day` printed nothing: {', '.join(silent)}"),
                          (page.stat().st_size > 1000, "the day's page is (almost) empty"))
            return
        RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
        RESULTS_FILE.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
