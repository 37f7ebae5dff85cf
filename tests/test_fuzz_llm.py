"""Property tests for the model path (issue 28): the classes behind tests/test_llm_faults.py.

- whatever the model server's timing, an ask ends by its deadline and a late answer is never used;
- whatever a base URL's user or password, it is refused and never shown;
- whatever a trace's history, one the last gate overrules says the rules decided, with the problem;
- whatever the rules' effects and the model's deltas, both apply in order, clamped.
"""

from __future__ import annotations

import json
import threading
import time
from urllib.parse import quote

import httpx
import pytest
import respx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from karakuri_agent.decide.behaving import finish
from karakuri_agent.env_values import refuse_credentials
from karakuri_agent.errors import ConfigError
from karakuri_agent.llm.chat import DeadlinePassed, within
from karakuri_agent.llm.settings import normalise_base_url
from karakuri_agent.domain.model_trace import MODEL, REPAIRED, RULES, LLMTrace
from testing.packs import TOKYO_NOON, with_pack
from testing.model_decider import ACCEPT, BASE, REJECT, answer, decider, make_view, proposal
from testing.views import MOVE, WAIT, view

# Scheduling slack on a loaded 2-core machine: how far past a deadline an ask may end.
SLACK = 0.25


# -- one deadline ---------------------------------------------------------------------------------
@settings(max_examples=15, deadline=None)
@given(work=st.floats(0, 0.4), budget=st.floats(0.05, 0.3))
def test_within_ends_by_the_deadline_and_uses_only_what_came_in_time(work, budget):
    finished = threading.Event()

    def call() -> str:
        time.sleep(work)
        finished.set()
        return "answer"

    started = time.monotonic()
    try:
        got = within(budget, call)
    except DeadlinePassed:
        got = None
    took = time.monotonic() - started
    assert took <= budget + SLACK
    if got is not None:
        assert got == "answer" and finished.is_set()  # only a finished call's answer is ever used
    elif work < budget - SLACK:
        pytest.fail(f"a call of {work:.2f} s was dropped with a budget of {budget:.2f} s")


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(delays=st.lists(st.floats(0, 0.5), min_size=2, max_size=2),
       answers=st.lists(st.sampled_from(["good", "bad", "garbage"]), min_size=2, max_size=2))
def test_whatever_the_servers_timing_the_ask_ends_by_its_budget(delays, answers):
    budget = 0.4
    texts = {"good": proposal("conversation_accept", {"message": "メイさん、こんにちは！"}),
             "bad": proposal("move"), "garbage": "えーと"}
    calls = iter(zip(delays, answers))

    def slow(request: httpx.Request) -> httpx.Response:
        delay, kind = next(calls)
        time.sleep(delay)
        return answer(texts[kind])

    chosen = decider(timeout=budget)
    chosen._chat.ready()  # the client's import is not the model's time (as in propose)
    with respx.mock(assert_all_called=False) as router:
        router.post(f"{BASE}/chat/completions").side_effect = slow
        started = time.monotonic()
        proposed = chosen.propose(make_view([ACCEPT, REJECT]))
        took = time.monotonic() - started
    trace = proposed.model
    # The ask itself ends by the deadline; the whole call adds the rules' own proposal and the prompt.
    assert trace.ms <= (budget + SLACK) * 1000 and took <= budget + 4 * SLACK
    if trace.outcome == RULES and trace.error:
        assert trace.out_of_time or trace.error not in ("timeout", "budget spent")
    if delays[0] >= budget + SLACK:
        assert trace.outcome == RULES and trace.out_of_time  # the first answer came too late: never used


# -- no user:password@ -----------------------------------------------------------------------------
PASSWORD = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=12).map(
    lambda s: f"pw{s}zz")


@settings(max_examples=60, deadline=None)
@given(user=st.one_of(st.none(), st.text(max_size=8)), password=st.one_of(st.none(), PASSWORD),
       scheme=st.sampled_from(["http", "https"]), host=st.sampled_from(["127.0.0.1", "localhost", "llm.example"]))
