"""Retry policy and error mapping of the HTTP client (CONTRACT §4)."""

import httpx
import pytest
import respx

from karakuri_agent.app.client import KarakuriClient
from karakuri_agent.secret import Secret
from karakuri_agent.errors import OutcomeUnknown, ServerRejected, Unreachable

from testing.samples import API_KEY, BASE_URL

GET_URL = f"{BASE_URL}/agents/notifications/notif-1"
POST_URL = f"{BASE_URL}/agents/command"


@pytest.fixture
def slept():
    return []


@pytest.fixture
def client(slept):
    with KarakuriClient(BASE_URL, Secret(API_KEY), sleep=slept.append, get_retry_budget=20) as c:
        yield c


@respx.mock
def test_get_sends_the_bearer_key_and_returns_the_body(client):
    route = respx.get(GET_URL).respond(200, json={"notification_id": "notif-1"})
    assert client.get_notification("notif-1") == {"notification_id": "notif-1"}
    assert route.calls.last.request.headers["Authorization"] == f"Bearer {API_KEY}"


@respx.mock
def test_get_is_retried_after_transport_errors_and_5xx_then_succeeds(client, slept):
    route = respx.get(GET_URL).mock(
        side_effect=[httpx.ConnectError("refused"), httpx.Response(503), httpx.Response(200, json={"ok": 1})]
    )
    assert client.get_notification("notif-1") == {"ok": 1}
    assert route.call_count == 3
    assert slept == [0.5, 1.0]  # exponential backoff


@respx.mock
def test_get_honours_retry_after_on_429(client, slept):
    respx.get(GET_URL).mock(
        side_effect=[httpx.Response(429, headers={"Retry-After": "3"}), httpx.Response(200, json={})]
    )
    client.get_notification("notif-1")
    assert slept == [3.0]


@respx.mock
def test_get_stops_when_retry_after_exceeds_the_budget(slept):
    route = respx.get(GET_URL).respond(429, headers={"Retry-After": "25"}, json={"error": "rate_limited"})
    with KarakuriClient(BASE_URL, Secret(API_KEY), sleep=slept.append, get_retry_budget=5) as c:
        with pytest.raises(ServerRejected) as raised:
            c.get_notification("notif-1")
    assert raised.value.status == 429 and route.call_count == 1 and slept == []


RATE_LIMITED = {"error": "rate_limited", "message": "Rate limited.", "details": {"retry_after_seconds": 7}}


@respx.mock
def test_get_reads_the_newer_apis_retry_after_seconds_from_the_error_body(client, slept):
    respx.get(GET_URL).mock(side_effect=[httpx.Response(429, json=RATE_LIMITED), httpx.Response(200, json={})])
    client.get_notification("notif-1")
    assert slept == [7.0]


@respx.mock
@pytest.mark.parametrize("answers, life, sent, waited, ok", [
    ([(429, RATE_LIMITED), (200, {"ok": True})], 600.0, 2, [7.0], True),  # waits as told, then it is taken
    ([(429, RATE_LIMITED)] * 5, 600.0, 3, [7.0, 7.0], False),  # at most three tries in all
    ([(429, RATE_LIMITED), (200, {"ok": True})], 6.0, 1, [], False),  # the wait does not fit in the life left
    ([(429, {"error": "rate_limited"}), (200, {"ok": True})], 600.0, 1, [], False),  # no wait told: not resent
    ([(503, {"error": "busy", "details": {"retry_after_seconds": 1}}), (200, {})], 600.0, 1, [], False),  # may be done
])
def test_a_command_refused_with_429_is_sent_again_only_as_told_within_the_notifications_life(
        client, slept, answers, life, sent, waited, ok):
    route = respx.post(POST_URL).mock(side_effect=[httpx.Response(status, json=body) for status, body in answers])
    if ok:
        assert client.send_command("notif-1", "wait", {"duration": 1}, may_wait=life) == {"ok": True}
    else:
        with pytest.raises(ServerRejected):
            client.send_command("notif-1", "wait", {"duration": 1}, may_wait=life)
    assert route.call_count == sent and slept == waited


@respx.mock
def test_get_gives_up_after_bounded_attempts(client):
    route = respx.get(GET_URL).mock(side_effect=httpx.ConnectError("refused"))
    with pytest.raises(Unreachable):
        client.get_notification("notif-1")
    assert route.call_count == 4


