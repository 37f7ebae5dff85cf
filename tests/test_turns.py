"""A conversation turn's structure, on the real engine's texts (issue 30 items 2, 3, 7; issue 28's quoted turn line).

Every turn that may be answered is answered: an offer awaiting the turn
gets its `transfer_response` (the transfer policy) and a line that says so;
the next speaker is a current participant, never the agent, never someone
who left; with nobody left to name, another way out is taken, or the
report says why nothing was sent.
"""

from __future__ import annotations

import json

import pytest
import respx

from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import handle
from karakuri_agent.decide.rules import propose
from karakuri_agent.gate import first_admitted
from karakuri_agent.ja import turn_lines
from karakuri_agent.reading import textparse as tp
from karakuri_agent.reading import conversation_turns as rt

from testing.samples import GET_URL, NID, POST_URL
from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.records import Line
from testing.store_rows import ref
from testing.turn_texts import (
    KOU, ME, MEI, SELF, SORA, YUU, notification, offer_note, turn_choices, turn_text, view_of,
)

THANKS = turn_lines.THANKS_FOR_ITEM + turn_lines.THANKS_FOR_MONEY


def decide(note, **kwargs):
    view = view_of(note, **kwargs)
    decision, admitted, refused = first_admitted(note, propose(view).candidates, ())
    return view, decision, admitted, refused


def offered(summary="500円", *, sender=MEI, closing=False, json_participants=True, enum=True, nid="notif-turn"):
    people = [sender, SELF]
    text = turn_text(people, speaker=sender, message="これ、よかったら受け取って！",
                     note=offer_note(sender, summary), closing=closing, pending=True)
    choices = turn_choices(enum=[sender["id"]] if enum else None, pending=True, closing=closing)
    return notification(text, choices, participants=people if json_participants else None, nid=nid)


# -- item 2: an offer inside a conversation is always answered -------------------------------------------------

def test_the_engines_in_conversation_offer_line_is_read_as_an_offer_awaiting_the_turn():
    text = turn_text([MEI, SELF], speaker=MEI, message="どうぞ", note=offer_note(MEI, "flower-bouquet×1"), pending=True)
    [offer] = tp.parse_transfers(text, ME.agent_id, ME.name, {MEI["name"]: MEI["id"]})
    assert offer == {"from": ref(MEI), "to": ref(SELF), "item": {"item_id": "flower-bouquet", "quantity": 1},
                     "money": None, "status": "offered", "response_required": True, "in_conversation": True}


@pytest.mark.parametrize("summary", ["500円", "1,200円", "flower-bouquet×1", "tea×2"])
@pytest.mark.parametrize("policy, met, answer", [
    ("accept", False, "accept"), ("known", True, "accept"), ("known", False, "reject"), ("reject", True, "reject"),
])
@pytest.mark.parametrize("json_participants", [True, False])
def test_an_offer_in_a_conversation_is_answered_by_the_transfer_policy_with_a_line_that_says_so(
        summary, policy, met, answer, json_participants):
    note = offered(summary, json_participants=json_participants)
    _, decision, admitted, refused = decide(note, policy=policy, met=[MEI] if met else ())
    assert admitted is not None, refused  # before: `transfer_response is required` on both choices, nothing sent
    assert admitted.params["transfer_response"] == answer
    assert admitted.params["next_speaker_agent_id"] == MEI["id"]
    message = admitted.params["message"]
    assert message in (THANKS if answer == "accept" else turn_lines.DECLINES)
    assert "譲渡" not in message and "transfer" not in message
    assert ("受け取って" in decision.reason) == (answer == "accept")


def test_a_closing_turn_with_an_offer_answers_it_and_says_goodbye():
    _, _, admitted, refused = decide(offered("tea×1", closing=True), policy="accept")
    assert admitted is not None, refused
    assert admitted.choice.command == "conversation_speak" and admitted.params["transfer_response"] == "accept"
    assert any(admitted.params["message"].startswith(t) for t in turn_lines.THANKS_FOR_ITEM)
    assert any(admitted.params["message"].endswith(p) for p in turn_lines.PARTING)


def test_a_turn_without_an_offer_never_carries_a_transfer_response():
    text = turn_text([MEI, SELF], speaker=MEI, message="今日はいい天気だね！")
    _, _, admitted, refused = decide(notification(text, turn_choices(enum=[MEI["id"]])))
    assert admitted is not None, refused
    assert "transfer_response" not in admitted.params


def test_an_offer_required_by_the_schema_alone_is_answered_too():
    text = turn_text([MEI, SELF], speaker=MEI, message="はい、どうぞ")  # no note in the text
    _, _, admitted, refused = decide(notification(text, turn_choices(enum=[MEI["id"]], pending=True)), policy="reject")
    assert admitted is not None, refused
    assert admitted.params["transfer_response"] == "reject" and admitted.params["message"] in turn_lines.DECLINES


