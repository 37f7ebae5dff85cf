"""karakuri-agent handle: one message in, at most one command out, one report line."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import httpx
import pytest
import respx
from click.testing import CliRunner

from karakuri_agent.report import line as report
from karakuri_agent.app.cli import agent
from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import handle

from testing.samples import API_KEY, BASE_URL, BODY, GET_URL, NID, POST_URL, WEBHOOK_URL, state_files_text

MEI = "1474403124906295517"


def posts(mock: respx.MockRouter) -> list[dict]:
    return [json.loads(c.request.content) for c in mock.calls if c.request.method == "POST"
            and c.request.url.path.endswith("/agents/command")]


def run(body=BODY, **kwargs):
    return handle(body, load_settings(), **kwargs)


def test_conversation_request_is_accepted_with_a_real_line(any_backend, api):
    result = run()
    [sent] = posts(api)
    assert sent["command"] == "conversation_accept" and sent["notification_id"] == NID
    message = sent["params"]["message"]
    assert 0 < len(message) <= 200 and "メイ" in message
    assert result.report == "からくり: 会話の誘いを確認。桜草メイさんに返事をして会話を始めました。"


def test_message_without_id_sends_nothing_and_says_so(env):
    with respx.mock(assert_all_called=False) as mock:
        result = run("ログアウトが完了しました。おやすみなさい。")
        assert mock.calls.call_count == 0
    assert result.report == report.NO_ID and not result.sent


def test_conversation_turn_speaks_to_the_last_speaker(env, notification):
    notification["notification"].update(
        type="conversation_message",
        conversation_messages=[{"speaker": "桜草メイ", "message": "コンビニ行く？おにぎり2個で300円だよ。"}],
        choices=[{"command": "conversation_speak", "required_params": ["message", "next_speaker_agent_id"],
                  "param_schema": {"message": {"type": "string", "maxLength": 60},
                                   "next_speaker_agent_id": {"type": "string", "enum": [MEI]}}},
                 {"command": "end_conversation", "required_params": ["message", "next_speaker_agent_id"]}])
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).respond(200, json={"ok": True})
        run()
    sent = json.loads(post.calls.last.request.content)
    assert sent["command"] == "conversation_speak"
    assert sent["params"]["next_speaker_agent_id"] == MEI
    assert len(sent["params"]["message"]) <= 60
    assert "おにぎり" in sent["params"]["message"] or "コンビニ" in sent["params"]["message"]


def test_participants_only_in_text_still_give_the_next_speaker(env, notification):
    body = notification["notification"]
    del body["participants"], body["conversation_messages"]
    body.update(type="conversation_message",
                text=f"参加者: 桜草メイ (id: {MEI})、AIニケちゃん (id: 1470446478261747854)\n\n桜草メイ: 「寒いね！」",
                choices=[{"command": "conversation_speak", "required_params": ["message", "next_speaker_agent_id"]}])
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).respond(200, json={"ok": True})
        run()
    assert json.loads(post.calls.last.request.content)["params"]["next_speaker_agent_id"] == MEI


def test_transfer_offer_from_a_stranger_is_rejected_and_from_a_friend_accepted(env, notification):
    body = notification["notification"]
    body.update(type="transfer_requested", text="桜草メイ から popcorn×1 の譲渡提案が届きました。",
                choices=[{"command": "accept_transfer"}, {"command": "reject_transfer"}])
    second = json.loads(json.dumps(notification))
    second["notification_id"] = "notif-second"
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        respx.get(f"{BASE_URL}/agents/notifications/notif-second").respond(200, json=second)
        post = respx.post(POST_URL).respond(200, json={"ok": True})
        assert run().report.endswith("桜草メイさんからの譲渡の申し出をお断りしました。")
        # after a conversation with her she is someone the agent has met
        from karakuri_agent.state.sqlite.db import connect
        from karakuri_agent.state.sqlite.store import SQLiteStore

        conn = connect(load_settings().state_dir)
        SQLiteStore(conn).touch_person(MEI, "桜草メイ")
        conn.close()
        assert run("notification_id: notif-second").report.endswith("桜草メイさんからの贈り物を受け取りました。")
    assert [json.loads(c.request.content)["command"] for c in post.calls] == ["reject_transfer", "accept_transfer"]


@pytest.mark.parametrize(
    "change, expected",
    [
        ({"expires_at": "2020-01-01T00:00:00Z"}, report.EXPIRED),
        ({"status": "processed"}, report.PROCESSED),
    ],
)
def test_expired_or_processed_gets_no_command(any_backend, notification, change, expected):
    notification.update(change)
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).respond(200, json={})
        assert run().report == expected
        assert post.call_count == 0


def test_no_choices_gets_no_command(env, notification):
    notification["notification"]["choices"] = []
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).respond(200, json={})
        assert run().report == "からくり: 会話の誘いを確認。選択肢がないため、追加操作なし。"
        assert post.call_count == 0


@pytest.mark.parametrize("status, body", [
    (409, {"error": "not_your_turn", "message": "no"}),
    (429, {"error": "rate_limited"}),
    (500, {"error": "internal"}),
    (400, {"error": "invalid_request", "field": "message"}),
])
def test_command_error_is_recorded_and_reported_never_retried(any_backend, notification, status, body):
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).respond(status, json=body)
        result = run()
        again = run()
        assert post.call_count == 1
    assert result.report == report.FAILED
    assert again.report == report.ALREADY_HANDLED


def test_unknown_outcome_is_reported_and_never_resent(any_backend, notification):
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).mock(side_effect=httpx.ReadTimeout("no answer"))
        assert run().report == report.UNKNOWN_OUTCOME
        assert run().report == report.ALREADY_HANDLED
        assert post.call_count == 1


def test_get_failure_is_reported_with_exit_0(env):
    with respx.mock:
        respx.get(GET_URL).respond(404, json={"error": "not_found"})
        result = CliRunner().invoke(agent, ["handle", BODY])
    assert result.exit_code == 0 and result.stdout.strip().splitlines()[-1] == report.FAILED


def test_stale_answer_hands_over_to_the_latest_notification_once(env, notification):
    latest = json.loads(json.dumps(notification))
    latest["notification_id"] = "notif-latest"
    stale = {"error": "notification_stale", "details": {"latest_notification_id": "notif-latest"}}
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        respx.get(f"{BASE_URL}/agents/notifications/notif-latest").respond(200, json=latest)
        post = respx.post(POST_URL).mock(side_effect=[httpx.Response(409, json=stale),
                                                      httpx.Response(200, json={"ok": True})])
        result = run()
    sent = [json.loads(c.request.content)["notification_id"] for c in post.calls]
    assert sent == [NID, "notif-latest"]
    assert result.report.startswith("からくり: 新しい通知で")


def test_stale_without_latest_id_sends_nothing_more(env, notification):
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).respond(409, json={"error": "notification_stale"})
        assert run().report == report.STALE
        assert post.call_count == 1


def test_stale_chain_is_followed_only_once(env, notification):
    def stale_to(nid):
        return httpx.Response(409, json={"error": "notification_stale", "details": {"latest_notification_id": nid}})

    later = json.loads(json.dumps(notification))
    later["notification_id"] = "notif-b"
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        respx.get(f"{BASE_URL}/agents/notifications/notif-b").respond(200, json=later)
        post = respx.post(POST_URL).mock(side_effect=[stale_to("notif-b"), stale_to("notif-c")])
        assert run().report == report.STALE
        assert post.call_count == 2


def test_disabled_switch_handles_nothing(env, monkeypatch):
    monkeypatch.setenv("KARAKURI_AGENT_DISABLED", "1")
    with respx.mock(assert_all_called=False) as mock:
        result = run()
        assert mock.calls.call_count == 0
    assert result.report == report.DISABLED


def idle(notification, nid):
    copy = json.loads(json.dumps(notification))
    copy["notification_id"] = nid
    copy["notification"].update(type="idle_reminder_fired", text="現在地: 1-1 (駅 前)", participants=[],
                                choices=[{"command": "move", "param_schema": {"target_node_id": {"type": "string", "enum": ["2-2", "3-3"]}}},
                                         {"command": "wait", "param_schema": {"duration": {"type": "integer", "minimum": 1, "maximum": 6}}}])
    return copy


def test_cooldown_skips_idle_notifications_but_not_requests(env, notification, monkeypatch):
    monkeypatch.setenv("KARAKURI_COOLDOWN_SECONDS", "600")
    with respx.mock:
        for nid in ("notif-i1", "notif-i2"):
            respx.get(f"{BASE_URL}/agents/notifications/{nid}").respond(200, json=idle(notification, nid))
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).respond(200, json={"ok": True})
        assert run("notification_id: notif-i1").sent
        skipped = run("notification_id: notif-i2")
        assert skipped.report == "からくり: 待機の催促を確認。少し間を置くため、追加操作なし。"
        assert run().sent  # a conversation request inside the window is still answered
        assert [json.loads(c.request.content)["notification_id"] for c in post.calls] == ["notif-i1", NID]


def test_idle_reminder_moves_rather_than_waits(env, notification):
    with respx.mock:
        respx.get(f"{BASE_URL}/agents/notifications/notif-i1").respond(200, json=idle(notification, "notif-i1"))
        post = respx.post(POST_URL).respond(200, json={"ok": True, "arrives_at": 1764418200000})
        result = run("notification_id: notif-i1")
    assert json.loads(post.calls.last.request.content)["command"] == "move"
    assert result.decision.reason


def test_invalid_proposal_falls_back_to_the_next_choice(env, notification):
    bad = idle(notification, "notif-i1")
    bad["notification"]["choices"][0]["param_schema"]["target_node_id"]["maxLength"] = 1  # no node fits
    with respx.mock:
        respx.get(f"{BASE_URL}/agents/notifications/notif-i1").respond(200, json=bad)
        post = respx.post(POST_URL).respond(200, json={"ok": True})
        result = run("notification_id: notif-i1")
    assert json.loads(post.calls.last.request.content)["command"] == "wait"
    assert result.rejected and result.rejected[0]["command"] == "move"


def test_dry_run_decides_but_sends_nothing(env, api):
    result = run(dry_run=True)
    assert posts(api) == [] and result.decision.command == "conversation_accept"
    assert result.report == "からくり: 会話の誘いを確認。桜草メイさんに返事をして会話を始める予定です（ドライラン）。"
    assert run().sent  # the notification was not spent by the dry run


def test_webhook_gets_the_report_with_mentions_disabled(env, api, monkeypatch):
    import requests  # discord-webhook sends with requests, which respx does not see

    monkeypatch.setenv("DISCORD_WEBHOOK_URL", WEBHOOK_URL)
    wire: list[requests.PreparedRequest] = []  # the request exactly as it would leave the machine

    def answer_204(adapter, request, **kwargs):
        wire.append(request)
        response = requests.Response()
        response.status_code, response._content, response.request, response.url = 204, b"", request, request.url
        return response

    monkeypatch.setattr("requests.adapters.HTTPAdapter.send", answer_204)
    result = run()
    [request] = wire
    assert request.method == "POST" and request.url.split("?")[0] == WEBHOOK_URL
    body = json.loads(request.body)  # the library adds fields of its own (embeds, wait...): not ours to pin
    assert body["content"] == result.report and body["allowed_mentions"] == {"parse": []}
    assert result.webhook.delivered


def test_webhook_failure_does_not_change_the_action_record(env, api, monkeypatch):
    monkeypatch.setenv("DISCORD_WEBHOOK_URL", WEBHOOK_URL)

    def boom(url, line, timeout):
        raise OSError("unreachable")

    monkeypatch.setattr("karakuri_agent.report.line._send_with_discord_webhook", boom)
    monkeypatch.setenv("KARAKURI_WEBHOOK_BUDGET", "0")
    result = run()
    assert result.sent and result.outcome.success and not result.webhook.delivered


def test_cli_prints_the_report_last_and_explains(env, api):
    result = CliRunner().invoke(agent, ["handle", "--explain", BODY])
    lines = result.stdout.strip().splitlines()
    assert result.exit_code == 0
    assert lines[-1] == "からくり: 会話の誘いを確認。桜草メイさんに返事をして会話を始めました。"
    assert any(line.startswith("  reason: ") for line in lines)


def test_cli_reads_the_body_from_stdin_and_prints_json(env, api):
    result = CliRunner().invoke(agent, ["handle", "--json"], input=BODY)
    record = json.loads(result.stdout.strip().splitlines()[-1])
    assert record["notification_id"] == NID and record["sent"] is True
    assert record["decision"]["command"] == "conversation_accept"


def test_cli_bad_id_and_missing_configuration_exit_2(env, monkeypatch):
    assert CliRunner().invoke(agent, ["handle", "notification_id: notif-../x"]).exit_code == 2
    monkeypatch.delenv("KARAKURI_API_BASE_URL")
    result = CliRunner().invoke(agent, ["handle", BODY])
    assert result.exit_code == 2 and "KARAKURI_API_BASE_URL" in result.stderr


def test_log_shows_what_was_done(any_backend, api):
    run()
    out = CliRunner().invoke(agent, ["log"]).stdout
    assert "conversation_accept" in out and "received conversation_requested" in out


def test_reasons_are_stored_with_the_activity(any_backend, api):
    result = run()
    entries = json.loads(CliRunner().invoke(agent, ["log", "--json"]).stdout)
    commands = [entry for entry in entries if entry["kind"] == "command"]
    # The reason the decision gave is the one kept, and it says who the agent answered.
    assert commands[-1]["reason"] == result.decision.reason and "桜草メイ" in commands[-1]["reason"]


def test_record_saves_fixtures_without_secrets(env, api, tmp_path, monkeypatch):
    monkeypatch.setenv("DISCORD_WEBHOOK_URL", WEBHOOK_URL)
    monkeypatch.setattr("karakuri_agent.report.line._send_with_discord_webhook", lambda *a: (204, {}))
    from karakuri_agent.app.recording import Recorder

    recorded = tmp_path / "recorded"
    recorder = Recorder(recorded, load_settings().secrets)
    recorder.check()
    result = run(transport=recorder.transport())
    assert result.sent and recorder.save(BODY, datetime.now(timezone.utc), {"id": "1", "name": "me"}) == []
    files = sorted(p.relative_to(recorded).as_posix() for p in recorded.rglob("*.json"))
    assert files == [f"commands/{NID}.json", f"notifications/{NID}.json", "session.json"]
    text = "".join(p.read_text() for p in recorded.rglob("*.json"))
    assert API_KEY not in text and WEBHOOK_URL not in text
    assert API_KEY not in state_files_text(load_settings().state_dir)


def test_only_this_conversations_lines_count_as_turns():
    from karakuri_agent.memory.context import this_conversation

    now = datetime(2026, 4, 18, 12, 0, tzinfo=timezone.utc)

    def line(message, minutes_ago):
        return {"message": message, "created_at": (now - timedelta(minutes=minutes_ago)).isoformat()}

    lines = [line("c", 2), line("b", 12), line("a", 20), line("yesterday", 60 * 24)]
    assert this_conversation(lines, now) == ["c", "b", "a"]
    assert this_conversation([line("old", 45)], now) == []
    opened = [line("c", 2), {**line("b", 12), "opens": 1}, line("earlier talk", 20)]
    assert this_conversation(opened, now) == ["c", "b"]


def test_refusing_a_strangers_gift_does_not_make_them_someone_met(env, notification):
    notification["notification"].update(type="transfer_requested",
                                        participants=[{"id": "1490011223344556677", "name": "Luna☆Bot"}],
                                        text="Luna☆Bot から tea×2 の譲渡提案が届きました。",
                                        choices=[{"command": "accept_transfer"}, {"command": "reject_transfer"}])
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        respx.post(POST_URL).respond(200, json={"ok": True})
        assert run().report.endswith("Luna☆Botさんからの譲渡の申し出をお断りしました。")
    from karakuri_agent.state.sqlite.db import connect
    from karakuri_agent.state.sqlite.store import SQLiteStore

    conn = connect(load_settings().state_dir)
    assert [p.interactions for p in SQLiteStore(conn).people(["1490011223344556677"])] == [0]
    conn.close()


def test_old_unkept_promises_do_not_crowd_out_the_current_one(env, notification):
    from karakuri_agent.state.sqlite.db import connect
    from karakuri_agent.state.sqlite.store import SQLiteStore

    now = datetime.now(timezone.utc)
    conn = connect(load_settings().state_dir)
    store = SQLiteStore(conn)
    for i in range(60):  # a year of promises never kept
        store.add_commitment(f"notif-old{i}", {"partner_id": MEI, "partner_name": "桜草メイ", "place_name": "駅",
                                               "due_at": (now - timedelta(days=300 - i)).isoformat(),
                                               "source_text": f"old {i}"})
    store.add_commitment("notif-new", {"partner_id": MEI, "partner_name": "桜草メイ", "place_name": "図書館",
                                       "node_id": "2-2", "due_at": (now + timedelta(minutes=20)).isoformat(),
                                       "source_text": "図書館で会おう"})
    conn.close()
    move = idle(notification, "notif-i1")
    move["created_at"] = now.isoformat()  # the world's now: the new promise is due in 20 minutes
    move["notification"]["choices"][0]["param_schema"]["target_node_id"]["enum"] = ["2-2", "3-3"]
    with respx.mock:
        respx.get(f"{BASE_URL}/agents/notifications/notif-i1").respond(200, json=move)
        respx.post(POST_URL).respond(200, json={"ok": True})
        result = run("notification_id: notif-i1")
    assert result.decision.params == {"target_node_id": "2-2"}
    conn = connect(load_settings().state_dir)
    status = conn.execute("SELECT status FROM commitments WHERE notification_id = 'notif-new'").fetchone()[0]
    conn.close()
    assert status == "fulfilled"


def test_a_recorded_run_replays_as_a_demo_with_the_same_decision(env, api, tmp_path):
    recorded = tmp_path / "recorded"
    live = CliRunner().invoke(agent, ["handle", "--json", "--record", str(recorded), BODY])
    assert live.exit_code == 0, live.output
    replayed = CliRunner().invoke(agent, ["demo", "--json", "--fixtures", str(recorded)])
    assert replayed.exit_code == 0, replayed.output
    [first], [again] = [json.loads(line) for line in live.stdout.splitlines()], \
        [json.loads(line) for line in replayed.stdout.splitlines()]
    assert again["decision"]["command"] == first["decision"]["command"] == "conversation_accept"
    assert again["report"] == first["report"]
    session = json.loads((recorded / "session.json").read_text(encoding="utf-8"))
    assert [entry["message"] for entry in session["messages"]] == [BODY]


@pytest.mark.parametrize("body, status", [
    ("ログアウトが完了しました。", None),  # no id
    (BODY, 404),  # the fetch fails
    (BODY, 200),  # decided
], ids=["no-id", "fetch-fails", "decided"])
def test_json_says_dry_run_on_every_path_of_a_dry_run(env, notification, body, status):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(status or 200, json=notification if status == 200 else {"error": "not_found"})
        result = CliRunner().invoke(agent, ["handle", "--dry-run", "--json", body])
        assert not any(call.request.method == "POST" for call in mock.calls)
    record = json.loads(result.stdout)
    assert record["dry_run"] is True and record["sent"] is False
    assert (record["error"] or {}).get("error") == ("not_found" if status == 404 else None)


def test_the_off_switch_is_a_dry_run_too(env, monkeypatch):
    monkeypatch.setenv("KARAKURI_AGENT_DISABLED", "1")
    record = json.loads(CliRunner().invoke(agent, ["handle", "--dry-run", "--json", BODY]).stdout)
    assert record["dry_run"] is True and record["report"] == report.DISABLED


def test_a_webhook_that_fails_says_so_on_stderr(env, api, monkeypatch):
    monkeypatch.setenv("DISCORD_WEBHOOK_URL", WEBHOOK_URL)
    monkeypatch.setattr("karakuri_agent.report.line._send_with_discord_webhook", lambda *a: (404, {}))
    result = CliRunner().invoke(agent, ["handle", BODY])
    # The command was sent and reported although the post failed.
    assert result.exit_code == 0 and "桜草メイさんに返事をして" in result.stdout.strip().splitlines()[-1]
    [line] = result.stderr.splitlines()
    assert line.startswith("karakuri-agent: webhook_failed:") and "HTTP 404" in line
    assert WEBHOOK_URL not in result.stderr


def test_at_is_refused_outside_a_fixture_run(env):
    with respx.mock(assert_all_called=False) as mock:
        result = CliRunner().invoke(agent, ["handle", "--at", "2026-04-18T03:10:00Z", BODY])
        assert mock.calls.call_count == 0
    assert result.exit_code == 2 and "--at" in result.stderr


def test_a_fixture_run_posts_nothing_even_with_a_webhook_configured(env, monkeypatch):
    monkeypatch.setenv("DISCORD_WEBHOOK_URL", WEBHOOK_URL)
    posted = []
    monkeypatch.setattr("karakuri_agent.report.line._send_with_discord_webhook", lambda *a: posted.append(a) or (204, {}))
    result = CliRunner().invoke(agent, ["handle", "--fixtures", "bundled", "notification_id: notif-demo01"])
    assert result.exit_code == 0 and result.stdout.startswith("からくり: ログイン通知を確認。")
    assert posted == []


@pytest.mark.parametrize("life_seconds, sent", [(120, 2), (10, 1)])
def test_a_command_refused_with_429_waits_as_told_only_within_the_notifications_life(
        env, notification, monkeypatch, life_seconds, sent):
    """The newer API's 429 rate_limited says how long to wait: the command is sent again then (the server did
    not take it), if that is before the notification expires; one claim, one command taken, either way."""
    import time as time_module

    now = datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
    slept: list[float] = []
    monkeypatch.setattr(time_module, "sleep", slept.append)
    notification["expires_at"] = (now + timedelta(seconds=life_seconds)).isoformat()
    limited = {"error": "rate_limited", "message": "Too many requests.", "details": {"retry_after_seconds": 7}}
    with respx.mock:
        respx.get(GET_URL).respond(200, json=notification)
        post = respx.post(POST_URL).mock(side_effect=[httpx.Response(429, json=limited),
                                                      httpx.Response(200, json={"ok": True})])
        result = run(clock=lambda: now)
    assert post.call_count == sent and slept == [7.0] * (sent - 1)
    assert {json.loads(c.request.content)["notification_id"] for c in post.calls} == {NID}
    assert result.sent if sent == 2 else (not result.outcome.success and "rate_limited" in result.report + str(result.error))
