"""The day in Japanese and whole (issue 32 item 11): statuses and gifts in the page's language, labels not clipped.

Through `karakuri-agent day` on the bundled session (text and page), and in
headless Chromium: every map label, the longest one at the map's right
edge included, is drawn inside the map's frame.
"""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from karakuri_agent.app.cli import agent
from karakuri_agent.app.day import page
from karakuri_agent.app.day.model import build
from karakuri_agent.ja.day_text import DIRECTION, STATUS

from testing.day_records import day_entry, day_records
from testing.browser import Dom, dump_dom

LONG = "ひまわり商店街の角にある古い喫茶店「ゆうやけ」の奥の窓際の席 (Yuyake Coffee, back room)"


def test_the_days_text_and_page_say_kept_received_and_declined_in_japanese(tmp_path, monkeypatch):
    state = tmp_path / "state"
    assert CliRunner().invoke(agent, ["demo", "--state-dir", str(state)]).exit_code == 0
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(state))
    text = CliRunner().invoke(agent, ["day", "--date", "2026-04-18"]).stdout
    promises = text.split("\nPromises\n")[1].split("\n\n")[0].splitlines()
    gifts = text.split("\nGifts\n")[1].split("\n\n")[0].splitlines()
    assert promises == ["  守った\u3000桜草メイ と 公民館 ホール で 04-18 13:30（13:00 に約束、13:20 に守った）"], promises
    assert gifts == ["  13:30  桜草メイ から popcorn×1 を受け取った", "  13:40  Luna☆Bot からの 50,000円 を断った"], gifts
    assert not re.search(r"\b(received|declined|kept|gave|made)\b", "\n".join(promises + gifts))
    target = tmp_path / "day.html"
    assert CliRunner().invoke(agent, ["day", "--date", "2026-04-18", "--html", str(target)]).exit_code == 0
    dom = Dom(target.read_text(encoding="utf-8"))
    assert [(e.attrs["data-status"], e.all_text()) for e in dom.find("span", class_="status")] == [("kept", "守った")]
    assert [(e.attrs["data-direction"], e.all_text()) for e in dom.find("span", class_="direction")] == [
        ("received", "受け取った"), ("declined", "断った")]
    shown = json.loads(CliRunner().invoke(agent, ["day", "--date", "2026-04-18", "--json"]).stdout)
    assert [p["status"] for p in shown["promises"]] == ["kept"]  # the JSON keeps the codes for machines


def test_every_status_and_direction_has_its_japanese_word():
    from karakuri_agent.app.day.model import CANCELLED, KEPT, MADE, MISSED, PENDING

    assert set(STATUS) == {KEPT, MISSED, PENDING, MADE, CANCELLED}
    assert set(DIRECTION) == {"received", "given", "declined"}
    assert all(word and not word.isascii() for word in [*STATUS.values(), *DIRECTION.values()])


# What the browser drew: each label's right edge and the frame's, written into the DOM by a measuring copy.
MEASURE = """<script>
addEventListener('load', () => {
  const svg = document.querySelector('svg.map'), box = svg.viewBox.baseVal;
  svg.setAttribute('data-right', box.x + box.width);
  svg.setAttribute('data-bottom', box.y + box.height);
  for (const t of svg.querySelectorAll('text')) {
    const b = t.getBBox();
    t.setAttribute('data-right', b.x + b.width);
    t.setAttribute('data-bottom', b.y + b.height);
  }
  document.body.setAttribute('data-measured', 'yes');
});
</script>"""


@pytest.mark.browser
def test_chromium_draws_a_long_place_label_inside_the_map(tmp_path):
    places = {"6-11": "喫茶店 店内", "8-3": "図書館 閲覧室", "9-12": LONG, "3-1": "駅"}
    day = build(day_records(journal=[day_entry(0, "here", {"node_id": "6-11", "label": "喫茶店 店内"}),
                                  day_entry(20, "here", {"node_id": "9-12", "label": LONG}),
                                  day_entry(40, "here", {"node_id": "3-1", "label": "駅"})], places=places))
    markup = page.render(day)
    target = tmp_path / "measured.html"
    target.write_text(re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", markup)
                      .replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    dom = Dom(dump_dom(target, tmp_path / "profile"))
    assert dom.find("body")[0].attrs.get("data-measured") == "yes"
    [svg] = dom.find("svg")
    labels = dom.find("text")
    assert {t.all_text() for t in labels} >= {LONG, "駅"}
    right, bottom = float(svg.attrs["data-right"]), float(svg.attrs["data-bottom"])
    for label in labels:
        assert float(label.attrs["data-right"]) <= right, (label.all_text(), label.attrs["data-right"], right)
        assert float(label.attrs["data-bottom"]) <= bottom
