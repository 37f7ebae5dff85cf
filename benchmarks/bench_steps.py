"""Where the time of one `karakuri-agent handle` goes: imports, and each step of the cycle.

Run from the repository root:

    .venv/bin/python benchmarks/bench_steps.py [--runs 30]
    .venv/bin/python benchmarks/bench_steps.py --smoke    # 1 run, no warm-up, nothing saved: seconds

Three measurements, all against the loopback API of testing/loopback.py:

1. import time: whole processes `python -c pass`, `python -c "import
   karakuri_agent.app.cli"` and `python -c "import karakuri_agent.app.cycle"` (the
   modules a `handle` run needs), median of --runs each;
2. the steps of `cycle.handle()` in process: the real `handle()` runs
   unchanged while this script wraps the functions each step calls with a
   timer (open, fetch, context, decide, claim+POST, record, report); "other"
   is the rest of handle() (closing the runtime, glue);
3. `karakuri-agent handle BODY` end to end as a whole process.

Aims: the decision itself < 5 ms median; a whole `handle` process ≤ 150 ms
median. Results are saved to benchmarks/results/bench_steps.json (gitignored),
except by a smoke run, which fails when a step's timer never ran (the
function it wraps is no longer what handle() calls).
"""

from __future__ import annotations

import argparse
import copy
import functools
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.samples import API_KEY, CONVERSATION_REQUEST, IDLE_REMINDER, SELF_ID, SELF_NAME  # noqa: E402
from testing.loopback import running_api  # noqa: E402
from testing.processes import child_env, console_script, import_costs, measure  # noqa: E402
from testing import smoke  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_steps.json"
DECIDE_AIM_MS = 5.0
PROCESS_AIM_MS = 150.0
WARMUP = 3
STEPS = ("open", "fetch", "context", "decide", "claim+POST", "record", "report")

KINDS = {"conversation_requested": CONVERSATION_REQUEST, "idle_reminder_fired": IDLE_REMINDER}


# -- the steps, timed by wrapping what handle() calls -----------------------------------------
class StepTimer:
    def __init__(self) -> None:
        self.current: dict[str, float] = defaultdict(float)

    def wrap(self, owner: Any, name: str, step: str) -> None:
        original = getattr(owner, name)
        timer = self

        @functools.wraps(original)
        def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                timer.current[step] += (time.perf_counter() - start) * 1000

        setattr(owner, name, timed)

    def take(self) -> dict[str, float]:
        taken, self.current = dict(self.current), defaultdict(float)
        return taken


def instrument() -> StepTimer:
    from karakuri_agent.app import client
    from karakuri_agent.app import cycle
    from karakuri_agent.app import operations
    from karakuri_agent.decide import rules as policy
    from karakuri_agent.report import line as report
    from karakuri_agent.state.sqlite import ledger
    from karakuri_agent.state.sqlite import backend as sqlite_state
    from karakuri_agent.domain.notification import Notification

    timer = StepTimer()
    timer.wrap(sqlite_state, "connect", "open")  # SQLite open (+ migration check)
    timer.wrap(client.KarakuriClient, "__init__", "open")  # httpx client (SSL context)
    timer.wrap(client.KarakuriClient, "get_notification", "fetch")  # the GET
    from_json = Notification.from_json.__func__
    Notification.from_json = classmethod(_timed(from_json, timer, "context"))  # type: ignore[method-assign]
    for name in ("identity_for", "observe", "remember"):
        timer.wrap(operations, name, "context")
    timer.wrap(cycle, "view_of", "context")
    timer.wrap(policy.RulePolicy, "propose", "decide")
    timer.wrap(cycle, "first_admitted", "decide")  # the gate on the proposals
    timer.wrap(ledger.Ledger, "claim", "claim+POST")
    timer.wrap(client.KarakuriClient, "send_command", "claim+POST")
    timer.wrap(ledger.Ledger, "finish", "record")
    timer.wrap(operations, "record_outcome", "record")
    for name in ("action_report", "idle_report", "planned_report"):
        timer.wrap(report, name, "report")
    return timer


def _timed(func: Callable[..., Any], timer: StepTimer, step: str) -> Callable[..., Any]:
    @functools.wraps(func)
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            timer.current[step] += (time.perf_counter() - start) * 1000

    return timed


def steps_in_process(api: Any, runs: int, work: Path, warmup: int = WARMUP) -> dict[str, dict[str, float]]:
    from karakuri_agent.app import cycle
    from karakuri_agent.app.config import Settings
    from karakuri_agent.secret import Secret

    timer = instrument()
    settings = Settings(api_base_url=api.base_url, api_key=Secret(API_KEY), state_dir=work / "state-steps",
                        self_agent_id=SELF_ID, self_name=SELF_NAME)
    out: dict[str, dict[str, float]] = {}
    for kind in KINDS:
        samples: dict[str, list[float]] = defaultdict(list)
        for i in range(-warmup, runs):
            nid = f"notif-steps-{kind[:4]}-{i + warmup}"
            message = f"通知があります。notification_id: {nid}"
            timer.take()
            start = time.perf_counter()
            result = cycle.handle(message, settings)
            total = (time.perf_counter() - start) * 1000
            if not result.sent:
                sys.exit(f"benchmark aborted: {kind} did not act: {result.report}")
            taken = timer.take()
            if i < 0:
                continue
            for step in STEPS:
                samples[step].append(taken.get(step, 0.0))
            samples["other"].append(total - sum(taken.values()))
            samples["handle() total"].append(total)
        out[kind] = {step: statistics.median(values) for step, values in samples.items()}
    return out


