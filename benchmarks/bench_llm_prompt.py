"""What a model decider costs: prompt size per notification type, and time added.

Run from the repository root:

    .venv/bin/python benchmarks/bench_llm_prompt.py [--runs 5]
    .venv/bin/python benchmarks/bench_llm_prompt.py --smoke   # 1 run, the model answering at once: seconds

1. Prompt size. The bundled recorded session (`karakuri-agent demo`) is replayed through the
real cycle in a throwaway state directory, with a decider that builds the
prompt the model would be sent for each notification (persona, guidance,
context, choices, the rules' default) and then lets the rules decide, so no
model is needed and the state grows as in a real run. A repair prompt (the
second ask) is measured too, with a typical short answer and one problem.

Tokens are estimated, since tokenizers differ by model: one token per
non-ASCII character (Japanese text is about one token a character in common
tokenizers, often less) plus one per four ASCII characters.

2. Time added. `LLMDecider.propose` on one conversation request against the
loopback model of testing/llm_server.py answering after 1 s, through the real
openai client, compared with the rules alone: a good first answer (one ask)
and an unreadable one (asked twice, then the rules). The first call, which
imports openai, is reported on its own.

Results are saved to benchmarks/results/bench_llm_prompt.json (gitignored),
except by a smoke run, which fails when no prompt was built or the good
answer was not taken (or the unreadable one was).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from karakuri_agent.app.config import load_settings  # noqa: E402
from karakuri_agent.app.cycle import handle  # noqa: E402
from karakuri_agent.app.fixtures import bundled_fixtures_dir  # noqa: E402
from karakuri_agent.llm.prompt import build_messages, persona_card  # noqa: E402
from karakuri_agent.secret import Secret  # noqa: E402
from karakuri_agent.memory.context import Identity  # noqa: E402
from karakuri_agent.llm.decider import LLMDecider  # noqa: E402
from karakuri_agent.llm.settings import LLMSettings  # noqa: E402
from karakuri_agent.domain.notification import Notification  # noqa: E402
from karakuri_agent.decide.rules import RulePolicy  # noqa: E402
from karakuri_agent.domain.decision import Decision
from karakuri_agent.decide.deciders import Proposal
from karakuri_agent.domain.records import Line, Parsed
from karakuri_agent.mind.view import View
from karakuri_agent.voice.persona_pack import load_persona  # noqa: E402
from testing.samples import CONVERSATION_REQUEST, SELF_ID, SELF_NAME  # noqa: E402
from testing.llm_server import running_model  # noqa: E402
from testing import smoke  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_llm_prompt.json"
TYPICAL_ANSWER = '{"command": "move", "params": {"target_node_id": "7-11"}, "reason": "気分転換に外へ出る"}'
TYPICAL_PROBLEM = ["move is not one of the offered choices"]
MODEL_DELAY = 1.0
GOOD_ANSWER = '{"command": "conversation_reject", "params": {}, "reason": "いまは手が離せない"}'


def approx_tokens(text: str) -> int:
    ascii_chars = sum(1 for ch in text if ord(ch) < 128)
    return (len(text) - ascii_chars) + (ascii_chars + 3) // 4


def prompt_size(messages: list[dict[str, str]]) -> tuple[int, int]:
    text = "".join(m["content"] for m in messages)
    return len(text), approx_tokens(text)


class PromptMeter:
    """A decider that measures the prompt a model would get, then lets the rules decide."""

    def __init__(self) -> None:
        self.rules = RulePolicy()
        self.samples: dict[str, list[dict[str, int]]] = defaultdict(list)

    def propose(self, view: View) -> Proposal:
        decisions = self.rules.propose(view)
        if view.choices:
            card = persona_card(view.persona)
            default = next((d for d in decisions.candidates if d.acts), None)
            chars, tokens = prompt_size(build_messages(card, view, default))
            _, repair = prompt_size(build_messages(card, view, default, repair=(TYPICAL_ANSWER, TYPICAL_PROBLEM)))
            kind = view.parsed.notification_type or "(untyped)"
            self.samples[kind].append({"chars": chars, "tokens": tokens, "repair_tokens": repair})
        return decisions


def replay(meter: PromptMeter) -> None:
    fixtures = bundled_fixtures_dir()
    session = json.loads((fixtures / "session.json").read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="karakuri-bench-llm-") as state:
        settings = load_settings(
            {"KARAKURI_STATE_DIR": state, "KARAKURI_SELF_AGENT_ID": session["self"]["id"],
             "KARAKURI_SELF_NAME": session["self"]["name"]},
            env_file=Path(state) / ".env", fixtures_dir=fixtures)
        for entry in session["messages"]:
            at = datetime.fromisoformat(entry["at"].replace("Z", "+00:00"))
            handle(entry["message"], settings, decider=meter, clock=lambda at=at: at, post=False)


def offered(_view: View, decision: Decision) -> list[str]:
    """The part of the gate that matters here: the command is one of the choices."""
    return [] if any(c.command == decision.command for c in _view.choices) else ["not offered"]


def request_view() -> View:
    notification = Notification.from_json(CONVERSATION_REQUEST, requested_id=CONVERSATION_REQUEST["notification_id"])
    return View(notification_id=notification.notification_id, choices=notification.choices,
                parsed=Parsed(notification_type="conversation_requested",
                              conversation_messages=[Line("桜草メイ", "こんにちは！")]),
                me=Identity(SELF_ID, SELF_NAME), now=datetime.now().astimezone(),
                persona=load_persona())


def time_added(runs: int, delay: float = MODEL_DELAY) -> dict[str, Any]:
    """Milliseconds per propose: rules alone, a good answer, an unreadable one; and who decided each."""
    view = request_view()
    rules = RulePolicy()

    def timed(decide: Any) -> float:
        started = time.perf_counter()
        decide.propose(view)
        return (time.perf_counter() - started) * 1000

    result: dict[str, Any] = {"rules_ms": statistics.median(timed(rules) for _ in range(runs))}
    for case, script in (("good_answer", [GOOD_ANSWER] * (runs + 1)), ("unreadable_twice", ["hmm"] * 2 * (runs + 1))):
        with running_model(script, delay=delay) as server:
            settings = LLMSettings(base_url=server.base_url, model="bench", api_key=Secret("bench"), timeout=20)
            decider = LLMDecider(settings, rules, gate=offered)
            first = timed(decider)
            if case == "good_answer":
                result["first_call_ms"] = first  # includes importing openai
            result[f"{case}_ms"] = statistics.median(timed(decider) for _ in range(runs))
            result[f"{case}_outcome"] = decider.last_trace.outcome if decider.last_trace else None
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--smoke", action="store_true",
                        help="1 run, the model answering at once, nothing saved: does the path still run")
    args = parser.parse_args()
    runs, delay = (1, 0.0) if args.smoke else (args.runs, MODEL_DELAY)
    meter = PromptMeter()
    replay(meter)
    rows: dict[str, Any] = {}
    print(f"{'notification type':<28}{'n':>3}{'chars':>8}{'tokens':>8}{'max':>7}{'repair':>8}")
    for kind, samples in sorted(meter.samples.items()):
        tokens = [s["tokens"] for s in samples]
        rows[kind] = {
            "n": len(samples),
            "median_chars": statistics.median(s["chars"] for s in samples),
            "median_tokens": statistics.median(tokens),
            "max_tokens": max(tokens),
            "median_repair_tokens": statistics.median(s["repair_tokens"] for s in samples),
        }
        row = rows[kind]
        print(f"{kind:<28}{row['n']:>3}{row['median_chars']:>8.0f}{row['median_tokens']:>8.0f}"
              f"{row['max_tokens']:>7}{row['median_repair_tokens']:>8.0f}")
    every = [s["tokens"] for samples in meter.samples.values() for s in samples]
    print(f"all: {len(every)} prompts, median {statistics.median(every):.0f} tokens, max {max(every)}")
    timing = time_added(runs, delay)
    print(f"\ndecide, model answering in {delay:g} s (median of {runs}): rules alone {timing['rules_ms']:.1f} ms,"
          f" good answer {timing['good_answer_ms']:.0f} ms, unreadable twice {timing['unreadable_twice_ms']:.0f} ms;"
          f" first call (imports openai) {timing['first_call_ms']:.0f} ms")
    if args.smoke:
        smoke.require((timing["good_answer_outcome"] == "model",
                       f"the good answer ended as {timing['good_answer_outcome']!r}, not 'model'"),
                      (timing["unreadable_twice_outcome"] == "rules",
                       f"the unreadable answer ended as {timing['unreadable_twice_outcome']!r}, not 'rules'"))
        return
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(json.dumps({"by_type": rows, "time_added": timing, "samples": meter.samples},
                                       ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
