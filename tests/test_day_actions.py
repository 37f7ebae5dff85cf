"""What the agent ate, from the actions the world accepted (set-5's reader: 'お昼なに食べた？' answered
with places, 'おやつなんだった？' with its favourite food).

The journal keeps each accepted action by the name its text offered; the day's actions reach the voice,
which answers a meal asked of with the newest thing eaten or drunk, said as done, and never makes one up.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.domain.identity import Identity
from karakuri_agent.domain.records import Offer, Parsed
from karakuri_agent.memory import journal
from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.phrase import said_as_done
from karakuri_agent.state.memory import MemoryState
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

NOW = datetime(2026, 5, 2, 12, 0, tzinfo=TOKYO)
ME = Identity("1470446478261747854", "AIニケちゃん")
NIKE = load_persona()


def _offer(action_id: str, name: str) -> Offer:
    return {"action_id": action_id, "name": name, "source": None, "cost": None, "reward": None, "needs": [],
            "minutes": 30, "min_minutes": None, "max_minutes": None}


@pytest.fixture
def store():
    state = MemoryState(lambda: NOW)
    yield state.store
    state.close()


def _act(store, nid: str, action_id: str, offered: list[Offer], at: datetime) -> None:
    journal.acted(store, notification_id=nid, parsed=Parsed(notification_id=nid, actions=offered), me=ME,
                  conversation="", command="action", params={"action_id": action_id}, result={}, now=at)


@pytest.mark.unit
def test_an_accepted_action_is_the_days_by_its_offered_name_newest_first(store):
    offered = [_offer("eat-toast", "厚切りトーストを食べる"), _offer("buy-fish", "干物を買う")]
    _act(store, "n1", "eat-toast", offered, NOW - timedelta(hours=2))
    _act(store, "n2", "buy-fish", offered, NOW - timedelta(hours=1))
    _act(store, "n3", "fly-away", offered, NOW - timedelta(minutes=30))  # not offered: nothing kept
    assert journal.today(store, NOW)["day_actions"] == ("干物を買う", "厚切りトーストを食べる")
    tomorrow = NOW + timedelta(days=1)
    assert journal.today(store, tomorrow)["day_actions"] == ()  # another day's


@pytest.mark.unit
def test_the_same_notification_acted_twice_is_kept_once(store):
    offered = [_offer("eat-toast", "厚切りトーストを食べる")]
    _act(store, "n1", "eat-toast", offered, NOW - timedelta(hours=1))
    _act(store, "n1", "eat-toast", offered, NOW - timedelta(minutes=50))
    assert journal.today(store, NOW)["day_actions"] == ("厚切りトーストを食べる",)


ASKED = st.sampled_from(("お昼なに食べた？", "ニケちゃん、朝まんまは何食ったんだ？", "晩ご飯もう食べた？何にしたの",
                         "ニケちゃんのきょうのおやつ、なんだった？", "今日はちゃんとお昼を食べたかね。何を食べなさった"))


@pytest.mark.fuzz
@settings(max_examples=80, deadline=None)
@given(line=ASKED, eaten=st.sampled_from(("厚切りトーストを食べる", "カフェラテを飲む", "たい焼きを食べる")),
       other=st.sampled_from(("干物を買う", "展示を見る", "雑誌を読む")), seed=st.sampled_from(("a", "b", "c")))
def test_fuzz_a_meal_asked_is_answered_with_what_it_ate(line: str, eaten: str, other: str, seed: str) -> None:
    heard = hear(line, own_names=("ニケ",))
    assert heard is not None and heard.asks == "meal", (line, heard)
    reply = compose("reply", persona=NIKE, partner_name="健太", last_line=line, seed=seed,
                    memory=Memory(did_today=(other, eaten), today_places=("喫茶店",)))
    assert said_as_done(eaten) in reply and "喫茶店" not in reply, (line, reply)


@pytest.mark.fuzz
@settings(max_examples=40, deadline=None)
@given(line=ASKED, seed=st.sampled_from(("a", "b")))
def test_fuzz_a_meal_asked_with_nothing_eaten_is_never_made_up(line: str, seed: str) -> None:
    reply = compose("reply", persona=NIKE, partner_name="健太", last_line=line, seed=seed,
                    memory=Memory(did_today=("干物を買う",), today_places=("喫茶店",)))
    assert "干物" not in reply and "喫茶店" not in reply and "食べた" not in reply, (line, reply)


@pytest.mark.fuzz
@settings(max_examples=40, deadline=None)
@given(line=st.sampled_from(("これ食べたことある？", "何食べたい？", "好きな食べ物は？", "お昼何にする？", "お昼すぎって何してたの？",
                             "撤回させていただけますでしょうか。", "ばあさんの干し柿、食ったことあっか？", "今日のランチどこ行った？",
                             "今夜の夕飯は、もう何にするか決めたんかい")))
def test_fuzz_no_meal_of_today_asked_is_left_to_the_other_readers(line: str) -> None:
    heard = hear(line, own_names=("ニケ",))
    assert heard is not None and heard.asks != "meal", (line, heard)


@pytest.mark.unit
@pytest.mark.parametrize("name, done", [("厚切りトーストを食べる", "厚切りトーストを食べた"), ("カフェラテを飲む", "カフェラテを飲んだ"),
                                        ("干物を買う", "干物を買った"), ("公園に行く", "公園に行った"), ("散歩する", "散歩した"),
                                        ("ピアノを弾く", "ピアノを弾いた"), ("朝市", "")])
def test_an_action_is_said_as_done(name: str, done: str) -> None:
    assert said_as_done(name) == done
