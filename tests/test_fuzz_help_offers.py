"""Help offered in any words, and lines that are no offer: the whole class the benchmark's offers found.

Offers are built from parts (what is helped with, a verb of helping, a shape of offering, an
ending, a register); each is read as an offer and answered with thanks, taken or declined as the
policy says. The same verbs said as a past, a negation, a request or something done together
are never offers. And no line at all makes the reader fail.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.help_offers import offers_help
from karakuri_agent.reading.hearing import hear
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import compose

NIKE = load_persona()
THINGS = ["荷物", "その箱", "宿題", "道", "傘", "自転車", "重いの", "それ", "写真", "地図"]
# (volitional 'shall I', benefactive, plain) forms of verbs of helping.
VERBS = [("持とうか", "持ってあげる", "持つよ"), ("運ぼうか", "運んであげる", "運ぶよ"), ("教えようか", "教えてあげる", "教えるよ"),
         ("手伝おうか", "手伝ってあげる", "手伝うよ"), ("直そうか", "直してあげる", "直すよ"),
         ("貸そうか", "貸してあげる", "貸すよ"), ("案内しようか", "案内してあげる", "案内するで"),
         ("お送りしましょうか", "送ってあげるね", "案内しますよ")]
OPENERS = ["", "よかったら、", "大丈夫？", "ねえ、", "あ、", "よろしければ、", "Need help? ", "重そうだね、"]
ENDS = ["", "？", "！", "?", "〜", "😊"]
NOT_OFFERS = [("持った", "手伝った", "教えてあげた", "案内しました"), ("持たないよ", "手伝わないよ"),
              ("持ってあげて", "手伝ってあげて", "教えてくれる？"), ("一緒に持とうか", "一緒に作ろうか", "いっしょに運ぼうか")]


@st.composite
def help_offers(draw: st.DrawFn) -> str:
    forms = draw(st.sampled_from(VERBS))
    verb = draw(st.sampled_from(forms))
    thing = draw(st.sampled_from(THINGS))
    particle = draw(st.sampled_from(["、", "を", "は", " "]))
    return draw(st.sampled_from(OPENERS)) + thing + particle + verb + draw(st.sampled_from(ENDS))


@settings(max_examples=150, deadline=None)
@given(help_offers())
def test_help_in_any_words_is_an_offer_answered_with_thanks(line: str) -> None:
    assert offers_help(line), line
    heard = hear(line)
    assert heard is not None and heard.kind == "offer", (line, heard)
    for takes in (True, False):
        reply = compose("reply", persona=NIKE, partner_name="灯屋ユウ", last_line=line, seed=line, takes_offers=takes)
        pool = NIKE.reactions["offer_accept" if takes else "offer_decline"]
        assert any(reply.endswith(p.replace("{partner}", "ユウさん")) for p in pool), (line, reply)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(THINGS), st.sampled_from([w for group in NOT_OFFERS for w in group]), st.sampled_from(ENDS))
def test_a_past_a_negation_a_request_or_together_is_no_offer(thing: str, verb: str, end: str) -> None:
    assert not offers_help(f"{thing}、{verb}{end}")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("あいうかきくしすたてとなにのはまもやよらるをんっー持運教手伝直貸案内送一緒"
                                             "げあ、。！？?! 0123456789abc")), max_size=80))
def test_any_line_is_read_without_failing(line: str) -> None:
    assert offers_help(line) in (True, False)
