"""A deterministic stand-in for a language model: it can only say back what the prompt tells it.

No real model is reachable where the tests run, so the model path of the
conversation benchmark and its tests are driven by this: a script for
testing/llm_server.py's loopback OpenAI-compatible server that reads the
prompt's sections (the understanding of the line, the agent's day, plans,
tastes, what the partner told before: llm/understanding.py) and writes a
one-sentence line from them and nothing else. It never reads the
conversation's lines themselves, so what it can say is exactly what the
prompt's understanding gives it: a benchmark of the prompt's information,
not of a model's Japanese.

It takes the rules' suggested command and params (the default the prompt
shows) and fills in the line. `spoil` makes every answer wrong in one
way, so tests can see the gate refuse it: 'mention' (a Discord mention in
the line), 'placeholder' (the prompt's placeholder copied as the line),
'not_offered' (a command not among the choices), 'money' (a transfer the
rules did not propose), 'repeat' (a line said before).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from karakuri_agent.ja import prompt_text as labels

SPOILS = ("mention", "placeholder", "not_offered", "money", "repeat")
_KIND = {label: kind for kind, label in labels.KIND_LABELS.items()}
_ASKS = {label: asks for asks, label in labels.ASKS_LABELS.items()}
_QUESTION = {label: kind for kind, label in labels.QUESTION_LABELS.items()}


def sections(prompt: str) -> dict[str, list[Any]]:
    """The prompt's `## heading` sections, each a list of the JSON lines under it."""
    found: dict[str, list[Any]] = defaultdict(list)
    heading = ""
    for line in prompt.splitlines():
        if line.startswith("## "):
            heading = line[3:]
        elif heading:
            try:
                found[heading].append(json.loads(line))
            except ValueError:
                pass
    return found


def _first(found: dict[str, list[Any]], heading: str) -> dict[str, Any]:
    item = next(iter(found.get(heading) or []), None)
    return item if isinstance(item, dict) else {}


def _tastes(found: dict[str, list[Any]]) -> list[dict[str, Any]]:
    return [t for t in found.get(labels.MY_TASTES) or [] if isinstance(t, dict)]


def _choice(options: list[str], tastes: list[dict[str, Any]]) -> str:
    """The option the tastes favour: one named as liked, else one not disliked, else the first."""
    def feel(option: str) -> str:
        for taste in tastes:
            thing = str(taste.get("thing") or taste.get("is") or taste.get("habit") or "")
            if thing and (thing in option or option in thing):
                if taste.get("does") == labels.DOES_NOT:
                    return labels.DISLIKED
                return str(taste.get("feel") or labels.LIKED)
        return ""
    liked = [o for o in options if feel(o) == labels.LIKED]
    fine = [o for o in options if feel(o) != labels.DISLIKED]
    return (liked or fine or options)[0]


def line_from(found: dict[str, list[Any]], params: dict[str, Any]) -> str:
    """A line made only of what the prompt's understanding says."""
    heard = _first(found, labels.HEARD)
    day = _first(found, labels.MY_DAY)
    plans = [p for p in found.get(labels.MY_PLANS) or [] if isinstance(p, dict)]
    tastes = _tastes(found)
    kind = _KIND.get(str(heard.get("kind") or ""), "")
    topic = str(heard.get("topic") or "")
    if params.get("transfer_response") == "accept":
        return "わあ、ありがとう！うれしいな。"
    if params.get("transfer_response") == "reject":
        return "ありがとう。でも、気持ちだけもらっておくね。"
    meeting = heard.get("meeting")
    if isinstance(meeting, dict) and meeting.get("at"):  # the line set a meeting, whatever its kind
        return f"いいよ！{meeting['at']}に{meeting.get('place') or 'そこ'}だね。"
    if kind == "question":
        return _answer(heard, day, plans, tastes)
    if kind == "farewell":
        return "うん、またね！"
    if kind == "greeting":
        return "こんにちは！"
    if kind in ("warmth", "compliment"):
        return "わたしも話せてうれしいよ！" if kind == "warmth" else "ありがとう、うれしいな！"
    if kind == "thanks":
        return "どういたしまして！"
    if kind == "apology":
        return "ううん、気にしないで。"
    if kind == "retraction":
        return f"そっか、{topic}はやめにしたんだね。" if topic else "そっか、予定が変わったんだね。"
    if kind == "invitation" or meeting == labels.NO_TIME_SAID:
        return "いいね、行こう！何時にする？"
    if kind == "offer":
        return "ありがとう、助かるよ！"
    mood = heard.get("mood")
    told = str(heard.get("told") or "")
    said = f"{told}んだ" if told else f"{topic}なんだ"  # the thing told, as the understanding words it
    if kind in ("news", "plan", "feeling", "statement") and (told or topic):
        if mood == labels.MOOD_LABELS["bad"]:
            return f"{said}…それは大変だね。"
        if mood == labels.MOOD_LABELS["good"]:
            return f"{said}、よかったね！"
        return f"{said}、楽しみだね！" if kind == "plan" else f"へえ、{said}！"
    return "うん、そうなんだね。"


