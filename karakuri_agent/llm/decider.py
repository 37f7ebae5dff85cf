"""A language model as the decider: it proposes, the engine decides.

`LLMDecider.propose(view)` asks the model once for one proposal (a bounded
request for the JSON Schema of the offered choices, llm/chat.py and
llm/answer_schema.py), reads it forgivingly, holds it to the agent's own limits
and to the gate the caller passes in, asks once more with its answer and
the problems shown when it fails, and otherwise hands the decision back to
the rules. A model that is down, slow, rude or wrong never costs the
notification: every failure, and an exhausted budget, ends in the rules'
own proposals. An admitted proposal
comes first, the rules' proposals after it, so whatever later refuses it
still finds a sendable candidate.

The `openai` package (the `llm` extra) is imported only when a model is
actually asked, so the rules path starts as fast as without it.

Built by `app/registry.py` (KARAKURI_DECIDER=llm) with the rules and
`gate.problems_in_view`. `propose` returns a `Proposal` whose `model` is the
`LLMTrace` (domain/model_trace.py) of that call, None when nothing was asked; the
cycle notes whether a command was sent and stores `trace.to_json()` with the
run's report entry, which `log`, `--explain` and `--dry-run` print as
`trace.line()`. `last_trace` keeps the last one for a caller that holds only
the decider.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, replace
from collections.abc import Callable
from importlib.util import find_spec
from typing import Any

from karakuri_agent.secret import redact
from karakuri_agent.errors import ConfigError
from karakuri_agent.domain.commands import ACCEPT_TRANSFER
from karakuri_agent.domain.decision import Decision
from karakuri_agent.decide.deciders import Decider, Proposal
from karakuri_agent.llm import LLM_EXTRA
from karakuri_agent.domain.notification import offered_choice
from karakuri_agent.mind.view import View
from karakuri_agent.gate import SPOKEN_FIELDS
from karakuri_agent.ja.prompt_text import OWN_WORDS
from karakuri_agent.llm.chat import Chat, describe_failure
from karakuri_agent.llm.prompt import build_messages, persona_card
from karakuri_agent.llm.proposal import UnreadableProposal, read_proposal
from karakuri_agent.llm.answer_schema import proposal_schema
from karakuri_agent.llm.settings import LLMSettings
from karakuri_agent.domain.model_trace import MODEL, REPAIRED, LLMTrace

# `(view, decision) -> problems`; empty means admitted. The caller's one gate:
# offered, schema, lengths, a clean line, not said before.
Gate = Callable[[View, Decision], list[str]]
# Commands and params through which money or items leave or enter the agent.
GIVE_COMMANDS = ("transfer",)
MONEY_PARAMS = ("transfer", "transfer_response")
ATTEMPTS = 2  # the first answer, and one repair
_EXCERPT = 120
log = logging.getLogger(__name__)


class LLMDecider:
    """Proposals from a model, admitted only through the gate and the agent's own limits."""

    def __init__(
        self,
        settings: LLMSettings,
        rules: Decider,
        *,
        gate: Gate,
        clock: Callable[[], float] = time.monotonic,
        secrets: tuple[str, ...] = (),
    ) -> None:
        if find_spec("openai") is None:
            raise ConfigError(LLM_EXTRA)
        self._settings = settings
        self._rules = rules
        self._gate = gate
        self._clock = clock
        # A model that repeats a secret (its own key, one an agent in the world told it) must not
        # get it into the trace, `--explain` or the state.
        self._secrets = tuple(s for s in (*secrets, settings.api_key.get() if settings.api_key else "") if s)
        self._chat = Chat(settings, clock=clock)
        self.last_trace: LLMTrace | None = None

    def propose(self, view: View) -> Proposal:
        proposed = self._rules.propose(view)
        rules = list(proposed.candidates)
        self.last_trace = None
        if not view.choices:
            return proposed  # nothing to decide: no tokens spent
        trace = self.last_trace = LLMTrace(self._settings.model, budget=self._settings.timeout)
        started = self._clock()
        try:
            # Loading the client and reading the line (the analyzer, the first prompt and the schema) are the
            # machine's time, not the model's: done before the budget starts.
            self._chat.ready()
            asking = _Asking(persona_card(view.persona), next((d for d in rules if d.acts), None),
                             proposal_schema(view.choices, variables=_variables(view)))
            first = asking.messages(view, None, self._secrets)
            started = self._clock()
            chosen = self._ask(view, rules, trace, asking, first, deadline=started + self._settings.timeout)
        except Exception as exc:  # noqa: BLE001 - whatever fails on the model's side, the rules act
            trace.error = describe_failure(exc)
            chosen = None
        trace.ms = round((self._clock() - started) * 1000)
        if trace.out_of_time:
            log.warning("model %s: no usable answer within KARAKURI_LLM_TIMEOUT=%g s; the rules decided",
                        self._settings.model, self._settings.timeout)
        return replace(proposed, candidates=tuple(rules if chosen is None else [chosen, *rules]), model=trace)

    def _ask(self, view: View, rules: list[Decision], trace: LLMTrace, asking: _Asking,
             messages: list[dict[str, str]], *, deadline: float) -> Decision | None:
        """The first admitted proposal within the budget, or None: `messages` first, then one repair."""
        repair: tuple[str | None, list[str]] | None = None
        for attempt in range(ATTEMPTS):
            if deadline - self._clock() <= 0:
                trace.error = "budget spent"
                return None
            if repair is not None:
                messages = asking.messages(view, repair, self._secrets)
            answer = self._chat.complete(messages, asking.schema, deadline=deadline)
            trace.response_format = answer.format
            trace.prompt_tokens += answer.prompt_tokens
            trace.completion_tokens += answer.completion_tokens
            try:
                proposal = read_proposal(answer.text)
            except UnreadableProposal as exc:
                trace.proposals.append({"unreadable": redact(answer.text[:_EXCERPT], self._secrets)})
                problems = [exc.problem]
                repair = (None, problems)  # nothing to show back: ask for the JSON alone
            else:
                # The params go to the gate as given (it refuses one carrying a secret); what is
                # shown or kept (the reason, the proposal in the trace, the problems) is masked.
                decision = Decision(proposal.command, proposal.params, masked(proposal.reason, self._secrets),
                                    deltas=proposal.state or None)
                shown = masked(proposal.model_dump(exclude=None if proposal.state else {"state"}), self._secrets)
                trace.proposals.append(shown)
                problems = masked(own_limits(decision, rules) or unknown_params(view, decision)
                                  or placeholder_copied(decision) or self._gate(view, decision), self._secrets)
                if not problems:
                    trace.outcome = REPAIRED if attempt else MODEL
                    return decision
                repair = (json.dumps(shown, ensure_ascii=False), problems)
            trace.problems.append(problems)
        return None


