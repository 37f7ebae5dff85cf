"""The agent's own day: keep a promise, look around when lost, act here, talk, move on, wait last."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from karakuri_agent.decide.queries import (
    FEW_PLACES,
    acted_since_arrival,
    action_label_of,
    action_options,
    affords,
    at_meeting_place,
    closeness_to,
    current_node_of,
    duration_for,
    ends_in_time,
    enum_of,
    is_destination,
    is_close,
    map_asked,
    max_length_of,
    meeting_node,
    name_of,
    name_of_agent,
    next_meeting,
    pick_stable,
    places_known,
    place_group,
    place_name_here,
    recent_groups,
    repeats_last,
    stable_hash,
    wait_units_left,
)
from karakuri_agent.decide.speaking import recalling
from karakuri_agent.domain.commands import CONVERSATION as CONVERSATION_COMMANDS
from karakuri_agent.domain.commands import INFORMATION as INFORMATION_COMMANDS
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.clock import TOKYO, is_night
from karakuri_agent.domain import nodes
from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.records import has_talked
from karakuri_agent.mind.view import View
from karakuri_agent.ja import place_words, reasons
from karakuri_agent.ja.phrases import is_sleep
from karakuri_agent.memory.record import conversations_in
from karakuri_agent.memory import recall
from karakuri_agent.voice.speech import compose

INFO_FRESH = timedelta(minutes=30)

# Commands without a move after which, once something was done here, going elsewhere comes before
# looking for someone to talk to on the same spot.
STAY_COMMANDS = 6

# Waits in a row after which anything else offered is preferred to a third one.
MAX_WAITS_IN_A_ROW = 2

# The contract's longest wait, in its 10-minute units: a night woken is waited out an hour at a time.
MAX_WAIT_UNITS = 6


# -- idle: the agent lives its own day ----------------------------------------------
def keep_commitment_rule(view: View) -> list[Decision] | None:
    """A promise steers the agent now: the day's candidates, which start with keeping it.

    A promise due soon at a place not found yet counts too: the day's candidates
    are how the agent finds it (a rule such as night rest must not hold it back).
    """
    steered = _keep_commitment(view) or next_meeting(view, placed=False) is not None
    return daily_life_rule(view) if steered else None


def daily_life_rule(view: View) -> list[Decision]:
    commitment = _keep_commitment(view)
    if not commitment and _woken_at_night(view):
        return _sleep_at_night(view) + _wait(view, night=True)
    candidates: list[Decision] = []
    candidates += commitment
    candidates += _look_around(view, essential=True)
    candidates += _sleep_at_night(view)
    social = _look_around(view, essential=False) + _join_a_talk(view) + _talk_to_someone(view)
    if social and not commitment and not _stayed_long(view) and _speaks_first(view, again=_talked_here(view)):
        candidates += social + _act_here(view) + _move_on(view)
    else:
        candidates += _act_here(view) + _learn_the_town(view)
        candidates += (_move_on(view) + social) if _stayed_long(view) else (social + _move_on(view))
    candidates += _wait(view)
    if _waited_enough(view):
        waiting_for_someone = any(d.command == "wait" for d in commitment)
        candidates = _instead_of_waiting(candidates, _anything_but_wait(view), stay=waiting_for_someone) or candidates
    return [d for d in candidates if not repeats_last(view, d)] or candidates[-1:]


def _speaks_first(view: View, *, again: bool) -> bool:
    """Someone new today is beside the agent and nothing is due: it speaks first, as often as its character
    does; `again` (it has talked here since it came), half as often: one talk a visit comes first, then the
    place and the town, unless the character is a sociable one."""
    share = int(stable_hash(view.notification_id, "speak-first")[:8], 16) / 0xFFFFFFFF
    return share < recall.sociability(view) * (0.5 if again else 1.0)


def _talked_here(view: View) -> bool:
    """The agent has had a conversation since it last moved: one talk a visit comes first, then the place and the town."""
    for command in view.recent_commands:
        if command.command == "move":
            return False
        if str(command.command or "") in CONVERSATION_COMMANDS:
            return True
    return False


def _talked_today(view: View, agent_id: str) -> bool:
    """The agent talked with this person earlier in this in-world day (Asia/Tokyo)."""
    known = view.acquaintances.get(agent_id)
    when = known.last_contact if known else None
    return when is not None and when.astimezone(TOKYO).date() == view.now.astimezone(TOKYO).date()


def _stayed_long(view: View) -> bool:
    """Done something here and moved in none of the recent commands: time to see another place.

    Talk fills many commands; without this the agent who is often spoken to
    would talk, act, talk again on the same spot all day.
    """
    return (len(view.recent_commands) >= STAY_COMMANDS and acted_since_arrival(view)
            and not any(c.command == "move" for c in view.recent_commands[:STAY_COMMANDS]))


def _waited_enough(view: View) -> bool:
    recent = view.recent_commands[:MAX_WAITS_IN_A_ROW]
    return len(recent) == MAX_WAITS_IN_A_ROW and all(c.command == "wait" for c in recent)


def _instead_of_waiting(candidates: list[Decision], extra: list[Decision], *, stay: bool) -> list[Decision]:
    """The candidates without a wait; staying near a meeting place comes before leaving it."""
    others = [d for d in candidates + extra if d.command != "wait"]
    if stay:
        others = [d for d in others if d.command != "move"] + [d for d in others if d.command == "move"]
    return others


def _anything_but_wait(view: View) -> list[Decision]:
    """After two waits: something offered that the usual rules held back (a repeat is better than a third wait)."""
    found: list[Decision] = []
    choice = view.choice("action")
    options = [a for a in action_options(view) if ends_in_time(view, a) and affords(view, a)]
    if choice is not None and options:
        action_id = pick_stable(options, view.notification_id)
        found.append(Decision(choice.command, {"action_id": action_id},
                              reasons.waited_too_much_act(action_label_of(view, action_id))))
    recent = {c.command for c in view.recent_commands[:3]}
    for command in INFORMATION_COMMANDS:
        if view.choice(command) is not None and command not in recent:
            found.append(Decision(command, {}, reasons.WAITED_TOO_MUCH_LOOK))
            break
    return found


def _keep_commitment(view: View) -> list[Decision]:
    """Go to the promised place in time, and stay there until the partner is due."""
    meeting = next_meeting(view)
    if meeting is None:
        unplaced = next_meeting(view, placed=False)
        wanted = unplaced.place_name if unplaced is not None else None
        if wanted and view.choice("get_map") and not map_asked(view):
            return [Decision("get_map", {}, reasons.find_meeting_place(wanted))]
        return []
    place = meeting.place_name
    node = meeting_node(view, meeting)
    assert node is not None  # next_meeting only gives placed meetings
    if at_meeting_place(view, meeting):
        wait = view.choice("wait")
        units = wait_units_left(view, meeting)
        if wait is None or units < 1 or duration_for(wait, units) > units:
            return []  # no wait that ends by the grace: the meeting stops holding the agent here
        return [Decision(wait.command, {"duration": duration_for(wait, units)},
                         reasons.wait_for(place, meeting.partner_name))]
    move = view.choice("move")
    if move is None or (current_node_of(view) is None and view.choice("get_perception") is not None):
        return []  # not sure where it stands (it may be there already): it looks first (`_look_around`)
    reachable = [str(n) for n in enum_of(move, "target_node_id")]
    step = node if not reachable or node in reachable else _toward(node, current_node_of(view), reachable)
    if step is None:
        return []
    return [Decision(move.command, {"target_node_id": step}, reasons.go_to_meeting(place))]


def _toward(target: str, here: str | None, offered: list[str]) -> str | None:
    """The offered node nearest the target (grid distance), when it is nearer than here: a move that
    offers only the nodes in sight still leads to a meeting place beyond them."""
    def distance(node: str | None) -> float:
        steps = nodes.distance(node, target) if node is not None else None
        return float("inf") if steps is None else steps

    best = min(offered, key=distance, default=None)
    return best if best is not None and distance(best) < distance(here) else None


def _look_around(view: View, *, essential: bool) -> list[Decision]:
    """Information only when it is missing: never repeated, never while fresh.

    Essential: where am I, where can I go. Otherwise: who is here to talk to,
    asked only when the text says someone is near.
    """
    if essential:
        wanted = []
        if _map_wanted(view, fewer_than=1):
            wanted.append(("get_map", reasons.FEW_DESTINATIONS))  # stranded: nowhere named to go
        if current_node_of(view) is None:
            wanted.append(("get_perception", reasons.SURROUNDINGS_UNKNOWN))
    else:
        nearby = view.parsed.location.get("nearby_agent_count")
        wanted = [("get_nearby_agents", reasons.FIND_SOMEONE)] if (
            nearby and view.choice("conversation_start") and view.persona.rules.start_conversations
            and not view.nearby_agents) else []
    recent = {c.command for c in view.recent_commands[:3]}
    for command, reason in wanted:
        age = view.knowledge_age.get(command)
        if view.choice(command) and command not in recent and (age is None or age > INFO_FRESH):
            return [Decision(command, {}, reason)]
    return []


def _map_wanted(view: View, *, fewer_than: int) -> bool:
    """A move to make, fewer named places known than `fewer_than`, and the map not asked for lately."""
    return view.choice("move") is not None and places_known(view) < fewer_than and not map_asked(view)


def _learn_the_town(view: View) -> list[Decision]:
    """Fewer places known than a day's walk needs: the map, once, before moving on."""
    recent = {c.command for c in view.recent_commands[:3]}
    if view.choice("get_map") is None or "get_map" in recent or not _map_wanted(view, fewer_than=FEW_PLACES):
        return []
    return [Decision("get_map", {}, reasons.FEW_DESTINATIONS)]


