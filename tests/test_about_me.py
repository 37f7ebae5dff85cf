"""Questions about itself answered from the pack's `about_me`, the topic read from concepts.json data.

Everyday questions a person answers about themself got a backchannel ('お酒は飲まれますか？' → 'うんうん！',
'虫って平気なタイプ？' → 'うん！なるほど、おもしろいね！') or a world's "I don't know" ('あんたはどこの生まれかね'
→ 'ごめんね、それはよく知らないんだ'). The topics are `self_topics` in concepts.json and the answers the bundled
pack's `about_me`; a remark after the question ('…ある？おしえてほしいいい', '…あるのかい。なんでもできそう
に見えるけどねえ') leaves it the question.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.understanding import SELF
from karakuri_agent.ja.sentences import split_sentences
from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.phrase import says_not
from karakuri_agent.shipped import shipped
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
HERE = "6-11 (喫茶店 店内)"
OWN = ("AIニケちゃん", "ニケ")
LEXICON = json.loads(shipped("ja", "lexicon", "concepts.json").read_text(encoding="utf-8"))
TOPICS = {*LEXICON["self_topics"], *LEXICON["self_topic_lemmas"]["topics"]}


def _reply(line: str, seed: str = "a") -> str:
    return compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed,
                   memory=Memory(here=HERE), place_name=HERE)


def _from_about_me(reply: str, topic: str) -> bool:
    return any(reply.endswith(line) for line in NIKE.about_me[topic])


@pytest.mark.parametrize("line, topic", [
    ("季節はいつが一番好いとう？", "season"),
    ("あんたはどこの生まれかね", "town"),
    ("夜って何時ごろ寝てる？", "bedtime"),
    ("ニケちゃん、おおきくなったら なにになるの？", "dream"),
    ("あんた、きょうだいはおるんか？", "family"),
    ("ニケさん、お酒は飲まれますか？", "alcohol"),
    ("ニケちゃん、虫って平気なタイプ？", "bugs"),
    ("ニケちゃんって占い信じる？🔮", "fortune"),
    ("あんた、苦手なもんはあるのかい。なんでもできそうに見えるけどねえ", "bad_at"),
    ("ニケちゃん最近ハマってることある？おしえてほしいいい", "lately"),
    ("夜ってちゃんと眠れてます？", "sleep"),
    ("ところで、ニケさんはお加減いかがですか。", "how_are_you"),
    ("ニケちゃんおひさ〜！げんきしとった？", "how_are_you"),
])
def test_a_question_about_itself_is_answered_from_its_pack(line: str, topic: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.asks == SELF and heard.self_topic == topic, heard
    for seed in "abc":
        assert _from_about_me(_reply(line, seed), topic), _reply(line, seed)


def test_every_topic_the_bundled_pack_answers_is_a_topic_of_the_lexicon() -> None:
    assert set(NIKE.about_me) <= TOPICS - {"about"}


@pytest.mark.parametrize("line", ["お酒飲みに行かない？", "この町の名前の由来って知ってる？", "娘が恋人を連れてきたの",
                                  "おばけやしき こわくない"])
def test_a_topics_word_in_an_invitation_a_world_question_or_news_asks_nothing_of_it(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.asks != SELF, heard


CALLS = ("", "ニケちゃん、", "ニケさんって", "ねえねえ、", "あんた、")
ENDS = ("？", "?", "？笑", "？！", "？✨")
# Topics whose words ask by themselves in a plain frame (a word and a question mark after it).
ASKED = {"bedtime": ("何時ごろ寝てる", "何時に寝るの"), "catchphrase": ("口ぐせってある", "口癖ってなに"),
         "alcohol": ("お酒は飲むの", "お酒って飲める"), "ghost": ("おばけって見たことある", "幽霊とか信じる"),
         "karaoke": ("カラオケってよく行く", "カラオケは好き"), "snack": ("好きなおやつってなに", "好きなお菓子は"),
         "season": ("好きな季節はいつ", "どの季節が好き"), "first_memory": ("一番古い記憶ってなに", "いちばん古い記憶は")}


@pytest.mark.fuzz
@settings(max_examples=120, deadline=None)
@given(topic=st.sampled_from(sorted(ASKED)), data=st.data())
def test_fuzz_a_topics_question_in_any_call_and_ending_gets_the_packs_answer(topic: str, data: st.DataObject) -> None:
    line = data.draw(st.sampled_from(CALLS)) + data.draw(st.sampled_from(ASKED[topic])) + data.draw(st.sampled_from(ENDS))
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.self_topic == topic, (line, heard)
    reply = _reply(line, data.draw(st.sampled_from("abcdef")))
    assert _from_about_me(reply, topic), (line, reply)


@pytest.mark.parametrize("line, thing", [("ニケちゃん ピーマン すき？", "ピーマン"), ("あんた、あんこは好きかね", "あんこ"),
                                         ("にけちゃん ぴーまん すき？", "ぴーまん")])
def test_a_like_question_is_answered_naming_the_thing_asked_of(line: str, thing: str) -> None:
    reply = _reply(line)
    assert f"{thing}好き" in reply and "それ好き" not in reply, reply


def test_the_end_of_a_longer_phrase_is_not_said_back_as_the_thing() -> None:
    assert "空気好き" not in _reply("冬の朝のキーンと冷えた空気、好き？")


TODAY = Memory(here=HERE, today_places=("本屋 店内", "公園 広場"), met_today=("桜草メイ",))


@pytest.mark.parametrize("line", ["今日いちばんおもろかったこと何？", "今日はお忙しかったですか？", "今日なんか変わったことあった？",
                                  "今日一番楽しかったことって何？"])
def test_a_question_about_its_day_so_far_is_answered_from_where_it_went(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.asks == "day", heard
    reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed="a", memory=TODAY, place_name=HERE)
    assert "本屋" in reply or "公園" in reply, reply


def test_whom_it_talked_with_today_politely_asked() -> None:
    reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line="今日はもう誰かとお話ししましたか？", seed="a",
                    memory=TODAY, place_name=HERE)
    assert "メイ" in reply, reply


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([("特技", "good_at"), ("誕生日", "birthday")]), st.sampled_from(["ニケちゃんの", "ねえ、", ""]),
       st.sampled_from(["みせて〜", "おしえて", "知りたいな"]), st.sampled_from(["🤹‍♀️ ", "。", "！", "〜✨ "]),
       st.sampled_from(["なんかある？", "ある？", "いつ？", "なに？"]))
def test_a_short_question_after_what_it_is_about_asks_of_that(topic, opener, ask_for, stop, question):
    """'ニケちゃんの特技みせて〜🤹‍♀️ なんかある？': the question names nothing itself; the sentence before
    it names the topic, whatever ends that sentence (an emoji and a space, 。, ！)."""
    word, key = topic
    line = f"{opener}{word}{ask_for}{stop}{question}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.asks == SELF and heard.self_topic == key, (line, heard)


# A thing named by its lemma, in any register (set-7, read by a reader: 'ニケは酒とか飲めるとや？' met with
# 'それは大変だったね…', 'ニケって　ねこ　さわれる？' with care, '歌うのとくい？' with what it is good at).
NAMED = {"alcohol": ("酒とか飲める", "ビールとか飲める", "お酒は飲める"), "animal": ("ねこ さわれる", "猫だいじょうぶ"),
         "karaoke": ("歌うのとくい", "うたうの好き"), "love": ("彼氏とかいる", "恋人おるん"),
         "swim": ("泳げるん", "およげる"), "drive": ("運転できる", "免許もってる"), "movie": ("映画はよく観る", "映画とかよく見る"),
         "ghost": ("おばけ こわい", "幽霊平気")}
TAILS = ("", "とや", "の", "ん", "かね", "っけ")
SPACED = ("", "　")


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(topic=st.sampled_from(sorted(NAMED)), data=st.data())
def test_fuzz_a_thing_named_in_a_question_to_it_is_asked_of_in_any_register(topic: str, data: st.DataObject) -> None:
    asked = data.draw(st.sampled_from(NAMED[topic])).replace(" ", data.draw(st.sampled_from(SPACED)) or " ")
    line = data.draw(st.sampled_from(CALLS)) + asked + data.draw(st.sampled_from(TAILS)) + data.draw(st.sampled_from(ENDS))
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.asks == SELF and heard.self_topic == topic, (line, heard)
    assert _from_about_me(_reply(line, data.draw(st.sampled_from("abc"))), topic), line


@pytest.mark.parametrize("line", ["ね、きのうの ねこ、まだ こうえんに いた？", "さっきのおにぎり屋さん、なんて名前だっけ",
                                  "明日の映画、何時からだっけ？", "うちの猫見た？", "ニケちゃん、みおのおたんじょうびかい、きてくれる？"])
def test_one_thing_or_when_asked_of_names_no_topic_of_its_own(line: str) -> None:
    """A cat seen yesterday, a shop's name, a film's time, someone's birthday party: no question of its tastes."""
    heard = hear(line, own_names=OWN)
    assert heard is None or heard.self_topic == "", heard


