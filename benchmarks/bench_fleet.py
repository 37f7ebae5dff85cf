"""A fleet's cost per notification and per added agent: 1, 10, 100 and 1,000 agents beside one agent alone.

Run from the repository root:

    .venv/bin/python benchmarks/bench_fleet.py [--sizes 1 10 100 1000] [--messages N] [--workers N]
    .venv/bin/python benchmarks/bench_fleet.py --smoke   # 1 and 3 agents, a few messages, nothing saved

In one run, against one loopback API (testing/loopback.py), on copies of the
same conversation request:

- alone: one `karakuri-agent listen --stdin` (no fleet), the one-agent
  resident figure;
- fleet N: one `karakuri-agent listen --fleet FILE --stdin` of N agents, each
  its own key, id, channel and SQLite state directory.

Each process is started, handed one warm-up message and waited for; then
`--messages` messages (spread round-robin over the agents) are written at
once and the reports read back. Per run: the process's CPU seconds for the
batch (utime + stime from /proc) per notification, notifications per second
per core (the inverse), the wall time of the batch, the start-up time, and
the resident set (VmRSS) after the batch; memory per added agent is
(RSS of N agents - RSS of one agent's fleet) / (N - 1). Results are printed
side by side and saved to benchmarks/results/bench_fleet.json (not by a
smoke run).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import select
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.loopback import running_api  # noqa: E402
from testing.processes import child_env, console_script  # noqa: E402
from testing.runs import WORLD, body, notification  # noqa: E402
from testing import smoke  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_fleet.json"
AIM_RATIO = 1.5  # 100 agents: CPU per notification at most this many times one agent's alone
AIM_MIB_PER_AGENT = 2.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def write_fleet(work: Path, size: int) -> Path:
    lines = []
    for i in range(size):
        env_file = work / f"agent{i}.env"
        env_file.write_text(f"KARAKURI_API_KEY=bench-key-{i:04d}-xxxxxxxx\nKARAKURI_SELF_AGENT_ID={2000 + i}\n"
                            f"KARAKURI_SELF_NAME=エージェント{i}\nKARAKURI_CHANNEL_IDS={800000 + i}\n"
                            f"KARAKURI_STATE_DIR={work / f'state{i}'}\n", encoding="utf-8")
        lines.append(f'[[agent]]\nenv_file = "{env_file.name}"\n')
    path = work / "fleet.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


class Resident:
    """One `listen` process fed JSON lines; reports read back one per notification."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: Path) -> None:
        self.started = time.perf_counter()
        self.proc = subprocess.Popen(argv, env=env, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.count = 0

    def send(self, nid: str, channel: str) -> None:
        assert self.proc.stdin is not None
        self.count += 1
        self.proc.stdin.write(json.dumps({"content": body(nid), "author_id": WORLD, "channel_id": channel,
                                          "id": str(self.count)}, ensure_ascii=False) + "\n")
        self.proc.stdin.flush()

    def reports(self, n: int, timeout: float = 900) -> None:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        for _ in range(n):
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, deadline - time.monotonic()))
            if not ready or not self.proc.stdout.readline():
                raise SystemExit(f"bench_fleet: no report within {timeout:g} s (exit {self.proc.poll()})")

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=300)


