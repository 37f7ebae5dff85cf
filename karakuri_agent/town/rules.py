"""The referee: each POSTed command judged as the engine's routes and domain judge it, then applied.

A command is first held against the notification it answers (the contract's
wrapper): it must be one of that notification's choices, and its params must
fit the choice (`schema.check_params`, the project's strict
reading). Then the engine's own rules, with its error codes:

- `state_conflict` (409): the agent is busy (moving, in an action for a
  command that needs idle, in a conversation, waiting for an answer);
- move: `out_of_bounds`, `impassable_node` (walls, NPC nodes), `same_node`, `no_path`;
- action: `action_not_found`, `action_not_available` (not here, out of
  hours, the one just performed), `invalid_request` for a missing or
  out-of-range `duration_minutes`; money or items short is accepted by the
  route and refused by the world (`action_rejected`:
  「所持金が足りません（…）」 / 「必要なアイテムが足りません（必要: …）」);
- conversations: `target_not_found`, `target_unavailable`, `out_of_range`,
  `conversation_not_found`, `not_your_turn`, `next_speaker_required`,
  `cannot_nominate_self`, `invalid_next_speaker`, and `invalid_request` for
  an empty message, `transfer` with `transfer_response`, or a
  `transfer_response` with no offer pending;
- info commands: `info_already_consumed` when asked twice before acting.
"""

from __future__ import annotations

import re
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Callable

from .schema import check_params
from .entities import Refusal

from . import gifts, texts
from .life import (MAX_PARTICIPANTS, after_agent_left, available_actions, candidates, idle_prompt, info_prompt,
                   joinable, perception_text)
from .talk import after_agent_spoke, join_talk, start_by_agent
from .world import ITEM_NAMES, ITEMS, SELF_ID, distance

if TYPE_CHECKING:
    from .entities import Conversation, Step
    from .core import TownCore

ACCEPTED = "正常に受け付けました。結果が通知されるまで待機してください。"
NODE = re.compile(r"^\d+-\d+$")
ITEM_TYPES = {i.item_id: i.type for i in ITEMS}
INFO = ("get_available_actions", "get_perception", "get_map", "get_world_agents", "get_status",
        "get_nearby_agents", "get_active_conversations")


