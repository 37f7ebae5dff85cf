"""The memory's classes, fuzzed: a thing taken back in another form of its word is never brought
back, and news about someone reaches them however the line called them, and nobody else."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.records import Line
from karakuri_agent.memory import recall
from karakuri_agent.reading.told_facts import read_line, retracted

TOLD_AT = datetime(2026, 12, 1, 3, tzinfo=timezone.utc)
TELLER = PersonRef("a-teller", "霧島レン")
OTHER = PersonRef("a-other", "桜草メイ")
# (the plan as a verb, the same word as a noun)
PLANS = [("引っ越す", "引っ越し"), ("申し込む", "申し込み"), ("乗り換える", "乗り換え"),
         ("打ち合わせる", "打ち合わせ")]
WHERE = ["隣町", "ボランティア", "新しい店", "駅前", "港の倉庫", "北の町"]
TOLD_FORMS = ["今月末に{w}へ{v}ことになりまして", "来週、{w}に{v}ことになったんだ", "{w}で{v}ことにしたよ"]
BACK_FORMS = ["先日お話しした{n}ですが、なしになりました", "やっぱり{n}はやめたわ", "{n}の話、なくなっちゃった",
              "この前言った{n}、やっぱやめた"]
NEWS = ["{c}{h}、入院したらしいよ", "{c}{h}、結婚するんだって！", "{c}{h}、宝くじ当たったらしいで", "{c}{h}とこ、赤ちゃん生まれたって",
        "{c}{h}、足を骨折したんだって…"]


def _rows(facts):  # type: ignore[no-untyped-def]
    return [{**f.to_row(), "id": i, "withdrawn_at": None, "mentioned_at": None} for i, f in enumerate(facts)]


def _read(message: str, at: datetime = TOLD_AT):  # type: ignore[no-untyped-def]
    return read_line(Line(TELLER.name, message, TELLER.id), at)


@settings(max_examples=120, deadline=None)
@given(st.sampled_from(PLANS), st.sampled_from(WHERE), st.sampled_from(TOLD_FORMS), st.sampled_from(BACK_FORMS))
def test_a_plan_taken_back_in_any_form_of_its_word_is_never_brought_back(
        plan: tuple[str, str], where: str, told: str, back: str) -> None:
    verb, noun = plan
    facts, _ = _read(told.format(w=where, v=verb))
    rows = _rows(facts)
    _, taken = _read(back.format(n=noun), TOLD_AT + timedelta(minutes=20))
    withdrawn = {i for t in taken for i in retracted(rows, t)}
    left = [{**r, "withdrawn_at": TOLD_AT.isoformat() if r["id"] in withdrawn else None} for r in rows]
    for day in (1, 2, 5):
        brought = recall.choose(left, TELLER, TOLD_AT + timedelta(days=day))
        assert brought is None, (told.format(w=where, v=verb), back.format(n=noun), brought)


NAMES = st.one_of(
    st.tuples(st.sampled_from(["ことね", "あおい", "つむぎ", "はるか"]), st.just("")).map(lambda t: (t[0], t[0])),
    st.sampled_from([("Kai_07", "Kai"), ("Ren22", "Ren"), ("mio_mio", "mio")]),
    st.sampled_from([("ミナミ☆", "ミナミ"), ("★ユウタ", "ユウタ"), ("灯野サキ", "サキ"), ("ひよりん", "ひより")]),
)


@settings(max_examples=120, deadline=None)
@given(NAMES, st.sampled_from(["さん", "くん", "ちゃん"]), st.sampled_from(NEWS))
def test_news_reaches_the_one_it_is_about_and_nobody_else(name: tuple[str, str], honorific: str, form: str) -> None:
    full, called = name
    person = PersonRef("a-them", full)
    facts, _ = _read(form.format(c=called, h=honorific))
    assert len(facts) == 1, form.format(c=called, h=honorific)
    later = TOLD_AT + timedelta(days=1)
    brought = recall.choose(_rows(facts), person, later)
    assert brought is not None and facts[0].topic in brought.line
    assert recall.choose(_rows(facts), OTHER, later) is None and recall.choose(_rows(facts), TELLER, later) is None
