"""What one notification writes to the SQLite state: statements, commits and fsyncs.

Run from the repository root:

    .venv/bin/python benchmarks/bench_commits.py [--notifications N]

Two counts, on copies of the same conversation request (the agent answers
it, so every step runs: fetch, learn, claim, command, record, report) served
by the loopback API (tests/loopback.py):

- statements: one Agent with a `Listener` in this process, every statement
  on its SQLite connection seen through `sqlite3`'s trace callback: writing
  statements, and commits (a COMMIT, or a writing statement outside
  BEGIN … COMMIT) with the `synchronous` setting each ran under (a commit
  under FULL fsyncs the write-ahead log, one under NORMAL does not);
- fsyncs: a real `karakuri-agent listen --stdin` under
  `strace -f -c -e trace=fsync,fdatasync` (when strace is installed), fed N
  messages and then none; the difference divided by N is the fsync count
  per notification, start-up and shutdown excluded.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from bench_listen import agent_argv, body, serve  # noqa: E402  (benchmarks/ is the script's directory)
from loopback import running_api  # noqa: E402
from processes import child_env  # noqa: E402

WRITES = ("INSERT", "UPDATE", "DELETE")


def count_statements(base_url: str, work: Path, notifications: int, prefix: str, api) -> Counter[str]:
    """Statements per kind over `notifications` messages through one in-process Listener."""
    from karakuri_agent.config import load_settings
    from karakuri_agent.cycle import Agent
    from karakuri_agent.listen.core import Listener, Message

    env = child_env(base_url, work, work / "state-in-process")
    counts: Counter[str] = Counter()
    synchronous, in_transaction = ["FULL"], [False]

    def seen(statement: str) -> None:
        words = statement.strip().upper().split()
        if not words:
            return
        if words[0] == "PRAGMA" and "SYNCHRONOUS" in statement.upper() and "=" in statement:
            synchronous[0] = statement.upper().rsplit("=", 1)[1].strip()
        elif words[0] in WRITES:
            counts["writing statements"] += 1
            if not in_transaction[0]:  # a statement outside BEGIN … COMMIT is its own transaction
                counts[f"commits under synchronous={synchronous[0]}"] += 1
        elif words[0] == "BEGIN":
            in_transaction[0] = True
        elif words[0] in ("COMMIT", "ROLLBACK"):
            in_transaction[0] = False
            counts[f"{words[0].lower()}s under synchronous={synchronous[0]}"] += 1
        elif words[0] in ("SAVEPOINT", "RELEASE"):
            counts[f"{words[0].lower()}s (nested, no commit)"] += 1

    ids = serve(api, prefix, notifications + 1)
    with Agent.open(load_settings(env)) as agent:
        listener = Listener(agent)
        listener.handle(Message(body(ids[0]), message_id="warm-up"))  # migrations and first-use writes
        agent.runtime.store._conn.set_trace_callback(seen)
        for i, nid in enumerate(ids[1:]):
            result = listener.handle(Message(body(nid), message_id=str(i)))
            if result is None or not result.sent:
                sys.exit(f"benchmark aborted: {nid} was not answered ({result and result.report})")
    return counts


def count_fsyncs(base_url: str, work: Path, messages: list[str]) -> int | None:
    """fsync + fdatasync calls of one `listen --stdin` process fed `messages` (None without strace)."""
    strace = shutil.which("strace")
    if strace is None:
        return None
    state = work / f"state-{len(messages)}"
    env = child_env(base_url, work, state)
    trace = work / f"strace-{len(messages)}.txt"
    lines = "".join(json.dumps({"content": m, "id": str(i)}, ensure_ascii=False) + "\n"
                    for i, m in enumerate(messages))
    subprocess.run([strace, "-f", "-c", "-e", "trace=fsync,fdatasync", "-o", str(trace), *agent_argv(),
                    "listen", "--stdin"], input=lines, env=env, cwd=work, capture_output=True, text=True, check=True)
    return sum(int(m.group(1)) for m in re.finditer(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?f(?:data)?sync$",
                                                     trace.read_text(), re.MULTILINE))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notifications", type=int, default=50)
    args = parser.parse_args()
    n = args.notifications
    work = Path(tempfile.mkdtemp(prefix="bench-commits-"))
    try:
        with running_api() as api:
            counts = count_statements(api.base_url, work, n, "notif-stmt", api)
            warm = body(serve(api, "notif-warm", 1)[0])
            with_messages = count_fsyncs(api.base_url, work, [warm] + [body(i) for i in serve(api, "notif-fs", n)])
            without = count_fsyncs(api.base_url, work, [body(serve(api, "notif-warm0", 1)[0])])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"per notification (mean of {n}):")
    for name, total in sorted(counts.items()):
        print(f"  {name}: {total / n:.2f}")
    if with_messages is None or without is None:
        print("  fsyncs: strace not installed, not counted")
    else:
        print(f"  fsync + fdatasync (strace, listen --stdin): {(with_messages - without) / n:.2f}")


if __name__ == "__main__":
    main()