@pytest.mark.parametrize("line, topic", [("ニケってさ　にがてな　たべもの　ある？", "dislike_food"),
                                         ("すきな　きせつ　なあに？", "season"),
                                         ("ニケちゃん、なに食うのが一番好ぎだ？", "")])
def test_a_topic_written_in_kana_is_the_topic_its_kanji_names(line: str, topic: str) -> None:
    """'にがてな　たべもの' is '苦手な食べ物': the topics' words are found in the line spelled by its lemmas."""
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.self_topic == topic, heard
    if not topic:  # what it likes to eat: its favourite food, not what it ate today
        assert heard.asks != "meal" and "鮭" in _reply(line), _reply(line)


@pytest.mark.parametrize("line, topic", [("料理ってする？🍳", "cooking"), ("ニケちゃん、料理はするの？", "cooking"),
                                         ("ニケって泳げるん？", "swim"), ("ニケは酒とか飲めるとや？", "alcohol")])
@pytest.mark.parametrize("seed", ["a", "b", "c"])
def test_a_yes_no_about_itself_says_where_it_stands_first(line: str, topic: str, seed: str) -> None:
    """'料理ってする？' got 'おにぎりくらいなら作るよ！…' with no yes (the CI's yes/no floor): a yes/no about itself
    opens with the pack's yes or no (its shortest), a no where its answer ends on a negation."""
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "question" and heard.self_topic == topic, heard
    reply = _reply(line, seed)
    answer = next(a for a in NIKE.about_me[topic] if reply.endswith(a))
    stance = re.split("[、！。]", reply[:-len(answer)].rstrip("、"))[-1]  # after a greeting or the partner's name
    wanted = "no" if says_not(split_sentences(answer)[0]) else "yes"
    assert stance == min(NIKE.answers[wanted], key=len).rstrip("。！…"), reply