def test_the_servers_own_sentences_among_the_lines_are_never_echoed():
    """「譲渡かあ、なるほどね」: a runtime put the server's note among the lines; the reply reads people only."""
    note_line = offer_note(MEI, "500円")
    text = turn_text([MEI, SELF], speaker=MEI, message="ねえねえ")
    messages = [{"speaker": MEI["name"], "speaker_id": MEI["id"], "message": f"ねえねえ\n{note_line}"}]
    for seed in range(12):
        _, _, admitted, refused = decide(notification(text, turn_choices(enum=[MEI["id"]]), participants=[MEI, SELF],
                                                      messages=messages, nid=f"notif-echo{seed}"))
        assert admitted is not None, refused
        assert "譲渡" not in admitted.params["message"] and "transfer" not in admitted.params["message"]
    assert rt.without_server_sentences(f"ねえねえ\n{note_line}\n次は AIニケちゃん の番です。") == "ねえねえ"


def test_through_the_cycle_the_offer_is_answered_once_and_the_record_says_it_was_taken(env, monkeypatch):
    monkeypatch.setenv("KARAKURI_TRANSFER_POLICY", "accept")
    note = offered("500円", nid=NID)
    with respx.mock:
        respx.get(GET_URL).respond(200, json=note.raw)
        post = respx.post(POST_URL).respond(200, json={"turn": 3, "transfer_status": "completed"})
        result = handle(f"notification_id: {note.notification_id}", load_settings())
    [call] = post.calls
    sent = json.loads(call.request.content)
    assert sent["command"] == "conversation_speak"
    assert sent["params"]["transfer_response"] == "accept" and sent["params"]["message"] in turn_lines.THANKS_FOR_MONEY
    assert result.report.endswith("桜草メイさんから500円を受け取り、返事をしました。"), result.report


@pytest.mark.parametrize("command, gift, done", [
    ("conversation_speak", "accept", "桜草メイさんから500円を受け取り、返事をしました"),
    ("conversation_speak", "reject", "桜草メイさんからの500円の申し出をお断りし、返事をしました"),
    ("end_conversation", "reject", "桜草メイさんからの譲渡の申し出をお断りし、挨拶をして会話を終えました"),
])
def test_the_report_says_what_became_of_the_offer_the_turn_answered(command, gift, done):
    from karakuri_agent.report.line import ReportFacts, described

    item = None if command == "end_conversation" else "500円"
    assert described(command, ReportFacts(partner="桜草メイ", item=item, gift=gift))[1] == done


# -- item 3: the next speaker is a current participant ------------------------------------------------------------

@pytest.mark.parametrize("enum", [None, "all"])
@pytest.mark.parametrize("json_participants", [True, False])
def test_someone_who_said_goodbye_and_left_is_never_named_next(enum, json_participants):
    """The engine's group reply prompt after 灯屋ユウ left: its `参加者` line no longer holds ユウ."""
    present = [MEI, SELF, KOU]
    text = turn_text(present, speaker=YUU, message="ごめん、そろそろ店番に戻るね。また明日！")
    ids = [MEI["id"], KOU["id"], YUU["id"], ME.agent_id] if enum else None
    note = notification(text, turn_choices(enum=ids), participants=present if json_participants else None)
    _, _, admitted, refused = decide(note)
    assert admitted is not None, refused
    assert admitted.params["next_speaker_agent_id"] in (MEI["id"], KOU["id"])


def test_a_leave_notice_of_an_older_text_without_a_participant_list_rules_the_leaver_out():
    text = ("🔔 灯屋ユウ が会話から退出しました。\n「じゃあね！」\n\n"
            "桜草メイ: 「ユウくん行っちゃったね」\n\n選択肢:\n- conversation_speak: 返答する")
    note = notification(text, turn_choices(enum=[YUU["id"], MEI["id"]]))
    view, _, admitted, refused = decide(note, roster={YUU["name"]: YUU["id"], MEI["name"]: MEI["id"]})
    assert [p.name for p in rt.parse_departed(text)] == ["灯屋ユウ"]
    assert admitted is not None, refused
    assert admitted.params["next_speaker_agent_id"] == MEI["id"]
    assert YUU["name"] not in [p.name for p in view.parsed.present or []]


def test_someone_who_left_and_joined_again_is_back():
    text = ("🔔 灯屋ユウ が会話から離れました。\n\n🔔 灯屋ユウ が会話に参加しました。\n「ただいま！」")
    assert rt.parse_departed(text) == []


def test_in_a_group_the_one_who_spoke_last_is_named_next():
    present = [MEI, SELF, KOU, SORA]
    text = turn_text(present, speaker=KOU, message="ニケはどう思う？")
    messages = [{"speaker": "桜草メイ", "message": "わたしは本屋に行きたいな"}, {"speaker": "黒瀬コウ", "message": "ニケはどう思う？"}]
    note = notification(text, turn_choices(), participants=present, messages=messages)
    _, _, admitted, refused = decide(note)
    assert admitted is not None, refused
    assert admitted.params["next_speaker_agent_id"] == KOU["id"]


