"""The newer API generation (schema_version, kind, summary, payload, perception) handled as well as the older.

Each case is one event in both generations: the older `type` + `text` (and
its JSON fields), the newer `kind` + `summary` + `payload` + `perception` with
the wrapper's millisecond times and `stale`. The agent must send the same
command either way, with the params the structured fields give, and report
the event under the same words.
"""

from __future__ import annotations

import copy
import json
from datetime import datetime, timedelta, timezone

import pytest
import respx

from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import handle
from karakuri_agent.domain.notification import KIND_TYPES, Notification
from karakuri_agent.reading import perception
from testing.samples import BODY, GET_URL, NID, POST_URL, SELF_ID

MEI = "1474403124906295517"
NOW = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
MS = int(NOW.timestamp() * 1000)


def wrapper(notification: dict, **extra) -> dict:
    """The newer GET answer: ok, the id, times in milliseconds, stale."""
    return {"ok": True, "notification_id": NID, "created_at": MS - 1000, "expires_at": MS + 30 * 60 * 1000,
            "stale": False, "notification": notification, **extra}


REQUEST = {"schema_version": 1, "kind": "conversation_request", "summary": "桜草メイ が話しかけています。",
           "payload": {"conversation_id": "conv-1", "initiator_name": "桜草メイ", "message": "こんにちは！"},
           "choices": [{"command": "conversation_accept", "label": "会話を受け入れる", "required_params": ["message"]},
                       {"command": "conversation_reject", "label": "会話を断る"}]}
REPLY = {"schema_version": 1, "kind": "conversation_reply", "summary": "桜草メイ が話しました。",
         "payload": {"conversation_id": "conv-1", "turn": 3, "speaker_name": "桜草メイ",
                     "message": "今日はどこに行ってきたの？",
                     "participants": [{"id": MEI, "name": "桜草メイ"}, {"id": SELF_ID, "name": "AIニケちゃん"}]},
         "choices": [{"command": "conversation_speak", "label": "返答する",
                      "required_params": ["message", "next_speaker_agent_id"]},
                     {"command": "conversation_end", "label": "会話を終了する",
                      "required_params": ["message", "next_speaker_agent_id"]}]}
IDLE = {"schema_version": 1, "kind": "idle_reminder", "summary": "前回の行動から10分が経過しました。",
        "perception": {"current_world_id": "main", "current_node": {"node_id": "3-3", "label": "広場"},
                       "weather": {"condition": "はれ", "temperature_celsius": 21},
                       "nearby_nodes": [{"label": "広場", "node_ids": ["3-3", "3-4"], "min_distance": 0}],
                       "nearby_buildings": [{"name": "神社", "door_nodes": ["5-5", "5-6"]}],
                       "nearby_npcs": [{"name": "駄菓子屋のおばあちゃん", "node_id": "4-1"}],
                       "nearby_agents": [], "money": 1200, "item_count": 0},
        "choices": [{"command": "move", "label": "移動する", "required_params": ["target_node_id"]},
                    {"command": "wait", "label": "待機する", "required_params": ["duration"]},
                    {"command": "get_perception", "label": "周囲を確認する"}]}


def run(answer: dict) -> tuple[object, list[dict]]:
    with respx.mock:
        respx.get(GET_URL).respond(200, json=answer)
        post = respx.post(POST_URL).respond(200, json={"ok": True, "status": "started"})
        result = handle(BODY, load_settings(), clock=lambda: NOW)
    return result, [json.loads(c.request.content) for c in post.calls]


@pytest.mark.unit
def test_the_newer_fields_are_read_as_the_older_ones():
    read = Notification.from_json(wrapper(REPLY), requested_id=NID).notification
    assert read.type == "conversation_message" and read.kind == "conversation_reply"
    assert read.conversation_id == "conv-1" and read.text == "桜草メイ が話しました。"
    assert [(p.id, p.name) for p in read.participants or []] == [(MEI, "桜草メイ"), (SELF_ID, "AIニケちゃん")]
    assert [(m.speaker, m.message) for m in read.conversation_messages or []] == [("桜草メイ", "今日はどこに行ってきたの？")]
    request = Notification.from_json(wrapper(REQUEST), requested_id=NID)
    assert request.notification.type == "conversation_requested"
    assert request.expires_at == NOW + timedelta(minutes=30)
    assert [(m.speaker, m.message) for m in request.notification.conversation_messages or []] == [("桜草メイ", "こんにちは！")]
    assert Notification.from_json(wrapper(REQUEST, stale=True), requested_id=NID).is_expired(NOW)
    assert set(KIND_TYPES.values()) <= set(__import__("karakuri_agent.behaviour.vocabulary",
                                                      fromlist=["x"]).NOTIFICATION_TYPES)


@pytest.mark.unit
def test_a_perception_is_read_into_the_places_npcs_and_people_near():
    seen = IDLE["perception"]
    assert perception.current_node(seen) == {"node_id": "3-3", "name": "広場"}
    assert [(p["node_id"], p["name"]) for p in perception.places(seen)] == [
        ("3-3", "広場"), ("3-4", "広場"), ("5-5", "神社 入口"), ("5-6", "神社 入口")]
    assert perception.npcs(seen) == [{"name": "駄菓子屋のおばあちゃん", "node_id": "4-1"}]
    assert perception.agents(seen) == [] and perception.weather(seen) == "はれ"
    near = {**seen, "nearby_agents": [{"agent_id": MEI, "agent_name": "桜草メイ", "node_id": "3-4"},
                                      {"agent_id": "42", "agent_name": "源さん", "node_id": "6-6"}]}
    assert perception.agents(near) == [{"id": MEI, "name": "桜草メイ"}]  # only who is beside it can be talked to
    assert perception.people_in_sight(near) == 2
    assert perception.agents({}) is None and perception.npcs({"nearby_npcs": "x"}) is None


