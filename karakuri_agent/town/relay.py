"""How a notification reaches the agent: the Discord message's forms, and a relay and a server that are not perfect.

`karakuri-agent town` tries a character on its behaviour, so by default every
message is the one plain form (`texts.discord_message`), delivered once, in
time, and the server always answers. Tests and benchmarks ask for
`Relay.rough()`, every irregularity the contract lets happen (CONTRACT §1, §4,
§9), each drawn from the relay's own seeded stream so the town's world and
residents stay what the seed makes them:

- the id in any of the contract's markups (``**notification_id: X**``,
  ``||…||``, ``（…）``...), the message in several templates;
- a message with no notification id (people in the channel, the logout
  line, ``notification_id: (なし)``): nothing is to be asked of the server;
- the last message delivered again (`repeat`), an older one delivered late
  (`late`: a command on it is `notification_stale`, half the time naming the
  latest id), a message that arrives after its notification expired
  (`expired`: backdated, sometimes `status: expired`; a command is
  `notification_expired`);
- a GET that first answers 503 or 429 (`Retry-After: 0`), a POST answered 503 (on an idle
  prompt: the town does not leave a conversation hanging on a server fault).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from . import texts

# How the id may be written in a message: plain, or with markup around it.
ID_MARKUP = (
    "notification_id: {id}",
    "`notification_id: {id}`",
    "**notification_id: {id}**",
    "(notification_id: {id})",
    "（notification_id: {id}）",
    "「notification_id: {id}」",
    "\"notification_id: {id}\"",
    "||notification_id: {id}||",
    "notification_id: {id}.",
    "notification_id: {id},",
    "[notification_id: {id}]",
)
TEMPLATES = (
    "{self} への通知があります。{id}",
    "🔔 {event}\n{id}",
    "{event}\n\n{id}",
    "📣 {self} さん、新しい通知です！\n> {event}\n{id}",
    "{id}\n{event}",
    "**{self}** への通知\n{event} {id}",
)
NO_ID_BODIES = (
    "ログアウトが完了しました。おやすみなさい。",
    "{self} への通知があります。notification_id: (なし)",
    "`notification_id: (なし)` 現在処理する通知はありません。",
    "みんなおはよう〜 今日もよろしくね！",
    "さっきのnotif-abc123ってなんだったんだろう？",
    "",
    "@everyone メンテナンスは22時からです。",
)
FORMS = ("no_id", "repeat", "late", "expired")


@dataclass(frozen=True)
class Relay:
    """The shares of each irregularity; all zero is the plain, perfect relay."""

    markup: bool = False  # the id in the contract's markups, the message in several templates
    plain_ids: float = 0.6  # with markup: the share of messages whose id has none
    no_id: float = 0.0
    repeat: float = 0.0
    late: float = 0.0
    expired: float = 0.0
    get_fault: float = 0.0  # notifications whose first GET answers 503 (or 429, one time in three)
    post_fault: float = 0.0  # notifications whose first POST answers 503

    @classmethod
    def rough(cls, plain_ids: float = 0.6) -> "Relay":
        """Everything the contract allows, as often as the project's old simulated town had it."""
        return cls(True, plain_ids, no_id=0.05, repeat=0.05, late=0.04, expired=0.03, get_fault=0.09,
                   post_fault=0.03)

    def form(self, rng: random.Random) -> str:
        """How the next message comes: one of FORMS, or `fresh`."""
        roll, edge = rng.random(), 0.0
        for form in FORMS:
            edge += getattr(self, form)
            if roll < edge:
                return form
        return "fresh"

    def faults(self, rng: random.Random, *, idle: bool) -> tuple[list[int], int | None]:
        """(the statuses the first GETs answer with, the first POST's status or None) for a new notification.
        A POST fails only on an idle prompt: a request or a turn the server failed to take would leave the talk
        hanging in a way no text tells the agent. Both draws are made either way, so the stream stays one."""
        roll = rng.random()
        gets = [] if roll >= self.get_fault else [429] if roll < self.get_fault / 3 else [503]
        post = 503 if rng.random() < self.post_fault else None
        return gets, post if idle else None

    def body(self, rng: random.Random, self_name: str, notification_id: str, summary: str) -> tuple[str, str]:
        """The Discord message carrying the id, and its layout (the template and markup, for coverage)."""
        if not self.markup:
            return texts.discord_message(self_name, summary, notification_id), "plain notification_id: ID"
        markup = ID_MARKUP[0] if rng.random() < self.plain_ids else rng.choice(ID_MARKUP[1:])
        template = rng.choice(TEMPLATES)
        text = template.format(self=self_name, event=summary, id=markup.format(id=notification_id))
        return text, f"template {TEMPLATES.index(template)} {markup.replace('{id}', 'ID')}"

    @staticmethod
    def chatter(rng: random.Random, self_name: str) -> str:
        """A message with no notification id."""
        return rng.choice(NO_ID_BODIES).format(self=self_name)
