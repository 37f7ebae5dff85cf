"""The day view of a life in a generated town (testing/town), checked against the town's own records.

The agent lives 80 notifications in a town with the town's clock; then
every in-world day it lived is built from its state, and what the days show
is compared with what the town logged, never with what the package thinks:

- every place it stood at that it could know (where a text it read said it
  was, where a move it made took it) is there, and every place shown is one
  where the town had it standing at that time;
- everyone it said a line to is a partner of one of its conversations, and
  no partner is anyone the town did not put in a conversation with it;
- every gift it answered or made is there, exactly: received, declined or
  given, with whom and what;
- every promise the state holds is shown once, each with a partner the town
  had propose a meeting.
"""

from __future__ import annotations

import sqlite3
import sys
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.town import Town, live, serving  # noqa: E402
from testing.town.sim import TOKYO  # noqa: E402
from testing.town_agents import InProcessAgent  # noqa: E402

from karakuri_agent.app.day.model import build  # noqa: E402
from karakuri_agent.app.day.read import records_for  # noqa: E402
from karakuri_agent.state.factory import open_url  # noqa: E402

pytestmark = pytest.mark.life

SEEDS = (5, 11)
MESSAGES = 80
ACCEPT, REJECT = ("transfer_accept", "accept_transfer"), ("transfer_reject", "reject_transfer")


@pytest.fixture(scope="module", params=SEEDS)
def lived(request, tmp_path_factory):
    town = Town(seed=request.param, promise_chance=0.9, plain_ids=0.9)
    state_dir = tmp_path_factory.mktemp(f"day-town{request.param}") / "state"
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("KARAKURI_PERSONA_FILE", raising=False)
        patch.delenv("KARAKURI_PERSONA_DIR", raising=False)
        with serving(town) as server:
            live(town, InProcessAgent(server.base_url, town.api_key, state_dir), MESSAGES)
    state = open_url("", state_dir, lambda: town.now)
    first, last = town.start.astimezone(TOKYO).date(), town.now.astimezone(TOKYO).date()
    days = [build(records_for(state.store, first + timedelta(days=d))) for d in range((last - first).days + 1)]
    state.close()
    return town, days, state_dir


def _fetched(town: Town) -> set[str]:
    return {r["notification_id"] for r in town.requests if r["method"] == "GET" and r["status"] == 200}


def _accepted(town: Town):
    return [step for step in town.steps if step.accepted is not None]


def test_the_life_was_a_real_one(lived):
    town, days, _ = lived
    assert sum(len(d.places) for d in days) >= 3 and sum(len(d.conversations) for d in days) >= 2
    assert sum(sum(d.commands.values()) for d in days) >= MESSAGES // 2


def test_every_place_it_stood_at_is_shown_and_none_it_did_not(lived):
    town, days, _ = lived
    fetched = _fetched(town)
    seen_there = {s.node for s in town.steps if s.notification_id in fetched and s.kind == "free"
                  and s.variant.get("location_block")}
    walked_to = {str(s.accepted["params"]["target_node_id"]) for s in _accepted(town) if s.accepted["command"] == "move"
                 and any(node == str(s.accepted["params"]["target_node_id"]) and at <= town.now
                         for at, node, _ in town.arrivals if at > s.time)}
    visits = [v for d in days for v in d.places]
    assert seen_there | walked_to <= {v.node_id for v in visits}
    # A message the town delivers after its notification expired carries a created_at it backdated
    # without moving the agent back: such a text says where the agent was when it was issued.
    backdated = {s.node for s in town.steps if s.expired_on_delivery}
    for visit in visits:  # the town had it standing there at the time shown
        assert town.place_at(visit.arrived_at) == visit.node_id or visit.node_id in backdated, visit
        assert visit.label == town.world.place_by_id[visit.node_id].name


def test_everyone_it_talked_with_is_a_partner_and_nobody_else(lived):
    town, days, _ = lived
    names = town.world.person_by_id
    spoken_to = {names[p].name for conv in town.conversations for line in conv.agent_lines
                 if town.steps[line["step"]].accepted is not None for p in line["participants"]}
    in_talks = {names[p].name for conv in town.conversations for p in conv.everyone}
    partners = {p for d in days for c in d.conversations for p in c.partners}
    assert spoken_to and spoken_to <= partners <= in_talks
    said = Counter(line["message"] for conv in town.conversations for line in conv.agent_lines
                   if town.steps[line["step"]].accepted is not None)
    shown = Counter(line.text for d in days for c in d.conversations for line in c.lines if line.own)
    assert shown == said  # each line the agent said, once
    heard = {text for conv in town.conversations for speaker, text in conv.history if speaker}
    assert {line.text for d in days for c in d.conversations for line in c.lines} <= heard


def test_every_gift_is_shown_exactly(lived):
    town, days, _ = lived
    names = town.world.person_by_id
    expected = Counter()
    for step in _accepted(town):
        command = step.accepted["command"]
        if step.transfer is not None and command in ACCEPT + REJECT:
            what = step.transfer["what"]
            thing = ("item", what["item"], what["quantity"]) if "item" in what else ("money", what["money"])
            expected[("received" if command in ACCEPT else "declined", names[step.transfer["from"]].name, thing)] += 1
        elif command == "transfer":
            params = step.accepted["params"]
            item = params.get("item")
            thing = ("item", item["item_id"], item.get("quantity", 1)) if item else ("money", params.get("money"))
            expected[("given", names[str(params["target_agent_id"])].name, thing)] += 1
    shown = Counter((t.direction, t.partner, ("item", t.item["item_id"], t.item["quantity"]) if t.item
                     else ("money", t.money)) for d in days for t in d.transfers)
    assert shown == expected


def test_every_promise_the_state_holds_is_shown_once_with_a_partner_who_proposed_one(lived):
    town, days, state_dir = lived
    conn = sqlite3.connect(state_dir / "karakuri.db")
    stored = Counter(row[0] for row in conn.execute("SELECT source_text FROM commitments"))
    conn.close()
    shown = [p for d in days for p in d.promises]
    unique = {(p.text, p.made_at) for p in shown}  # a promise made one day and due the next shows on both
    assert Counter(text for text, _ in unique) == stored
    proposers = {town.world.person_by_id[p.partner_id].name for p in town.promises}
    assert stored and {p.partner for p in shown} <= proposers
