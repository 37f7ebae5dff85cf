"""The engine town's timers: what happens when each one fires (the engine's timer handlers).

A move arrives, an action or wait completes, an idle agent is reminded, a
request or a turn left unanswered times out, a resident takes their turn.
"""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from . import gifts, texts
from .life import after_agent_left, drop_conversation, end_conversation, finish_activity, idle_prompt, leave, residents_tick  # noqa: F401
from .talk import resident_answers, resident_speaks
from .world import SELF_ID

if TYPE_CHECKING:
    from .core import TownCore


def on_event(town: "TownCore", kind: str, data: dict[str, Any]) -> None:
    body = town.body
    conv = town.conversations.get(data.get("conversation", ""))
    if kind == "tick":
        residents_tick(town)
        gifts.maybe_offer(town)
        gifts.maybe_announce(town)
        town.schedule(town.now + timedelta(minutes=10), "tick")
    elif kind == "arrive":
        body.node = data["to"]
        town.positions.append((town.now, body.node))
        label = texts.node_with_label(town.world, data["to"], spaced=True)
        idle_prompt(town, "movement_completed", texts.event_line("movement_completed", destination=label))
    elif kind == "done":
        finish_activity(town, data)
    elif kind == "idle_reminder":
        if body.state == "idle" and not (body.pending_conversation or body.conversation or body.pending_transfer):
            minutes = int((town.now - data["since"]).total_seconds() // 60)
            idle_prompt(town, "idle_reminder_fired", texts.event_line("idle_reminder", minutes=str(minutes)),
                        since=data["since"])
    elif kind == "accept_timeout" and conv is not None and conv.status == "pending":
        town.log("unanswered", what="request", conversation=conv.conversation_id)
        drop_conversation(town, conv)
        if body.state == "idle":
            town.arm("idle", town.now + town.idle_interval, "idle_reminder", since=town.now)
    elif kind == "turn_timeout" and conv is not None:
        town.log("unanswered", what="turn", conversation=conv.conversation_id, status=conv.status)
        end_conversation(town, conv, (conv.closing_reason or "max_turns") if conv.status == "closing" else "turn_timeout")
    elif kind == "inactive_timeout" and conv is not None:
        town.log("unanswered", what="inactive_check", conversation=conv.conversation_id)
        leave(town, conv, SELF_ID)
        after_agent_left(town)
    elif kind == "resident_turn" and conv is not None:
        resident_speaks(town, conv)
    elif kind == "resident_answer" and conv is not None:
        resident_answers(town, conv)
    elif kind == "conv_end" and conv is not None:
        end_conversation(town, conv, data["reason"])
    elif kind == "side_end" and conv is not None and SELF_ID not in conv.participants:
        drop_conversation(town, conv)
    elif kind == "meet" and not town.meetings[data["meeting"]].get("withdrawn"):  # one taken back is not kept
        resident = town.residents[data["resident"]]
        if resident.state != "in_conversation":  # the one who proposed it turns up and stays a while
            resident.node, resident.state = data["node"], "in_action"
            resident.busy_until = town.now + timedelta(minutes=45)
    elif kind == "transfer_timeout":
        gifts.expire(town)
    elif kind == "transfer_settled":
        resident = town.residents[data["to"]]
        resident.items[data.get("item", "")] = resident.items.get(data.get("item", ""), 0) + data.get("quantity", 0)
        resident.money += data.get("money", 0)
        summary = texts.transfer_summary((data["item"], data["quantity"]) if data.get("item") else None,
                                         data.get("money", 0))
        idle_prompt(town, "transfer_accepted", f"{resident.name} が {summary}を受け取りました。")


