"""Whom the agent has met is known by id, from what the histories show it said.

The symptom: someone the agent had talked with was greeted with はじめまして,
because the request that started the talk named them without an id, or the
talk was a group whose members were listed only later, or someone left the
group before the agent saw the list, and the agent's next line failed.
"""

from __future__ import annotations

from datetime import datetime

import pytest

from karakuri_agent.memory.context import observe
from karakuri_agent.domain.notification import Notification
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.domain.identity import Identity
from karakuri_agent.state.factory import open_url
from karakuri_agent.state.memory import MemoryState

NOW = datetime(2026, 8, 4, 9, 0, tzinfo=TOKYO)
ME = Identity("1470446478261747854", "AIニケちゃん")


@pytest.fixture(params=["sqlite", "memory"])
def store(request, tmp_path):
    opened = MemoryState(lambda: NOW) if request.param == "memory" else open_url("", tmp_path / "state", lambda: NOW)
    yield opened.store
    opened.close()


def _read(store, number: int, participants: list[tuple[str, str]], lines: list[tuple[str, str | None, str]]) -> None:
    body = {
        "type": "conversation_message",
        "text": "",
        "conversation_id": "conv-1",
        "participants": [{"id": pid, "name": name} for name, pid in participants],
        "conversation_messages": [{"speaker": name, "speaker_id": sid, "message": text} for name, sid, text in lines],
        "choices": [],
    }
    raw = {"notification_id": f"notif-{number}", "created_at": NOW.isoformat(), "notification": body}
    observe(store, Notification.from_json(raw, requested_id=f"notif-{number}"), me=ME, now=NOW)


def _met(store, *agent_ids: str) -> dict[str, int]:
    return {p.agent_id: p.interactions for p in store.people(agent_ids)}


@pytest.mark.parametrize("partner, pid, other, oid", [
    ("灯屋ユウ", "6319047636823388830", "時雨ソラ", "6940531238933465975"),
    ("Luna☆Bot", "3510126817308321772", "Luna", "5403283176957741149"),
])
def test_everyone_in_a_history_with_the_agents_own_line_is_met_once(store, partner, pid, other, oid):
    everyone = [(partner, pid), (other, oid), (ME.name, ME.agent_id)]
    history = [(partner, pid, "こんにちは、今ひま？"), (ME.name, ME.agent_id, "うん、ちょうど手が空いてたんだ。")]
    for number in (1, 2, 3):  # the same history read again and again
        _read(store, number, everyone, history)
    assert _met(store, pid, oid) == {pid: 1, oid: 1}


def test_a_history_without_the_agents_own_line_meets_nobody(store):
    _read(store, 1, [("桜草メイ", "111"), ("黒瀬コウ", "222")],
          [("桜草メイ", "111", "ねえねえ"), ("黒瀬コウ", "222", "どうしたの？")])
    assert _met(store, "111", "222") == {"111": 0, "222": 0}


def test_a_look_alike_name_is_not_met_through_the_other(store):
    """Luna☆Bot talked with the agent; Luna, seen once elsewhere, is still a stranger."""
    _read(store, 1, [("Luna", "555")], [("Luna", "555", "やっほー")])
    _read(store, 2, [("Luna☆Bot", "333"), (ME.name, ME.agent_id)],
          [("Luna☆Bot", "333", "あ、いたいた！"), (ME.name, ME.agent_id, "こんにちは！")])
    assert _met(store, "333", "555") == {"333": 1, "555": 0}


def test_someone_who_left_the_group_before_the_list_was_shown_is_met_by_their_line(store):
    """山吹ハル spoke in the talk and left; the name resolves to the id seen earlier."""
    _read(store, 1, [("山吹ハル", "444")], [("山吹ハル", "444", "おはよう")])
    _read(store, 2, [("Luna☆Bot", "333"), (ME.name, ME.agent_id)],
          [(ME.name, None, "あ、また会えたね。"), ("山吹ハル", None, "ちょっと聞いて！"),
           ("Luna☆Bot", None, "グラウンドのイベント、一緒に行かない？")])
    assert _met(store, "333", "444") == {"333": 1, "444": 1}
