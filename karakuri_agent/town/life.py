"""How the engine town lives: the prompts it sends, its timers, and what the residents do and say.

The prompts follow the engine's event handler: an idle agent gets the event
line, the perception block and its choices; the next speaker of a
conversation gets the reply prompt (`名前: 「…」` with `参加者:` and any
transfer note), a listener who is not next gets the line with `次は X の番です。`
and no choices; a closing conversation's prompt says `これが最後のメッセージです。`
and offers only the farewell.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING, Any

from . import texts
from .entities import Conversation, Resident
from .world import ITEM_NAMES, SELF_ID, Action, distance

if TYPE_CHECKING:
    from .core import TownCore

INFO_ORDER = ("get_available_actions", "get_perception", "get_map", "get_world_agents", "get_status",
              "get_nearby_agents")
MAX_PARTICIPANTS = 4


# ---------------------------------------------------------------------------- what the agent may do here
def within_hours(hours: tuple[str, str] | None, town: "TownCore") -> bool:
    if hours is None:
        return True
    local = town.now.astimezone(texts.TOKYO)
    minute = local.hour * 60 + local.minute
    start, end = (int(h) * 60 + int(m) for h, m in (t.split(":") for t in hours))
    return start <= minute < end if start < end else minute >= start or minute < end


def available_actions(town: "TownCore") -> list[tuple[Action, str]]:
    """The actions on offer where the agent stands (domain/actions.ts), the last one performed excluded."""
    world_map, node = town.world.map, town.body.node
    sources: list[tuple[Action, str]] = []
    building = world_map.building_inside(node)
    if building is not None and within_hours(building.hours, town):
        sources += [(a, building.name) for a in building.actions if within_hours(a.hours, town)]
    for npc in world_map.npcs_next_to(node):
        if within_hours(npc.hours, town):
            sources += [(a, npc.name) for a in npc.actions if within_hours(a.hours, town)]
    return sorted((s for s in sources if s[0].action_id != town.body.last_action_id), key=lambda s: s[0].action_id)


def candidates(town: "TownCore") -> list[Resident]:
    """People next to the agent who could be spoken to (idle or busy, not moving, not in a conversation)."""
    return sorted((r for r in town.near(town.body.node) if r.state in ("idle", "in_action")),
                  key=lambda r: r.agent_id)


def joinable(town: "TownCore") -> list[Conversation]:
    """Talks among residents the agent may join: active, not full, someone in them next to it (info-commands.ts)."""
    return sorted((c for c in town.conversations.values()
                   if c.status == "active" and SELF_ID not in c.participants and len(c.participants) < MAX_PARTICIPANTS
                   and any(distance(town.body.node, town.residents[p].node) <= 1 for p in c.participants)),
                  key=lambda c: c.conversation_id)


def idle_choices(town: "TownCore", *, force: bool = False) -> tuple[str, list[dict[str, Any]], list[Resident]]:
    """The idle choices; `force` (a server announcement) shows them to a busy agent too (forceShowActions)."""
    body, chooser = town.body, town.choices
    actions = [a for a in available_actions(town) if a[0].action_id != body.last_rejected_action_id]
    body.last_rejected_action_id = None  # the engine suppresses a refused action in the next prompt only
    people = candidates(town) if body.state == "idle" or not force else []
    held = sorted(i for i, q in body.items.items() if q > 0)
    talks = joinable(town) if body.state == "idle" or force else []
    order = INFO_ORDER + (("get_active_conversations",) if talks else ())
    info = [c for c in (order if town.style == "new" else texts.OLD_INFO) if c not in body.excluded_info]
    pairs = [(r.agent_id, r.name) for r in people]
    text = texts.idle_choices(actions=actions, items=body.items, money=body.money, candidates=pairs,
                              transfer_candidates=pairs, info=info, style=town.style,
                              joinable=[(c.conversation_id, " と ".join(town.name_of(p) for p in c.participants))
                                        for c in talks])
    out = chooser.actions([(a, source, texts.action_line(a, source)) for a, source in actions])
    if held:
        out.append(chooser.use_item(held))
    if (held or body.money > 0) and people and town.transfers:
        out.append(chooser.transfer([r.agent_id for r in people], held))
    nodes = [n for n in town.world.map.in_range(body.node, town.reach) if n != body.node and town.world.map.passable(n)]
    out += [chooser.move(nodes), chooser.wait()]
    if people:
        out.append(chooser.conversation_start([r.agent_id for r in people]))
    if talks:
        out.append(chooser.join([c.conversation_id for c in talks]))
    out += [chooser.info(c, texts.INFO_LINES[c].split(": ", 1)[1]) for c in info]
    return text, out, people


def perception_text(town: "TownCore") -> str:
    body = town.body
    seen = [(r.agent_id, r.name, r.node) for r in sorted(town.near(body.node, town.reach), key=lambda r: r.agent_id)]
    return texts.perception(town.world, now=town.now, node=body.node, reach=town.reach, people=seen,
                            money=body.money, items=body.items, weather=town.weather, conversations=len(joinable(town)),
                            style=town.style)


def idle_prompt(town: "TownCore", type_: str, event: str, *, since: Any = None) -> None:
    body = town.body
    body.state = "idle"
    body.announcement = False
    choices_text, choices, people = idle_choices(town)
    text = texts.idle_text(town.world, town.self_name, event, perception_text(town), choices_text)
    today = town.day()
    untalked = [r.agent_id for r in people if today not in r.talked_days]
    town.issue(type_, "idle", text, choices, summary=event, nearby_untalked=untalked)
    town.arm("idle", town.now + town.idle_interval, "idle_reminder", since=since or town.now)


def info_prompt(town: "TownCore", type_: str, info: str) -> None:
    choices_text, choices, people = idle_choices(town)
    today = town.day()
    untalked = [r.agent_id for r in people if today not in r.talked_days]
    town.issue(type_, "info", texts.info_text(town.world, town.self_name, info, choices_text), choices,
               summary="情報を取得しました。", nearby_untalked=untalked)


# ---------------------------------------------------------------------------- conversation prompts
def participants(town: "TownCore", conv: Conversation) -> list[tuple[str, str]]:
    return [(pid, town.name_of(pid)) for pid in conv.participants]


def _notes(town: "TownCore", conv: Conversation) -> tuple[str | None, bool]:
    lines = []
    offer = conv.pending_offer
    pending = offer is not None and offer["to"] == SELF_ID
    if pending and offer is not None:
        lines.append(texts.pending_transfer_line(town.name_of(offer["from"]),
                                                 texts.transfer_summary(offer.get("item"), offer.get("money", 0))))
    if conv.outcome_note:
        lines.append(conv.outcome_note)
        conv.outcome_note = None
    return ("\n".join(lines) or None), pending


def turn_choices(town: "TownCore", conv: Conversation, closing: bool, pending: bool) -> tuple[str, list[dict[str, Any]]]:
    body, chooser = town.body, town.choices
    others = [p for p in conv.participants if p != SELF_ID]
    group = len(conv.participants) > 2
    held = sorted(i for i, q in body.items.items() if q > 0)
    hint = "" if closing or not town.transfers else texts.transfer_hint(body.items, body.money)
    text = texts.conversation_choices("closing" if closing else "reply", group, hint=hint, pending=pending,
                                      transfers=town.transfers)
    out = [chooser.speak(others, closing=closing, pending=pending, can_give=bool(held or body.money > 0), held=held,
                         transfers=town.transfers)]
    if not closing:
        out.append(chooser.end(others, group=group, pending=pending))
    return text, out


def reply_prompt(town: "TownCore", conv: Conversation, speaker: str, message: str) -> None:
    closing = conv.status == "closing"
    note, pending = _notes(town, conv)
    choices_text, choices = turn_choices(town, conv, closing, pending)
    text = texts.reply_text(town.world, town.self_name, participants(town, conv), speaker, message, note, choices_text,
                            closing=closing)
    town.issue("conversation_message", "closing" if closing else "reply", text, choices,
               summary=f"{speaker}: 「{message}」", conversation=conv, pending_offer=conv.pending_offer if pending else None)
    conv.speaker = SELF_ID
    town.arm("turn", town.now + town.turn_timeout, "turn_timeout", conversation=conv.conversation_id)


def turn_prompt(town: "TownCore", conv: Conversation) -> None:
    closing = conv.status == "closing"
    note, pending = _notes(town, conv)
    choices_text, choices = turn_choices(town, conv, closing, pending)
    text = texts.turn_text(town.world, town.self_name, participants(town, conv), note, choices_text, closing=closing)
    town.issue("conversation_turn_started", "closing" if closing else "turn", text, choices,
               summary="あなたの番です。", conversation=conv, pending_offer=conv.pending_offer if pending else None)
    conv.speaker = SELF_ID
    town.arm("turn", town.now + town.turn_timeout, "turn_timeout", conversation=conv.conversation_id)


def fyi(town: "TownCore", text: str, conv: Conversation | None) -> None:
    town.issue("conversation_message", "fyi", text, [], summary=text.split("\n")[0], conversation=conv)


# ---------------------------------------------------------------------------- endings
def finish_activity(town: "TownCore", data: dict[str, Any]) -> None:
    body = town.body
    what = data["what"]
    if what == "action":
        action = town.world.action_by_id(data["action_id"])
        assert action is not None
        body.money += action.reward_money or 0
        for item_id, quantity in action.reward_items:
            body.items[item_id] = body.items.get(item_id, 0) + quantity
        idle_prompt(town, "action_completed", texts.event_line("action_completed", action=action.name))
    elif what == "wait":
        idle_prompt(town, "wait_completed", texts.event_line("wait_completed", minutes=str(data["minutes"])))
    else:
        idle_prompt(town, "item_use_completed", texts.event_line("item_used", item=ITEM_NAMES[data["item"]],
                                                                  verb=data["verb"]))


def drop_conversation(town: "TownCore", conv: Conversation) -> None:
    for pid in conv.participants:
        resident = town.residents.get(pid)
        if resident is not None:
            resident.state = "idle"
            resident.last_talk = town.now
    town.conversations.pop(conv.conversation_id, None)
    if town.body.pending_conversation == conv.conversation_id:
        town.body.pending_conversation = None


def end_conversation(town: "TownCore", conv: Conversation, reason: str) -> None:
    """The conversation is over: everyone idle, the offer returned, the agent told why, with its choices."""
    town.disarm("turn")
    town.disarm("conv")
    offer = conv.pending_offer
    if offer is not None:
        giver = town.residents.get(offer["from"])
        if giver is not None:
            _refund(giver, offer)
        town.log("transfer_cancelled", offer=offer, reason="conversation_closing")
    in_it = SELF_ID in conv.participants
    for pid in conv.participants:
        resident = town.residents.get(pid)
        if resident is not None:
            resident.talked_days.add(town.day())
    drop_conversation(town, conv)
    town.log("conversation_ended", conversation=conv.conversation_id, reason=reason)
    if in_it:
        town.body.conversation = None
        idle_prompt(town, "conversation_ended", texts.event_line("conversation_ended", reason=reason))


def _refund(giver: Resident, offer: dict[str, Any]) -> None:
    if offer.get("item"):
        item_id, quantity = offer["item"]
        giver.items[item_id] = giver.items.get(item_id, 0) + quantity
    giver.money += offer.get("money", 0)


def leave(town: "TownCore", conv: Conversation, pid: str) -> None:
    if pid in conv.participants:
        conv.participants.remove(pid)
        conv.left.add(pid)
    resident = town.residents.get(pid)
    if resident is not None:
        resident.state = "idle"
        resident.last_talk = town.now
        resident.talked_days.add(town.day())
    if conv.pending_offer and pid in (conv.pending_offer["from"], conv.pending_offer["to"]):
        giver = town.residents.get(conv.pending_offer["from"])
        if giver is not None:
            _refund(giver, conv.pending_offer)
        conv.pending_offer = None


def after_agent_left(town: "TownCore") -> None:
    """The agent is out of a conversation that goes on without it: idle, and reminded later (cleanupParticipant)."""
    town.disarm("turn")
    body = town.body
    conv = town.conversations.get(body.conversation or "")
    body.conversation = None
    body.state = "idle"
    if conv is not None:
        for pid in list(conv.participants):
            leave(town, conv, pid)
        town.conversations.pop(conv.conversation_id, None)
    town.arm("idle", town.now + town.idle_interval, "idle_reminder", since=town.now)


# ---------------------------------------------------------------------------- residents
def residents_tick(town: "TownCore") -> None:
    rng, world_map = town.rng, town.world.map
    for resident in town.residents.values():
        if resident.state == "in_conversation":
            continue
        if resident.busy_until is not None and town.now >= resident.busy_until:
            resident.busy_until = None
            resident.state = "idle"
        if resident.state != "idle":
            continue
        roll = rng.random()
        if roll < 0.35:
            destination = _destination(town, resident)
            path = world_map.path(resident.node, destination)
            if path:
                resident.state = "moving"
                resident.busy_until = town.now + timedelta(milliseconds=len(path) * town.move_ms)
                resident.node = destination  # counted where they are going; the tick is coarser than a step
        elif roll < 0.55:
            resident.state = "in_action"
            resident.busy_until = town.now + timedelta(minutes=rng.choice((20, 30, 60)))
    maybe_request(town)
    maybe_side_talk(town)


def maybe_side_talk(town: "TownCore") -> None:
    """Two residents standing together start talking between themselves (the agent may join, not hear)."""
    rng = town.rng
    idle = [r for r in town.residents.values() if r.state == "idle"]
    pairs = [(a, b) for i, a in enumerate(idle) for b in idle[i + 1:] if distance(a.node, b.node) <= 1]
    if not pairs or rng.random() >= town.side_talk_chance:
        return
    first, second = rng.choice(pairs)
    conv = new_conversation(town, first.agent_id, [first.agent_id, second.agent_id])
    conv.status, conv.turn = "active", 2
    first.state = second.state = "in_conversation"
    conv.history += [(first.name, say(town, first, "open")), (second.name, say(town, second, "accept"))]
    town.schedule(town.now + timedelta(minutes=rng.choice((20, 30, 40))), "side_end", conversation=conv.conversation_id)


def _destination(town: "TownCore", resident: Resident) -> str:
    rng, world_map = town.rng, town.world.map
    hour = town.now.astimezone(texts.TOKYO).hour
    if hour >= 23 or hour < 6:
        return resident.home
    if rng.random() < 0.35:
        beside = [n for n in world_map.neighbours(town.body.node) if world_map.passable(n)]
        if beside:
            return rng.choice(beside)
    building = rng.choice(world_map.buildings)
    choices = building.interior + building.doors + list(world_map.labels)
    return rng.choice([n for n in choices if world_map.passable(n)] or [resident.node])


def maybe_request(town: "TownCore") -> None:
    """A resident next to the agent may start talking (not at night, not twice within two hours)."""
    body, rng = town.body, town.rng
    hour = town.now.astimezone(texts.TOKYO).hour
    if (body.state not in ("idle", "in_action") or body.pending_conversation or body.conversation
            or body.pending_transfer or not 7 <= hour < 23):
        return
    if town.last_request is not None and town.now - town.last_request < timedelta(minutes=40):
        return
    willing = [r for r in candidates(town) if r.state == "idle"
               and (r.last_talk is None or town.now - r.last_talk > timedelta(hours=2))]
    if not willing or rng.random() > 0.5:
        return
    resident = rng.choice(willing)
    conv = new_conversation(town, resident.agent_id, [resident.agent_id, SELF_ID])
    resident.state = "in_conversation"
    opener = say(town, resident, "open")
    conv.history.append((resident.name, opener))
    conv.last_spoken = {resident.agent_id: 1, SELF_ID: 0}
    body.pending_conversation = conv.conversation_id
    town.last_request = town.now
    text = texts.request_text(town.world, town.self_name, resident.name, opener)
    town.issue("conversation_requested", "request", text, [town.choices.accept(), town.choices.reject()],
               summary=f"{resident.name} が話しかけています。「{opener}」", conversation=conv)
    town.arm("accept", town.now + town.accept_timeout, "accept_timeout", conversation=conv.conversation_id)


def new_conversation(town: "TownCore", initiator: str, people: list[str]) -> Conversation:
    rng = town.rng
    town.conversation_count += 1
    conv = Conversation(f"conversation-{town.seed}-{town.conversation_count:03d}", initiator, list(people),
                        max_turns=town.max_turns)
    acts = ["chat", "ask", "chat", "offer", "ask", "meet_timed", "meet_vague", "chat"]
    rng.shuffle(acts)
    conv.plan = acts[:rng.randint(2, 6)] + ["bye"]
    if rng.random() < 0.35 and "offer" not in conv.plan:
        conv.plan.insert(rng.randint(0, len(conv.plan) - 1), "offer")
    if town.meet_chance and "meet_timed" not in conv.plan and rng.random() < town.meet_chance:
        conv.plan.insert(rng.randint(0, len(conv.plan) - 1), "meet_timed")
    if town.prank_chance and rng.random() < town.prank_chance:
        conv.plan.insert(rng.randint(0, len(conv.plan) - 1), "prank")
    if town.call_off_chance and any(open_meeting(town, p) for p in people) and rng.random() < town.call_off_chance:
        conv.plan.insert(0, "call_off")  # a resident with a meeting still ahead takes it back first thing
    town.conversations[conv.conversation_id] = town.talks[conv.conversation_id] = conv
    return conv


def say(town: "TownCore", resident: Resident, act: str, **facts: str) -> str:
    """A line of `act` in the resident's own voice, not one they already said if they have another."""
    rng = town.rng
    pool: list[str] = list(getattr(resident.persona, act))
    fresh = [line for line in pool if line not in resident.said] or pool
    line: str = rng.choice(fresh)
    resident.said.add(line)
    places = [b.name for b in town.world.map.buildings] or ["広場"]
    return line.format(me=resident.name, you=town.you, place=facts.get("place", rng.choice(places)),
                       when=facts.get("when", ""), item=facts.get("item", ""), money=facts.get("money", ""))


