"""A decision: one command to send (or none), with its params, its reason and where it came from.

Low in the package (it holds only other domain types): the rules, the model
decider, the gate and the cycle all speak it, and none of them has to import
another's behaviour to do so. How deciders hand decisions over (`Proposal`)
is decide/deciders.py's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from karakuri_agent.domain.json_value import JsonValue
from karakuri_agent.domain.records import Recall


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
