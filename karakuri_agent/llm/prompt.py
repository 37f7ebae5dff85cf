"""The chat messages that ask the model for one proposal.

Built from plain data only: a persona card (a mapping, so any persona pack
can feed it), the skill's guidance, what the view holds, the offered
choices with their schemas, and the rules' own first proposal as the
sensible default, without its line: on a conversation turn the model gets
the line understood and what is true of the agent (llm/understanding.py)
and writes its own words, since a model shown the rules' line copies it.
Nothing here reads settings, so no key, webhook URL or model key can reach
a prompt; the secrets the caller passes (`secrets`) are masked in the
lines others said, should someone in town repeat one. Everything is compact JSON, one item a line,
with every list and text bounded: the prompt is paid for on every
notification (benchmarks/bench_llm_prompt.py measures it).

What other agents said goes in as quoted JSON data under a heading that
says it is data; the gate, not the prompt, is what stops a bad proposal.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.identity import NOBODY, PersonRef
from karakuri_agent.domain.notification import Choice
from karakuri_agent.mind.persona import Persona
from karakuri_agent.domain.records import Activity, Transfer, here_of
from karakuri_agent.mind.view import View
from karakuri_agent.gate import SPOKEN_FIELDS
from karakuri_agent.ja import prompt_text
from karakuri_agent.ja.phrases import relationship
from karakuri_agent.ja.prompt_text import (
    ANSWER_SHAPE,
)
from karakuri_agent.llm.understanding import clock, promise_shown, understand
from karakuri_agent.memory import recall
from karakuri_agent.secret import redact

# Bounds that keep a prompt small whatever the store holds.
LINES = 8  # conversation messages, newest last
LINE_CHARS = 200
SAID = 6  # the agent's own recent lines
RECENT = 5  # recent commands
PEOPLE = 8
PROMISES = 5
PLACES = 12
ENUM = 20
TEXT = 60  # descriptions, names, reasons


def persona_card(persona: Persona) -> dict[str, Any]:
    """What the prompt needs of a persona, as a plain mapping.

    A few of the pack's own lines (those without placeholders) show the voice
    better than any description of it.
    """
    pools = (persona.accept, persona.conversation_start, persona.farewells)
    examples = [line for pool in pools for line in pool[:3] if "{" not in line][:3]
    return {"name": persona.name, "first_person": persona.first_person, "tone": persona.tone, "examples": examples,
            "likes": list(persona.likes), "topics": list(persona.topics),
            "cannot_answer": list(persona.answers.get("unknown", ()))[:2]}


def build_messages(
    persona: Mapping[str, Any],
    view: View,
    default: Decision | None,
    *,
    repair: tuple[str | None, Sequence[str]] | None = None,
    secrets: Sequence[str] = (),
) -> list[dict[str, str]]:
    """System and user messages; on repair, the previous answer and the problems found in it.

    A repair shows the model its own answer (as read) and the gate's
    problems, and names the offered commands again. An answer that could not
    be read (`repair[0]` None) is not shown back, since a small model only
    repeats it; the model is asked for the JSON object alone, in the
    shape of the rules' own proposal.
    """
    messages = [
        {"role": "system", "content": prompt_text.system_message(persona)},
        {"role": "user", "content": _situation(view, default)},
    ]
    if repair is not None:
        answer, problems = repair
        offered = prompt_text.offered(list(dict.fromkeys(c.command for c in view.choices)))
        if answer is None:
            example = _json(_suggested(default)) if default is not None and default.acts else ANSWER_SHAPE
            messages.append({"role": "user", "content": prompt_text.unreadable(problems, offered, example)})
        else:
            messages.append({"role": "assistant", "content": answer[:1000]})
            messages.append({"role": "user", "content": prompt_text.unusable(problems, offered)})
    kept = tuple(s for s in secrets if s)
    return [{**m, "content": redact(m["content"], kept)} for m in messages] if kept else messages


def _situation(view: View, default: Decision | None) -> str:
    parsed = view.parsed
    here: Mapping[str, Any] = here_of(parsed) or {}
    understood = understand(view)

    def participant(p: PersonRef) -> dict[str, Any]:
        known = recall.about(view, p)
        if understood is not None and p.same(understood.partner):
            known.pop("facts", None)  # what they told is in the understanding, once
        return _drop_empty({"id": p.id, "name": _cut(p.name), **known})

    sections: list[tuple[str, list[Any]]] = [
        (prompt_text.SITUATION, [_drop_empty({
            "notification": parsed.notification_type,
            "time": clock(view.now),
            "me": _drop_empty({"id": view.me.agent_id, "name": view.me.name}),
            "here": _drop_empty({"node_id": here.get("node_id"), "name": _cut(here.get("name"))}),
        })]),
        (prompt_text.PARTICIPANTS, [participant(p) for p in parsed.participants
                                  if not view.me.is_self(p.id, p.name)]),
        (prompt_text.CONVERSATION, [
            _drop_empty({"speaker": _cut(m.speaker), "id": m.speaker_id,
                         "line": _cut(m.message, LINE_CHARS)})
            for m in parsed.conversation_messages[-LINES:]]),
        (prompt_text.TRANSFERS, [_transfer(t) for t in parsed.transfers]),
        *(understood.sections if understood is not None else []),
        (prompt_text.NEARBY, [_drop_empty({"id": a.id, "name": _cut(a.name)})
                       for a in view.nearby_agents[:PEOPLE]]),
        (prompt_text.KNOWN_PEOPLE, [_drop_empty({"id": p.agent_id, "name": _cut(p.display_name),
                                    "relationship": relationship(p.interactions), "met": p.interactions})
                       for p in view.people[:PEOPLE]]),
        # On a turn the promises are the agent's plans, in the understanding.
        (prompt_text.PROMISES, [promise_shown(c) for c in view.pending[:PROMISES]]
         if understood is None else []),
        (prompt_text.RECENT_COMMANDS, [_command(c) for c in view.recent_commands[:RECENT]]),
        (prompt_text.SAID_BEFORE, [_cut(line, LINE_CHARS) for line in list(dict.fromkeys(view.said_before))[:SAID]]),
        (prompt_text.KNOWN_PLACES, _places(view)),
        (prompt_text.CHOICES, [_choice(c) for c in view.choices]),
        (prompt_text.SUGGESTION, [_suggested(default)] if default is not None and default.acts else []),
        *_behaviour(view),
    ]
    return "\n".join(f"## {title}\n" + "\n".join(map(_json, items)) for title, items in sections if items)


def _behaviour(view: View) -> list[tuple[str, list[Any]]]:
    """The pack's variables with their band words, its active directives and one-prompt context."""
    from karakuri_agent.decide.behaving import turn_of  # only a pack with behaviour.json has anything to show

    turn = turn_of(view)  # the notification's one turn: a directive the rules fired just now is shown
    if turn is None:
        return []
    shown = [_drop_empty({"name": v["path"], "value": v["value"], "band": v.get("band")})
             for v in turn.variables.shown()]
    return [(prompt_text.MY_STATE, [*shown, prompt_text.STATE_HINT] if shown else []),
            (prompt_text.DIRECTIVES, turn.directives()), (prompt_text.CLUES, turn.contexts())]


