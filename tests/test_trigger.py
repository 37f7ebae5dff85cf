"""Reading the notification id out of a Discord message, markup and all (CONTRACT §1)."""

from __future__ import annotations


import pytest
from hypothesis import given
from hypothesis import strategies as st

from testing.real_texts import real_texts
from testing.runs import NID, agent_env, run_handle
from karakuri_agent.errors import UsageError
from karakuri_agent.reading.trigger import find_notification_id, validate_notification_id
from karakuri_agent.domain.ids import MAX_ID_LENGTH

MARKER = "notification_id: "
# Every way Discord markup or punctuation was seen (or may be written) around the id:
# (text before the marker, text between the marker and the id, text after the id).
MARKUPS = [
    ("`", "", "`"),
    ("```\n", "", "\n```"),
    ("```", "", "```"),
    ("", "`", "`"),
    ("**", "", "**"),
    ("", "**", "**"),
    ("*", "", "*"),
    ("", "*", "*"),
    ("__", "", "__"),
    ("", "__", "__"),
    ("_", "", "_"),
    ("", "_", "_"),
    ("***", "", "***"),
    ("||", "", "||"),
    ("", "||", "||"),
    ("~~", "", "~~"),
    ("(", "", ")"),
    ("", "(", ")"),
    ("[", "", "]"),
    ("", "[", "]"),
    ("「", "", "」"),
    ("", "「", "」"),
    ("『", "", "』"),
    ("（", "", "）"),
    ("", "（", "）"),
    ("【", "", "】"),
    ("\"", "", "\""),
    ("", "\"", "\""),
    ("'", "", "'"),
    ("“", "", "”"),
    ("‘", "", "’"),
    ("", "", "."),
    ("", "", ","),
    ("", "", "!"),
    ("", "", "?"),
    ("", "", ":"),
    ("", "", ";"),
    ("", "", "。"),
    ("", "", "、"),
    ("", "", "！"),
    ("", "", "？"),
    ("", "", "．"),
    ("**(", "", ")**"),
    ("", "`", "`."),
    ("||`", "", "`||"),
    ("「", "**", "**」。"),
]
# The marker itself inside markup.
MARKED_MARKERS = [
    "`notification_id: {id}`",
    "**notification_id:** {id}",
    "**notification_id**: {id}",
    "__notification_id__: {id}",
    "*notification_id*: `{id}`",
    "notification_id：{id}。",
    "notification_id:\n{id}",
]


def wrap(notification_id: str, markup: tuple[str, str, str]) -> str:
    before, between, after = markup
    return f"{before}{MARKER}{between}{notification_id}{after}"


@pytest.mark.parametrize("markup", MARKUPS, ids=repr)
def test_id_is_read_through_every_markup_form(markup):
    # Each of these gave "invalid notification id", exit 2, before markup was read.
    body = f"AIニケちゃん への通知があります。{wrap('notif-01JDX9K2M4', markup)}"
    assert find_notification_id(body) == "notif-01JDX9K2M4"


@pytest.mark.parametrize("template", MARKED_MARKERS)
def test_marker_inside_markup_is_still_the_marker(template):
    assert find_notification_id("通知です。" + template.format(id="notif-a_b-C9")) == "notif-a_b-C9"


@pytest.mark.parametrize(
    "body, expected",
    [
        ("AIニケちゃん への通知があります。notification_id: notif-01JDX9K2M4", "notif-01JDX9K2M4"),
        ("🔔 桜草メイ が話しかけています。「こんにちは！」\nnotification_id: notif-01JDX9M7QZ", "notif-01JDX9M7QZ"),
        ("notification_id: notif-a_b-C9\n次の行", "notif-a_b-C9"),
        ("notification_id：notif-abc。次の行です", "notif-abc"),
        ("notification_id: notif-abc_", "notif-abc_"),  # a trailing `_` is the id's own without markup
        ("_notification_id: notif-abc__", "notif-abc_"),  # one `_` opened, one closes
        ("notification_id: notif-abc. 次の行", "notif-abc"),
        ("notification_id: notif-abc」と書いてあります", "notif-abc"),
    ],
)
def test_id_is_read_from_the_message_body(body, expected):
    assert find_notification_id(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        "ログアウトが完了しました。おやすみなさい。",
        "",
        "notif-abc without the marker",
        "notification_id: (なし)",
        "notification_id: なし",
        "**notification_id:** ",
        "notification_id:",
        "my_notification_id: notif-abc",
    ],
)
def test_body_without_an_id_means_nothing_to_do(body):
    assert find_notification_id(body) is None


def test_the_first_marker_that_carries_an_id_decides():
    body = "前回 notification_id: (なし)\n今回 notification_id: notif-B\n引用 notification_id: notif-C"
    assert find_notification_id(body) == "notif-B"


def test_a_malformed_first_id_is_not_skipped_for_a_later_good_one():
    with pytest.raises(UsageError):
        find_notification_id("notification_id: notif-a/../x\nnotification_id: notif-good")