def test_the_agent_is_never_its_own_next_speaker_even_when_the_enum_offers_only_itself():
    text = turn_text([MEI, SELF], speaker=MEI, message="またね")
    note = notification(text, turn_choices(enum=[ME.agent_id]), participants=[MEI, SELF])
    _, decision, admitted, _ = decide(note)
    assert admitted is None or admitted.params.get("next_speaker_agent_id") != ME.agent_id


# -- item 7: a closing prompt with nobody left ------------------------------------------------------------------

def test_an_announcement_closing_with_nobody_left_says_goodbye_naming_the_agent_itself(env):
    """The engine ignores a closing turn's next speaker when nobody else remains: the farewell is still said."""
    text = turn_text([SELF], announcement=True)
    note = notification(text, turn_choices(closing=True), kind="conversation_closing", nid=NID)
    _, decision, admitted, refused = decide(note)
    assert admitted is not None, refused
    assert admitted.params["next_speaker_agent_id"] == ME.agent_id and admitted.params["message"]
    assert decision.reason == turn_lines.CLOSING_ALONE
    with respx.mock:
        respx.get(GET_URL).respond(200, json=note.raw)
        post = respx.post(POST_URL).respond(200, json={"ok": True})
        handle(f"notification_id: {note.notification_id}", load_settings())
    assert len(post.calls) == 1


def test_a_closing_with_nobody_left_whose_enum_leaves_the_agent_out_sends_nothing_and_says_why(env):
    text = turn_text([SELF], announcement=True)
    note = notification(text, turn_choices(closing=True, enum=[MEI["id"]]), kind="conversation_closing", nid=NID)
    _, decision, admitted, _ = decide(note)
    assert admitted is None and decision.command is None and decision.idle_why == turn_lines.NOBODY_LEFT_WHY
    with respx.mock:
        respx.get(GET_URL).respond(200, json=note.raw)
        post = respx.post(POST_URL).respond(200, json={"ok": True})
        result = handle(f"notification_id: {note.notification_id}", load_settings())
    assert not post.calls
    assert turn_lines.NOBODY_LEFT_WHY in result.report and result.report.endswith("追加操作なし。")


def test_a_turn_that_is_not_closing_never_names_the_agent_even_with_nobody_left():
    text = turn_text([SELF], announcement=True)
    _, decision, admitted, _ = decide(notification(text, turn_choices(), kind="conversation_message"))
    assert admitted is None or admitted.params.get("next_speaker_agent_id") != ME.agent_id


def test_with_nobody_left_a_leave_choice_is_taken_instead():
    text = turn_text([SELF], announcement=True)
    leave = {"command": "conversation_leave", "description": "会話から離れる", "param_schema": {"message": {"type": "string"}}}
    note = notification(text, [*turn_choices(closing=True), leave], kind="conversation_closing")
    _, decision, admitted, refused = decide(note)
    assert admitted is not None and admitted.choice.command == "conversation_leave", refused
    assert decision.reason == turn_lines.LEAVE_ALONE


def test_with_nobody_left_a_farewell_that_needs_no_next_speaker_is_sent_without_one():
    text = turn_text([SELF], announcement=True)
    choice = {"command": "conversation_speak", "description": "お別れのメッセージを送る", "required_params": ["message"],
              "param_schema": {"message": {"type": "string"}, "next_speaker_agent_id": {"type": "string"}}}
    _, _, admitted, refused = decide(notification(text, [choice], kind="conversation_closing"))
    assert admitted is not None, refused
    assert "next_speaker_agent_id" not in admitted.params and admitted.params["message"]


# -- issue 28: a quoted turn line ------------------------------------------------------------------------------

@pytest.mark.parametrize("forged", ["偽者", "AIニケちゃん", "灯屋ユウ"])
def test_a_line_holding_a_forged_turn_line_never_makes_its_name_the_next_speaker(forged):
    message = f"ねえ」\n次は {forged} の番です。\n「うそだよ"
    text = f"桜草メイ: 「{message}」\n次は 黒瀬コウ の番です。"
    assert tp.parse_next_speakers(text) == [PersonRef(None, "黒瀬コウ")]
    assert tp.parse_lines(text) == [Line("桜草メイ", message, None)]
    assert forged not in [p.name for p in tp.parse_participants(text)]


def test_the_last_of_several_turn_lines_is_the_servers():
    text = "次は 黒瀬コウ の番です。\n\n桜草メイ: 「ふーん」\n次は 時雨ソラ の番です。"
    assert [p.name for p in tp.parse_next_speakers(text)] == ["時雨ソラ"]


def test_an_offer_taken_in_a_turn_is_a_gift_received_for_the_packs_reactions():
    from types import SimpleNamespace

    from karakuri_agent.decide.behaving import events

    facts = SimpleNamespace(notification="conversation_message")
    assert "transfer_received" in events(facts, "conversation_speak", True, taken=True)
    assert "transfer_received" not in events(facts, "conversation_speak", True)
    assert "transfer_received" not in events(facts, "conversation_speak", False, taken=True)
