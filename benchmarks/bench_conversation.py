"""Does the agent answer what was said to it? Partners' lines of twelve kinds, judged from the outside.

Run from the repository root:

    .venv/bin/python benchmarks/bench_conversation.py                 # 8 seeds (1..8), 3 lines of each kind per seed
    .venv/bin/python benchmarks/bench_conversation.py --seeds 20 --seed 100 --per-kind 5 -v
    .venv/bin/python benchmarks/bench_conversation.py --smoke         # 1 seed, 1 line per kind, nothing saved: seconds
    .venv/bin/python benchmarks/bench_conversation.py --mode handle   # one `handle` process per message
    .venv/bin/python benchmarks/bench_conversation.py --decider stand-in   # the model path, a loopback stand-in
    KARAKURI_LLM_BASE_URL=http://127.0.0.1:8080/v1 KARAKURI_LLM_MODEL=qwen2.5:7b \
        .venv/bin/python benchmarks/bench_conversation.py --decider llm    # the model path, a real model

`--decider llm` and `--decider stand-in` run the agent with KARAKURI_DECIDER=llm
and, unless `--no-baseline`, the rules on the same seeds, printed side by
side. `llm` asks the OpenAI-compatible server the environment names
(KARAKURI_LLM_BASE_URL and KARAKURI_LLM_MODEL, required; KARAKURI_LLM_API_KEY,
KARAKURI_LLM_TIMEOUT, KARAKURI_LLM_MAX_TOKENS, KARAKURI_LLM_TEMPERATURE if
set), the agent's own settings; `stand-in` starts testing/standin_model.py on
loopback, a deterministic model that can only say back what the prompt's
understanding tells it.

Per seed (testing/conversation/runner.py): a fresh state, the installed
`karakuri-agent listen --stdin` (or `handle`), a loopback API serving
notifications in the real engine's texts; first the agent's morning
(arrivals and completed actions), then talks in which partners say lines
from testing/conversation/lines.json. Each reply is judged by
testing/conversation/judge.py, which imports nothing of the package.

Printed: per kind, the share of replies that answer the line, pooled and
as min / median / max over seeds; the replies with a stock sentence glued
on; the hard faults (each must be 0); and the memory share (what partners
told on day 1 brought back on later days, testing/conversation/memory.py).
Everything, with every reply and verdict, is saved to
benchmarks/results/bench_conversation.json (gitignored); a smoke run saves
only with --output, and fails when the path broke (an agent error, a seed
with no reply judged, nothing told in the memory check).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.conversation.judge import judge  # noqa: E402
from testing.conversation.measure import judged_seed, memory_seed, pooled_memory, summarise  # noqa: E402
from testing.conversation.runner import KINDS  # noqa: E402
from testing import smoke  # noqa: E402

RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_conversation.json"
AIM = 0.9
# The agent's model settings `--decider llm` takes from the environment (the first two required).
MODEL_SETTINGS = ("KARAKURI_LLM_BASE_URL", "KARAKURI_LLM_MODEL", "KARAKURI_LLM_API_KEY", "KARAKURI_LLM_TIMEOUT",
                  "KARAKURI_LLM_MAX_TOKENS", "KARAKURI_LLM_TEMPERATURE")


def pct(value: float | None) -> str:
    return "   -" if value is None else f"{value * 100:4.0f}"


def print_summary(summary: dict[str, Any], memory: dict[str, Any] | None, seeds: int) -> None:
    print(f"\n{'kind':<16}{'answered':>12}{'pooled %':>10}   min / median / max % over {seeds} seeds")
    for kind, row in summary["per_kind"].items():
        print(f"{kind:<16}{row['answered']:>6} / {row['lines']:<4}{pct(row['share']):>9}    "
              f"{pct(row['min'])} / {pct(row['median'])} / {pct(row['max'])}")
    total, answered = summary["lines"], summary["answered"]
    spread = summary["overall_spread"] or [None, None, None]
    print(f"{'all':<16}{answered:>6} / {total:<4}{pct(answered / total if total else None):>9}    "
          f"{pct(spread[0])} / {pct(spread[1])} / {pct(spread[2])}")
    print(f"\na stock sentence glued to an otherwise fitting answer: {summary['glued']} replies")
    print("hard faults (each must be 0):", json.dumps(summary["violations"], ensure_ascii=False) or "{}")
    print("most common reasons for a miss:")
    for reason, count in summary["reasons"].items():
        print(f"  {count:4}  {reason}")
    if memory is not None:
        print(f"\nbrought back what was told (memory): {memory['brought_back']} / {memory['told']}"
              f" = {pct(memory['share'])} %  (aim 70 %); to the wrong person: {memory['wrong_person']},"
              f" retracted brought back: {memory['retracted']}, twice: {memory['twice']}")
        if memory.get("spread"):
            print(f"  over seeds min / median / max: {' / '.join(pct(v) for v in memory['spread'])} %")
    worst = [k for k, row in summary["per_kind"].items() if row["share"] is not None and row["share"] < AIM]
    print(f"\naim: at least {AIM:.0%} of the replies of every kind answer the line:"
          f" {'holds' if not worst else 'does NOT hold for ' + ', '.join(worst)}")


def print_side_by_side(model: dict[str, Any], rules: dict[str, Any], decided: dict[str, int] | None) -> None:
    """Per kind, the model path's share of replies that answer beside the rules' on the same lines."""
    print(f"\n{'kind':<16}{'model path':>16}{'rules':>16}")
    for kind, row in model["per_kind"].items():
        base = rules["per_kind"][kind]
        print(f"{kind:<16}{row['answered']:>5} / {row['lines']:<3}{pct(row['share']):>5} %"
              f"{base['answered']:>5} / {base['lines']:<3}{pct(base['share']):>5} %")
    for name, summary in (("model path", model), ("rules", rules)):
        total = summary["lines"]
        print(f"{name}: {summary['answered']} / {total} = {pct(summary['answered'] / total if total else None)} %,"
              f" glued {summary['glued']}, hard faults {json.dumps(summary['violations'], ensure_ascii=False)}")
    if decided is not None:
        print(f"replies the model's line was sent for: {decided['model']} of {decided['spoken']} spoken replies"
              " (the rest: the rules' line, after the gate refused the model's or the model failed)")
        print(f"situation prompts shown to the model: {decided['prompts']}, median {decided['median_chars']} chars"
              f" (~{decided['median_tokens']} tokens), max {decided['max_chars']} (~{decided['max_tokens']})")


def model_settings(decider: str, stack: ExitStack, parser: argparse.ArgumentParser) -> tuple[dict[str, str], Any]:
    """The agent's settings for the model path, and the stand-in model when it is the one asked."""
    if decider == "stand-in":
        from testing.llm_server import running_model
        from testing.standin_model import StandInModel

        standin = StandInModel()
        server = stack.enter_context(running_model(standin))
        return {"KARAKURI_DECIDER": "llm", "KARAKURI_LLM_BASE_URL": server.base_url,
                "KARAKURI_LLM_MODEL": "stand-in", "KARAKURI_LLM_TIMEOUT": "20"}, standin
    missing = [name for name in MODEL_SETTINGS[:2] if not os.environ.get(name)]
    if missing:
        parser.error(f"--decider llm needs {' and '.join(missing)} in the environment"
                     " (the OpenAI-compatible server to ask, e.g. http://127.0.0.1:8080/v1, and its model)")
    return {"KARAKURI_DECIDER": "llm", **{n: os.environ[n] for n in MODEL_SETTINGS if os.environ.get(n)}}, None


