"""The one-line report (CONTRACT §5) and the webhook post."""

import re

import pytest

from testing.samples import CONVERSATION_REQUEST
from testing.loopback import running_api
from testing.runs import agent_env, run_handle
from karakuri_agent.report import line as report
from karakuri_agent.app.config import load_settings
from karakuri_agent.errors import ConfigError

NID = CONVERSATION_REQUEST["notification_id"]

FORBIDDEN = ["WorkflowReport", "MCP", "hook", "DB", "Supabase", "activity log", "API", "マスター", "notif-", "\n"]


def all_reports():
    lines = [report.NO_ID, report.DISABLED, report.PROCESSED, report.EXPIRED, report.ALREADY_HANDLED,
             report.FAILED, report.UNKNOWN_OUTCOME, report.STALE]
    for kind in list(report.SUMMARIES) + ["something_new"]:
        lines.append(report.idle_report(kind))
        lines.append(report.idle_report(kind, why=report.NO_CHOICES))
        lines.append(report.idle_report(kind, why=report.COOLING_DOWN))
        for command in list(report.ACTIONS) + ["unknown_command"]:
            lines.append(report.action_report(kind, command, {"completes_at": 1764418800000}))
            lines.append(report.action_report(kind, command, {}, newer=True))
            lines.append(report.planned_report(kind, command))
    return lines


# Names as the server or people could send them, including ones that must never be shown.
HOSTILE_NAMES = ["@everyone", "notif-01JDX9", "6-11", "1474403124906295517", "drink-coffee", "API",
                 "マスター", "DBの人", "hook", "桜草\nメイ", "<@123>", "https://x.test", "- 箇条", "本屋。次", "a" * 40]


def test_every_report_with_hostile_names_still_keeps_the_contract():
    for name in HOSTILE_NAMES:
        facts = report.ReportFacts(place=name, action=name, partner=name, item=name)
        for command in list(report.ACTIONS) + ["unknown_command"]:
            for line in (report.action_report("x", command, {}, facts=facts),
                         report.planned_report("x", command, facts)):
                assert re.fullmatch(r"からくり: [^\n]+。[^\n]*。", line), line
                assert name not in line, line
                assert not [w for w in FORBIDDEN if w in line], line


@pytest.mark.parametrize("command, facts, result, expected", [
    ("move", report.ReportFacts(place="本屋 店内"), {"arrives_at": "2026-11-29T12:40:00Z"},
     "本屋への移動を始めました（到着予定 21:40）"),
    ("action", report.ReportFacts(place="コンビニ", action="お茶を買う"), {"completes_at": "2026-11-29T03:25:00Z"},
     "コンビニでお茶を買う行動を始めました（完了予定 12:25）"),
    ("accept_transfer", report.ReportFacts(partner="桜草メイ", item="ポップコーン"), {},
     "桜草メイさんからポップコーンを受け取りました"),
    ("transfer_accept", report.ReportFacts(partner="黒瀬コウ", item="300円"), {}, "黒瀬コウさんから300円を受け取りました"),
    ("move", report.ReportFacts(place="公民館", promise=True), {}, "約束の公民館へ向かいます"),
    ("conversation_speak", report.ReportFacts(partner="桜草メイ"), {}, "桜草メイさんに返事をしました"),
    ("conversation_start", report.ReportFacts(partner="AIニケちゃん"), {}, "AIニケちゃんに話しかけました"),
    ("wait", report.ReportFacts(place="図書館", partner="桜草メイ", promise=True), {},
     "約束の図書館で桜草メイさんを待つことにしました"),
    ("reject_transfer", report.ReportFacts(partner="Luna☆Bot", item="50,000円"), {},
     "Luna☆Botさんからの50,000円の申し出をお断りしました"),
    # A name with its own brackets keeps them whole; brackets around a name go.
    ("move", report.ReportFacts(place="本屋「栞」"), {}, "本屋「栞」への移動を始めました"),
    ("move", report.ReportFacts(place="喫茶店「さくら」 店内"), {}, "喫茶店「さくら」への移動を始めました"),
    ("move", report.ReportFacts(place="「栞」"), {}, "栞への移動を始めました"),
    ("move", report.ReportFacts(place="栞」"), {}, "栞への移動を始めました"),
    ("accept_transfer", report.ReportFacts(partner="『桜草メイ』", item="「特製」パン"), {},
     "桜草メイさんから「特製」パンを受け取りました"),
])
def test_reports_name_the_place_action_partner_item_and_promise(command, facts, result, expected):
    assert report.action_report("idle_reminder_fired", command, result, facts=facts) == (
        f"からくり: 待機の催促を確認。{expected}。")


@pytest.mark.parametrize("command, facts, generic", [
    ("move", report.ReportFacts(place="6-11"), "移動を始めました"),
    ("action", report.ReportFacts(action="drink-coffee"), "その場の行動を始めました"),
    ("accept_transfer", report.ReportFacts(partner="1474403124906295517", item="popcorn"), "譲渡を受け取りました"),
    ("accept_transfer", report.ReportFacts(partner="桜草メイ", item="popcorn"), "桜草メイさんからの贈り物を受け取りました"),
    ("conversation_speak", report.ReportFacts(), "会話で返事をしました"),
])
def test_without_a_name_a_report_says_it_generically_never_with_an_id(command, facts, generic):
    assert report.action_report("x", command, {}, facts=facts).endswith(f"。{generic}。")


