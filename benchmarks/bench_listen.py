"""Per-notification time of the resident mode against a process per message, and its memory over time.

Run from the repository root:

    .venv/bin/python benchmarks/bench_listen.py [--runs N] [--resident N] [--memory N]
    .venv/bin/python benchmarks/bench_listen.py --smoke   # 2 of each, memory after 2 and 4, nothing saved: seconds

In one run, against one loopback API (testing/loopback.py), on copies of the
same conversation request:

- resident: one `karakuri-agent listen --stdin`, fed one message at a time;
  a notification's time is from writing its line to reading its report line;
- one-shot: `karakuri-agent handle BODY`, a new process per message;
- shell wrapper: benchmarks/shell_wrapper.sh, curl GET then curl POST per
  message (no decision, no state, no report: the bare minimum per message);
- floor: one Python process doing only httpx GET + POST per notification,
  the part of the resident time that is the two round trips to this server.

Then memory: a fresh resident process fed `--memory` notifications, its
resident set (VmRSS) and peak (VmHWM, from /proc) read after the 100th and
after the last. Results are printed and saved to
benchmarks/results/bench_listen.json (not by a smoke run). The shell
wrapper needs `curl`; without it that case says it is skipped.
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.samples import CONVERSATION_REQUEST  # noqa: E402
from testing.loopback import LoopbackAPI, running_api  # noqa: E402
from bench_wrapper import p90  # noqa: E402  (benchmarks/ is on sys.path: it is the script's directory)
from testing.processes import child_env, console_script, measure  # noqa: E402
from testing import smoke  # noqa: E402

AIM_RATIO = 0.15  # the resident median per notification, as a share of the shell wrapper's
MEMORY_AIM = 0.10  # growth of the resident set from the 100th notification to the last
RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_listen.json"
WRAPPER = ROOT / "benchmarks" / "shell_wrapper.sh"
WARMUP = 3


def agent_argv() -> list[str]:
    return console_script("karakuri-agent", "agent")


def body(notification_id: str) -> str:
    return f"🔔 桜草メイ が話しかけています。「こんにちは！」\nnotification_id: {notification_id}"


def serve(api: LoopbackAPI, prefix: str, count: int) -> list[str]:
    """`count` fresh notifications on the API (the ledger claims each id once)."""
    ids = [f"{prefix}-{i}" for i in range(count)]
    for nid in ids:
        notification = copy.deepcopy(CONVERSATION_REQUEST)
        notification["notification_id"] = nid
        api.notifications[nid] = notification
    return ids


def memory_kb(pid: int) -> dict[str, int]:
    """VmRSS (now) and VmHWM (peak so far) of a live process, in kB."""
    fields = {}
    for row in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = row.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields


class Resident:
    """One `listen --stdin` process; `send` writes a message and waits for its report line."""

    def __init__(self, env: dict[str, str], cwd: Path) -> None:
        self.proc = subprocess.Popen([*agent_argv(), "listen", "--stdin"], env=env, cwd=cwd, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self._count = 0

    def send(self, notification_id: str) -> float:
        self._count += 1
        line = json.dumps({"content": body(notification_id), "id": str(self._count)}, ensure_ascii=False)
        start = time.perf_counter()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        report = self.proc.stdout.readline()
        elapsed_ms = (time.perf_counter() - start) * 1000
        if not report.startswith("からくり: "):
            sys.exit(f"benchmark aborted: the resident process answered {report!r}")
        return elapsed_ms

    def close(self) -> None:
        self.proc.stdin.close()
        if self.proc.wait(timeout=120) != 0:
            sys.exit(f"benchmark aborted: the resident process exited {self.proc.returncode}")


# The floor's child: GET + POST per id read from argv, with httpx as the agent uses it; prints the times as JSON.
FLOOR_CODE = """
import json, os, sys, time
import httpx
base, times = os.environ["KARAKURI_API_BASE_URL"], []
with httpx.Client(headers={"Authorization": "Bearer " + os.environ["KARAKURI_API_KEY"]}) as client:
    for nid in sys.argv[1:]:
        start = time.perf_counter()
        client.get(f"{base}/agents/notifications/{nid}").raise_for_status()
        client.post(f"{base}/agents/command", json={"notification_id": nid, "command": "conversation_reject",
                                                    "params": {}}).raise_for_status()
        times.append((time.perf_counter() - start) * 1000)
