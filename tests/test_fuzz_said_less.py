"""What a reader found wrong on the fourth sealed set, each class fuzzed (issue 40).

A reader graded every reply to set-4 (now development data): 92 of 356 wrong. The classes fixed here,
each drawn whole rather than by the line that showed it:

- a favour asked got a bare 'うん！' ('あの漫画返してもらえる？'); it is granted ('うん、いいよ！');
- a dialect's verb cut short was said back ('あっか？' → 'うん、あっよ！');
- a letter left from typing in romaji was said back ('図書館d' → '図書館dなんだ！');
- a face drawn in marks made a greeting a statement ('おはよ〜(｡•̀ᴗ-)✧' → '…そっか、なるほどね。');
- 'let me' ('おごらせて') and 'shall I go and' ('迎えに行こうか') were no offers;
- an apology said with お詫び/申し訳/ごめん was met with care for a misfortune;
- a trouble over ('熱さがった', '手術は無事に成功') was met with care;
- Kansai's past 'てん' was read as a negation ('パクられてん' was no trouble);
- praise of the agent by the lexicon's `compliment` ('町の宝', '頭が下がります') was news;
- a change asked for ('ろくじにしてもいい？') was said back as called off;
- a plan far ahead ('お正月どっか行くん？') was answered with 'このあとは…';
- the same ending asked twice ('浴衣で行く？私服で行く？') was no either-or;
- a line that tells then asks ('昨日はありがとね。あ、今度の土曜空いとる？') had one half answered;
- an apology with a yes/no after it was answered 'うん、待ったよ' ('ごめん遅れた！待った？'): forgiven; a real
  question after an apology is answered too.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.question_kinds import asks_a_favour, predicate
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

NIKE = load_persona()
OWN = ("ニケ", "AIニケちゃん")
HERE = "6-11 (喫茶店 店内)"


def _reply(line: str, seed: str = "s1") -> str:
    return compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed,
                   memory=Memory(here=HERE), place_name=HERE)


def _pool(table: str, kind: str) -> list[str]:
    return list((NIKE.answers if table == "answers" else NIKE.reactions)[kind])


CARE_FOR_MISFORTUNE = ("大変だった", "つらかった", "残念", "大丈夫？", "休んでね")


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(verb=st.sampled_from(("返して", "手伝って", "貸して", "待って", "持ってきて", "見せて", "代わって")),
       favour=st.sampled_from(("もらえる", "もらえない", "くれる", "くれない", "いただけますか", "くれへん", "もらってもいい")),
       start=st.sampled_from(("", "あ、やっぱり", "ごめん、", "ニケちゃん、")), end=st.sampled_from(("？", "?", "〜？", "？🙏")))
def test_fuzz_a_favour_asked_is_granted(verb: str, favour: str, start: str, end: str) -> None:
    line = start + verb + favour + end
    assert asks_a_favour(line)
    reply = _reply(line)
    assert any(g in reply for g in ("いいよ", "もちろん", "大丈夫")), (line, reply)


@pytest.mark.fuzz
@given(verb=st.sampled_from(("教えて", "聞かせて", "話して")), favour=st.sampled_from(("もらえる？", "くれる？", "いただけますか。")))
def test_fuzz_asking_to_be_told_is_no_favour(verb: str, favour: str) -> None:
    assert not asks_a_favour(verb + favour)


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(stem=st.sampled_from(("あっ", "行っ", "やっ", "見", "拾っ", "食べ")), tail=st.sampled_from(("か？", "たか？", "とか？", "べか？")))
def test_fuzz_a_predicate_said_back_can_end_a_sentence(stem: str, tail: str) -> None:
    said = predicate("ニケちゃん、" + stem + tail, OWN)
    assert not said or said[-1] in "るたいだうくすつぬむぶぐ", said


LETTERS = st.sampled_from(list("abcdefghijklmnopqrstuvxyz") + list("ａｂｃｄｆｇｎｒｔｙ"))


@pytest.mark.fuzz
@settings(max_examples=200, deadline=None)
@given(line=st.sampled_from(("こんど図書館で勉強しよ", "映画と本だったらどっちすき？", "駅前のパン屋さん行った",
                             "あしたテストでむり", "猫ひろったの！", "おはよう！今日もさむいね")),
       letter=LETTERS, data=st.data())
def test_fuzz_a_letter_left_from_typing_in_romaji_is_never_said_back(line: str, letter: str, data: st.DataObject) -> None:
    places = [i for i in range(1, len(line) + 1)
              if not line[i - 1].isascii() and line[i - 1] not in "、。！？" and (i == len(line) or not line[i].isascii())]
    at = data.draw(st.sampled_from(places))
    after = line[at:at + 1]
    # a consonant before a vowel kana makes that syllable ('まｔあな' is またな), an n before a kana is ん
    # ('ごめｎね'): letters the typing meant, read as such (tests/test_fuzz_how_it_went.py)
    assume(not (after in "あいうえお" and letter not in "aeiouａ") and not (letter in "nｎ" and after and not after.isascii()))
    typed = line[:at] + letter + line[at:]
    heard, clean = hear(typed, own_names=OWN), hear(line, own_names=OWN)
    assert heard is not None and clean is not None and (heard.kind, heard.topic) == (clean.kind, clean.topic)
    assert letter not in _reply(typed)


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(greeting=st.sampled_from(("おはよ〜", "こんにちは！", "やっほー", "おつかれさま〜")),
       face=st.sampled_from(("(｡•̀ᴗ-)✧", "(*´꒳`*)", "(^^;)", "(´・ω・`)", "（＞＿＜）", "(^_^)v")))
def test_fuzz_a_face_drawn_in_marks_changes_no_reading(greeting: str, face: str) -> None:
    with_face, plain = hear(greeting + face, own_names=OWN), hear(greeting, own_names=OWN)
    assert with_face is not None and plain is not None and with_face.kind == plain.kind


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(verb=st.sampled_from(("おごら", "払わ", "手伝わ", "運ば", "案内さ", "持た")),
       tail=st.sampled_from(("せて", "せてください", "せてよ", "せてね", "せてや", "せてちょうだい")),
       start=st.sampled_from(("", "この前のお詫びに、", "今日は", "たまには")))
def test_fuzz_let_me_is_an_offer_taken_with_thanks(verb: str, tail: str, start: str) -> None:
    line = start + verb + tail
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "offer", (line, heard)
    assert any(t in _reply(line) for t in ("ありがとう", "うれしい", "助かる")), line


@pytest.mark.fuzz
@given(verb=st.sampled_from(("迎え", "手伝い", "届け")), go=st.sampled_from(("に行こうか？", "に行きましょうか？", "に来ようか？")))
def test_fuzz_going_to_do_it_for_one_is_an_offer(verb: str, go: str) -> None:
    heard = hear("駅まで" + verb + go, own_names=OWN)
    assert heard is not None and heard.kind == "offer"
    done = hear("駅まで" + verb + "に行ったよ", own_names=OWN)
    assert done is not None and done.kind != "offer"


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(what=st.sampled_from(("先日は大変失礼なことを申し上げてしまい、", "昨日はきつく言うてしもうて、", "約束すっぽかして", "")),
       sorry=st.sampled_from(("お詫び申し上げます。", "申し訳ございません。", "ごめんやで。", "ほんまごめん", "申し訳ないっす")))
def test_fuzz_an_apology_is_forgiven_never_pitied(what: str, sorry: str) -> None:
    line = what + sorry
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "apology", (line, heard)
    reply = _reply(line)
    assert not any(c in reply for c in CARE_FOR_MISFORTUNE), (line, reply)


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(over=st.sampled_from(("熱さがった", "熱が下がりました", "熱も下がったよ", "手術は無事に成功しました", "手術、無事終わった",
                             "咳が止まった", "痛みが引いてきた")),
       tail=st.sampled_from(("", "〜🥳", "！もう元気！", "。ご心配おかけしました", "わ")))
def test_fuzz_a_trouble_over_is_met_with_relief_not_care(over: str, tail: str) -> None:
    line = over + tail
    heard = hear(line, own_names=OWN)
    assert heard is not None and not heard.troubled and heard.mood == "good", (line, heard)
    assert not any(c in _reply(line) for c in CARE_FOR_MISFORTUNE)


@pytest.mark.fuzz
@given(still=st.sampled_from(("熱が下がらない", "熱が全然下がらへん", "咳が止まらない")))
def test_fuzz_a_trouble_not_over_is_still_trouble(still: str) -> None:
    heard = hear(still, own_names=OWN)
    assert heard is not None and heard.troubled


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(thing=st.sampled_from(("傘", "財布", "自転車", "スマホ")),
       done=st.sampled_from(("パクられてん", "盗まれてん", "壊されてん", "なくしてん")), after=st.sampled_from(("", "、びしょ濡れや", "…", "。最悪や")))
def test_fuzz_kansai_past_is_no_negation(thing: str, done: str, after: str) -> None:
    heard = hear(thing + done + after, own_names=OWN)
    assert heard is not None and heard.troubled, (thing + done + after, heard)


@pytest.mark.fuzz
@given(glad=st.sampled_from(("合格してん！", "優勝してん！", "彼女できてん")))
def test_fuzz_kansai_past_of_glad_news_stays_glad(glad: str) -> None:
    heard = hear(glad, own_names=OWN)
    assert heard is not None and not heard.troubled


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(("ニケちゃんは", "ニケの", "ニケさんの気配りには、", "あなたは", "ニケちゃんおると、")),
       praise=st.sampled_from(("町の宝だなや", "いつも頭が下がります", "作るお菓子、店レベルだと思う", "みんな笑顔になるなあ",
                               "ほんまに尊敬するわ")))
def test_fuzz_praise_of_the_agent_is_thanked(name: str, praise: str) -> None:
    line = name + praise
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "compliment", (line, heard)
    alone = hear(praise.replace("作るお菓子、", "お菓子、"), own_names=OWN)
    assert alone is not None and alone.kind != "compliment" or "尊敬" in praise or "宝" in praise


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(time=st.sampled_from(("ろくじ", "6時", "11時", "明日", "来週")),
       ask=st.sampled_from(("にしてもいい？", "にしてもよか？", "にしてもええ？", "に変えてもいい？")),
       start=st.sampled_from(("やっぱり ", "やっぱ", "ごめん、やっぱり")))
def test_fuzz_a_change_asked_for_is_granted_not_called_off(time: str, ask: str, start: str) -> None:
    line = start + time + ask
    reply = _reply(line)
    assert "なし" not in reply and "やめた" not in reply, (line, reply)


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(far=st.sampled_from(("お正月", "年末", "夏休み", "来年", "来月", "クリスマス", "ゴールデンウィーク")),
       ask=st.sampled_from(("どっか行くん？", "ってどうすんの？", "の予定は？", "は何するの？", "どう過ごすの？")))
def test_fuzz_a_plan_far_ahead_is_not_answered_with_today(far: str, ask: str) -> None:
    reply = _reply(far + ask)
    assert "このあと" not in reply and "今夜" not in reply and "明日" not in reply, reply


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(pair=st.sampled_from((("浴衣", "私服"), ("パン", "ご飯"), ("電車", "バス"), ("紅茶", "コーヒー"), ("海", "山"))),
       ending=st.sampled_from(("で行く？", "派ですか？", "にする？", "がいい？", "派？")),
       start=st.sampled_from(("", "お祭りは", "ねえ、", "ニケちゃんは")))
def test_fuzz_the_same_ending_asked_twice_is_an_either_or(pair: tuple[str, str], ending: str, start: str) -> None:
    line = start + pair[0] + ending + pair[1] + ending
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.question is not None and heard.question.kind == "choice", (line, heard)
    assert set(heard.question.options) == set(pair), heard.question.options
    reply = _reply(line)
    assert sum(option in reply for option in pair) == 1, (line, reply)


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(told=st.sampled_from((("昨日はありがとね。", "thanks"), ("先日はお世話になりました。", "thanks"),
                             ("昇進決まってん！", "good_news"), ("今日誕生日なの🎂 ", "good_news"),
                             ("遅れてごめん！", "apology"), ("風邪ひいちゃったんだ。", "unwell"))),
       asked=st.sampled_from(("ニケちゃんは誕生日いつ？", "てか明日ヒマ？", "あ、ところで明日は何するの？")),
       seed=st.text(min_size=1, max_size=5))
def test_fuzz_a_line_that_tells_then_asks_is_met_then_answered(told: tuple[str, str], asked: str, seed: str) -> None:
    line, kind = told[0] + asked, told[1]
    reply = _reply(line, seed)
    first = hear(told[0], own_names=OWN)
    assert first is not None
    pools = {"thanks": _pool("reactions", "thanks"), "apology": _pool("reactions", "apology"),
             "good_news": [*_pool("reactions", "good_news_plain"), *_pool("reactions", "celebrate_plain")],
             "unwell": list(NIKE.reactions.get("unwell") or ())}
    met = [m.split("{")[0] for m in pools[kind] if m.split("{")[0]]
    assert any(m in reply for m in met), (line, reply)
    answers = [*NIKE.about_me.get("birthday", ()), *(a for pool in NIKE.plans_ahead.values() for a in pool),
               *NIKE.answers["no_plans"], *NIKE.answers["free"]]  # 'てか明日ヒマ？' asks whether it is free
    assert any(a.split("{")[0][:6] in reply for a in answers if a.split("{")[0][:6]), (line, reply)


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(sorry=st.sampled_from(("ごめん遅れた！", "遅れてごめん！", "待たせてごめんね。")),
       asked=st.sampled_from(("待った？", "もう注文した？", "ずっと待ってた？")), seed=st.text(min_size=1, max_size=5))
def test_fuzz_a_deed_asked_with_nothing_known_is_never_made_up(sorry: str, asked: str, seed: str) -> None:
    reply = _reply(sorry + asked, seed)
    assert any(r in reply for r in _pool("reactions", "apology")), reply
    assert not any(made_up in reply for made_up in ("待ったよ", "したよ", "待ってたよ")), reply


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(start=st.sampled_from(("じゃ ", "そろそろ寝るね、", "", "今日はありがと！")),
       night=st.sampled_from(("おやすみー", "おやすみなさい", "おやすみ〜🌙", "お休みなさい。")), seed=st.text(min_size=1, max_size=5))
def test_fuzz_good_night_is_said_back_as_good_night(start: str, night: str, seed: str) -> None:
    reply = _reply(start + night, seed)
    nights = [g.split("{")[0] or g.split("}")[-1] for g in NIKE.greetings["night"]]
    assert any(n and n in reply for n in nights), reply


PLACES = {"本屋": "古本屋「しおり堂」", "図書館": "市立図書館", "パン屋": "ベーカリー麦のパン屋", "銭湯": "銭湯「亀の湯」"}


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(sorted(PLACES)), where=st.sampled_from(("", "商店街に", "この町に", "駅前に")),
       ask=st.sampled_from(("ってあったっけ？", "ってある？", "はありますか？", "はございましたでしょうか。", "ってあるん？")),
       known=st.booleans(), seed=st.text(min_size=1, max_size=5))
def test_fuzz_whether_the_town_has_a_place_is_answered_from_the_places_it_knows(kind: str, where: str, ask: str,
                                                                                 known: bool, seed: str) -> None:
    line = where + kind + ask
    places = (PLACES[kind],) if known else ("港の美術館",)
    reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed,
                    memory=Memory(here=HERE, known_places=places), place_name=HERE)
    if known:
        assert PLACES[kind] in reply, (line, reply)
    else:
        assert kind in reply and "美術館" not in reply and not reply.startswith(("うん", "あるよ")), (line, reply)


@pytest.mark.fuzz
@given(own=st.sampled_from(("何か悩みはある？", "ニケちゃん、苦手な食べ物ってある？", "趣味はある？", "好きな場所ってある？")))
def test_fuzz_what_the_agent_has_is_no_question_of_the_town(own: str) -> None:
    heard = hear(own, own_names=OWN)
    assert heard is not None and heard.asks != "world", (own, heard)


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(trouble=st.sampled_from(("親と最近うまくいってないんだよね", "仕事がうまくいかなくて", "最近なんだか眠れないんだ",
                                "彼氏と喧嘩ばっかりしてて")), seed=st.text(min_size=1, max_size=5))
def test_fuzz_a_trouble_going_on_is_listened_to_not_called_past(trouble: str, seed: str) -> None:
    reply = _reply(trouble, seed)
    assert not any(past in reply for past in ("大変だったね", "残念だったね", "ついてなかったね", "つらかったね")), reply


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(made=st.sampled_from(("おはぎ作りすぎてしもうたで、", "クッキー焼いたんだけど、", "みかんいっぱいあるけん、")),
       one=st.sampled_from(("ひとつどうかね。", "おひとついかがですか？", "一つどう？")))
def test_fuzz_one_of_something_offered_is_taken(made: str, one: str) -> None:
    heard = hear(made + one, own_names=OWN)
    assert heard is not None and heard.kind == "offer", (made + one, heard)


@pytest.mark.fuzz
@given(first=st.sampled_from(("Yo、ニケ。", "あれ何て犬種なんだろ。", "転職しようか迷ってて。")),
       asked=st.sampled_from(("元気してる？", "ニケわかる？", "ぶっちゃけどう思う？")))
def test_fuzz_a_first_half_with_nothing_to_meet_is_not_met(first: str, asked: str) -> None:
    reply = _reply(first + asked)
    assert "教えてくれてありがとう" not in reply and "なるほど" not in reply, reply


@pytest.mark.fuzz
@settings(max_examples=150, deadline=None)
@given(when=st.sampled_from(("", "今度、", "明日、", "暇だったら", "週末、")),
       ask=st.sampled_from(("うちでお茶でもいかがですか？", "ランチでもどう？", "散歩つきあって", "ちょっと付き合ってよ",
                            "芋煮会やっから、ニケちゃんも来ねが？", "映画でもどうかな？")), seed=st.text(min_size=1, max_size=5))
def test_fuzz_an_invitation_in_more_forms_is_taken_up_not_put_off(when: str, ask: str, seed: str) -> None:
    line = when + ask
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "invitation", (line, heard)
    reply = _reply(line, seed)
    agreed = [*_pool("answers", "agree"), *_pool("answers", "agree_to")]
    assert any(a.split("{")[0][:4] in reply for a in agreed), (line, reply)
    assert "また今度" not in reply and "また明日" not in reply, (line, reply)


@pytest.mark.fuzz
@settings(max_examples=80, deadline=None)
@given(trouble=st.sampled_from(("友達とケンカしてしもうて、どげんしたらよかか分からんっちゃん", "親と最近うまくいってないんだよね",
                                "進路まだ決まってなくて焦る", "最近眠れないんだ")),
       said_today=st.lists(st.sampled_from([*NIKE.reactions["worry"], *NIKE.answers["advice"], *NIKE.answers["not_sure"]]),
                           max_size=6), seed=st.text(min_size=1, max_size=5))
def test_fuzz_a_trouble_is_never_padded_with_a_giggle(trouble: str, said_today: list[str], seed: str) -> None:
    """Once the plain lines were said today, a reply to trouble is not varied with the pack's tails ('えへへ。')."""
    for purpose in ("accept", "reply"):
        reply = compose(purpose, persona=NIKE, partner_name="灯屋ユウ", last_line=trouble, seed=seed,
                        said_today=[line.replace("{partner}", "ユウさん") for line in said_today])
        assert not any(tail in reply for tail in NIKE.tails if tail not in ("うんうん。",)), reply


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(thing=st.sampled_from(("運動", "早起き", "水泳", "カラオケ", "字を書くの", "暗記")),
       frame=st.sampled_from(("ニケちゃんって{t}得意と？", "ニケちゃん、{t}は得意かの？", "{t}って得意？", "{t}は苦手だったりする？")),
       seed=st.text(min_size=1, max_size=5))
