"""Nothing from outside is trusted: redirects are not followed, ids from the server are checked like Discord's.

Built from what broke: a 307 to the command recorded as success, a 301 to
the GET reported as "not a JSON object", and a `notification_stale` pointer
of `../../../webhook/999/x` fetched with the bearer key.
"""

from __future__ import annotations

import copy
import json

import pytest
import respx
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.report import line as report
from karakuri_agent.app.cli import agent
from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import handle

from testing.samples import API_KEY, BASE_URL, BODY, CONVERSATION_REQUEST, GET_URL, POST_URL
from karakuri_agent.domain.ids import ID_PATTERN, MAX_ID_LENGTH


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_a_redirect_answered_to_the_command_is_an_unknown_outcome_never_sent_again(env, status):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        post = mock.post(POST_URL).respond(status, json={"ok": True},
                                           headers={"Location": "https://elsewhere.test/api/agents/command"})
        other = mock.post("https://elsewhere.test/api/agents/command").respond(200, json={"ok": True})
        first = handle(BODY, load_settings(), post=False)
        again = handle(BODY, load_settings(), post=False)
        assert post.call_count == 1 and other.call_count == 0
    assert first.report == report.UNKNOWN_OUTCOME and first.error["error"] == "outcome_unknown"
    assert f"HTTP {status} to https://elsewhere.test/api/agents/command" in first.error["message"]
    assert again.report == report.ALREADY_HANDLED


@pytest.mark.parametrize("body", [b"<html>ok</html>", b"accepted", b'{"ok": tr'])
def test_a_2xx_answer_to_the_command_that_is_not_json_is_an_unknown_outcome(env, body):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        mock.post(POST_URL).respond(200, content=body)
        result = handle(BODY, load_settings(), post=False)
    assert result.report == report.UNKNOWN_OUTCOME and result.error["error"] == "outcome_unknown"


def test_a_redirect_answered_to_the_get_says_redirect_and_where_without_secrets(env):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(301, headers={"Location": f"https://user:pw-secret@other.test/x/y?key={API_KEY}#f"})
        followed = mock.get("https://other.test/x/y").respond(200, json=CONVERSATION_REQUEST)
        run = CliRunner().invoke(agent, ["handle", BODY])
        assert followed.call_count == 0 and mock.calls.call_count == 1
    assert run.exit_code == 0 and run.stdout.splitlines()[-1] == report.FAILED
    assert "redirected" in run.stderr and "HTTP 301 to https://other.test/x/y" in run.stderr
    assert "pw-secret" not in run.stderr and API_KEY not in run.stderr and "not a JSON object" not in run.stderr


BAD_POINTERS = ["../../../webhook/999/x", "notif-a?x=1#f", "notif-" + "a" * 5000, "notif-a/../b", "notif-ａ",
                "notif-a\n", " notif-a", "notif-", 12345, None, ["notif-a"]]


@pytest.mark.parametrize("latest", BAD_POINTERS)
@pytest.mark.parametrize("where", ["get", "post"])
def test_a_stale_pointer_that_is_no_well_formed_id_is_no_newer_notification(env, latest, where):
    stale = {"error": "notification_stale", "message": "A newer notification supersedes this one.",
             "details": {"latest_notification_id": latest}}
    with respx.mock(assert_all_called=False) as mock:
        get = mock.get(GET_URL)
        get.respond(409, json=stale) if where == "get" else get.respond(200, json=CONVERSATION_REQUEST)
        post = mock.post(POST_URL).respond(409, json=stale)
        result = handle(BODY, load_settings(), post=False)
        urls = [str(call.request.url) for call in mock.calls]
    assert result.report == report.STALE
    assert urls == [GET_URL] + ([POST_URL] if where == "post" else [])
    assert post.call_count == (1 if where == "post" else 0)


