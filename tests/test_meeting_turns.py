"""When a conversation line makes a meeting, and what the agent answers (issue 30 item 8).

A meeting is recorded only when it has a time the agent understood (an
exact time, or a clear hour read against the town's clock); a call to
everyone is no promise at all; a plan without a time gets a question
about the time, never 「その時間、…で会おうね」.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.decide.rules import propose
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.domain.records import Meeting
from karakuri_agent.gate import first_admitted
from karakuri_agent.ja import turn_lines
from karakuri_agent.memory.context import observe
from karakuri_agent.reading.promise_lines import extract_promise
from karakuri_agent.state.memory import MemoryState

from testing.store_rows import as_lines
from testing.turn_texts import KOU, ME, MEI, NOW, SELF, notification, turn_choices, turn_text, view_of

PLACES = [{"node_id": "3-3", "name": "公園 広場"}, {"node_id": "6-11", "name": "喫茶店 店内"}]
ASKS = {line.format(place=place) for line in turn_lines.ASK_TIME_AT for place in ("公園", "広場", "喫茶店")} | set(turn_lines.ASK_TIME)


def heard(message, *, now=NOW, nid="notif-meet", earlier: dict | None = None):
    """The agent hears `message` from メイ in a turn: what it records, and what it answers. `earlier`: a meeting
    already agreed (with コウ unless it names a partner: place, node, minutes from now)."""
    text = turn_text([MEI, SELF], speaker=MEI, message=message)
    note = notification(text, turn_choices(enum=[MEI["id"]]), participants=[MEI, SELF], nid=nid, created_at=now,
                        messages=[{"speaker": MEI["name"], "speaker_id": MEI["id"], "message": message}])
    store = MemoryState(clock=lambda: now).store
    store.learn_places(PLACES)
    if earlier is not None:
        due = now + timedelta(minutes=earlier["minutes"])
        store.add_commitment("notif-earlier", {"partner_id": earlier.get("partner_id", KOU["id"]),
                                               "partner_name": earlier.get("partner_name", KOU["name"]),
                                               "place_name": earlier["place"], "node_id": earlier["node"],
                                               "due_at": due.isoformat(), "source_text": "約束した", "line_key": "k"})
    observe(store, note, me=ME, now=now)
    pending = store.pending_commitments(now - timedelta(hours=1))
    view = view_of(note, pending_commitments=pending, places=[{**p, "visits": 0, "last_visited": None} for p in PLACES],
                   now=now)
    decision, admitted, refused = first_admitted(note, propose(view).candidates, ())
    assert admitted is not None, refused
    return pending, admitted.params["message"], decision.reason


@pytest.mark.parametrize("ping", ["@everyone 今から広場に集合！", "@here 15時に広場に集合！", "＠everyone 3時に公園で会おう！"])
def test_a_mass_ping_is_not_a_meeting_and_is_not_confirmed(ping):
    pending, message, _ = heard(ping)
    assert pending == []
    assert extract_promise(ping, speaker_name="桜草メイ", speaker_id=MEI["id"], now=NOW) is None
    assert "その時間" not in message and "会いましょう" not in message


@pytest.mark.parametrize("plan", [
    "夕方に公園を散歩しようと思っています。一緒にどうですか？",
    "今度一緒に喫茶店行こうよ！",
    "公園で会おう！",
])
def test_a_plan_without_a_time_is_not_recorded_and_gets_a_question_about_the_time(plan):
    pending, message, reason = heard(plan)
    assert pending == []  # before: recorded, confirmed with 「その時間、町民公園で会おうね」 and never kept
    assert message in ASKS and "その時間" not in message
    assert reason == turn_lines.ask_time(MEI["name"])


def test_three_oclock_said_at_noon_is_three_in_the_afternoon_and_is_confirmed_so():
    pending, message, _ = heard("3時に公園で会おう！")  # NOW is 12:00 in the town
    [meeting] = pending
    assert meeting.due_at and meeting.node_id == "3-3"
    due = meeting.due_at.astimezone(TOKYO)
    assert (due.hour, due.minute) == (15, 0)
    assert "15" in message and "03:00" not in message and "その時間" not in message


def test_a_time_is_confirmed_only_for_the_line_that_set_it():
    """「うん」 is inside many a line: an old plan's time is not confirmed to a line that said none."""
    old = Meeting(partner_id=MEI["id"], partner_name=MEI["name"], place_name="公園", node_id="3-3",
                  due_at=NOW + timedelta(hours=2), source_text="うん、14時に公園でね")
    text = turn_text([MEI, SELF], speaker=MEI, message="うん")
    note = notification(text, turn_choices(enum=[MEI["id"]]), participants=[MEI, SELF],
                        messages=[{"speaker": MEI["name"], "speaker_id": MEI["id"], "message": "うん"}])
    view = view_of(note, pending_commitments=[old])
    _, admitted, refused = first_admitted(note, propose(view).candidates, ())
    assert admitted is not None, refused
    assert "14" not in admitted.params["message"]


