"""A language model as the decider: it proposes, the engine decides.

`LLMDecider.propose(view)` asks the model once for one proposal, reads it
forgivingly, holds it to the agent's own limits and to the gate the caller
passes in, asks once more with the problems listed when it fails, and
otherwise hands the decision back to the rules. A model that is down,
slow, rude or wrong never costs the notification: every failure, and an
exhausted budget, ends in the rules' own proposals. An admitted proposal
comes first, the rules' proposals after it, so whatever later refuses it
still finds a sendable candidate.

The `openai` package (the `llm` extra) is imported only when a model is
actually asked, so the rules path starts as fast as without it.

Built by `deciders.DECIDERS["llm"]` (KARAKURI_DECIDER=llm) with the rules
and `gate.problems_in_view`. Right after `propose`, `decider.last_trace`
holds the `LLMTrace` (llm/trace.py) of that call, None when nothing was
asked; the cycle reads it there and then, notes whether a command was sent,
and stores `trace.to_json()` with the run's report entry, which `log`,
`--explain` and `--dry-run` print as `trace.line()`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

from ..errors import ConfigError
from ..commands import ACCEPT_TRANSFER
from ..deciders import LLM_EXTRA, Decider, Decision
from ..models import offered_choice
from ..policy import View
from .prompt import build_messages, persona_card
from .proposal import UnreadableProposal, read_proposal
from .settings import LLMSettings
from .trace import MODEL, REPAIRED, LLMTrace

# `(view, decision) -> problems`; empty means admitted. The caller's one gate:
# offered, schema, lengths, a clean line, not said before.
Gate = Callable[[View, Decision], list[str]]
# Commands and params through which money or items leave or enter the agent.
GIVE_COMMANDS = ("transfer",)
MONEY_PARAMS = ("transfer", "transfer_response")
ATTEMPTS = 2  # the first answer, and one repair
_EXCERPT = 120


class LLMDecider:
    """Proposals from a model, admitted only through the gate and the agent's own limits."""

    def __init__(
        self,
        settings: LLMSettings,
        rules: Decider,
        *,
        gate: Gate,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if find_spec("openai") is None:
            raise ConfigError(LLM_EXTRA)
        self._settings = settings
        self._rules = rules
        self._gate = gate
        self._clock = clock
        self._client: Any = None
        self.last_trace: LLMTrace | None = None

    def propose(self, view: View) -> list[Decision]:
        rules = self._rules.propose(view)
        self.last_trace = None
        if not view.choices:
            return rules  # nothing to decide: no tokens spent
        trace = self.last_trace = LLMTrace(self._settings.model)
        started = self._clock()
        try:
            chosen = self._ask(view, rules, trace, deadline=started + self._settings.timeout)
        except Exception as exc:  # noqa: BLE001 - whatever fails on the model's side, the rules act
            trace.error = _describe(exc)
            chosen = None
        trace.ms = round((self._clock() - started) * 1000)
        return rules if chosen is None else [chosen, *rules]

    def _ask(self, view: View, rules: list[Decision], trace: LLMTrace, *, deadline: float) -> Decision | None:
        """The first admitted proposal within the budget, or None."""
        persona = persona_card(view.persona)
        default = next((d for d in rules if d.acts), None)
        repair: tuple[str, list[str]] | None = None
        for attempt in range(ATTEMPTS):
            remaining = deadline - self._clock()
            if remaining <= 0:
                trace.error = "budget spent"
                return None
            answer = self._complete(build_messages(persona, view, default, repair=repair), remaining, trace)
            try:
                proposal = read_proposal(answer)
            except UnreadableProposal as exc:
                trace.proposals.append({"unreadable": answer[:_EXCERPT]})
                problems = [exc.problem]
            else:
                decision = Decision(proposal.command, proposal.params, proposal.reason,
                                    trace={"state": proposal.state} if proposal.state else None)
                trace.proposals.append(proposal.model_dump(exclude=None if proposal.state else {"state"}))
                problems = own_limits(decision, rules) or unknown_params(view, decision) or self._gate(view, decision)
                if not problems:
                    trace.outcome = REPAIRED if attempt else MODEL
                    return decision
            trace.problems.append(problems)
            repair = (answer, problems)
        return None

    def _complete(self, messages: list[dict[str, str]], timeout: float, trace: LLMTrace) -> str:
        """One chat completion, bounded by what is left of the budget; no retries of its own.

        The timeout bounds connecting, sending and each wait for the answer,
        which is what a slow or hung model does (a non-streamed answer comes
        all at once, when the model is done).
        """
        if self._client is None:
            from openai import OpenAI

            key = self._settings.api_key.get() if self._settings.api_key else "not-needed"
            self._client = OpenAI(base_url=self._settings.base_url, api_key=key, max_retries=0)
        response = self._client.chat.completions.create(
            model=self._settings.model, messages=messages, timeout=timeout)
        if response.usage is not None:
            trace.prompt_tokens += response.usage.prompt_tokens or 0
            trace.completion_tokens += response.usage.completion_tokens or 0
        return (response.choices[0].message.content or "") if response.choices else ""


def own_limits(decision: Decision, rules: list[Decision]) -> list[str]:
    """The agent's own limits, whatever the gate says: money and items move only as the rules move them.

    Another agent can talk a model into anything; it cannot talk the rules
    (and the operator's transfer setting behind them) into it. So giving, or
    accepting, is admitted only when the rules proposed the same.
    """
    gives = decision.command in GIVE_COMMANDS or any(decision.params.get(k) not in (None, "", {}) for k in MONEY_PARAMS)
    accepts = decision.command in ACCEPT_TRANSFER
    if not (gives or accepts):
        return []
    if any(d.command == decision.command and _money(d) == _money(decision) for d in rules):
        return []
    if accepts:
        return [f"{decision.command}: accepting this transfer is against the agent's own transfer setting"]
    return [f"{decision.command}: the agent never gives money or items because it was asked"]


def unknown_params(view: View, decision: Decision) -> list[str]:
    """Params the offered choice does not name: a model may not invent any.

    The gate lets a choice without a `param_schema` carry any params (an LLM
    runtime may know more than the notification says); a model proposing
    for the agent may only fill the fields the choice names.
    """
    choice = offered_choice(view.choices, decision.command or "", decision.params)
    if choice is None:
        return []  # not offered: the gate says so
    named = {*choice.param_schema, *choice.params, *choice.required_params}
    return [f"{name} is not a parameter of {choice.command}" for name in decision.params if name not in named]


def _money(decision: Decision) -> dict[str, Any]:
    if decision.command in GIVE_COMMANDS:
        return decision.params
    return {k: decision.params.get(k) for k in MONEY_PARAMS if decision.params.get(k) not in (None, "", {})}


def _describe(exc: Exception) -> str:
    """A short, secret-free name for a failure (the exception's text may quote a URL)."""
    status = getattr(exc, "status_code", None)
    if isinstance(status, int):
        return f"http {status}"
    name = type(exc).__name__
    return {"APITimeoutError": "timeout", "APIConnectionError": "unreachable"}.get(name, name)