def run_case(api: Any, work: Path, size: int | None, messages: int, workers: int) -> dict[str, Any]:
    """One process (a fleet of `size`, or None: one agent alone), warmed, then fed `messages` at once."""
    name = "alone" if size is None else f"fleet {size}"
    case = work / name.replace(" ", "-")
    case.mkdir()
    env = child_env(api.base_url, work, case / "state")
    if size is None:
        env["KARAKURI_CHANNEL_IDS"] = "800000"
        argv, channels = [*console_script("karakuri-agent", "agent"), "listen", "--stdin"], ["800000"]
    else:
        env = {k: v for k, v in env.items() if k not in ("KARAKURI_API_KEY", "KARAKURI_SELF_AGENT_ID",
                                                          "KARAKURI_STATE_DIR")}
        argv = [*console_script("karakuri-agent", "agent"), "listen", "--fleet", str(write_fleet(case, size)),
                "--stdin", "--workers", str(workers)]
        channels = [str(800000 + i) for i in range(size)]
    nids = [f"notif-bench-{name.replace(' ', '')}-{i}" for i in range(messages + 1)]
    for nid in nids:
        api.notifications[nid] = notification(nid)
    resident = Resident(argv, env, case)
    try:
        resident.send(nids[0], channels[0])
        resident.reports(1)
        startup = time.perf_counter() - resident.started
        cpu_before, wall_before = cpu_seconds(resident.proc.pid), time.perf_counter()
        # Written from a thread while the reports are read: neither pipe fills up and stops the other.
        writer = threading.Thread(target=lambda: [resident.send(nid, channels[i % len(channels)])
                                                  for i, nid in enumerate(nids[1:])])
        writer.start()
        resident.reports(messages)
        writer.join()
        wall = time.perf_counter() - wall_before
        cpu = cpu_seconds(resident.proc.pid) - cpu_before
        rss = rss_mib(resident.proc.pid)
    finally:
        resident.close()
    return {"case": name, "agents": size or 1, "messages": messages, "startup_s": round(startup, 2),
            "cpu_ms_per_notification": round(cpu / messages * 1000, 2),
            "per_second_per_core": round(messages / cpu, 1) if cpu else None,
            "wall_s": round(wall, 2), "rss_mib": round(rss, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 100, 1000])
    parser.add_argument("--messages", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=8)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.sizes, args.messages = [1, 3], 6
    with running_api() as api, tempfile.TemporaryDirectory(prefix="bench-fleet-") as tmp:
        work = Path(tmp)
        rows = [run_case(api, work, None, args.messages, args.workers)]
        rows += [run_case(api, work, size, args.messages, args.workers) for size in args.sizes]
    alone = rows[0]
    one_fleet = next((r for r in rows if r["case"] == "fleet 1"), None)
    print(f"{'case':<12}{'start s':>9}{'cpu ms/notif':>14}{'x alone':>9}{'notif/s/core':>14}{'wall s':>8}"
          f"{'RSS MiB':>9}{'MiB/agent':>11}")
    for row in rows:
        ratio = row["cpu_ms_per_notification"] / alone["cpu_ms_per_notification"] \
            if alone["cpu_ms_per_notification"] else 0.0
        row["x_alone"] = round(ratio, 2)
        per_agent = ""
        if one_fleet is not None and row["agents"] > 1 and row["case"].startswith("fleet"):
            row["mib_per_added_agent"] = round((row["rss_mib"] - one_fleet["rss_mib"]) / (row["agents"] - 1), 3)
            per_agent = f"{row['mib_per_added_agent']:.3f}"
        print(f"{row['case']:<12}{row['startup_s']:>9.2f}{row['cpu_ms_per_notification']:>14.2f}{ratio:>9.2f}"
              f"{row['per_second_per_core'] or 0:>14.1f}{row['wall_s']:>8.2f}{row['rss_mib']:>9.1f}{per_agent:>11}")
    hundred = next((r for r in rows if r["case"] == "fleet 100"), None)
    if hundred is not None:
        print(f"aim: 100 agents at most {AIM_RATIO} x one agent's cost per notification: {hundred['x_alone']:.2f};"
              f" at most {AIM_MIB_PER_AGENT} MiB per added agent: {hundred.get('mib_per_added_agent')}")
    if args.smoke:
        smoke.require((all(r["cpu_ms_per_notification"] > 0 for r in rows), "a run handled no notification"))
        return
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(json.dumps({"when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
                                        "machine": platform.platform(), "cpus": os.cpu_count(),
                                        "workers": args.workers, "rows": rows}, ensure_ascii=False, indent=1) + "\n",
                            encoding="utf-8")


if __name__ == "__main__":
    main()
