"""Its plans for the time asked of: '明日は何するの？', '今夜の予定は？', '週末なにするん？'.

Every such question got the pack's "no plans" ('特に決めてないんだ。このへんをお散歩しようかな。') or, for
'来週は何か楽しみな予定あります？', a bare 'うん！', and a promise for tomorrow was said as 'このあと…'.
The time ahead is read from the words of concepts.json `ahead`; a promise that falls then is said with
its day, else what the pack means to do then (`plans_ahead`), else its "no plans".
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.understanding import PLANS
from karakuri_agent.reading.hearing import hear
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.situation import Plan
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
HERE = "6-11 (喫茶店 店内)"
# Saturday tomorrow: today is a Friday.
TOMORROW_AT_SHRINE = Plan("神社 境内", "17:00", days=1, weekday=5)
TODAY_AT_PARK = Plan("公園 広場", "15:30", days=0, weekday=4)
NEXT_WEDNESDAY = Plan("図書館 館内", "10:00", days=5, weekday=2, week=1)


def _reply(line: str, plans: tuple[Plan, ...] = (), seed: str = "a", persona=NIKE) -> str:  # type: ignore[no-untyped-def]
    return compose("reply", persona=persona, partner_name="灯屋ユウ", last_line=line, seed=seed,
                   memory=Memory(here=HERE, plans=plans), place_name=HERE)


def _said_one_of(reply: str, pool: tuple[str, ...]) -> bool:
    return any(reply.endswith(line) for line in pool)


@pytest.mark.parametrize("line, ahead", [
    ("明日は何すると？", "tomorrow"),
    ("あさってって何が用事あっけ？", "day_after"),
    ("来週は何か楽しみな予定あります？", "next_week"),
    ("今夜はなにする予定〜？🌙", "tonight"),
    ("週末なにするん？暇なん？", "weekend"),
    ("今日の残りの時間、なにに使うつもり？", "later"),
    ("明日の夜は何するの？", "tomorrow"),  # the day named first wins over its evening
])
def test_the_time_ahead_asked_of_is_read(line: str, ahead: str) -> None:
    heard = hear(line, own_names=("AIニケちゃん", "ニケ"))
    assert heard is not None and heard.asks == PLANS and heard.ahead == ahead


@pytest.mark.parametrize("line", ["昨日の夜は何してたの？", "休みの日は何してるの？", "明日、図書館行かない？"])
def test_a_past_a_habit_or_an_invitation_is_no_plan(line: str) -> None:
    heard = hear(line, own_names=("AIニケちゃん", "ニケ"))
    assert heard is not None and heard.asks != PLANS


def test_a_promise_is_said_in_the_frame_it_falls_in_with_its_day() -> None:
    plans = (TODAY_AT_PARK, TOMORROW_AT_SHRINE, NEXT_WEDNESDAY)
    assert "明日の17時" in _reply("明日は何するの？", plans) and "神社" in _reply("明日は何するの？", plans)
    assert "15時30分" in _reply("このあとどうするの？", plans) and "公園" in _reply("このあとどうするの？", plans)
    assert "神社" in _reply("週末なにするん？", plans)  # tomorrow is a Saturday
    assert "水曜の10時" in _reply("来週の予定は？", plans)
    # nothing promised tonight-after-the-park? today's promise is tonight's answer too
    assert "公園" in _reply("今夜は何する予定？", plans)


def test_without_a_promise_then_it_says_what_it_means_to_do_then() -> None:
    for line, frame in (("明日は何するの？", "tomorrow"), ("週末なにするん？", "weekend"),
                        ("今夜はなにする予定？", "tonight")):
        reply = _reply(line, (TODAY_AT_PARK,) if frame != "tonight" else (TOMORROW_AT_SHRINE,))
        assert _said_one_of(reply, NIKE.plans_ahead[frame]), reply
        assert "公園" not in reply and "神社" not in reply


def test_a_pack_without_plans_ahead_says_it_has_none() -> None:
    plain = dataclasses.replace(NIKE, plans_ahead={})
    assert _said_one_of(_reply("明日は何するの？", persona=plain), NIKE.answers["no_plans"])


FRAMES = {"tomorrow": ("明日", "あした"), "day_after": ("あさって", "明後日"), "weekend": ("週末", "土日"),
          "next_week": ("来週",), "tonight": ("今夜", "今晩"), "later": ("このあと", "これから")}
ASKS = ("は何するの？", "はなにする予定？", "って何か予定ある？", "はどこ行くん？", "の予定はいかがですか？",
        "はどうするつもり？", "、何か用事ある？")
OPENERS = ("", "ニケちゃん、", "ねえねえ、", "ところで、")


@pytest.mark.fuzz
@settings(max_examples=120, deadline=None)
@given(frame=st.sampled_from(sorted(FRAMES)), data=st.data(),
       days=st.integers(0, 9), weekday=st.integers(0, 6))
def test_fuzz_a_plans_question_gets_its_frames_promise_or_intention(frame: str, data: st.DataObject,
                                                                   days: int, weekday: int) -> None:
    word = data.draw(st.sampled_from(FRAMES[frame]))
    line = data.draw(st.sampled_from(OPENERS)) + word + data.draw(st.sampled_from(ASKS))
    heard = hear(line, own_names=("AIニケちゃん", "ニケ"))
    assert heard is not None and heard.asks == PLANS and heard.ahead == frame, (line, heard)
    plan = Plan("神社 境内", "17:00", days=days, weekday=(weekday + days) % 7, week=(weekday + days) // 7)
    reply = _reply(line, (plan,))
    falls = {"tomorrow": days == 1, "day_after": days == 2, "next_week": (weekday + days) // 7 == 1,
             "weekend": (weekday + days) % 7 >= 5 and days < 7}.get(frame, days == 0)
    if falls:
        assert "神社" in reply and "17時" in reply, (line, days, reply)
    else:
        assert "神社" not in reply and _said_one_of(reply, NIKE.plans_ahead[frame]), (line, days, reply)