@pytest.mark.unit
@pytest.mark.parametrize("junk", [None, 3, "x", [], {"current_node": "3-3"}, {"current_node": {"node_id": 5}},
                                  {"nearby_nodes": [{"label": 1, "node_ids": "3-3"}, 7]},
                                  {"nearby_buildings": [{"name": "神社", "door_nodes": [None, "a-b"]}]},
                                  {"nearby_agents": [{"agent_id": True, "agent_name": "x"}, {"agent_id": "1"}]},
                                  {"weather": {"condition": 3}}])
def test_a_perception_that_is_not_one_says_nothing(junk):
    read = Notification.from_json(wrapper({**IDLE, "perception": junk}), requested_id=NID).notification
    seen = read.perception
    assert perception.current_node(seen) is None and perception.places(seen) == []
    assert not perception.npcs(seen) and not perception.agents(seen) and perception.weather(seen) is None


def older(newer: dict) -> dict:
    """The same event as the older generation writes it: type, text, the JSON fields, described choices."""
    payload = newer.get("payload", {})
    text = newer["summary"]
    if payload.get("message"):
        text += f"\n{payload.get('speaker_name') or payload.get('initiator_name')}: 「{payload['message']}」"
    seen = newer.get("perception", {})
    if seen:
        text += "\n現在地: 3-3 (広場)\n近くの建物: 神社 [5-5]"
    body = {"type": KIND_TYPES.get(newer["kind"], newer["kind"]), "text": text,
            "choices": [{"command": c["command"], "description": c["label"], "params": {},
                         "required_params": c.get("required_params", [])} for c in newer["choices"]]}
    if payload.get("participants"):
        body["participants"] = payload["participants"]
    if payload.get("conversation_id"):
        body["conversation_id"] = payload["conversation_id"]
    return {"notification_id": NID, "created_at": (NOW - timedelta(seconds=1)).isoformat(),
            "expires_at": (NOW + timedelta(minutes=30)).isoformat(), "status": "pending", "notification": body}


@pytest.mark.parametrize("newer", [REQUEST, REPLY, IDLE], ids=["request", "reply", "idle"])
def test_each_event_gets_the_same_command_in_either_generation(env, newer, monkeypatch, tmp_path):
    new_result, [new_sent] = run(wrapper(copy.deepcopy(newer)))
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(tmp_path / "older"))  # the same id, another agent's first day
    old_result, [old_sent] = run(older(newer))
    assert new_sent["command"] == old_sent["command"]
    assert set(new_sent["params"]) == set(old_sent["params"])
    assert new_result.report.split("。")[0] == old_result.report.split("。")[0]  # the event in the same words
    if new_sent["command"] == "conversation_speak":
        assert new_sent["params"]["next_speaker_agent_id"] == MEI
    if new_sent["command"] == "move":
        assert new_sent["params"]["target_node_id"] in {"5-5", "5-6", "3-4"}


def test_a_stale_notification_gets_no_command(env):
    result, sent = run(wrapper(copy.deepcopy(REQUEST), stale=True))
    assert sent == [] and not result.sent


# -- the whole class: whatever the newer fields hold ----------------------------------------------------------
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

SCALAR = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=12) \
    | st.sampled_from(["3-3", "5-5", "a-b", "桜草メイ", MEI, "", "conversation_reply"])
VALUE = st.recursive(SCALAR, lambda kids: st.lists(kids, max_size=3) | st.dictionaries(
    st.sampled_from(["node_id", "label", "name", "agent_id", "agent_name", "node_ids", "door_nodes", "condition",
                     "message", "speaker_name", "initiator_name", "participants", "id", "conversation_id"]),
    kids, max_size=4), max_leaves=12)
PERCEPTION_KEYS = ["current_node", "nearby_nodes", "nearby_buildings", "nearby_npcs", "nearby_agents", "weather"]


@pytest.mark.fuzz
@given(kind=SCALAR, summary=SCALAR, payload=VALUE | st.dictionaries(st.sampled_from(
    ["conversation_id", "speaker_name", "initiator_name", "message", "participants"]), VALUE, max_size=5),
    perception=VALUE | st.dictionaries(st.sampled_from(PERCEPTION_KEYS), VALUE, max_size=6), stale=SCALAR)
def test_whatever_the_newer_fields_hold_the_notification_is_read_without_a_crash(kind, summary, payload, perception,
                                                                                  stale):
    from karakuri_agent.domain.identity import Identity
    from karakuri_agent.memory.context import parse

    body = {"schema_version": 1, "kind": kind, "summary": summary, "payload": payload, "perception": perception,
            "choices": REPLY["choices"]}
    read = Notification.from_json({**wrapper(body), "stale": stale}, requested_id=NID)
    parsed = parse(read, roster={}, me=Identity(SELF_ID, "AIニケちゃん"))
    assert isinstance(read.notification.type, str) and isinstance(read.notification.text, str)
    assert all(isinstance(p["node_id"], str) and isinstance(p["name"], str) for p in parsed.places)
    here = parsed.location["current_node"]
    assert here is None or isinstance(here["node_id"], str)
    assert read.is_expired(NOW) == (stale is True)
