"""The one-line report (CONTRACT §5) and the webhook post."""

import re

import pytest

from karakuri_agent import report

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
