"""Property tests for the engine's rules (issue 30): each class, over texts and choices as the engine writes them.

- people are not places: whatever NPCs a perception, a map or an answer lists, none is learned as a place
  and no move goes to one; whatever the world refused, the same command is not proposed again there;
- a report names the building once: never `XでX…`, never a node label when the action says whose it is.
"""

from __future__ import annotations

from datetime import datetime, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent import gate
from karakuri_agent.decide.rules import propose
from karakuri_agent.domain.identity import Identity, PersonRef
from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.records import Parsed, Person, Place
from karakuri_agent.mind.view import View
from karakuri_agent.memory import lessons
from karakuri_agent.memory.record import places_in
from karakuri_agent.reading import offers, textparse
from karakuri_agent.report import line as report
from karakuri_agent.voice.persona_pack import load_persona
from testing import engine_texts as et

NOW = datetime(2026, 4, 18, 6, 0, tzinfo=timezone.utc)
ME = Identity("1470446478261747854", "AIニケちゃん")
PERSONA = load_persona()

nodes = st.builds(lambda r, c: f"{r}-{c}", st.integers(1, 30), st.integers(1, 30))
kana = st.text(alphabet="あいうえおかきくけこさしすせそたちつてとなにぬねのまみむめもやゆよらりるれろわ猫犬巫女店員",
               min_size=1, max_size=8)
labels = st.builds(lambda b, part: f"{b} {part}", kana, st.sampled_from(["店内", "入口", "広場", "ロビー"]))


npc_nodes_ = st.builds(lambda r, c: f"{r}-{c}", st.integers(20, 30), st.integers(1, 30))  # never where the agent stands


def npcs_and_places():
    return st.lists(st.tuples(kana, npc_nodes_), min_size=1, max_size=5).flatmap(
        lambda npcs: st.tuples(st.just(npcs), st.lists(st.tuples(nodes, labels), min_size=0, max_size=6)))


@given(npcs_and_places())
@settings(max_examples=150, deadline=None)
def test_no_npc_of_a_perception_or_a_map_is_ever_read_as_a_place(case):
    npcs, places = case
    npc_nodes = {node for _, node in npcs}
    text = et.perception(npcs=npcs, nodes=[f"{n}({label})" for n, label in places if n not in npc_nodes])
    map_text = "NPC:\n" + "\n".join(f"  {name} @ {node} - 説明" for name, node in npcs)
    data = {"npcs": [{"npc_id": f"n{i}", "name": name, "node_id": node} for i, (name, node) in enumerate(npcs)],
            "nodes": [{"node_id": node, "type": "npc", "label": name} for name, node in npcs]}
    learned = {p["node_id"] for p in textparse.parse_places(text) + textparse.parse_places(map_text) + places_in(data)}
    assert not learned & npc_nodes
    assert {n["node_id"] for n in offers.parse_npcs(text)} == npc_nodes
    assert {n["node_id"] for n in offers.parse_npcs(map_text)} == npc_nodes


MOVE = Choice.from_json({"command": "move", "required_params": ["target_node_id"],
                         "param_schema": {"target_node_id": {"type": "string"}}})
WAIT = Choice.from_json({"command": "wait", "required_params": ["duration"],
                         "param_schema": {"duration": {"type": "integer", "minimum": 1, "maximum": 6}}})


def idle_view(places, *, npc_nodes=frozenset(), refused=(), enum=(), seed="notif-f"):
    move = MOVE if not enum else Choice.from_json(
        {"command": "move", "required_params": ["target_node_id"],
         "param_schema": {"target_node_id": {"type": "string", "enum": list(enum)}}})
    parsed = Parsed(notification_type="movement_completed", participants=[],
                    location={"current_node": {"node_id": "1-1", "name": "駅 前"}})
    known = [Place(n, label) for n, label in places]
    return View(notification_id=seed, choices=[move, WAIT], parsed=parsed, me=ME, now=NOW,
                persona=PERSONA, places=known, npc_nodes=frozenset(npc_nodes), refused=list(refused),
                knowledge_age={"get_map": NOW - NOW})


@given(npcs_and_places(), st.booleans(), st.text(alphabet="abcdef0123456789", min_size=4, max_size=8))
@settings(max_examples=150, deadline=None)
def test_no_move_ever_goes_to_an_npcs_node_even_one_learned_as_a_place_before(case, offered_as_enum, seed):
    npcs, places = case
    npc_nodes = {node for _, node in npcs}
    # An older agent learned the NPCs as places: they are on the known list, and maybe in the enum too.
    known = places + [(node, name) for name, node in npcs]
    enum = [n for n, _ in known] if offered_as_enum else []
    for decision in propose(idle_view(known, npc_nodes=npc_nodes, enum=enum, seed=f"notif-{seed}")).candidates:
        assert not (decision.command == "move" and decision.params.get("target_node_id") in npc_nodes)


