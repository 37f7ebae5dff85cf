"""A thing shown ('じゃーん😆 どうかな？', '見て見て！') is admired, never taken for an invitation (set-6's memory lines).

'どうかな？' after 'じゃーん' asks how a thing looks, not whether to do something: it was answered
'いいね、そうしよう！'. A line that tells something happened besides ('はがぬけたの！みてみて！') is that news.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.hearing import hear
from karakuri_agent.voice.persona_pack import load_persona
from karakuri_agent.voice.speech import compose

NIKE = load_persona()
OWN = ("ニケ", "ニケちゃん")


@pytest.mark.fuzz
@settings(max_examples=80, deadline=None)
@given(show=st.sampled_from(("じゃーん", "ジャーン", "じゃじゃーん", "見て見て", "みてみて", "ほら見て")),
       thing=st.sampled_from(("", "！", "😆", "、新しい靴！", "、新しい髪型", "📸")),
       asked=st.sampled_from(("", " どうかな？", " どう？", " 似合う？", " かわいくない？", "✨")),
       call=st.sampled_from(("", "ニケちゃん、", "ねえねえ、")))
def test_fuzz_a_thing_shown_is_admired(show: str, thing: str, asked: str, call: str) -> None:
    line = call + show + thing + asked
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind == "shown", (line, heard)
    said = compose("reply", persona=NIKE, partner_name="美咲", last_line=line, seed="s1")
    assert any(said.endswith(p.replace("{first_person}", "わたし")) for p in NIKE.reactions["shown"]), (line, said)


@pytest.mark.parametrize("line", ["あのね、はがぬけたの！みてみて！", "見て見て、転んで膝すりむいた", "あ、今日じゃん！",
                                  "じゃーん、明日どこ行く？", "見て見て、明日一緒に行かない？"])
def test_a_line_that_tells_or_asks_besides_showing_is_not_a_thing_shown(line: str) -> None:
    heard = hear(line, own_names=OWN)
    assert heard is not None and heard.kind != "shown", (line, heard)
