"""Whether it is free, trouble told plainly, a hope that trails off, a what asked as a yes/no (set-8 and set-9's
readers' classes, each fuzzed whole).

- '今日の夕方って空いとう？', '本日夕刻、少々お時間を頂戴することは可能でしょうか' were met with a bare 'うん！' while
  a promise to meet someone at 17:00 stood: whether it is free is its plans for the time named, and a promise
  then is said (concepts.json `asks_free`); with none, it is free (`answers.free`).
- 'うちの猫な、腎臓悪いって言われてん' (bad news by a predicate, no feeling named) was met with 'へえ、そうなんだね';
  a sentence only a broad noun of the dictionaries calls bad ('救急車とまってた') is no bad news.
- '娘の熱、早く下がればいいんだけどね' was met with relief: a condition tells nothing that happened, and a hope
  that trails off in けど is a worry.
- 'なんて締めたらいいべ？', 'どう始めます？' were met with 'うん！': a question word asks a what, which a bare yes
  never answers; '座ってもよろしいでしょうか' asks leave, granted.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.understanding import PLANS
from karakuri_agent.ja.sentences import is_asking
from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.lexicon import cheer_words
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.situation import Plan
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
OWN = ("AIニケちゃん", "ニケ")
HERE = "6-11 (喫茶店 店内)"
TODAY_AT_MARKET = Plan("市場 通路", "17:00", days=0, weekday=4)
TOMORROW_AT_SHRINE = Plan("神社 境内", "10:00", days=1, weekday=5)
BARE_YES = ("うん！", "うんうん！")


def _reply(line: str, plans: tuple[Plan, ...] = (), seed: str = "s") -> str:
    return compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed,
                   memory=Memory(here=HERE, plans=plans), place_name=HERE)


def _body(reply: str) -> str:
    return reply.split("、", 1)[1] if reply.startswith("ユウさん、") else reply


CALLS = ("", "ニケちゃん、", "ねえ、", "あの、")
TODAY_FRAMES = ("", "今日の夕方って", "このあと", "今日", "夕方", "本日夕刻、")
FREE_WORDS = ("空いてる？", "空いとう？", "空いとる？", "あいてる？", "ひま？", "ヒマなん？", "暇？", "時間ある？",
              "お時間ありますか？", "ご都合いかがですか？", "空いてますか。")


@settings(max_examples=120, deadline=None)
@given(call=st.sampled_from(CALLS), frame=st.sampled_from(TODAY_FRAMES), free=st.sampled_from(FREE_WORDS),
       seed=st.text(min_size=1, max_size=4))
@pytest.mark.fuzz
def test_fuzz_whether_it_is_free_today_is_its_promise_then(call: str, frame: str, free: str, seed: str) -> None:
    line = call + frame + free
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.asks == PLANS, (line, heard)
    promised = _reply(line, (TODAY_AT_MARKET,), seed)
    assert "17時" in promised and "市場" in promised, (line, promised)  # never 'うん、空いてるよ' then
    free_now = _reply(line, (), seed)
    assert any(free_now.endswith(a) for a in NIKE.answers["free"]), (line, free_now)


@settings(max_examples=60, deadline=None)
@given(free=st.sampled_from(("明日ヒマ？", "あした あいてる？", "明日って空いとう？", "明日、お時間ありますか？")),
       seed=st.text(min_size=1, max_size=4))
@pytest.mark.fuzz
def test_fuzz_whether_it_is_free_tomorrow_is_tomorrows_promise(free: str, seed: str) -> None:
    reply = _reply(free, (TODAY_AT_MARKET, TOMORROW_AT_SHRINE), seed)
    assert "神社" in reply and "市場" not in reply, (free, reply)


@pytest.mark.parametrize("line", ["暇なとき何してるの？", "ひまな日は何してる？", "昨日ひまだった？", "いつ空いてる？",
                                  "としょかん って げつようび も あいてる？", "パン屋って今日空いてる？", "この席空いてる？",
                                  "神社って夜何時まで入れるの？"])  # a place's hours are the town's, no plan of its own
def test_a_habit_a_past_a_when_or_a_thing_is_no_question_of_being_free_now(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.asks != PLANS, (line, heard)
    reply = _reply(line, (TODAY_AT_MARKET,))
    assert not any(reply.endswith(a) for a in NIKE.answers["free"]), (line, reply)


PLAIN_TROUBLE = ("うちの猫な、腎臓悪いって言われてん。", "原付でこけて、腕の骨折れとったっちゃん。",
                 "大雪で納屋の屋根っこ、潰れっちまった。", "長年通っとった床屋が、とうとう店じまいしてのう。",
                 "第一志望、落ちたわ。", "財布落とした。")
AFTER = ("", "もう歳やからしゃあないねんけど", "ギプス三週間ばい", "まあ、そういうこともあるよね")
LIGHT = ("へえ", "なるほど", "うんうん、そうなんだ", "教えてくれてありがとう")


@settings(max_examples=100, deadline=None)
@given(told=st.sampled_from(PLAIN_TROUBLE), after=st.sampled_from(AFTER), seed=st.text(min_size=1, max_size=4))
@pytest.mark.fuzz
def test_fuzz_trouble_told_plainly_is_met_with_care_never_a_light_ack(told: str, after: str, seed: str) -> None:
    line = told + after
    reply = _reply(line, seed=seed)
    assert not any(word in reply for word in (*LIGHT, *cheer_words())), (line, reply)


@pytest.mark.parametrize("line", ["そういえば昨日の夜、神社のほうに救急車とまってたよ", "今朝は味噌汁を赤味噌にしてみたんじゃ。",
                                  "ニケちゃん、ぼくほんとはね、きょうりゅうなんだよ。がおー！"])
def test_a_broad_noun_alone_makes_no_bad_news(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and "bad_news" not in heard.acts, (line, heard.acts)


HOPES = ("娘の熱、早く下がればいいんだけどね", "明日の試合、勝てるといいんだけど", "無事に着いたらええんやけど",
         "息子がな、電話出えへんねん。忙しいだけやったらええんやけど", "晴れるといいけど…", "手術、うまくいけばいいんですけど")


@pytest.mark.parametrize("line", HOPES)
def test_a_hope_that_trails_off_is_a_worry_never_relief_nor_cheer(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and "worried" in heard.emotions, (line, heard)
    reply = _reply(line)
    assert not any(w in reply for w in ("よかった", "ほっと", "へえ", *cheer_words())), (line, reply)


@pytest.mark.parametrize("line", ["もしお困りでしたら、いつでも声かけてくださいね。", "風邪なら休んでね", "負けたら、また練習すればいいよ"])
def test_a_condition_tells_nothing_that_happened(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and "bad_news" not in heard.acts and not heard.troubled, (line, heard)


WHAT_AS_YES_NO = ("最後、なんて締めたらいいべ？", "ニケさんなら、最初の一言、どう始めます？", "ラーメンは何味が好いとう？",
                  "ほんで名前どないしよ思てんねんけど、なんかええのない？", "ニケちゃんだったら、ああいう人とどう付き合う？")


@pytest.mark.parametrize("line", WHAT_AS_YES_NO)
@pytest.mark.parametrize("seed", ["1", "2", "3"])
def test_a_what_is_never_answered_with_a_bare_yes(line: str, seed: str) -> None:
    reply = _body(_reply(line, seed=seed))
    assert reply not in BARE_YES and not reply.startswith(("うん！", "うん、")), (line, reply)


@pytest.mark.parametrize("line", ["お隣、座ってもよろしいでしょうか。", "こちらのパンフレット、一部頂戴してもよろしいですか。",
                                  "さっき三時って言うたけど、四時でもええ？", "ここ、使ってもいい？"])
def test_leave_asked_is_granted(line: str) -> None:
    granted = (*NIKE.answers["grant"], *NIKE.answers["allow"])  # 'ここ、使ってもいい？' is read as leave asked too
    assert any(_body(_reply(line)).startswith(g) for g in granted), line


@pytest.mark.parametrize("sentence", ["結果が出るまでどうにも落ち着きません。", "どうにもなりません。", "どうせ間に合いません。"])
def test_a_polite_negative_with_no_question_word_asks_nothing(sentence: str) -> None:
    assert not is_asking(sentence)


@settings(max_examples=60, deadline=None)
@given(why=st.sampled_from(("ごめん でんしゃ くるから ", "ごめんそろそろばいと", "あ、", "じゃあ ")),
       leave=st.sampled_from(("いくね！", "いかなきゃ、またはなそ", "かえるね", "かえらなきゃ！")),
       seed=st.text(min_size=1, max_size=4))
@pytest.mark.fuzz
def test_fuzz_leaving_written_in_kana_is_a_farewell_not_an_apology(why: str, leave: str, seed: str) -> None:
    line = why + leave
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "farewell", (line, heard)


@pytest.mark.parametrize("line", ["あけまして おめでとう にけちゃん", "あけおめ！ことよろ〜",
                                  "明けましておめでとうございます。本年もよろしくお願いいたします。"])
def test_a_new_year_is_greeted_in_kind(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "greeting", (line, heard)
    assert any(_reply(line).startswith(g.split("{")[0]) or g.split("}")[-1] in _reply(line)
               for g in NIKE.greetings["new_year"]), line


def test_a_correction_ending_in_warui_ne_is_an_apology() -> None:
    heard = hear("さっき郵便局は三時までって言ったけんど、五時までだった。わりいね", own_names=OWN)
    assert heard is not None and heard.kind == "apology", heard


TODAY = ("3-4 (図書館 閲覧室)", "5-2 (公園 芝生広場)", "7-8 (喫茶店 店内)", "9-1 (パン屋 店内)")
DAY = Memory(here=TODAY[0], today_places=TODAY, known_places=("2-2 (神社 境内)",), met_today=("黒瀬ハナコ", "タロウ"))


def _day_reply(line: str, seed: str) -> str:
    return compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed, memory=DAY)


@settings(max_examples=80, deadline=None)
@given(when=st.sampled_from(("今日、", "今日は", "きょう ", "")), place=st.sampled_from(("喫茶店", "パン屋", "公園")),
       ask=st.sampled_from(("行った？", "行ったん？", "寄った？", "に行きました？")), seed=st.text(min_size=1, max_size=4))
@pytest.mark.fuzz
def test_fuzz_a_place_it_was_at_today_asked_of_is_a_yes_with_the_place(when: str, place: str, ask: str, seed: str) -> None:
    line = when + place + ask
    reply = _body(_day_reply(line, seed))
    assert reply.startswith(NIKE.answers["yes"]) and place in reply, (line, reply)  # never a list without it


@pytest.mark.parametrize("line", ["今日、ハナコさんに会った？", "今日タロウくん見かけた？"])
def test_someone_it_met_today_asked_of_is_a_yes_naming_them(line: str) -> None:
    reply = _body(_day_reply(line, "s"))
    assert reply.startswith(NIKE.answers["yes"]) and ("ハナコ" in reply or "タロウ" in reply), (line, reply)


def test_a_place_it_knows_and_was_not_at_today_is_a_no_with_where_it_was() -> None:
    reply = _body(_day_reply("今日は神社行った？", "s"))
    assert reply.startswith(NIKE.answers["no"]) and "神社" not in reply, reply


@settings(max_examples=60, deadline=None)
@given(before=st.sampled_from(("", "今年もうちの米、少し分けとくがら。んで、", "これ、うちの畑の。", "ねえ、")),
       body=st.sampled_from(("体は大丈夫なんだべ？", "体は大丈夫？", "お身体は大丈夫ですか？", "大丈夫？")),
       seed=st.text(min_size=1, max_size=4))
@pytest.mark.fuzz
def test_fuzz_asked_after_its_health_it_thanks_for_the_concern(before: str, body: str, seed: str) -> None:
    line = before + body
    reply = _reply(line, seed=seed)
    assert any(c.split("{")[0] in reply for c in NIKE.reactions["concern_thanks"]), (line, reply)


@settings(max_examples=60, deadline=None)
@given(whose=st.sampled_from(("うちの子、熱出たけど", "うちの犬、", "母が入院したんだけど、", "うちのじいちゃん、")),
       ask=st.sampled_from(("大丈夫かな？", "大丈夫やろか？", "大丈夫かしら")), seed=st.text(min_size=1, max_size=4))
@pytest.mark.fuzz
def test_fuzz_a_worry_for_ones_own_asked_is_met_with_care_not_a_yes(whose: str, ask: str, seed: str) -> None:
    line = whose + ask
    reply = _body(_reply(line, seed=seed))
    assert not reply.startswith(NIKE.answers["yes"]) and not any(
        c.split("{")[0] in reply for c in NIKE.reactions["concern_thanks"]), (line, reply)


def test_sorry_then_is_it_ok_is_forgiven_not_thanked_for_concern() -> None:
    reply = _reply("ごめん、遅れた。大丈夫？")
    assert not any(c.split("{")[0] in reply for c in NIKE.reactions["concern_thanks"]), reply


@settings(max_examples=80, deadline=None)
@given(when=st.sampled_from(("明日", "来月", "来週", "実は、", "")),
       leaving=st.sampled_from(("引っ越すんだ", "引っ越すことになりました", "東京転勤やねん", "この町を離れることになって",
                                "転校するの")),
       after=st.sampled_from(("", "。最後に一緒に写真撮ってくれる？", "。さみしいけど", "…")), seed=st.text(min_size=1, max_size=4))
@pytest.mark.fuzz
def test_fuzz_the_partner_leaving_town_is_a_parting_never_looked_forward_to(when: str, leaving: str, after: str,
                                                                             seed: str) -> None:
    line = when + leaving + after
    reply = _reply(line, seed=seed)
    assert not any(w in reply for w in ("楽しみ", "へえ", "んだね、いいね")), (line, reply)  # no move looked forward to
    assert any(p.split("…")[0] in reply for p in (*NIKE.reactions["parting"], *NIKE.reactions["lonely"])) \
        or "さみし" in reply, (line, reply)


@settings(max_examples=80, deadline=None)
@given(line=st.sampled_from(("いっこあげる！いちばんおっきいやつ！", "これ おみやげ。 きょうとの やつはし",
                             "明太子いっぱいもらったけん、ニケちゃんにもおすそ分けするね", "これ、たこ焼きちょっと焼きすぎてもうてん。食べる？",
                             "おにぎりあまったけどいる？", "庭の柿がようけなったけん、持っていき")),
       seed=st.text(min_size=1, max_size=4))
@pytest.mark.fuzz
def test_fuzz_a_thing_given_is_taken_as_a_gift_not_as_help(line: str, seed: str) -> None:
    reply = _body(_reply(line, seed=seed))
    assert any(reply.startswith(g) for g in NIKE.reactions["gift_accept"]), (line, reply)


@pytest.mark.parametrize("line", ["お荷物、駅までお運びいたしましょうか。", "ご案内しましょうか？", "荷物持とうか？"])
def test_help_offered_humbly_or_plainly_is_taken_as_help(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "offer", (line, heard)
    assert any(_body(_reply(line)).startswith(g) for g in NIKE.reactions["offer_accept"]), line


@pytest.mark.parametrize("line", ["お茶にしましょうか", "お昼にしましょうか"])
def test_lets_have_tea_offers_no_help(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind != "offer", (line, heard)


@pytest.mark.parametrize("line", ["ニケって、この町でどこが一番好き？", "この町でどこが一番好き？", "この辺でどこがいちばん好き？"])
def test_where_it_likes_best_is_its_favourite_place(line: str) -> None:
    assert NIKE.tastes.favourites["place"] in _reply(line), line


@pytest.mark.parametrize("line", ["今日の夕方って空いとう？", "このあと何する予定？", "今日ひま？"])
def test_a_promise_hours_ahead_is_in_its_plans_not_only_one_due_soon(line: str) -> None:
    """At 13:00 a promise at 18:00 is more than the hours the agent sets off within (View.meetings), and is
    still what it says it will do (View.pending)."""
    from testing.model_talk import NOW, SPEAK, turn

    from karakuri_agent.decide.speaking import speech_params
    from karakuri_agent.domain.identity import PersonRef
    from karakuri_agent.domain.records import Meeting

    promise = Meeting(partner_name="灯野サキ", place_name="銭湯", node_id="4-4",
                      due_at=NOW.replace(hour=9))  # 18:00 in the town
    view = turn(line, pending=[promise], meetings=[])
    said = speech_params(view, SPEAK, "reply", PersonRef("1500000000000000001", "真白リク"))["message"]
    assert "18時" in said and "銭湯" in said, (line, said)


@settings(max_examples=80, deadline=None)
@given(pair=st.sampled_from((("いちご", "チョコバナナ"), ("メロンパン", "カレーパン"), ("ホラー", "ラブコメ"), ("うどん", "そば"))),
       joined=st.sampled_from(("と", "か")), told=st.sampled_from(("で迷って結局両方食べた😂", "で迷ってるんだよね", "、どうしよう")),
       asked=st.sampled_from(("ニケちゃんならどっち頼む〜？", "どっちがいいと思う？", "ニケならどっちにする？")),
       seed=st.text(min_size=1, max_size=4))
@pytest.mark.fuzz
def test_fuzz_a_which_of_the_options_said_the_turn_before_picks_one_of_them(
        pair: tuple[str, str], joined: str, told: str, asked: str, seed: str) -> None:
    talk = ("今日ね〜駅前に行ったの", pair[0] + joined + pair[1] + told)
    reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=asked, seed=seed, memory=Memory(talk=talk))
    assert sum(option in reply for option in pair) == 1, (talk, asked, reply)


def test_someone_one_went_with_is_no_option() -> None:
    reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line="ニケならどっちがいい？", seed="s",
                    memory=Memory(talk=("友達と映画行ったんだ",)))
    assert "友達" not in reply, reply


@pytest.mark.parametrize("line", ["本日はどちらにいらっしゃったんですか？", "ねえねえ、きょうはどこであそんだの？", "今日どこで遊んだの？"])
def test_where_it_went_today_is_its_day_not_a_pick_of_the_talk_nor_a_recommendation(line: str) -> None:
    reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed="s",
                    memory=Memory(talk=("春と秋では、どちらがお好きでしょうか？", "秋かな！"), today_places=TODAY))
    assert "図書館" in reply and "秋" not in reply and "どうかな" not in reply, (line, reply)


@settings(max_examples=60, deadline=None)
@given(thing=st.sampled_from(("その髪飾り", "そのマフラー", "今日の服", "その帽子")),
       said=st.sampled_from(("、すごい似合ってるね", "似合うね！", "、めっちゃ似合っとるやん", "、よくお似合いですね")),
       seed=st.text(min_size=1, max_size=4))
@pytest.mark.fuzz
def test_fuzz_what_suits_the_one_spoken_to_is_a_compliment(thing: str, said: str, seed: str) -> None:
    line = thing + said
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "compliment", (line, heard)


def test_what_suits_someone_of_theirs_is_no_compliment_to_the_agent() -> None:
    heard = hear("うちの母、着物が似合うんよ", own_names=OWN)
    assert heard is not None and heard.kind != "compliment", heard
