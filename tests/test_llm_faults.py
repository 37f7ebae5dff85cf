"""Issue 28's faults on the model path, each as real processes against a loopback Karakuri server
and a loopback model (testing/llm_server.py): the budget is one deadline, the record says who
decided, no redirect and no `user:password@`, and the rules' firings survive a model's state change.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import threading
import time
from pathlib import Path

import pytest

from testing.llm_server import Drip, Redirect, running_model
from testing.runs import listen_line
from testing.model_runs import BODY, GOOD, OFFERED, accept, handle, proposal, record
from testing.runs import AGENT, NID
from testing.samples import API_KEY

BUDGET = 3.0
# A drip of one byte every 0.2 s: a good answer of ~400 bytes would take some 80 s to arrive.
SLOW = 0.2


def assert_rules_sent_one(loopback, result) -> None:
    assert len(loopback.posts) == 1 and loopback.posts[0]["command"] in OFFERED
    assert result["model"]["outcome"] == "rules" and result["sent"] is True


# -- item 2: the budget is one deadline -----------------------------------------------------------
def test_a_model_that_drips_its_answer_is_cut_at_the_budget_and_the_rules_decide(loopback, model_env):
    with running_model([Drip(accept(GOOD), every=SLOW)]) as model:
        started = time.monotonic()
        done = handle(model_env, model, "--explain", timeout=f"{BUDGET:g}")
        took = time.monotonic() - started
    result = record(done)
    assert_rules_sent_one(loopback, result)
    assert len(model.requests) == 1  # no repair asked past the deadline
    trace = result["model"]
    assert trace["error"] == "timeout" and trace["out_of_time"] is True
    # The model's part ends at the deadline (a little scheduling slack), not when the drip would.
    assert BUDGET * 1000 - 50 <= trace["ms"] <= BUDGET * 1000 + 700, trace["ms"]
    assert took < 40  # the whole process (start-up on a loaded machine, the budget, the rules), half the drip
    assert f"timeout: no usable answer within {BUDGET:g} s (KARAKURI_LLM_TIMEOUT) → rules decided" in done.stdout
    log = subprocess.run([*AGENT, "log"], env=model_env, capture_output=True, text=True, timeout=120).stdout
    assert f"no usable answer within {BUDGET:g} s (KARAKURI_LLM_TIMEOUT) → rules decided" in log


def test_the_repair_is_inside_the_same_deadline(loopback, model_env):
    # A quick refused answer, then a repair that drips: the two together get one budget.
    with running_model([proposal("move"), Drip(accept(GOOD), every=SLOW)]) as model:
        result = record(handle(model_env, model, timeout=f"{BUDGET:g}"))
    assert_rules_sent_one(loopback, result)
    assert len(model.requests) == 2 and result["model"]["error"] == "timeout"
    assert result["model"]["ms"] <= BUDGET * 1000 + 700


def test_listen_is_not_held_by_a_dripping_model_and_handles_the_next_message(loopback, model_env, tmp_path):
    second = "notif-after-the-drip"
    loopback.notifications[second] = {**loopback.notifications[NID], "notification_id": second}
    with running_model([Drip(accept(GOOD), every=SLOW), accept(GOOD)]) as model:
        env = {**model_env, "KARAKURI_LLM_BASE_URL": model.base_url, "KARAKURI_LLM_TIMEOUT": f"{BUDGET:g}"}
        proc = subprocess.Popen([*AGENT, "-v", "listen", "--stdin"], env=env, cwd=tmp_path, stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(listen_line(NID, "10") + listen_line(second, "11"))
        proc.stdin.flush()
        reports: list[tuple[str, float]] = []

        def read_two() -> None:
            for _ in range(2):
                report = proc.stdout.readline()
                reports.append((report, time.monotonic()))

        reader = threading.Thread(target=read_two)
        reader.start()
        reader.join(timeout=120)
        out, err = proc.communicate("", timeout=120)
        assert proc.returncode == 0, err
    assert len(reports) == 2, err
    assert [p["notification_id"] for p in loopback.posts] == [NID, second]
    assert loopback.posts[1]["params"] == {"message": GOOD}  # the second message's model answered: its line went out
    # The second report follows the first at once: nothing of the first ask (its drip runs ~80 s) held it.
    gap = reports[1][1] - reports[0][1]
    assert gap < BUDGET, (gap, err)
    assert "message 10 notif-01JDX9M7QZ decision=conversation_accept outcome=succeeded" in err


def test_within_drops_a_late_answer_and_passes_on_an_error():
    from karakuri_agent.llm.chat import DeadlinePassed, within

    release = threading.Event()
    started = time.monotonic()
    with pytest.raises(DeadlinePassed):
        within(0.2, lambda: release.wait(5) and "late")
    assert time.monotonic() - started < 1
    release.set()
    assert within(1, lambda: "soon") == "soon"
    with pytest.raises(KeyError):
        within(1, lambda: {}["missing"])


# -- item 11: the record says what was sent and who decided ----------------------------------------
def test_a_model_line_the_last_gate_refuses_is_recorded_as_refused_and_the_rules_as_deciding(loopback, model_env):
    # The model's own checks do not know the configured keys; the cycle's gate does.
    with running_model([accept(f"鍵は {API_KEY} だよ")]) as model:
        done = handle(model_env, model, "--explain")
        result = record(done)
    assert_rules_sent_one(loopback, result)
    trace = result["model"]
    assert "configured secret" in trace["problems"][-1][0]
    assert len(trace["problems"]) == len(trace["proposals"]) == 1
    assert API_KEY not in json.dumps(trace, ensure_ascii=False)
    assert "conversation_accept (the params carry a configured secret" in done.stdout
    assert "→ rules decided" in done.stdout and "sent as proposed" not in done.stdout
    log = subprocess.run([*AGENT, "log"], env=model_env, capture_output=True, text=True, timeout=120).stdout
    [line] = [x.strip() for x in log.splitlines() if x.strip().startswith("model ")]
    assert "configured secret" in line and line.split(" (", 1)[0] == "model test-model: conversation_accept"
    assert "→ rules decided" in line and API_KEY not in log


def test_the_errors_a_fallback_kept_are_in_the_record_the_log_and_explain(loopback, proc_env, monkeypatch):
    """A proposal's errors: a decider that failed, the rules that stood in (as the llm decider hands them)."""
    from click.testing import CliRunner

    from karakuri_agent.app import cycle
    from karakuri_agent.app.cli import agent
    from dataclasses import replace

    from karakuri_agent.decide.rules import RulePolicy
    from karakuri_agent.errors import Unreachable

    class Broken:
        """Fails, and hands over the rules' proposal with its failure (Proposal.errors)."""

        def propose(self, view):
            failure = Unreachable(f"the oracle at https://user:{API_KEY}@oracle.test is down")
            return replace(RulePolicy().propose(view), errors=(failure,))

    fallback = Broken()
    monkeypatch.setattr(cycle, "build_decider", lambda settings: fallback)
    for name, value in proc_env.items():
        monkeypatch.setenv(name, value)
    out = CliRunner().invoke(agent, ["handle", "--explain", "--json", BODY])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["sent"] is True and result["model"] is None
    [error] = result["decider_errors"]
    assert error.startswith("server_unreachable: the oracle at") and API_KEY not in error
    assert f"  decider failed ({error}) → fallback decided" in out.stdout
    log = CliRunner().invoke(agent, ["log"]).stdout
    assert f"decider failed ({error}) → fallback decided" in log and API_KEY not in log