def _act_here(view: View) -> list[Decision]:
    """An action offered here, unless one was already done since arriving."""
    choice = view.choice("action")
    if choice is None or acted_since_arrival(view):
        return []
    done = {c.param("action_id") for c in view.recent_commands[:6]}
    fresh = [a for a in action_options(view) if a not in done and ends_in_time(view, a)]
    affordable = [a for a in fresh if affords(view, a)]
    if not affordable:
        return _check_holdings(view, [a for a in fresh if affords(view, a) is None])
    return _do(view, choice, affordable)


def _do(view: View, choice: Choice, options: list[str]) -> list[Decision]:
    """One of the actions offered here, the same one for the same notification."""
    action_id = pick_stable(options, view.notification_id)
    return [Decision(choice.command, {"action_id": action_id}, reasons.act_here(action_label_of(view, action_id)))]


def _woken_at_night(view: View) -> bool:
    """Still night, and the last thing the agent did besides talking and waiting was to sleep: a talk woke it."""
    if not is_night(view.now):
        return False
    last = next((c for c in view.recent_commands if c.command not in CONVERSATION_COMMANDS and c.command != "wait"), None)
    return last is not None and last.command == "action" and is_sleep(f"{last.param('action_id')} {last.reason or ''}")


def _sleep_at_night(view: View) -> list[Decision]:
    """At night a bed offered here is taken, again after a talk woke the agent: a night is not for walking."""
    choice = view.choice("action")
    if choice is None or not is_night(view.now):
        return []
    beds = [a for a in action_options(view) if is_sleep(action_label_of(view, a) or "") and affords(view, a)]
    return _do(view, choice, beds) if beds else []


