"""The one gate: what any decider or the wrapper proposes is sent only if it is admitted."""

from __future__ import annotations

import json

import pytest
import sqlite3

import respx
from click.testing import CliRunner

from karakuri_agent.app.cli import agent, karakuri
from karakuri_agent.app.config import load_settings
from karakuri_agent.app.cycle import handle
from karakuri_agent.domain.decision import Decision
from karakuri_agent.decide.deciders import Proposal
from karakuri_agent.gate import Admitted, Rejected, admit
from karakuri_agent.domain.notification import Notification

from testing.samples import BODY, GET_URL, NID, POST_URL

SPAM = "@everyone 見て！ https://evil.example/x <@1474403124906295517>"


def claims(state_dir) -> int:
    conn = sqlite3.connect(state_dir / "karakuri.db")
    try:
        return conn.execute("SELECT COUNT(*) FROM attempts").fetchone()[0]
    finally:
        conn.close()


def test_six_emoji_are_twelve_units_and_break_a_max_length_of_ten(env, notification, state_dir):
    notification["notification"]["choices"][0]["param_schema"]["message"]["maxLength"] = 10
    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=notification)
        post = mock.post(POST_URL).respond(200, json={"ok": True})
        result = CliRunner().invoke(karakuri, ["command", NID, "conversation_accept",
                                               json.dumps({"message": "😀" * 6})])
    assert result.exit_code == 2 and "at most 10" in result.stderr
    assert post.call_count == 0 and claims(state_dir) == 0


def test_a_line_with_mentions_and_links_is_refused_through_the_wrapper(env, api, state_dir):
    result = CliRunner().invoke(karakuri, ["command", NID, "conversation_accept", json.dumps({"message": SPAM})])
    assert result.exit_code == 2 and "plain words" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert api.routes[1].call_count == 0 and claims(state_dir) == 0
    # The same notification can still be answered properly afterwards: nothing was spent.
    again = CliRunner().invoke(karakuri, ["command", NID, "conversation_accept", '{"message": "見て！"}'])
    assert again.exit_code == 0, again.output
    assert json.loads(api.routes[1].calls.last.request.content)["params"] == {"message": "見て！"}


def test_admit_names_the_offered_commands_when_the_command_is_not_one(notification):
    verdict = admit(Notification.from_json(notification, requested_id=NID), Decision("move", {"target_node_id": "1-1"}))
    assert isinstance(verdict, Rejected)
    assert verdict.problems == ("move is not one of this notification's choices "
                                "(conversation_accept, conversation_reject)",)


def test_admit_refuses_a_line_already_said_whatever_its_spacing(notification):
    offered = Notification.from_json(notification, requested_id=NID)
    proposal = Decision("conversation_accept", {"message": "メイさん、 またね"})
    assert isinstance(admit(offered, proposal, said_before=["メイさん、またね"]), Rejected)
    admitted = admit(offered, proposal, said_before=["こんにちは"])
    assert isinstance(admitted, Admitted) and admitted.params == {"message": "メイさん、 またね"}


@pytest.mark.parametrize("link", ["https://evil.example/x", "http://e.test", "www.evil.example", "discord.gg/abc",
                                  "ftp://e.test/f", "HTTPS://E.TEST"])
@pytest.mark.parametrize("around", ["{}", "見て{}", "これ{}だよ", "夕方の{}を見てね", "（{}）"])
def test_admit_refuses_a_link_glued_to_japanese_as_well_as_a_spaced_one(notification, link, around):
    """A Japanese letter is a word character: `見てhttps://…` has no word boundary before the link."""
    offered = Notification.from_json(notification, requested_id=NID)
    verdict = admit(offered, Decision("conversation_accept", {"message": around.format(link)}))
    assert isinstance(verdict, Rejected) and "link" in " ".join(verdict.problems), verdict


class Proposes:
    def __init__(self, *decisions: Decision) -> None:
        self.decisions = decisions
        self.asked = 0

    def propose(self, view):
        self.asked += 1
        return Proposal(tuple(self.decisions))


class Fails:
    def propose(self, view):
        raise RuntimeError("model unavailable")


def test_handle_skips_a_spammy_proposal_and_sends_the_next(env, api):
    decider = Proposes(Decision("conversation_accept", {"message": SPAM}),
                       Decision("conversation_accept", {"message": "メイさん、こんにちは！"}))
    result = handle(BODY, load_settings(), decider=decider)
    assert result.sent and result.outcome.params == {"message": "メイさん、こんにちは！"}
    assert [r["command"] for r in result.rejected] == ["conversation_accept"]
    assert "plain words" in result.rejected[0]["problem"]


class FallsBack:
    """A primary whose proposal walks on to another decider's once its own are all refused (Proposal.fallback)."""

    def __init__(self, primary, fallback) -> None:
        self.primary, self.fallback = primary, fallback

    def propose(self, view):
        try:
            own = self.primary.propose(view)
        except RuntimeError as exc:
            stand_in = self.fallback.propose(view)
            return Proposal(stand_in.candidates, errors=(exc,))
        return Proposal(own.candidates, fallback=lambda: self.fallback.propose(view))


def test_fallback_decides_when_the_primary_raises(env, api):
    fallback = Proposes(Decision("conversation_reject"))
    result = handle(BODY, load_settings(), decider=FallsBack(Fails(), fallback))
    assert result.sent and result.outcome.command == "conversation_reject"
    assert result.decider_errors == ("RuntimeError",)


def test_fallback_decides_when_nothing_the_primary_proposed_is_admitted(env, api):
    primary = Proposes(Decision("move", {"target_node_id": "1-1"}))
    result = handle(BODY, load_settings(), decider=FallsBack(primary, Proposes(Decision("conversation_reject"))))
    assert result.outcome.command == "conversation_reject"
    assert result.rejected[0]["command"] == "move"


def test_fallback_is_not_asked_when_the_primary_is_admitted(env, api):
    fallback = Proposes(Decision("conversation_reject"))
    primary = Proposes(Decision("conversation_accept", {"message": "こんにちは！"}))
    result = handle(BODY, load_settings(), decider=FallsBack(primary, fallback))
    assert result.outcome.command == "conversation_accept" and fallback.asked == 0


def test_an_unknown_decider_is_a_configuration_error_before_any_request(env, monkeypatch):
    monkeypatch.setenv("KARAKURI_DECIDER", "oracle")
    with respx.mock(assert_all_called=False) as mock:
        result = CliRunner().invoke(agent, ["handle", BODY])
        assert mock.calls.call_count == 0
    assert result.exit_code == 2 and "KARAKURI_DECIDER" in result.stderr and "rules" in result.stderr


def test_a_decider_sees_the_same_problems_the_gate_would_refuse_with(notification):
    from datetime import datetime, timezone

    from karakuri_agent.gate import problems_in_view
    from karakuri_agent.domain.identity import Identity
    from karakuri_agent.domain.records import Parsed
    from karakuri_agent.mind.view import View
    from karakuri_agent.voice.persona_pack import load_persona

    offered = Notification.from_json(notification, requested_id=NID)
    view = View(notification_id=NID, choices=offered.choices, parsed=Parsed(), me=Identity(),
                now=datetime.now(timezone.utc), persona=load_persona(), said_before=["またね"])
    assert problems_in_view(view, Decision("conversation_accept", {"message": "またね"})) == [
        "message was already said in this conversation: say something new"]
    assert problems_in_view(view, Decision("conversation_accept", {"message": "こんにちは"})) == []
