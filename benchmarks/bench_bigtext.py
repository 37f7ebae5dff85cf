"""How long one notification with a huge text takes: the reading limits apply before any pattern.

Run from the repository root:

    .venv/bin/python benchmarks/bench_bigtext.py [--megabytes 1 10]
    .venv/bin/python benchmarks/bench_bigtext.py --smoke   # 10 kB, one run per shape: seconds

For each size and shape (many conversation lines, one long line, place
lists, the same bytes in an unknown field), `cycle.handle()` runs in this
process against an in-memory transport (no network) with a fresh state, and
the wall time of the whole run is printed (best of --runs). Aim: a 10 MB
text in under 1 s, about what the same bytes cost in a field nobody reads.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.samples import API_KEY, BASE_URL, CONVERSATION_REQUEST, SELF_ID, SELF_NAME  # noqa: E402
from karakuri_agent.app.config import Settings  # noqa: E402
from karakuri_agent.secret import Secret
from karakuri_agent.app.cycle import handle  # noqa: E402

SHAPES = {
    "many lines": "桜草メイ: 「こんにちは、今日はいい天気ですね」\n",
    "one long line": "あいうえおかきくけこ",
    "place lists": "6-11 (喫茶店 店内)、",
    "unknown field": "あいうえおかきくけこ",
}


def one_run(shape: str, megabytes: float) -> float:
    unit = SHAPES[shape]
    payload = copy.deepcopy(CONVERSATION_REQUEST)
    filler = unit * int(megabytes * 1_000_000 // len(unit.encode()))
    if shape == "unknown field":
        payload["notification"]["extra"] = filler
    else:
        payload["notification"]["text"] = filler
    raw = json.dumps(payload, ensure_ascii=False).encode()

    def answer(request: httpx.Request) -> httpx.Response:
        if request.method == "GET":
            return httpx.Response(200, content=raw, headers={"Content-Type": "application/json"})
        return httpx.Response(200, json={"ok": True})

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(api_base_url=BASE_URL, api_key=Secret(API_KEY), state_dir=Path(tmp) / "state",
                            self_agent_id=SELF_ID, self_name=SELF_NAME, get_retry_budget=0.0)
        started = time.perf_counter()
        result = handle(f"notification_id: {payload['notification_id']}", settings,
                        transport=httpx.MockTransport(answer), post=False)
        seconds = time.perf_counter() - started
    assert result.report.startswith("からくり: "), result.report
    return seconds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, nargs="+", default=[1.0, 10.0])
    parser.add_argument("--runs", type=int, default=3, help="best of this many runs per row (default 3)")
    parser.add_argument("--smoke", action="store_true", help="10 kB, one run per shape: does the path still run")
    args = parser.parse_args(argv)
    if args.smoke:
        args.megabytes, args.runs = [0.01], 1
    print(f"{'shape':<16}{'MB':>6}{'seconds (best of ' + str(args.runs) + ')':>26}")
    for megabytes in args.megabytes:
        for shape in SHAPES:
            best = min(one_run(shape, megabytes) for _ in range(args.runs))
            print(f"{shape:<16}{megabytes:>6g}{best:>26.3f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
