"""The built-in decisions as named rules, tried in order by one selector.

Each rule is a small function of the View that answers with its candidates
(best first) or passes (None); `BUILTIN_RULES` gives each an id, a priority
and a line saying what it does. `propose` hands them, with a pack's rules,
to the selector (decide/behaving.py), which records which rule decided.
Nothing here does I/O, so the whole behaviour is tested in bulk, and another
decider (a language model) can replace it: it may only propose.

The rules follow `skill/SKILL.md`:
1. answer what the notification asks (a turn, a request, a check, an offer);
2. a commitment due soon takes precedence when a choice advances it;
3. an idle reminder is not a request to wait: look around only when the
   context lacks it, engage with what is here, otherwise move somewhere not
   visited recently; wait only with a reason;
4. variety: not the same action or place twice in a row.
"""

from __future__ import annotations

from karakuri_agent.behaviour import builtin
from karakuri_agent.behaviour.selector import BuiltinRule
from karakuri_agent.decide.filling import completed
from karakuri_agent.decide.queries import node_for_place, refused_here
from karakuri_agent.decide.rules.conversation import (
    conversation_request_rule,
    conversation_turn_rule,
    inactive_check_rule,
)
from karakuri_agent.decide.rules.daily import daily_life_rule, keep_commitment_rule
from karakuri_agent.decide.rules.transfer import transfer_offer_rule
from karakuri_agent.domain.decision import Decision
from karakuri_agent.decide.deciders import Proposal
from karakuri_agent.mind.view import View


class RulePolicy:
    """The built-in decider: rules, no tokens."""

    def propose(self, view: View) -> Proposal:
        return propose(view)


def propose(view: View) -> Proposal:
    """Candidates, best first; the cycle sends the first whose params validate.

    The first rule (by priority, the pack's among them) that answers gives
    them, each naming it (`Decision.rule`); the proposal carries the
    selection (who decided, who gave way, the pack's turn). Each has the
    required params its schema bounds (decide/filling.py); a command the
    world refused here lately (memory/lessons.py) is not among them.
    """
    from karakuri_agent.decide.behaving import select

    selection = select(view, BUILTIN_RULES, node_for_place)
    candidates = (completed(view, d) for d in selection.candidates)
    return Proposal(tuple(d for d in candidates if not refused_here(view, d)), selection=selection)


# The built-in behaviour as named rules, tried highest priority first (behaviour/selector.py):
# ids and priorities are documented (docs/behaviour.md) and stay, since packs name them.
BUILTIN_RULES: tuple[BuiltinRule[View, Decision], ...] = (
    BuiltinRule(builtin.CONVERSATION_TURN, 300,
                "answer a conversation turn (and an offer it carries); say goodbye when it has gone on long enough",
                conversation_turn_rule),
    BuiltinRule(builtin.CONVERSATION_REQUEST, 290, "accept an invitation to talk, unless a promise elsewhere is due",
                conversation_request_rule),
    BuiltinRule(builtin.INACTIVE_CHECK, 280, "stay in a conversation that is still going, leave one that has stopped",
                inactive_check_rule),
    BuiltinRule(builtin.TRANSFER_OFFER, 270, "take a gift from someone known (the transfer policy), else decline it",
                transfer_offer_rule),
    BuiltinRule(builtin.KEEP_COMMITMENT, 150, "a promise due soon: find its place, go there in time, wait for the partner",
                keep_commitment_rule),
    BuiltinRule(builtin.DAILY_LIFE, 10, "look around when lost, act here, talk to someone, move on; wait last",
                daily_life_rule),
)
