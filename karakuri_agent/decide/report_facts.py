"""What a decision is about, for the report: the place, action, partner, item and promise it names.

Read from the same View the decision came from, so the report says what
the agent chose and why it matters to a person.
"""

from __future__ import annotations

from typing import Any

from karakuri_agent.decide.queries import (
    action_label_of,
    current_node_of,
    meeting_node,
    name_of,
    name_of_agent,
    next_meeting,
    partner_of,
    place_group,
    place_name_here,
    transfer_sender,
)
from karakuri_agent.domain.commands import ACCEPT_TRANSFER, END, REJECT_TRANSFER
from karakuri_agent.domain.decision import Decision
from karakuri_agent.mind.view import View
from karakuri_agent.ja import phrases
from karakuri_agent.report.line import ReportFacts


# -- what a decision is about, for the report -----------------------------------------
def facts_of(view: View, decision: Decision) -> ReportFacts:
    """The names a report can use for this decision: place, action, partner, item, promise.

    Read from the same view the decision came from, so the report says what the
    agent chose and why it matters to a person (`約束の公民館へ向かいます`).
    """
    command, params = decision.command, decision.params
    if command == "move":
        target = str(params.get("target_node_id") or "")
        meeting = next((m for m in view.meetings if target and meeting_node(view, m) == target), None)
        if meeting is not None:
            return ReportFacts(place=meeting.place_name or name_of(view, target), promise=True)
        return ReportFacts(place=name_of(view, target))
    here = current_node_of(view)
    place = place_name_here(view) or (name_of(view, here) if here else None)
    if command == "action":
        action_id = str(params.get("action_id") or "")
        return ReportFacts(place=action_place(view, action_id, place), action=action_label_of(view, action_id))
    if command == "wait":
        meeting = next_meeting(view)
        node = meeting_node(view, meeting) if meeting is not None else None
        if meeting is not None and node is not None and place_group(view, node) == place_group(view, here):
            return ReportFacts(place=meeting.place_name, partner=meeting.partner_name, promise=True)
        return ReportFacts(place=place)
    if command in ACCEPT_TRANSFER + REJECT_TRANSFER:
        return ReportFacts(partner=transfer_sender(view).name, item=_transfer_item(view))
    if command == "transfer":
        return ReportFacts(partner=name_of_agent(view, params.get("target_agent_id")),
                           item=_amount(params.get("money")))
    if command == "conversation_start":
        return ReportFacts(partner=name_of_agent(view, params.get("target_agent_id")), place=place)
    if command is not None and params.get("transfer_response") in ("accept", "reject"):  # a turn answering an offer
        return ReportFacts(partner=transfer_sender(view).name, item=_transfer_item(view), place=place,
                           gift=str(params["transfer_response"]))
    if command is not None and (command.startswith("conversation_") or command in END):
        return ReportFacts(partner=partner_of(view).name, place=place)
    return ReportFacts(place=place)


def action_place(view: View, action_id: str, here: str | None) -> str | None:
    """Where an action happens, as people say it: the building whose action it is (`- 喫茶店「さくら」`).

    A node's label (トイレ, 店内) is not the building; an NPC's action
    (`- おまわりさん`) names a person, not a place, so it names none. Only
    when the text does not say whose action it is does the label here stand in.
    """
    option = next((a for a in view.parsed.actions if a.get("action_id") == action_id), None)
    source = option.get("source") if option else None
    if not source:
        return here
    npcs = {n.get("name") for n in view.parsed.npcs}
    return None if source in npcs else str(source)


def _transfer_item(view: View) -> str | None:
    """What is offered: an amount of money, or the item's name when it has one (ids are dropped later)."""
    for transfer in view.parsed.transfers:
        if _amount(transfer.get("money")):
            return _amount(transfer.get("money"))
        item = transfer.get("item")
        if item and (item.get("name") or item.get("item_id")):
            return str(item.get("name") or item.get("item_id"))
    return None


def _amount(money: Any) -> str | None:
    return phrases.yen(money) if isinstance(money, int) and not isinstance(money, bool) and money > 0 else None