def test_a_plain_ascii_word_is_a_persons_name_but_a_things_id():
    facts = report.ReportFacts(partner="Bob", item="tea")
    assert report.action_report("x", "accept_transfer", {}, facts=facts).endswith("。Bobさんからの贈り物を受け取りました。")


def test_an_idle_reminder_is_reported_as_a_nudge_to_stop_waiting():
    assert report.idle_report("idle_reminder_fired") == "からくり: 待機の催促を確認。追加操作なし。"


def test_every_report_is_one_line_in_the_contract_format():
    for line in all_reports():
        assert re.fullmatch(r"からくり: [^\n]+。[^\n]*。", line), line


@pytest.mark.parametrize("word", FORBIDDEN)
def test_no_report_contains_a_forbidden_word(word):
    assert not [line for line in all_reports() if word in line]


def test_no_report_is_a_bullet_list_or_mentions_a_second_try():
    for line in all_reports():
        assert line.startswith(report.PREFIX), line
        assert not line.removeprefix(report.PREFIX).lstrip().startswith(("-", "・", "*")), line
        assert "再試行" not in line and "もう一度" not in line


def test_completion_and_arrival_times_are_shown_in_tokyo_time():
    # 2025-11-29T12:10:00Z is 21:10 in Tokyo
    assert report.action_report("idle_reminder_fired", "move", {"arrives_at": 1764418200000}).endswith(
        "移動を始めました（到着予定 21:10）。")
    assert "（完了予定 21:20）" in report.action_report("x", "action", {"completes_at": "2025-11-29T12:20:00Z"})
    assert "予定" not in report.action_report("x", "action", {"completes_at": "soon"})


def test_webhook_payload_disables_every_mention():
    payload = report.webhook_payload("からくり: @everyone テスト。追加操作なし。")
    assert payload["allowed_mentions"] == {"parse": []}


def test_webhook_retries_429_with_retry_after_then_succeeds():
    answers = iter([(429, {"retry_after": 0.2}), (204, {})])
    slept = []
    result = report.post_to_discord("https://discord.test/x", "line", sleep=slept.append,
                                    send=lambda url, line, timeout: next(answers))
    assert result.delivered and result.attempts == 2 and slept == [0.2]


def test_webhook_gives_up_within_its_budget():
    calls = []

    def send(url, line, timeout):
        calls.append(timeout)
        return 429, {"retry_after": 60}

    result = report.post_to_discord("https://discord.test/x", "line", budget=5, sleep=lambda s: None, send=send)
    assert not result.delivered and len(calls) == 1


def test_webhook_failures_never_raise():
    def send(url, line, timeout):
        raise ConnectionError("unreachable")

    result = report.post_to_discord("https://discord.test/x", "line", sleep=lambda s: None, send=send)
    assert not result.delivered and result.attempts == 3


def test_webhook_4xx_is_not_retried():
    calls = []
    result = report.post_to_discord("https://discord.test/x", "line", sleep=lambda s: None,
                                    send=lambda u, l, t: calls.append(1) or (404, {}))
    assert not result.delivered and len(calls) == 1


# -- where reports may be posted (CONTRACT §6) ----------------------------------------
@pytest.mark.parametrize("url", [
    "https://discord.com/api/webhooks/1/token",
    "http://127.0.0.1:8080/relay",
    "http://127.3.4.5/relay",
    "http://localhost:9000/hook",
    "http://LOCALHOST/hook",
    "http://[::1]:9000/hook",
])
def test_webhook_url_https_or_loopback_http_is_accepted(env, monkeypatch, url):
    monkeypatch.setenv("DISCORD_WEBHOOK_URL", url)
    assert load_settings().webhook_url.get() == url


@pytest.mark.parametrize("url", [
    "http://discord.com/api/webhooks/1/token",
    "http://10.0.0.1/relay",
    "http://0.0.0.0/relay",
    "http://localhost.example.com/hook",
    "http://127.0.0.1.example.com/hook",
    "http://127.0.0.1@example.com/hook",
    "http://[::2]/hook",
    "http://[::1/hook",
    "ftp://127.0.0.1/hook",
    "127.0.0.1:8080/hook",
    # https, but no host to post to
    "https://:443/api/webhooks/1/token",
    "https:///api/webhooks/1/token",
    "https://[discord.com/api/webhooks/1/token",
])
def test_webhook_url_plain_http_elsewhere_is_a_configuration_error(env, monkeypatch, url):
    monkeypatch.setenv("DISCORD_WEBHOOK_URL", url)
    with pytest.raises(ConfigError, match="DISCORD_WEBHOOK_URL") as raised:
        load_settings()
    assert url not in str(raised.value)  # the URL is a secret: never echoed


@pytest.mark.process
def test_handle_process_posts_its_report_to_a_loopback_webhook(tmp_path):
    with running_api() as api, running_api() as relay:
        api.notifications[NID] = CONVERSATION_REQUEST
        env = agent_env(api, tmp_path,
                        DISCORD_WEBHOOK_URL=f"http://127.0.0.1:{relay.server.server_port}/api/webhooks/1/token")
        done = run_handle(env, f"notification_id: {NID}", tmp_path)
    assert done.returncode == 0, done.stderr
    line = done.stdout.strip().splitlines()[-1]
    assert [p.get("content") for p in relay.posts] == [line]
    assert relay.posts[0]["allowed_mentions"] == {"parse": []}
    assert len(api.posts) == 1
