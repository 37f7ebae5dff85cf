"""The pack's condition facts `money`, `items`, `weather` and `met` are read from what the world sends (issue 32, item 7).

Through the installed command on a copy of the bundled session whose first
notification carries a real server text (`天気: くもり 18℃`, `所持金: 10,000円`,
`所持品: 5 個`): a rule on those facts fires, a rule on a fact the text does
not state never does (`neq` too), and `met` holds once the agent has talked with someone.
"""

from __future__ import annotations

import json
import shutil

from karakuri_agent.behaviour.engine import compare
from karakuri_agent.reading.textparse import parse_weather
from karakuri_agent.domain.identity import PersonRef

from testing.runs import DEMO01, run_agent

# A real server text (movement_completed), as the world sent it.
REAL_TEXT = (
    "あなた (AIニケちゃん) は仮想世界「からくり町」にログインしています。\n"
    "どこにでもありそうな日本の小さな町。神社や学校、商店街に映画館。穏やかな日常が流れている。\n\n"
    "6-11 (喫茶店 店内) に到着しました。\n\n"
    "現在時刻: 2026-04-18 15:02 (Asia/Tokyo)\n天気: くもり 18℃\n現在地: 6-11 (喫茶店 店内)\n"
    "近くのノード: 7-11(喫茶店 入口), 4-11, 6-13, 9-11(床屋 入口), 10-11(床屋 店内)\n"
    "近くのエージェント: 3 人\n近くのNPC: おまわりさん@8-13\n近くの会話: なし\nサーバーイベント: なし\n"
    "所持金: 10,000円\n所持品: 5 個\n\n選択肢:\n"
    "- action: コーヒーを飲む (action_id: drink-coffee, 3600秒, 450円) - 喫茶店「さくら」\n"
    "- move: ノードIDを指定して移動する (target_node_id: ノードID)\n"
    "- wait: その場で待機する (duration: 1〜6、10分単位)\n\n"
    "karakuri-world スキルで次の行動を選択してください。"
)
DEMO04 = "🔔 桜草メイ が話しかけています。「ニケちゃん、今ちょっといい？」 notification_id: notif-demo04"


def rule(rule_id, *conditions, priority=600, duration=3):
    return {"id": rule_id, "when": {"type": "notification", "types": ["*"]}, "priority": priority,
            "conditions": [{"fact": f, "operator": o, "value": v} for f, o, v in conditions],
            "then": [{"type": "choose", "command": "wait", "params": {"duration": duration}}]}


def pack_with(tmp_path, *rules):
    from karakuri_agent.voice.persona_pack import PACK_FILE, bundled_pack_dir

    pack = tmp_path / "pack"
    pack.mkdir(exist_ok=True)
    (pack / PACK_FILE).write_bytes((bundled_pack_dir() / PACK_FILE).read_bytes())
    (pack / "behaviour.json").write_text(json.dumps({"rules": list(rules)}, ensure_ascii=False), encoding="utf-8")
    return pack


def fixtures_with(tmp_path, text):
    """The bundled session with notif-demo01's text replaced by `text`."""
    from karakuri_agent.app.fixtures import bundled_fixtures_dir

    fixtures = tmp_path / "fixtures"
    shutil.copytree(bundled_fixtures_dir(), fixtures)
    path = fixtures / "notifications" / "notif-demo01.json"
    recorded = json.loads(path.read_text(encoding="utf-8"))
    recorded["body"]["notification"]["text"] = text
    path.write_text(json.dumps(recorded, ensure_ascii=False), encoding="utf-8")
    return fixtures


def explain(home, tmp_path, pack, fixtures, message, *extra):
    code, out, err = run_agent({**home, "KARAKURI_PERSONA_DIR": str(pack)}, "handle", "--explain", "--fixtures",
                               str(fixtures), *extra, cwd=tmp_path, stdin=message)
    assert code == 0, err
    return out


def test_weather_and_money_read_from_a_real_text_make_a_rule_fire(home, tmp_path):
    pack = pack_with(tmp_path, rule("cloudy-tea", ("weather", "eq", "くもり"), ("money", "gte", 10000)),
                     rule("sunny", ("weather", "eq", "はれ"), priority=700))
    out = explain(home, tmp_path, pack, fixtures_with(tmp_path, REAL_TEXT), DEMO01)
    assert "  rule: cloudy-tea" in out and "rule: sunny" not in out
    assert 'decision: wait {"duration": 3}' in out


def test_a_condition_on_a_fact_the_text_does_not_state_is_false_neq_too(home, tmp_path):
    silent = REAL_TEXT.replace("天気: くもり 18℃\n", "")
    pack = pack_with(tmp_path, rule("not-sunny", ("weather", "neq", "はれ")),
                     rule("no-umbrella", ("items", "neq", "傘"), priority=650),  # `所持品: 5 個`: no names
                     rule("poor", ("money", "lt", 100), priority=640))
    out = explain(home, tmp_path, pack, fixtures_with(tmp_path, silent), DEMO01)
    assert "rule: not-sunny" not in out and "rule: no-umbrella" not in out and "rule: poor" not in out
    assert '"duration": 3' not in out


def test_met_holds_once_the_agent_has_talked_with_her(home, tmp_path):
    from karakuri_agent.app.fixtures import bundled_fixtures_dir

    pack = pack_with(tmp_path, rule("friend-nearby", ("met", "contains", "桜草メイ")))
    state = tmp_path / "state"
    before = explain(home, tmp_path, pack, bundled_fixtures_dir(), DEMO01, "--state-dir", str(state))
    assert "rule: friend-nearby" not in before
    explain(home, tmp_path, pack, bundled_fixtures_dir(), DEMO04, "--state-dir", str(state))
    after = explain(home, tmp_path, pack, bundled_fixtures_dir(), DEMO01.replace("01", "14"), "--state-dir", str(state))
    assert "  rule: friend-nearby" in after


def test_the_weather_is_the_sky_of_the_servers_line_never_a_quoted_one():
    assert parse_weather(REAL_TEXT) == "くもり"
    assert parse_weather("天気: はれ 20℃") == "はれ"
    assert parse_weather("天気: 雨") == "雨"
    assert parse_weather(REAL_TEXT.replace("天気: くもり 18℃\n", "")) is None
    assert parse_weather("桜草メイ: 「天気: はれ 20℃」") is None


def test_every_operator_on_an_unknown_fact_is_false():
    for operator in ("eq", "neq", "contains", "gt", "lt", "gte", "lte"):
        assert compare(None, operator, "はれ") is False
    assert compare("くもり", "neq", "はれ") is True and compare((), "neq", "傘") is True


def test_every_store_names_the_people_met_and_not_those_only_seen(tmp_path):
    from datetime import datetime, timezone

    from karakuri_agent.state.memory import MemoryState
    from karakuri_agent.state.sqlite.backend import SQLiteState

    clock = lambda: datetime(2026, 4, 18, 3, 0, tzinfo=timezone.utc)  # noqa: E731
    sqlite = SQLiteState(tmp_path / "state", clock)
    for store in (MemoryState().store, sqlite.store):
        store.see_people([PersonRef("1", "森川ソウ"), PersonRef("2", "桜草メイ")])
        assert store.met_names() == []
        store.touch_person("2", "桜草メイ")
        assert store.met_names() == ["桜草メイ"]
