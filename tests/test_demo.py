"""End-to-end dry runs over the bundled recorded session (what `karakuri-agent demo` shows)."""

import json

import pytest
from click.testing import CliRunner

from karakuri_agent.report import line as report
from karakuri_agent.app.cli import agent
from karakuri_agent.app.demo import replay
from karakuri_agent.app.fixtures import bundled_fixtures_dir

# Per recorded message, in order: the command it must lead to (None: nothing is sent), words
# its report must carry (the kind of notification, then what was done), and why.
EXPECTED = [
    ("get_nearby_agents", ("ログイン", "近く"), "logged in with people near, none talked with today: find who, to speak first"),
    ("action", ("行動完了", "行動"), "nobody beside it to speak to after all: do what the place offers"),
    ("action", ("到着", "行動"), "arrived somewhere new with actions offered: do what the place offers"),
    ("conversation_accept", ("会話の誘い", "桜草メイさんに返事"), "a known townsperson asks to talk: accept with a line"),
    ("conversation_speak", ("会話の発言", "返事"), "the agent's turn in the conversation: answer"),
    ("conversation_speak", ("会話の発言", "返事"), "a meeting is proposed: answer and agree to it"),
    ("conversation_stay", ("継続確認", "続け"), "asked whether to stay while the talk is still going: stay"),
    ("move", ("会話終了", "約束の公民館へ向かいます"), "the conversation ended with a meeting agreed: go to the meeting place"),
    ("accept_transfer", ("譲渡の提案", "受け取"), "a small gift (one item) from a friend: accept"),
    ("reject_transfer", ("譲渡の提案", "断"), "50,000 yen from a stranger: refuse"),
    ("move", ("待機の催促", "移動"), "idle where it has already acted and talked: move on"),
    (None, ("期限",), "the notification expired before it was read: nothing may be sent"),
    (None, ("譲渡成立", "追加操作なし"), "a notice with no choices: there is nothing to send"),
    ("conversation_accept", ("新しい通知", "会話の誘い"), "the server says a newer notification supersedes: act on it"),
    (None, ("処理済み",), "the server marks it processed: nothing may be sent"),
    (None, ("対応済み",), "the same notification delivered again: one notification, one action"),
    (None, ("通知のない",), "a message without a notification id: nothing to act on"),
]


@pytest.fixture(scope="module")
def session():
    return list(replay())


def test_the_bundled_session_replays_to_the_expected_decisions(session):
    assert len(session) == len(EXPECTED)
    for (_, result), (command, words, why) in zip(session, EXPECTED):
        assert (result.outcome.command if result.outcome else None) == command, why
        assert result.report.startswith(report.PREFIX) and all(w in result.report for w in words), (why, result.report)


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
    # Every message that led to a command shows why; the others have no decision to explain.
    assert out.count("  reason: ") == sum(1 for command, _, _ in EXPECTED if command)


def test_demo_json_is_one_record_per_message(session):
    result = CliRunner().invoke(agent, ["demo", "--json"])
    records = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["report"] for r in records] == [r.report for _, r in session]


def test_a_recorded_answer_is_served_only_to_the_command_it_answered():
    """A move's recorded arrival time must not become the answer to a conversation_start."""
    import httpx

    from karakuri_agent.app.fixtures import GENERIC_ACCEPTANCE, FixtureTransport

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