def run_seeds(seeds: list[int], args: argparse.Namespace, settings: dict[str, str],
              saved: dict[str, Any] | None = None) -> tuple[list[dict[str, Any]], list[dict[str, Any] | None]]:
    results: list[dict[str, Any]] = []
    memories: list[dict[str, Any] | None] = []
    for index, seed in enumerate(seeds):
        if saved is not None:
            result = saved["seeds"][index]
            for row in result["judged"]:
                row["verdict"] = judge(row, result["day"]).as_dict()
            memory = saved.get("memory_runs", [None] * len(seeds))[index]
        else:
            result = judged_seed(seed, args.per_kind, args.mode, args.pack, settings)
            memory = None if args.no_memory else memory_seed(seed, args.mode, args.pack, settings)
        results.append(result)
        memories.append(memory)
        good = sum(r["verdict"]["answers"] for r in result["judged"])
        print(f"seed {seed} ({result['pack']}): {good} / {len(result['judged'])} answered, {result['seconds']:.1f} s"
              + (f"; memory {memory['brought_back']} / {memory['told']}" if memory else ""), flush=True)
        for error in result["errors"][:5]:
            print(f"   agent error: {error}")
        if args.verbose or args.show:
            for row in result["judged"]:
                if not row["verdict"]["answers"] and (not args.show or row["kind"] in args.show):
                    message = (row["posts"][0].get("params") or {}).get("message") if row["posts"] else None
                    print(f"   [{row['kind']}] {row['line']} => {message!r}: {'; '.join(row['verdict']['reasons'])}")
    return results, memories


