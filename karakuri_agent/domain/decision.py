"""What a decider hands over: a decision, a proposal of them, and the Decider protocol.

A leaf of the package (it imports nothing of it at run time; the types it
names, for the type checker only): the rules, the model decider, the gate
and the cycle all speak these types, and none of them has to import
another's behaviour to do so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterator, Protocol

if TYPE_CHECKING:
    from karakuri_agent.behaviour.selector import Selection
    from karakuri_agent.domain.view import View
    from karakuri_agent.llm.trace import LLMTrace
    from karakuri_agent.memory.recall import Recall

# What a command's params may hold: what strict JSON carries (the gate refuses anything else).
JsonValue = str | int | float | bool | None | list["JsonValue"] | dict[str, "JsonValue"]


@dataclass(frozen=True)
class Decision:
    """One command to send (or none), with params and the reason for it.

    `rule` names the rule that proposed it (a built-in one or a pack's; empty
    for a model's); it takes no part in comparing two decisions, nor do the
    fields after it.
    """

    command: str | None
    params: dict[str, JsonValue] = field(default_factory=dict)
    reason: str = ""
    rule: str = field(default="", compare=False)
    # The memory its line brings up, marked as mentioned once the command succeeded.
    recalled: Recall | None = field(default=None, compare=False, repr=False)
    # For a decision to send nothing: the report's phrase for why (ja/, `…ため、`), when it has one.
    idle_why: str = field(default="", compare=False)
    # A model's changes to the pack's variables (`{"energy": -10}`), applied after the rules' own
    # effects in the same notification.
    deltas: dict[str, JsonValue] | None = field(default=None, compare=False, repr=False)

    @property
    def acts(self) -> bool:
        return self.command is not None


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
