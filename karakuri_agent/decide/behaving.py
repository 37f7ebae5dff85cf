"""The behaviour engine (behaviour/) wired to a decider's view, the one gate and the state.

behaviour/ is pure and knows nothing of views or commands; this module reads
a view into the engine's facts, turns a pack rule's `choose` into a decision
(a place by its label, a person by name, resolved against what the agent
knows; else the rule gives way), asks the one gate, and after the outcome
runs the reactions and says what to save. "Now" is the view's, in the
world's zone (CONTRACT §9), never the machine's clock.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any, Callable, Sequence

from karakuri_agent.behaviour.engine import Facts, Turn
from karakuri_agent.behaviour.selector import BuiltinRule, Selection, Selector
from karakuri_agent.behaviour.spec import EMPTY, Action, Behaviour, Rule
from karakuri_agent.decide.filling import completed
from karakuri_agent.decide.queries import partner_of, present_others
from karakuri_agent.decide.speaking import NEXT_SPEAKER, next_speaker, speech_params
from karakuri_agent.domain.commands import ACCEPT_TRANSFER, END, SPEAK
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.domain.records import Meeting, here_name
from karakuri_agent.gate import problems_in_view
from karakuri_agent.ja.phrases import follows_rule
from karakuri_agent.memory import promises
from karakuri_agent.state.values import utc_text

if TYPE_CHECKING:
    from karakuri_agent.mind.view import View

# A rule's param value that means the conversation's partner (`"next_speaker_agent_id": "{partner}"`).
PARTNER_SLOT = "{partner}"
SELF_NAMED = "the turn cannot go to the agent itself"  # the world's `cannot_nominate_self`


def behaviour_of(view: View) -> Behaviour:
    return view.persona.behaviour or EMPTY


def facts(view: View) -> Facts:
    parsed = view.parsed
    others = [p for p in parsed.participants if not view.me.is_self(p.id, p.name)]
    lines = parsed.conversation_messages
    held = view.holdings
    items = None if held.items is None and held.item_count != 0 else tuple(
        dict.fromkeys(str(h.name or h.item_id) for h in held.items or () if h.name or h.item_id))
    return Facts(
        notification=parsed.notification_type,
        now=view.now.astimezone(TOKYO),
        place=here_name(parsed),
        nearby=tuple(a.name for a in view.nearby_agents if a.name),
        partner=tuple(p.name for p in others if p.name),
        money=held.money,  # reading/money_and_items.py's: the text's 所持金, a status answer, what commands spent
        items=items,
        weather=parsed.location.get("weather"),
        met=tuple(view.met),
        text=lines[-1].message if lines else view.text,
        offered=tuple(dict.fromkeys(c.command for c in view.choices)),
        previous_command=view.recent_commands[0].command if view.recent_commands else None,
    )


def begin(view: View) -> Turn | None:
    """This notification's turn of the pack's behaviour; None when the pack has none (nothing changes)."""
    behaviour = behaviour_of(view)
    if behaviour.empty:
        return None
    return Turn.begin(behaviour, facts(view), view.behaviour_memory)


def begun(view: View) -> View:
    """The view with this notification's turn begun: once per notification (the cycle's), so the rules'
    selection, a model's prompt and schema, and the finish all see one turn and what fired in it."""
    return replace(view, turn=begin(view))


def turn_of(view: View) -> Turn | None:
    """The notification's turn: the one the cycle began. A view built without one (by hand, as tests and
    benchmarks do) begins its own here."""
    return view.turn if view.turn is not None else begin(view)


def select(view: View, builtins: Sequence[BuiltinRule[Any, Decision]],
           resolve_place: Callable[[View, str], str | None]) -> Selection[Decision]:
    """The first rule that answers, its candidates (each naming it as `Decision.rule`), and who gave way."""
    behaviour = behaviour_of(view)
    turn = turn_of(view)

    def choose(rule: Rule, action: Action, phrases: tuple[str, ...]) -> Decision | str:
        return rule_decision(view, rule, action, phrases, resolve_place)

    # The order is sorted afresh per notification: 200 rules sort in microseconds (benchmarks/bench_rules.py).
    selection = Selector(builtins, behaviour).select(view, turn, choose, lambda d: d.command)
    candidates = selection.candidates
    if turn is not None and turn.phrases and selection.rule and behaviour.rule(selection.rule) is None:
        candidates = [_with_line(view, d, turn.phrases) for d in candidates]
    return replace(selection, candidates=[replace(d, rule=selection.rule or "") for d in candidates])