def model_decided(results: list[dict[str, Any]], standin: Any) -> dict[str, int]:
    """How many spoken replies carried a line the stand-in proposed (the gate let the model's line through),
    and the size of the situation prompts it was shown (characters; tokens estimated as bench_llm_prompt.py does)."""
    from benchmarks.bench_llm_prompt import approx_tokens

    proposed = set(standin.lines)
    spoken = [(r["posts"][0].get("params") or {}).get("message") for seed in results for r in seed["judged"]
              if r["posts"] and (r["posts"][0].get("params") or {}).get("message")]
    tokens = sorted(approx_tokens(p) for p in standin.prompts)
    chars = sorted(len(p) for p in standin.prompts)
    return {"spoken": len(spoken), "model": sum(1 for m in spoken if m in proposed), "prompts": len(chars),
            "median_chars": chars[len(chars) // 2] if chars else 0, "max_chars": chars[-1] if chars else 0,
            "median_tokens": tokens[len(tokens) // 2] if tokens else 0, "max_tokens": tokens[-1] if tokens else 0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seeds", type=int, default=8, help="how many seeds (worlds) [8]")
    parser.add_argument("--seed", type=int, default=1, help="the first seed [1]")
    parser.add_argument("--per-kind", type=int, default=3, help="lines of each kind per seed [3]")
    parser.add_argument("--mode", choices=("listen", "handle"), default="listen",
                        help="resident `listen --stdin` or one `handle` process per message [listen]")
    parser.add_argument("--pack", choices=("bundled", "minato"), default=None,
                        help="one pack for every seed (default: odd seeds the bundled pack, even seeds minato)")
    parser.add_argument("--setting", action="append", default=[], metavar="NAME=VALUE",
                        help="a KARAKURI_* setting for the agent (repeatable), e.g. KARAKURI_DECIDER=llm")
    parser.add_argument("--decider", choices=("rules", "llm", "stand-in"), default="rules",
                        help="who decides: the rules, a model from KARAKURI_LLM_* in the environment, or the"
                             " loopback stand-in model (testing/standin_model.py) [rules]")
    parser.add_argument("--no-baseline", action="store_true",
                        help="with --decider llm or stand-in: do not also run the rules on the same seeds")
    parser.add_argument("--smoke", action="store_true",
                        help="1 seed, 1 line per kind, saved only with --output (tests/test_conversation_bench.py"
                             " runs seeds 1 and 2)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory check")
    parser.add_argument("--output", type=Path,
                        help=f"where to save the results (default {RESULTS_FILE.relative_to(ROOT)})")
    parser.add_argument("--rejudge", type=Path, metavar="JSON",
                        help="judge the replies saved in a previous run's JSON again (no agent is run)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every miss with its reasons")
    parser.add_argument("--show", choices=KINDS, action="append", default=[], metavar="KIND",
                        help="print the misses of this kind only (repeatable; implies -v)")
    args = parser.parse_args(argv)
    settings = dict(item.split("=", 1) for item in args.setting if "=" in item)
    if len(settings) != len(args.setting) or not all(name.startswith("KARAKURI_") for name in settings):
        parser.error("--setting takes KARAKURI_NAME=VALUE")
    if args.smoke:
        args.seeds, args.per_kind = 1, 1
    elif args.output is None:
        args.output = RESULTS_FILE
    seeds = list(range(args.seed, args.seed + args.seeds))
    saved = json.loads(args.rejudge.read_text(encoding="utf-8")) if args.rejudge else None
    if saved is not None:
        seeds = [run["seed"] for run in saved["seeds"]]
    with ExitStack() as stack:
        standin = None
        if args.decider != "rules" and saved is None:
            extra, standin = model_settings(args.decider, stack, parser)
            settings = {**settings, **extra}
        results, memories = run_seeds(seeds, args, settings, saved)
        baseline = None
        if args.decider != "rules" and saved is None and not args.no_baseline:
            print("\nthe rules, on the same seeds:")
            rules_settings = {k: v for k, v in settings.items() if not k.startswith("KARAKURI_LLM_")}
            rules_settings.pop("KARAKURI_DECIDER", None)
            baseline = run_seeds(seeds, args, rules_settings)
        decided = model_decided(results, standin) if standin is not None else None
    summary = summarise(results)
    memory_total = pooled_memory([m for m in memories if m])
    print_summary(summary, memory_total, len(seeds))
    saving: dict[str, Any] = {"decider": args.decider, "summary": summary, "memory": memory_total, "seeds": results,
                              "memory_runs": memories, "model_decided": decided}
    if baseline is not None:
        rules_summary = summarise(baseline[0])
        print_side_by_side(summary, rules_summary, decided)
        rules_memory = pooled_memory([m for m in baseline[1] if m])
        if memory_total is not None and rules_memory is not None:
            print(f"brought back what was told: model path {memory_total['brought_back']} / {memory_total['told']},"
                  f" rules {rules_memory['brought_back']} / {rules_memory['told']}")
        saving["rules"] = {"summary": rules_summary, "memory": rules_memory, "seeds": baseline[0],
                           "memory_runs": baseline[1]}
    elif decided is not None:
        print(f"replies the model's line was sent for: {decided['model']} of {decided['spoken']} spoken replies")
    if args.smoke:
        smoke.require((not any(r["errors"] for r in results), "the agent reported errors"),
                      (all(r["judged"] for r in results), "a seed with no reply judged"),
                      (args.no_memory or bool(memory_total and memory_total["told"]),
                       "nothing told in the memory check"))
    if args.output is None:
        return 0
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(json.dumps(saving, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"\nsaved to {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