@pytest.mark.parametrize("line, topic", [("ニケちゃんって、おばけ　こわい？", "ghost"), ("お変わりありませんか", "how_are_you"),
                                         ("ニケちゃんは、ひとりで暮らしてんのが？", "family"),
                                         ("こんにちは。お変わりございませんか", "how_are_you")])
def test_a_yes_no_its_answer_speaks_past_is_answered_as_written(line: str, topic: str) -> None:
    """'おばけこわい？' answered 'おばけは見たことないよ！でも…ちょっとこわいな' would be 'ううん、' and then afraid,
    'ひとりで暮らしてんの？' 'うん、お母さんとふたりで…': a stance only where the answer speaks of every word asked
    and its first sentence of what was asked; 'お変わりありませんか' asks, never invites."""
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "question" and heard.self_topic == topic, heard
    reply = _reply(line)
    assert any(reply.endswith(a) and not re.search("(うん|ううん)、" + re.escape(a), reply) for a in NIKE.about_me[topic]), reply


@pytest.mark.parametrize("text, negative", [("おにぎりくらいなら作るよ！", False), ("料理はあんまりしないんだ", True),
                                            ("作ってみたことないなあ", True), ("得意じゃないかな", True),
                                            ("泳げないんです。", True), ("好きじゃないけど、作るよ", False),
                                            ("行きませんでした", True), ("時間がある日は走ってるよ", False),
                                            ("スポーツは見るのもするのもあんまり…。", True)])
def test_an_answer_says_not_when_it_ends_on_a_negation(text: str, negative: bool) -> None:
    assert says_not(text) is negative


@pytest.mark.parametrize("line, kind", [("何か困ってることありませんか", "question"), ("一緒にお茶しませんか", "invitation"),
                                        ("今度、映画でも見に行きませんか？", "invitation"),
                                        ("お怪我はございませんか", "concern")])
def test_whether_there_is_asked_politely_is_no_invitation(line: str, kind: str) -> None:
    """'お変わりありませんか' was read as an invitation ('いいね、楽しそう！'): ある is no thing one is asked along to."""
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == kind, heard


@pytest.mark.fuzz
@settings(max_examples=80, deadline=None)
@given(when=st.sampled_from(["連休は", "お正月、", "年末は", "夏休みは", "今度の週末、"]),
       where=st.sampled_from(["実家に", "実家", "地元に", "実家へ"]),
       go=st.sampled_from(["帰るの？", "帰る？", "帰ったりするの？", "戻るの？", "帰省する？"]))
def test_fuzz_going_home_asked_is_a_plan_not_where_it_lives(when: str, where: str, go: str) -> None:
    """Set-8: a yes/no about going home for a holiday got 'この町の、本屋さんの近くに住んでるよ' (実家 named the
    home topic). A place one goes to is a plan asked: answered from its plans."""
    line = when + where + go
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.self_topic != "home" and heard.asks == "plans", (line, heard)


