"""Closeness: the bundled pack's per-person variable, grown by reactions; the closest sought out first, not always."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta, timezone

import pytest

from karakuri_agent.decide.behaving import finish
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.records import Meeting
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.decide.rules import propose
from karakuri_agent.mind.view import View
from karakuri_agent.voice.speech import compose

from testing.store_rows import as_refs
from testing.views import MOVE, NOW, view
from testing.closeness_views import KOU, MEI, NEARBY, PACK, RIN, start_view


def test_the_bundled_pack_holds_closeness_with_its_band_words():
    spec = load_persona(PACK).behaviour.variables["closeness"]
    assert spec.per_person and [b.label for b in spec.bands] == ["知り合い", "友達", "親友"]


@pytest.mark.fuzz
def test_the_closest_nearby_is_sought_out_usually_not_always():
    targets = [propose(start_view(f"notif-{i}", {"桜草メイ": 40, "黒瀬コウ": 5})).candidates[0].params["target_agent_id"]
               for i in range(400)]
    share = targets.count(MEI) / len(targets)
    assert 0.6 <= share <= 0.9, share
    assert {KOU, RIN} <= set(targets)  # variety stays
    even = [propose(start_view(f"notif-{i}", {})).candidates[0].params["target_agent_id"] for i in range(300)]
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
    kept = Meeting(id=7, partner_id=MEI, partner_name="桜草メイ", status="fulfilled",
                   due_at=NOW + timedelta(minutes=5))
    v = start_view("notif-kept", {"桜草メイ": 0})
    v = View(**{**v.__dict__, "behaviour_memory": {}, "parsed": replace(v.parsed, participants=as_refs([
        {"id": MEI, "name": "桜草メイ"}]))})
    start = Decision("conversation_start", {"target_agent_id": MEI, "message": "やっほー"})
    memory, trace = finish(v, None, start, "conversation_start", True, kept=[kept])
    # started (+3) and kept (+8) asked for 11; max_delta 10 per notification clamps it.
    assert memory["variables"]["closeness.桜草メイ"] == 10
    assert {"talk-starts-closer", "promise-kept-closer"} <= set(trace["reactions"])
    again = View(**{**v.__dict__, "behaviour_memory": memory})
    _, trace = finish(again, None, None, None, None, kept=[kept])  # the same promise read back again: not twice
    assert "promise-kept-closer" not in (trace or {}).get("reactions", [])
    _, trace = finish(v, None, start, "conversation_start", True)  # a talk without a promise kept: no promise_kept
    assert "promise-kept-closer" not in trace["reactions"]


# -- broken promises: `promise_broken`, once per promise, lowers that partner's closeness ---------------------------
KOU_NAME, RIN_NAME = "黒瀬コウ", "白石リン"


def _broken(promise_id: int, name: str, hours_ago: float) -> Meeting:
    return Meeting(id=promise_id, partner_id=None, partner_name=name, status="pending",
                   due_at=NOW - timedelta(hours=hours_ago))


def _idle(broken: list[Meeting], closeness: dict[str, int], memory: dict | None = None) -> View:
    v = view([MOVE], recent=[{"command": "action", "params": {}}])
    base = memory if memory is not None else {"variables": {f"closeness.{n}": c for n, c in closeness.items()}}
    return View(**{**v.__dict__, "persona": load_persona(PACK), "broken_promises": broken, "behaviour_memory": base})


def test_a_broken_promise_lowers_its_partners_closeness_once_clamped_by_the_engine():
    v = _idle([_broken(7, KOU_NAME, 4)], {KOU_NAME: 30, RIN_NAME: 3})
    memory, trace = finish(v, None, None, None, None)
    assert memory["variables"][f"closeness.{KOU_NAME}"] == 25
    assert trace["reactions"].count("promise-broken-farther") == 1
    again, trace = finish(replace(v, behaviour_memory=memory), None, None, None, None)  # the next notification
    assert again["variables"][f"closeness.{KOU_NAME}"] == 25
    assert "promise-broken-farther" not in (trace or {}).get("reactions", [])
    low, trace = finish(replace(v, broken_promises=[_broken(8, RIN_NAME, 4)]), None, None, None, None)
    assert low["variables"][f"closeness.{RIN_NAME}"] == 0  # 3 - 5 held at the variable's minimum
    assert any(c["path"] == f"closeness.{RIN_NAME}" and c["status"] == "clamped" for c in trace["changes"])


def test_two_broken_promises_at_once_lower_each_partner():
    v = _idle([_broken(7, KOU_NAME, 4), _broken(8, RIN_NAME, 6)], {KOU_NAME: 30, RIN_NAME: 40})
    memory, trace = finish(v, None, None, None, None)
    assert (memory["variables"][f"closeness.{KOU_NAME}"], memory["variables"][f"closeness.{RIN_NAME}"]) == (25, 35)
    assert trace["reactions"].count("promise-broken-farther") == 2


def test_a_counted_promise_is_forgotten_only_once_no_read_can_bring_it_back_again():
    counted = {"promises_broken": {"7": (NOW - timedelta(days=2, hours=2)).isoformat(),
                                   "9": (NOW - timedelta(days=3)).isoformat()}}
    memory, trace = finish(_idle([_broken(7, KOU_NAME, 24 * 2 + 2)], {KOU_NAME: 30}, counted), None, None, None, None)
    assert memory["promises_broken"] == {"7": counted["promises_broken"]["7"]}  # 9 is past any read
    assert "promise-broken-farther" not in (trace or {}).get("reactions", [])  # 7 is still counted


def _seed(state_dir, at, promises, closeness):
    """Promises in a real state (SQLite), some kept or called off, and the pack's remembered closeness."""
    from karakuri_agent.memory.promises import withdraw
    from karakuri_agent.state.factory import open_url
    from karakuri_agent.state.values import utc_text

    state = open_url("", state_dir, lambda: at - timedelta(minutes=1))  # kept before the run, not by it
    try:
        for index, (name, hours_ago, fate) in enumerate(promises):
            state.store.add_commitment(f"notif-promise-{index}", {
                "partner_id": None, "partner_name": name, "place_name": "広場", "node_id": None,
                "due_at": utc_text(at - timedelta(hours=hours_ago)), "source_text": f"{name}と広場で会う約束",
                "line_key": f"line-{index}", "said_at": utc_text(at - timedelta(days=1))})
        rows = {r.partner_name: r.id for r in state.store.meetings(at - timedelta(days=2), at, 50)}
        for name, _, fate in promises:
            if fate == "kept":
                state.store.fulfil_commitments([rows[name]])
            elif fate == "withdrawn":
                withdraw(state.store, [rows[name]])
        state.store.save_behaviour_state({"variables": {f"closeness.{n}": c for n, c in closeness.items()}})
    finally:
        state.close()