def test_fuzz_good_at_a_thing_is_not_answered_with_another_thing(thing: str, frame: str, seed: str) -> None:
    reply = _reply(frame.format(t=thing), seed)
    others = [line for key in ("good_at", "bad_at") for line in NIKE.about_me.get(key, ()) if thing not in line]
    assert not any(line in reply for line in others), reply


@pytest.mark.fuzz
@settings(max_examples=120, deadline=None)
@given(hour=st.integers(min_value=9, max_value=20), asked=st.sampled_from(("{h}時の約束、まだ大丈夫だよね？", "{h}時の待ち合わせ、忘れてない？",
                                                                        "{h}時の約束って覚えてる？")),
       kept=st.booleans(), seed=st.text(min_size=1, max_size=5))
def test_fuzz_a_promise_asked_after_is_confirmed_only_when_kept(hour: int, asked: str, kept: bool, seed: str) -> None:
    from karakuri_agent.voice.situation import Plan

    plan = Plan("市場 通路", f"{hour if kept else (hour + 3) % 24:02d}:00")
    reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=asked.format(h=hour), seed=seed,
                    memory=Memory(here=HERE, plans=(plan,)), place_name=HERE)
    if kept:
        assert "市場" in reply and f"{hour}時" in reply, reply
    else:
        assert "市場" not in reply and not reply.startswith(("うん", "大丈夫")) and f"{hour}時" in reply, reply