print(json.dumps(times))
"""


def floor(ids: list[str], env: dict[str, str], cwd: Path, warmup: int) -> list[float]:
    out = subprocess.run([sys.executable, "-c", FLOOR_CODE, *ids], env=env, cwd=cwd, capture_output=True,
                         text=True, check=True).stdout
    return json.loads(out)[warmup:]


def summary(name: str, samples: list[float]) -> dict:
    return {"name": name, "runs": len(samples), "median_ms": statistics.median(samples),
            "p90_ms": p90(samples), "samples_ms": samples}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="timed processes per one-shot case (default 30)")
    parser.add_argument("--resident", type=int, default=200, help="timed notifications in resident mode (default 200)")
    parser.add_argument("--memory", type=int, default=1000, help="notifications for the memory run (default 1000)")
    parser.add_argument("--state-root", type=Path,
                        help="put the agents' state directories here (e.g. a tmpfs such as /dev/shm, to see how much"
                             " of the time is the state's fsyncs); default: the run's temporary directory")
    parser.add_argument("--smoke", action="store_true",
                        help="2 runs of each case, no warm-up, memory after 2 and 4 notifications: does the path"
                             " still run")
    args = parser.parse_args()
    warmup, early = (0, 2) if args.smoke else (WARMUP, 100)  # `early`: the first memory reading
    if args.smoke:
        args.runs, args.resident, args.memory = 2, 2, 4
    elif args.runs < 2 or args.resident < 2 or args.memory < 200:
        parser.error("--runs and --resident must be at least 2, --memory at least 200")
    curl = shutil.which("curl")

    with running_api() as api, tempfile.TemporaryDirectory(prefix="karakuri-bench-") as tmp:
        work = Path(tmp)
        states = Path(tempfile.mkdtemp(prefix="karakuri-bench-state-", dir=args.state_root)) if args.state_root else work
        results = []

        env = child_env(api.base_url, work, states / "state-resident")
        ids = serve(api, "notif-resident", warmup + args.resident)
        resident = Resident(env, work)
        for nid in ids[:warmup]:
            resident.send(nid)
        results.append(summary("resident: listen --stdin", [resident.send(nid) for nid in ids[warmup:]]))
        resident.close()

        env = child_env(api.base_url, work, states / "state-oneshot")
        ids = serve(api, "notif-oneshot", warmup + args.runs)
        results.append(summary("one-shot: karakuri-agent handle",
                               measure(lambda i: [*agent_argv(), "handle", body(ids[i])], args.runs, env, work,
                                       warmup)))

        if curl:
            ids = serve(api, "notif-shell", warmup + args.runs)
            results.append(summary("shell wrapper: curl GET + POST",
                                   measure(lambda i: ["sh", str(WRAPPER), body(ids[i])], args.runs, env, work, warmup)))
        else:
            smoke.skip_part("shell wrapper", "curl is not installed (Debian: apt-get install curl)")
        ids = serve(api, "notif-floor", warmup + args.resident)
        results.append(summary("floor: httpx GET + POST, one process", floor(ids, env, work, warmup)))
        expected = (warmup + args.resident) * 2 + (warmup + args.runs) * (2 if curl else 1)
        if len(api.posts) != expected:
            sys.exit(f"benchmark aborted: expected {expected} commands, the loopback API saw {len(api.posts)}")

        env = child_env(api.base_url, work, states / "state-memory")
        ids = serve(api, "notif-memory", args.memory)
        resident = Resident(env, work)
        memory = {}
        for count, nid in enumerate(ids, start=1):
            resident.send(nid)
            if count in (early, args.memory):
                memory[count] = memory_kb(resident.proc.pid)
        resident.close()
        if args.state_root:
            shutil.rmtree(states)

    by_name = {r["name"].split(":")[0]: r for r in results}
    ratio = by_name["resident"]["median_ms"] / by_name["shell wrapper"]["median_ms"] if curl else None
    growth = memory[args.memory]["VmRSS"] / memory[early]["VmRSS"] - 1
    width = max(len(r["name"]) for r in results)
    print(f"{'case':<{width}}  {'runs':>4}  {'median_ms':>9}  {'p90_ms':>7}")
    for r in results:
        print(f"{r['name']:<{width}}  {r['runs']:>4}  {r['median_ms']:>9.1f}  {r['p90_ms']:>7.1f}")
    if ratio is not None:
        print(f"\nresident / shell wrapper: {ratio:.3f}"
              f" (aim ≤ {AIM_RATIO}: {'holds' if ratio <= AIM_RATIO else 'does NOT hold'})")
    print(f"resident / one-shot handle: {by_name['resident']['median_ms'] / by_name['one-shot']['median_ms']:.3f}")
    for count, fields in memory.items():
        print(f"memory after {count:>5} notifications: VmRSS {fields['VmRSS'] / 1024:.1f} MiB,"
              f" VmHWM {fields['VmHWM'] / 1024:.1f} MiB")
    print(f"resident set growth from {early} to {args.memory}: {growth:+.1%}"
          f" (aim within {MEMORY_AIM:.0%}: {'holds' if abs(growth) <= MEMORY_AIM else 'does NOT hold'})")
    if args.smoke:
        return  # each step above stops the run when a notification goes unanswered

    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(json.dumps({
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": " ".join(["python", *map(str, sys.argv)]),
        "state_root": str(args.state_root or "temporary directory"),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "results": results,
        "ratio_resident_to_wrapper": ratio,
        "memory_kb": memory,
        "rss_growth": growth,
    }, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nsaved {RESULTS_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
