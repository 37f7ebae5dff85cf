"""Deciders by name: what proposes the next command, and what stands in when it fails.

A decider only proposes (`propose(view)` → candidates, best first); the gate
(gate.py) decides what may be sent. `KARAKURI_DECIDER` names one entry of
DECIDERS; each entry builds its decider from the settings, importing what it
needs only when chosen, so the registry costs nothing at start-up.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Protocol

from karakuri_agent.errors import ConfigError

if TYPE_CHECKING:
    from karakuri_agent.app.config import Settings
    from karakuri_agent.decide.policy import View

log = logging.getLogger(__name__)


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

    @property
    def acts(self) -> bool:
        return self.command is not None


class Decider(Protocol):
    def propose(self, view: View) -> Iterable[Decision]: ...


class FallbackDecider:
    """The primary's candidates, then the fallback's.

    The fallback is asked only when it is needed: when the primary raises, or
    when none of the primary's candidates passed the gate (the caller stops
    reading at the first admitted one). A primary that explicitly proposes
    doing nothing is obeyed.
    """

    def __init__(self, primary: Decider, fallback: Decider) -> None:
        self.primary = primary
        self.fallback = fallback

    def propose(self, view: View) -> Iterator[Decision]:
        try:
            candidates = list(self.primary.propose(view))
        except Exception as exc:  # any failure of the primary: the fallback decides instead
            log.warning("decider %s failed (%s); falling back to %s",
                        type(self.primary).__name__, type(exc).__name__, type(self.fallback).__name__)
            candidates = []
        yield from candidates
        yield from self.fallback.propose(view)


LLM_EXTRA = "KARAKURI_DECIDER=llm needs the llm extra: in the clone, pip install '.[llm]'"


def _rules(settings: Settings) -> Decider:
    from karakuri_agent.decide.policy import RulePolicy

    return RulePolicy()


def _llm(settings: Settings) -> Decider:
    """A model that proposes, checked by the one gate, with the rules as its own fallback.

    LLMDecider already falls back to the rules on every failure of the model
    (and puts the rules' candidates behind its own), so it is not wrapped in
    FallbackDecider: that would only list the rules' candidates twice.
    """
    from karakuri_agent.gate import problems_in_view
    from karakuri_agent.decide.policy import RulePolicy

    if settings.llm is None:
        raise ConfigError("KARAKURI_DECIDER=llm but the model's settings were not read (use load_settings)")
    try:
        from karakuri_agent.llm.decider import LLMDecider
    except ModuleNotFoundError as exc:
        if exc.name not in ("openai", "pydantic", "pydantic_core"):
            raise
        raise ConfigError(LLM_EXTRA) from None
    return LLMDecider(settings.llm, RulePolicy(), gate=problems_in_view, secrets=settings.secrets)


# Name → builder. A new decider adds one entry here; one that can fail (a model)
# falls back to the rules (FallbackDecider, or its own fallback as "llm" has) and
# may check its own proposals with gate.problems_in_view first.
DECIDERS: dict[str, Callable[[Settings], Decider]] = {
    "rules": _rules,
    "llm": _llm,
}


def decider_builder(name: str) -> Callable[[Settings], Decider]:
    """The builder registered under `name`; ConfigError for an unknown name."""
    builder = DECIDERS.get(name)
    if builder is None:
        raise ConfigError(f"KARAKURI_DECIDER must be one of {', '.join(DECIDERS)}, got {name!r}")
    return builder


def build_decider(settings: Settings) -> Decider:
    return decider_builder(settings.decider)(settings)
