"""How well the text fallback reads server-formatted texts: F1 per field.

Run from the repository root:

    .venv/bin/python benchmarks/bench_textparse.py [TEXTS.json ...]
    .venv/bin/python benchmarks/bench_textparse.py --smoke   # the project's own texts only: seconds

Without arguments it reads two sets:

- `tests/data/formatter-texts.json`, the project's own texts in the server's
  formats (leave and join notices with a last or first line, quoted text that
  imitates the server's structure, casual promises and non-promises, place
  forms `6-11 (喫茶店 店内)` and `7-11(喫茶店 入口)`);
- real server texts kept beside the checkout (shared/examples/real-texts.json),
  when present (a loud message says when they are not).

Each set is a JSON list of `{id, text, truth, said_at?, self?}`. Fields
compared (each a multiset, so a repeat or a miss both count):

- participants: names (the text gives ids only for some people);
- lines: (speaker, message);
- next_speakers: names;
- promises: (speaker, place, due time), where the found promise's place
  name contains the expected place or its node id equals it; a promise is
  read against `said_at` (or the text's own clock) with the places every
  text of the set teaches, as the agent would have learned them;
- places: (node id, name), for sets whose truth lists places.

F1 = 2·tp / (2·tp + fp + fn), micro-averaged over a set (1.0 when a field
has nothing to find and nothing is found). Aim: ≥ 0.95 per field; exit 1
when a field misses it. `--smoke` reads only the project's own set and
exits 1 only when a field with something to find found none of it (the
reader broke, not a score).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterable

from karakuri_agent.reading import textparse
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.reading.promise_lines import extract_promises

ROOT = Path(__file__).resolve().parents[1]
OWN_TEXTS = ROOT / "tests" / "data" / "formatter-texts.json"
SHARED_TEXTS = ROOT.parent / "shared" / "examples" / "real-texts.json"
DEFAULT_SELF = {"id": "1470446478261747854", "name": "AIニケちゃん"}
FALLBACK_NOW = datetime(2026, 4, 18, 15, 0, tzinfo=TOKYO)
AIM = 0.95


def _said_at(example: dict[str, Any]) -> datetime:
    if example.get("said_at"):
        return datetime.fromisoformat(example["said_at"])
    return textparse.parse_clock(example["text"]) or FALLBACK_NOW


def _found_promises(example: dict[str, Any], places: list[dict[str, str]]) -> list[dict[str, Any]]:
    me = example.get("self") or DEFAULT_SELF
    lines = textparse.parse_lines(example["text"])
    promises = extract_promises(lines, self_id=me["id"], self_name=me["name"], now=_said_at(example),
                                known_places=places)
    return [{"speaker": p.partner_name, "place_name": p.place_name, "node_id": p.node_id, "due_at": p.due_at}
            for p in promises]


def _promise_matches(expected: dict[str, Any], found: dict[str, Any]) -> bool:
    place = expected["place"]
    return (
        expected["speaker"] == found["speaker"]
        and datetime.fromisoformat(expected["due_at"]) == found["due_at"]
        and (place in (found["place_name"] or "") or place == found["node_id"])
    )


def _counted(expected: Iterable[Any], found: Iterable[Any]) -> tuple[int, int, int]:
    """(tp, fp, fn) of two multisets of hashable items."""
    want, got = Counter(expected), Counter(found)
    tp = sum((want & got).values())
    return tp, sum(got.values()) - tp, sum(want.values()) - tp


def _counted_promises(expected: list[dict[str, Any]], found: list[dict[str, Any]]) -> tuple[int, int, int]:
    left = list(found)
    tp = 0
    for promise in expected:
        match = next((f for f in left if _promise_matches(promise, f)), None)
        if match is not None:
            left.remove(match)
            tp += 1
    return tp, len(left), len(expected) - tp


FIELDS: dict[str, Callable[[dict[str, Any], list[dict[str, str]]], tuple[int, int, int]]] = {
    "participants": lambda ex, _: _counted(
        (p["name"] for p in ex["truth"]["participants"]),
        (p.name for p in textparse.parse_participants(ex["text"]))),
    "lines": lambda ex, _: _counted(
        ((line["speaker"], line["message"]) for line in ex["truth"]["lines"]),
        ((line.speaker, line.message) for line in textparse.parse_lines(ex["text"]))),
    "next_speakers": lambda ex, _: _counted(
        (p["name"] for p in ex["truth"]["next_speakers"]),
        (p.name for p in textparse.parse_next_speakers(ex["text"]))),
    "promises": lambda ex, places: _counted_promises(ex["truth"]["promises"], _found_promises(ex, places)),
    "places": lambda ex, _: _counted(
        ((p["node_id"], p["name"]) for p in ex["truth"]["places"]),
        ((p["node_id"], p["name"]) for p in textparse.parse_places(ex["text"]))),
}


def f1(tp: int, fp: int, fn: int) -> float:
    return 1.0 if tp + fp + fn == 0 else 2 * tp / (2 * tp + fp + fn)


def score(examples: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per field: tp, fp, fn, F1 and the ids of texts with a miss or an extra."""
    places = [place for ex in examples for place in textparse.parse_places(ex["text"])]
    result = {}
    for field, count in FIELDS.items():
        rated = [ex for ex in examples if field in ex["truth"]]
        if not rated:
            continue
        totals, wrong = [0, 0, 0], []
        for ex in rated:
            tp, fp, fn = count(ex, places)
            totals = [totals[0] + tp, totals[1] + fp, totals[2] + fn]
            if fp or fn:
                wrong.append(ex["id"])
        result[field] = {"tp": totals[0], "fp": totals[1], "fn": totals[2], "f1": f1(*totals), "wrong": wrong}
    return result


def main(paths: list[str]) -> int:
    smoke = "--smoke" in paths
    paths = [p for p in paths if p != "--smoke"]
    sets = [Path(p) for p in paths] or ([OWN_TEXTS] if smoke else [OWN_TEXTS, SHARED_TEXTS])
    below = False
    blind = []  # fields with something to find that found none of it
    for path in sets:
        if not path.is_file():
            print(f"!!! SKIPPED {path}: file not found, its texts are NOT measured !!!", file=sys.stderr)
            continue
        examples = json.loads(path.read_text(encoding="utf-8"))
        print(f"{path.name}: {len(examples)} texts")
        for field, row in score(examples).items():
            below |= row["f1"] < AIM
            if row["tp"] == 0 and row["fn"] > 0:
                blind.append(f"{path.name} {field}")
            flag = "" if row["f1"] >= AIM else f"  below {AIM}"
            print(f"  {field:14} F1 {row['f1']:.3f}  (tp {row['tp']}, fp {row['fp']}, fn {row['fn']})"
                  f"{flag}{'  wrong: ' + ', '.join(row['wrong']) if row['wrong'] else ''}")
    if smoke:
        for field in blind:
            print(f"smoke: broken: {field}: nothing found of what is there", file=sys.stderr)
        return 1 if blind else 0
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
