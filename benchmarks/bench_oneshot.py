"""A one-shot `handle` and `karakuri get_notification` against the production-like shell wrapper, side by side.

Run from the repository root:

    .venv/bin/python benchmarks/bench_oneshot.py [--runs N] [--resident N] [--source DIR]
    .venv/bin/python benchmarks/bench_oneshot.py --smoke   # 2 runs of each, no warm-up, nothing saved

In one run, against one loopback API (testing/loopback.py, plain HTTP on
127.0.0.1), every case a fresh process, the cases taken in turn run after run
(so a machine that slows down slows them all):

- the wrapper's fetch: benchmarks/production_wrapper.sh fetch ID (bash, curl, jq);
- the wrapper's command: production_wrapper.sh command ID wait '{"duration": 1}' (bash, node, curl, jq);
- `karakuri get_notification ID`: the read with its decision context;
- `karakuri-agent handle BODY` on an arrival (a move's notification): fetch, decide, claim, act, record, report;
- `karakuri-agent handle BODY` on a conversation turn: the same, and a partner's line read;
- the floor of any Python one-shot with this project's libraries: a process that imports click and
  httpx and makes the one GET (nothing read, decided or stored).

Each process is timed from outside (wall) and by the kernel (its user + system
CPU time, from wait4), which a busy machine inflates less.

Every feature is on: a configured persona pack (a copy of the bundled one,
its behaviour.json rules included, so the pack is checked as a user's is),
the journal, recall, and the reading of conversation lines. Then, in the
same run, the resident mode: one `listen --stdin` process, per notification,
against its floor (two loopback round trips through httpx in one process)
and one fsync of a file in the state's directory.

`--source DIR` times the package in DIR (another checkout) instead of the
installed one. Results are printed and saved to
benchmarks/results/bench_oneshot.json (not by a smoke run). The wrapper
needs bash, curl, jq and node; without one of them the run says it is
skipped.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_listen import Resident, floor, serve  # noqa: E402  (benchmarks/ is on sys.path: the script's directory)
from testing import smoke  # noqa: E402
from testing.loopback import LoopbackAPI, running_api  # noqa: E402
from testing.processes import child_env, console_script  # noqa: E402

WRAPPER = ROOT / "benchmarks" / "production_wrapper.sh"
RECORDED = ROOT / "karakuri_agent" / "recorded" / "notifications"
PACK = ROOT / "skill" / "personas" / "nike"
RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_oneshot.json"
WARMUP = 3
AIM_HANDLE = 0.8  # handle / (wrapper fetch + wrapper command)
AIM_GET = 1.2  # get_notification / wrapper fetch
AIM_TURN_MS = 20.0  # a conversation turn's handle over an arrival's
# The cases, in the order each run takes them.
FETCH, COMMAND, GET, HANDLE, TURN, FLOOR = (
    "wrapper fetch", "wrapper command", "karakuri get_notification", "karakuri-agent handle (arrival)",
    "karakuri-agent handle (conversation turn)", "floor: python, click, httpx, one GET")
# The floor's child: what any Python one-shot with these libraries pays before doing anything of its own.
FLOOR_CODE = """
import os, sys
sys.modules["httpx._main"] = None  # as karakuri_agent.app does
import click, httpx
with httpx.Client(verify=False, headers={"Authorization": "Bearer " + os.environ["KARAKURI_API_KEY"]}) as client:
    client.get(os.environ["KARAKURI_API_BASE_URL"] + "/agents/notifications/" + sys.argv[1]).raise_for_status()
