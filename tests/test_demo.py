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


def test_a_recorded_answer_is_served_only_to_the_command_it_answered():
    """A move's recorded arrival time must not become the answer to a conversation_start."""
    import httpx

    from karakuri_agent.fixtures import GENERIC_ACCEPTANCE, FixtureTransport

    directory = bundled_fixtures_dir()
    recorded = json.loads((directory / "commands" / "notif-demo08.json").read_text(encoding="utf-8"))
    with httpx.Client(transport=FixtureTransport(directory), base_url="http://fixtures.invalid/api/") as client:
        def send(command):
            return client.post("agents/command", json={"notification_id": "notif-demo08", "command": command,
                                                       "params": {}}).json()

        assert send(recorded["command"]) == recorded["body"]
        assert send("conversation_start") == GENERIC_ACCEPTANCE
        assert send("get_perception") == {"command": "get_perception", "data": {}}


def test_every_recorded_command_answer_names_its_command():
    for path in (bundled_fixtures_dir() / "commands").glob("*.json"):
        exchange = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(exchange["command"], str) and exchange["command"], path.name


def test_demo_on_a_missing_session_refuses_in_one_line(tmp_path):
    result = CliRunner().invoke(agent, ["demo", "--fixtures", str(tmp_path / "nowhere")])
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "does not exist" in result.stderr
