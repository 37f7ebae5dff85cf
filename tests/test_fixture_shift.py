"""`demo --at TIME` and `handle --fixtures … --at TIME` outside the recorded session move it whole (issue 32, item 3)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from karakuri_agent.app.fixture_shift import shift_text, shifted_copy, within_span
from karakuri_agent.app.fixtures import bundled_fixtures_dir, load_session

from testing.runs import DEMO01, run_agent

NIGHT = "2026-04-18T14:00:00Z"  # 23:00 in Tokyo; the bundled session runs 12:10-14:55 Tokyo time
NIGHT_REST = {"rules": [{"id": "night-rest", "when": {"type": "time", "between": ["22:00", "05:00"]}, "priority": 600,
                         "then": [{"type": "choose", "command": "wait", "params": {"duration": 6}}]}]}


def night_pack(tmp_path):
    from karakuri_agent.voice.persona_pack import PACK_FILE, bundled_pack_dir

    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / PACK_FILE).write_bytes((bundled_pack_dir() / PACK_FILE).read_bytes())
    (pack / "behaviour.json").write_text(json.dumps(NIGHT_REST), encoding="utf-8")
    return {"KARAKURI_PERSONA_DIR": str(pack)}


def test_a_night_rule_fires_on_the_bundled_session_moved_to_the_night(home, tmp_path):
    env = {**home, **night_pack(tmp_path)}
    code, out, err = run_agent(env, "demo", "--at", NIGHT, cwd=tmp_path)
    assert code == 0, err
    assert out.count("  rule: night-rest") >= 2
    code, recorded, err = run_agent(env, "demo", cwd=tmp_path)
    assert code == 0 and "rule: night-rest" not in recorded
    assert "tried night-rest: time 12:10 in 22:00-05:00 → false — not wanted" in recorded  # why it did not fire


def test_handle_at_a_time_outside_the_session_runs_the_message_then_inside_keeps_its_meaning(home, tmp_path):
    env = {**home, **night_pack(tmp_path)}
    code, out, err = run_agent(env, "handle", "--explain", "--fixtures", "bundled", "--at", NIGHT,
                               cwd=tmp_path, stdin=DEMO01)
    assert code == 0, err
    assert "  rule: night-rest" in out and 'wait {"duration": 6}' in out
    # README's example: inside the session, --at is still the time of the run, and notif-demo01 has expired.
    code, out, err = run_agent(env, "handle", "--fixtures", "bundled", "--at", "2026-04-18T05:00:00Z",
                               cwd=tmp_path, stdin=DEMO01)
    assert "notification_expired" in err and "night-rest" not in out


def test_the_copy_moves_every_recorded_time_alike_and_leaves_the_recording(tmp_path):
    start = datetime(2026, 4, 18, 14, 0, tzinfo=timezone.utc)
    original = load_session(bundled_fixtures_dir(), required=True)
    copy = shifted_copy(bundled_fixtures_dir(), original, start, tmp_path / "moved")
    session = load_session(copy, required=True)
    offset = start - original.messages[0][0]
    assert [at for at, _ in session.messages] == [at + offset for at, _ in original.messages]
    body = json.loads((copy / "notifications" / "notif-demo01.json").read_text(encoding="utf-8"))["body"]
    assert body["created_at"] == "2026-04-18T13:59:55Z" and body["expires_at"] == "2026-04-18T14:09:55Z"
    assert "2026-04-18 22:59 (Asia/Tokyo)" in body["notification"]["text"]
    kept = json.loads((bundled_fixtures_dir() / "notifications" / "notif-demo01.json").read_text(encoding="utf-8"))
    assert kept["body"]["created_at"] == "2026-04-18T03:10:00Z"
    assert within_span(original, datetime(2026, 4, 18, 5, 0, tzinfo=timezone.utc))
    assert not within_span(original, start) and not within_span(original, start - timedelta(days=1))


def test_only_the_clock_line_of_a_text_moves():
    text = "「現在時刻: 2026-04-18 12:10 だよ」\n現在時刻: 2026-04-18 12:10 (Asia/Tokyo)\n天気: はれ 20℃"
    moved = shift_text(text, timedelta(hours=12))
    assert moved == "「現在時刻: 2026-04-18 12:10 だよ」\n現在時刻: 2026-04-19 00:10 (Asia/Tokyo)\n天気: はれ 20℃"
