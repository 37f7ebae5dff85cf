import pytest

from karakuri_agent.errors import UsageError
from karakuri_agent.trigger import find_notification_id, validate_notification_id


@pytest.mark.parametrize(
    "body, expected",
    [
        ("AIニケちゃん への通知があります。notification_id: notif-01JDX9K2M4", "notif-01JDX9K2M4"),
        ("🔔 桜草メイ が話しかけています。「こんにちは！」\nnotification_id: notif-01JDX9M7QZ", "notif-01JDX9M7QZ"),
        ("notification_id: notif-a_b-C9\n次の行", "notif-a_b-C9"),
        ("notification_id：notif-abc。", "notif-abc"),
    ],
)
def test_id_is_read_from_the_message_body(body, expected):
    assert find_notification_id(body) == expected


@pytest.mark.parametrize("body", ["ログアウトが完了しました。おやすみなさい。", "", "notif-abc without the marker"])
def test_body_without_an_id_means_nothing_to_do(body):
    assert find_notification_id(body) is None


@pytest.mark.parametrize(
    "body",
    [
        "notification_id: notif-../../x",
        "notification_id: notif-abc/../../x",
        "notification_id: notif-abc?x=1",
        "notification_id: notif-abc\u200b",
        "notification_id: notif-ａｂｃ",
        "notification_id: notif-",
        "notification_id: " + "notif-" + "a" * 200,
    ],
)
def test_malformed_id_in_the_body_is_rejected_not_truncated(body):
    with pytest.raises(UsageError, match="invalid notification id"):
        find_notification_id(body)


@pytest.mark.parametrize("value", ["notif-../x", "notif-a b", "x-notif-a", "notif-a\n", "NOTIF-a", "notif-é"])
def test_validate_rejects_anything_but_the_pattern(value):
    with pytest.raises(UsageError):
        validate_notification_id(value)


def test_validate_accepts_the_pattern():
    assert validate_notification_id("notif-01JDX9M7QZ") == "notif-01JDX9M7QZ"
