"""Every tolerance of CONTRACT §2."""

from datetime import datetime, timezone

import pytest

from karakuri_agent.domain.notification import Choice, Notification, parse_timestamp


def test_times_as_iso_text_or_unix_milliseconds_mean_the_same_instant():
    iso = parse_timestamp("2026-11-29T12:00:00.000Z")
    assert iso == datetime(2026, 11, 29, 12, tzinfo=timezone.utc)
    assert parse_timestamp(int(iso.timestamp() * 1000)) == iso
    assert parse_timestamp(str(int(iso.timestamp() * 1000))) == iso


@pytest.mark.parametrize("value", [None, "", "not a date", True, [], 10**20])
def test_unreadable_times_become_none(value):
    assert parse_timestamp(value) is None


def test_missing_times_and_status_are_tolerated(notification):
    for key in ("created_at", "expires_at", "status"):
        del notification[key]
    parsed = Notification.from_json(notification, requested_id="notif-x")
    assert parsed.created_at is None and parsed.expires_at is None and parsed.status is None
    assert not parsed.is_expired(datetime.now(timezone.utc))


def test_label_stands_in_for_description():
    assert Choice.from_json({"command": "wait", "label": "待機する"}).description == "待機する"


def test_missing_params_required_and_schema_default_to_empty():
    choice = Choice.from_json({"command": "conversation_reject"})
    assert (choice.params, choice.required_params, choice.param_schema) == ({}, [], {})


def test_json_schema_shape_is_flattened_and_its_required_adds_to_required_params():
    choice = Choice.from_json(
        {
            "command": "move",
            "required_params": ["target_node_id"],
            "param_schema": {
                "type": "object",
                "properties": {"target_node_id": {"type": "string"}, "note": {"type": "string"}},
                "required": ["target_node_id", "note"],
            },
        }
    )
    assert set(choice.param_schema) == {"target_node_id", "note"}
    assert choice.required_params == ["target_node_id", "note"]


def test_flat_schema_is_kept_as_is():
    spec = {"type": "integer", "minimum": 1, "maximum": 6}
    assert Choice.from_json({"command": "wait", "param_schema": {"duration": spec}}).param_schema == {
        "duration": spec
    }


def test_absent_choices_or_empty_list_mean_no_choices(notification):
    notification["notification"]["choices"] = []
    assert Notification.from_json(notification, requested_id="x").choices == []
    del notification["notification"]["choices"]
    assert Notification.from_json(notification, requested_id="x").choices == []


def test_malformed_choices_are_dropped_not_fatal(notification):
    notification["notification"]["choices"] = ["move", {"description": "no command"}, {"command": 3},
                                               {"command": "wait", "params": "oops", "param_schema": [1]}]
    parsed = Notification.from_json(notification, requested_id="x")
    assert [c.command for c in parsed.choices] == ["wait"]
    assert parsed.choices[0].params == {} and parsed.choices[0].param_schema == {}


def test_unknown_fields_anywhere_are_tolerated_and_kept_in_raw(notification):
    notification["extra"] = {"deep": [1, 2]}
    notification["notification"]["mood"] = "happy"
    notification["notification"]["choices"][0]["weight"] = 3
    parsed = Notification.from_json(notification, requested_id="x")
    assert parsed.raw["extra"] == {"deep": [1, 2]}
    assert parsed.choice("conversation_accept") is not None


def test_expired_and_processed_are_recognised(notification):
    now = datetime(2026, 11, 29, 12, 5, tzinfo=timezone.utc)
    notification["expires_at"] = "2026-11-29T12:01:00Z"
    assert Notification.from_json(notification, requested_id="x").is_expired(now)
    notification["expires_at"] = None
    notification["status"] = "processed"
    assert Notification.from_json(notification, requested_id="x").is_processed()


def test_missing_participants_stay_none_so_the_text_is_parsed_instead(notification):
    del notification["notification"]["participants"]
    del notification["notification"]["conversation_messages"]
    body = Notification.from_json(notification, requested_id="x").notification
    assert body.participants is None and body.conversation_messages is None


def test_numeric_participant_ids_become_text(notification):
    notification["notification"]["participants"] = [{"id": 1474403124906295517, "name": "桜草メイ"}]
    body = Notification.from_json(notification, requested_id="x").notification
    assert body.participants[0].id == "1474403124906295517"


def test_a_body_that_is_not_an_object_still_yields_a_notification_without_choices():
    parsed = Notification.from_json(["not", "an", "object"], requested_id="notif-x")
    assert parsed.notification_id == "notif-x" and parsed.choices == []


def test_choice_sharing_a_command_is_matched_by_its_own_params(notification):
    notification["notification"]["choices"] = [
        {"command": "action", "params": {"action_id": "drink-coffee"}},
        {"command": "action", "params": {"action_id": "eat-napolitan"}},
    ]
    parsed = Notification.from_json(notification, requested_id="x")
    assert parsed.choice("action", {"action_id": "eat-napolitan"}).params == {"action_id": "eat-napolitan"}
    assert parsed.choice("action").params == {"action_id": "drink-coffee"}
    assert parsed.choice("move") is None


def test_a_value_naming_no_offered_choice_matches_none(notification):
    notification["notification"]["choices"] = [
        {"command": "action", "params": {"action_id": "drink-coffee"}},
        {"command": "action", "params": {"action_id": "eat-napolitan"}},
        {"command": "wait", "params": {"duration": 1}},
    ]
    parsed = Notification.from_json(notification, requested_id="x")
    assert parsed.choice("action", {"action_id": "steal-cash"}) is None
    assert parsed.choice("wait", {"duration": 3}).command == "wait"  # a lone choice's defaults may be filled over
