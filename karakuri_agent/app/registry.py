"""Deciders by name: what proposes the next command (KARAKURI_DECIDER).

A decider only proposes (`propose(view)` → candidates, best first); the gate
(gate.py) decides what may be sent. The app layer composes them, so the
registry lives here and not beside the deciders it builds.
`KARAKURI_DECIDER` names one entry of DECIDERS; each entry builds its decider from the settings, importing what it
needs only when chosen, so the registry costs nothing at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from karakuri_agent.decide.deciders import Decider
from karakuri_agent.errors import ConfigError
from karakuri_agent.llm import LLM_EXTRA

if TYPE_CHECKING:
    from karakuri_agent.app.config import Settings


def _rules(settings: Settings) -> Decider:
    from karakuri_agent.decide.rules import RulePolicy

    return RulePolicy()


def _llm(settings: Settings) -> Decider:
    """A model that proposes, checked by the one gate, with the rules as its own fallback.

    LLMDecider falls back to the rules on every failure of the model (and
    puts the rules' candidates behind its own, as `Proposal.fallback`).
    """
    from karakuri_agent.decide.rules import RulePolicy
    from karakuri_agent.gate import problems_in_view

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
# falls back to the rules as "llm" does (its Proposal's `fallback` and `errors`) and
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
