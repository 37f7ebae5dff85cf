"""What the talk said before answers the next line, even from a server that sends only the last line.

The engine's conversation notification carries the line being answered and no history; the agent kept
none either, so 'どっちが似合うと思う？' after 'ピンクか、アッシュか…' got 'わからないや', and 'まじでいみわからん、
どうおもう？' after '先輩に怒られた' got 'いいね、楽しそう！'. The journal now gives the talk's lines since it
opened (View.talk); the voice picks one of the options the talk named, meets a question about trouble told
just before with care, and says it did not know what it was just told.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
import respx
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import handle
from karakuri_agent.reading.lexicon import cheer_words
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import Memory, compose

from testing.samples import BASE_URL, conversation_turn

NIKE = load_persona()
HERE = "6-11 (喫茶店 店内)"
MEI = "1474403124906295517"
START = datetime(2026, 12, 1, 3, 0, tzinfo=timezone.utc)  # 12:00 in Tokyo


def _reply(line: str, talk: tuple[str, ...], seed: str = "a") -> str:
    return compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=seed,
                   memory=Memory(here=HERE, talk=talk), place_name=HERE)


def _turn(nid: str, at: datetime, line: str, kind: str = "conversation_message") -> dict:
    """The engine's form: the line being answered, and no history of the talk."""
    return conversation_turn(nid, at, "桜草メイ", MEI, line, kind=kind)


def _said(body: dict, at: datetime) -> str:
    nid = body["notification_id"]
    with respx.mock:
        respx.get(f"{BASE_URL}/agents/notifications/{nid}").respond(200, json=body)
        post = respx.post(f"{BASE_URL}/agents/command").respond(200, json={"ok": True})
        handle(f"🔔 notification_id: {nid}", load_settings(), clock=lambda: at)
    return str(json.loads(post.calls.last.request.content)["params"]["message"])


def _talk(lines: list[str], start: datetime = START) -> str:
    """A talk the partner opens with the first line; the agent's answer to the last."""
    said = ""
    for i, line in enumerate(lines):
        at = start + timedelta(minutes=i)
        said = _said(_turn(f"notif-{start:%H%M}-{i}", at, line,
                           "conversation_requested" if i == 0 else "conversation_message"), at)
    return said


def test_options_named_before_are_picked_from_across_notifications(env, state_dir):
    answer = _talk(["ねえねえ、髪の色変えようか迷ってて", "ピンクか、アッシュか…🤔", "どっちが似合うと思う？"])
    assert ("ピンク" in answer) != ("アッシュ" in answer), answer


def test_trouble_told_before_is_met_with_care_across_notifications(env, state_dir):
    answer = _talk(["ねえ聞いて", "きのうバイトのせんぱいにおこられた", "まじでいみわからん、どうおもう？"])
    assert not any(w in answer for w in cheer_words()), answer


def test_an_earlier_talk_with_the_same_partner_is_not_this_ones(env, state_dir):
    _talk(["やっほー", "ピンクか、アッシュか迷ってて"])
    later = START + timedelta(minutes=3)  # a minute after the last line of the other
    answer = _talk(["こんにちは", "どっちが似合うと思う？"], later)
    assert "ピンク" not in answer and "アッシュ" not in answer, answer


def test_asked_whether_it_knew_what_was_just_told_it_did_not() -> None:
    reply = _reply("あんた、知ってたかい？", ("昔ね、この町に映画館があったんだよ", "よくじいさんと行ったもんさ"))
    assert any(reply.endswith(line) for line in NIKE.answers["didnt_know"]), reply


TROUBLE = ("さっき財布なくしちゃって", "きのう先輩におこられた", "テストぜんぜんだめだった", "犬が病気になっちゃって",
           "バイトクビになった")
ASKED = ("どう思う？", "どうおもう？", "まだあるかなあ？", "大丈夫かなあ？", "これってどうかな？")
OPTIONS = (("ピンク", "アッシュ"), ("コーヒー", "紅茶"), ("海", "山"), ("夕方", "朝"))
FRAMES = ("{a}か、{b}か…", "{a}か{b}かで迷ってて", "{a}にするか{b}にするか迷う")
WHICH = ("どっちがいいと思う？", "どっちが似合うと思う？", "ニケちゃんならどっち？", "どちらがいいと思います？")