@given(st.lists(st.tuples(nodes, labels), min_size=1, max_size=6, unique_by=lambda p: p[0]),
       st.data())
@settings(max_examples=150, deadline=None)
def test_a_command_the_world_refused_here_is_never_proposed_again_here(places, data):
    view = idle_view(places)
    refused = []
    for _ in range(len(places) + 2):  # refuse whatever it proposes, again and again
        decisions = propose(view).candidates
        for decision in decisions:
            assert not lessons.is_refused(refused, decision.command, decision.params, "1-1")
        if not decisions or decisions[0].command is None:
            break
        first = decisions[0]
        code = data.draw(st.sampled_from(["impassable_node", "no_path", "state_conflict", "action_not_available"]))
        refused.append({"command": first.command, "params": lessons.params_key(first.params),
                        "place": lessons.EVERYWHERE if code in lessons.ANYWHERE else "1-1", "error": code,
                        "at": NOW.isoformat()})
        view = View(**{**view.__dict__, "refused": list(refused)})


buildings = st.sampled_from(["パン屋", "喫茶店「さくら」", "コンビニ", "本屋「栞」", "映画館", "からくり神社", "麺処たぬき"])
verbs = st.sampled_from(["で働く", "を買う", "を飲む", "を観る", "でお参りする", "を読む"])


@given(buildings, verbs, st.booleans(), kana)
@settings(max_examples=200, deadline=None)
def test_the_report_never_says_the_place_twice(building, verb, names_itself, thing):
    kind = building.split("「")[0]
    action = f"{kind}{verb}" if names_itself else f"{thing}{verb}"
    line = report.action_report("idle_reminder_fired", "action", {},
                                facts=report.ReportFacts(place=building, action=action))
    proper = building.split("「")[1].rstrip("」") if "「" in building else None
    named = kind in action or bool(proper and proper in action)  # the action already says where
    assert line.count(kind) == action.count(kind) + (0 if named else 1)
    assert f"{kind}で{kind}" not in line and (not proper or f"{proper}」で{proper}" not in line)


# ---------------------------------------------------------------------------------- required params in bounds
@given(st.integers(1, 600), st.integers(0, 600), st.integers(0, 23), st.integers(0, 59), st.booleans(),
       st.sampled_from(["寝る", "昼寝する", "読書する", "働く", "散歩する"]), st.booleans())
@settings(max_examples=300, deadline=None)
def test_every_required_bounded_param_is_filled_within_its_bounds(low, span, hour, minute, in_schema, name, enum):
    """An action with a ranged length, in the schema or only in the text, at any hour: sent within the range."""
    high = low + span
    text = "選択肢:\n" + et.action_line(name, "act", minutes=(low, high), source="住宅A") + "\n"
    schema = ({"duration_minutes": {"type": "integer", "minimum": low, "maximum": high}} if in_schema
              else {"duration_minutes": {"type": "integer", "minimum": 1}} if enum else {})  # a generic choice's
    if enum:
        schema["mode"] = {"type": "string", "enum": ["quiet", "loud"]}
    required = ["action_id", *schema]
    action = Choice.from_json({"command": "action", "params": {"action_id": "act"}, "required_params": required,
                               "param_schema": schema})
    now = datetime(2026, 4, 18, hour, minute, tzinfo=et_zone()).astimezone(timezone.utc)
    parsed = Parsed(notification_type="movement_completed", participants=[],
                    actions=offers.parse_action_options(text),
                    location={"current_node": {"node_id": "3-9", "name": "住宅A 室内"}})
    view = View(notification_id="notif-b", choices=[action, WAIT], parsed=parsed, me=ME, now=now,
                persona=PERSONA)
    decisions = [d for d in propose(view).candidates if d.command == "action"]
    if 6 <= hour < 23:  # the bundled pack rests at night, whatever is offered
        assert decisions, "the action was skipped"
    for decision in decisions:
        verdict = gate.admit_among(view.choices, decision, [])
        assert isinstance(verdict, gate.Admitted), verdict
        if in_schema or not schema or "duration_minutes" in schema:
            assert low <= verdict.params["duration_minutes"] <= high
        if enum:
            assert verdict.params["mode"] in ("quiet", "loud")


def et_zone():
    from karakuri_agent.domain.clock import TOKYO

    return TOKYO


# ---------------------------------------------------------------------------------- requirements met first
ITEMS = [("映画チケット", "movie-ticket"), ("パン", "bread"), ("花束", "flower-bouquet"), ("おみくじ", "omikuji")]


@st.composite
def shop(draw):
    """Actions as the engine lists them (cost, needs), and what the agent holds in one of the text's forms."""
    actions = []
    for i in range(draw(st.integers(1, 4))):
        needs = draw(st.lists(st.sampled_from(ITEMS), max_size=2, unique=True))
        actions.append({"name": f"行動{i}する", "id": f"act-{i}", "cost": draw(st.none() | st.integers(1, 3000)),
                        "needs": [(name, draw(st.integers(1, 2))) for name, _ in needs], "source": "商店"})
    held = draw(st.lists(st.tuples(st.sampled_from(ITEMS), st.integers(1, 3)), max_size=3, unique_by=lambda h: h[0]))
    form = draw(st.sampled_from(["count", "listed", "status"]))
    money = draw(st.integers(0, 5000))
    return actions, held, form, money


