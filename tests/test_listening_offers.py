"""Help offered inside a conversation is answered (accepted or declined by the transfer policy, with
thanks, one thought), and the other classes the conversation benchmark found: warmth written in kana,
a goodbye or warmth said with 一緒に/また…しよう is never asked its time, a change asked of something
said before is a retraction, time words in kana are no topic, a day's places come from the journal."""

from __future__ import annotations

from datetime import datetime

import pytest

from karakuri_agent.domain.records import JournalEntry
from karakuri_agent.ja.sentences import split_sentences
from karakuri_agent.reading.help_offers import offers_help
from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.morphemes import nouns
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
SEEDS = ("a", "b", "c", "d")

HELP = [
    "荷物重そうだね、持とうか？", "道わからんかったら案内するで", "何かお手伝いできることはありますか？",
    "宿題でわかんないとこあったら教えるよ", "よろしければ、駅までお送りしましょうか", "それ、直してあげよっか？🔧",
    "お腹すいてない？おにぎり半分こしよ", "Need help? 荷物持つよ", "手伝おうか？", "傘、貸そうか？", "おごったげる",
    "持ったろか", "お手伝いしましょうか？", "写真撮ってあげよっか", "それ重いやろ、持ったるわ", "地図、見せてあげる",
    "迷ってる？案内しますよ", "よかったら手伝うよ！", "運んだるで",
]
NOT_HELP = [
    "一緒に行こうか？", "手伝ったよ", "持たないよ", "手伝ってあげて", "最近ボルダリング始めたんだ", "新しい自転車買った",
    "明日パン作るよ", "映画見るよ", "手伝ってくれる？", "教えてあげたよ", "今日は何を作ろうかな", "一緒にお菓子作ろうか",
    "お母さんに送るよ", "猫を見てあげて", "案内しました", "雨降りそうだったよね", "今度の日曜、娘の運動会なんです",
]


@pytest.mark.parametrize("line", HELP)
def test_help_offered_in_any_shape_is_an_offer(line: str) -> None:
    assert offers_help(line)
    heard = hear(line)
    assert heard is not None and heard.kind == "offer"


@pytest.mark.parametrize("line", NOT_HELP)
def test_a_past_a_request_a_negation_or_something_together_is_no_offer(line: str) -> None:
    assert not offers_help(line)


def _reply(line: str, *, takes: bool = True, seed: str = "a", memory: Memory = Memory()) -> str:
    return compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed, memory=memory,
                   place_name="6-11 (喫茶店 店内)", takes_offers=takes)


@pytest.mark.parametrize("line", HELP[:8])
def test_help_is_taken_or_declined_with_thanks_as_one_thought(line: str) -> None:
    accepted = {t.replace("{partner}", "ユウさん") for t in NIKE.reactions["offer_accept"]}
    declined = {t.replace("{partner}", "ユウさん") for t in NIKE.reactions["offer_decline"]}
    for seed in SEEDS:
        taken, refused = _reply(line, seed=seed), _reply(line, takes=False, seed=seed)
        assert taken.split("、", 1)[-1] in accepted or taken in accepted, taken
        assert refused.split("、", 1)[-1] in declined or refused in declined, refused
        assert "ありがと" in taken and "ありがと" in refused


@pytest.mark.parametrize("line", ["いっしょに いると たのしい", "いっしょだと落ち着くね"])
def test_warmth_written_in_kana_gets_warmth(line: str) -> None:
    heard = hear(line)
    assert heard is not None and heard.kind == "warmth"


def test_a_change_asked_of_what_was_said_before_is_taken_as_a_change() -> None:
    heard = hear("悪いけど、駅で待ち合わせって言ったの、公園にしてくれん？")
    assert heard is not None and heard.kind == "retraction" and heard.topic == "公園"
    said = hear("先日お話しした引っ越しですが、なしになりました")
    assert said is not None and said.kind == "retraction" and said.topic == "引っ越し"


@pytest.mark.parametrize("line, expected", [
    ("こんどピアノのはっぴょうかいがあるの", ["ピアノ", "はっぴょうかい"]),
    ("きょう こうえんに いった", ["こうえん"]),
])
def test_time_words_in_kana_are_no_topic(line: str, expected: list[str]) -> None:
    assert nouns(line) == expected


def test_where_it_was_is_only_where_the_journal_found_it() -> None:
    # "さっきどこにいたの？" with no place in the journal today: no place is made up.
    nowhere = _reply("さっきどこにいたの？", memory=Memory(here="6-11 (喫茶店 店内)"))
    for word in ("図書館", "公園", "本屋", "神社"):
        assert word not in nowhere
    went = _reply("さっきどこにいたの？", memory=Memory(here="6-11 (喫茶店 店内)", recent_places=("本屋 店内",),
                                                     today_places=("本屋 店内",)))
    assert "本屋" in went
    assert len(split_sentences(went)) <= 2


def test_when_it_came_is_told_from_the_journal() -> None:
    from karakuri_agent.memory.journal import _arrivals

    entries = [  # newest first, as journal.today reads them
        JournalEntry(datetime.fromisoformat(at), "n", kind, data) for at, kind, data in (
            ("2027-05-01T01:20:00+00:00", "here", {"label": "港 桟橋"}),
            ("2027-05-01T01:05:00+00:00", "here", {"label": "港 桟橋"}),
            ("2027-05-01T00:50:00+00:00", "line", {"text": "やあ"}),
            ("2027-05-01T00:40:00+00:00", "here", {"label": "駅 改札前"}))
    ]
    arrived = _arrivals(entries)
    assert arrived == (("港 桟橋", "10:05"), ("駅 改札前", "09:40"))
    memory = Memory(here="港 桟橋", today_places=("港 桟橋", "駅 改札前"), arrived=arrived)
    for seed in SEEDS:
        here = _reply("ここにはいつごろ来たの？", seed=seed, memory=memory)
        assert "10時5分" in here and "来た" in here, here
        out = _reply("今日は何時ごろから出歩いてたの？", seed=seed, memory=memory)
        assert "9時40分" in out and "駅" in out, out
    # Nothing in the journal: no time is made up.
    assert "時" not in _reply("ここにはいつごろ来たの？", memory=Memory(here="港 桟橋")).replace("時間", "")


@pytest.mark.parametrize("line, topic", [
    ("ことねくん、自転車で転んで怪我したらしいわ", "怪我"),  # what happened, not the bicycle it happened on
    ("図書館で勉強してた", "勉強"),
    ("最近、朝市で店番しよるんよ", "店番"),
    ("週末、家族で温泉行ってきたで", "温泉"),
    ("ぶっちゃけ、昨日フラれたわ", "フラれた"),  # ぶっちゃけ only sets the tone
])
def test_what_happened_is_the_topic(line: str, topic: str) -> None:
    heard = hear(line, other_names=("ことね",))
    assert heard is not None and heard.topic == topic


def test_of_two_options_of_one_fact_the_fact_s_own_word_is_picked() -> None:
    minato = load_persona("testing/conversation/packs/minato")
    for seed in SEEDS:
        reply = compose("reply", persona=minato, partner_name="灯屋ユウ", last_line="本と漫画ならどっち読む？", seed=seed)
        assert "本" in reply and "漫画" not in reply, reply