@pytest.mark.fuzz
@settings(max_examples=120, deadline=None)
@given(trouble=st.sampled_from(TROUBLE), asked=st.sampled_from(ASKED), seed=st.sampled_from("abcdef"))
def test_fuzz_a_question_after_trouble_is_never_met_with_cheer(trouble: str, asked: str, seed: str) -> None:
    reply = _reply(asked, ("ねえ聞いて", trouble), seed)
    assert not any(w in reply for w in cheer_words()) and reply not in ("うん！", "うんうん！"), (trouble, asked, reply)


@pytest.mark.fuzz
@settings(max_examples=120, deadline=None)
@given(options=st.sampled_from(OPTIONS), frame=st.sampled_from(FRAMES), which=st.sampled_from(WHICH))
def test_fuzz_which_after_options_picks_one_of_them_the_same_every_time(options: tuple[str, str], frame: str,
                                                                        which: str) -> None:
    a, b = options
    talk = ("ちょっと相談なんだけど", frame.format(a=a, b=b))
    replies = [_reply(which, talk, seed) for seed in "abcd"]
    picks = {tuple(o for o in options if o in reply) for reply in replies}
    assert len(picks) == 1 and len(next(iter(picks))) == 1, (talk, which, replies)


def test_asked_whether_it_remembers_it_says_what_they_told(env, state_dir):
    _talk(["ぼくね、ハムスター かってるの。なまえは だいふく"])
    later = START + timedelta(hours=3)  # the same day: asked for it, it comes back whatever the day
    answer = _talk(["こんにちは", "ぼくの ハムスターの なまえ、おぼえてる？"], later)
    assert "だいふく" in answer and any(line in answer for line in NIKE.answers["remember"]), answer


GOES_ON = ("まあ大したことはないんじゃが、膝がのう", "今度は長くなるって先生がいうんだよ", "しばらく店休むげな",
           "まあ、向こうにも色々あったみたいでさ", "で、まだ連絡ないんよ", "ほんでな、今日も病院やねん")
TROUBLE_ACK = ("なるほど", "へえ", "かわいい", "好き")


@pytest.mark.fuzz
@settings(max_examples=120, deadline=None)
@given(trouble=st.sampled_from(TROUBLE), goes_on=st.sampled_from(GOES_ON), seed=st.sampled_from("abcdef"))
def test_fuzz_a_line_of_nothing_good_or_bad_after_trouble_goes_on_with_it(trouble: str, goes_on: str, seed: str) -> None:
    """Set-7's context turns: '膝がのう' after a fall got 'なるほど、そっか', a long hospital stay 'へえ、そうなんだね',
    'まあ、向こうにも色々あったみたいで' after a breakup 'よかったあ！ほっとしたね' (ある as 'found'). A line telling
    nothing good or bad of its own, just after trouble, is listened to: no cheer, no 'なるほど', no relief."""
    said = _reply(trouble, ())
    reply = _reply(goes_on, (trouble, said), seed)
    assert reply.split("、", 1)[-1] not in said and not any(w in reply for w in (*cheer_words(), *TROUBLE_ACK, "ほっと")), (trouble, goes_on, reply)


@pytest.mark.parametrize("lost, back", [("昨日な、財布落としてん", "ほんでな、交番行ったら誰か届けてくれとってん！"),
                                        ("鍵なくしちゃって", "さっき見つかった！"), ("猫が逃げちゃって", "今朝、帰ってきた！")])
def test_a_thing_lost_and_handed_in_is_relief(lost: str, back: str) -> None:
    reply = _reply(back, (lost, _reply(lost, ())))
    assert any(w in reply for w in ("よかった", "ほっと", "安心")), reply


@pytest.mark.parametrize("line", ["ほんで、その後なに入るんやろな", "まあ、向こうにも色々あったみたいでさ", "何があったんだろう"])
def test_a_guess_or_a_wonder_tells_nothing_found(line: str) -> None:
    from karakuri_agent.reading.told_of import tells_found
    assert not tells_found(line)
