"""Behaviour numbers, computed from the town's log (what the agent actually sent and said).

Every number is judged from the town's side: what was offered, what came
back over HTTP, where the agent's body was. The agent's own decision records
(`--json`) are used only for reasons in the details.

How the judged rows are measured (see also benchmarks/README.md):

- free notifications: the ones that ask for nothing in particular and offer
  `move` (idle_reminder_fired, movement_completed, action_completed,
  conversation_ended, conversation_rejected, agent_logged_in). "Something else
  was possible" holds for all of them (move is always offered). A wait is
  *justified* when the agent stands at the place of a promise whose partner
  has not come yet and whose time (plus 30 minutes) has not passed.
- an information command is *repeated* when the same command is among the
  agent's previous 3 commands.
- places: distinct nodes the agent has stood on (start and arrivals) up to
  the 50th free notification, over the 9 nodes (all reachable).
- speak when offered: `conversation_message` notifications offering
  `conversation_speak`, the first 4 of each conversation.
- unique lines: every line the agent said in one conversation (start,
  accept, speak, end, leave), compared without whitespace.
- pick-up: for each agent line that answers a partner's line, the partner's
  *content words* are the town's tags of that line, the place words in it,
  and what `karakuri_agent.speech.pick_topic` finds in it. The line picks up
  when it contains one of them; when the partner's line has none, it picks
  up when it names the partner (`speech.address_name`).
- promises: a promise counts when it was reachable: at the first free
  notification after it was made, the road time from there was within the
  due time. It is kept when the agent arrived at the promised node after it
  was made and no later than the due time.
- greetings: the agent's first line to someone in a conversation (start or
  accept) is matched against the persona's `greetings.known` and
  `greetings.first_meeting` templates; the right kind depends on whether the
  agent had exchanged lines with that person before in this run.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Iterable, Sequence

from .drive import AgentRun
from .sim import INFO_COMMANDS, Step, Town, iso
from .world import PERSON_BY_ID, PLACE_BY_ID, PLACE_WORDS

SPEAKING = frozenset({"conversation_start", "conversation_accept", "conversation_speak", "conversation_end",
                      "end_conversation", "conversation_leave"})
FIRST_TURNS = 4
PLACES_WINDOW = 50


def _rate(numerator: int, denominator: int) -> float | None:
    return numerator / denominator if denominator else None


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{100 * value:.1f} %"


def row(name: str, value: float | int | None, display: str, aim: str, holds: bool | None, n: str = "",
        key: str = "", num: int | None = None, den: int | None = None) -> dict[str, Any]:
    """One line of the table; `num`/`den` (a rate's parts, or a count in `num`) let runs be pooled."""
    return {"key": key, "name": name, "value": value, "display": display, "aim": aim, "holds": holds, "n": n,
            "num": value if num is None and den is None and isinstance(value, int) else num, "den": den}


def _sent(step: Step) -> dict[str, Any] | None:
    return step.posts[0] if step.posts else None


def _norm(text: str) -> str:
    return "".join(text.split())


def _template_pattern(template: str, first_person: str, name: str) -> re.Pattern[str]:
    """A greeting template as a pattern anchored at the start of the line (greetings open it).

    {partner} is the partner's address name or nothing (a line without a
    usable name); other placeholders match anything short; commas are
    ignored, since a line without a name drops the comma next to {partner}.
    """
    parts = re.split(r"(\{[a-z_]+\})", template.replace("、", ""))
    out = [f"^(?:{re.escape(name)})?" if name else "^"]
    for part in parts:
        if part == "{first_person}":
            out.append(re.escape(first_person))
        elif part == "{partner}":
            out.append(f"(?:{re.escape(name)})?" if name else "")
        elif part.startswith("{") and part.endswith("}"):
            out.append(".{0,20}?")
        else:
            out.append(re.escape(part))
    return re.compile("".join(out))


class Judge:
    """The persona-dependent judgements: topics, names, greeting kinds."""

    def __init__(self, persona: Any | None = None) -> None:
        from karakuri_agent import speech

        self.speech = speech
        self.persona = persona or speech.load_persona()

    def content_words(self, line: Any) -> list[str]:
        text = line.text
        words = list(line.tags) + [w for w in PLACE_WORDS if w in text]
        topic = self.speech.pick_topic(text, self.persona)
        if topic:
            words.append(topic)
        return list(dict.fromkeys(w for w in words if w))

    def greeting_kind(self, message: str, person_id: str | None = None) -> str:
        """'known', 'first_meeting' or 'none': which persona greeting opens the line."""
        cleaned = _norm(message).replace("、", "")
        name = self.name(person_id)
        first = self.persona.first_person
        for kind, pool in (("known", "known"), ("first_meeting", "first_meeting")):
            if any(_template_pattern(t, first, name).search(cleaned) for t in self.persona.greetings[pool]):
                return kind
        return "none"

    def name(self, person_id: str | None) -> str:
        person = PERSON_BY_ID.get(person_id or "")
        return self.speech.address_name(person.name) if person else ""


def measure(town: Town, runs: Sequence[AgentRun], judge: Judge | None = None) -> dict[str, Any]:
    """All rows (the aims), the extra rows, and the details behind them."""
    judge = judge or Judge()
    steps = town.steps
    rows: list[dict[str, Any]] = []
    extras: list[dict[str, Any]] = []
    details: dict[str, Any] = {}

    # 1. wait on free notifications ------------------------------------------------------
    free = [s for s in steps if s.kind == "free"]
    waits = [s for s in free if (_sent(s) or {}).get("command") == "wait"]
    unjustified = [s for s in waits if not s.justified_wait]
    rate = _rate(len(unjustified), len(free))
    rows.append(row("wait chosen on idle reminders when something else was possible", rate,
                    f"{_pct(rate)} ({len(unjustified)} of {len(free)})", "≤ 5 %",
                    None if rate is None else rate <= 0.05, f"{len(free)} free notifications", "idle_wait",
                    len(unjustified), len(free)))
    silent = [s for s in free if not s.posts]
    idle_only = [s for s in free if s.type == "idle_reminder_fired"]
    idle_waits = [s for s in idle_only if (_sent(s) or {}).get("command") == "wait" and not s.justified_wait]
    details["idle"] = {
        "free_notifications": len(free), "waits": len(waits), "justified_waits": len(waits) - len(unjustified),
        "no_command": len(silent),
        "idle_reminder_fired_only": {"count": len(idle_only), "unjustified_waits": len(idle_waits)},
        "free_by_type": dict(Counter(s.type for s in free)),
        "commands_on_free": dict(Counter((_sent(s) or {}).get("command") or "(none)" for s in free)),
    }

    # 2. information repeated -------------------------------------------------------------
    sequence = [(s, p["command"]) for s in steps for p in s.posts[:1]]
    repeats = [s.index for i, (s, c) in enumerate(sequence)
               if c in INFO_COMMANDS and c in {c2 for _, c2 in sequence[max(0, i - 3):i]}]
    info_used = Counter(c for _, c in sequence if c in INFO_COMMANDS)
    rows.append(row("an information command repeated within the last 3 actions", len(repeats),
                    str(len(repeats)), "0", len(repeats) == 0, f"{sum(info_used.values())} information commands",
                    "info_repeat"))
    details["information"] = {"used": dict(info_used), "repeated_at_steps": repeats}

    # 3. places ---------------------------------------------------------------------------
    window = free[:PLACES_WINDOW]
    end = window[-1].time if window else steps[0].time if steps else None
    visited = {node for at, node, _ in town.arrivals if end is not None and at <= end}
    reachable = len(PLACE_BY_ID)
    rate = _rate(len(visited), reachable)
    rows.append(row(f"distinct places visited / reachable places, over {PLACES_WINDOW} idle reminders", rate,
                    f"{_pct(rate)} ({len(visited)} of {reachable})", "≥ 80 %",
                    None if rate is None else rate >= 0.8,
                    f"{len(window)} free notifications" + ("" if len(window) >= PLACES_WINDOW else " (fewer than 50)"),
                    "places", len(visited), reachable))
    all_visited = {node for _, node, _ in town.arrivals}
    details["places"] = {"visited_in_window": sorted(visited), "visited_in_run": sorted(all_visited),
                         "arrivals": [(iso(at), node) for at, node, _ in town.arrivals]}

    # 4. speak when offered -----------------------------------------------------------------
    offers = [s for s in steps if s.kind == "turn" and s.speak_offer_index is not None
              and s.speak_offer_index < FIRST_TURNS]
    spoke = [s for s in offers if (_sent(s) or {}).get("command") == "conversation_speak"]
    rate = _rate(len(spoke), len(offers))
    rows.append(row(f"speak chosen when offered, first {FIRST_TURNS} turns of a conversation", rate,
                    f"{_pct(rate)} ({len(spoke)} of {len(offers)})", "≥ 95 %",
                    None if rate is None else rate >= 0.95, f"{len(offers)} offers", "speak", len(spoke), len(offers)))
    details["speak_not_chosen"] = [
        {"step": s.index, "sent": (_sent(s) or {}).get("command"), "offer": s.speak_offer_index,
         "conversation_id_in_json": s.variant.get("conversation_id"), "reason": _reason(runs, s)}
        for s in offers if s not in spoke]

    # 5. unique lines ---------------------------------------------------------------------------
    total = unique = 0
    repeated_lines: list[dict[str, Any]] = []
    for conv in town.conversations:
        said = [_norm(line["message"]) for line in conv.agent_lines]
        total += len(said)
        unique += len(set(said))
        for text, count in Counter(said).items():
            if count > 1:
                repeated_lines.append({"conversation": conv.id, "line": text, "times": count})
    rate = _rate(unique, total)
    rows.append(row("own lines unique within a conversation", rate, f"{_pct(rate)} ({unique} of {total})",
                    "100 %", None if rate is None else unique == total, f"{len(town.conversations)} conversations",
                    "unique_lines", unique, total))
    details["repeated_lines"] = repeated_lines

    # 6. pick-up --------------------------------------------------------------------------------
    answered = picked = with_content = content_picked = named = 0
    pickups: list[dict[str, Any]] = []
    for conv in town.conversations:
        for line in conv.agent_lines:
            partner_line = line.get("partner_line")
            if partner_line is None or line["command"] not in SPEAKING:
                continue
            answered += 1
            words = judge.content_words(partner_line)
            message = line["message"]
            name = judge.name(line.get("partner_id"))
            has_name = bool(name) and name in message
            named += has_name
            hit = [w for w in words if w in message]
            if words:
                with_content += 1
                content_picked += bool(hit)
                ok = bool(hit)
            else:
                ok = has_name
            picked += ok
            pickups.append({"step": line["step"], "partner": partner_line.text, "words": words, "said": message,
                            "picked": ok, "by": hit or ([name] if ok else [])})
    rate = _rate(picked, answered)
    rows.append(row("own lines that pick up the partner's last line (name, place, topic)", rate,
                    f"{_pct(rate)} ({picked} of {answered})", "≥ 60 %", None if rate is None else rate >= 0.6,
                    f"{answered} answering lines", "pickup", picked, answered))
    details["pickup"] = {"content_lines": with_content, "content_picked": content_picked,
                         "lines_naming_partner": named, "lines": pickups}

    # 7. promises ---------------------------------------------------------------------------------
    shown = [p for p in town.promises if p.notification_id]
    last = steps[-1].time if steps else None
    # A promise whose time had not come when the run stopped is judged only if already kept.
    judged = [p for p in shown if p.reachable and (p.kept or (last is not None and p.due <= last))]
    kept = [p for p in judged if p.kept]
    rate = _rate(len(kept), len(judged))
    rows.append(row("promises kept: at the promised place before the due time, when reachable", rate,
                    f"{_pct(rate)} ({len(kept)} of {len(judged)})", "≥ 90 %",
                    None if rate is None else rate >= 0.9, f"{len(shown)} promises made, {len(judged)} reachable and due within the run",
                    "promises", len(kept), len(judged)))
    details["promises"] = [
        {"text": p.text, "node": p.node_id, "made_at": iso(p.made_at), "due": iso(p.due),
         "notification_id": p.notification_id, "reachable": p.reachable,
         "arrived_at": iso(p.arrived_at) if p.arrived_at else None, "kept": p.kept, "met": p.met,
         "there_at_due": town.place_at(p.due) == p.node_id}
        for p in shown]

    # 8/9. referee ----------------------------------------------------------------------------
    bad = town.violations["not_in_choices"] + town.violations["schema"]
    rows.append(row("commands not in the choices, or params breaking the schema", bad, str(bad), "0", bad == 0,
                    f"{sum(len(s.posts) for s in steps)} commands", "violations"))
    second = town.violations["second_command"]
    rows.append(row("second commands for one notification", second, str(second), "0", second == 0,
                    f"{len(steps)} notifications", "second_commands"))
    details["violations"] = dict(town.violations)
    details["violating_posts"] = [
        {"step": s.index, **{k: v for k, v in p.items() if k in ("command", "params", "status", "error", "field",
                                                                  "problems")}}
        for s in steps for p in s.posts if p.get("status") in (400, 409) and p.get("error") in
        ("invalid_request", "state_conflict") and not _world(p, town, s)]

    # extras ------------------------------------------------------------------------------------
    extras += _memory_rows(town, details)
    extras += _revisit_rows(town, runs, details)
    extras += _greeting_rows(town, judge, details)
    there = [p for p in judged if p.kept and town.place_at(p.due) == p.node_id]
    met = [p for p in judged if p.met]
    extras.append(row("promises: still at the promised place at the due time", _rate(len(there), len(judged)),
                      f"{_pct(_rate(len(there), len(judged)))} ({len(there)} of {len(judged)})", "", None,
                      key="promise_there_at_due", num=len(there), den=len(judged)))
    extras.append(row("promises: met the partner there", _rate(len(met), len(judged)),
                      f"{_pct(_rate(len(met), len(judged)))} ({len(met)} of {len(judged)})", "", None,
                      key="promise_met", num=len(met), den=len(judged)))
    rejected = Counter(r["error"] for r in town.world_rejections)
    extras.append(row("commands the world refused (valid shape, impossible now)", len(town.world_rejections),
                      f"{len(town.world_rejections)}" + (f" ({dict(rejected)})" if rejected else ""), "", None,
                      key="world_rejections"))
    failures = [r for r in runs if r.exit_code != 0 or r.record is None]
    extras.append(row("agent runs that failed (exit code ≠ 0 or no decision record)", len(failures),
                      str(len(failures)), "0", len(failures) == 0, key="agent_failures"))
    details["world_rejections"] = town.world_rejections
    details["agent_failures"] = [{"step": r.step.index, "exit_code": r.exit_code, "stderr": r.stderr[-500:]}
                                 for r in failures]
    details["coverage"] = coverage(town)
    return {"rows": rows, "extras": extras, "details": details}


def _world(post: dict[str, Any], town: Town, step: Step) -> bool:
    return any(r["step"] == step.index and r["command"] == post.get("command") for r in town.world_rejections)


def _reason(runs: Sequence[AgentRun], step: Step) -> str:
    for run in runs:
        if run.step is step and run.record and run.record.get("decision"):
            return run.record["decision"].get("reason") or ""
    return ""


def _move_choice(step: Step) -> dict[str, Any] | None:
    return next((c for c in step.choices if c["command"] == "move"), None)


def _has_enum(choice: dict[str, Any]) -> bool:
    schema = choice.get("param_schema") or {}
    fields = schema.get("properties") if schema.get("type") == "object" else schema
    return bool(((fields or {}).get("target_node_id") or {}).get("enum"))


def _memory_rows(town: Town, details: dict[str, Any]) -> list[dict[str, Any]]:
    """Free-string moves: where did the agent learn the node id it typed?"""
    moves = []
    for step in town.steps:
        post = _sent(step)
        choice = _move_choice(step)
        if not post or post.get("command") != "move" or choice is None or _has_enum(choice):
            continue
        node = str((post.get("params") or {}).get("target_node_id"))
        in_text = town.named_in_text.get(node, 10**9) <= step.index  # the text being read counts
        in_info = town.named_in_info.get(node, 10**9) < step.index
        source = "text" if in_text else "information command" if in_info else "never shown with a name"
        moves.append({"step": step.index, "node": node, "learned_from": source})
    from_info = [m for m in moves if m["learned_from"] == "information command"]
    never = [m for m in moves if m["learned_from"] == "never shown with a name"]
    info_taught = sorted(n for n, i in town.named_in_info.items() if town.named_in_text.get(n, 10**9) > i)
    details["free_string_moves"] = {"moves": moves, "nodes_taught_first_by_information": info_taught,
                                    "information_steps": {k: v for k, v in town.named_in_info.items()}}
    return [
        row("memory: free-string moves to a node id learned from get_map/get_perception (not from text)",
            len(from_info), f"{len(from_info)} of {len(moves)} free-string moves"
            + ("" if town.named_in_info else "; no get_map/get_perception answer was ever asked for"), "", None,
            key="memory_info_moves", num=len(from_info), den=len(moves)),
        row("memory: free-string moves to a node id never shown with a name", len(never),
            f"{len(never)} of {len(moves)}", "0", len(never) == 0, key="memory_unknown_moves",
            num=len(never), den=len(moves)),
    ]


def _revisit_rows(town: Town, runs: Sequence[AgentRun], details: dict[str, Any]) -> list[dict[str, Any]]:
    bounces, moves, promise_bounces = [], 0, 0
    for step in town.steps:
        post = step.accepted
        if not post or post.get("command") != "move":
            continue
        moves += 1
        target = (post.get("params") or {}).get("target_node_id")
        if step.previous_node and target == step.previous_node:
            reason = _reason(runs, step)
            bounces.append({"step": step.index, "from": step.node, "back_to": target, "reason": reason})
            promise_bounces += "約束" in reason
    other = len(bounces) - promise_bounces
    details["bounces"] = bounces
    return [row("a place just visited chosen again at once (A→B→A), not for a promise", other,
                f"{other} of {moves} moves" + (f" (+{promise_bounces} for a promise)" if promise_bounces else ""),
                "0", other == 0, key="bounces", num=other, den=moves)]


def _greeting_rows(town: Town, judge: Judge, details: dict[str, Any]) -> list[dict[str, Any]]:
    known_total = known_ok = first_total = first_ok = 0
    lines = []
    for conv in town.conversations:
        opening = next((l for l in conv.agent_lines if l["command"] in ("conversation_start", "conversation_accept")),
                       None)
        if opening is None:
            continue
        kind = judge.greeting_kind(opening["message"], conv.partners[0])
        if conv.known_before:
            known_total += 1
            known_ok += kind == "known"
        else:
            first_total += 1
            first_ok += kind == "first_meeting"
        lines.append({"conversation": conv.id, "with": [PERSON_BY_ID[p].name for p in conv.partners],
                      "command": opening["command"], "known_before": conv.known_before, "greeting": kind,
                      "line": opening["message"]})
    details["greetings"] = lines
    by_command = Counter((l["command"], l["known_before"], l["greeting"]) for l in lines)
    details["greetings_by_command"] = {f"{c} known_before={k} → {g}": n for (c, k, g), n in by_command.items()}
    return [
        row("a person talked with before is greeted as someone known", _rate(known_ok, known_total),
            f"{_pct(_rate(known_ok, known_total))} ({known_ok} of {known_total})", "", None, key="greet_known",
            num=known_ok, den=known_total),
        row("a first meeting is greeted as a first meeting", _rate(first_ok, first_total),
            f"{_pct(_rate(first_ok, first_total))} ({first_ok} of {first_total})", "", None, key="greet_first",
            num=first_ok, den=first_total),
    ]


AIMS = {  # key -> (aim text, test on the pooled value)
    "idle_wait": lambda v: v <= 0.05, "info_repeat": lambda v: v == 0, "places": lambda v: v >= 0.8,
    "speak": lambda v: v >= 0.95, "unique_lines": lambda v: v == 1, "pickup": lambda v: v >= 0.6,
    "promises": lambda v: v >= 0.9, "violations": lambda v: v == 0, "second_commands": lambda v: v == 0,
    "memory_unknown_moves": lambda v: v == 0, "bounces": lambda v: v == 0, "agent_failures": lambda v: v == 0,
}


def pool(results: Sequence[dict[str, Any]], section: str) -> list[dict[str, Any]]:
    """Rows of several runs added up: rates from summed parts, counts summed."""
    pooled = []
    for rows in zip(*(r[section] for r in results)):
        first = rows[0]
        nums = [r["num"] for r in rows if r["num"] is not None]
        dens = [r["den"] for r in rows if r["den"] is not None]
        num = sum(nums) if nums else None
        den = sum(dens) if dens else None
        if den is not None:
            value: float | int | None = _rate(num or 0, den)
            display = f"{_pct(value)} ({num} of {den})"
        else:
            value = num
            display = "n/a" if num is None else str(num)
        check = AIMS.get(first["key"])
        holds = None if value is None or check is None else bool(check(value))
        if first["key"] in ("memory_info_moves", "memory_unknown_moves", "bounces") and den is not None:
            display = f"{num} of {den}"
        if first["key"] == "unique_lines" and den is not None:
            holds = num == den
        pooled.append(row(first["name"], value, display, first["aim"], holds if first["aim"] else None,
                          key=first["key"], num=num, den=den))
    return pooled


def coverage(town: Town) -> dict[str, Any]:
    """How often each contract variation was exercised (so a run's breadth is visible)."""
    counts: Counter[str] = Counter()
    for step in town.steps:
        counts[f"type:{step.type}"] += 1
        for key, value in step.variant.items():
            if key == "shapes":
                for shape, n in value.items():
                    counts[f"choice:{shape}"] += n
            else:
                counts[f"{key}:{value}"] += 1
        counts["status:" + ("present" if "status" in step.body else "missing")] += 1
    return dict(sorted(counts.items()))


def table(rows: Iterable[dict[str, Any]], *, with_aim: bool = True) -> str:
    rows = list(rows)
    head = ["metric", "value", "aim", "holds"] if with_aim else ["metric", "value"]
    body = []
    for r in rows:
        holds = "" if r["holds"] is None else ("yes" if r["holds"] else "NO")
        body.append([r["name"], r["display"], r["aim"], holds] if with_aim else [r["name"], r["display"]])
    widths = [max(_width(x) for x in col) for col in zip(head, *body)]
    lines = ["| " + " | ".join(_pad(c, w) for c, w in zip(head, widths)) + " |",
             "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    lines += ["| " + " | ".join(_pad(c, w) for c, w in zip(r, widths)) + " |" for r in body]
    return "\n".join(lines)


def _width(text: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * (width - _width(text))


__all__ = ["Judge", "measure", "pool", "table", "coverage"]
