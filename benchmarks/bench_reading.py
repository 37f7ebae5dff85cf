"""How well the installed program reads notification texts: participants, lines, next speakers, promises.

Black-box on purpose: it imports nothing of the package and nothing under
tests/ (its loopback server is testing/'s, standard library only), so it keeps measuring while the package's modules move. Each case of
the labelled corpus in `benchmarks/reading/*.json` is served by a loopback
Karakuri API this script starts itself (the JSON fields `participants` and
`conversation_messages` left out, so the text is all there is to read), and
read with the installed wrapper, `karakuri get_notification <id>`, in a
fresh state directory per case. What the program read is taken from the
public output only:

- participants, lines, next speakers: `nikechan_preprocess.parsed`
  (`participants`, `conversation_messages`, `next_speakers`);
- promises: `nikechan_preprocess.context.pending_commitments` after the
  case's last notification (promises still standing, none withdrawn).

These are the fields `skill/SKILL.md` tells an LLM runtime to read. The
loopback answers with an HTTP `Date` at the notification's `created_at`, as
the real server does, so the world's "now" is the text's time.

A case may name people the agent met before (`roster`: given first in a
notification's JSON `participants`, not read from text) and earlier
notifications of the same conversation (`before`), read in order in the same
state directory. Promises are compared from the agent's side: each pending
promise names one partner (the other person), a place and a time. An
expected promise matches a read one with the same partner (the proposer, or
the one the agent proposed to), a place among the expected names (or the
node id), and the same time to the minute in Asia/Tokyo.

Run from the repository root with the venv whose program is to be measured:

    .venv/bin/python benchmarks/bench_reading.py
    python3 benchmarks/bench_reading.py --program-dir /path/to/venv/bin
    .venv/bin/python benchmarks/bench_reading.py --case own-quoted-next-1 --show
    .venv/bin/python benchmarks/bench_reading.py --corpus benchmarks/reading/minimal
    .venv/bin/python benchmarks/bench_reading.py --smoke    # 2 cases: seconds

Exit code 0 whatever the scores (this measures, it does not judge); 2 when
the program cannot be run. `--smoke` reads the first case with a roster,
earlier notifications and a promise, and the first of each other file, and
exits 1 when a case could not be read, nothing was read right, or a command
was sent.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.loopback import Answer, LoopbackAPI, Request, status  # noqa: E402  (shared with the tests; nothing of the package)

CORPUS_DIR = Path(__file__).resolve().parent / "reading"
TOKYO = timezone(timedelta(hours=9))  # Asia/Tokyo has no daylight saving time
CATEGORIES = ("participants", "lines", "next_speakers", "promises")
AIM = 0.95
# The two cases the aim names: a quoted 「次は 〇〇 の番です」, and an agreement that must make no promise.
NAMED = {
    "quoted next-speaker line changes no next speaker": ("next_speakers", "quoted-next"),
    "「了解、…ね」 agreement makes no promise of its own": ("promises", "agreement"),
}


# ---------------------------------------------------------------------------
# The loopback API: GET serves the registered notifications; any POST is a fault.
# ---------------------------------------------------------------------------


class _ReadingAPI(LoopbackAPI):
    """GET serves the registered notifications; any POST is a fault (reading sends no command)."""

    def clock(self, request: Request) -> datetime | None:
        """The HTTP `Date` of a real server answering at the notification's time, not this machine's.

        The program takes the world's "now" from the server (the latest of
        `created_at` and `Date`), so a `Date` of today would put every
        case's promises in the past.
        """
        body = self.notifications.get(request.path.rsplit("/", 1)[-1])
        if body is None:
            return None
        return datetime.fromisoformat(body["created_at"].replace("Z", "+00:00")) + timedelta(seconds=1)

    def answer(self, request: Request) -> Answer:
        if request.method == "POST":
            return status(500, {"error": "unexpected", "message": "reading sends no command"})
        return super().answer(request)


# ---------------------------------------------------------------------------
# Running the program.
# ---------------------------------------------------------------------------


def _utc_text(at: datetime) -> str:
    return at.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _notification(notification_id: str, step: dict[str, Any]) -> dict[str, Any]:
    """The server's JSON for one text: no participants or conversation_messages, so the text is read.

    Only the roster step carries `participants`, as JSON: who the agent met is
    given, not read, so a name the text reader trips on does not spoil the
    roster of the case after it.
    """
    created = datetime.fromisoformat(step["created_at"])
    body: dict[str, Any] = {"type": step.get("event_type", "conversation_message"), "text": step["text"], "choices": []}
    if "participants" in step:
        body["participants"] = step["participants"]
    return {
        "notification_id": notification_id,
        "created_at": _utc_text(created),
        "expires_at": _utc_text(created + timedelta(minutes=10)),
        "status": "pending",
        "notification": body,
    }


def _child_env(base_url: str, state_dir: Path, me: dict[str, str]) -> dict[str, str]:
    """A clean environment: no inherited agent settings, no webhook, no .env from the caller's directory."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env.update({
        "KARAKURI_API_BASE_URL": base_url,
        "KARAKURI_API_KEY": "bench-reading-key",
        "KARAKURI_SELF_AGENT_ID": me["id"],
        "KARAKURI_SELF_NAME": me["name"],
        "KARAKURI_STATE_DIR": str(state_dir),
        "KARAKURI_HTTP_TIMEOUT": "5",
    })
    return env