@dataclass(frozen=True)
class _Asking:
    """What every attempt of one ask shares: the persona card, the rules' default and the schema."""

    persona: dict[str, Any]
    default: Decision | None
    schema: dict[str, Any]

    def messages(self, view: View, repair: tuple[str | None, list[str]] | None,
                 secrets: tuple[str, ...]) -> list[dict[str, str]]:
        return build_messages(self.persona, view, self.default, repair=repair, secrets=secrets)


def masked(value: Any, secrets: tuple[str, ...]) -> Any:
    """`value` (a model's JSON: texts, lists, objects) with every secret in its texts replaced by ***."""
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, list):
        return [masked(v, secrets) for v in value]
    if isinstance(value, dict):
        return {redact(str(k), secrets): masked(v, secrets) for k, v in value.items()}
    return value


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


def placeholder_copied(decision: Decision) -> list[str]:
    """A line that is the prompt's placeholder for one (a model copying the default's shape) says nothing."""
    return [f"{name} is the prompt's placeholder: write the line in your own words"
            for name in SPOKEN_FIELDS if OWN_WORDS.strip("<>") in str(decision.params.get(name) or "")]


def _money(decision: Decision) -> dict[str, Any]:
    if decision.command in GIVE_COMMANDS:
        return decision.params
    return {k: decision.params.get(k) for k in MONEY_PARAMS if decision.params.get(k) not in (None, "", {})}


def _variables(view: View) -> list[str]:
    """The names a proposal's `state` may change: the pack's variables as the prompt shows them."""
    from karakuri_agent.decide.behaving import turn_of  # only a pack with behaviour.json has any

    turn = turn_of(view)
    return [str(v["path"]) for v in turn.variables.shown()] if turn is not None else []
