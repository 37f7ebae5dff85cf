"""End-to-end dry runs over the bundled recorded session (what `karakuri-agent demo` shows)."""

import json

import pytest
from click.testing import CliRunner

from karakuri_agent import report
from karakuri_agent.cli import agent
from karakuri_agent.demo import replay
from karakuri_agent.fixtures import bundled_fixtures_dir

# (command sent or None, report) per recorded message, in order.
EXPECTED = [
    ("action", "からくり: ログイン通知を確認。コンビニでお茶を買う行動を始めました（完了予定 12:25）。"),
    ("get_nearby_agents", "からくり: 行動完了通知を確認。近くにいる人を確かめました。"),
    ("action", "からくり: 到着通知を確認。喫茶店でナポリタンを食べる行動を始めました（完了予定 13:30）。"),
    ("conversation_accept", "からくり: 会話の誘いを確認。桜草メイさんに返事をして会話を始めました。"),
    ("conversation_speak", "からくり: 会話の発言を確認。桜草メイさんに返事をしました。"),
    ("conversation_speak", "からくり: 会話の発言を確認。桜草メイさんに返事をしました。"),
    ("conversation_stay", "からくり: 会話の継続確認を受信。桜草メイさんとの会話を続けることにしました。"),
    ("move", "からくり: 会話終了通知を確認。約束の公民館へ向かいます（到着予定 13:26）。"),
    ("accept_transfer", "からくり: 譲渡の提案を確認。桜草メイさんからの贈り物を受け取りました。"),
    ("reject_transfer", "からくり: 譲渡の提案を確認。Luna☆Botさんからの50,000円の申し出をお断りしました。"),
    ("move", "からくり: 待機の催促を確認。本屋への移動を始めました（到着予定 13:55）。"),
    (None, report.EXPIRED),
    (None, "からくり: 譲渡成立の通知を確認。選択肢がないため、追加操作なし。"),
    ("conversation_accept", "からくり: 新しい通知で会話の誘いを確認。時雨ソラさんに返事をして会話を始めました。"),
    (None, report.PROCESSED),
    (None, report.ALREADY_HANDLED),
    (None, report.NO_ID),
]


@pytest.fixture(scope="module")
def session():
    return list(replay())


def test_the_bundled_session_replays_to_the_expected_decisions(session):
    got = [(r.outcome.command if r.outcome else None, r.report) for _, r in session]
    assert got == EXPECTED


def test_every_decision_in_the_session_carries_a_reason(session):
    assert all(r.decision.reason for _, r in session if r.sent)


def test_the_promise_made_in_conversation_is_kept_by_moving_to_the_hall(session):
    _, kept = session[7]
    assert kept.decision.params == {"target_node_id": "10-16"}
    assert "約束" in kept.decision.reason


def test_a_place_just_visited_is_not_chosen_again(session):
    move_targets = [r.decision.params["target_node_id"] for _, r in session if r.sent and r.outcome.command == "move"]
    assert len(move_targets) == len(set(move_targets))


def test_own_lines_in_the_conversation_are_all_different(session):
    lines = [r.decision.params["message"] for _, r in session[3:6]]
    assert len(set(lines)) == 3


def test_the_reply_agrees_to_the_meeting_with_its_time(session):
    _, agreed = session[5]
    assert "13:30" in agreed.decision.params["message"]


def test_every_bundled_notification_answer_is_a_recorded_exchange():
    for path in (bundled_fixtures_dir() / "notifications").glob("*.json"):
        exchange = json.loads(path.read_text(encoding="utf-8"))
        assert exchange["status"] == 200 and exchange["body"]["notification_id"] == path.stem


def test_demo_command_prints_each_decision_with_reason_and_report():
    result = CliRunner().invoke(agent, ["demo"])
    assert result.exit_code == 0
    out = result.stdout
    assert out.count("からくり: ") == len(EXPECTED)
    assert out.count("  reason: ") >= 11


def test_demo_json_is_one_record_per_message():
    result = CliRunner().invoke(agent, ["demo", "--json"])
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["report"] for r in records] == [e[1] for e in EXPECTED]
