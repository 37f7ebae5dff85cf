"""What a spoken decision says: its line (voice/), the next speaker, the answer to an offer, a memory brought up.

A conversation turn is a structure as well as a line: whom it hands the
turn to (a current participant, never the agent, never someone who left),
and, when an offer awaits it, whether the gift is taken (the transfer
policy), with a line that says so.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from karakuri_agent.decide.queries import (
    enum_of,
    is_close,
    knows_person,
    max_length_of,
    name_of_agent,
    offer_in_turn,
    others_in,
    place_name_here,
    present_others,
    stable_hash,
    takes_gift,
    takes_help,
)
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.domain.commands import END, SPEAK
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.identity import NOBODY, PersonRef
from karakuri_agent.domain.limits import utf16_units
from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.records import Meeting, Recall, Transfer
from karakuri_agent.ja import place_words, reasons, told_words, turn_lines
from karakuri_agent.ja.listening_cues import BACK_REFERENCE, GOING_ON, REMEMBER_ASKED
from karakuri_agent.ja.safety import clean_line
from karakuri_agent.ja.sentences import is_asking, split_sentences
from karakuri_agent.ja.speech_words import join_sentences
from karakuri_agent.ja.word_classes import LISTENING_VERBS, VAGUE_REFERENTS
from karakuri_agent.memory import promises, recall
from karakuri_agent.mind.view import View
from karakuri_agent.reading.conversation_turns import without_server_sentences
from karakuri_agent.reading.hearing import hear
from karakuri_agent.reading.lexicon import names_a_time_ahead, names_an_event, tells_an_outcome
from karakuri_agent.reading.morphemes import words
from karakuri_agent.reading.promise_lines import extract_promise, proposes_without_time
from karakuri_agent.voice.fitting import choose_line, said_key
from karakuri_agent.voice.names import address_name, place_word_of
from karakuri_agent.voice.situation import Plan
from karakuri_agent.voice.speech import DEFAULT_MAX_LENGTH, Memory, compose

# What a partner tells ('例のやつ、受かった！' is news, '昨日話したやつ、終わったよ〜' a statement): either may be
# of a thing they told before.
NEWS_LIKE = ("news", "statement")
NEXT_SPEAKER = "next_speaker_agent_id"
# What a line heard as these is, even when it says 一緒に: no plan to ask the time of.
NOT_PROPOSALS = frozenset({"warmth", "farewell", "offer", "thanks", "compliment", "retraction"})
RESPONSE = "transfer_response"
# The answers key (and kind) of a thing told of asked after on its day; the kinds of line that may be about it,
# and the questions that show or ask to be heard ('どうかな？', '聞いてくれる？').
DUE = "told_due"
REPORTS = frozenset({"statement", "news", "feeling", "thanks", "greeting", "remark", "looks", "shown"})
SHOWN = frozenset({"opinion", "guess"})
FEARED = frozenset({"worried"})
# What a line refers back to that the partner told before: the thing, the answers key and built-in lines that
# say so, and the memory it brings up (a thing asked after on its day is marked mentioned).
Link = tuple[str, str, tuple[str, ...], Recall | None]

# What a memory of another day may follow besides a greeting: small talk acknowledged (news met with joy
# or care is one thought: nothing of another day follows it).
RECALL_AFTER = frozenset({"statement", "remark", "news"})
THIRD = "third"
REMARK = "remark"


# -- helpers -------------------------------------------------------------------------
def recalling(view: View, decision: Decision, choice: Choice, partner: PersonRef) -> Decision:
    """A spoken decision that also brings up something `partner` told on an earlier day, if there is one."""
    said = decision.params.get("message")
    if not isinstance(said, str):
        return decision
    last = last_line_of(view, partner)
    text = clean_line(last) if last else ""
    heard = hear(text) if text else None
    if _goes_on(view, text):
        return decision  # a story of theirs going on ('ほんでな、ランドセルの色で…'): nothing of another day cuts in
    asked = bool(REMEMBER_ASKED.search(text)) and bool(partner.id)
    link = _told_link(view, partner, text, heard) if not asked and partner.id and heard is not None else None
    if link is not None and link[1] == DUE:  # asked how it went, marked mentioned like any memory brought up
        asked_after = _said_remembering(view, decision, choice, said, *link[:3])
        return asked_after if asked_after is decision else replace(asked_after, recalled=link[3])
    if link is not None and heard is not None and (heard.mood or heard.kind in NEWS_LIKE):
        if not (heard.mood or heard.emotions) and tells_an_outcome(text):
            # '昨日話したやつ、終わったよ〜': how it went is not told; asked, not met with 'そうなんだ'
            said = _varied(tuple(view.persona.reactions.get("outcome_asked") or turn_lines.OUTCOME_ASKED),
                           view.notification_id)[0]
        return _said_remembering(view, decision, choice, said, *link[:3])  # their news is about what they told
    own_names = (view.persona.short_name, view.persona.name, view.me.name)
    told_well_or_badly = heard is not None and bool(heard.polarity) and heard.kind != REMARK
    if not asked and heard is not None and (heard.troubled or heard.mood or told_well_or_badly or heard.subject == THIRD
                                            or not _leaves_room(heard, text, own_names)):
        # an answer, care or thanks is one thought, and news of theirs that went well or badly, or of someone
        # of theirs ('孫が保育士になった'), is theirs to tell: nothing of another day follows it; a remark on the
        # day ('風が気持ちいいね') is small talk, where it does
        return decision
    # '覚えてる？' asks for what they told: it comes back whatever the day ('うん、もちろん覚えてるよ！だいふくちゃん、元気？')
    memory = recall.asked_of(view.told.get(str(partner.id), ()), partner, view.now, text) if asked \
        else recall.for_partner(view, partner, opening=choice.command in ("conversation_start", "conversation_accept"))
    if memory is None:
        return _said_remembering(view, decision, choice, said, *link[:3]) if link is not None else decision
    message = recall.with_recall(said, memory, max_length_of(choice, "message"))
    return replace(decision, params={**decision.params, "message": message},
                   reason=reasons.with_memory(decision.reason, recall.explained(memory)), recalled=memory)


def _goes_on(view: View, text: str) -> bool:
    """Whether ``text`` goes on with what this talk was about: it opens with a word that carries on ('ほんでな、',
    'で、', 'そんなら') or points back at what was said ('あれ、結局…', 'そこでばあさんと…'), after lines of this
    talk; the agent follows it, and nothing of another day cuts in."""
    earlier = len(view.parsed.conversation_messages) > 1 or len(view.talk) > 1
    return earlier and bool(GOING_ON.search(text))


def _leaves_room(heard: Any, text: str, own_names: tuple[str, ...]) -> bool:
    """Whether a memory of another day may follow the answer to the line: a greeting, or small talk that
    neither asks nor is about the agent ('…つりでくるとこあるっけ', 'ニケの作るお菓子、店レベル'): after those,
    'そういえば…' reads as the reply to them."""
    if heard.kind == "greeting" or (heard.acts and set(heard.acts) == {"greeting"}):
        return True
    return heard.kind in RECALL_AFTER and heard.subject != "agent" and "question" not in heard.acts \
        and not any(is_asking(s) for s in split_sentences(text)) and not any(n and n in text for n in own_names)


def _told_link(view: View, partner: PersonRef, text: str, heard: Any) -> Link | None:
    """What the partner's line refers back to that they told before, with the phrases that say so: a thing it
    names ('あのマフラー、やっと編み上がった！' → 'マフラー', recall.linked), else, for news naming nothing
    ('例のやつ、受かった！'), the newest thing they told of (recall.referred), asked rather than assumed. Only
    for a line that refers back (あの, 例の, 前に話した, やっと...) or tells how a thing came out ('うまく
    いったよ！' the day after an exam was told of): without either, the agent does not guess."""
    own_names = {view.persona.short_name, view.persona.name, view.me.name}
    rows = [r for r in view.told.get(str(partner.id), ())
            if not any(name and (str(r.get("topic") or "") in name or name in str(r.get("topic") or ""))
                       for name in own_names)]  # a fact whose topic is the agent itself is no thing they told of
    pointed = bool(BACK_REFERENCE.search(text))
    outcome = heard.kind in (*NEWS_LIKE, "feeling") and tells_an_outcome(text)  # not thanks, warmth
    due = recall.due_now(rows, partner, view.now) if not outcome and _reports(heard, text) else None
    topic = recall.linked(rows, partner, text) if due or pointed or outcome else None
    if due and not topic and not names_an_event(text, VAGUE_REFERENTS):
        return due.line, DUE, turn_lines.TOLD_DUE, due  # 'ただいまー。足パンパンだわ' the day of the marathon told of
    if not pointed and not outcome:
        return None  # unsure what it refers to: say less ('ふってきた…' is the weather, no exam told of)
    if topic:
        return topic, "told_before", turn_lines.TOLD_BEFORE, None
    if heard.question or not (heard.mood or heard.kind in NEWS_LIKE):
        return None
    talk = [m.message for m in view.parsed.conversation_messages[:-1]
            if isinstance(m.message, str) and not view.me.is_self(m.speaker_id, m.speaker)]
    own = set(view.own_lines)
    before = [line for line in [*talk, *view.talk[:-1]] if line not in own and line != text]
    # told only how a thing came out, with no word that points back: of a thing they told was ahead of them
    # ('明日、美容院予約したの！') or weighed on them ('試験なんだ。緊張してる'), never one merely told ('三千円貸してた')
    ahead = rows if pointed else [r for r in rows if r.get("detail") in (told_words.PLAN_DETAIL, told_words.BAD_DETAIL)
                                  or names_a_time_ahead(str(r.get("source") or ""))]
    guessed = recall.referred(ahead, partner, _without(text, own_names), view.now, before)
    return (guessed, "told_before_guess", turn_lines.TOLD_BEFORE_GUESS, None) if guessed else None


def _reports(heard: Any, text: str) -> bool:
    """Whether the line tells or shows how the speaker has been, or asks to be heard ('昨日はもうクタクタ',
    '昨日の件、聞いてくれる？', 'じゃーん😆 どうかな？'), rather than asking the agent of itself, its day or the
    town, or asking it along: what a line on the day of a thing told of may be about."""
    if heard.emotions & FEARED or names_a_time_ahead(text):
        return False  # '落ちたらどうしよう…': still ahead of them
    if heard.kind in REPORTS or "thanks" in heard.acts:  # '昨日は聞いてくれてありがとう'
        return True
    question = heard.question
    return question is not None and not heard.asks and not heard.self_topic and (
        question.kind in SHOWN or any(w.lemma in LISTENING_VERBS for w in words(text)))


def _without(text: str, names: set[str]) -> str:
    """The line with the agent's own names taken out ('ニケちゃん！受かった！' names nothing of its own)."""
    for name in sorted((n for n in names if n), key=len, reverse=True):
        text = text.replace(name, "")
    return text


def _said_remembering(view: View, decision: Decision, choice: Choice, said: str, topic: str, kind: str,
                      builtin: tuple[str, ...]) -> Decision:
    """The line with what the partner told before named first (the pack's `answers.<kind>`, else the
    built-in lines), when both fit; the line alone otherwise."""
    pool = view.persona.answers.get(kind) or builtin
    opener = _varied(tuple(line.replace("{topic}", topic) for line in pool), view.notification_id)[0]
    message = join_sentences((said, opener) if kind == DUE else (opener, said))  # how it went, asked after
    limit = max_length_of(choice, "message") or DEFAULT_MAX_LENGTH
    return replace(decision, params={**decision.params, "message": message}) if utf16_units(message) <= limit else decision


def speech_params(view: View, choice: Choice, purpose: str, partner: PersonRef) -> dict[str, Any]:
    """Params for a speaking command: the line, the next speaker when asked for, the answer to an offer.

    An offer awaiting this turn is answered (the transfer policy decides)
    and the line says so; otherwise a plan proposed without a time gets a
    question about the time, not a confirmation.
    """
    params: dict[str, Any] = {}
    wants = set(choice.param_schema) | set(choice.required_params)
    if not choice.param_schema and choice.command in SPEAK + END:
        wants |= {"message", NEXT_SPEAKER}  # the contract's params, when the server omits a schema
    offer = offer_in_turn(view, choice)
    response = _response_to(view, choice, offer) if offer is not None and (RESPONSE in wants or not choice.param_schema) else None
    if "message" in wants or not choice.param_schema:
        if offer is not None:
            params["message"] = _offer_line(view, choice, offer, taken=response == "accept",
                                            parting=purpose == "farewell")
        else:
            params["message"] = _spoken_line(view, choice, purpose, partner)
    if NEXT_SPEAKER in wants:
        speaker = next_speaker(view, choice, partner)
        if speaker:
            params[NEXT_SPEAKER] = speaker
    if response is not None:
        params[RESPONSE] = response
    return params


def offer_reason(view: View, choice: Choice) -> str | None:
    """Why the turn answers an offer as it does, or None when no offer awaits it."""
    offer = offer_in_turn(view, choice)
    if offer is None:
        return None
    name = (offer.get("from") or NOBODY).name or None
    if _response_to(view, choice, offer) == "accept":
        return turn_lines.take_offer(name)
    return turn_lines.decline_offer(name, refused_always=view.transfer_policy == "reject")


def asks_time(view: View, partner: PersonRef) -> bool:
    """The partner's latest line proposes meeting without a time the agent understood."""
    last = last_line_of(view, partner)
    return bool(last) and proposes_without_time(last, now=view.now, known_places=[p.node for p in view.places]) \
        and not _not_a_proposal(str(last))


def _not_a_proposal(line: str) -> bool:
    """Warmth, a goodbye, an offer of help, thanks or a plan taken back said with 一緒に or また…しよう
    ('いっしょに いると たのしい', 'またあそぼうね！'): answered as what they are, not with a time question."""
    heard = hear(clean_line(line))
    return heard is not None and heard.kind in NOT_PROPOSALS


def needs_next_speaker(choice: Choice) -> bool:
    """The choice cannot be sent without naming the next speaker."""
    return NEXT_SPEAKER in choice.required_params or (not choice.param_schema and choice.command in SPEAK + END)


def _spoken_line(view: View, choice: Choice, purpose: str, partner: PersonRef) -> str:
    last = last_line_of(view, partner)
    promise = promise_in(view, last, partner) if purpose == "reply" else None
    busy = _busy_with(view, last, partner) if purpose in ("reply", "farewell") and promise is None else None
    if busy is not None:
        return _busy_line(view, choice, busy, parting=purpose == "farewell")
    if purpose == "reply" and promise is None and asks_time(view, partner):
        return _ask_time_line(view, choice, last)
    return compose(
        "promise_accept" if promise else purpose,
        persona=view.persona,
        partner_name=partner.name,
        partner_known=knows_person(view, partner.id),
        partner_close=bool(partner.id) and is_close(view, str(partner.id)),
        last_line=last,
        place_name=(promise.place_name if promise else None) or place_name_here(view),
        previous_lines=[*view.own_lines, *view.said_before], said_today=view.day_said,
        max_length=max_length_of(choice, "message"),
        seed=view.notification_id,
        time_text=_clock_text(promise),
        others=[p.name or "" for p in others_in(view) if not p.same(partner)],
        memory=memory_of(view, partner),
        # An offer the turn must answer is the transfer policy's; help offered in words, the pack's own rule.
        takes_offers=takes_gift(view, partner) if offer_in_turn(view, choice) is not None else takes_help(view, partner),
    )


def _response_to(view: View, choice: Choice, offer: Transfer) -> str:
    """`accept` or `reject`, as the transfer policy says, within the choice's own enum."""
    wanted = "accept" if takes_gift(view, offer.get("from") or NOBODY) else "reject"
    allowed = [str(o) for o in enum_of(choice, RESPONSE)]
    if allowed and wanted not in allowed:
        return "reject" if "reject" in allowed else allowed[0]
    return wanted


def _varied(lines: tuple[str, ...], seed: str) -> list[str]:
    """The wordings in an order that differs from notification to notification."""
    return sorted(lines, key=lambda line: stable_hash(seed, line))


def _fitted(view: View, choice: Choice, lines: list[str]) -> str:
    used = {said_key(line) for line in [*view.own_lines, *view.said_before]}
    return choose_line(lines, used, max_length_of(choice, "message") or DEFAULT_MAX_LENGTH)


def _offer_line(view: View, choice: Choice, offer: Transfer, *, taken: bool, parting: bool) -> str:
    """Thanks for a gift taken, a kind no to one declined; a goodbye after it when the turn ends the talk."""
    if taken:
        answers = turn_lines.THANKS_FOR_MONEY if offer.get("money") and not offer.get("item") else turn_lines.THANKS_FOR_ITEM
    else:
        answers = turn_lines.DECLINES
    seed = view.notification_id
    ordered = _varied(answers, seed)
    if parting:
        ordered = [a + b for a in ordered for b in _varied(turn_lines.PARTING, seed)] + ordered
    return _fitted(view, choice, ordered)


def _busy_with(view: View, last: str | None, partner: PersonRef) -> Meeting | None:
    """The meeting agreed with someone else that the plan this line proposes clashes with
    (memory/promises.clashing, as when it was heard: that plan was not made)."""
    if not last:
        return None
    proposed = extract_promise(last, speaker_name=partner.name or "", speaker_id=partner.id, now=view.now,
                               known_places=[p.node for p in view.places])
    standing = {m.id: m for m in [*view.meetings, *view.pending] if m.status in ("pending", "fulfilled")}
    return promises.clashing(proposed, list(standing.values())) if proposed is not None else None


def _busy_line(view: View, choice: Choice, busy: Meeting, *, parting: bool) -> str:
    """A kind no to a plan that clashes with one already made, saying with whom, where and when
    (and a goodbye after it when the turn ends the talk)."""
    due = busy.due_at.astimezone(TOKYO) if busy.due_at else None
    values = {"time": turn_lines.clock_said(due.hour, due.minute) if due else turn_lines.THAT_TIME,
              "name": address_name(busy.partner_name) or busy.partner_name,
              "place": place_word_of(busy.place_name or "") or busy.place_name or ""}
    lines = [line.format(**values) for line in _varied(turn_lines.BUSY_THEN, view.notification_id)]
    if parting:
        lines = [a + b for a in lines for b in _varied(turn_lines.PARTING, view.notification_id)] + lines
    return _fitted(view, choice, lines)


def _ask_time_line(view: View, choice: Choice, last: str | None) -> str:
    """A question about the time of a plan proposed without one (naming its place when the line did)."""
    promise = extract_promise(last, speaker_name="", speaker_id=None, now=view.now,
                              known_places=[p.node for p in view.places]) if last else None
    place = place_words.building(promise.place_name) if promise and promise.place_name else ""
    seed = view.notification_id
    lines = [line.format(place=place) for line in _varied(turn_lines.ASK_TIME_AT, seed)] if place else []
    return _fitted(view, choice, lines + _varied(turn_lines.ASK_TIME, seed))


def next_speaker(view: View, choice: Choice, partner: PersonRef) -> str | None:
    """Whom the turn goes to: a current participant, the one who spoke last by preference.

    Never the agent itself and never someone who left. The participants the
    server listed (the JSON's, else the text's `参加者` line) are the truth;
    an id enum narrows them. Without such a list, the people the text names
    and the enum are the candidates, those the text says left excepted.
    None: nobody can be named (everyone else has gone).
    """
    options = [str(o) for o in enum_of(choice, NEXT_SPEAKER)]
    departed = view.parsed.departed
    gone_names = {p.name for p in departed if p.name}
    gone = {str(p.id) for p in departed if p.id}
    known = bool(view.parsed.participants_listed) and bool(view.parsed.present)
    members = [str(p.id) for p in present_others(view) if p.id]
    spoke = [str(line.speaker_id) for line in reversed(view.parsed.conversation_messages)
             if line.speaker_id]
    if known:
        pool = [i for i in dict.fromkeys([str(partner.id or ""), *spoke, *members]) if i in members]
    else:
        pool = [i for i in dict.fromkeys([str(partner.id or ""), *spoke, *members, *options]) if i]
    fitting = [i for i in pool if i not in gone and name_of_agent(view, i) not in gone_names
               and not view.me.is_self(i, None) and (not options or i in options)]
    return fitting[0] if fitting else None


def memory_of(view: View, partner: PersonRef) -> Memory:
    """What the agent can truly say of itself: where it is, where it went lately and
    today (the world's day), whom it talked with today, the promises ahead, and the
    lines of this talk so far (the one answered aside)."""
    here_name = place_name_here(view) or ""
    lines = [m.message for m in view.parsed.conversation_messages]
    # What the server sent of the talk, or what the agent kept of it when the server sends only the last line.
    kept = list(view.talk[:-1] if view.talk and lines and view.talk[-1] == lines[-1] else view.talk)
    before = [line for line in lines[:-1] if line]
    talk = before if len(before) >= len(kept) else kept
    # Where it was before: only where the journal found it (a move sent is no arrival; a place set out
    # to and never reached is not said as visited).
    return Memory(here=here_name,
                  recent_places=tuple(p for p in view.day_places if p and p != here_name),
                  known_places=tuple(p.name for p in view.places if p.name),
                  today_places=tuple(view.day_places),
                  met_today=tuple(p for p in view.day_people if p != partner.name),
                  plans=_plans_ahead(view),
                  talk=tuple(talk),
                  arrived=tuple(view.day_arrived),
                  did_today=tuple(view.day_actions))


def _plans_ahead(view: View) -> tuple[Plan, ...]:
    """The promises not yet due, soonest first, each with its day counted from the world's today: every one
    still pending (View.pending), not only those of the next hours it must set off for (View.meetings):
    '今日の夕方って空いとう？' at noon is answered with the 17:00 promise."""
    today = view.now.astimezone(TOKYO).date()
    ahead = []
    for meeting in view.pending:
        due = meeting.due_at
        if due is None or due <= view.now or meeting.status == "fulfilled" or not meeting.place_name:
            continue
        local = due.astimezone(TOKYO)
        days = (local.date() - today).days
        ahead.append((due, Plan(str(meeting.place_name), local.strftime("%H:%M"), days, local.weekday(),
                                (today.weekday() + days) // 7)))
    return tuple(plan for _, plan in sorted(ahead, key=lambda a: a[0]))


def promise_in(view: View, line: str | None, partner: PersonRef) -> Meeting | None:
    """The pending meeting this very line made with the partner, if it made one with a time.

    The same line, not one holding it or held in it ("うん" is in many a
    line): a time is confirmed only when the line that set it is answered.
    """
    if not line:
        return None
    return next((c for c in view.pending if c.source_text == line
                 and c.due_at and (not partner.id or not c.partner_id
                                          or c.partner_id == partner.id)), None)


def _clock_text(commitment: Meeting | None) -> str | None:
    due = commitment.due_at if commitment else None
    return due.astimezone(TOKYO).strftime("%H:%M") if due else None


def last_line_of(view: View, partner: PersonRef) -> str | None:
    """The partner's latest line: what the agent answers when it speaks to them.

    Read without the server's own sentences (an offer's note, a turn line),
    should a runtime have put one among the lines: the agent answers
    people, never echoes the system's words.
    """
    for line in reversed(view.parsed.conversation_messages):
        if line.person.same(partner):
            message = line.message
            return without_server_sentences(message) if isinstance(message, str) else message
    return None
