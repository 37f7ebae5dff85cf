"""Standalone transfers and server announcements: what reaches an idle or busy agent from outside a conversation.

Standalone transfers (domain/transfer.ts, mode `standalone`): a resident next to the agent offers something.

The engine's flow: the offer puts both in a transfer; the receiver's prompt
is 「X から bread×1 の譲渡提案が届きました。」 with only `accept_transfer` /
`reject_transfer`; other commands are `state_conflict` until it is settled;
an offer left unanswered past `response_timeout` expires
(「X からの譲渡は応答期限切れになりました。」); either answer brings the agent
back to its idle choices with the outcome line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import texts
from .life import candidates, idle_prompt
from .entities import Refusal
from .talk import make_offer


if TYPE_CHECKING:
    from .entities import Step
    from .core import TownCore

def maybe_offer(town: "TownCore") -> None:
    body = town.body
    if body.state != "idle" or body.pending_conversation or body.conversation or body.pending_transfer:
        return
    if not town.transfers or town.rng.random() >= town.gift_chance:
        return
    givers = [r for r in candidates(town) if r.state == "idle"]
    if not givers:
        return
    giver = town.rng.choice(givers)
    offer = make_offer(giver)
    if offer is None:
        return
    body.pending_transfer = offer
    town.disarm("idle")
    summary = texts.transfer_summary(offer.get("item"), offer.get("money", 0))
    choices = [town.choices.transfer_answer(True, giver.name), town.choices.transfer_answer(False, giver.name)]
    town.issue("transfer_requested", "transfer", texts.transfer_request_text(town.world, town.self_name, giver.name, summary),
               choices, summary=f"{giver.name} から {summary} の譲渡提案が届きました。", pending_offer=offer)
    town.arm("gift", town.now + town.transfer_timeout, "transfer_timeout")


def answer(town: "TownCore", step: "Step", accept: bool) -> dict[str, Any]:

    body = town.body
    offer = body.pending_transfer
    if offer is None:
        raise Refusal(400, "invalid_request", "No pending transfer is available.")
    town.disarm("gift")
    body.pending_transfer = None
    giver = town.residents[offer["from"]]
    summary = texts.transfer_summary(offer.get("item"), offer.get("money", 0))
    town.log("offer_settled", step=step.index, answered=True, response="accept" if accept else "reject",
             mode="standalone")
    if accept:
        if offer.get("item"):
            item_id, quantity = offer["item"]
            body.items[item_id] = body.items.get(item_id, 0) + quantity
        body.money += offer.get("money", 0)
        event = f"{giver.name} から {summary}を受け取りました。"
    else:
        _refund(giver, offer)
        event = "受取を拒否しました。"
    giver.talked_days.add(town.day())
    idle_prompt(town, "transfer_accepted" if accept else "transfer_rejected", event)
    return {"ok": True, "message": "正常に受け付けました。結果が通知されるまで待機してください。",
            "transfer_status": "completed" if accept else "rejected"}


def expire(town: "TownCore") -> None:
    offer = town.body.pending_transfer
    if offer is None:
        return
    town.body.pending_transfer = None
    giver = town.residents[offer["from"]]
    _refund(giver, offer)
    town.log("unanswered", what="standalone_transfer")
    town.log("offer_settled", step=-1, answered=False, response="timeout", mode="standalone")
    idle_prompt(town, "transfer_timeout", f"{giver.name} からの譲渡は応答期限切れになりました。")


def _refund(giver: Any, offer: dict[str, Any]) -> None:
    if offer.get("item"):
        item_id, quantity = offer["item"]
        giver.items[item_id] = giver.items.get(item_id, 0) + quantity
    giver.money += offer.get("money", 0)



ANNOUNCEMENTS = (
    "{place}の前で夏祭りが始まりました！屋台がたくさん並んでいます。",
    "まもなく夕立が来る見込みです。近くの建物に避難してください。",
    "{place}で餅まきを行います。お時間のある方はお集まりください。",
    "本日は町内清掃の日です。ご協力ありがとうございます。",
)


def maybe_announce(town: "TownCore") -> None:
    """A server announcement (domain/server-announcements.ts) to an idle or busy agent, not one moving or talking."""
    body = town.body
    if body.state not in ("idle", "in_action") or body.pending_conversation or body.conversation or body.pending_transfer:
        return
    if town.rng.random() >= town.server_announcement_chance or not 8 <= town.now.astimezone(texts.TOKYO).hour < 21:
        return
    from .life import idle_choices

    place = town.rng.choice([b.name for b in town.world.map.buildings])
    description = town.rng.choice(ANNOUNCEMENTS).format(place=place)
    body.announcement = True
    body.excluded_info.clear()
    choices_text, choices, people = idle_choices(town, force=True)
    today = town.day()
    town.issue("server_announcement_fired", "announcement",
               texts.announcement_text(town.world, town.self_name, description, choices_text), choices,
               summary=f"【サーバーアナウンス】{description}",
               nearby_untalked=[r.agent_id for r in people if today not in r.talked_days])