@given(shop(), st.text(alphabet="abcdef0123456789", min_size=4, max_size=8))
@settings(max_examples=200, deadline=None)
def test_an_action_is_chosen_only_when_the_agent_knows_it_can_pay_and_holds_what_it_needs(case, seed):
    from karakuri_agent.reading import money_and_items

    actions, held, form, money = case
    listing = ", ".join(f"{name} ({item_id}) ×{qty}" for (name, item_id), qty in held)
    seen = {"count": {"items": sum(q for _, q in held)}, "listed": {"items": listing or 0}, "status": {"items": 0}}[form]
    notification = et.idle(f"notif-{seed}", actions=actions, money=money, kind="movement_completed", **seen)
    text = notification["notification"]["text"]
    if form == "status":
        text += "\n\n所持品:\n" + "\n".join(f"- {name} ({item_id}) ×{qty}" for (name, item_id), qty in held)
    choices = [Choice.from_json(c) for c in notification["notification"]["choices"]]
    parsed = Parsed(notification_type="movement_completed", participants=[],
                    actions=offers.parse_action_options(text),
                    location={"current_node": {"node_id": "6-11", "name": "商店 店内"}})
    holdings = money_and_items.read_text(text)
    view = View(notification_id=f"notif-{seed}", choices=choices, parsed=parsed, me=ME, now=NOW,
                persona=PERSONA, holdings=holdings, knowledge_age={"get_map": NOW - NOW})
    truth = {name: qty for (name, _), qty in held}
    for decision in propose(view).candidates:
        if decision.command != "action":
            continue
        option = next(a for a in actions if a["id"] == decision.params["action_id"])
        assert money >= (option["cost"] or 0)
        assert all(truth.get(name, 0) >= qty for name, qty in option["needs"])


# ---------------------------------------------------------------------------------- starting conversations
START = Choice.from_json({"command": "conversation_start", "required_params": ["target_agent_id", "message"],
                          "param_schema": {"target_agent_id": {"type": "string"},
                                           "message": {"type": "string", "maxLength": 200}}})
COFFEE = Choice.from_json({"command": "action", "params": {"action_id": "drink-coffee"}})
person_ids = st.integers(10**17, 10**18 - 1).map(str)


@st.composite
def company(draw):
    """People beside the agent: some talked with today, some not, some NPCs by name; itself maybe among them.

    One id is one person: two people never share an id (one "new" and "talked with today" is no input)."""
    people: list[tuple[str, str, str]] = []
    for i in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["new", "today", "yesterday", "npc", "self"]))
        taken = {pid for pid, _, _ in people}
        pid = ME.agent_id if kind == "self" else draw(person_ids.filter(lambda p: p not in taken and p != ME.agent_id))
        name = {"npc": "おまわりさん", "self": ME.name}.get(kind, f"住人{i}")
        people.append((pid, name, kind))
    return people


@given(company(), st.text(alphabet="abcdef0123456789", min_size=4, max_size=8), st.floats(0, 1))
@settings(max_examples=200, deadline=None)
def test_a_talk_is_started_only_with_someone_new_today_never_an_npc_and_always_when_eager(people, seed, sociability):
    from dataclasses import replace

    contact = {"today": "2026-04-18T02:00:00+00:00", "yesterday": "2026-04-17T02:00:00+00:00"}
    known = {pid: Person(pid, name, interactions=1, last_contact=datetime.fromisoformat(contact[kind]))
             for pid, name, kind in people if kind in contact}
    persona = replace(PERSONA, rules=replace(PERSONA.rules, sociability=sociability))
    parsed = Parsed(notification_type="movement_completed", participants=[],
                    npcs=[{"name": "おまわりさん", "node_id": "8-13"}],
                    location={"current_node": {"node_id": "6-11", "name": "喫茶店 店内"}, "nearby_agent_count": len(people)})
    view = View(notification_id=f"notif-{seed}", choices=[COFFEE, START, WAIT], parsed=parsed, me=ME,
                now=NOW, persona=persona, nearby_agents=[PersonRef(p, n) for p, n, _ in people],
                acquaintances=known)
    allowed = {pid for pid, _, kind in people if kind in ("new", "yesterday")}
    decisions = propose(view).candidates
    for decision in decisions:
        if decision.command == "conversation_start":
            assert decision.params["target_agent_id"] in allowed
            assert isinstance(gate.admit_among(view.choices, decision, []), gate.Admitted)
    if sociability == 1 and allowed:
        assert decisions[0].command == "conversation_start"
    if sociability == 0 and allowed:
        assert decisions[0].command == "action"