def _choice(choice: Choice) -> dict[str, Any]:
    return _drop_empty({
        "command": choice.command,
        "description": _cut(choice.description),
        "params": choice.params,
        "required": choice.required_params,
        "schema": {name: _field(spec) for name, spec in choice.param_schema.items()},
    })


def _field(spec: Mapping[str, Any]) -> dict[str, Any]:
    """The parts of a field spec a proposal must respect; long enums cut."""
    kept = {key: spec[key] for key in ("type", "minimum", "maximum", "minLength", "maxLength") if key in spec}
    if isinstance(spec.get("enum"), list):
        kept["enum"] = spec["enum"][:ENUM]
    if isinstance(spec.get("description"), str):
        kept["description"] = _cut(spec["description"])
    return kept


def _places(view: View) -> list[dict[str, Any]]:
    """Names for the node ids a move may name first, then other known places."""
    offered = {str(v) for c in view.choices for v in c.enum("target_node_id")}
    ranked = sorted(view.places, key=lambda p: (p.node_id not in offered, p.visits))
    return [_drop_empty({"node_id": p.node_id, "name": _cut(p.name), "visits": p.visits or None})
            for p in ranked[:PLACES]]


def _command(entry: Activity) -> dict[str, Any]:
    """What was done; lines said are listed once, in their own section."""
    params = {k: _cut(v) if isinstance(v, str) else v for k, v in (entry.params or {}).items() if k != "message"}
    return _drop_empty({"command": entry.command, "params": params, "ok": entry.success})


def _transfer(transfer: Transfer) -> dict[str, Any]:
    sender = transfer.get("from") or NOBODY
    return _drop_empty({"from": _cut(sender.name), "id": sender.id,
                        **{k: v for k, v in transfer.items() if k in ("item", "money", "status")}})


def _suggested(decision: Decision) -> dict[str, Any]:
    """The rules' proposal as a default: its command and its other params, never its line (a
    model shown a line copies it); the line's place says that the model writes it."""
    params = {k: prompt_text.OWN_WORDS if k in SPOKEN_FIELDS else v for k, v in decision.params.items()}
    return {"command": decision.command, "params": params, "reason": _cut(decision.reason)}


def _cut(text: Any, limit: int = TEXT) -> Any:
    return text[:limit] if isinstance(text, str) else text


def _drop_empty(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if v not in (None, "", [], {})}


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
