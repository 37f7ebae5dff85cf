"""The day view of a life in the town, checked against the town's own records.

The agent lives 100 notifications in the town (through the rough relay) with
the town's clock; then every in-world day it lived is built from its state,
and what the days show is compared with what the town logged, never with what
the package thinks:

- every place it stood at that it could know (where an idle prompt it read was
  issued, where a move it made took it) is there, and every place shown is one
  where the town had it standing at that time;
- everyone it said a line to is a partner of one of its conversations, and
  no partner is anyone the town did not put in a conversation with it; each
  line it said is shown once, and every line shown was said;
- every gift it answered or made is there, exactly: received, declined or
  given, with whom and what;
- every promise the state holds is shown once, each with a partner the town
  had propose a meeting.
"""

from __future__ import annotations

import sqlite3
import sys
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.engine_town import API_KEY, EngineTown, Relay, serving  # noqa: E402
from testing.town_agents import InProcessAgent, live  # noqa: E402

from karakuri_agent.app.day.model import build  # noqa: E402
from karakuri_agent.app.day.read import records_for  # noqa: E402
from karakuri_agent.state.factory import open_url  # noqa: E402
from karakuri_agent.town.texts import TOKYO  # noqa: E402
from karakuri_agent.town.world import SELF_ID  # noqa: E402

pytestmark = pytest.mark.life

SEEDS = (5, 11)
MESSAGES = 100
ACCEPT, REJECT = ("transfer_accept", "accept_transfer"), ("transfer_reject", "reject_transfer")


@pytest.fixture(scope="module", params=SEEDS)
def lived(request, tmp_path_factory):
    town = EngineTown(request.param, relay=Relay.rough())
    town.meet_chance = 0.9
    state_dir = tmp_path_factory.mktemp(f"day-town{request.param}") / "state"
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("KARAKURI_PERSONA_FILE", raising=False)
        patch.delenv("KARAKURI_PERSONA_DIR", raising=False)
        with serving(town) as server:
            live(town, InProcessAgent(server.base_url, API_KEY, state_dir), MESSAGES)
    state = open_url("", state_dir, lambda: town.now)
    first, last = town.positions[0][0].astimezone(TOKYO).date(), town.now.astimezone(TOKYO).date()
    days = [build(records_for(state.store, first + timedelta(days=d))) for d in range((last - first).days + 1)]
    state.close()
    return town, days, state_dir


def _accepted(town: EngineTown):
    return [step for step in town.steps if step.accepted is not None]


def _place_at(town: EngineTown, moment: datetime) -> str:
    return [node for at, node in town.positions if at <= moment][-1]


def test_the_life_was_a_real_one(lived):
    town, days, _ = lived
    assert sum(len(d.places) for d in days) >= 3 and sum(len(d.conversations) for d in days) >= 2
    assert sum(sum(d.commands.values()) for d in days) >= MESSAGES // 2


def test_every_place_it_stood_at_is_shown_and_none_it_did_not(lived):
    town, days, _ = lived
    fetched = {step.notification_id for delivery in town.deliveries for step in [delivery.step]
               if step is not None and any(r["method"] == "GET" for r in delivery.requests)}
    seen_there = {s.node for s in town.steps if s.notification_id in fetched and s.kind == "idle"
                  and not s.expired_on_delivery}
    walked_to = {str(s.accepted["params"]["target_node_id"]) for s in _accepted(town) if s.accepted["command"] == "move"
                 and any(node == str(s.accepted["params"]["target_node_id"]) and at > s.time
                         for at, node in town.positions)}
    visits = [v for d in days for v in d.places]
    assert seen_there | walked_to <= {v.node_id for v in visits}
    # A message the relay delivers after its notification expired carries a created_at it backdated
    # without moving the agent back: such a text says where the agent was when it was issued.
    backdated = {s.node for s in town.steps if s.expired_on_delivery}
    for visit in visits:  # the town had it standing there at the time shown
        assert _place_at(town, visit.arrived_at) == visit.node_id or visit.node_id in backdated, visit


def _said(town: EngineTown) -> list[tuple[Any, str]]:
    """(the step, the line) of every line the agent said that the town took."""
    return [(s, s.accepted["params"]["message"]) for s in _accepted(town)
            if isinstance((s.accepted.get("params") or {}).get("message"), str) and s.accepted["params"]["message"]]


def test_everyone_it_talked_with_is_a_partner_and_nobody_else(lived):
    town, days, _ = lived
    spoken_to = {town.name_of(p) for s, _ in _said(town)
                 for p in s.participants or [s.accepted["params"].get("target_agent_id")] if p and p != SELF_ID}
    in_talks = {town.name_of(p) for conv in town.talks.values() if SELF_ID in conv.participants or SELF_ID in conv.left
                for p in conv.participants + sorted(conv.left) if p != SELF_ID}
    partners = {p for d in days for c in d.conversations for p in c.partners}
    assert spoken_to and spoken_to <= partners <= in_talks
    shown = Counter(line.text for d in days for c in d.conversations for line in c.lines if line.own)
    assert shown == Counter(line for _, line in _said(town))  # each line the agent said, once
    heard = {text for conv in town.talks.values() for _, text in conv.history}
    assert {line.text for d in days for c in d.conversations for line in c.lines} <= heard


def _thing(offer: dict[str, Any]) -> tuple[Any, ...]:
    item = offer.get("item")
    return ("item", item[0], item[1]) if item else ("money", offer.get("money"))


def test_every_gift_is_shown_exactly(lived):
    town, days, _ = lived
    expected: Counter[tuple[Any, ...]] = Counter()
    for step in _accepted(town):
        command, params = step.accepted["command"], step.accepted.get("params") or {}
        offer = step.pending_offer if step.pending_offer and step.pending_offer.get("to") == SELF_ID else None
        answer = "accept" if command in ACCEPT else "reject" if command in REJECT else params.get("transfer_response")
        if offer is not None and answer in ("accept", "reject"):
            direction = "received" if answer == "accept" else "declined"
            expected[(direction, town.name_of(offer["from"]), _thing(offer))] += 1
        gift = params if command == "transfer" else params.get("transfer")
        if isinstance(gift, dict) and (gift.get("item") or gift.get("money")):
            to = params.get("target_agent_id") or params.get("next_speaker_agent_id")
            item = gift.get("item")
            thing = ("item", item["item_id"], item.get("quantity", 1)) if item else ("money", gift.get("money"))
            expected[("given", town.name_of(str(to)), thing)] += 1
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
    proposers = {town.name_of(m["resident"]) for m in town.meetings}
    assert stored and {p.partner for p in shown} <= proposers