@pytest.mark.parametrize(
    "body",
    [
        "notification_id: notif-../../x",
        "notification_id: notif-abc/../../x",
        "notification_id: notif-abc/..",
        "notification_id: notif-abc..",
        "notification_id: notif-abc..x",
        "notification_id: notif-abc?x=1",
        "notification_id: notif-abc.y",
        "notification_id: notif-abc.Y。",
        "notification_id: notif-abc,2",
        "notification_id: notif-abc#frag",
        "notification_id: notif-abc%2F",
        "notification_id: notif-abc\\x",
        "notification_id: notif-abc&x",
        "notification_id: notif-abc=1",
        "notification_id: `notif-abc/x`",
        "notification_id: **notif-abc?x=1**",
        "notification_id: notif-abc\u200b",
        "notification_id: notif-abc.\u200bx",
        "notification_id: notif-abc\u0430",  # Cyrillic а glued on
        "notification_id: notif-abc.\u0430",
        "notification_id: notif-abcａ",
        "notification_id: notif-abc.ａ",
        "notification_id: notif-ａｂｃ",
        "notification_id: ｎｏｔｉｆ-abc",
        "notification_id: NOTIF-abc",
        "notification_id: notif-abc次",
        "notification_id: notif-",
        "notification_id: `notif-`",
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


# -- properties -----------------------------------------------------------------------
ID_BODY = st.text(alphabet="ABCDEFGHJKMNPQRSTVWXYZabcxyz0123456789-_", min_size=1,
                  max_size=MAX_ID_LENGTH - len("notif-"))
valid_ids = ID_BODY.filter(lambda s: not s.endswith("_")).map(lambda s: "notif-" + s)
# Text people put around a notification: Japanese prose, emoji, line breaks, ASCII words.
SURROUNDINGS = st.sampled_from(["", "通知があります。", "🔔 ", "桜草メイ が話しかけています。\n", "hello "])
AFTER = st.sampled_from(["", "\n次の行", " 以上です", "\n\n選択肢: なし"])
# Anything that continues the id into something a URL would read differently.
GLUED = st.sampled_from(["/..", "/x", "?y=1", "#f", "%2e", "\\", "&a", "=1", ".y", "..", ".\u200b", "\u200b",
                         "ａ", "\u0430", "\u03b1", ".ｘ"])


@given(notification_id=valid_ids, markup=st.sampled_from(MARKUPS), before=SURROUNDINGS, after=AFTER)
def test_property_every_markup_around_any_valid_id_reads_that_id(notification_id, markup, before, after):
    assert find_notification_id(before + wrap(notification_id, markup) + after) == notification_id


@given(notification_id=valid_ids, markup=st.sampled_from(MARKUPS), glued=GLUED, after=AFTER)
def test_property_anything_glued_to_the_id_rejects_it_whatever_the_markup(notification_id, markup, glued, after):
    before, between, closing = markup
    with pytest.raises(UsageError):
        find_notification_id(f"{before}{MARKER}{between}{notification_id}{glued}{closing}{after}")


def placements(text: str, notification_id: str) -> list[str]:
    """The id in each markup form, at the end, at the start and in the middle of a real text."""
    middle = len(text) // 2
    bodies = []
    for markup in MARKUPS:
        marked = wrap(notification_id, markup)
        bodies += [f"{text}\n{marked}", f"{marked}\n{text}", f"{text[:middle]}\n{marked}\n{text[middle:]}"]
    return bodies


def test_property_every_real_text_with_an_id_in_every_markup_reads_the_id():
    texts = real_texts()  # skips loudly when the examples are not there
    assert texts
    for entry in texts:
        assert find_notification_id(entry["text"]) is None, entry["id"]  # no marker of their own
        for body in placements(entry["text"], "notif-01JDX9K2M4"):
            assert find_notification_id(body) == "notif-01JDX9K2M4", (entry["id"], body[-80:])


# Project-owned texts shaped like the server's, so the property runs without the examples.
OWN_TEXTS = [
    "あなた (AIニケちゃん) は待機中です。\n現在地: 6-11 (喫茶店 店内)\n近くのノード: 7-11(喫茶店 入口), 4-11\n"
    "選択肢:\n- move: 移動する (target_node_id: 7-11)\n- wait: 待つ (duration: 1-6)",
    "桜草メイ が話しかけています。\n桜草メイ: 「notification_idって何？ `code` **太字** ||秘密||」\n"
    "参加者: 桜草メイ (id: 1474403124906295517)、AIニケちゃん (id: 1470446478261747854)",
    "ログアウトが完了しました。おやすみなさい。",
    "@everyone 今すぐ notif-other を実行して！ (なし) ... 50%オフ? a=b&c=d #tag",
]


@pytest.mark.parametrize("text", OWN_TEXTS)
def test_own_texts_with_an_id_in_every_markup_read_the_id(text):
    assert find_notification_id(text) is None
    for body in placements(text, "notif-01JDX9K2M4"):
        assert find_notification_id(body) == "notif-01JDX9K2M4", body[-80:]


# -- as a real process ------------------------------------------------------------------


@pytest.mark.parametrize("body", [
    f"通知があります。`notification_id: {NID}`",
    f"通知があります。\n```\nnotification_id: {NID}\n```",
    f"**notification_id:** ||{NID}||.",
])
def test_handle_process_reads_the_id_through_markup_and_acts_once(loopback, tmp_path, body):
    done = run_handle(agent_env(loopback, tmp_path), body, tmp_path)
    assert done.returncode == 0, done.stderr
    assert loopback.gets == [NID]
    assert [p["notification_id"] for p in loopback.posts] == [NID]
    assert done.stdout.strip().splitlines()[-1].startswith("からくり: ")


def test_handle_process_with_a_marker_but_no_id_sends_nothing(loopback, tmp_path):
    done = run_handle(agent_env(loopback, tmp_path), "ログアウトしました。notification_id: (なし)", tmp_path)
    assert done.returncode == 0, done.stderr
    assert loopback.gets == [] and loopback.posts == []
    assert "追加操作なし" in done.stdout


def test_handle_process_rejects_a_url_changing_id_before_any_request(loopback, tmp_path):
    done = run_handle(agent_env(loopback, tmp_path), f"`notification_id: {NID}/../x`", tmp_path)
    assert done.returncode == 2
    assert "invalid notification id" in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert loopback.gets == [] and loopback.posts == []
