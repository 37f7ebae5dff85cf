"""What a decider hands over: a decision, a proposal of them, and the Decider protocol.

A leaf of the package (it imports nothing of it, the View aside, for the
type checker only): the rules, the model decider, the gate and the cycle all
speak these types, and none of them has to import another's behaviour to do so.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Protocol

if TYPE_CHECKING:
    from karakuri_agent.domain.view import View


@dataclass(frozen=True)
class Decision:
    """One command to send (or none), with params and the reason for it.

    `rule` names the rule that proposed it (a built-in one or a pack's) and
    `trace` carries that selection (behaviour/selector.py) to the cycle; neither
    takes part in comparing two decisions.
    """

    command: str | None
    params: dict[str, Any] = field(default_factory=dict)
    reason: str = ""
    rule: str = field(default="", compare=False)
    trace: Any = field(default=None, compare=False, repr=False)
    # The memory its line brings up (recall.Recall), marked as mentioned once the command succeeded.
    recalled: Any = field(default=None, compare=False, repr=False)
    # For a decision to send nothing: the report's phrase for why (ja/, `…ため、`), when it has one.
    idle_why: str = field(default="", compare=False)
    # A model's changes to the pack's variables (`{"energy": -10}`), applied after the rules' own
    # effects in the same notification (so `trace` stays free to carry the rules' selection).
    deltas: dict[str, Any] | None = field(default=None, compare=False, repr=False)

    @property
    def acts(self) -> bool:
        return self.command is not None


class Proposal(list["Decision"]):
    """A decider's candidates, best first, and how it came to them.

    A list, so a proposal compares as its candidates do; `trace` is what the
    decider wants on record about this one proposal (a model's LLMTrace: what
    it was asked, what it answered, how long it took), and `errors` what went
    wrong on the way and was fallen back from, kept as the exceptions they
    are. Handing them over with the candidates, not on the decider, keeps a
    decider free of per-call state the caller would have to read back.

    `then` is a fallback's candidates, asked for only once iteration gets past
    the listed ones: the gate stops at the first it admits, so a fallback that
    is not needed is never asked.
    """

    def __init__(self, candidates: Iterable[Decision] = (), *, trace: Any = None,
                 errors: Iterable[BaseException] = (),
                 then: Callable[[], Iterable[Decision]] | None = None) -> None:
        super().__init__(candidates)
        self.trace = trace
        self.errors: list[BaseException] = list(errors)
        self._then = then

    def __iter__(self) -> Iterator[Decision]:
        yield from super().__iter__()
        if self._then is not None:
            yield from self._then()


class Decider(Protocol):
    def propose(self, view: View) -> Iterable[Decision]: ...
