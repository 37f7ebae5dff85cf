"""Rules that answer what a conversation asks: a turn, an invitation, a check whether to stay."""

from __future__ import annotations

from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.decide.queries import enum_of, meeting_elsewhere, partner_of
from karakuri_agent.decide.speaking import NEXT_SPEAKER, asks_time, needs_next_speaker, offer_reason, recalling, speech_params
from karakuri_agent.domain.commands import CLOSING_NOTIFICATION, END, SPEAK
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.notification import Choice
from karakuri_agent.mind.view import View
from karakuri_agent.ja import place_words, reasons, turn_lines


# -- answering what the notification asks ---------------------------------------
def conversation_turn_rule(view: View) -> list[Decision] | None:
    speak = view.choice(*SPEAK)
    end = view.choice(*END)
    if speak is None and end is None:
        return None
    partner = partner_of(view)
    closing = _closing(view, speak, end)
    meeting = meeting_elsewhere(view, partner.id)
    long_enough = len(view.own_lines) >= view.persona.rules.conversation_turns or meeting is not None
    speak_decision = None if speak is None else Decision(
        speak.command,
        speech_params(view, speak, "farewell" if closing else "reply", partner),
        offer_reason(view, speak) or (reasons.CLOSING_GREETING if closing else
                                      turn_lines.ask_time(partner.name) if asks_time(view, partner)
                                      else reasons.answer(partner.name)),
    )
    end_decision = None if end is None else Decision(
        end.command,
        speech_params(view, end, "farewell", partner),
        offer_reason(view, end) or (reasons.leave_for_meeting(meeting.place_name) if meeting
                                    else reasons.TALKED_ENOUGH),
    )
    if speak is not None and speak_decision and not closing and not speak_decision.params.get("transfer_response"):
        speak_decision = recalling(view, speak_decision, speak, partner)
    ordered = [end_decision, speak_decision] if long_enough else [speak_decision, end_decision]
    sendable = [d for d in ordered if d and _named_next(view, d)]
    return sendable or _nobody_left(view, partner)


def _named_next(view: View, decision: Decision) -> bool:
    """The decision names the next speaker, or its choice does not need one."""
    choice = view.choice(decision.command or "")
    return choice is None or not needs_next_speaker(choice) or "next_speaker_agent_id" in decision.params


def _closing(view: View, speak: Choice | None, end: Choice | None) -> bool:
    """The turn is the parting line of a closing conversation: the world says so by the notification's
    type, or by its only choice's words (`お別れのメッセージを送る`; a choice may come without them)."""
    return speak is not None and end is None and (view.parsed.notification_type == CLOSING_NOTIFICATION
                                                   or place_words.asks_farewell(speak.description))


def _nobody_left(view: View, partner: PersonRef) -> list[Decision]:
    """Everyone else has gone: leave with a goodbye, or take a turn that names nobody; else say why not.

    The turn's choices all need a next speaker and there is no one to name:
    another way out (`conversation_leave`, or a speaking choice that needs no
    next speaker) is taken when offered. A closing conversation's parting
    line, with the server's list holding only the agent, names the agent
    itself: the world ignores the next speaker of a closing turn when nobody
    else remains (the engine's closing rule), so the farewell is still said
    and the turn is not left to time out; an id enum that leaves the agent
    out forbids it. Otherwise nothing is sent, and the report says that
    nobody is left.
    """
    leave = view.choice("conversation_leave")
    if leave is not None:
        return [Decision(leave.command, speech_params(view, leave, "farewell", partner), turn_lines.LEAVE_ALONE)]
    for choice in view.choices:
        if choice.command in SPEAK + END + ("conversation_leave",) and not needs_next_speaker(choice):
            return [Decision(choice.command, speech_params(view, choice, "farewell", partner),
                             turn_lines.WITHOUT_NEXT_SPEAKER)]
    if view.parsed.participants_listed:  # the server's list holds only the agent
        speak = view.choice(*SPEAK)
        own = view.me.agent_id
        if speak is not None and own and _closing(view, speak, view.choice(*END)) and (
                not enum_of(speak, NEXT_SPEAKER) or own in map(str, enum_of(speak, NEXT_SPEAKER))):
            params = {**speech_params(view, speak, "farewell", partner), NEXT_SPEAKER: own}
            return [Decision(speak.command, params, turn_lines.CLOSING_ALONE)]
        return [Decision(None, reason=turn_lines.NOBODY_TO_NAME, idle_why=turn_lines.NOBODY_LEFT_WHY)]
    return [Decision(None, reason=turn_lines.NO_ONE_KNOWN)]


def conversation_request_rule(view: View) -> list[Decision] | None:
    accept = view.choice("conversation_accept")
    reject = view.choice("conversation_reject")
    if accept is None:
        return None
    partner = partner_of(view)
    urgent = meeting_elsewhere(view, partner.id)
    if urgent is not None and reject is not None:
        return [Decision(reject.command, {}, reasons.decline_for_meeting(urgent.place_name))]
    accepted = recalling(view, Decision(accept.command, speech_params(view, accept, "accept", partner),
                                         reasons.accept_invitation(partner.name)), accept, partner)
    return [accepted] + ([Decision(reject.command, {}, reasons.NO_REPLY_READY)] if reject else [])


def inactive_check_rule(view: View) -> list[Decision] | None:
    stay = view.choice("conversation_stay")
    leave = view.choice("conversation_leave")
    if stay is None and leave is None:
        return None
    alive = bool(view.parsed.conversation_messages) and len(view.own_lines) < view.persona.rules.conversation_turns
    stay_decision = None if stay is None else Decision(stay.command, {}, reasons.CONVERSATION_ALIVE)
    leave_decision = None if leave is None else Decision(
        leave.command, speech_params(view, leave, "farewell", partner_of(view)), reasons.CONVERSATION_STOPPED
    )
    ordered = [stay_decision, leave_decision] if alive else [leave_decision, stay_decision]
    return [d for d in ordered if d]