@pytest.mark.fuzz
@settings(max_examples=100, deadline=None)
@given(place=st.sampled_from((("駅 改札前", "駅"), ("本屋 店内", "本屋"), ("市場 通路", "市場"))),
       asked=st.sampled_from(("さっき{p}の方にいなかった？", "今日{p}行ってた？", "さっき{p}におった？")), seed=st.text(min_size=1, max_size=5))
def test_fuzz_a_place_it_was_at_today_asked_is_said_yes(place: tuple[str, str], asked: str, seed: str) -> None:
    reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=asked.format(p=place[1]), seed=seed,
                    memory=Memory(here=HERE, today_places=(place[0],)), place_name=HERE)
    assert place[1] in reply, reply


@pytest.mark.fuzz
@given(lonely=st.sampled_from(("息子が遠くへ越すらしゅうてな、寂しゅうなるわい。", "最近ひとりぼっちで寂しいんだ", "娘が嫁いでから、家が寂しゅうてな")))
def test_fuzz_loneliness_is_stayed_with_not_called_nerves(lonely: str) -> None:
    reply = _reply(lonely)
    assert any(line.split("{")[0][:6] in reply for line in NIKE.reactions["lonely"]), reply


@pytest.mark.fuzz
@settings(max_examples=60, deadline=None)
@given(softener=st.sampled_from(("悪いけど、", "ごめん、", "すまんけど、", "")),
       change=st.sampled_from(("駅で待ち合わせって言ったの、公園にしてくれん？", "釣りに行く話、また今度でもいい？", "やっぱり 6時にしてもいい？")),
       seed=st.text(min_size=1, max_size=5))
def test_fuzz_a_change_asked_with_a_softener_is_granted_never_pitied(softener: str, change: str, seed: str) -> None:
    reply = _reply(softener + change, seed)
    assert not any(c in reply for c in CARE_FOR_MISFORTUNE) and "なんでしょう" not in reply and "なあに" not in reply, reply
