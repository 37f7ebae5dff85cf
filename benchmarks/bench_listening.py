"""What reading a conversation line costs: a one-shot turn (a fresh interpreter composing one reply,
the analyzer loaded on the way) and a resident turn (the same process replying again).

    python benchmarks/bench_listening.py [--runs N] [--json]
    python benchmarks/bench_listening.py --smoke   # one fresh interpreter, 10 resident turns: seconds

Run it with PYTHONPATH pointing at another checkout to compare (the numbers
of the issue are taken against main before the analyzer came in).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

LINES = ["来週、市民マラソンに出るんだ", "休みの日って家にいる派？", "昨日、妹の引っ越しを手伝ったよ", "話してると楽しいな",
         "コーヒーと紅茶、どっちが好き？", "やっぱり旅行はやめたんだ", "今日はこのあとどうするの？", "なんの話してたの？"]

ONE_SHOT = """
import time
t = time.perf_counter()
from karakuri_agent.voice.speech import compose
from karakuri_agent.voice.persona_pack import load_persona
compose("reply", persona=load_persona(), partner_name="灯屋ユウ", last_line={line!r}, seed="s")
print((time.perf_counter() - t) * 1000)
"""


def one_shot(runs: int) -> list[float]:
    out = []
    for i in range(runs):
        code = ONE_SHOT.format(line=LINES[i % len(LINES)])
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        out.append(float(done.stdout.strip().splitlines()[-1]))
    return out


def resident(runs: int) -> tuple[list[float], int]:
    """Milliseconds per turn, and how many turns composed an empty reply."""
    from karakuri_agent.voice.persona_pack import load_persona
    from karakuri_agent.voice.speech import compose

    persona = load_persona()
    compose("reply", persona=persona, partner_name="灯屋ユウ", last_line="こんにちは", seed="warm")
    out, empty = [], 0
    for i in range(runs):
        line = LINES[i % len(LINES)] + "！" * (i // len(LINES) % 3)  # a new line each time: no cache hit
        t = time.perf_counter()
        reply = compose("reply", persona=persona, partner_name="灯屋ユウ", last_line=line, seed=str(i))
        out.append((time.perf_counter() - t) * 1000)
        empty += not reply
    return out, empty


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--smoke", action="store_true",
                        help="1 one-shot run, 10 resident turns: does the path still run")
    args = parser.parse_args()
    if args.smoke:
        args.runs = 1
    shots = one_shot(args.runs)
    turns, empty = resident(args.runs * 10)
    result = {"one_shot_ms": {"median": statistics.median(shots), "min": min(shots)},
              "resident_turn_ms": {"median": statistics.median(turns), "p90": sorted(turns)[int(len(turns) * 0.9)]}}
    print(json.dumps(result, indent=2) if args.json else
          f"one-shot reply: median {result['one_shot_ms']['median']:.1f} ms (min {result['one_shot_ms']['min']:.1f})\n"
          f"resident turn:  median {result['resident_turn_ms']['median']:.2f} ms (p90 {result['resident_turn_ms']['p90']:.2f})")
    if args.smoke:
        sys.path.append(str(Path(__file__).resolve().parents[1]))  # after PYTHONPATH: the package measured stays first
        from testing import smoke

        smoke.require((not empty, f"{empty} of {len(turns)} turns composed no reply"))


if __name__ == "__main__":
    main()
