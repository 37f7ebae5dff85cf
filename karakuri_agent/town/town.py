"""The engine town: a clock, the agent's body, residents who walk and talk, and the notifications it issues.

The town plays the Karakuri World engine for one agent. `next_delivery()`
advances the world (timers, residents) until the agent hears of something and
hands over that Discord message; the agent's GET and POST come back through
`handle_get()` / `handle_post()`, which judge the command by the engine's rules
(`rules.py`) and apply it. The state, the clock and issuing are `TownCore`'s
(core.py), which the rules, the residents and the timers take; this module
adds what only the whole town does: the first prompt, dispatching timers
(events.py) and the two endpoints.
"""

from __future__ import annotations

import heapq
from datetime import timedelta
from typing import Any

from . import events, life, rules, texts
from .core import TICK, TownCore
from .entities import Delivery


class EngineTown(TownCore):
    """The whole town: TownCore's state, the timers dispatched, and the two endpoints."""

    def started(self) -> None:
        """The first tick scheduled; the agent has just logged in."""
        self.schedule(self.now + TICK, "tick")
        life.idle_prompt(self, "agent_logged_in", texts.event_line("logged_in"))

    def advance(self) -> None:
        at, seq, kind, data = heapq.heappop(self._queue)
        self.now = max(self.now, at)
        timer = data.get("timer")
        if timer is not None:
            if self.tokens.get(timer) != seq:
                return
            del self.tokens[timer]
        events.on_event(self, kind, data)

    # ------------------------------------------------------------------ the two endpoints
    def next_delivery(self) -> Delivery:
        with self.lock:
            while not self.outbox:
                self.advance()
            step = self.outbox.pop(0)
            self.now = max(self.now, step.time) + timedelta(seconds=self.rng.randint(1, 15))
            delivery = Delivery(len(self.deliveries), step.discord, self.now, "fresh", step, step.variant["layout"])
            self.deliveries.append(delivery)
            return delivery

    def authorised(self, authorization: str | None) -> bool:
        return authorization == f"Bearer {self.api_key}"

    def handle_get(self, notification_id: str, authorization: str | None) -> tuple[int, dict[str, Any]]:
        with self.lock:
            if self.deliveries:
                self.deliveries[-1].requests.append({"method": "GET", "id": notification_id})
            if not self.authorised(authorization):
                return 401, {"error": "unauthorized", "message": "Invalid API key."}
            step = self.by_id.get(notification_id)
            if step is None:
                return 404, {"error": "not_found", "message": "Notification not found."}
            return 200, step.body

    def handle_post(self, payload: Any, authorization: str | None) -> tuple[int, dict[str, Any]]:
        with self.lock:
            if self.deliveries:
                self.deliveries[-1].requests.append({"method": "POST", "payload": payload})
            if not self.authorised(authorization):
                return 401, {"error": "unauthorized", "message": "Invalid API key."}
            if not isinstance(payload, dict):
                return 400, {"error": "invalid_request", "message": "Request body must be an object."}
            return rules.judge(self, payload)

