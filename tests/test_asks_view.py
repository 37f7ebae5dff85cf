"""A line that asks the agent's view of the partner's own matter: a guess, advice, a suggestion.

After a setup ('昨日パン屋さんで新作買ったの', 'ピンクか、アッシュか…'), partners asked 'なに味だったと思う？
当ててみて', 'これ、どうすりゃいいと思う？', 'どっちが似合うと思う？'; the agent said 'うん！', 'いいね、楽しそう！'
(to being scolded) or 'それは大変だったね…' (to a riddle's 洪水 and 火事). Such lines are read by the words
of concepts.json `asks_view` and answered from the pack's answers.guess / advice / suggest, or with one of
the options the talk named.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.lexicon import cheer_words
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
HERE = "6-11 (喫茶店 店内)"


def _reply(line: str, talk: tuple[str, ...] = (), seed: str = "a") -> str:
    return compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed,
                   memory=Memory(here=HERE, talk=talk), place_name=HERE)


def _from(reply: str, kind: str) -> bool:
    return any(reply.endswith(line.replace("{partner}", "ユウさん")) for line in NIKE.answers[kind])


@pytest.mark.parametrize("line, kind", [
    ("何味だったと思う？当ててみて😆", "guess"),
    ("あれ、なんだったと思う？", "guess"),
    ("なぞなぞ！火事も洪水も起きる箱、なーんだ？", "guess"),  # a riddle's flood and fire are no bad news
    ("なぞなぞ！赤くて まるくて あまい もの なーんだ？", "guess"),  # one play.json does not know
    ("これ、どうすりゃいいと思う？", "advice"),
    ("買うべきか否か、ニケさんのご意見を伺えますか。", "advice"),
    ("何かいい方法ないですかね", "advice"),
    ("何色がええやろな", "suggest"),
    ("何作ってあげたら喜ぶかねえ", "suggest"),
    ("もし明日、空が落ちてきたらどうする？", "hypothetical"),  # no plan for tomorrow
    ("明日って雨降るのかな？傘いる？", "forecast"),
    ("週末晴れるかな", "forecast"),
])
def test_a_view_asked_is_read_and_answered_from_the_pack(line: str, kind: str) -> None:
    heard = hear(line, own_names=("AIニケちゃん", "ニケ"))
    assert heard is not None and heard.question is not None and heard.question.kind == kind, heard
    assert heard.kind == "question" and not heard.troubled
    for seed in ("a", "b", "c"):
        assert _from(_reply(line, seed=seed), kind), _reply(line, seed=seed)


def test_which_after_options_named_in_the_talk_picks_one_of_them() -> None:
    talk = ("ねえねえ、髪の色変えようか迷ってて", "ピンクか、アッシュか…🤔")
    replies = [_reply("どっちが似合うと思う？", talk, seed) for seed in ("a", "b", "c", "d")]
    picks = {tuple(o for o in ("ピンク", "アッシュ") if o in reply) for reply in replies}
    assert len(picks) == 1 and len(next(iter(picks))) == 1, replies  # one of them, the same whatever the notification
    harbour = ("港の絵を描いているんです", "でも、夕方にするか朝にするか迷っていて")
    reply = _reply("ニケさんはどっちがいいと思いますか？", harbour)
    assert ("夕方" in reply) != ("朝" in reply), reply


def test_trouble_told_before_asking_what_to_do_is_met_with_care() -> None:
    heard = hear("金魚が死んじゃった…どうしたらいい？")
    assert heard is not None and heard.troubled
    reply = _reply("金魚が死んじゃった…どうしたらいい？")
    assert not _from(reply, "advice") and not any(w in reply for w in cheer_words()), reply


@pytest.mark.parametrize("line", ["早く寝たほうがいいよ", "どっちもおいしかった！", "明日は雨かな"])
def test_advice_given_or_a_plain_line_asks_no_view(line: str) -> None:
    heard = hear(line)
    assert heard is not None and (heard.question is None or heard.question.kind not in ("guess", "advice", "suggest"))


SETUPS = ("昨日、駅前で財布を拾ったんだよ", "最近ぜんぜん眠れなくて", "孫が来年から小学生なんよ",
          "店の名前を考えてて", "友達の結婚式でスピーチ頼まれたの", "ゆうべ変な夢見たんだ")
ASKS = {"guess": ("何だったと思う？", "当ててみて！", "なーんだ？", "どこだと思う？"),
        "advice": ("どうしたらいいと思う？", "どうすりゃいい？", "何かいい方法ないかな", "行ったほうがいいかな？",
                   "ニケちゃんのご意見は？"),
        "suggest": ("何がいいと思う？", "何色がいいかな", "なんかいい名前ない？", "何作ったら喜ぶかな")}
OPENERS = ("", "ねえ、", "ニケちゃん、", "それでさ、", "で、")


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(sorted(ASKS)), data=st.data())
def test_fuzz_a_view_asked_after_a_setup_gets_a_view_never_cheer_or_a_bare_yes(kind: str, data: st.DataObject) -> None:
    setup = data.draw(st.sampled_from(SETUPS))
    line = data.draw(st.sampled_from(OPENERS)) + data.draw(st.sampled_from(ASKS[kind]))
    heard = hear(line, own_names=("AIニケちゃん", "ニケ"))
    assert heard is not None and heard.question is not None and heard.question.kind == kind, (line, heard)
    reply = _reply(line, (setup,), seed=data.draw(st.sampled_from("abcdef")))
    assert _from(reply, kind), (setup, line, reply)
    assert reply not in ("うん！", "うんうん！") and not any(w in reply for w in cheer_words()), reply


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(asked=st.sampled_from([("何", "作って", "suggest"), ("なに", "着ていっ", "suggest"), ("何", "買っ", "suggest"),
                              ("どう", "謝っ", "advice"), ("どない", "言う", "advice"), ("どげん", "し", "advice"),
                              ("誰に", "相談し", "advice"), ("何て", "言え", "advice")]),
       good=st.sampled_from(["たらいい", "たらええ", "たらよか"]),
       end=st.sampled_from(["んやろ", "べな", "と？", "かな", "んだろう", "の？", "やろか", "んでしょうか"]))
def test_fuzz_what_to_do_asked_by_its_form_is_a_view_asked(asked: tuple[str, str, str], good: str, end: str) -> None:
    """Set-7: '何作ってやったらいいべな', 'どない言うたらええんやろ' got 'へえ、そうなんだね': a word that asks, a
    conditional and good ask what to do, in any dialect's words (concepts.json `asks_view_forms`)."""
    word, verb, kind = asked
    conditional = "ば" + good[2:] if verb.endswith("え") else good  # '言えばいい'
    line = word + verb + conditional + end
    heard = hear(line)
    assert heard is not None and heard.question is not None and heard.question.kind == kind, (line, heard)


@pytest.mark.parametrize("line", ["明日晴れたらいいな", "もっと時間があったらよかったのに", "合格したらええな"])
def test_a_wish_asks_no_view(line: str) -> None:
    heard = hear(line)
    assert heard is None or heard.question is None or heard.question.kind not in ("advice", "suggest"), heard