@dataclass
class Case:
    corpus: str
    data: dict[str, Any]
    people: dict[str, str]
    me: dict[str, str]

    @property
    def id(self) -> str:
        return str(self.data["id"])


@dataclass
class Reading:
    case: Case
    read: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    error: str | None = None


def _read_case(case: Case, server: _ReadingAPI, base_url: str, karakuri: str, workdir: Path) -> Reading:
    """Feed the case's notifications through `karakuri get_notification`, return what the last one read."""
    state_dir = workdir / case.id / "state"
    state_dir.mkdir(parents=True)
    env = _child_env(base_url, state_dir, case.me)
    data = case.data
    steps: list[dict[str, Any]] = []
    first_at = (data.get("before") or [data])[0]["created_at"]
    if data.get("roster"):
        seed_at = (datetime.fromisoformat(first_at) - timedelta(hours=1)).isoformat()
        roster = [{"id": case.people[name], "name": name} for name in data["roster"]]
        steps.append({"event_type": "conversation_message", "created_at": seed_at, "participants": roster,
                      "text": "参加者: " + "、".join(f"{p['name']} (id: {p['id']})" for p in roster)})
    steps += list(data.get("before") or [])
    steps.append(data)
    output: dict[str, Any] = {}
    for index, step in enumerate(steps):
        notification_id = f"notif-bench-{case.corpus}-{case.id}-{index}".replace("_", "-")
        server.notifications[notification_id] = _notification(notification_id, step)
        try:
            run = subprocess.run([karakuri, "get_notification", notification_id], env=env, cwd=workdir / case.id,
                                 capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return Reading(case, error=f"could not run the program on step {index}: {exc}")
        if run.returncode != 0:
            return Reading(case, error=f"exit {run.returncode} on step {index}: {run.stderr.strip()[-400:]}")
        try:
            output = json.loads(run.stdout)
        except json.JSONDecodeError as exc:
            return Reading(case, error=f"stdout is not JSON on step {index}: {exc}")
    pre = output.get("nikechan_preprocess") or {}
    parsed = pre.get("parsed") or {}
    return Reading(case, read={
        "participants": [{"name": p.get("name"), "id": p.get("id")} for p in parsed.get("participants") or []],
        "lines": [{"speaker": m.get("speaker"), "speaker_id": m.get("speaker_id"), "message": m.get("message")}
                  for m in parsed.get("conversation_messages") or []],
        "next_speakers": [{"name": p.get("name"), "id": p.get("id")} for p in parsed.get("next_speakers") or []],
        "promises": list((pre.get("context") or {}).get("pending_commitments") or []),
    })


# ---------------------------------------------------------------------------
# Comparing.
# ---------------------------------------------------------------------------


def _expected_people(case: Case, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """`{name}` entries with the id the agent can know: written in the label, else its own, else the corpus's."""
    out = []
    for entry in entries:
        name = entry["name"]
        agent_id = entry.get("id", case.me["id"] if name == case.me["name"] else case.people.get(name))
        out.append({"name": name, "id": agent_id})
    return out


def _tokyo_minute(value: Any) -> str | None:
    if not value:
        return None
    try:
        at = datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        return f"unreadable:{value}"
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    return at.astimezone(TOKYO).strftime("%Y-%m-%dT%H:%M")


def _promise_matches(expected: dict[str, Any], read: dict[str, Any], case: Case) -> bool:
    partner = expected["proposer"]
    if partner == case.me["name"]:  # the agent's own proposal: the promise is with the one it asked
        partner = next(name for name in expected["with"] if name != case.me["name"])
    partner_id = case.people.get(partner)
    same_partner = read.get("partner_name") == partner or (partner_id is not None and read.get("partner_id") == partner_id)
    where = expected.get("where")
    if where is None:
        same_place = not read.get("place_name") and not read.get("node_id")
    else:
        names = {w.replace(" ", "") for w in where}
        same_place = (str(read.get("node_id") or "") in names
                      or str(read.get("place_name") or "").replace(" ", "").replace("\u3000", "") in names)
    return same_partner and same_place and _tokyo_minute(read.get("due_at")) == expected.get("when")


def _match(category: str, expected: list[dict[str, Any]], read: list[dict[str, Any]], case: Case
           ) -> tuple[int, list[dict[str, Any]], list[dict[str, Any]]]:
    """(true positives, missed expected entries, extra read entries): a one-to-one matching."""
    if category == "promises":
        same = lambda e, r: _promise_matches(e, r, case)  # noqa: E731
    elif category == "lines":
        same = lambda e, r: e["speaker"] == r["speaker"] and e["message"] == r["message"]  # noqa: E731
    else:
        same = lambda e, r: e["name"] == r["name"] and e["id"] == r["id"]  # noqa: E731
    unmatched = list(read)
    missed = []
    for entry in expected:
        hit = next((r for r in unmatched if same(entry, r)), None)
        if hit is None:
            missed.append(entry)
        else:
            unmatched.remove(hit)
    return len(expected) - len(missed), missed, unmatched


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, tp: int, fp: int, fn: int) -> None:
        self.tp, self.fp, self.fn = self.tp + tp, self.fp + fp, self.fn + fn

    def prf(self) -> tuple[float, float, float]:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return precision, recall, f1


def _names_only(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"name": e["name"], "id": None} for e in entries]


