"""Questions of the agent itself read as such in any register (set-6, read by a reader: 11 of 12 deflected).

'今からどちらへ行かれるんですか？' was an either-or of '今' and 'ら' (answered '…'), 'お出かけされたんですか'
a question about the town, 'しゅうまつ なにしてんの' nobody's plans, 'ハマってるのあったら教えて' no question
at all, '服の好みってどんな系？きれいめ？カジュアル？' a yes/no on its last words. Each class drawn whole.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.understanding import DAY, PLANS, WORLD
from karakuri_agent.reading.hearing import hear

OWN = ("ニケ", "ニケさん", "ニケちゃん")


@pytest.mark.fuzz
@settings(max_examples=80, deadline=None)
@given(call=st.sampled_from(("", "ニケさん、", "あら、")),
       when=st.sampled_from(("今から", "これから", "この後は", "明日は", "週末は")),
       where=st.sampled_from(("どちらへ", "どちらに", "どこへ")),
       verb=st.sampled_from(("行かれるんですか？", "お出かけですか？", "いらっしゃるんですか？", "行かれるの？")))
def test_fuzz_where_it_goes_next_asks_its_plans(call: str, when: str, where: str, verb: str) -> None:
    line = call + when + where + verb
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "question" and heard.asks == PLANS, (line, heard)
    assert heard.question is not None and heard.question.kind != "choice", (line, heard)


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(when=st.sampled_from(("今日は", "本日は", "今朝は")),
       where=st.sampled_from(("どちらかに", "どこかに", "どちらに")),
       verb=st.sampled_from(("お出かけされたんですか？", "行かれたんですか？", "いらっしゃったんですか？",
                             "お出かけになりましたか？")))
def test_fuzz_where_it_went_in_respect_asks_its_day_not_the_town(when: str, where: str, verb: str) -> None:
    line = when + where + verb
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "question" and heard.asks not in (WORLD, ""), (line, heard)


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(a=st.sampled_from(("コーヒー", "公園", "駅前", "朝", "犬")), b=st.sampled_from(("紅茶", "図書館", "本屋の前", "夜", "猫")),
       how=st.sampled_from(("、どちらがお好きですか？", "、どっちにする？", "なら、どちらで過ごすのが好きですか？", "、どっちがいい？")))
def test_fuzz_an_either_or_named_is_still_one(a: str, b: str, how: str) -> None:
    line = f"{a}と{b}{how}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.question is not None and heard.question.kind == "choice", (line, heard)
    assert set(heard.question.options) == {a, b}, (line, heard)


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(thing=st.sampled_from(("好きなおやつ", "最近ハマってること", "今日のハイライト", "好きな本", "推し")),
       ask=st.sampled_from(("教えて", "おしえて", "教えてよ", "教えてください", "聞かせて〜")),
       end=st.sampled_from(("", "！", "〜✨", "🍩")))
def test_fuzz_asked_to_tell_is_asked(thing: str, ask: str, end: str) -> None:
    line = f"ニケちゃんの{thing}{ask}{end}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "question", (line, heard)
    assert heard.question is not None and heard.question.kind != "yesno", (line, heard)


def test_asked_to_tell_after_a_question_word_keeps_the_question() -> None:
    heard = hear("すきな作家だれ？おすすめおしえて", own_names=OWN)
    assert heard is not None and heard.question is not None and heard.question.kind == "who", heard
    assert hear("今日のニケちゃんのハイライト教えて〜✨📸", own_names=OWN).asks == DAY


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(asked=st.sampled_from(("服の好みってどんな系？", "好きな季節は？", "休みの日って何してんの？")),
       first=st.sampled_from(("きれいめ", "春", "インドア")), second=st.sampled_from(("カジュアル", "秋", "アウトドア")),
       tail=st.sampled_from(("", "古着とかもアリ？", "どっちもアリ？")))
def test_fuzz_options_listed_after_a_question_are_its_options(asked: str, first: str, second: str, tail: str) -> None:
    line = f"{asked}{first}？{second}？{tail}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.question is not None and heard.question.kind == "choice", (line, heard)
    assert heard.question.options[:2] == (first, second), (line, heard)


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(kind=st.sampled_from((("どうぶつ", "animal"), ("動物", "animal"), ("花", "flower"), ("季節", "season"), ("色", "colour"))),
       ask=st.sampled_from(("だったらなにになりたい？", "だったら何になりたい？", "やったら何になりたいん？", "で言うと何？")))
def test_fuzz_which_of_a_kind_it_would_be_is_its_pick_of_the_kind(kind: tuple[str, str], ask: str) -> None:
    """'どうぶつだったらなにになりたい？' asks which animal, never its dream for the future."""
    line = "ニケちゃんってさ、" + kind[0] + ask
    heard = hear(line, own_names=OWN)
    assert heard is not None and kind[1] in (heard.favourite, heard.self_topic), (line, heard)


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(news=st.sampled_from(("ランキングで3位入ったんだけど", "宝くじ当たったんだけど", "テスト満点だったんだけど")),
       pointed=st.sampled_from(("これマジで夢じゃない？", "これって夢じゃない？", "それ、夢みたいじゃない？")))
def test_fuzz_a_thing_pointed_at_is_what_the_question_asks_of(news: str, pointed: str) -> None:
    """'…3位入ったんだけど、これマジで夢じゃない？' shares good news; its 夢 is no question of the agent's dream."""
    line = f"いや聞いてよ、{news}、{pointed}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.self_topic != "dream" and not heard.troubled, (line, heard)


@pytest.mark.parametrize("line, options", [
    ("映画館で見るのと家で見るの、どっちがいい？", {"映画館で見るの", "家で見るの"}),  # each clause said whole
    ("先に行くのと後で行くの、どっちがいい？", {"先に行くの", "後で行くの"}),
    ("電車で行くか歩いて行くか、どっちにする？", {"電車で行く", "歩いて行く"}),
    ("コーヒーと紅茶、どちらになさいますか？", {"コーヒー", "紅茶"}),
])
def test_options_that_are_doings_are_still_options(line: str, options: set[str]) -> None:
    """An option may be a doing ('歩いて行く', '家で見るの'); only one that goes on past itself is none."""
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.question is not None and set(heard.question.options) == options, (line, heard)
