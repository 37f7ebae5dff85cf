"""The GET's retries are timed from its first try, however long loading the retry machinery takes.

The first GET is made without tenacity, which is imported only when that try
failed in a way worth trying again (a one-shot run answered at once never
loads it). The retry budget is still counted as tenacity's stop_before_delay
counts it: the first try's time, then the waits. A slow import must not eat
the budget (it did once: under load, a 503 was never retried within a 1 s
budget). The clock here is the client's own, advanced by hand.
"""

from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder
from typing import Any

import httpx
import pytest
import respx
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.app import client as client_module
from karakuri_agent.app.client import KarakuriClient
from karakuri_agent.errors import ServerRejected
from karakuri_agent.secret import Secret

from testing.samples import API_KEY, BASE_URL

NID = "notif-01JDX9M7QZ"
GET_URL = f"{BASE_URL}/agents/notifications/{NID}"


class Clock:
    """The client's `time` module: monotonic() as set by the test, sleep() moving it on."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


class SlowImport(MetaPathFinder):
    """Importing tenacity takes `seconds` on the client's clock (a busy machine)."""

    def __init__(self, clock: Clock, seconds: float) -> None:
        self.clock, self.seconds = clock, seconds

    def find_spec(self, name: str, path: Any, target: Any = None) -> None:
        if name == "tenacity":
            self.clock.now += self.seconds
        return None  # the real finders load it


def _get_count(first_took: float, import_took: float, budget: float, monkeypatch: pytest.MonkeyPatch) -> int:
    clock = Clock()
    monkeypatch.setattr(client_module, "time", clock)
    for name in [m for m in sys.modules if m == "tenacity" or m.startswith("tenacity.")]:
        monkeypatch.delitem(sys.modules, name)
    finder = SlowImport(clock, import_took)
    sys.meta_path.insert(0, finder)
    calls: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        calls.append(request)
        if len(calls) == 1:
            clock.now += first_took  # the first try's own time
        return httpx.Response(503, json={"error": "busy"})

    try:
        with respx.mock:
            respx.get(GET_URL).mock(side_effect=answer)
            with KarakuriClient(BASE_URL, Secret(API_KEY), sleep=clock.sleep, get_retry_budget=budget) as c:
                with pytest.raises(ServerRejected):
                    c.get_notification(NID)
            return len(calls)
    finally:
        sys.meta_path.remove(finder)


def test_a_slow_import_of_the_retry_machinery_is_not_charged_to_the_budget(monkeypatch):
    # First try 0.3 s, first wait 0.5 s: within a 1 s budget, so it is tried again, even when loading
    # tenacity took 0.6 s of the machine's time.
    assert _get_count(0.3, 0.6, 1.0, monkeypatch) >= 2


def test_a_first_try_that_used_the_budget_is_not_retried(monkeypatch):
    assert _get_count(0.6, 0.0, 1.0, monkeypatch) == 1  # 0.6 s + the 0.5 s wait ≥ 1 s


@settings(max_examples=30, deadline=None)
@given(first_took=st.floats(0.0, 2.0), import_took=st.floats(0.0, 3.0), budget=st.floats(0.1, 3.0))
def test_whether_it_retries_depends_on_the_first_try_and_the_budget_only(first_took, import_took, budget):
    with pytest.MonkeyPatch.context() as monkeypatch:
        slow = _get_count(first_took, import_took, budget, monkeypatch)
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast = _get_count(first_took, 0.0, budget, monkeypatch)
    assert slow == fast
    assert (slow >= 2) == (first_took + 0.5 < budget)  # tenacity's first wait is 0.5 s