def _answer(heard: dict[str, Any], day: dict[str, Any], plans: list[dict[str, Any]],
            tastes: list[dict[str, Any]]) -> str:
    asks = _ASKS.get(str(heard.get("asks") or ""), "")
    question = _QUESTION.get(str(heard.get("question") or ""), "")
    options = [str(o) for o in heard.get("options") or []]
    if asks == "day":
        went, people = day.get("went"), day.get("talked_with") or []
        if question in ("who", "who_with") and people:
            return f"今日は{people[0]}と話したよ。"
        if isinstance(went, list) and went:
            return f"今日は{'と'.join(went[:2])}に行ったよ。"
        return f"今日はずっと{day['here']}にいたよ。" if day.get("here") else "今日はまだどこにも行ってないんだ。"
    if asks == "plans":
        if plans:
            plan = plans[0]
            at = str(plan.get("at") or "").split(" ")[-1]
            where = f"{plan['place']}で" if plan.get("place") else ""
            who = f"{plan['with']}と" if plan.get("with") else ""
            return f"このあと{at}に{where}{who}約束があるんだ。"
        return "このあとは特に予定はないよ。"
    if asks == "talk":
        talked = heard.get("talk_topic")
        return f"{talked}の話で盛り上がってたんだよ。" if talked else "まだ話し始めたところだよ。"
    if asks == "other":
        return "うーん、その人のことはよく知らないんだ。"
    if options:
        return f"{_choice(options, tastes)}かな！"
    if question in ("yesno", "like"):  # a stance first: what it does or likes, before what it favours
        tastes = sorted(tastes, key=lambda t: not (t.get("does") or t.get("feel")))
    for taste in tastes:
        if taste.get("is") and asks in ("favourite", "pastime"):
            thing = taste["is"][0] if isinstance(taste["is"], list) else taste["is"]
            return f"{thing}が好きなんだ。"
        if taste.get("does"):
            return "うん、そうだよ。" if taste["does"] == labels.DOES else "ううん、あんまりしないかな。"
        if taste.get("feel"):
            return "うん、好きだよ！" if taste["feel"] == labels.LIKED else "ううん、ちょっと苦手なんだ。"
        if taste.get("is") and question not in ("yesno", "like"):
            return f"{taste['is']}かな。"
    if question in ("yesno", "like"):
        return "うん、けっこう好きだよ。"  # nothing in the tastes says otherwise
    return "うん、そうだね。"


@dataclass
class StandInModel:
    """The script: a proposal per request, made of the rules' command and a line from the understanding."""

    spoil: str = ""
    lines: list[str] = field(default_factory=list)  # every line it proposed, in order
    prompts: list[str] = field(default_factory=list)  # every situation it was shown

    def __call__(self, request: dict[str, Any]) -> str:
        messages = request.get("messages") or []
        situation = str(messages[1].get("content") or "") if len(messages) > 1 else ""
        self.prompts.append(situation)
        found = sections(situation)
        default = _first(found, labels.SUGGESTION)
        choices = [c for c in found.get(labels.CHOICES) or [] if isinstance(c, dict)]
        if not default:
            command = next((c["command"] for c in choices if not c.get("required")), None)
            return _proposal(command or "wait", {})
        params = dict(default.get("params") or {})
        if "message" in params:
            params["message"] = line_from(found, params)
            self.lines.append(params["message"])
        return self._spoiled(str(default.get("command")), params, found)

    def _spoiled(self, command: str, params: dict[str, Any], found: dict[str, list[Any]]) -> str:
        if self.spoil == "not_offered":
            return _proposal("teleport", {"to": "月"})
        if self.spoil == "money":
            return _proposal(command, {**params, "transfer": {"money": 10000}})
        if "message" in params and self.spoil == "mention":
            params["message"] = "<@1474403124906295517> " + params["message"]
        elif "message" in params and self.spoil == "placeholder":
            params["message"] = labels.OWN_WORDS
        elif "message" in params and self.spoil == "repeat":
            said = [s for s in found.get(labels.SAID_BEFORE) or [] if isinstance(s, str)]
            params["message"] = said[0] if said else params["message"]
        return _proposal(command, params)


def _proposal(command: str, params: dict[str, Any]) -> str:
    return json.dumps({"command": command, "params": params, "reason": "理解から答える"}, ensure_ascii=False)
