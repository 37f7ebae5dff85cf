"""What people tell the agent about themselves (told_facts.py): read conservatively, dated in the world's zone."""

from datetime import date, datetime, timezone

import pytest

from karakuri_agent.domain import fact_kinds
from karakuri_agent.domain.records import Line
from karakuri_agent.reading import told_facts

# Tuesday 2026-12-01, 10:00 in Tokyo (01:00 UTC).
SAID = datetime(2026, 12, 1, 1, 0, tzinfo=timezone.utc)


def read(message, *, at=SAID, speaker="桜草メイ", speaker_id="a-mei"):
    return told_facts.read_line(Line(speaker, message, speaker_id), at, "c-1")


def test_a_pet_with_its_name_is_about_the_speaker():
    facts, _ = read("猫を飼ってるの、名前はミケ。")
    assert [(f.kind, f.topic, f.detail, f.about_id, f.about_name) for f in facts] == [
        (fact_kinds.PET, "ミケ", "猫", "a-mei", "桜草メイ")]
    assert facts[0].source == "猫を飼ってるの、名前はミケ。" and facts[0].said_at == SAID
    assert told_facts.recall_line(facts[0].to_row(), date(2026, 12, 3)) == "ミケちゃん、元気？"


@pytest.mark.parametrize("line, kind, topic", [
    ("私はコーヒーが好きなんだ。", fact_kinds.LIKE, "コーヒー"),
    ("ピーマンが苦手なの。", fact_kinds.DISLIKE, "ピーマン"),
    ("編み物が好きなんだ。", fact_kinds.LIKE, "編み物"),
    ("妹がいるんだ。", fact_kinds.FAMILY, "妹さん"),
    ("パン屋で働いてるよ。", fact_kinds.WORK, "パン屋"),
    ("昨日、骨折しちゃった。", fact_kinds.EVENT, "骨折"),
])
def test_likes_family_work_and_what_happened(line, kind, topic):
    facts, _ = read(line)
    assert [(f.kind, f.topic) for f in facts] == [(kind, topic)]


def test_a_plan_is_dated_from_when_it_was_said_in_tokyo():
    facts, _ = read("来週の土曜に引っ越すんだ。")
    assert [(f.kind, f.topic, f.due_on) for f in facts] == [(fact_kinds.PLAN, "引っ越し", date(2026, 12, 12))]
    # 23:30 UTC on Monday is already Tuesday in Tokyo: the same week either way, "明日" is Wednesday.
    late = datetime(2026, 11, 30, 23, 30, tzinfo=timezone.utc)
    assert read("明日、試験があるんだ。", at=late)[0][0].due_on == date(2026, 12, 2)
    row = facts[0].to_row()
    assert told_facts.recall_line(row, date(2026, 12, 2)) is None  # ten days ahead: not yet
    assert told_facts.recall_line(row, date(2026, 12, 8)) == "引っ越しの準備、進んでる？"
    assert told_facts.recall_line(row, date(2026, 12, 14)) == "引っ越し、どうだった？"


def test_a_plan_without_a_day_is_not_kept():
    assert read("いつか引っ越すんだ。")[0] == []


@pytest.mark.parametrize("line", [
    "コーヒーが好き？", "コーヒーが好きじゃないんだ。", "猫って好き？", "妹がいるの？",
    "明日は雨らしいね。", "いいね、それ。", "", "図書館で待ってるね。",
    "弟が猫を飼ってるんだ。", "父はパン屋で働いてるよ。", "猫を飼ってないんだ。",
])
def test_questions_negations_and_small_talk_tell_nothing(line):
    assert read(line) == ([], [])


def test_a_day_ahead_of_someone_of_theirs_is_kept_as_theirs_to_ask_after():
    """'弟の引っ越し、来週の土曜なんだ': the brother's move, on its day, is the speaker's to be asked after
    ('弟さんの引っ越し、どうだった？'); what a brother does with no day ahead ('弟が猫を飼ってる') is not kept,
    nor a plan that names only who ('弟が来週の土曜に引っ越すんだ': the brother is no thing to ask after)."""
    facts, _ = read("来週の土曜、弟の引っ越しなんだ。")
    assert [(f.topic, f.about_id, f.due_on is not None) for f in facts] == [("弟さんの引っ越し", "a-mei", True)]
    assert read("弟が来週の土曜に引っ越すんだ。") == ([], [])


def test_a_retraction_names_the_plan_or_means_the_latest():
    _, back = read("やっぱり引っ越しはやめた。")
    assert [(r.topic, r.speaker_id) for r in back] == [("引っ越し", "a-mei")]
    _, back = read("やっぱりやめた！")
    assert [r.topic for r in back] == [None]
    rows = [{"id": 1, "kind": "plan", "topic": "引っ越し", "about_id": "a-mei", "said_at": "2026-11-30T00:00:00+00:00"},
            {"id": 2, "kind": "plan", "topic": "旅行", "about_id": "a-mei", "said_at": "2026-11-30T01:00:00+00:00"},
            {"id": 3, "kind": "plan", "topic": "引っ越し", "about_id": "a-other", "said_at": "2026-11-30T00:00:00+00:00"}]
    assert told_facts.retracted(rows, read("やっぱり引っ越しはやめた。")[1][0]) == [1]
    assert told_facts.retracted(rows, read("やっぱりやめた！")[1][0]) == [2]
    assert read("迷うのはやめた。")[1] == []  # no plan named, no やっぱり: nothing taken back


def test_town_news_is_about_no_one():
    facts, _ = read("駅前に新しいパン屋ができたんだって！")
    assert [(f.kind, f.about_name, f.about_id) for f in facts] == [(fact_kinds.NEWS, "", None)]
    assert told_facts.recall_line(facts[0].to_row(), date(2026, 12, 2)) == "駅前に新しいパン屋ができたんだって！"


def test_the_agents_own_lines_are_not_read():
    lines = [Line("ニケ", "猫を飼ってるの、名前はミケ。", "me"),
             Line("桜草メイ", "妹がいるんだ。", "a-mei")]
    facts, _ = told_facts.read_lines(lines, lambda line: SAID, is_self=lambda i, n: i == "me")
    assert [(f.kind, f.about_id) for f in facts] == [(fact_kinds.FAMILY, "a-mei")]


def test_the_same_fact_told_twice_has_one_key():
    assert read("猫を飼ってるの、名前はミケ。")[0][0].key == read("ミケって猫を飼ってるんだ。")[0][0].key
