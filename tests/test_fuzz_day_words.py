"""Property tests for the day's words and map (issue 32 item 11), each a class of bad outcome.

- Whatever the places and their labels (long, wide, mixed scripts, markup),
  the map's frame reaches past where each label could end (at least 0.55 of
  the font size a character, the narrowest an 11px face draws Latin text;
  a full-width character a whole em), and every label is there, escaped.
- Whatever a promise's status or a gift's direction, the text says it in
  Japanese (never the code), on one line.
"""

from __future__ import annotations

import re
import unicodedata
from html import escape

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from karakuri_agent.app.day import page
from karakuri_agent.app.day.model import build
from karakuri_agent.app.day.text import lines
from karakuri_agent.domain.records import Meeting
from karakuri_agent.ja.day_text import DIRECTION, STATUS

from testing.day_records import day_entry, day_records

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LABELS = st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=60).filter(str.strip)
NODES = st.tuples(st.integers(1, 30), st.integers(1, 30)).map(lambda p: f"{p[0]}-{p[1]}")


@SETTINGS
@given(st.dictionaries(NODES, LABELS, min_size=1, max_size=6))
def test_the_map_frame_holds_every_label(places):
    journal = [day_entry(i * 10, "here", {"node_id": node, "label": label}) for i, (node, label) in
               enumerate(places.items())]
    markup = page.render(build(day_records(journal=journal, places=places)))
    x, _, width, _ = (float(v) for v in re.search(r'viewBox="([^"]+)"', markup).group(1).split())
    for node, label in places.items():
        assert f">{escape(label, quote=True)}</text>" in markup
        col = int(node.split("-")[1])
        drawn = sum(11 if unicodedata.east_asian_width(ch) in "WF" else 11 * 0.55 for ch in label)
        assert col * page.CELL + page.LABEL_GAP + drawn <= x + width


@SETTINGS
@given(status=st.sampled_from(sorted(STATUS)), direction=st.sampled_from(sorted(DIRECTION)),
       partner=LABELS, place=LABELS)
def test_statuses_and_gifts_are_said_in_japanese_on_one_line(status, direction, partner, place):
    from datetime import timedelta

    from testing.day_records import T0

    promise = Meeting(id=1, partner_name=partner, place_name=place, node_id=None, source_text="",
                      due_at=T0 + timedelta(hours=1), created_at=T0,
                      status="fulfilled" if status == "kept" else "pending", fulfilled_at=None)
    journal = [day_entry(5, "transfer", {"direction": direction, "partner": partner, "item": None, "money": 500})]
    text = list(lines(build(day_records(journal=journal, promises=[promise]))))
    gift = text[text.index("Gifts") + 1]
    assert DIRECTION[direction] in gift and direction not in gift.replace(partner, "")
    said = text[text.index("Promises") + 1]
    assert any(word in said for word in STATUS.values())
    assert not re.search(r"\b(kept|missed|pending|made|cancelled)\b", said.replace(partner, "").replace(place, ""))
