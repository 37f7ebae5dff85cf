"""What a decider hands over: a proposal of decisions, how its candidates are walked, the Decider protocol.

The rules (decide/rules/) and the model decider (llm/) both propose; the
cycle walks the candidates through the one gate. A proposal carries how it
came (the rules' selection with the pack's turn, a model's trace, the errors
fallen back from), so a decider keeps no per-call state of its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterator, Protocol

from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.model_trace import LLMTrace
from karakuri_agent.mind.view import View

if TYPE_CHECKING:
    from karakuri_agent.behaviour.selector import Selection


@dataclass(frozen=True)
class Proposal:
    """A decider's candidates, best first, and how it came to them.

    `selection` is the rules' selection of this notification (which rule
    decided, which gave way, the pack's turn with what fired): a model's
    proposal carries the rules' too, so the pack's firings stand when the
    model decides. `model` is what a model was asked and answered (None: no
    model was asked); `errors` what went wrong on the way and was fallen
    back from, kept as the exceptions they are. Handing them over with the
    candidates, not on the decider, keeps a decider free of per-call state
    the caller would have to read back.

    `fallback` is another decider's proposal, asked for only once every
    candidate here was refused (`walk`): the gate stops at the first it
    admits, so a fallback that is not needed is never asked.
    """

    candidates: tuple[Decision, ...] = ()
    selection: Selection[Decision] | None = None
    model: LLMTrace | None = None
    errors: tuple[BaseException, ...] = ()
    fallback: Callable[[], Proposal] | None = field(default=None, compare=False, repr=False)

    def walk(self) -> Walk:
        return Walk(self)


class Walk:
    """A proposal's candidates, then its fallback's, remembering whose the last one handed out was."""

    def __init__(self, proposal: Proposal) -> None:
        self.source = proposal
        self._order = self._in_order(proposal)

    def _in_order(self, proposal: Proposal) -> Iterator[Decision]:
        self.source = proposal
        yield from proposal.candidates
        if proposal.fallback is not None:
            yield from self._in_order(proposal.fallback())

    def __iter__(self) -> Walk:
        return self

    def __next__(self) -> Decision:
        return next(self._order)


class Decider(Protocol):
    def propose(self, view: View) -> Proposal: ...