def rule_decision(view: View, rule: Rule, action: Action, phrases: Sequence[str],
                  resolve_place: Callable[[View, str], str | None]) -> Decision | str:
    """A pack rule's `choose` as a decision the gate admits, or why the rule gives way."""
    command = action.command or ""
    if view.choice(command) is None:
        return f"not offered: {command}"
    params = dict(action.params)
    target = params.pop("target", None) if command in ("move", "conversation_start") else None
    if command == "move" and target is not None:
        node = resolve_place(view, str(target))
        if node is None:
            return f"no known place called {target}"
        params["target_node_id"] = node
    if command == "conversation_start" and target is not None:
        agent = person_id(view, str(target))
        if agent is None:
            return f"{target} is not someone the agent knows here"
        params["target_agent_id"] = agent
    partner = str(target) if command == "conversation_start" and target is not None else None
    if command in SPEAK + END:
        turn = _turn_params(view, command, params)
        if isinstance(turn, str):
            return turn
        params, partner = turn
    if phrases:
        params["message"] = _line(view, phrases, partner=partner)
    decision = completed(view, Decision(command, params, rule.description or follows_rule(rule.id), rule=rule.id))
    problems = problems_in_view(view, decision)
    return f"refused by the gate: {'; '.join(problems)}" if problems else decision


def _turn_params(view: View, command: str, params: dict[str, Any]) -> tuple[dict[str, Any], str | None] | str:
    """A conversation turn's params as the built-in turn fills them, with what the rule gave kept.

    The next speaker is the partner (in a group, who spoke last), a current
    participant other than the agent, as the world requires; a rule's
    `"{partner}"` means that person and a participant's name means them. The
    message (replaced by the rule's `say` line when it has one) and an
    offer's answer are the built-in turn's. A string: why the rule gives way.
    """
    choice = view.choice(command)
    assert choice is not None  # offered: checked by the caller
    partner = partner_of(view)
    built = speech_params(view, choice, "farewell" if command in END else "reply", partner)
    named = params.get(NEXT_SPEAKER)
    present = {str(p.id): p.name for p in present_others(view) if p.id}
    if named is None:
        speaker = built.get(NEXT_SPEAKER) or next_speaker(view, choice, partner)
    elif named == PARTNER_SLOT:
        speaker = partner.id
    elif view.me.is_self(str(named), None) or view.me.is_self(None, str(named)):
        return SELF_NAMED
    else:
        speaker = str(named) if str(named) in present else next(
            (i for i, name in present.items() if name == named), None) or person_id(view, str(named))
        if speaker is None:
            return f"{named} is not someone in this conversation"
    if not speaker:
        return "nobody in this conversation to hand the turn to"
    if view.me.is_self(str(speaker), None):
        return SELF_NAMED
    if (present or view.parsed.participants_listed) and str(speaker) not in present:  # left, or never in it
        return f"{named or speaker} is not someone in this conversation"
    filled = {**{k: v for k, v in built.items() if k != NEXT_SPEAKER}, **params, NEXT_SPEAKER: str(speaker)}
    return filled, present.get(str(speaker)) or partner.name


def person_id(view: View, name: str) -> str | None:
    """The id of someone by name: nearby now, in this conversation, or offered as a target."""
    for person in [*view.nearby_agents, *view.parsed.participants]:
        if person.name == name and person.id:
            return str(person.id)
    for agent_id, known in view.acquaintances.items():
        if known.display_name == name:
            return agent_id
    return None


def _line(view: View, phrases: Sequence[str], *, partner: str | None) -> str:
    """One of a `say`'s phrases, chosen stably per notification, its placeholders filled."""
    phrase = min(phrases, key=lambda p: hashlib.sha256(f"{view.notification_id}:{p}".encode()).hexdigest())
    who = partner or partner_of(view).name  # the one answered: in a group, who spoke last
    fill = {"partner": f"{who}{view.persona.honorific}" if who else "", "place": here_name(view.parsed) or "",
            "first_person": view.persona.first_person, "topic": "", "time": view.now.astimezone(TOKYO).strftime("%H:%M")}
    return phrase.format_map(fill)


def _with_line(view: View, decision: Decision, phrases: Sequence[str]) -> Decision:
    """A built-in rule's spoken command with the pack's `say` line instead of its own."""
    if "message" not in decision.params:
        return decision
    return replace(decision, params={**decision.params, "message": _line(view, phrases, partner=None)})


def fired_before_sending(view: View, selection: Selection[Decision] | None) -> dict[str, Any] | None:
    """What to save before the command goes out when pack rules fired for it (None: nothing).

    Saved first, as the ledger claims first: a crash after the POST must not
    leave a `max_fires` or a cooldown uncounted, so a rule never fires more
    often than it says, whatever happens to the process.
    """
    if selection is None or selection.turn is None or not selection.turn.fired:
        return None
    return changed(view, selection.turn.memory())


def changed(view: View, memory: dict[str, Any]) -> dict[str, Any]:
    """The keys of what the behaviour remembers that differ from what the notification found: all the
    store needs to keep (it replaces the keys it is given and keeps the others)."""
    return {key: value for key, value in memory.items() if view.behaviour_memory.get(key) != value}


