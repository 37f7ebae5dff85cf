"""How the agent reads the gold corpus's lines: acts, polarity and subject against a person's reading.

Run from the repository root:

    .venv/bin/python benchmarks/bench_understanding.py            # benchmarks/understanding/dev-*.json
    .venv/bin/python benchmarks/bench_understanding.py --smoke

Each line is read once by the agent's reader (`reading.hearing.hear`, the
reading every part of the agent uses) as the bundled character hears it;
what it read is dumped as plain data and compared, by
testing/conversation/reading_gold.py (which imports nothing of the agent),
with the reading a person gave the line: a confusion matrix per label. The
corpus is development data: the lexicon is tuned on it, so its agreement
says how well the lexicon covers what it was shown; the sealed set
(bench_sealed.py) says how well it reads what nobody showed it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.conversation.reading_gold import render, report  # noqa: E402

CORPUS = ROOT / "benchmarks" / "understanding"
OWN_NAMES = ("ニケ", "AIニケちゃん")


def readings(items: list[dict]) -> dict[str, dict]:
    """The agent's reading of each line, as plain data (the one place the agent is imported)."""
    from karakuri_agent.reading.hearing import hear

    out = {}
    for item in items:
        heard = hear(item["line"], own_names=OWN_NAMES, other_names=(item.get("partner", ""),))
        out[item["id"]] = {"kind": heard.kind, "asks": heard.asks, "polarity": heard.polarity,
                           "subject": heard.subject, "mood": heard.mood,
                           "question_kind": heard.question.kind if heard.question else ""}
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="the first 20 lines of the first file")
    args = parser.parse_args(argv)
    items = [i for path in sorted(CORPUS.glob("dev-*.json"))
             for i in json.loads(path.read_text(encoding="utf-8"))["items"]]
    if args.smoke:
        items = items[:20]
    result = report(items, readings(items))
    for name in ("acts", "polarity", "subject"):
        print(render(name, result[name]))
        print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