# -- item 12: no redirect, no user:password@ -------------------------------------------------------
def test_a_redirect_is_not_followed_and_the_prompt_goes_nowhere_else(loopback, model_env):
    with running_model([accept(GOOD)]) as elsewhere:
        with running_model([Redirect(f"{elsewhere.base_url}/chat/completions")]) as model:
            result = record(handle(model_env, model))
    assert elsewhere.requests == [] and len(model.requests) == 1
    assert_rules_sent_one(loopback, result)
    assert result["model"]["error"] == "http 307"


@pytest.mark.parametrize("userinfo", ["agent:pw-llm-hunter2", "pw-llm-hunter2", "agent:pw-llm-hunter2:more"])
@pytest.mark.parametrize("command", [["handle", BODY], ["handle", "--dry-run", BODY]])
def test_a_model_url_with_a_user_or_password_is_a_one_line_configuration_error(loopback, model_env, userinfo, command):
    with running_model([accept(GOOD)]) as model:
        url = model.base_url.replace("http://", f"http://{userinfo}@")
        env = {**model_env, "KARAKURI_LLM_BASE_URL": url}
        done = subprocess.run([*AGENT, *command], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "karakuri-agent: error: KARAKURI_LLM_BASE_URL must not carry a user name or password (user:password@):"
        " the key goes in KARAKURI_LLM_API_KEY"]
    assert "hunter2" not in done.stdout + done.stderr and done.stdout == ""
    assert model.requests == [] and loopback.gets == [] and loopback.posts == []


