"""What one notification writes to the SQLite state: statements, commits and fsyncs.

Run from the repository root:

    .venv/bin/python benchmarks/bench_commits.py [--notifications N]
    .venv/bin/python benchmarks/bench_commits.py --smoke    # 3 notifications: seconds

Two counts, on copies of the same conversation request (the agent answers
it, so every step runs: fetch, learn, claim, command, record, report) served
by the loopback API (testing/loopback.py):

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
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench_listen import agent_argv, body, serve  # noqa: E402  (benchmarks/ is the script's directory)
from testing.loopback import LoopbackAPI, running_api  # noqa: E402
from testing.processes import child_env  # noqa: E402
from testing.sqltrace import Commits  # noqa: E402
from testing import smoke  # noqa: E402


def count_commits(base_url: str, work: Path, notifications: int, api: LoopbackAPI) -> Commits:
    """The commits (and writing statements) of `notifications` messages through one in-process Listener."""
    from karakuri_agent.app.config import load_settings
    from karakuri_agent.app.cycle import Agent
    from karakuri_agent.app.listen.listener import Listener, Message

    env = child_env(base_url, work, work / "state-in-process")
    ids = serve(api, "notif-counted", notifications + 1)
    with Agent.open(load_settings(env)) as agent:
        listener = Listener(agent)
        listener.handle(Message(body(ids[0]), message_id="warm-up"))  # migrations and first-use writes
        commits = Commits(agent.runtime.store._conn)
        for i, nid in enumerate(ids[1:]):
            result = listener.handle(Message(body(nid), message_id=str(i)))
            if result is None or not result.sent:
                sys.exit(f"benchmark aborted: {nid} was not answered ({result and result.report})")
    return commits


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
    parser.add_argument("--smoke", action="store_true", help="3 notifications: does the path still run")
    args = parser.parse_args()
    if args.smoke:
        args.notifications = 3
    n = args.notifications
    work = Path(tempfile.mkdtemp(prefix="bench-commits-"))
    try:
        with running_api() as api:
            commits = count_commits(api.base_url, work, n, api)
            fed = count_fsyncs(api.base_url, work, [body(i) for i in serve(api, "notif-fed", n + 1)])
            idle = count_fsyncs(api.base_url, work, [body(serve(api, "notif-alone", 1)[0])])
    finally:
        shutil.rmtree(work, ignore_errors=True)
    synced = len(commits.synced())
    print(f"per notification (mean of {n}, each answered with a command):")
    print(f"  writing statements: {commits.writes / n:.2f}")
    print(f"  commits: {len(commits.seen) / n:.2f} ({synced / n:.2f} under synchronous=FULL,"
          f" {(len(commits.seen) - synced) / n:.2f} under NORMAL)")
    if fed is None or idle is None:
        print(f"  fsync + fdatasync: {smoke.SKIPPED}strace not installed, not counted")
    else:
        print(f"  fsync + fdatasync (strace, listen --stdin): {(fed - idle) / n:.2f}")
    if args.smoke:
        smoke.require((commits.writes > 0 and bool(commits.seen), "no statement written or committed"),
                      (fed is None or fed > 0, "no fsync seen under strace"))


if __name__ == "__main__":
    main()