def _check_holdings(view: View, unsure: list[str]) -> list[Decision]:
    """Actions here that need items the agent cannot tell it holds: ask what it holds, once in a while."""
    age = view.knowledge_age.get("get_status")
    recent = {c.command for c in view.recent_commands[:3]}
    if not unsure or view.choice("get_status") is None or "get_status" in recent or (age is not None and age < INFO_FRESH):
        return []
    return [Decision("get_status", {}, reasons.check_holdings(action_label_of(view, unsure[0])))]


def _join_a_talk(view: View) -> list[Decision]:
    """A talk among people beside the agent, joined (`conversation_join`): its id from the choice, the
    text, or a fresh `get_active_conversations` answer, which is asked for when the choice names none.
    Never a talk it joined or was in lately (one it left is not joined again, no loop on one group)."""
    choice = view.choice("conversation_join")
    if choice is None or not view.persona.rules.start_conversations:
        return []
    recent = view.recent_commands[:view.persona.rules.talk_again_after]
    been_in = {c.param("conversation_id") for c in recent} | {view.parsed.conversation_id}
    offered = [str(t) for t in enum_of(choice, "conversation_id")] \
        or conversations_in(view.text) or list(view.active_talks)
    options = [t for t in offered if t and t not in been_in]
    if not options:
        asked = view.knowledge_age.get("get_active_conversations")
        if not offered and view.choice("get_active_conversations") and (asked is None or asked > INFO_FRESH) \
                and "get_active_conversations" not in {c.command for c in recent}:
            return [Decision("get_active_conversations", {}, reasons.FIND_A_TALK)]
        return []
    talk = pick_stable(options, view.notification_id)
    return [Decision(choice.command, {"conversation_id": talk}, reasons.JOIN_TALK)]


