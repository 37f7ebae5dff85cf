"""The rule for a gift offered: take it from someone known (the transfer policy), else decline."""

from __future__ import annotations

from karakuri_agent.decide.queries import NO_ACTION, takes_gift, transfer_sender
from karakuri_agent.domain.commands import ACCEPT_TRANSFER, REJECT_TRANSFER
from karakuri_agent.domain.decision import Decision
from karakuri_agent.mind.view import View
from karakuri_agent.ja import reasons


def transfer_offer_rule(view: View) -> list[Decision] | None:
    accept = view.choice(*ACCEPT_TRANSFER)
    reject = view.choice(*REJECT_TRANSFER)
    if accept is None and reject is None:
        return None
    sender = transfer_sender(view)
    take = takes_gift(view, sender)
    name = sender.name
    if take and accept is not None:
        return [Decision(accept.command, {}, reasons.take_gift(name))]
    if reject is not None:
        why = reasons.TRANSFERS_REFUSED if view.transfer_policy == "reject" else reasons.not_met_yet(name)
        return [Decision(reject.command, {}, reasons.decline_because(why))]
    return [NO_ACTION]