@pytest.mark.parametrize("middle", [None, "公園、いいね！何時ごろにする？", "いいね！何時ごろにする？"])
def test_a_time_given_after_a_plan_without_one_makes_the_meeting_at_its_place(middle):
    """「公園で会おう！」, the agent asks when, 「15時はどう？」: one meeting, at the park, at 15:00."""
    from karakuri_agent.reading.promise_lines import extract_promises

    lines = [{"speaker": MEI["name"], "speaker_id": MEI["id"], "message": "公園で会おう！"}]
    if middle:
        lines.append({"speaker": ME.name, "speaker_id": ME.agent_id, "message": middle})
    lines.append({"speaker": MEI["name"], "speaker_id": MEI["id"], "message": "15時はどう？"})
    promises = extract_promises(as_lines(lines), self_id=ME.agent_id, self_name=ME.name, now=NOW, known_places=PLACES)
    assert [(p.partner_name, p.node_id, p.due_at.astimezone(TOKYO).hour if p.due_at else None) for p in promises] == [
        (MEI["name"], "3-3", 15)]


@pytest.mark.parametrize("line, day, hour", [
    ("明日の3時、美術館行かない？", 19, 15),  # the conversation benchmark's miss: confirmed as 03:00
    ("明後日6時に駅で会おう", 20, 18),
    ("明日9時に公園で会おう", 19, 9),
    ("明日の午前3時に公園集合", 19, 3),  # said as the night: kept
])
def test_a_small_hour_on_another_day_is_in_the_afternoon(line, day, hour):
    promise = extract_promise(line, speaker_name=MEI["name"], speaker_id=MEI["id"], now=NOW)
    assert promise is not None and promise.due_at is not None
    due = promise.due_at.astimezone(TOKYO)
    assert (due.day, due.hour) == (day, hour)


@pytest.mark.parametrize("line", ["4時半に銭湯行こー♨️", "3時に広場であそぼう", "5時に公園いこ！"])
def test_casual_invitations_with_a_time_are_meetings(line):
    promise = extract_promise(line, speaker_name=MEI["name"], speaker_id=MEI["id"], now=NOW)
    assert promise is not None and promise.due_at is not None


@pytest.mark.parametrize("line", ["折り紙教室、一緒に申し込みませんか", "ねえ、あそびにいこ！"])
def test_an_invitation_naming_neither_place_nor_time_gets_a_question_about_the_time(line):
    pending, message, reason = heard(line)
    assert pending == [] and message in ASKS and reason == turn_lines.ask_time(MEI["name"])


# -- a plan that clashes with one already made is declined (issue 41: every agreed meeting kept) ------------
def heard_while_promised(message, earlier: dict, *, now=NOW):
    """As `heard`, with a meeting already agreed (`earlier`): what is pending, and what the agent answers."""
    pending, said, _ = heard(message, now=now, nid="notif-clash", earlier=earlier)
    return pending, said


CAFE_AT_3 = {"place": "喫茶店 店内", "node": "6-11", "minutes": 180}  # 15:00, with コウ


def test_a_plan_at_the_time_of_another_meeting_elsewhere_is_declined_naming_the_first():
    pending, message = heard_while_promised("15時に公園で会おう！", CAFE_AT_3)
    assert [(m.partner_name, m.node_id) for m in pending] == [(KOU["name"], "6-11")]  # the park plan was not made
    assert message in {line.format(time="15時", name="コウさん", place="喫茶店") for line in turn_lines.BUSY_THEN}


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(offset=st.integers(-150, 150), same_place=st.booleans(), same_person=st.booleans(),
       wording=st.sampled_from(["{h}時に{p}で会おう！", "{h}時、{p}に行くんだけど、来る？", "{h}時に{p}でお茶でもどう？",
                                "{h}時に{p}来られへん？"]))
def test_fuzz_a_plan_clashes_only_with_another_persons_meeting_elsewhere_within_the_hour(offset, same_place,
                                                                                        same_person, wording):
    """Whatever the wording: declined (not made, a no naming the first) exactly when another person's meeting
    is elsewhere and under an hour away; at the same place, or the same person, or farther apart, it is made."""
    earlier = {**CAFE_AT_3, "minutes": 180 + offset}
    if same_person:
        earlier.update(partner_id=MEI["id"], partner_name=MEI["name"])
    place = "喫茶店" if same_place else "公園"
    pending, message = heard_while_promised(wording.format(h=15, p=place), earlier)
    clash = not same_place and not same_person and abs(offset) < 60
    made = [m for m in pending if m.partner_name == MEI["name"] and m.source_text != "約束した"]
    restated = same_person and same_place and offset == 0  # the very meeting kept already: nothing new to make
    assert (not made) is (clash or restated), (pending, message)
    assert any(message.startswith(line.split("{")[0]) for line in turn_lines.BUSY_THEN) is clash, message


def test_a_clash_a_day_and_more_ahead_is_declined_and_not_made_alike():
    """The memory and the voice read one clash: a meeting tomorrow at 15:00 (27 hours ahead, past the
    window a later line may move) still keeps 「明日の15時に公園で」 from being made."""
    pending, message = heard_while_promised("明日の15時に公園で会おう！", {**CAFE_AT_3, "minutes": 180 + 24 * 60})
    assert [(m.partner_name, m.node_id) for m in pending] == [(KOU["name"], "6-11")]
    assert message in {line.format(time="15時", name="コウさん", place="喫茶店") for line in turn_lines.BUSY_THEN}