def test_doctor_names_a_model_url_with_a_password_without_showing_it(loopback, model_env):
    with running_model([accept(GOOD)]) as model:
        env = {**model_env, "KARAKURI_LLM_BASE_URL": model.base_url.replace("http://", "http://u:pw-llm-hunter2@")}
        done = subprocess.run([*AGENT, "doctor"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "KARAKURI_LLM_BASE_URL must not carry a user name or password" in done.stdout + done.stderr
    assert "hunter2" not in done.stdout + done.stderr and model.requests == []


# -- Also: a model's state change keeps the same notification's rule firings -----------------------
PACK = {
    "variables": {"energy": {"min": 0, "max": 100, "initial": 50, "max_delta": 15},
                  "greeted": {"type": "flag", "initial": False}},
    "rules": [{"id": "note-greeting", "priority": 500,
               "when": {"type": "notification", "types": ["conversation_requested"]},
               "then": [{"type": "set", "path": "greeted", "value": True},
                        {"type": "add", "path": "energy", "value": 5}]}],
}


def with_pack(env: dict[str, str], tmp_path: Path) -> dict[str, str]:
    from karakuri_agent.voice.persona_pack import PACK_FILE, bundled_pack_dir

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / PACK_FILE).write_bytes((bundled_pack_dir() / PACK_FILE).read_bytes())
    (pack / "behaviour.json").write_text(json.dumps(PACK), encoding="utf-8")
    return {**env, "KARAKURI_PERSONA_DIR": str(pack)}


def stored_behaviour(env: dict[str, str]) -> dict:
    from karakuri_agent.state.sqlite.db import DB_FILENAME

    with sqlite3.connect(Path(env["KARAKURI_STATE_DIR"]) / DB_FILENAME) as db:
        return {key: json.loads(value) for key, value in db.execute("SELECT key, value FROM behaviour_state")}


def test_a_models_state_change_keeps_the_rules_firings_of_the_same_notification(loopback, model_env, tmp_path):
    env = with_pack(model_env, tmp_path)
    answer = json.dumps({"command": "conversation_accept", "params": {"message": GOOD}, "reason": "うれしい",
                         "state": {"energy": -30}}, ensure_ascii=False)
    with running_model([answer]) as model:
        result = record(handle(env, model))
    assert loopback.posts[0]["params"] == {"message": GOOD} and result["model"]["outcome"] == "model"
    behaviour = result["behaviour"]
    assert behaviour["rule"] is None and behaviour["by"] == "the model", behaviour
    assert behaviour["fired"] == ["note-greeting"], behaviour
    changes = [(c["path"], c["by"], c["before"], c["after"], c["status"]) for c in behaviour["changes"]]
    # The rules' effects first (a flag, +5), then the model's -30, clamped to 15 from where the notification began (50).
    assert changes == [("greeted", "note-greeting", False, True, "applied"),
                       ("energy", "note-greeting", 50, 55, "applied"),
                       ("energy", "model", 55, 35, "clamped")]
    stored = stored_behaviour(env)
    assert stored["variables"] == {"greeted": True, "energy": 35}
    assert stored["rules"]["note-greeting"]["fires"] == 1


def test_a_client_that_cannot_be_built_leaves_the_decision_to_the_rules(monkeypatch):
    from karakuri_agent.llm import chat
    from testing.model_decider import ACCEPT, REJECT, decider, make_view

    def broken(self):
        raise RuntimeError("no client today")

    monkeypatch.setattr(chat.Chat, "ready", broken)
    proposed = decider().propose(make_view([ACCEPT, REJECT]))
    assert proposed.model.outcome == "rules" and proposed.model.error == "RuntimeError"
    assert [d.command for d in proposed.candidates][:1] == ["conversation_accept"]  # the rules' own first candidate
