"""Falling back: a primary decider's candidates, then another's when it fails."""

from __future__ import annotations

import logging
from dataclasses import replace

from karakuri_agent.decide.deciders import Decider, Proposal
from karakuri_agent.mind.view import View

log = logging.getLogger(__name__)


class FallbackDecider:
    """The primary's candidates, then the fallback's.

    The fallback is asked only when it is needed: when the primary raises, or
    when none of the primary's candidates passed the gate (the caller stops
    reading at the first admitted one). A primary that explicitly proposes
    doing nothing is obeyed.
    """

    def __init__(self, primary: Decider, fallback: Decider, *,
                 falls_back_on: tuple[type[Exception], ...] = (Exception,)) -> None:
        self.primary = primary
        self.fallback = fallback
        # The failures of the primary the fallback stands in for; any other propagates.
        self.falls_back_on = falls_back_on

    def propose(self, view: View) -> Proposal:
        try:
            primary = self.primary.propose(view)
        except self.falls_back_on as exc:
            log.warning("decider %s failed (%s); falling back to %s",
                        type(self.primary).__name__, type(exc).__name__, type(self.fallback).__name__)
            stand_in = self.fallback.propose(view)
            return replace(stand_in, errors=(exc, *stand_in.errors))
        if primary.fallback is not None:  # the primary has its own: ours comes after it
            own = primary.fallback
            return replace(primary, fallback=lambda: replace(own(), fallback=lambda: self.fallback.propose(view)))
        return replace(primary, fallback=lambda: self.fallback.propose(view))