def judge(town: "TownCore", payload: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    step = town.by_id.get(str(payload.get("notification_id")))
    if step is None:
        return 404, {"error": "not_found", "message": "Notification not found."}
    step.posts.append(payload)
    if len(step.posts) > 1:
        return 409, {"error": "state_conflict", "message": "This notification was already acted on."}
    if step.expired_on_delivery:
        return _refuse(town, step, Refusal(409, "notification_expired", "The notification has expired."))
    if town.current is not None and step.index < town.current.index:  # a newer one was delivered since
        return _stale(town, step)
    command, params = payload.get("command"), payload.get("params")
    params = params if isinstance(params, dict) else {}
    if command not in step.commands:
        step.outside_choices += 1
        return _refuse(town, step, Refusal(400, "invalid_request", f"{command} is not one of this notification's choices."))
    offered = [c for c in step.choices if c["command"] == command]
    problems = [check_params(c, params) for c in offered]
    if all(problems):
        field, what = problems[0][0]
        return _refuse(town, step, Refusal(400, "invalid_request", f"Request validation failed: {field} {what}."))
    if step.post_fault:
        return _refuse(town, step, Refusal(step.post_fault, "service_unavailable", "Try again later."))
    try:
        answer = COMMANDS[str(command)](town, step, params)
    except Refusal as refusal:
        return _refuse(town, step, refusal)
    step.accepted = payload
    if "status" in step.body:
        step.body["status"] = "processed"
    return 200, answer


def _stale(town: "TownCore", step: "Step") -> tuple[int, dict[str, Any]]:
    """A command for a notification a newer one superseded (the relay brought it late); half the time the
    answer names the latest, which the client may handle instead (CONTRACT §4)."""
    status, answer = _refuse(town, step, Refusal(409, "notification_stale", "A newer notification supersedes this one."))
    if town.current is not None and town.relay_rng.random() < 0.5:
        answer["details"] = {"latest_notification_id": town.current.notification_id}
    return status, answer


def _refuse(town: "TownCore", step: "Step", refusal: Refusal) -> tuple[int, dict[str, Any]]:
    step.refusals.append(refusal.code)
    town.log("refused", step=step.index, code=refusal.code, message=refusal.message)
    return refusal.status, {"error": refusal.code, "message": refusal.message}


def _actionable(town: "TownCore") -> None:
    body = town.body
    if body.announcement and body.state == "in_action":  # the announcement lets a busy agent act (and stops it)
        return
    if body.state != "idle" or body.pending_conversation or body.pending_transfer:
        raise Refusal(409, "state_conflict", "Agent cannot execute the requested action in the current state.")


def _started(town: "TownCore") -> None:
    """An executable command was accepted: the idle reminder stops and the info commands come back.

    Under a server announcement it also cancels what the agent was doing (handleServerAnnouncementInterruption)."""
    town.disarm("idle")
    town.body.excluded_info.clear()
    if town.body.announcement:
        town.body.announcement = False
        if town.body.state == "in_action":
            town.disarm("agent")
            town.body.state = "idle"


# ---------------------------------------------------------------------------- idle commands
def move(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    _actionable(town)
    target = str(params.get("target_node_id", ""))
    world_map = town.world.map
    if not NODE.match(target):
        raise Refusal(400, "invalid_request", "Request validation failed: target_node_id.")
    if not world_map.within(target):
        raise Refusal(400, "out_of_bounds", "Destination is outside the map.")
    if not world_map.passable(target):
        raise Refusal(400, "impassable_node", "Destination node is not passable.")
    if target == town.body.node:
        raise Refusal(400, "same_node", "Destination node must differ from the current node.")
    path = world_map.path(town.body.node, target)
    if path is None:
        raise Refusal(400, "no_path", "No path exists to the destination node.")
    _started(town)
    town.body.state = "moving"
    arrives = town.now + timedelta(milliseconds=len(path) * town.move_ms)
    town.arm("agent", arrives, "arrive", to=target)
    return {"from_node_id": town.body.node, "to_node_id": target, "arrives_at": int(arrives.timestamp() * 1000)}


def action(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    _actionable(town)
    body = town.body
    action_id = str(params.get("action_id", ""))
    chosen = town.world.action_by_id(action_id)
    if chosen is None:
        raise Refusal(400, "action_not_found", f"Unknown action: {action_id}")
    if all(a.action_id != action_id for a, _ in available_actions(town)):
        raise Refusal(400, "action_not_available", f"Action is not currently available: {action_id}")
    if chosen.duration_ms is not None:
        duration = timedelta(milliseconds=chosen.duration_ms)
    else:
        minutes = params.get("duration_minutes")
        if not isinstance(minutes, int) or isinstance(minutes, bool):
            raise Refusal(400, "invalid_request", f'duration_minutes is required for action "{action_id}" and must be an integer.')
        assert chosen.min_minutes is not None and chosen.max_minutes is not None
        if not chosen.min_minutes <= minutes <= chosen.max_minutes:
            raise Refusal(400, "invalid_request",
                          f"duration_minutes must be between {chosen.min_minutes} and {chosen.max_minutes}.")
        duration = timedelta(minutes=minutes)
    reason = None
    if (chosen.cost_money or 0) > body.money:
        reason, step.world_refusal = (f"所持金が足りません（必要: {texts.yen(chosen.cost_money or 0)}、"
                                      f"所持金: {texts.yen(body.money)}）"), "money_short"
    elif any(body.items.get(i, 0) < q for i, q in chosen.required_items):
        need = ", ".join(f"{ITEM_NAMES.get(i, i)}×{q}" for i, q in chosen.required_items)
        reason, step.world_refusal = f"必要なアイテムが足りません（必要: {need}）", "items_short"
    if reason is not None:
        body.last_rejected_action_id = action_id
        body.excluded_info.clear()
        town.log("world_refused", step=step.index, code=step.world_refusal, action=action_id)
        idle_prompt(town, "action_rejected", texts.event_line("action_rejected", action=chosen.name, reason=reason))
        return {"ok": True, "message": ACCEPTED}
    _started(town)
    body.money -= chosen.cost_money or 0
    for item_id, quantity in chosen.required_items:
        body.items[item_id] -= quantity
    body.state, body.last_action_id = "in_action", action_id
    town.arm("agent", town.now + duration, "done", what="action", action_id=action_id)
    return {"ok": True, "message": ACCEPTED}


def wait(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    _actionable(town)
    units = params.get("duration")
    if not isinstance(units, int) or isinstance(units, bool) or not 1 <= units <= 6:
        raise Refusal(400, "invalid_request", "duration must be an integer between 1 and 6.")
    _started(town)
    town.body.state = "in_action"
    done = town.now + timedelta(minutes=10 * units)
    town.arm("agent", done, "done", what="wait", minutes=10 * units)
    return {"completes_at": int(done.timestamp() * 1000)}


def use_item(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    _actionable(town)
    body = town.body
    item_id = str(params.get("item_id", ""))
    if body.items.get(item_id, 0) <= 0:
        raise Refusal(400, "invalid_request", f"Agent does not have item: {item_id}")
    if ITEM_TYPES.get(item_id) == "venue":
        hints = [f"{b.name}(入口: {', '.join(b.doors)})" for b in town.world.map.buildings
                 if any(item_id in dict(a.required_items) for a in b.actions)]
        step.world_refusal = "venue_item"
        town.log("world_refused", step=step.index, code="venue_item", item=item_id)
        idle_prompt(town, "item_use_venue_rejected", texts.event_line(
            "item_venue_rejected", item=ITEM_NAMES[item_id], hints=f"{'、'.join(hints)} で利用できます。" if hints else ""))
        return {"ok": True, "message": ACCEPTED}
    _started(town)
    body.items[item_id] -= 1
    body.state = "in_action"
    verb = {"food": "食べました", "drink": "飲みました"}.get(ITEM_TYPES.get(item_id, ""), "使用しました")
    town.arm("agent", town.now + timedelta(minutes=10), "done", what="item", item=item_id, verb=verb)
    return {"ok": True, "message": ACCEPTED}


def transfer(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    body = town.body
    if body.state not in ("idle", "in_action") or body.pending_conversation or body.pending_transfer:
        raise Refusal(409, "state_conflict", "Agent cannot transfer in the current state.")
    target = town.residents.get(str(params.get("target_agent_id", "")))
    if target is None:
        raise Refusal(400, "target_not_found", "Unknown target agent.")
    if target not in candidates(town):
        raise Refusal(400, "out_of_range", "Target agent is out of range.")
    item, money = _payload(params)
    if item is not None and body.items.get(item[0], 0) < item[1] or money > body.money:
        raise Refusal(400, "invalid_request", "Not enough items or money to transfer.")
    _started(town)
    town.disarm("agent")
    if item is not None:
        body.items[item[0]] -= item[1]
    body.money -= money
    body.state = "idle"
    town.schedule(town.now + timedelta(seconds=30), "transfer_settled", to=target.agent_id,
                  item=item[0] if item else None, quantity=item[1] if item else 0, money=money)
    return {"ok": True, "message": ACCEPTED, "transfer_status": "pending"}


def _payload(params: dict[str, Any]) -> tuple[tuple[str, int] | None, int]:
    item, money = params.get("item"), params.get("money")
    if (item is None) == (money is None):
        raise Refusal(400, "invalid_request", "Exactly one of item or money is required.")
    if item is not None:
        if not isinstance(item, dict) or not isinstance(item.get("quantity"), int) or item["quantity"] < 1:
            raise Refusal(400, "invalid_request", "item must be { item_id, quantity >= 1 }.")
        return (str(item.get("item_id")), item["quantity"]), 0
    if not isinstance(money, int) or isinstance(money, bool) or money < 1:
        raise Refusal(400, "invalid_request", "money must be a positive integer.")
    return None, money


def info(town: "TownCore", step: "Step", params: dict[str, Any], command: str) -> dict[str, Any]:
    _actionable(town)
    if command in town.body.excluded_info:
        raise Refusal(409, "info_already_consumed", f"Info command {command} is already excluded from current choices.")
    town.body.excluded_info.add(command)
    text, data = info_body(town, command)
    info_prompt(town, command.replace("get_", "") + "_info_requested", text)
    return {"ok": True, "command": command, "data": data}


def info_body(town: "TownCore", command: str) -> tuple[str, dict[str, Any]]:
    body, world_map = town.body, town.world.map
    if command == "get_perception":
        return perception_text(town), {"node_id": body.node}
    if command == "get_available_actions":
        lines = [f"- action: {texts.action_line(a, s)}" for a, s in available_actions(town)]
        return "\n".join(lines) or "現在実行可能なアクションはありません。", {"actions": [a.action_id for a, _ in available_actions(town)]}
    if command == "get_map":
        # The map as the engine's MapConfig holds it (the newer API's inline data): buildings by their doors.
        return texts.map_summary(world_map), {
            "rows": world_map.rows, "cols": world_map.cols,
            "buildings": [{"building_id": b.building_id, "name": b.name, "door_nodes": list(b.doors)}
                          for b in world_map.buildings],
            "npcs": [{"npc_id": n.npc_id, "name": n.name, "node_id": n.node} for n in world_map.npcs]}
    if command == "get_world_agents":
        lines = [f"- {r.name} ({r.agent_id}) - 位置: {r.node} - 状態: {r.state}" for r in
                 sorted(town.residents.values(), key=lambda r: r.agent_id)]
        return "\n".join(lines), {"agents": [r.agent_id for r in town.residents.values()]}
    if command == "get_status":
        held = [f"- {ITEM_NAMES.get(i, i)} ({i}) ×{q}" for i, q in sorted(body.items.items()) if q > 0]
        text = "\n".join([f"現在地: {body.node}", f"所持金: {texts.yen(body.money)}",
                          ("所持品:\n" + "\n".join(held)) if held else "所持品: なし"])
        return text, {"money": body.money, "items": {i: q for i, q in body.items.items() if q > 0}}
    if command == "get_active_conversations":
        talks = [f"- {c.conversation_id}: " + "、".join(f"{town.name_of(p)} ({p})" for p in c.participants)
                 for c in joinable(town)]
        return ("参加可能な進行中の会話:\n" + "\n".join(talks)) if talks else "参加可能な進行中の会話はありません。", {
            "conversations": [c.conversation_id for c in joinable(town)]}
    people = [f"- {r.name} ({r.agent_id}) - {r.state}" for r in candidates(town)]
    listing = "\n".join(people) or "- なし"
    return (f"conversation_candidates:\n{listing}\ntransfer_candidates:\n{listing}",
            {"candidates": [r.agent_id for r in candidates(town)]})


# ---------------------------------------------------------------------------- conversations
def _message(params: dict[str, Any]) -> str:
    message = str(params.get("message") or "").strip()
    if not message:
        raise Refusal(400, "invalid_request", "Conversation message must not be empty.")
    return message


def conversation_start(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    body = town.body
    if body.state != "idle" or body.pending_conversation:
        raise Refusal(409, "state_conflict", "Initiator cannot start a conversation right now.")
    message = _message(params)
    target = town.residents.get(str(params.get("target_agent_id", "")))
    if target is None:
        raise Refusal(400, "target_not_found", "Unknown target agent.")
    if target.state not in ("idle", "in_action"):
        raise Refusal(409, "target_unavailable", "Target agent cannot receive a conversation right now.")
    if distance(body.node, target.node) > 1:
        raise Refusal(400, "out_of_range", "Target agent is out of range.")
    _started(town)
    conv = start_by_agent(town, target, message)
    town.log("conversation_started_by_agent", step=step.index, target=target.agent_id)
    return {"conversation_id": conv.conversation_id}


def conversation_join(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    body = town.body
    conv = town.conversations.get(str(params.get("conversation_id", "")))
    if conv is None or conv.status != "active":
        raise Refusal(400, "conversation_not_found", "No active conversation found.")
    if SELF_ID in conv.participants:
        raise Refusal(409, "state_conflict", "Agent is already participating in this conversation.")
    if len(conv.participants) >= MAX_PARTICIPANTS:
        raise Refusal(409, "conversation_full", "The conversation has reached the maximum participant count.")
    if body.state not in ("idle", "in_action") or body.pending_conversation or body.pending_transfer:
        raise Refusal(409, "state_conflict", "Agent cannot join a conversation right now.")
    if not any(distance(body.node, town.residents[p].node) <= 1 for p in conv.participants):
        raise Refusal(400, "out_of_range", "Conversation is out of range.")
    _started(town)
    town.disarm("agent")  # an action, wait or item use in progress is cancelled
    body.state, body.conversation = "in_conversation", conv.conversation_id
    join_talk(town, conv)
    town.log("joined_by_agent", step=step.index, conversation=conv.conversation_id)
    return {"status": "ok"}


def _pending(town: "TownCore") -> "Conversation":
    conv = town.conversations.get(town.body.pending_conversation or "")
    if conv is None or conv.status != "pending" or conv.initiator == SELF_ID:
        raise Refusal(400, "conversation_not_found", "No pending conversation found for this agent.")
    return conv


def conversation_accept(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    conv = _pending(town)
    message = _message(params)
    body = town.body
    town.disarm("accept")
    town.disarm("idle")
    if body.state == "in_action":
        town.disarm("agent")  # the engine cancels the action, wait or item use in progress
    body.pending_conversation, body.conversation, body.state = None, conv.conversation_id, "in_conversation"
    conv.status, conv.turn = "active", 2
    conv.history.append((town.self_name, message))
    conv.last_spoken[SELF_ID] = 2
    after_agent_spoke(town, conv, conv.initiator, ending=False)
    return {"status": "ok"}


def conversation_reject(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    conv = _pending(town)
    town.disarm("accept")
    from .life import drop_conversation
    drop_conversation(town, conv)
    if town.body.state == "idle":
        town.arm("idle", town.now + town.idle_interval, "idle_reminder", since=town.now)
    return {"status": "ok"}


def _my_turn(town: "TownCore", statuses: tuple[str, ...]) -> "Conversation":
    body = town.body
    if body.state != "in_conversation":
        raise Refusal(409, "state_conflict", "Agent is not in a conversation.")
    conv = town.conversations.get(body.conversation or "")
    if conv is None or conv.status not in statuses:
        raise Refusal(400, "conversation_not_found", "No active conversation found for this agent.")
    if conv.speaker != SELF_ID or "turn" not in town.tokens or conv.inactive_check:
        raise Refusal(409, "not_your_turn", "It is not your turn to speak.")
    return conv


def _next_speaker(conv: "Conversation", nominated: str, *, closing: bool) -> str:
    others = [p for p in conv.participants if p != SELF_ID]
    if closing and len(others) <= 1:
        return others[0] if others else SELF_ID  # the engine takes the only one left, whoever was named
    if not nominated:
        raise Refusal(400, "next_speaker_required", "next_speaker_agent_id is required.")
    if nominated == SELF_ID:
        raise Refusal(400, "cannot_nominate_self", "Cannot nominate yourself as the next speaker.")
    if nominated not in others:
        raise Refusal(400, "invalid_next_speaker", "The nominated next speaker is not a participant in this conversation.")
    return nominated


def _settle_offer(town: "TownCore", conv: "Conversation", response: Any, step: "Step") -> None:
    offer = conv.pending_offer
    if offer is None or offer["to"] != SELF_ID:
        return
    conv.pending_offer = None
    answered = response in ("accept", "reject")
    town.log("offer_settled", step=step.index, answered=answered, response=response if answered else "unanswered")
    if response == "accept":
        if offer.get("item"):
            item_id, quantity = offer["item"]
            town.body.items[item_id] = town.body.items.get(item_id, 0) + quantity
        town.body.money += offer.get("money", 0)
        conv.settled = "after_accept"
    else:
        giver = town.residents.get(offer["from"])
        if giver is not None:
            if offer.get("item"):
                giver.items[offer["item"][0]] = giver.items.get(offer["item"][0], 0) + offer["item"][1]
            giver.money += offer.get("money", 0)
        conv.settled = "after_reject"


def conversation_speak(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    conv = _my_turn(town, ("active", "closing"))
    message = _message(params)
    nxt = _next_speaker(conv, str(params.get("next_speaker_agent_id") or ""), closing=conv.status == "closing")
    gift, response = params.get("transfer"), params.get("transfer_response")
    if gift and nxt != params.get("next_speaker_agent_id"):
        raise Refusal(400, "invalid_next_speaker", "Transfer target must match next_speaker_agent_id.")
    if gift and response:
        raise Refusal(400, "invalid_request", "transfer and transfer_response cannot both be specified.")
    if response and not (conv.pending_offer and conv.pending_offer["to"] == SELF_ID):
        raise Refusal(400, "invalid_request", "No pending transfer response is available.")
    answer: dict[str, Any] = {"turn": conv.turn + 1}
    _spoke(town, conv, message, nxt)
    _settle_offer(town, conv, response, step)
    if isinstance(gift, dict) and nxt in town.residents:
        answer.update(_give(town, conv, nxt, gift))
    after_agent_spoke(town, conv, nxt, ending=False)
    return answer


def end_conversation(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    conv = _my_turn(town, ("active",))
    message = _message(params)
    response = params.get("transfer_response")
    if response and not (conv.pending_offer and conv.pending_offer["to"] == SELF_ID):
        raise Refusal(400, "invalid_request", "No pending transfer response is available.")
    others = [p for p in conv.participants if p != SELF_ID]
    nxt = others[0] if len(others) == 1 else _next_speaker(conv, str(params.get("next_speaker_agent_id") or ""),
                                                           closing=False)
    _settle_offer(town, conv, response, step)
    _spoke(town, conv, message, nxt)
    after_agent_spoke(town, conv, nxt, ending=True)
    return {"turn": conv.turn}


def _spoke(town: "TownCore", conv: "Conversation", message: str, nxt: str) -> None:
    town.disarm("turn")
    conv.turn += 1
    conv.history.append((town.self_name, message))
    conv.last_spoken[SELF_ID] = conv.turn
    conv.last_spoken[nxt] = conv.turn


def _give(town: "TownCore", conv: "Conversation", to: str, gift: dict[str, Any]) -> dict[str, Any]:
    body = town.body
    try:
        item, money = _payload(gift)
    except Refusal:
        return {"transfer_status": "failed", "failure_reason": "invalid"}
    if item is not None and body.items.get(item[0], 0) < item[1] or money > body.money:
        return {"transfer_status": "failed", "failure_reason": "insufficient"}
    if item is not None:
        body.items[item[0]] -= item[1]
        town.residents[to].items[item[0]] = town.residents[to].items.get(item[0], 0) + item[1]
    body.money -= money
    town.residents[to].money += money
    summary = texts.transfer_summary(item, money)
    conv.outcome_note = f"{town.name_of(to)} が {summary}を受け取りました。"
    town.log("agent_gave", to=to, what=summary)
    return {"transfer_status": "pending"}


def conversation_stay(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    conv = town.conversations.get(town.body.conversation or "")
    if conv is None or not conv.inactive_check:
        raise Refusal(409, "state_conflict", "Agent is not awaiting an inactive-check response.")
    conv.inactive_check = False
    conv.last_spoken[SELF_ID] = conv.turn
    town.disarm("turn")
    town.arm("conv", town.now + town.interval, "resident_turn", conversation=conv.conversation_id)
    return {"status": "ok"}


def conversation_leave(town: "TownCore", step: "Step", params: dict[str, Any]) -> dict[str, Any]:
    conv = town.conversations.get(town.body.conversation or "")
    if conv is None or not conv.inactive_check:
        raise Refusal(409, "state_conflict", "Agent is not awaiting an inactive-check response.")
    after_agent_left(town)
    return {"status": "ok"}


COMMANDS: dict[str, Callable[["TownCore", "Step", dict[str, Any]], dict[str, Any]]] = {
    "move": move, "action": action, "wait": wait, "use-item": use_item, "transfer": transfer,
    "conversation_start": conversation_start, "conversation_accept": conversation_accept,
    "conversation_join": conversation_join,
    "conversation_reject": conversation_reject, "conversation_speak": conversation_speak,
    "end_conversation": end_conversation, "conversation_stay": conversation_stay,
    "conversation_leave": conversation_leave,
}
COMMANDS["accept_transfer"] = lambda town, step, params: gifts.answer(town, step, True)
COMMANDS["reject_transfer"] = lambda town, step, params: gifts.answer(town, step, False)
for _name in INFO:
    COMMANDS[_name] = (lambda name: lambda town, step, params: info(town, step, params, name))(_name)