def _talk_to_someone(view: View) -> list[Decision]:
    choice = view.choice("conversation_start")
    if choice is None or not view.persona.rules.start_conversations:
        return []
    recent = view.recent_commands[:view.persona.rules.talk_again_after]
    recent_targets = {c.param("target_agent_id") for c in recent}
    npcs = {n.get("name") for n in view.parsed.npcs}
    options = enum_of(choice, "target_agent_id") or [a.id for a in view.nearby_agents if a.id]
    options = [a for a in options if a not in recent_targets and not view.me.is_self(a, None)
               and not _talked_today(view, str(a)) and (name_of_agent(view, a) or "") not in npcs]
    if not options:
        return []
    target = _closest_first(view, options)
    name = name_of_agent(view, target)
    known = has_talked(view.acquaintances.get(target))
    message = compose("start", persona=view.persona, partner_name=name, partner_known=known,
                      partner_close=is_close(view, target),
                      place_name=place_name_here(view), seed=view.notification_id,
                      previous_lines=view.said_before, said_today=view.day_said, max_length=max_length_of(choice, "message"))
    return [recalling(view, Decision(choice.command, {"target_agent_id": target, "message": message},
                                      reasons.talk_to(name)), choice, PersonRef(target, name or ""))]


# How often the closest of several people nearby is the one sought out (the rest: any of them).
CLOSEST_FIRST = 0.7


def _closest_first(view: View, options: list[str]) -> str:
    """Usually the closest of the people one could talk to, not always: variety stays."""
    scores = {option: closeness_to(view, option) for option in options}
    top = [o for o in options if scores[o] == max(scores.values())]
    share = int(stable_hash(view.notification_id, "closest")[:8], 16) / 0xFFFFFFFF
    return pick_stable(top if len(top) < len(options) and share < CLOSEST_FIRST else options, view.notification_id)


def _move_on(view: View) -> list[Decision]:
    choice = view.choice("move")
    if choice is None:
        return []
    here = current_node_of(view)
    recent_nodes = [c.param("target_node_id") for c in view.recent_commands if c.command == "move"]
    # Where it may step (the move's list, when it has one) and every named place the world told of
    # (the map, perception): a place beyond the list is walked toward through the listed node nearest it.
    reachable = [str(n) for n in enum_of(choice, "target_node_id") if n and is_destination(view, str(n))]
    known = [p.node_id for p in view.places if p.name and p.node_id not in reachable and is_destination(view, p.node_id)]
    options = [n for n in dict.fromkeys(reachable + known) if n != here]
    if not options:
        return []
    # Never visited first, then the longest ago, counted by building: the home's other room, the
    # library's other door, is no new place.
    by_building: dict[str, tuple[int, datetime | None]] = {}
    for p in view.places:
        count, last = by_building.get(place_group(view, p.node_id), (0, None))
        latest = max((t for t in (last, p.last_visited) if t is not None), default=None)
        by_building[place_group(view, p.node_id)] = (count + p.visits, latest)
    recent_set = set(recent_nodes[:5])
    groups = recent_groups(view, recent_nodes)
    at_door = bool(here and place_words.is_doorway(name_of(view, here) or place_name_here(view) or ""))

    explore = not (recent_nodes and recent_nodes[0] and not name_of(view, str(recent_nodes[0])))

    def rank(node: str) -> tuple[Any, ...]:
        count, latest = by_building.get(place_group(view, node), (0, None))
        last = (latest is not None, latest)
        # Every place it knows seen today: a street comes next, where new places are found (one step at a
        # time: from a street, a known place again, or a walk of streets would fill the day).
        today = explore and latest is not None and latest.astimezone(TOKYO).date() == view.now.astimezone(TOKYO).date()
        name = name_of(view, node) or ""
        doorway = place_words.is_doorway(name)
        # At a building's door, its inside is where the building's actions are: go in before going elsewhere.
        enters = at_door and bool(name) and not doorway and place_group(view, node) == place_group(view, here)
        # A node nobody named is a stretch of street: a place to pass, not to go to, while a named one is left.
        # Of places alike, the nearest: the same goal from every step of the walk (a tie drawn afresh at each
        # notification sent the agent back and forth between two far places).
        away = nodes.distance(here, node) if name and here else None
        return (node in recent_set, not enters, place_group(view, node) in groups, today, not name, last, count, doorway,
                away if away is not None else float("inf"), stable_hash(view.notification_id, node))

    for target in sorted(options, key=rank):
        step = target if not reachable or target in reachable else _toward(target, here, reachable)
        if step is not None:
            return [Decision(choice.command, {"target_node_id": step}, reasons.go_to(name_of(view, target)))]
    return []


def _wait(view: View, *, night: bool = False) -> list[Decision]:
    choice = view.choice("wait")
    if choice is None:
        return []
    if night:
        return [Decision(choice.command, {"duration": duration_for(choice, MAX_WAIT_UNITS)}, reasons.NIGHT_REST)]
    return [Decision(choice.command, {"duration": duration_for(choice, 1)}, reasons.NOTHING_ELSE_WAIT)]