def _closeness(state_dir, at):
    from karakuri_agent.state.factory import open_url

    state = open_url("", state_dir, lambda: at)
    try:
        return {k.split(".", 1)[1]: v for k, v in state.store.behaviour_state()["variables"].items()
                if k.startswith("closeness.")}
    finally:
        state.close()


def _idle_run(nid, at):
    import copy
    import json

    import respx

    from karakuri_agent.app.config import load_settings
    from karakuri_agent.app.cycle import handle

    from testing.samples import BASE_URL, IDLE_REMINDER

    body = {**copy.deepcopy(IDLE_REMINDER), "notification_id": nid, "created_at": at.isoformat()}
    with respx.mock:
        respx.get(f"{BASE_URL}/agents/notifications/{nid}").respond(200, json=body)
        respx.post(f"{BASE_URL}/agents/command").respond(200, json={"ok": True})
        result = handle(f"🔔 notification_id: {nid}", load_settings(), clock=lambda: at)
    assert result.error is None, json.dumps(result.error, ensure_ascii=False)


def test_broken_promises_count_once_across_restarts_and_never_a_kept_withdrawn_or_not_yet_due_one(env, state_dir):
    at = NOW.replace(hour=3, minute=0)  # 12:00 in Tokyo
    everyone = ["黒瀬コウ", "白石リン", "桜草メイ", "白石ルナ", "青山ソラ"]
    _seed(state_dir, at, [("黒瀬コウ", 4, "broken"), ("白石リン", 6, "broken"), ("桜草メイ", 4, "kept"),
                          ("白石ルナ", 4, "withdrawn"), ("青山ソラ", 2, "not yet due")],
          {name: 30 for name in everyone})
    _idle_run("notif-broken-1", at)
    assert _closeness(state_dir, at) == {"黒瀬コウ": 25, "白石リン": 25, "桜草メイ": 30, "白石ルナ": 30, "青山ソラ": 30}
    _idle_run("notif-broken-2", at + timedelta(minutes=10))  # another Agent, the same state: nothing twice
    assert _closeness(state_dir, at) == {"黒瀬コウ": 25, "白石リン": 25, "桜草メイ": 30, "白石ルナ": 30, "青山ソラ": 30}
    _idle_run("notif-broken-3", at + timedelta(hours=1, minutes=5))  # ソラ's promise is past keeping now
    assert _closeness(state_dir, at)["青山ソラ"] == 25
    assert _closeness(state_dir, at)["黒瀬コウ"] == 25


def test_handle_explain_shows_a_broken_promise_lowering_closeness(env, api, state_dir):
    from click.testing import CliRunner

    from testing.samples import BODY
    from karakuri_agent.app.cli import agent

    at = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)  # the example notification's time
    _seed(state_dir, at, [("黒瀬コウ", 4, "broken")], {"黒瀬コウ": 30})
    result = CliRunner().invoke(agent, ["handle", "--explain", BODY])
    assert result.exit_code == 0, result.output
    assert "closeness.黒瀬コウ 30 → 25 (promise-broken-farther: subtract 5, applied)" in result.stdout, result.stdout