@respx.mock
def test_other_4xx_are_answered_at_once_with_the_server_body(client):
    body = {"error": "not_found", "message": "no such notification"}
    route = respx.get(GET_URL).respond(404, json=body)
    with pytest.raises(ServerRejected) as raised:
        client.get_notification("notif-1")
    assert raised.value.body == body and route.call_count == 1


@respx.mock
def test_non_json_error_body_becomes_a_json_error(client):
    respx.get(GET_URL).respond(404, text="<html>Not Found</html>")
    with pytest.raises(ServerRejected) as raised:
        client.get_notification("notif-1")
    assert raised.value.body["error"] == "http_404"
    assert "Not Found" in raised.value.body["message"]


@respx.mock
def test_post_sends_the_contract_body(client):
    route = respx.post(POST_URL).respond(200, json={"ok": True})
    client.send_command("notif-1", "wait", {"duration": 1})
    import json

    assert json.loads(route.calls.last.request.content) == {
        "notification_id": "notif-1", "command": "wait", "params": {"duration": 1}
    }


@pytest.mark.parametrize("failure", [httpx.ReadTimeout("slow"), httpx.RemoteProtocolError("cut"),
                                     httpx.ReadError("reset"), httpx.WriteTimeout("slow")])
@respx.mock
def test_post_is_never_resent_once_it_may_have_left(client, failure):
    route = respx.post(POST_URL).mock(side_effect=failure)
    with pytest.raises(OutcomeUnknown):
        client.send_command("notif-1", "wait", {})
    assert route.call_count == 1


@respx.mock
def test_post_is_retried_only_while_the_connection_is_refused(client):
    route = respx.post(POST_URL).mock(side_effect=[httpx.ConnectError("refused"), httpx.Response(200, json={})])
    client.send_command("notif-1", "wait", {})
    assert route.call_count == 2


@pytest.mark.parametrize("status", [429, 500, 503])
@respx.mock
def test_post_errors_are_never_retried(client, status):
    route = respx.post(POST_URL).respond(status, json={"error": "service_unavailable"})
    with pytest.raises(ServerRejected):
        client.send_command("notif-1", "wait", {})
    assert route.call_count == 1


def test_stale_error_exposes_the_latest_id():
    error = ServerRejected(409, {"error": "notification_stale", "details": {"latest_notification_id": "notif-2"}})
    assert error.latest_notification_id == "notif-2"
    assert ServerRejected(409, {"error": "state_conflict"}).latest_notification_id is None


@respx.mock
def test_every_configured_secret_is_masked_in_the_servers_answers_not_only_the_key(tmp_path, monkeypatch):
    from karakuri_agent.app.config import load_settings

    monkeypatch.chdir(tmp_path)  # no .env around

    settings = load_settings({"KARAKURI_API_BASE_URL": BASE_URL, "KARAKURI_API_KEY": API_KEY,
                              "DISCORD_WEBHOOK_URL": "https://discord.test/api/webhooks/123/hook-token-0123456789",
                              "KARAKURI_DATABASE_URL": "postgresql://agent:db-pass-0123456789@db.test/karakuri"},
                             )
    assert {"hook-token-0123456789", "db-pass-0123456789"} <= set(settings.secrets)
    echo = "hook-token-0123456789 db-pass-0123456789"
    respx.get(GET_URL).respond(200, json={"notification_id": "notif-1", "echo": echo, "flag": True})
    respx.post(POST_URL).respond(400, json={"error": "invalid_request", "message": echo})
    with KarakuriClient(BASE_URL, Secret(API_KEY), secrets=settings.secrets) as client:
        assert client.get_notification("notif-1") == {"notification_id": "notif-1", "echo": "*** ***", "flag": True}
        with pytest.raises(ServerRejected) as refused:
            client.send_command("notif-1", "conversation_reject", {})
    assert refused.value.body["message"] == "*** ***"


@respx.mock
def test_a_short_secret_is_not_masked_inside_the_json_where_it_could_break_the_body():
    respx.get(GET_URL).respond(200, json={"notification_id": "notif-1", "ok": True})
    with KarakuriClient(BASE_URL, Secret(API_KEY), secrets=("true",)) as client:
        assert client.get_notification("notif-1") == {"notification_id": "notif-1", "ok": True}
