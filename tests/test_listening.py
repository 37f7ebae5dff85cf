"""A conversation that listens: the line understood (kind and whole-word topic), per class of line,
each in a few registers (casual, polite, terse, dialect-ish)."""

from __future__ import annotations

import pytest

from karakuri_agent.reading.listening import DAY, FAVOURITE, OTHER, PASTIME, PLANS, SIDE, TALK, hear
from karakuri_agent.reading.words import nouns, words

OWN = ("ニケ", "AIニケちゃん")


def _heard(line: str, others: tuple[str, ...] = ()):  # type: ignore[no-untyped-def]
    found = hear(line, own_names=OWN, other_names=others)
    assert found is not None
    return found


@pytest.mark.parametrize("line, expected", [
    ("手伝った", []),  # a verb: no noun cut out of it ('手伝')
    ("来週、市民マラソンに出るんだ", ["市民マラソン"]),
    ("駅前に新しいパン屋ができたんだって", ["駅前", "パン屋"]),
    ("お母さんの誕生日プレゼント買った", ["お母さん", "誕生日プレゼント"]),
    ("来週の土曜日に3時から", []),
])
def test_nouns_are_whole_words(line: str, expected: list[str]) -> None:
    assert nouns(line) == expected


def test_a_verb_is_read_with_its_dictionary_form() -> None:
    first = words("手伝った")[0]
    assert (first.surface, first.lemma, first.pos) == ("手伝っ", "手伝う", "verb")


@pytest.mark.parametrize("line, asks, kind", [
    ("コーヒーと紅茶、どっちが好き？", "", "choice"),
    ("朝型？夜型？", "", "choice"),
    ("犬派と猫派ならどっちですか？", "", "choice"),
    ("休みの日って家にいる派？", SIDE, "yesno"),
    ("今日はこのあとどうするの？", PLANS, None),
    ("これからの予定は？", PLANS, None),
    ("今日は何してたの？", DAY, None),
    ("きょうどんな一日だった？", DAY, None),
    ("なんの話してたの？", TALK, None),
    ("みんな何話してたんですか？", TALK, None),
    ("好きな食べ物は？", FAVOURITE, None),
    ("休みの日は何してるの？", PASTIME, None),
    ("趣味ってある？", PASTIME, None),
    ("ハナさんって何が好きなの？", OTHER, None),
])
def test_questions_say_what_they_ask(line: str, asks: str, kind: str | None) -> None:
    heard = _heard(line, others=("ハナ",))
    assert heard.kind == "question"
    assert heard.asks == asks
    if kind:
        assert heard.question is not None and heard.question.kind == kind


@pytest.mark.parametrize("line, kind, topic, mood", [
    ("来週、市民マラソンに出るんだ", "plan", "市民マラソン", ""),
    ("明日面接でさ、緊張してる", "plan", "面接", ""),
    ("今度の日曜、釣りに行くつもりです", "plan", "釣り", ""),
    ("駅前に新しいパン屋ができたんだって", "news", "パン屋", "good"),
    ("テストで満点とったよ！", "news", "満点", "good"),
    ("試験、受かりました！", "news", "試験", "good"),
    ("風邪ひいちゃってさ", "news", "風邪", "bad"),
    ("財布なくしちゃった…", "news", "財布", "bad"),
    ("試合に負けちゃった", "news", "試合", "bad"),
    ("昨日、妹の引っ越しを手伝ったよ", "news", "引っ越し", ""),
    ("手伝った", "news", "手伝った", ""),
])
def test_told_lines_name_the_thing_told(line: str, kind: str, topic: str, mood: str) -> None:
    heard = _heard(line)
    assert (heard.kind, heard.topic, heard.mood) == (kind, topic, mood)


@pytest.mark.parametrize("line, kind", [
    ("やっぱり旅行はやめたんだ", "retraction"),
    ("さっきの話、なしで！", "retraction"),
    ("結局、引っ越しは延期になりました", "retraction"),
    ("話してると楽しいな", "warmth"),
    ("ニケちゃんと一緒にいると落ち着くよ", "warmth"),
    ("会えてうれしいです", "warmth"),
    ("ありがとう、助かったよ", "thanks"),
    ("本当にありがとうございます", "thanks"),
    ("ニケちゃんってかわいいね", "compliment"),
    ("さすが！物知りだね", "compliment"),
    ("じゃあ、そろそろ行くね", "farewell"),
    ("またね！", "farewell"),
    ("それでは失礼します", "farewell"),
    ("今度一緒に公園行こうよ！", "invitation"),
    ("一緒にお茶しない？", "invitation"),
    ("これ、よかったらどうぞ", "offer"),
    ("クッキー焼いたから、あげる！", "offer"),
])
def test_kinds_of_line(line: str, kind: str) -> None:
    assert _heard(line).kind == kind


def test_a_retraction_names_what_is_taken_back() -> None:
    assert _heard("やっぱり旅行はやめたんだ").topic == "旅行"


def test_an_empty_line_is_nothing() -> None:
    assert hear("") is None and hear(None) is None