def register(api: Any, prefix: str, count: int, body: dict[str, Any]) -> None:
    for i in range(count):
        copy_ = copy.deepcopy(body)
        copy_["notification_id"] = f"{prefix}-{i}"
        api.notifications[copy_["notification_id"]] = copy_


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--smoke", action="store_true", help="1 run, no warm-up: does the path still run")
    args = parser.parse_args()
    warmup = WARMUP
    if args.smoke:
        args.runs, warmup = 1, 0
    agent_argv = console_script("karakuri-agent", "agent")

    with running_api() as api, tempfile.TemporaryDirectory(prefix="karakuri-steps-") as tmp:
        work = Path(tmp)
        env = child_env(api.base_url, work, work / "state-process")
        for kind, body in KINDS.items():
            register(api, f"notif-steps-{kind[:4]}", args.runs + warmup, body)
            register(api, f"notif-proc-{kind[:4]}", args.runs + warmup, body)

        warm = 0 if args.smoke else 2  # untimed processes before each import case
        imports = {
            "python -c pass": measure(lambda i: [sys.executable, "-c", "pass"], args.runs, env, work, warm),
            "import karakuri_agent.app.cli": measure(
                lambda i: [sys.executable, "-c", "import karakuri_agent.app.cli"], args.runs, env, work, warm),
            "import karakuri_agent.app.cycle": measure(
                lambda i: [sys.executable, "-c", "import karakuri_agent.app.cycle"], args.runs, env, work, warm),
            "import karakuri_agent.app.cli, .cycle": measure(
                lambda i: [sys.executable, "-c", "import karakuri_agent.app.cli, karakuri_agent.app.cycle"], args.runs, env,
                work, warm),
        }
        whole = {
            kind: measure(lambda i, k=kind: [*agent_argv, "handle", f"notification_id: notif-proc-{k[:4]}-{i}"],
                          args.runs, env, work, warmup)
            for kind in KINDS
        }
        top_imports = import_costs("import karakuri_agent.app.cli, karakuri_agent.app.cycle", env, work, top=12)
        steps = steps_in_process(api, args.runs, work, warmup)
        expected_posts = len(KINDS) * (2 * args.runs + 2 * warmup)
        if len(api.posts) != expected_posts:
            sys.exit(f"benchmark aborted: expected {expected_posts} POSTs, saw {len(api.posts)}")

    print(f"{'process (import time)':36} {'median_ms':>9}")
    for name, samples in imports.items():
        print(f"{name:36} {statistics.median(samples):9.1f}")

    print("\ntop cumulative import costs (python -X importtime -c 'import karakuri_agent.app.cli, karakuri_agent.app.cycle')")
    for row in top_imports:
        print(f"  {row['module']:34} self {row['self_ms']:6.1f}  cumulative {row['cumulative_ms']:6.1f} ms")

    print(f"\n{'handle() step, in process (median ms)':40}" + "".join(f"{k[:22]:>24}" for k in steps))
    for step in (*STEPS, "other", "handle() total"):
        print(f"{step:40}" + "".join(f"{steps[k][step]:24.2f}" for k in steps))

    print(f"\n{'karakuri-agent handle, whole process':40} {'median_ms':>9}")
    for kind, samples in whole.items():
        print(f"{kind:40} {statistics.median(samples):9.1f}")

    decide = max(s["decide"] for s in steps.values())
    process = max(statistics.median(v) for v in whole.values())
    print(f"\naim: decision < {DECIDE_AIM_MS:g} ms median: {'holds' if decide < DECIDE_AIM_MS else 'does NOT hold'}"
          f" (worst {decide:.2f} ms)")
    print(f"aim: handle process ≤ {PROCESS_AIM_MS:g} ms median: "
          f"{'holds' if process <= PROCESS_AIM_MS else 'does NOT hold'} (worst {process:.1f} ms)")
    if args.smoke:
        unseen = [f"{kind} {step}" for kind, timed in steps.items() for step in STEPS if not timed.get(step)]
        smoke.require((not unseen, f"steps never timed (what they wrap is not called): {', '.join(unseen)}"))
        return

    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(json.dumps({
        "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "python": platform.python_version(), "platform": platform.platform(), "cpu_count": os.cpu_count(),
        "runs": args.runs,
        "imports_ms": {k: {"median": statistics.median(v), "samples": v} for k, v in imports.items()},
        "top_imports": top_imports,
        "steps_median_ms": steps,
        "process_ms": {k: {"median": statistics.median(v), "samples": v} for k, v in whole.items()},
    }, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nsaved {RESULTS_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