def open_meeting(town: "TownCore", resident_id: str) -> dict[str, Any] | None:
    """The next meeting `resident_id` proposed that is still ahead and not taken back."""
    ahead = [m for m in town.meetings if m["resident"] == resident_id and m["at"] > town.now and not m.get("withdrawn")]
    return min(ahead, key=lambda m: m["at"]) if ahead else None


def spoken_time(town: "TownCore", at: datetime) -> str:
    """How a person says a meeting's time from now, in one of the ways people do: 今日の16時, 16時, 午後4時,
    夕方4時, 今夜7時半, 明日の10時, 明日の朝10時, 明日の午後2時 (the town's own stream picks, so the seed's town
    stays what it is)."""
    local, now = at.astimezone(texts.TOKYO), town.now.astimezone(texts.TOKYO)
    hour, half = local.hour, "半" if local.minute == 30 else ""
    twelve = f"{hour - 12 if hour > 12 else hour}時{half}"
    if local.date() == now.date():
        forms = [f"今日の{hour}時{half}", f"{hour}時{half}",
                 f"午後{twelve}" if hour > 12 else f"午前{hour}時{half}" if hour < 12 else f"お昼の12時{half}"]
        if 15 <= hour <= 18:
            forms.append(f"夕方{twelve}")
        if hour >= 19:
            forms.append(f"今夜{twelve}")
    elif (local.date() - now.date()).days == 1:
        forms = [f"明日の{hour}時{half}", f"明日{hour}時{half}",
                 f"明日の朝{hour}時{half}" if hour < 12 else f"明日の午後{twelve}"]
    else:
        forms = [f"{local.month}月{local.day}日の{hour}時{half}"]
    return town.speech_rng.choice(forms)


def meeting_time(town: "TownCore") -> tuple[datetime, str]:
    """A time to meet: later today if the day has room, else tomorrow; and how a person says it."""
    rng = town.rng
    local = town.now.astimezone(texts.TOKYO)
    minute = rng.choice((0, 0, 30))
    if local.hour <= 17 and rng.random() < 0.6:
        hour = rng.randint(local.hour + 1, 19)
        at = local.replace(hour=hour, minute=minute, second=0, microsecond=0)
    else:
        hour = rng.choice((9, 10, 11, 13, 14, 15, 16))
        at = (local + timedelta(days=1)).replace(hour=hour, minute=minute, second=0, microsecond=0)
    return at.astimezone(timezone.utc), spoken_time(town, at)
