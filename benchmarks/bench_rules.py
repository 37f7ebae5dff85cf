"""How long rule evaluation takes per notification: 200 pack rules plus the built-in ones (aim: under 1 ms).

Run from the repository root:

    .venv/bin/python benchmarks/bench_rules.py              # 200 rules, 2000 notifications
    .venv/bin/python benchmarks/bench_rules.py --rules 1000 --notifications 500
    .venv/bin/python benchmarks/bench_rules.py --smoke      # 30 rules, 60 notifications: seconds

The pack mixes every trigger and condition kind, with cooldowns, fire limits
and variables; most rules want to fire on some notifications and give way
(their command not offered, on cooldown, spent), so the selector walks far
down the list. Timed: the engine's own work per notification (the turn:
counting, day start, triggers, conditions, cooldowns, variable changes, and
the selector walking the rules), with the built-in rules stubbed so that the
number is the rules' cost, not the built-in decisions' (measured separately
by bench_steps.py). Printed: median and 99th percentile per notification.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from karakuri_agent.behaviour.engine import Facts, Turn  # noqa: E402
from karakuri_agent.behaviour.pack import parse_behaviour  # noqa: E402
from karakuri_agent.behaviour.selector import BuiltinRule, Selector  # noqa: E402
from testing import smoke  # noqa: E402

TOKYO = timezone(timedelta(hours=9))
TYPES = ["idle_reminder_fired", "movement_completed", "action_completed", "conversation_message",
         "conversation_requested", "transfer_offered"]
COMMANDS = ["wait", "move", "action", "get_map", "conversation_start", "use_item"]


def pack(count: int, rng: random.Random) -> dict:
    triggers = [
        lambda: {"type": "notification", "types": [rng.choice(TYPES), "*_completed"]},
        lambda: {"type": "time", "between": [f"{rng.randrange(24):02d}:00", f"{rng.randrange(24):02d}:30"]},
        lambda: {"type": "keyword", "keywords": ["お祭り", "雨", f"言葉{rng.randrange(50)}"]},
        lambda: {"type": "every", "notifications": rng.randint(2, 7)},
        lambda: {"type": "day_start"},
        lambda: {"type": "variable_crossed", "variable": "energy", "direction": "drops_below", "threshold": 40},
        lambda: {"type": "after_command", "command": rng.choice(COMMANDS)},
    ]
    rules = []
    for i in range(count):
        then = [{"type": "add", "path": "energy", "value": rng.randint(-5, 5)}]
        if rng.random() < 0.8:
            then.insert(0, {"type": "choose", "command": rng.choice(COMMANDS)})
        rules.append({
            "id": f"rule-{i}", "when": rng.choice(triggers)(), "then": then, "priority": rng.randint(11, 260),
            "conditions": [{"fact": "time", "operator": "gte", "value": "05:00"},
                           {"variable": "energy", "operator": "lt", "value": rng.randint(20, 100)},
                           {"fact": "nearby", "operator": "contains", "value": "桜草メイ"}][:rng.randint(0, 3)],
            "condition_logic": rng.choice(["all", "any"]),
            "cooldown": rng.choice([None, {"notifications": 3}, {"minutes": 30}]),
            "max_fires": rng.choice([None, None, 2, 5]),
        })
    return {"variables": {"energy": {"min": 0, "max": 100, "initial": 60, "max_delta": 10}}, "rules": rules}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", type=int, default=200)
    parser.add_argument("--notifications", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--smoke", action="store_true", help="30 rules, 60 notifications: does the path still run")
    args = parser.parse_args(argv)
    if args.smoke:
        args.rules, args.notifications = 30, 60
    rng = random.Random(args.seed)
    behaviour, problems = parse_behaviour(pack(args.rules, rng), builtin_ids=["daily-life"])
    assert not problems, problems[:3]
    builtins = [BuiltinRule("daily-life", 10, "the day", lambda view: ["wait"])]
    selector = Selector(builtins, behaviour)
    memory: dict = {}
    now = datetime(2026, 4, 18, 6, 0, tzinfo=TOKYO)
    samples, fired, gave_way = [], 0, 0
    for n in range(args.notifications):
        now += timedelta(minutes=rng.randint(3, 40))
        offered = tuple(rng.sample(COMMANDS, 3))
        facts = Facts(notification=rng.choice(TYPES), now=now, text=rng.choice(["雨が降りそう", "こんにちは"]),
                      nearby=("桜草メイ",) if rng.random() < 0.3 else (), offered=offered,
                      previous_command=rng.choice(COMMANDS))

        def choose(rule, action, phrases, offered=offered):
            return action.command if action.command in offered else f"not offered: {action.command}"

        started = time.perf_counter()
        turn = Turn.begin(behaviour, facts, memory)
        selection = selector.select(None, turn, choose, lambda c: c)
        memory = turn.memory()
        samples.append((time.perf_counter() - started) * 1000)
        fired += len(turn.fired)
        gave_way += len(selection.gave_way)
    samples.sort()
    print(f"{args.rules} pack rules + 1 built-in, {args.notifications} notifications: "
          f"median {statistics.median(samples):.3f} ms, mean {statistics.fmean(samples):.3f} ms, p99 {samples[int(len(samples) * 0.99)]:.3f} ms, "
          f"max {samples[-1]:.3f} ms per notification")
    print(f"rules fired {fired}, gave way {gave_way} (not offered, on cooldown, spent)")
    print(f"aim: under 1 ms per notification: {'holds' if statistics.median(samples) < 1 else 'does NOT hold'}")
    if args.smoke:
        smoke.require((fired > 0, "no rule fired"), (gave_way > 0, "no rule gave way: the selector never walked on"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
