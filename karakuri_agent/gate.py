"""The one gate between a decision and the world.

Every path that sends a command passes here: `handle` (whatever decider
proposed), the `karakuri command` wrapper (an LLM runtime's choice), and any
future decider. A proposal is admitted only when

- the notification can still be acted on (not processed, not expired, has choices);
- the command is one of the offered choices;
- its params fit the choice's `param_schema` (string lengths in UTF-16 units, as
  the server counts them);
- every spoken field is plain words: a mention, link, Discord id or chat markup is
  refused, not silently cleaned, so what is sent is exactly what the decider
  proposed and the decider learns what to change;
- the line has not been said before in this conversation.

A refusal is a list of short English problems, one per fault, that can be shown to
a person or handed back to a decider (a model can be asked again with them).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.notification import Choice, Notification, offered_choice
from karakuri_agent.ja import phrases, reasons
from karakuri_agent.ja.safety import BARE_IDS, clean_text
from karakuri_agent.outside import clean
from karakuri_agent.params import InvalidParams, merge, validate

if TYPE_CHECKING:
    from karakuri_agent.mind.view import View

# Params whose value is said aloud in town.
SPOKEN_FIELDS = ("message",)
NOT_ACTIONABLE = {
    "notification_processed": "the notification was already processed",
    "notification_expired": "the notification has expired",
    "no_choices": "the notification offers no choices",
}


@dataclass(frozen=True)
class Admitted:
    """A command that may be sent: the offered choice and the checked params."""

    choice: Choice
    params: dict[str, Any]


@dataclass(frozen=True)
class Rejected:
    problems: tuple[str, ...]


def not_actionable(notification: Notification, now: datetime) -> str | None:
    """Why nothing can be sent for this notification (a key of NOT_ACTIONABLE), or None."""
    if notification.is_processed():
        return "notification_processed"
    if notification.is_expired(now):
        return "notification_expired"
    if not notification.choices:
        return "no_choices"
    return None


def admit(notification: Notification, decision: Decision, said_before: Sequence[str] = (),
          secrets: Sequence[str] = ()) -> Admitted | Rejected:
    """Admit one acting decision, or say every reason it cannot be sent (`secrets`: what no param may carry)."""
    return admit_among(notification.choices, decision, said_before, secrets)


def problems_in_view(view: View, decision: Decision) -> list[str]:
    """The gate as a decider sees it: what is wrong with a proposal, empty when it would be admitted.

    For deciders that check their own proposals before handing them over (a
    model asked again with the problems); the cycle still gates what they return.
    """
    verdict = admit_among(view.choices, decision, view.said_before)
    return list(verdict.problems) if isinstance(verdict, Rejected) else []


def admit_among(choices: Sequence[Choice], decision: Decision, said_before: Sequence[str],
                secrets: Sequence[str] = ()) -> Admitted | Rejected:
    command = decision.command or ""
    choice = offered_choice(choices, command, decision.params)
    if choice is None:
        offered = ", ".join(dict.fromkeys(c.command for c in choices)) or "none"
        return Rejected((f"{command} is not one of this notification's choices ({offered})",))
    try:  # a lone surrogate cannot travel as UTF-8: it is sent as U+FFFD, whoever proposed it
        params = validate(choice, merge(choice, clean(decision.params)))
    except InvalidParams as exc:
        return Rejected(tuple(exc.problems))
    problems = secret_problems(params, secrets) or spoken_problems(params, said_before)
    return Rejected(tuple(problems)) if problems else Admitted(choice, params)


def secret_problems(params: dict[str, Any], secrets: Sequence[str]) -> list[str]:
    """A param that carries a configured secret (the API key, a token, the database password) is never sent.

    Compared with whitespace removed too, so a key spelled out with spaces is still found.
    """
    if not secrets:
        return []
    import json

    text = json.dumps(params, ensure_ascii=False)
    squeezed = _normal(text)
    if any(secret in text or _normal(secret) in squeezed for secret in secrets if secret):
        return ["the params carry a configured secret (an API key, token or password): never say or send it"]
    return []


def spoken_problems(params: dict[str, Any], said_before: Sequence[str]) -> list[str]:
    """What is wrong with the lines a command would say in town."""
    spoken = {name: params[name] for name in SPOKEN_FIELDS if isinstance(params.get(name), str)}
    if not spoken:
        return []
    from karakuri_agent.voice.fitting import said_key  # loaded only when something is said

    said = {said_key(line) for line in said_before}
    problems = []
    for name, line in spoken.items():
        if _normal(clean_text(line)) != _normal(line) or BARE_IDS.search(line):
            problems.append(f"{name} contains a mention, link, Discord id or chat markup: say it in plain words")
        elif said_key(line) in said:
            problems.append(f"{name} was already said in this conversation: say something new")
    return problems


def first_admitted(notification: Notification, candidates: Iterable[Decision], said_before: Sequence[str],
                   secrets: Sequence[str] = ()) -> tuple[Decision, Admitted | None, list[dict[str, Any]]]:
    """The first candidate the gate admits (or the first that chooses to do nothing).

    Returns the decision, what was admitted (None: send nothing), and the
    candidates refused on the way with their problems.
    """
    refused: list[dict[str, Any]] = []
    for decision in candidates:
        if not decision.acts:
            return decision, None, refused
        verdict = admit(notification, decision, said_before, secrets)
        if isinstance(verdict, Admitted):
            return decision, verdict, refused
        refused.append({"command": decision.command, "problem": "; ".join(verdict.problems)})
    reason = phrases.NONE_SENDABLE if refused else reasons.NOTHING_TO_CHOOSE
    return Decision(None, reason=reason), None, refused


def _normal(line: str) -> str:
    """A line without whitespace, which clean_text folds: what is left to differ is what it removes."""
    return "".join(line.split())