def _named_holds(category: str, problems: dict[str, Any]) -> bool:
    """The named case holds when its category was read right; next speakers by name (whose turn, not the id)."""
    problem = problems.get(category)
    if problem is None:
        return True
    if category == "next_speakers":
        return sorted(e["name"] for e in problem["expected"]) == sorted(r["name"] for r in problem["read"])
    return False


def _load_corpus(only: set[str], folder: Path = CORPUS_DIR) -> list[Case]:
    cases = []
    for path in sorted(folder.glob("*.json")):
        corpus = json.loads(path.read_text(encoding="utf-8"))
        for data in corpus["cases"]:
            if not only or data["id"] in only:
                cases.append(Case(path.stem, data, corpus["people"], corpus["self"]))
    return cases


def _smoke_cases(cases: list[Case]) -> list[Case]:
    """The first case that takes every step (roster, earlier ones, a promise), and the first of each other file."""
    whole = next((case for case in cases if case.data.get("roster") and case.data.get("before")
                  and case.data["expected"].get("promises")), None)
    firsts = {case.corpus: case for case in reversed(cases) if whole is None or case.corpus != whole.corpus}
    return [case for case in cases if case in firsts.values() or case is whole]


def _program(program_dir: str | None) -> str:
    folder = (Path(program_dir) if program_dir else Path(sys.executable).parent).resolve()
    exe = folder / "karakuri"
    if not exe.exists():
        found = shutil.which("karakuri", path=str(folder))
        if not found:
            print(f"bench_reading: no `karakuri` program in {folder}; install the project there "
                  "(pip install -e .) or pass --program-dir", file=sys.stderr)
            raise SystemExit(2)
        return found
    return str(exe)