def test_any_user_or_password_in_the_model_url_is_refused_and_never_shown(user, password, scheme, host):
    if user is None and password is None:
        user = ""
    userinfo = quote(user or "", safe="") + (f":{quote(password, safe='')}" if password is not None else "")
    url = f"{scheme}://{userinfo}@{host}/v1"
    with pytest.raises(ConfigError) as refused:
        normalise_base_url(url)
    message = str(refused.value)
    assert "\n" not in message
    if password is not None:
        assert password not in message and quote(password, safe="") not in message
    assert "must not carry a user name or password" in message


@given(url=st.sampled_from(["https://llm.example/v1", "http://localhost:8080/v1", "https://a.b/x/v1"]))
def test_a_url_without_credentials_passes_the_shared_check(url):
    from urllib.parse import urlsplit

    refuse_credentials("KARAKURI_LLM_BASE_URL", urlsplit(url), "KARAKURI_LLM_API_KEY")
    assert normalise_base_url(url) == url


# -- the record says who decided -------------------------------------------------------------------
PROBLEM = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=40)


@given(outcome=st.sampled_from([MODEL, REPAIRED, RULES]), problem=PROBLEM, error=st.sampled_from([None, "http 500"]),
       sent=st.sampled_from([None, True, False]))
def test_a_trace_the_last_gate_overrules_says_the_rules_decided_whatever_its_history(outcome, problem, error, sent):
    asked = {MODEL: 1, REPAIRED: 2, RULES: 2}[outcome]
    trace = LLMTrace("m", proposals=[{"command": f"c{i}"} for i in range(asked)],
                     problems=[["first refused"]] * (asked - 1 if outcome != RULES else asked),
                     outcome=outcome, error=error if outcome == RULES else None, sent=sent)
    before = trace.to_json()
    trace.overruled(problem)
    assert trace.outcome == RULES and trace.verdict() == "rules decided"
    assert len(trace.problems) == len(trace.proposals)
    if outcome == RULES:  # the rules had already decided: nothing to correct
        assert trace.to_json() == before
    else:
        assert trace.problems[-1] == [problem] and f"c{asked - 1} ({problem})" in trace.line()
    again = LLMTrace.from_json(json.loads(json.dumps(trace.to_json())))
    assert again.to_json() == trace.to_json()


# -- the rules' effects, then the model's deltas ---------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(low=st.integers(-50, 0), span=st.integers(1, 200), start=st.floats(0, 1), max_delta=st.integers(1, 60),
       rule_add=st.integers(-100, 100), model_delta=st.integers(-150, 150))
def test_the_rules_effects_and_the_models_deltas_both_apply_in_order_clamped(low, span, start, max_delta, rule_add,
                                                                            model_delta):
    initial = low + round(start * span)
    data = {"variables": {"energy": {"min": low, "max": low + span, "initial": initial, "max_delta": max_delta},
                          "seen": {"type": "flag", "initial": False}},
            "rules": [{"id": "noticed", "priority": 500, "when": {"type": "notification", "types": ["*"]},
                       "then": [{"type": "set", "path": "seen", "value": True},
                                {"type": "add", "path": "energy", "value": rule_add}]}]}
    v = with_pack(view([MOVE, WAIT]), data, now=TOKYO_NOON)
    said = {"command": "wait", "params": {"duration": 1}, "reason": "r", "state": {"energy": model_delta}}
    with respx.mock(assert_all_called=False) as router:
        router.post(f"{BASE}/chat/completions").side_effect = [answer(json.dumps(said))]
        proposed = decider().propose(v)
    chosen = proposed.candidates[0]
    assert chosen.deltas == {"energy": model_delta}
    memory, trace = finish(v, proposed.selection, chosen, "wait", True)
    assert trace is not None and trace["fired"] == ["noticed"] and memory["rules"]["noticed"]["fires"] == 1
    energy = [c for c in trace["changes"] if c["path"] == "energy"]
    assert [c["by"] for c in energy] == ["noticed", "model"]
    assert energy[0]["after"] == energy[1]["before"]  # the model's delta starts where the rule left it

    def clamp(value: float) -> float:
        value = max(initial - max_delta, min(initial + max_delta, value))
        return max(low, min(low + span, value))

    assert energy[0]["after"] == clamp(initial + rule_add)
    assert energy[1]["after"] == clamp(energy[0]["after"] + model_delta)
    assert memory["variables"]["energy"] == energy[1]["after"] and memory["variables"]["seen"] is True
