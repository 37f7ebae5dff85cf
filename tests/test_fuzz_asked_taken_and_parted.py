"""Questions, offers, partings and good news misread in set-9's replies (read as development data once set-10 was
sealed), each class fuzzed whole.

- 'モチベってどっから来てんの？' was a yes/no answered 'うん！' ('どっ' + 'から' read as the indefinite 'どっか');
  '腕のええ大工さん知らんかね' got 'うん！' (whether it knows, asked in the negative).
- '遅ぐなってわりぃな、待ったべ？' got 'うん！': sorry, then asked in one sentence, is forgiven first.
- '竿ごと持っていかれた' was thanked for as an offer; 'ごめ、明日のやくそく、むりになった' was said back with a cheer.
- '帰んなきゃ', 'わしはこのへんで。…', 'お気をつけてお帰りくださいませ' were not partings.
- 'この前の雨で屋根が漏ってのう' was agreed with as a remark on the weather both share now.
- '目標スコア超えた！努力報われたわー' was met with '…大丈夫？' (a passive read as adversity), 'ダイエット3キロ減った'
  with a bare あいづち.
- 'ニケさんと話してると、肩の力が抜けるんですよね。' got 'うーん、あんまり考えたことなかったな。'; '髪伸びたんちゃう？
  よう似合うてるわ' a bare 'うん！'.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.lexicon import cheer_words
from karakuri_agent.reading.question_kinds import names_a_question_word
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
OWN = ("AIニケちゃん", "ニケ")
SEEDS = st.text(min_size=1, max_size=4)


def _reply(line: str, seed: str) -> str:
    reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed)
    return reply.split("、", 1)[1] if reply.startswith("ユウさん、") else reply


def _bare_yes(reply: str) -> bool:
    return reply in NIKE.answers["yes"]


def _reply_never_yes(line: str, seed: str) -> str:
    """The reply to ``line``, which must not open with a yes ('うん！' would claim or agree to the wrong thing)."""
    reply = _reply(line, seed)
    assert not reply.startswith("うん"), (line, reply)
    return reply


@settings(max_examples=80, deadline=None)
@given(topic=st.sampled_from(("モチベ", "その元気", "そのアイデア", "この話", "あの猫")),
       where=st.sampled_from(("どっから", "どこから", "どっからそんな", "なにから")),
       verb=st.sampled_from(("来てんの？", "来るの？", "始めたの？", "出てくるん？", "湧いてくるの？")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_a_question_word_before_kara_asks_where_from_never_a_bare_yes(topic: str, where: str, verb: str,
                                                                         seed: str) -> None:
    line = f"ニケちゃんの{topic}って{where}{verb}"
    assert names_a_question_word(line), line
    assert not _bare_yes(_reply(line, seed)), line


@pytest.mark.unit
@pytest.mark.parametrize("line", ["何かある？", "どこか行く？", "誰にも言ってない？", "何でもいい？", "何かしら食べた？",
                                  "なんかあった？"])
def test_an_indefinite_is_no_question_word(line: str) -> None:
    assert not names_a_question_word(line)


@settings(max_examples=80, deadline=None)
@given(late=st.sampled_from(("遅くなって", "遅ぐなって", "待たせて", "遅れて")),
       sorry=st.sampled_from(("ごめん", "ごめんね", "わりぃな", "悪いね", "わるい", "すまん")),
       ask=st.sampled_from(("待った？", "待ったべ？", "待たせた？", "待った？")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_sorry_then_asked_in_one_sentence_is_forgiven(late: str, sorry: str, ask: str, seed: str) -> None:
    line = f"{late}{sorry}、{ask}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.acts[:1] == ("apology",), (line, heard)
    reply = _reply(line, seed)
    assert reply in NIKE.reactions["apology"], (line, reply)


@settings(max_examples=60, deadline=None)
@given(lead=st.sampled_from(("", "この前の雨で屋根が漏ってのう。", "ちょっと聞きたいんだけど、")),
       who=st.sampled_from(("腕のええ大工さん", "いい歯医者", "安い床屋", "この辺の鍵屋さん")),
       ask=st.sampled_from(("知らんかね", "知らない？", "知りませんか？", "知らんか？", "知らないの？")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_whether_it_knows_asked_in_the_negative_is_not_a_yes(lead: str, who: str, ask: str, seed: str) -> None:
    line = f"{lead}あんた、{who}{ask}"
    reply = _reply(line, seed)
    assert "うん！" not in reply and any(w in reply for w in ("知らない", "わからない")), (line, reply)


@settings(max_examples=60, deadline=None)
@given(thing=st.sampled_from(("竿ごと", "財布を", "傘", "お弁当を", "カバンごと")),
       taken=st.sampled_from(("持っていかれた", "持っていかれてさ", "持っていかされた", "持っていかれちゃった")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_a_thing_taken_away_is_no_offer(thing: str, taken: str, seed: str) -> None:
    line = f"で、{thing}{taken}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind != "offer", (line, heard)
    assert _reply(line, seed) not in (*NIKE.reactions["gift_accept"], *NIKE.reactions["offer_accept"]), line


@pytest.mark.unit
def test_take_it_home_asked_in_honorific_is_still_an_offer() -> None:
    heard = hear("閉店間際で余ってしまったパン、よかったら持っていかれますか？", own_names=OWN)
    assert heard is not None and heard.kind == "offer"


@settings(max_examples=60, deadline=None)
@given(sorry=st.sampled_from(("ごめ、", "ごめん、", "ごめんね、")), plan=st.sampled_from(("明日のやくそく", "あしたの約束", "明日の予定")),
       off=st.sampled_from(("むりになった", "ムリになった", "無理になった")),
       why=st.sampled_from(("", "、、シフト変わっちゃって", "。かぜひいた")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_a_plan_called_off_in_kana_is_a_retraction_never_cheered(sorry: str, plan: str, off: str, why: str,
                                                                        seed: str) -> None:
    line = f"{sorry}{plan}、{off}{why}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "retraction", (line, heard)
    reply = _reply(line, seed)
    assert not any(w in reply for w in ("楽しみ", "いいね", "やったね")), (line, reply)


@pytest.mark.unit
@pytest.mark.parametrize("line", ["あ、もうこんな時間。帰んなきゃ", "ほんじゃ、わしはこのへんで。暗うならんうちに帰りなさいよ",
                                  "それでは、お気をつけてお帰りくださいませ。", "俺はこの辺で。またな", "気をつけてお帰りね"])
def test_a_parting_is_a_farewell(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "farewell", (line, heard)


@settings(max_examples=60, deadline=None)
@given(gone=st.sampled_from(("この前", "昨日", "先週", "こないだ", "おととい")), weather=st.sampled_from(("雨", "風", "雪")),
       event=st.sampled_from(("屋根が漏って", "傘が壊れて", "木が倒れて", "窓が割れて")),
       end=st.sampled_from(("のう", "ね", "なあ", "さ")))
@pytest.mark.fuzz
def test_fuzz_weather_of_a_day_gone_is_no_remark_on_the_moment(gone: str, weather: str, event: str, end: str) -> None:
    line = f"{gone}の{weather}で{event}{end}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind != "remark", (line, heard)


@pytest.mark.unit
def test_the_weather_now_is_still_a_remark() -> None:
    heard = hear("今日はいい天気じゃのう", own_names=OWN)
    assert heard is not None and heard.kind == "remark"


@settings(max_examples=80, deadline=None)
@given(news=st.sampled_from(("ダイエット{n}キロ減った", "体重{n}キロ減ったよ", "目標スコア超えた！努力報われたわー",
                              "今月の目標、超えた！", "やっと努力が報われた", "{n}キロ痩せた！")),
       n=st.integers(1, 9), mark=st.sampled_from(("", "〜🎉🎉", "！", "w")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_an_effort_paid_off_is_good_news_never_cared_for(news: str, n: int, mark: str, seed: str) -> None:
    line = news.format(n=n) + mark
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.mood == "good", (line, heard)
    reply = _reply(line, seed)
    assert not any(w in reply for w in ("大丈夫", "大変", "つら", "しんど")), (line, reply)


@pytest.mark.unit
def test_an_effort_not_paid_off_is_still_bad() -> None:
    heard = hear("努力が報われないなあ", own_names=OWN)
    assert heard is not None and heard.mood == "bad"
    assert not any(w in _reply("努力が報われないなあ", "s") for w in cheer_words())


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(("ニケさん", "ニケちゃん")), doing=st.sampled_from(("と話してると", "と一緒にいると", "と話すと")),
       soft=st.sampled_from(("", "なんだか", "なんか")), felt=st.sampled_from(("肩の力が抜ける", "落ち着く", "ほっとする")),
       end=st.sampled_from(("んですよね。", "んだよね。", "んですよ。")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_warmth_said_seeking_agreement_is_warmth(name: str, doing: str, soft: str, felt: str, end: str,
                                                       seed: str) -> None:
    line = f"{name}{doing}、{soft}{felt}{end}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "warmth", (line, heard)
    assert not any(w in _reply(line, seed) for w in NIKE.answers["not_sure"]), line


@settings(max_examples=40, deadline=None)
@given(asked=st.sampled_from(("髪伸びたんちゃう？", "背ぇ伸びたんちゃう？", "髪切ったんちゃう？")),
       praised=st.sampled_from(("よう似合うてるわ", "似合ってるで", "ええやん、似合うとる")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_a_compliment_after_a_kansai_agreement_asked_is_thanked_for(asked: str, praised: str, seed: str) -> None:
    line = f"ニケちゃん、ちょっと{asked}{praised}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "compliment", (line, heard)
    assert not _bare_yes(_reply(line, seed)), line


@settings(max_examples=60, deadline=None)
@given(first=st.sampled_from(("ひとりでいる", "友達と行く", "犬と遊ぶ", "家で寝る")),
       second=st.sampled_from(("みんなといる", "家族と行く", "猫と寝る", "外で遊ぶ")),
       ask=st.sampled_from(("どっちが落ち着く？", "、どっちが好き？", " どっちがいい？")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_clauses_made_nouns_are_the_options_whole(first: str, second: str, ask: str, seed: str) -> None:
    """'ひとりでいるのとみんなといるの' offers two ways to be; 'みんなと' (whom one is with) splits neither."""
    line = f"ニケちゃんって{first}のと{second}の{ask}"
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.question is not None and heard.question.kind == "choice", (line, heard)
    assert heard.question.options == (first + "の", second + "の"), (line, heard.question.options)
    reply = _reply(line, seed)
    assert (first + "の") in reply or (second + "の") in reply, (line, reply)


SELF_ASKED = {
    "early_bird": ("ニケちゃんって早起き得意？", "ニケさんは朝に強いほうですか？", "にけちゃん あさ つよい？"),
    "collection": ("ニケちゃんってなんか集めてるものある？", "何かコレクションしとる？"),
    "motivation": ("ニケちゃんの元気の源ってなに？", "そのモチベってどこから来るん？"),
    "say_no": ("ニケちゃんって頼まれたら断れないほう？", "断るのが苦手だったりする？"),
    "people_person": ("ニケちゃんって陽キャ？", "ぶっちゃけ陰キャ？", "人見知りとかする？"),
    "enjoy_most": ("ニケちゃんって何してるときが一番楽しい？", "いちばん楽しいのって何しとる時？"),
    "future_self": ("ニケちゃんはどんな大人になりたい？", "年とったらどんなおばあちゃんになりたいかね"),
    "what_am_i": ("ニケちゃんってもしかしてbot？", "ニケちゃんって人間なの？"),
    "bicycle": ("ニケちゃん、自転車乗れる？", "じてんしゃ のれる？"),
    "travel": ("ニケちゃんって東京行ったことある？", "ひこうき のったこと ある？"),
    "night_dream": ("寝るとき何の夢見るの？",),
    "best_friend": ("ニケちゃんの親友って誰？",),
    "routine": ("ニケちゃんの一日のルーティン教えて！",),
    "fish": ("好きな魚はなに？",),
}


@settings(max_examples=60, deadline=None)
@given(topic_line=st.sampled_from([(t, line) for t, lines in SELF_ASKED.items() for line in lines]), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_everyday_facts_of_itself_are_answered_from_the_pack(topic_line: tuple[str, str], seed: str) -> None:
    """What a person knows of themself (set-9's q_self: a bare 'うん！' or 'どうかなあ' before), by concepts.json
    `self_topics` and the pack's `about_me`: no code names them."""
    topic, line = topic_line
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.self_topic == topic, (line, heard)
    reply = _reply(line, seed)
    assert any(answer in reply for answer in NIKE.about_me[topic]), (line, reply)


GIVEN_HUMBLY = {"お分けいたしますよ。": "お分けいたした", "お貸ししましょうか？": "お貸しした", "お譲りします。": "お譲りした",
                "お渡ししますね。": "お渡しした", "差し上げます。": "差し上げた"}  # offered now: given before


@settings(max_examples=60, deadline=None)
@given(lead=st.sampled_from(("", "ご入用でしたら、", "よろしければ、", "こちら、")),
       thing=st.sampled_from(("地図の写しを", "傘を", "このお菓子を", "")),
       given_=st.sampled_from(tuple(GIVEN_HUMBLY)),
       seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_a_thing_given_humbly_is_an_offer(lead: str, thing: str, given_: str, seed: str) -> None:
    """'ご入用でしたら、この町の古い地図の写しをお分けいたしますよ。' was plain news; given before, it is not one."""
    line = lead + thing + given_
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "offer", (line, heard)
    assert _reply(line, seed) in (*NIKE.reactions["gift_accept"], *NIKE.reactions["offer_accept"]), line
    before = f"この前{thing}{GIVEN_HUMBLY[given_]}の、覚えてる？"
    assert hear(before, own_names=OWN).kind != "offer", before  # type: ignore[union-attr]


@settings(max_examples=80, deadline=None)
@given(lead=st.sampled_from(("", "来月から一人暮らしなのよ。", "最近、物忘れがひどうてのう。", "あした はじめて ひとりたび なんだけど ")),
       doubt=st.sampled_from(("やっていける", "ちゃんとできる", "間に合う", "うまく話せる", "ボケたん", "起きれる")),
       tail=st.sampled_from(("かしらねえ", "かのう", "かなあ", "か不安", "か ふあん", "かしら")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_wondering_whether_one_manages_is_a_worry_never_a_yes(lead: str, doubt: str, tail: str, seed: str) -> None:
    """'やっていけるかしらねえ', 'ボケたんかのう': the speaker's own worry, met with care, never 'うん！' or a cheer."""
    line = lead + doubt + tail
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "feeling" and heard.mood == "bad", (line, heard)
    reply = _reply(line, seed)
    assert not _bare_yes(reply) and not any(w in reply for w in cheer_words()), (line, reply)


@pytest.mark.unit
@pytest.mark.parametrize("line", ["ニケちゃん、明日来れるかしら？", "あなた、間に合うかしら", "明日晴れるかなあ"])
def test_wondering_of_the_agent_or_the_weather_is_no_worry_told(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind != "feeling", (line, heard)


@settings(max_examples=60, deadline=None)
@given(who=st.sampled_from(("ニケちゃんも、", "おめは手ぶらで", "あんたも", "")),
       come=st.sampled_from(("たべにきていい", "来ればいい", "遊びに来てもいい", "いつでも来たらええ", "来ていい")),
       end=st.sampled_from(("よ！", "がらな", "からね", "", "で〜")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_coming_allowed_is_an_invitation_agreed_to(who: str, come: str, end: str, seed: str) -> None:
    """'ニケちゃんも、たべにきていいよ！', 'おめは手ぶらで来ればいいがらな' were plain news ('へえ、そうなんだね')."""
    line = who + come + end
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "invitation", (line, heard)
    assert "そうなんだ" not in _reply(line, seed), line


@pytest.mark.unit
@pytest.mark.parametrize("line", ["来なくていいよ", "ここに来ていいのは関係者だけ", "明日は来てもいい？",
                                  "ニケちゃんおったら、来てよかったって思うわ"])
def test_coming_not_allowed_or_asked_is_no_invitation(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind != "invitation", (line, heard)


@pytest.mark.unit
@pytest.mark.parametrize("line", ["さっきお貸しするって言った本、まだ読み終わってなくて…来週でもいいですか？",
                                  "あれは、どちらにお届けすればよろしいでしょうか。", "お分けできなくて、ごめんなさい。"])
def test_a_humble_giving_quoted_supposed_or_denied_is_no_offer(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind != "offer", (line, heard)


STORIES = (("昨日、川で釣りしよったら", "でっかい鯉がかかってさ"), ("今日駅前でストリートピアノ弾いてる人いてさ",),
           ("けさ、畑さ行ったっけ、キツネいだのっしゃ", "こっちば、じーっと見でだの"), ("ねえねえ、きょうね、こうえんでね",))


@settings(max_examples=80, deadline=None)
@given(before=st.sampled_from(STORIES), opener=st.sampled_from(("で、", "んで、", "それが", "でね、", "そしたら", "結局")),
       turn=st.sampled_from(("竿ごと持っていかれた", "まさかのうちの担任だった", "キャベツ一個持ってがれだ",
                             "いっこだけ まるくならないのいたの", "隣のおじさんのだった")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_a_story_going_on_is_met_with_surprise(before: tuple[str, ...], opener: str, turn: str, seed: str) -> None:
    """Set-9's context kind: the punchline of a story told over lines got 'へえ、そうなんだね'."""
    line = opener + turn
    reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed, memory=Memory(talk=before))
    assert any(reply.endswith(r) for r in NIKE.reactions["story_twist"]), (before, line, reply)


@pytest.mark.unit
@pytest.mark.parametrize("before, line", [(("駅で財布落としたんだよ",), "で、結局見つからなかった"),
                                          ((), "で、竿ごと持っていかれた"),
                                          (("昨日、川で釣りしよったら",), "で、でっかい鯉が釣れたんよ！最高やった")])
def test_trouble_good_news_or_no_story_is_no_twist(before: tuple[str, ...], line: str) -> None:
    reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed="s", memory=Memory(talk=before))
    assert not any(reply.endswith(r) for r in NIKE.reactions["story_twist"]), (before, line, reply)


@settings(max_examples=60, deadline=None)
@given(frame=st.sampled_from(("この町の", "この町で", "このへんで", "この辺に")),
       thing=st.sampled_from(("有名な言い伝えってある", "夕日きれいに見えるとこある", "夜遅くまで開いてるお店ってありますかね",
                              "安いクリーニング屋ってある", "釣りできるところある")),
       end=st.sampled_from(("？", "?", "？？")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_a_question_framed_by_the_town_is_the_towns(frame: str, thing: str, end: str, seed: str) -> None:
    """'この町で夕日きれいに見えるとこある？' was answered with where the agent grew up ('この町' read as its own
    history), '…とこてあるん？' with a made-up 'うん！あるよ。'; 'ありますかね。' was bad news."""
    line = frame + thing + end
    reply = _reply_never_yes(line, seed)
    assert not _bare_yes(reply) and "生まれ" not in reply, (line, reply)
    assert any(w in reply for w in ("知らない", "わからない", "確かめ")), (line, reply)


@pytest.mark.unit
def test_asked_politely_with_kane_is_asked() -> None:
    assert "知らない" in _reply("このへんで、夜遅くまで開いてるお店ってありますかね。", "s")


@pytest.mark.unit
@pytest.mark.parametrize("line", ["ニケちゃんってこの町長いの？", "ニケちゃんはこの町の生まれ？", "この町好き？",
                                  "ニケちゃん、どっから来たのっしゃ？この町の生まれだべか？"])
def test_its_own_time_in_the_town_is_still_its_own(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.self_topic == "town", (line, heard)


@settings(max_examples=80, deadline=None)
@given(when=st.sampled_from(("明日", "来週から", "今度", "あさって")),
       plan=st.sampled_from(("歯医者なんだ", "出張なんだよね", "会議なんだ", "シフトが夜に変わるんだ", "引っ越しの手伝い行くんよ")),
       seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_a_plan_nobody_looks_forward_to_is_taken_in_never_cheered(when: str, plan: str, seed: str) -> None:
    """'明日歯医者なんだ' got '歯医者なんだ！楽しみだね。': only an outing or a treat (concept `leisure`) is looked
    forward to; any other plan whose feeling is unsaid is taken in."""
    line = f"{when}{plan}"
    reply = _reply(line, seed)
    assert not any(w in reply for w in ("楽しみ", "わくわく", "いいね", "楽しんで")), (line, reply)


@pytest.mark.unit
@pytest.mark.parametrize("line", ["週末、温泉行くんだ！", "今度の日曜、花火大会行くんだ", "来週孫が遊びに来るんだ"])
def test_an_outing_ahead_is_looked_forward_to(line: str) -> None:
    reply = _reply(line, "s")
    assert any(w in reply for w in ("楽しみ", "わくわく", "いいね")), (line, reply)


@settings(max_examples=60, deadline=None)
@given(when=st.sampled_from(("今日は一日、", "午前中はずっと", "さっきまで", "")),
       work=st.sampled_from(("部屋の模様替えをしてました", "掃除してたよ", "カフェで作業してた", "庭の草むしりしてた", "洗濯したよ")),
       tail=st.sampled_from(("", "。", "〜", "。疲れたけど")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_work_done_is_thanked_for(when: str, work: str, tail: str, seed: str) -> None:
    """Set-9's news_neutral: '今日は一日、部屋の模様替えをしてました。' got a bare 'うんうん、そうなんだ。'."""
    line = when + work + tail
    reply = _reply(line, seed)
    assert "おつかれ" in reply or "疲れ" in line and not any(w in reply for w in cheer_words()), (line, reply)


@settings(max_examples=60, deadline=None)
@given(thing=st.sampled_from(("この髪色、", "どう？", "この服、", "新しい眼鏡、", "")),
       odd=st.sampled_from(("変じゃない？", "おかしくないかな？", "へんかな？", "変ちゃう？")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_asked_if_a_thing_looks_odd_is_reassured_never_agreed(thing: str, odd: str, seed: str) -> None:
    """'この髪色、変じゃない？🥺' got 'うん！' (yes, it is odd)."""
    line = thing + odd
    reply = _reply_never_yes(line, seed)
    assert reply in NIKE.reactions["shown"], (line, reply)


@settings(max_examples=60, deadline=None)
@given(told=st.sampled_from(("「たけやぶやけた」ってさかさまからよんでもおなじなんだよ！", "1たす1は、たまに3になるっちゃん。",
                             "この町に昔お城があったんだって。")),
       asked=st.sampled_from(("しってた？", "知っとった？", "知ってた？", "知ってました？")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_a_thing_told_then_asked_if_known_is_news_to_it(told: str, asked: str, seed: str) -> None:
    """'1たす1は、たまに3になるっちゃん。知っとった？' got 'うん！': it never claims to have known what it was just told."""
    line = told + asked
    reply = _reply_never_yes(line, seed)
    assert reply in NIKE.answers["didnt_know"], (line, reply)


@pytest.mark.unit
def test_two_short_sides_sharing_an_ending_are_a_choice() -> None:
    heard = hear("赤キャ？青キャ？", own_names=OWN)
    assert heard is not None and heard.question is not None and heard.question.options == ("赤キャ", "青キャ"), heard
    heard = hear("マジ？本当？", own_names=OWN)
    assert heard is None or heard.question is None or heard.question.kind != "choice", heard


@settings(max_examples=60, deadline=None)
@given(place=st.sampled_from(("商店街のたい焼き屋、", "駅前の郵便局、", "喫茶店って", "本屋さんって", "図書館は")),
       asked=st.sampled_from(("まだやってるん？", "土曜日もやっとったかね", "今日開いとる？", "まだ開いてる？")), seed=SEEDS)
@pytest.mark.fuzz
def test_fuzz_whether_a_place_is_open_is_the_towns_never_a_made_up_yes(place: str, asked: str, seed: str) -> None:
    """'商店街のたい焼き屋、まだやってるん？' got 'うん！', a claim the agent cannot know."""
    line = place + asked
    reply = _reply_never_yes(line, seed)
    assert any(w in reply for w in ("知らない", "わからない")), (line, reply)


@pytest.mark.unit
@pytest.mark.parametrize("line", ["神社にはもう行ったことありますか？", "本屋は好き？", "ところで、来週はお忙しいですか？",
                                  "人が多いところは平気な方ですか？"])
def test_what_the_agent_did_or_likes_of_a_place_is_its_own(line: str) -> None:
    assert "ちゃんとは知らない" not in _reply(line, "s"), line


@pytest.mark.unit
@pytest.mark.parametrize("line", ["ニケちゃん いっしょに おえかき しよ！", "今度の土曜、温泉さ行がねが？雪見風呂いいど",
                                  "今週末釣り行かね？みなとでアジつれるらしい",
                                  "こんど かわらで バーベキュー やるんだけど くる？",
                                  "今晩うちでたこパすんねんけど、ニケちゃんも来るやろ？", "ニケさんも、もしよかったら。途中まででも。"])
def test_invitations_in_kana_and_dialect_are_joined(line: str) -> None:
    """Development lines that got 'へえ、そうなんだね。' or a bare 'うん！'."""
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "invitation", (line, heard)
    assert not _bare_yes(_reply(line, "s")), line