"""


def run_once(argv: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """One process to completion: its wall time and its CPU time (user + system, from wait4), in ms.
    A process that fails stops the benchmark."""
    with tempfile.TemporaryFile() as output:
        start = time.perf_counter()
        proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=output,
                                stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = (time.perf_counter() - start) * 1000
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            output.seek(0)
            sys.exit(f"benchmark aborted: {argv[-3:]} exited {proc.returncode}\n{output.read().decode()}")
    return wall, (usage.ru_utime + usage.ru_stime) * 1000


def recorded(name: str) -> dict[str, Any]:
    """A recorded notification, made current: created now, expiring in six hours."""
    body: dict[str, Any] = json.loads((RECORDED / name).read_text(encoding="utf-8"))["body"]
    now = int(time.time() * 1000)
    body.update(created_at=now, expires_at=now + 6 * 3600 * 1000)
    return body


def publish(api: LoopbackAPI, template: dict[str, Any], prefix: str, count: int) -> list[str]:
    ids = [f"{prefix}-{i}" for i in range(count)]
    for nid in ids:
        api.notifications[nid] = {**copy.deepcopy(template), "notification_id": nid}
    return ids


def message(notification_id: str) -> str:
    return f"🔔 お知らせがあります\nnotification_id: {notification_id}"


def fsync_ms(directory: Path, count: int) -> list[float]:
    """The time of one small write and fsync in `directory`, `count` times."""
    path = directory / "fsync-probe"
    times = []
    with open(path, "wb") as handle:
        for _ in range(count):
            start = time.perf_counter()
            handle.write(b"x" * 64)
            handle.flush()
            os.fsync(handle.fileno())
            times.append((time.perf_counter() - start) * 1000)
    path.unlink()
    return times


def spread(samples: list[float]) -> dict[str, Any]:
    return {"runs": len(samples), "min_ms": min(samples), "median_ms": statistics.median(samples),
            "max_ms": max(samples), "samples_ms": samples}


def ratio_spread(top: list[float], bottom: list[float]) -> dict[str, float]:
    """Run by run (the cases of one run ran back to back), min / median / max of the ratio."""
    ratios = [a / b for a, b in zip(top, bottom)]
    return {"min": min(ratios), "median": statistics.median(ratios), "max": max(ratios)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="timed processes per case (default 20)")
    parser.add_argument("--resident", type=int, default=100, help="timed notifications in resident mode (default 100)")
    parser.add_argument("--source", type=Path, help="time the package in this directory instead of the installed one")
    parser.add_argument("--smoke", action="store_true", help="2 runs of each case, no warm-up, nothing saved: does"
                                                             " the path still run")
    args = parser.parse_args()
    warmup = 0 if args.smoke else WARMUP
    if args.smoke:
        args.runs, args.resident = 2, 2
    elif args.runs < 2 or args.resident < 2:
        parser.error("--runs and --resident must be at least 2")
    missing = [tool for tool in ("bash", "curl", "jq", "node") if shutil.which(tool) is None]
    if missing:
        smoke.skip(f"the wrapper is written with {', '.join(missing)}, not installed here")
    total = warmup + args.runs
    karakuri, agent = console_script("karakuri", "karakuri"), console_script("karakuri-agent", "agent")

    with running_api() as api, tempfile.TemporaryDirectory(prefix="karakuri-bench-") as tmp:
        work = Path(tmp)
        pack = work / "pack"
        shutil.copytree((args.source / PACK.relative_to(ROOT)) if args.source else PACK, pack)  # the pack its code reads

        def agent_env(state: str) -> dict[str, str]:
            env = {**child_env(api.base_url, work, work / state), "KARAKURI_PERSONA_DIR": str(pack)}
            if args.source:
                env["PYTHONPATH"] = str(args.source.resolve())
            return env

        env = agent_env("state")
        arrival, turn = recorded("notif-demo03.json"), recorded("notif-demo05.json")
        ids = {FETCH: publish(api, arrival, "notif-wrapper", total), GET: publish(api, arrival, "notif-get", total),
               HANDLE: publish(api, arrival, "notif-arrival", total), TURN: publish(api, turn, "notif-turn", total)}
        argv = {
            FETCH: lambda i: ["bash", str(WRAPPER), "fetch", ids[FETCH][i]],
            COMMAND: lambda i: ["bash", str(WRAPPER), "command", ids[FETCH][i], "wait", '{"duration": 1}'],
            GET: lambda i: [*karakuri, "get_notification", ids[GET][i]],
            HANDLE: lambda i: [*agent, "handle", message(ids[HANDLE][i])],
            TURN: lambda i: [*agent, "handle", message(ids[TURN][i])],
            FLOOR: lambda i: [sys.executable, "-c", FLOOR_CODE, ids[GET][i]],
        }
        walls: dict[str, list[float]] = {name: [] for name in argv}
        cpus: dict[str, list[float]] = {name: [] for name in argv}
        for i in range(total):
            for name, argv_for in argv.items():
                wall, cpu = run_once(argv_for(i), env, work)
                if i >= warmup:
                    walls[name].append(wall)
                    cpus[name].append(cpu)
        sent = len(api.posts)
        if sent != 3 * total:  # the wrapper's command and both handles send one command each
            sys.exit(f"benchmark aborted: expected {3 * total} commands, the loopback API saw {sent}")

        env = agent_env("state-resident")
        resident_ids = serve(api, "notif-resident", warmup + args.resident)
        resident = Resident(env, work)
        resident_ms = [resident.send(nid) for nid in resident_ids][warmup:]
        resident.close()
        floor_ms = floor(serve(api, "notif-floor", warmup + args.resident), env, work, warmup)
        sync_ms = fsync_ms(work / "state-resident", args.resident)

    pair = [a + b for a, b in zip(walls[FETCH], walls[COMMAND])]
    pair_cpu = [a + b for a, b in zip(cpus[FETCH], cpus[COMMAND])]
    rows = {name: {**spread(values), "cpu": spread(cpus[name])} for name, values in walls.items()}
    rows["wrapper fetch + command"] = {**spread(pair), "cpu": spread(pair_cpu)}
    rows["resident: listen --stdin, per notification"] = spread(resident_ms)
    rows["floor: httpx GET + POST, one process"] = spread(floor_ms)
    rows["one fsync in the state directory"] = spread(sync_ms)
    ratios = {
        "handle / wrapper fetch+command": ratio_spread(walls[HANDLE], pair),
        "get_notification / wrapper fetch": ratio_spread(walls[GET], walls[FETCH]),
        "conversation turn / wrapper fetch+command": ratio_spread(walls[TURN], pair),
        "python floor / wrapper fetch": ratio_spread(walls[FLOOR], walls[FETCH]),
        "handle / wrapper fetch+command, CPU time": ratio_spread(cpus[HANDLE], pair_cpu),
        "get_notification / wrapper fetch, CPU time": ratio_spread(cpus[GET], cpus[FETCH]),
    }
    turn_extra = rows[TURN]["median_ms"] - rows[HANDLE]["median_ms"]
    resident_floor = rows["floor: httpx GET + POST, one process"]["median_ms"] + \
        rows["one fsync in the state directory"]["median_ms"]
    aims = [
        (f"handle ≤ {AIM_HANDLE} × the wrapper's fetch + command",
         rows[HANDLE]["median_ms"] / rows["wrapper fetch + command"]["median_ms"], AIM_HANDLE),
        (f"get_notification ≤ {AIM_GET} × the wrapper's fetch",
         rows[GET]["median_ms"] / rows[FETCH]["median_ms"], AIM_GET),
    ]

    width = max(map(len, rows))
    print(f"{'case (wall ms; cpu ms)':<{width}}  {'runs':>4}  {'min':>7}  {'median':>7}  {'max':>7}  {'cpu med':>7}")
    for name, row in rows.items():
        cpu = f"{row['cpu']['median_ms']:>7.1f}" if "cpu" in row else f"{'':>7}"
        print(f"{name:<{width}}  {row['runs']:>4}  {row['min_ms']:>7.1f}  {row['median_ms']:>7.1f}"
              f"  {row['max_ms']:>7.1f}  {cpu}")
    print("\nratios run by run (min / median / max)")
    for name, r in ratios.items():
        print(f"  {name}: {r['min']:.2f} / {r['median']:.2f} / {r['max']:.2f}")
    print()
    for text, value, aim in aims:
        print(f"aim: {text}: {value:.2f} of medians ({'holds' if value <= aim else 'does NOT hold'})")
    print(f"aim: a conversation turn ≤ {AIM_TURN_MS:.0f} ms over an arrival: {turn_extra:+.1f} ms"
          f" ({'holds' if turn_extra <= AIM_TURN_MS else 'does NOT hold'})")
    print(f"resident per notification: {rows['resident: listen --stdin, per notification']['median_ms']:.1f} ms"
          f" against {resident_floor:.1f} ms for two loopback round trips and one fsync")
    if args.smoke:
        return  # every process above exited 0 and every handle sent its command, or the run stopped

    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(json.dumps({
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(["python", *map(str, sys.argv)]),
        "source": str(args.source or "installed"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "load_average": os.getloadavg(),
        "results": rows,
        "ratios": ratios,
        "conversation_turn_extra_ms": turn_extra,
    }, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nsaved {RESULTS_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