def _short(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--program-dir", help="directory holding the `karakuri` program (default: next to python)")
    parser.add_argument("--corpus", type=Path, default=CORPUS_DIR,
                        help="folder of labelled corpus files (default: benchmarks/reading)")
    parser.add_argument("--case", action="append", default=[], help="run only this case id (repeatable)")
    parser.add_argument("--show", action="store_true", help="print every case's reading, not only failures")
    parser.add_argument("--jobs", type=int, default=2, help="cases read at once (default 2)")
    parser.add_argument("--json", dest="json_out", help="also write the scores and failures to this file")
    parser.add_argument("--smoke", action="store_true", help="2 cases: does the path still run")
    args = parser.parse_args(argv)

    karakuri = _program(args.program_dir)
    cases = _load_corpus(set(args.case), args.corpus)
    if args.smoke:
        cases = _smoke_cases(cases)
    if not cases:
        print("bench_reading: no case selected", file=sys.stderr)
        return 2
    server = _ReadingAPI()
    server.start()
    base_url = server.base_url
    workdir = Path(tempfile.mkdtemp(prefix="bench-reading-"))
    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            readings = list(pool.map(lambda c: _read_case(c, server, base_url, karakuri, workdir), cases))
    finally:
        server.stop()
        shutil.rmtree(workdir, ignore_errors=True)

    broken = [r for r in readings if r.error]
    for reading in broken:
        print(f"ERROR {reading.case.id}: {reading.error}", file=sys.stderr)
    if len(broken) == len(readings):
        return 2

    scores = {c: Score() for c in CATEGORIES}
    per_corpus: dict[str, dict[str, Score]] = {}
    names_only = {c: Score() for c in ("participants", "next_speakers")}
    tagged: dict[str, list[tuple[str, bool]]] = {}
    failures: list[dict[str, Any]] = []
    for reading in readings:
        if reading.error:
            continue
        case = reading.case
        expected_all = case.data["expected"]
        problems = {}
        for category in CATEGORIES:
            expected = expected_all.get(category, [])
            if category in ("participants", "next_speakers"):
                expected = _expected_people(case, expected)
                tp_n, missed_n, extra_n = _match(category, _names_only(expected),
                                                 _names_only(reading.read[category]), case)
                names_only[category].add(tp_n, len(extra_n), len(missed_n))
            tp, missed, extra = _match(category, expected, reading.read[category], case)
            scores[category].add(tp, len(extra), len(missed))
            per_corpus.setdefault(case.corpus, {c: Score() for c in CATEGORIES})[category].add(
                tp, len(extra), len(missed))
            if missed or extra:
                problems[category] = {"expected": expected, "read": reading.read[category],
                                      "missed": missed, "extra": extra}
        for title, (category, wanted) in NAMED.items():
            if wanted in case.data.get("tags", []):
                tagged.setdefault(title, []).append((case.id, _named_holds(category, problems)))
        if problems:
            failures.append({"case": case.id, "corpus": case.corpus, "source": case.data.get("source"),
                             "note": case.data.get("note"), "problems": problems})
        if args.show:
            print(f"--- {case.id}: {_short(reading.read)}")

    print(f"program: {karakuri}")
    print(f"cases: {len(readings) - len(broken)} read ({sum(1 for r in readings if r.case.data.get('source', '').startswith('real-texts'))} "
          f"from the real server texts), {len(broken)} could not be read, POSTs seen: {server.count('POST')}")
    print()
    print(f"{'category':<15}{'tp':>5}{'fp':>5}{'fn':>5}{'precision':>11}{'recall':>8}{'F1':>7}  aim F1 >= {AIM}")
    for category in CATEGORIES:
        score = scores[category]
        p, r, f1 = score.prf()
        print(f"{category:<15}{score.tp:>5}{score.fp:>5}{score.fn:>5}{p:>11.3f}{r:>8.3f}{f1:>7.3f}  "
              f"{'holds' if f1 >= AIM else 'does NOT hold'}")
    for category, score in names_only.items():
        p, r, f1 = score.prf()
        print(f"  ({category} by name only, ids not compared: precision {p:.3f} recall {r:.3f} F1 {f1:.3f})")
    for corpus, corpus_scores in per_corpus.items():
        print(f"  (F1 on {corpus}.json alone: " + ", ".join(
            f"{c} {corpus_scores[c].prf()[2]:.3f}" for c in CATEGORIES) + ")")
    print()
    for title in NAMED:
        results = tagged.get(title, [])
        ok = [cid for cid, good in results if good]
        bad = [cid for cid, good in results if not good]
        verdict = "holds" if results and not bad else "does NOT hold"
        print(f"named case: {title}: {verdict} ({len(ok)}/{len(results)} cases"
              + (f"; failing: {', '.join(bad)}" if bad else "") + ")")
    print()
    print(f"failing cases: {len(failures)}")
    for failure in failures:
        print(f"\n[{failure['case']}] ({failure['source']}) {failure['note'] or ''}".rstrip())
        for category, problem in failure["problems"].items():
            print(f"  {category}:")
            print(f"    expected: {_short(problem['expected'])}")
            print(f"    read:     {_short(problem['read'])}")
            if problem["missed"]:
                print(f"    missed:   {_short(problem['missed'])}")
            if problem["extra"]:
                print(f"    extra:    {_short(problem['extra'])}")
    if args.smoke and (broken or not sum(score.tp for score in scores.values()) or server.count("POST")):
        print(f"smoke: broken: {len(broken)} cases not read, {sum(s.tp for s in scores.values())} entries read right,"
              f" {server.count('POST')} commands sent", file=sys.stderr)
        return 1
    if args.json_out:
        Path(args.json_out).write_text(json.dumps({
            "program": karakuri,
            "scores": {c: dict(zip(("precision", "recall", "f1"), scores[c].prf()), tp=scores[c].tp,
                               fp=scores[c].fp, fn=scores[c].fn) for c in CATEGORIES},
            "failures": failures,
        }, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except BrokenPipeError:  # a reader that stops early (| head) is not a failure
        sys.stderr.close()
        sys.exit(0)
