"""What people told, brought back: the classes the conversation benchmark's memory found.

A plan taken back in another form of its word ('引っ越し' of '引っ越す') is withdrawn, so it is never
brought back; news about someone called by a kana or Latin name with さん/くん ('ことねさん',
'Kaiくん') or by a handle's or nickname's short form ('Kai' of Kai_07, 'ひより' of ひよりん) goes
back to them; small talk ('風が気持ちいいね') is nobody's fact.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.records import Line
from karakuri_agent.ja.told_words import about_someone, stem
from karakuri_agent.memory import recall
from karakuri_agent.reading.told_facts import read_line, retracted
from karakuri_agent.voice.names import called_names

TOLD_AT = datetime(2026, 12, 1, 3, tzinfo=timezone.utc)
REN = PersonRef("a-ren", "霧島レン")


def _told(message: str, at: datetime = TOLD_AT, who: PersonRef = REN):  # type: ignore[no-untyped-def]
    return read_line(Line(who.name, message, who.id), at)


def _rows(facts):  # type: ignore[no-untyped-def]
    return [{**f.to_row(), "id": i, "withdrawn_at": None, "mentioned_at": None} for i, f in enumerate(facts)]


def test_a_word_stem_drops_its_kana_ending() -> None:
    assert stem("引っ越し") == "引っ越" and stem("始め") == "始め" and stem("ボルダリング") == "ボルダリング"


def test_a_plan_taken_back_in_another_form_of_its_word_is_withdrawn_and_never_brought_back() -> None:
    facts, _ = _told("今月末に隣町へ引っ越すことになりまして")
    rows = _rows(facts)
    _, back = _told("先日お話しした引っ越しですが、なしになりました", TOLD_AT + timedelta(minutes=30))
    assert back and retracted(rows, back[0]) == [0]
    withdrawn = [{**r, "withdrawn_at": (TOLD_AT + timedelta(minutes=30)).isoformat()} for r in rows]
    assert recall.choose(withdrawn, REN, TOLD_AT + timedelta(days=1)) is None


@pytest.mark.parametrize("line, name", [
    ("ことねさん、宝くじ当たったらしいで", "ことね"), ("Kaiくん、結婚するんだって！", "Kai"),
    ("ひよりさん、今度そば屋さんを始めるそうですよ", "ひより"), ("ミナミ、県の大会で優勝したんだって", "ミナミ"),
    ("Kaiさんとこのワンちゃん、迷子になっとるらしいよ", "Kai"), ("おばあちゃんちの柿、たくさんもらったんだ", ""),
    ("みなさん、こんにちは", ""), ("あかちゃん、かわいいね", ""), ("あのね、きのう猫見たの", ""), ("オレ、来月出るわ", ""),
])
def test_who_news_is_about_is_read_from_how_the_line_calls_them(line: str, name: str) -> None:
    assert about_someone(line) == name


@pytest.mark.parametrize("person, line", [
    (PersonRef("a-kai", "Kai_07"), "Kaiくん、結婚するんだって！"),
    (PersonRef("a-hiyo", "ひよりん"), "ひよりさん、今度そば屋さんを始めるそうですよ"),
    (PersonRef("a-minami", "ミナミ☆"), "ミナミくん、足を骨折したんだって…"),
    (PersonRef("a-kotone", "ことね"), "ことねさん、宝くじ当たったらしいで"),
])
def test_news_goes_back_to_the_one_it_is_about_however_the_line_called_them(person: PersonRef, line: str) -> None:
    facts, _ = _told(line)
    assert len(facts) == 1 and facts[0].about_name in recall.kept_under(person)
    later = TOLD_AT + timedelta(days=1)
    brought = recall.choose(_rows(facts), person, later)
    assert brought is not None and facts[0].topic in brought.line
    assert recall.choose(_rows(facts), PersonRef("a-other", "桜草メイ"), later) is None
    assert recall.choose(_rows(facts), REN, later) is None  # never back to the one who told it


def test_called_names() -> None:
    assert called_names("Kai_07") == ("Kai07", "Kai") and called_names("ひよりん") == ("ひよりん", "ひより")
    assert called_names("灯野サキ") == ("サキ",)


@pytest.mark.parametrize("line", ["風が気持ちいいね", "今日は人が多いね", "さっき雨降りそうだったよね"])
def test_small_talk_is_nobodys_fact(line: str) -> None:
    assert _told(line) == ([], [])


def test_a_plan_told_in_kana_is_kept_whole_and_asked_about_as_ahead() -> None:
    facts, _ = _told("ぼくね、こんどピアノのはっぴょうかいがあるの")
    assert [(f.topic, f.detail) for f in facts] == [("はっぴょうかい", "plan")]
