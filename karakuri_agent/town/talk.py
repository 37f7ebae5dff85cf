"""Conversations in the engine town: residents' turns, and what follows the agent's (domain/conversation.ts).

The engine's rules modelled:
- the speaker names the next speaker, who must be another current participant;
- a message delivered after `turn >= max_turns` opens the closing round:
  the next speaker gets one farewell turn (`これが最後のメッセージです。`);
- a two-person `end_conversation` closes it: the other gets a last word,
  then it ends (`ended_by_agent`); in a group it is leaving, announced as
  `🔔 X が会話から離れました。` with the next speaker, and the talk goes on;
- an offer travels with a turn (`transfer`) to the next speaker, who answers
  it with `transfer_response` in their next turn; a turn without one rejects
  it (`unanswered_speak`);
- a participant who has not spoken for `inactive_check_turns` turns is asked
  to stay or leave;
- a server announcement can close a conversation with only the agent left in it.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from . import texts
from .life import (after_agent_left, end_conversation, fyi, leave, new_conversation, participants,
                   meeting_time, open_meeting, reply_prompt, say, spoken_time, turn_choices, turn_prompt)
from .entities import Conversation, Resident
from .world import ITEM_NAMES, SELF_ID

if TYPE_CHECKING:
    from .core import TownCore

def later(town: "TownCore", kind: str, conv: Conversation, **data: Any) -> None:
    town.arm("conv", town.now + town.interval, kind, conversation=conv.conversation_id, **data)


def resident_answers(town: "TownCore", conv: Conversation) -> None:
    """The agent spoke first: the resident accepts with a line of their own (mostly) or declines."""
    resident = town.residents[conv.participants[1]]
    body = town.body
    body.pending_conversation = None
    if town.rng.random() < town.decline_chance:
        town.conversations.pop(conv.conversation_id, None)
        resident.state = "idle"
        resident.last_talk = town.now
        from .life import idle_prompt
        idle_prompt(town, "conversation_rejected", texts.event_line("conversation_rejected", reason="rejected",
                                                                   name=resident.name))
        return
    conv.status = "active"
    resident.state = "in_conversation"
    body.state = "in_conversation"
    body.conversation = conv.conversation_id
    line = say(town, resident, "accept")
    conv.turn = 2
    conv.history.append((resident.name, line))
    conv.last_spoken[resident.agent_id] = 2
    reply_prompt(town, conv, resident.name, line)


def maybe_join(town: "TownCore", conv: Conversation) -> None:
    """Someone joins (applied at the interval, as the engine's pending joiners): a resident standing by,
    or one who walks up to the talk."""
    if len(conv.participants) >= 3 or town.rng.random() >= town.join_chance:
        return
    free = [r for r in town.residents.values() if r.state in ("idle", "in_action") and r.agent_id not in conv.participants
            and r.agent_id not in conv.left]
    near = [r for r in free if r in town.near(town.body.node, 2)]
    if not (near or free):
        return
    joiner = town.rng.choice(near or free)
    if joiner not in near:
        beside = [n for n in town.world.map.neighbours(town.body.node) if town.world.map.passable(n)]
        joiner.node = town.rng.choice(beside or [town.body.node])
    joiner.state, joiner.busy_until = "in_conversation", None
    conv.participants.append(joiner.agent_id)
    conv.last_spoken[joiner.agent_id] = conv.turn
    town.log("joined", conversation=conv.conversation_id, who=joiner.agent_id)


def resident_speaks(town: "TownCore", conv: Conversation) -> None:
    rng = town.rng
    resident = town.residents[conv.speaker]
    if conv.status == "closing":
        line = say(town, resident, "last_word")
        conv.history.append((resident.name, line))
        conv.turn += 1
        if rng.random() < 0.5:
            fyi(town, texts.fyi_text(resident.name, line, None), conv)
        end_conversation(town, conv, conv.closing_reason or "max_turns")
        return
    if conv.turn >= 3 and rng.random() < town.announcement_chance:
        announcement_close(town, conv)
        return
    if conv.status == "active" and conv.turn >= 2:
        maybe_join(town, conv)
    act = conv.plan.pop(0) if conv.plan else "bye"
    settled, conv.settled = conv.settled, None
    if settled and act != "bye":
        act = settled
    others = [p for p in conv.participants if p != resident.agent_id]
    if act == "bye":
        farewell(town, conv, resident, others)
        return
    facts: dict[str, str] = {}
    if act == "offer":
        offer = make_offer(resident) if town.transfers else None
        if offer is None:
            act = "chat"
        else:
            conv.pending_offer = offer
            facts = {"item": ITEM_NAMES.get(offer["item"][0], offer["item"][0]) if offer.get("item") else "",
                     "money": texts.yen(offer.get("money", 0))}
            act = "offer_item" if offer.get("item") else "offer_money"
    if act == "call_off":
        meeting = open_meeting(town, resident.agent_id)
        if meeting is None:
            act = "chat"
        else:
            meeting["withdrawn"] = town.now
            facts = {"place": meeting["place"], "when": spoken_time(town, meeting["at"])}
            town.log("meeting_called_off", resident=resident.agent_id, place=meeting["place"], at=meeting["at"])
    if act == "meet_timed":
        at, spoken = meeting_time(town)
        building = town.rng.choice(town.world.map.buildings)
        facts = {"place": building.name, "when": spoken}
        for earlier in town.meetings:  # the same resident at the same time somewhere else: the plan moved there
            if earlier["resident"] == resident.agent_id and earlier["at"] == at and not earlier.get("withdrawn"):
                earlier["withdrawn"] = town.now
        town.meetings.append({"resident": resident.agent_id, "place": building.name, "at": at,
                              "node": building.interior[0], "step": len(town.steps)})
        town.schedule(at, "meet", resident=resident.agent_id, node=building.interior[0], meeting=len(town.meetings) - 1)
    line = say(town, resident, act, **facts)
    if act == "prank":
        town.log("prank", conversation=conv.conversation_id, step=len(town.steps), line=line)
    nxt = SELF_ID if act.startswith("offer") or len(others) == 1 or rng.random() < 0.6 else rng.choice(
        [p for p in others if p != SELF_ID])
    conv.turn += 1
    conv.history.append((resident.name, line))
    conv.last_spoken[resident.agent_id] = conv.turn
    conv.last_spoken[nxt] = conv.turn
    if conv.turn >= conv.max_turns:
        conv.status, conv.closing_reason = "closing", "max_turns"
    if nxt == SELF_ID:
        reply_prompt(town, conv, resident.name, line)
        return
    fyi(town, texts.fyi_text(resident.name, line, town.name_of(nxt)), conv)
    conv.speaker = nxt
    if conv.status == "active" and conv.turn - conv.last_spoken.get(SELF_ID, 0) >= town.inactive_turns:
        conv.inactive_check = True
        choices = [town.choices.stay(), town.choices.leave()]
        town.issue("conversation_inactive_check", "inactive", texts.inactive_check_text(town.world, town.self_name),
                   choices, summary="会話を続けるか確認しています。", conversation=conv)
        town.arm("turn", town.now + town.turn_timeout, "inactive_timeout", conversation=conv.conversation_id)
        return
    later(town, "resident_turn", conv)


def farewell(town: "TownCore", conv: Conversation, resident: Resident, others: list[str]) -> None:
    line = say(town, resident, "bye")
    conv.turn += 1
    conv.history.append((resident.name, line))
    if len(conv.participants) <= 2:
        conv.status, conv.closing_reason = "closing", "ended_by_agent"
        reply_prompt(town, conv, resident.name, line)
        return
    leave(town, conv, resident.agent_id)
    remaining = [p for p in conv.participants if p != resident.agent_id]
    nxt = SELF_ID if town.rng.random() < 0.6 else next((p for p in remaining if p != SELF_ID), SELF_ID)
    fyi(town, texts.leave_text(resident.name, line, town.name_of(nxt)), conv)
    if len(conv.participants) <= 1:
        end_conversation(town, conv, "ended_by_agent")
    elif nxt == SELF_ID:
        turn_prompt(town, conv)
    else:
        conv.speaker = nxt
        later(town, "resident_turn", conv)


def announcement_close(town: "TownCore", conv: Conversation) -> None:
    """A server announcement closes the talk; the resident walks off, the agent may still say goodbye."""
    for pid in [p for p in conv.participants if p != SELF_ID]:
        if town.rng.random() < 0.7 or len(conv.participants) > 2:
            leave(town, conv, pid)
    conv.status, conv.closing_reason = "closing", "server_announcement"
    choices_text, choices = turn_choices(town, conv, True, False)
    text = texts.announcement_closing_text(town.world, town.self_name, participants(town, conv), choices_text)
    town.issue("conversation_closing", "closing", text, choices, summary="サーバーアナウンスにより会話が終了します。",
               conversation=conv)
    conv.speaker = SELF_ID
    town.arm("turn", town.now + town.turn_timeout, "turn_timeout", conversation=conv.conversation_id)


def make_offer(resident: Resident) -> dict[str, Any] | None:
    held = [i for i, q in sorted(resident.items.items()) if q > 0]
    if held and (resident.money < 500 or len(held) > 1):
        item = held[0]
        resident.items[item] -= 1
        return {"from": resident.agent_id, "to": SELF_ID, "item": (item, 1), "money": 0}
    if resident.money >= 500:
        money = 500 if resident.money < 2000 else 1000
        resident.money -= money
        return {"from": resident.agent_id, "to": SELF_ID, "item": None, "money": money}
    return None


def after_agent_spoke(town: "TownCore", conv: Conversation, nxt: str, *, ending: bool) -> None:
    """The agent's turn is done: the closing round goes on, the talk ends, or the next resident speaks."""
    if conv.status == "closing":
        if len(conv.participants) <= 2:
            later(town, "conv_end", conv, reason=conv.closing_reason or "max_turns")
        else:
            after_agent_left(town)
        return
    if ending:
        if len(conv.participants) <= 2:
            conv.status, conv.closing_reason = "closing", "ended_by_agent"
            conv.speaker = nxt
            later(town, "resident_turn", conv)
        else:
            after_agent_left(town)
        return
    if conv.turn >= conv.max_turns:
        conv.status, conv.closing_reason = "closing", "max_turns"
    conv.speaker = nxt
    later(town, "resident_turn", conv)


def start_by_agent(town: "TownCore", target: Resident, message: str) -> Conversation:
    conv = new_conversation(town, SELF_ID, [SELF_ID, target.agent_id])
    conv.history.append((town.self_name, message))
    conv.last_spoken = {SELF_ID: 1, target.agent_id: 0}
    conv.speaker = target.agent_id
    town.body.pending_conversation = conv.conversation_id
    target.state = "in_conversation"
    town.arm("conv", town.now + timedelta(seconds=town.rng.choice((20, 45, 90))), "resident_answer",
             conversation=conv.conversation_id)
    return conv


def join_talk(town: "TownCore", conv: Conversation) -> None:
    """The agent joined a talk among residents: at the next interval it is a participant, and someone greets it."""
    conv.participants.append(SELF_ID)
    conv.last_spoken[SELF_ID] = conv.turn
    conv.speaker = town.rng.choice([p for p in conv.participants if p != SELF_ID])
    conv.plan = ["ask"] + conv.plan
    later(town, "resident_turn", conv)