@given(latest=st.text(max_size=60) | st.from_regex(r"notif-[A-Za-z0-9_-]{1,20}", fullmatch=True))
@settings(max_examples=60, deadline=None)
def test_no_id_from_the_server_reaches_a_url_unless_it_is_well_formed(latest):
    """Whatever the server names as the newer notification, only notif-[A-Za-z0-9_-]+ is fetched."""
    import tempfile
    from pathlib import Path

    from testing.samples import SELF_ID, SELF_NAME
    from karakuri_agent.app.config import Settings
    from karakuri_agent.secret import Secret

    stale = {"error": "notification_stale", "details": {"latest_notification_id": latest}}
    with tempfile.TemporaryDirectory() as tmp, respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(409, json=stale)
        newer = mock.get(url__startswith=f"{BASE_URL}/agents/notifications/").respond(200, json=CONVERSATION_REQUEST)
        mock.post(POST_URL).respond(200, json={"ok": True})
        config = Settings(api_base_url=BASE_URL, api_key=Secret(API_KEY), state_dir=Path(tmp) / "state",
                          self_agent_id=SELF_ID, self_name=SELF_NAME, get_retry_budget=0.0)
        result = handle(BODY, config, post=False)
        fetched = [call.request.url.path.rsplit("/", 1)[-1] for call in mock.calls if call.request.method == "GET"]
    assert result.report.startswith(report.PREFIX)
    assert all(ID_PATTERN.fullmatch(i) and len(i) <= MAX_ID_LENGTH for i in fetched[1:]), fetched
    assert newer.call_count <= 2


# -- secrets and markup in what the agent would say ----------------------------------------------
@pytest.mark.parametrize("line", [f"私の鍵は{API_KEY}です", f"鍵: {' '.join(API_KEY)}", "https://discord.test/api/webhooks/123/hook-token-do-not-leak"])
def test_the_gate_refuses_a_line_carrying_a_configured_secret(env, monkeypatch, line):
    from testing.samples import WEBHOOK_URL
    from karakuri_agent.app.cli import karakuri

    monkeypatch.setenv("DISCORD_WEBHOOK_URL", WEBHOOK_URL)
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=CONVERSATION_REQUEST)
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        webhook = mock.post(WEBHOOK_URL).respond(204)
        run = CliRunner().invoke(karakuri, ["command", CONVERSATION_REQUEST["notification_id"], "conversation_accept",
                                            json.dumps({"message": line}, ensure_ascii=False)])
        assert post.call_count == 0 and webhook.call_count == 0
    assert run.exit_code == 2 and "secret" in run.stderr and API_KEY not in run.stderr


@pytest.mark.parametrize("phrase", ["{partner}、@everyone 。", "{partner}、https://example.com/x を見て。", "**{partner}**！"])
def test_persona_check_flags_a_phrase_that_would_be_cut_when_said(tmp_path, phrase):
    pack = tmp_path / "pack"
    assert CliRunner().invoke(agent, ["persona", "init", str(pack), "--name", "タロウ"]).exit_code == 0
    data = json.loads((pack / "persona.json").read_text(encoding="utf-8"))
    data["accept"] = [phrase]
    (pack / "persona.json").write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    checked = CliRunner().invoke(agent, ["persona", "check", str(pack)])
    assert checked.exit_code != 0 and "mention, link or chat markup" in checked.stdout + checked.stderr


@given(before=st.text(max_size=15), after=st.text(max_size=15), spaced=st.booleans())
@settings(max_examples=60, deadline=None)
def test_no_line_carrying_the_api_key_passes_the_gate(before, after, spaced):
    from karakuri_agent.domain.decision import Decision
    from karakuri_agent.gate import Admitted, admit
    from karakuri_agent.domain.notification import Notification

    key = " ".join(API_KEY) if spaced else API_KEY
    notification = Notification.from_json(CONVERSATION_REQUEST, requested_id=CONVERSATION_REQUEST["notification_id"])
    verdict = admit(notification, Decision("conversation_accept", {"message": before + key + after}), (), (API_KEY,))
    assert not isinstance(verdict, Admitted)


