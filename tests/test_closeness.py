"""Closeness: the bundled pack's per-person variable, grown by reactions; the closest sought out first, not always."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from karakuri_agent.behaving import finish, promise_kept
from karakuri_agent.deciders import Decision
from karakuri_agent.persona import load_persona
from karakuri_agent.policy import View, propose
from karakuri_agent.speech import compose

from test_policy import MOVE, NOW, choice, view

PACK = Path(__file__).resolve().parents[1] / "skill" / "personas" / "nike"
MEI, KOU, RIN = "1474403124906295517", "1462098815530061904", "1462098815530061777"
NEARBY = [{"id": MEI, "name": "桜草メイ"}, {"id": KOU, "name": "黒瀬コウ"}, {"id": RIN, "name": "白石リン"}]


def _start_view(nid: str, closeness: dict[str, int], persona=None) -> View:
    start = choice("conversation_start", param_schema={
        "target_agent_id": {"type": "string", "enum": [p["id"] for p in NEARBY]}, "message": {"type": "string"}})
    v = view([start, MOVE], recent=[{"command": "action", "params": {}}])
    return View(**{**v.__dict__, "notification_id": nid, "nearby_agents": NEARBY,
                   "persona": persona or load_persona(PACK),
                   "behaviour_memory": {"variables": {f"closeness.{n}": c for n, c in closeness.items()}}})


def test_the_bundled_pack_holds_closeness_with_its_band_words():
    spec = load_persona(PACK).behaviour.variables["closeness"]
    assert spec.per_person and [b.label for b in spec.bands] == ["知り合い", "友達", "親友"]


def test_the_closest_nearby_is_sought_out_usually_not_always():
    targets = [propose(_start_view(f"notif-{i}", {"桜草メイ": 40, "黒瀬コウ": 5}))[0].params["target_agent_id"]
               for i in range(400)]
    share = targets.count(MEI) / len(targets)
    assert 0.6 <= share <= 0.9, share
    assert {KOU, RIN} <= set(targets)  # variety stays
    even = [propose(_start_view(f"notif-{i}", {}))[0].params["target_agent_id"] for i in range(300)]
    assert all(0.2 <= even.count(p["id"]) / 300 <= 0.47 for p in NEARBY)  # nobody closer: any of them


def test_a_close_one_is_greeted_more_familiarly_and_no_one_known_with_hajimemashite():
    persona = load_persona(PACK)
    close = {compose("start", persona=persona, partner_name="桜草メイ", partner_known=True, partner_close=True,
                     seed=f"s{i}") for i in range(30)}
    known = {compose("start", persona=persona, partner_name="桜草メイ", partner_known=True, seed=f"s{i}")
             for i in range(30)}
    openers = [g.split("{partner}")[0] or g.split("{partner}")[1][:4] for g in persona.greetings["close"]]
    assert all(any(o in line for o in openers) for line in close)
    assert not any(any(o in line for o in openers if o) for line in known)
    assert not any("はじめまして" in line for line in close | known)


def test_talking_and_keeping_a_promise_bring_closer_clamped_by_the_engine():
    meeting = {"partner_id": MEI, "partner_name": "桜草メイ", "due_at": (NOW + timedelta(minutes=5)).isoformat()}
    v = _start_view("notif-kept", {"桜草メイ": 0})
    v = View(**{**v.__dict__, "meetings": [meeting], "behaviour_memory": {}})
    start = Decision("conversation_start", {"target_agent_id": MEI, "message": "やっほー"})
    assert promise_kept(v, start, "conversation_start", True) == ["promise_kept"]
    assert promise_kept(v, start, "conversation_start", False) == []
    far = View(**{**v.__dict__, "meetings": [{**meeting, "due_at": (NOW + timedelta(hours=3)).isoformat()}]})
    assert promise_kept(far, start, "conversation_start", True) == []
    v = View(**{**v.__dict__, "parsed": {**v.parsed, "participants": [{"id": MEI, "name": "桜草メイ"}]}})
    memory, trace = finish(v, start, "conversation_start", True)
    # started (+3) and kept (+8) asked for 11; max_delta 10 per notification clamps it.
    assert memory["variables"]["closeness.桜草メイ"] == 10
    assert {"talk-starts-closer", "promise-kept-closer"} <= set(trace["reactions"])
