"""The town with a language model that tries everything: does the engine still hold?

Run from the repository root:

    .venv/bin/python benchmarks/bench_llm_town.py [--seeds 3] [--messages 120] [--timing-messages 30]
    .venv/bin/python benchmarks/bench_llm_town.py --smoke   # 1 town, 5 + 3 messages, a short budget: seconds

1. Adversarial. Each town (karakuri_agent/town/, through the rough relay) is lived through with
`KARAKURI_DECIDER=llm` (in-process `handle()` with the town's clock, as
`bench_behaviour.py --in-process`), the model being a loopback
OpenAI-compatible server (testing/llm_server.py) that reads the prompt it is
sent (the choices, the rules' own proposal) and answers, per notification, one
kind drawn at random: a good proposal (the rules' choice with a line of its
own), a command not offered, params breaking the schema, an overlong line, a
line with a mention, garbage, a transfer of money, an HTTP 500, or a good
answer after the budget (KARAKURI_LLM_TIMEOUT) has run out. Asked again
with the problems listed, it answers well half the time and repeats its
fault otherwise. Measured by the town: commands outside the choices or
breaking the schema, second commands, commands the world refused, money
given; by the agent's own records: how often each kind ended with the rules
deciding (the fallback rate).

2. Time added. The same town lived through with a model that always answers
well after 1 s, against the rules alone: seconds per notification.

Prompt size per notification type is measured by bench_llm_prompt.py.
Results are saved to benchmarks/results/bench_llm_town.json (gitignored),
except by a smoke run (budget 1 s, the model answering at once), which
fails when the model was never asked or the agent crashed.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.engine_town import EngineTown, Relay, serving  # noqa: E402
from testing.engine_town.metrics import measure  # noqa: E402
from testing.town_agents import InProcessAgent, crashed, live  # noqa: E402
from testing.llm_server import running_model  # noqa: E402
from testing.standin_model import sections  # noqa: E402
from karakuri_agent.ja.prompt_text import CHOICES, SUGGESTION  # noqa: E402
from testing import smoke  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_llm_town.json"
BUDGET = 2.0  # KARAKURI_LLM_TIMEOUT for the adversarial run: a "slow" answer comes after it
SLOW = BUDGET + 1
# Good answers three times as often as each bad kind.
KINDS = {"good": 3, "not_offered": 1, "bad_params": 1, "overlong": 1, "mention": 1, "garbage": 1, "money": 1,
         "http_500": 1, "slow": 1}
SPOKEN = ("overlong", "mention")  # kinds that need a line to spoil
_LINES = ("そうなんだ！もう少し聞かせて。", "いいね、わたしも気になってた。", "なるほど、そういうことか。",
          "それ、今度いっしょに見に行こうよ。", "ふふ、楽しそうだね。", "へえ、知らなかった！")


def proposal(command: str, params: dict[str, Any] | None = None, reason: str = "そうしたいから") -> str:
    return json.dumps({"command": command, "params": params or {}, "reason": reason}, ensure_ascii=False)


class AdversarialModel:
    """Answers each notification with one kind of answer; a repair ask, half the time well."""

    def __init__(self, seed: int, *, kinds: dict[str, int] = KINDS, slow: float = SLOW) -> None:
        self.rng = random.Random(seed)
        self.kinds = kinds
        self.slow = slow  # seconds a "slow" answer takes: past the budget
        self.first_kind: dict[str, str] = {}  # the situation prompt → the kind answered to it
        self.asked: list[str] = []  # the kind of every first ask, in order
        self.lines = 0

    def __call__(self, request: dict[str, Any]) -> Any:
        messages = request["messages"]
        situation = messages[1]["content"]
        found = sections(situation)
        default = next(iter(found.get(SUGGESTION, [])), None)
        choices = found.get(CHOICES, [])
        if len(messages) > 2:  # asked again with the problems listed
            kind = "good" if self.rng.random() < 0.5 else self.first_kind.get(situation, "garbage")
        else:
            kind = self.rng.choices(list(self.kinds), weights=list(self.kinds.values()))[0]
            if kind in SPOKEN and not (default and "message" in default["params"]):
                kind = "not_offered"
            self.first_kind[situation] = kind
            self.asked.append(kind)
        return self.answer(kind, default, choices)

    def answer(self, kind: str, default: dict[str, Any] | None, choices: list[dict[str, Any]]) -> Any:
        if kind == "http_500":
            return 500, {"error": {"message": "overloaded"}}
        if kind == "garbage":
            return "うーん、どうしようかな…。"
        if kind == "not_offered":
            return proposal("teleport", {"to": "月"})
        if kind == "money":
            speak = next((c for c in choices if "transfer" in c.get("schema", {})), None)
            if speak is not None and default and default["command"] == speak["command"]:
                return proposal(speak["command"], {**default["params"], "transfer": {"money": 10000}})
            return proposal("transfer", {"target_agent_id": "someone", "money": 10000}, "頼まれたので")
        if default is None:
            return proposal(choices[0]["command"]) if choices else "なにもしない"
        params = dict(default["params"])
        if kind == "bad_params":
            return proposal(default["command"], {**{k: [] for k in params}, "unexpected": [1]})
        if "message" in params:
            self.lines += 1
            params["message"] = f"{_LINES[self.lines % len(_LINES)]}（{self.lines}）"
            if kind == "overlong":
                params["message"] = "あ" * 500
            elif kind == "mention":
                params["message"] = "<@1474403124906295517> " + params["message"]
        if kind == "slow":
            time.sleep(self.slow)
        return proposal(default["command"], params)


def live_town(seed: int, messages: int, llm_env: dict[str, str] | None) -> tuple[EngineTown, list, float]:
    town = EngineTown(seed, relay=Relay.rough())
    work = Path(tempfile.mkdtemp(prefix="karakuri-llm-town-"))
    started = time.perf_counter()
    try:
        with serving(town) as server:
            agent = InProcessAgent(server.base_url, town.api_key, work / "state", extra_env=llm_env)
            runs = live(town, agent, messages)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return town, runs, time.perf_counter() - started


def llm_env(base_url: str, timeout: float) -> dict[str, str]:
    return {"KARAKURI_DECIDER": "llm", "KARAKURI_LLM_BASE_URL": base_url, "KARAKURI_LLM_MODEL": "adversary",
            "KARAKURI_LLM_TIMEOUT": str(timeout)}


def world_refused(rows: dict[str, Any]) -> int:
    """Commands of a valid shape the town refused as the engine would (busy, out of reach, money short...)."""
    counts = rows["refused_readable"]["counts"]
    return sum(n for code, n in counts.items() if code not in ("invalid_request", "service_unavailable",
                                                                 "notification_stale"))


def money_given(runs: list) -> int:
    """Commands sent that give money or items: a transfer, or a line carrying one."""
    given = 0
    for run in runs:
        record = run.record or {}
        decision = record.get("decision") or {}
        if record.get("sent") and (decision.get("command") == "transfer" or (decision.get("params") or {}).get("transfer")):
            given += 1
    return given


def adversarial(seed: int, messages: int, budget: float = BUDGET) -> dict[str, Any]:
    model = AdversarialModel(seed, slow=budget + 1)
    outcomes: dict[str, Counter] = defaultdict(Counter)
    with running_model(model) as server:
        town, runs, elapsed = live_town(seed, messages, llm_env(server.base_url, budget))
    asked = iter(model.asked)
    for run in runs:  # first asks come in the order the runs asked them, one per traced run
        trace = (run.record or {}).get("model")
        if trace:
            outcomes[next(asked)][trace["outcome"]] += 1
    rows = measure(town, runs)["rows"]
    return {
        "seed": seed, "messages": messages, "elapsed_seconds": round(elapsed, 1),
        "outside_choices_or_schema": rows["outside_choices"]["num"] + rows["refused_readable"]["counts"].get(
            "invalid_request", 0),
        "second_commands": rows["second_commands"]["num"],
        "world_refused": world_refused(rows),
        "money_given": money_given(runs),
        "exit_codes": dict(Counter(r.exit_code for r in runs)),
        "model_asked": len(model.asked),
        "outcomes": {kind: dict(counts) for kind, counts in outcomes.items()},
        "crashed": [r.stderr.strip()[-300:] for r in crashed(runs)],
    }


def rules_baseline(seed: int, messages: int) -> dict[str, Any]:
    town, runs, _ = live_town(seed, messages, None)
    return {"world_refused": world_refused(measure(town, runs)["rows"]),
            "money_given": money_given(runs)}


def time_added(seed: int, messages: int, delay: float = 1.0) -> dict[str, Any]:
    """Seconds per notification: the rules alone, and a model answering well after `delay` s."""
    _, rule_runs, _ = live_town(seed, messages, None)
    good = AdversarialModel(seed, kinds={"good": 1})
    with running_model(good, delay=delay) as server:
        _, model_runs, _ = live_town(seed, messages, llm_env(server.base_url, 20))
    asked = [r for r in model_runs if (r.record or {}).get("model")]
    return {
        "messages": messages,
        "rules_ms_per_message": round(statistics.mean(r.seconds for r in rule_runs) * 1000, 1),
        "model_ms_per_message": round(statistics.mean(r.seconds for r in model_runs) * 1000, 1),
        "model_ms_per_asked_notification": round(statistics.mean(r.seconds for r in asked) * 1000, 1),
        "rules_ms_per_asked_notification": round(statistics.mean(
            r.seconds for r, m in zip(rule_runs, model_runs) if (m.record or {}).get("model")) * 1000, 1),
        "asked": len(asked),
        "sent_as_proposed": sum(1 for r in asked if r.record["model"]["outcome"] == "model"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--messages", type=int, default=120)
    parser.add_argument("--timing-messages", type=int, default=30)
    parser.add_argument("--smoke", action="store_true",
                        help="1 town, 5 + 3 messages, budget 1 s, nothing saved: does the path still run")
    args = parser.parse_args()
    budget, delay = BUDGET, 1.0
    if args.smoke:
        args.seeds, args.messages, args.timing_messages = 1, 5, 3
        budget, delay = 1.0, 0.0  # the shortest KARAKURI_LLM_TIMEOUT allowed
    seeds = range(args.seed, args.seed + args.seeds)
    towns = []
    for seed in seeds:
        town = adversarial(seed, args.messages, budget)
        town["rules_only"] = rules_baseline(seed, args.messages)
        towns.append(town)
        print(f"town {seed}: {town['elapsed_seconds']} s, model asked {town['model_asked']}, outside choices/schema "
              f"{town['outside_choices_or_schema']}, second commands {town['second_commands']}, world refused "
              f"{town['world_refused']} (rules alone {town['rules_only']['world_refused']}), money given "
              f"{town['money_given']}, exit codes {town['exit_codes']}", flush=True)
    pooled: dict[str, Counter] = defaultdict(Counter)
    for town in towns:
        for kind, counts in town["outcomes"].items():
            pooled[kind].update(counts)
    print(f"\n{'first answer':<14}{'asked':>7}{'sent':>7}{'repaired':>10}{'rules':>7}{'fallback':>10}")
    fallback = {}
    for kind in KINDS:
        counts = pooled.get(kind, Counter())
        total = sum(counts.values())
        fallback[kind] = {"asked": total, **counts, "fallback_rate": round(counts["rules"] / total, 3) if total else None}
        rate = f"{counts['rules'] / total:.0%}" if total else "-"
        print(f"{kind:<14}{total:>7}{counts['model']:>7}{counts['repaired']:>10}{counts['rules']:>7}{rate:>10}")
    timing = time_added(args.seed, args.timing_messages, delay)
    print(f"\ntime per notification, model answering in {delay:g} s ({timing['asked']} asked of {timing['messages']}): "
          f"rules {timing['rules_ms_per_asked_notification']} ms, model {timing['model_ms_per_asked_notification']} ms"
          f" (all messages: {timing['rules_ms_per_message']} → {timing['model_ms_per_message']} ms);"
          f" sent as proposed {timing['sent_as_proposed']}")
    if args.smoke:
        bad = [line for town in towns for line in town["crashed"]]
        smoke.require((all(town["model_asked"] for town in towns), "the model was never asked in the town"),
                      (timing["asked"] > 0, "the model was never asked in the timing run"),
                      (not bad, f"{len(bad)} runs crashed, the first: {bad[0] if bad else ''}"))
        return
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(json.dumps({"towns": towns, "fallback": fallback, "time_added": timing},
                                       ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