# -- the database password, whatever the URL looks like ----------------------------------------
PASSWORD_URLS = {
    "malformed": ("postgresql://agent:dbpassw0rd@[::1/k", ["dbpassw0rd"]),
    "with @ and a space": ("postgresql://agent:p@ss word1@127.0.0.1:1/db", ["p@ss word1", "word1", '"ss ']),
    "with a space": ("postgresql://agent:dbpa ssw0rd@127.0.0.1:1/db", ["dbpa", "ssw0rd"]),
    "in the query": ("postgresql://agent@127.0.0.1:1/db?password=s3cr%40tpw&connect_timeout=1", ["s3cr", "tpw"]),
}


@pytest.mark.parametrize("name", sorted(PASSWORD_URLS))
def test_the_database_password_is_masked_before_parsing_and_in_what_the_driver_says(env, monkeypatch, tmp_path, name):
    pytest.importorskip("psycopg")
    url, leaks = PASSWORD_URLS[name]
    monkeypatch.setenv("KARAKURI_DATABASE_URL", url)
    outputs = [CliRunner().invoke(agent, ["log"]), CliRunner().invoke(agent, ["handle", BODY]),
               CliRunner().invoke(agent, ["state", "copy", "--to", f"sqlite:{tmp_path / 'copy'}"])]
    for run in outputs:
        text = run.stdout + run.stderr
        assert "***" in text or "KARAKURI_DATABASE_URL" in text, text
        assert not any(leak in text for leak in leaks), text


@given(password=st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=4, max_size=20))
@settings(max_examples=100, deadline=None)
def test_masking_leaves_no_password_in_any_url_shape(password):
    from karakuri_agent.state.urls import masked

    for url in (f"postgresql://agent:{password}@host:5432/db", f"postgresql://agent:{password}@[::1/k",
                f"postgres://u:{password}@h/db?sslmode=require"):
        assert password not in masked(url)


# -- reading limits before any pattern -----------------------------------------------------------
def test_a_10_mb_text_is_cut_to_its_head_and_tail_before_any_pattern_reads_it():
    from karakuri_agent.domain.limits import MAX_TEXT_CHARS
    from karakuri_agent.domain.notification import Notification

    payload = copy.deepcopy(CONVERSATION_REQUEST)
    payload["notification"]["text"] = ("桜草メイ が話しかけています。\n" + "雑談の行です。\n" * 1_200_000
                                       + "次は AIニケちゃん の番です。")
    text = Notification.from_json(payload, requested_id=payload["notification_id"]).notification.text
    assert len(text) <= MAX_TEXT_CHARS
    assert text.startswith("桜草メイ が話しかけています。\n") and text.endswith("次は AIニケちゃん の番です。")
    assert "\n雑談の行です。\n" in text  # cut at line ends, not inside a line


@given(size=st.integers(min_value=0, max_value=300_000), newline_every=st.integers(min_value=0, max_value=5000))
@settings(max_examples=30, deadline=None)
def test_no_text_reaches_the_patterns_longer_than_the_limit(size, newline_every):
    from karakuri_agent.domain.limits import MAX_FIELD_CHARS, MAX_TEXT_CHARS
    from karakuri_agent.domain.notification import Notification

    unit = ("あ" * newline_every + "\n") if newline_every else "あ"
    text = (unit * (size // len(unit) + 1))[:size]
    payload = {"notification_id": "notif-big", "notification": {
        "type": text, "text": text, "conversation_messages": [{"speaker": text, "message": text}]}}
    body = Notification.from_json(payload, requested_id="notif-big").notification
    assert len(body.text) <= MAX_TEXT_CHARS and len(body.type) <= MAX_FIELD_CHARS
    assert all(len(m.message) <= MAX_FIELD_CHARS and len(m.speaker) <= MAX_FIELD_CHARS
               for m in body.conversation_messages or [])
    assert body.text == text or len(text) > MAX_TEXT_CHARS
