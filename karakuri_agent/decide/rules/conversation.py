"""Rules that answer what a conversation asks: a turn, an invitation, a check whether to stay."""

from __future__ import annotations

from karakuri_agent.decide.queries import meeting_elsewhere, partner_of
from karakuri_agent.decide.speaking import recalling, speech_params
from karakuri_agent.domain.commands import END, SPEAK
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.view import View
from karakuri_agent.ja import places, reasons


# -- answering what the notification asks ---------------------------------------
def conversation_turn_rule(view: View) -> list[Decision] | None:
    speak = view.choice(*SPEAK)
    end = view.choice(*END)
    if speak is None and end is None:
        return None
    partner = partner_of(view)
    closing = speak is not None and end is None and places.asks_farewell(speak.description)
    meeting = meeting_elsewhere(view, partner.get("id"))
    long_enough = len(view.own_lines) >= view.persona.rules.conversation_turns or meeting is not None
    speak_decision = speak and Decision(
        speak.command,
        speech_params(view, speak, "farewell" if closing else "reply", partner),
        reasons.CLOSING_GREETING if closing else reasons.answer(partner.get("name")),
    )
    end_decision = end and Decision(
        end.command,
        speech_params(view, end, "farewell", partner),
        reasons.leave_for_meeting(meeting.get("place_name")) if meeting else reasons.TALKED_ENOUGH,
    )
    if speak_decision and not closing:
        speak_decision = recalling(view, speak_decision, speak, partner)
    ordered = [end_decision, speak_decision] if long_enough else [speak_decision, end_decision]
    return [d for d in ordered if d]


def conversation_request_rule(view: View) -> list[Decision] | None:
    accept = view.choice("conversation_accept")
    reject = view.choice("conversation_reject")
    if accept is None:
        return None
    partner = partner_of(view)
    urgent = meeting_elsewhere(view, partner.get("id"))
    if urgent is not None and reject is not None:
        return [Decision(reject.command, {}, reasons.decline_for_meeting(urgent.get("place_name")))]
    accepted = recalling(view, Decision(accept.command, speech_params(view, accept, "accept", partner),
                                         reasons.accept_invitation(partner.get("name"))), accept, partner)
    return [accepted] + ([Decision(reject.command, {}, reasons.NO_REPLY_READY)] if reject else [])


def inactive_check_rule(view: View) -> list[Decision] | None:
    stay = view.choice("conversation_stay")
    leave = view.choice("conversation_leave")
    if stay is None and leave is None:
        return None
    alive = bool(view.parsed.get("conversation_messages")) and len(view.own_lines) < view.persona.rules.conversation_turns
    stay_decision = stay and Decision(stay.command, {}, reasons.CONVERSATION_ALIVE)
    leave_decision = leave and Decision(
        leave.command, speech_params(view, leave, "farewell", partner_of(view)), reasons.CONVERSATION_STOPPED
    )
    ordered = [stay_decision, leave_decision] if alive else [leave_decision, stay_decision]
    return [d for d in ordered if d]