@pytest.mark.parametrize("line, topic", [("誰かに怒られたらどうする？", ""), ("怒られるとへこむタイプ？", ""),
                                         ("先生に叱られたらどうしてる？", "recharge"), ("疲れたらどうしてる？", "recharge"),
                                         ("ニケちゃんって怒ることある？", "anger")])
def test_a_thing_done_to_it_is_no_question_of_what_it_does(line: str, topic: str) -> None:
    """Set-8: 'how do you take being scolded' got what angers it (怒る). Scolded is done to it: how it copes."""
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.self_topic == topic, heard
    if not topic:
        assert not _from_about_me(_reply(line), "anger"), _reply(line)


# Everyday things a person knows of themself, as people ask them (the bundled pack answers each).
EVERYDAY = {"blood_type": ("血液型なに", "血液型って何型"), "handedness": ("利き手どっち", "左利きなの"),
            "abroad": ("海外とか行ったことある", "海外旅行したことある"), "diary": ("日記つけてる", "日記とか書く"),
            "motion_sickness": ("乗り物酔いするほう", "車酔いする"), "heights": ("高いところ平気", "ジェットコースター乗れる"),
            "favourite_word": ("一番好きな言葉ってなに", "座右の銘ってある"), "school_subject": ("何の科目が好きだった", "好きな教科は"),
            "sleepless": ("眠れないときってどうしてる", "寝つきが悪い夜はどうする"), "gift": ("何もらったら一番うれしい", "今欲しいものある"),
            "self_word": ("自分のこと一言で言うと", "長所ってなに")}


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(topic=st.sampled_from(sorted(EVERYDAY)), data=st.data())
def test_fuzz_an_everyday_fact_of_itself_is_answered_from_the_pack(topic: str, data: st.DataObject) -> None:
    """Fresh dev lines (written by a helper who never read the code): blood type, handedness, a diary, motion
    sickness got 'うーん、あんまり考えたことなかったな' or a made-up 'うん！'; the pack now knows them."""
    line = data.draw(st.sampled_from(CALLS)) + data.draw(st.sampled_from(EVERYDAY[topic])) + data.draw(st.sampled_from(ENDS))
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.self_topic == topic, (line, heard)
    assert _from_about_me(_reply(line, data.draw(st.sampled_from("abc"))), topic), line


TRAITS = ("寝相わるいほう", "几帳面なほう", "猫舌なほう", "汗かきなほう", "スキーできる", "逆立ちできる",
          "一輪車乗れる", "口笛吹ける", "徹夜したことある", "迷うことある", "早口言葉とか言える")


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(trait=st.sampled_from(TRAITS), call=st.sampled_from(CALLS), end=st.sampled_from(ENDS), seed=st.sampled_from("abc"))
def test_fuzz_what_kind_of_one_it_is_unknown_to_the_pack_is_never_a_made_up_yes(trait: str, call: str, end: str,
                                                                                  seed: str) -> None:
    """'乗り物酔いするほうだべか', '日記つけてる？', 'ジェットコースター乗れる？' got 'うん！' or 'うん、乗れるよ！': a
    trait, an ability or a thing done now and then that no fact of its own says is not made up; said as one
    who never thought about it (answers.not_sure) where the pack has no answer."""
    line = call + trait + end
    reply = _reply(line, seed)
    assert not reply.startswith(("うん！", "うん、", "うんうん")) and reply.split("、")[-1] in NIKE.answers["not_sure"] \
        or any(reply.endswith(a) for a in NIKE.answers["not_sure"]), (line, reply)


@pytest.mark.parametrize("line", ["あしたも あそべる？", "で、それってどうだった？楽しめた？", "さっき駅の方にいなかった？",
                                  "もう一度教えてもらえますか？", "明朝の清掃活動には、ご参加いただけますでしょうか。",
                                  "15時にパン屋の前で会えますか？", "今から来れる？"])
def test_free_then_a_time_that_was_or_a_favour_is_no_question_of_what_kind_of_one_it_is(line: str) -> None:
    """The trait reader's first draft made 'あした あそべる？' (free tomorrow?) and '教えてもらえますか' (a favour)
    'えっと、どうかなあ…': a time ahead, a past and a favour verb ask no trait."""
    from karakuri_agent.reading.question_kinds import asks_a_trait
    assert not asks_a_trait(line)


@pytest.mark.parametrize("line", ["寝つきが悪い夜はどうする？", "眠れない夜は何してるの？", "寒い日ってどうしてる？"])
def test_a_night_of_a_kind_is_no_plan_for_tonight(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.asks != "plans", heard