def finish(view: View, selection: Selection[Decision] | None, decision: Decision | None, sent: str | None,
           success: bool | None, *, kept: Sequence[Meeting] = ()) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """After the outcome: the reactions, a model's deltas; (memory to save, trace), (None, trace) without a pack.

    `selection` is the rules' of this notification (the proposal's), whoever
    decided: the rules' firings (counts, flags) stand, then a model's
    `"state": {...}` deltas (`Decision.deltas`) are applied, both clamped as
    a rule's changes are. `kept`: the promises this notification kept (the
    store's, as `day` reads them), each a `promise_kept` with its partner.
    """
    model_state = decision.deltas if decision is not None else None
    trace: dict[str, Any] | None = selection.trace() if selection is not None else None
    behaviour = behaviour_of(view)
    if behaviour.empty:
        return None, trace
    turn = selection.turn if selection is not None and selection.turn is not None else turn_of(view)
    assert turn is not None
    for path, delta in (model_state or {}).items():
        turn.variables.change("set" if isinstance(delta, bool) else "add", str(path), delta, "model")
    taken = decision is not None and decision.params.get("transfer_response") == "accept"
    turn.react(events(turn.facts, sent, success, taken=taken), {})
    for partner in promises_kept(view, kept, turn.state):
        turn.react(["promise_kept"], {"partner": partner})
    for partner in promises_broken(view, turn.state):
        turn.react(["promise_broken"], {"partner": partner})
    done = {"fired": list(turn.fired), "reactions": list(turn.reacted),
            "changes": [c.to_json() for c in turn.variables.changes]}
    if trace is None and any(done.values()):
        trace = {"rule": None, "gave_way": [], "by": "another decider"}  # the model decided; the pack still acted
    return turn.memory(), trace and {**trace, **done}


# Under this key the behaviour memory keeps the kept promises already reacted to (id → when kept).
KEPT_KEY = "promises_kept"


def promises_kept(view: View, kept: Sequence[Meeting], memory: dict[str, Any]) -> list[str]:
    """The partner of each promise kept and not reacted to yet, one per promise; counts them in `memory`.

    The one rule of keeping is the store's (memory/promises.py: in place, by
    going, by talking), so the reaction fires exactly for the promises `day`
    calls kept. A count older than a day is forgotten.
    """
    counted: dict[str, str] = memory.setdefault(KEPT_KEY, {})
    for key in [k for k, at in counted.items() if _before(at, view.now - timedelta(days=1))]:
        del counted[key]
    partners = []
    for promise in kept:
        key = str(promise.id)
        known = view.acquaintances.get(str(promise.partner_id))
        name = promise.partner_name or (known.display_name if known else None)
        if key in counted or not name:
            continue
        counted[key] = view.now.isoformat()
        partners.append(str(name))
    return partners


# Under this key the behaviour memory keeps the broken promises already counted (id → due time).
BROKEN_KEY = "promises_broken"


def promises_broken(view: View, memory: dict[str, Any]) -> list[str]:
    """The partner of each promise broken and not counted yet, one per promise; counts them in `memory`.

    Kept in the behaviour memory, saved with the reactions' changes, so a
    promise is counted once across notifications and restarts. A counted
    promise older than any `broken_promises` can hold again is forgotten.
    """
    counted: dict[str, str] = memory.setdefault(BROKEN_KEY, {})
    oldest = view.now - promises.KEEPABLE_AFTER_DUE - promises.BROKEN_LOOKBACK
    for key in [k for k, due in counted.items() if _before(due, oldest)]:
        del counted[key]
    partners = []
    for promise in view.broken_promises:
        key = str(promise.id)
        known = view.acquaintances.get(str(promise.partner_id))
        name = promise.partner_name or (known.display_name if known else None)
        if key in counted or not name:
            continue
        counted[key] = utc_text(promise.due_at) if promise.due_at else ""
        partners.append(str(name))
    return partners


def _before(moment: str, limit: datetime) -> bool:
    try:
        return datetime.fromisoformat(moment) < limit
    except ValueError:
        return True


def events(facts: Facts, sent: str | None, success: bool | None, *, taken: bool = False) -> list[str]:
    """What happened, as reactions name it: the notification's type, and what the command did.

    `taken`: the command accepted an offer made inside the conversation (its `transfer_response`).
    """
    out = [facts.notification] if facts.notification else []
    if sent is not None and success is False:
        out.append("command_failed")
    elif sent is not None and success:
        out += {"conversation_start": ["conversation_started"], "conversation_accept": ["conversation_started"],
                "transfer": ["transfer_given"]}.get(sent, [])
        if sent in END or sent == "conversation_leave":
            out.append("conversation_ended")
        if sent in ACCEPT_TRANSFER or taken:
            out.append("transfer_received")
    return out
