"""Property: a line that calls a meeting off is never read as a new meeting, whatever time and place it names.

The class of a failure the offline town found (`karakuri-agent town`): a
resident's 「ごめんなさい、今日の13時半の図書館の約束、行けなくなってしまいました。」
was read as a proposal (a time, a place, 約束) and the agent went to the
library for a meeting taken back. A sentence that says the speaker cannot
come (or cancels) proposes nothing, so the line is a call-off
(`calls_off`), and no promise comes of it.
"""

from __future__ import annotations

from datetime import datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.reading.promise_lines import calls_off, extract_promise
from karakuri_agent.reading.times import TOKYO

NOW = datetime(2026, 4, 18, 10, 2, tzinfo=TOKYO)
PLACES = [{"node_id": "3-3", "name": "喫茶店 店内"}, {"node_id": "5-9", "name": "図書館 閲覧室"},
          {"node_id": "8-1", "name": "公民館 ホール"}]
WHEN = st.sampled_from(["15時", "今日の15時", "明日の10時半", "今日の13時半", "午後3時", "16時半", "明後日の9時"])
PLACE = st.sampled_from(["喫茶店", "図書館", "公民館"])
FRAME = st.sampled_from(["{when}の{place}の約束、{off}", "{when}に{place}で会う約束、{off}",
                         "{place}、{when}の件なんだけど、{off}", "{when}の{place}、{off}"])
OFF = st.sampled_from(["行けなくなってしまいました。", "キャンセルさせて。", "中止にさせてください。", "取り消してもいい？",
                       "来られなくなっちゃった。", "会えなくなったの。", "行けなくなった、ほんまごめん。", "行けそうにないです。"])
PREFIX = st.sampled_from(["", "ごめん、", "ごめんなさい、", "あの、", "申し訳ないけど、"])


@settings(max_examples=300, deadline=None)
@given(when=WHEN, place=PLACE, frame=FRAME, off=OFF, prefix=PREFIX)
def test_a_call_off_naming_a_time_and_a_place_is_no_new_meeting(when, place, frame, off, prefix):
    line = prefix + frame.format(when=when, place=place, off=off)
    assert extract_promise(line, speaker_name="烏丸ジン", speaker_id="7", now=NOW, known_places=PLACES) is None, line
    assert calls_off(line, NOW), line
