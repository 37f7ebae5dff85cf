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
from .core import TICK, TownCore, iso, ms
from .entities import Delivery, Step


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
        """The next Discord message: the next notification the agent hears of, or what the relay makes of one."""
        with self.lock:
            form = self.relay.form(self.relay_rng) if self.deliveries else "fresh"
            if form == "no_id":
                return self._deliver(self.relay.chatter(self.relay_rng, self.self_name), form, None)
            last = self.deliveries[-1].step if self.deliveries else None
            if form == "repeat" and last is not None:
                return self._deliver(last.discord, form, last)
            older = [d.step for d in self.deliveries[-6:] if d.step is not None and d.step is not self.current]
            if form == "late" and older:
                late = self.relay_rng.choice(older)
                return self._deliver(late.discord, form, late)
            while not self.outbox:
                self.advance()
            step = self.outbox.pop(0)
            self.now = max(self.now, step.time) + timedelta(seconds=self.rng.randint(1, 15))
            if form == "expired" and step.kind == "idle":
                self._expire(step)
            else:
                form = "fresh"
            if self.current is not None and "stale" in self.current.body:  # the newer generation says so itself
                self.current.body["stale"] = True
            self.current = step
            return self._deliver(step.discord, form, step)

    def _deliver(self, discord: str, form: str, step: Step | None) -> Delivery:
        delivery = Delivery(len(self.deliveries), discord, self.now, form, step, step.variant["layout"] if step else "")
        self.deliveries.append(delivery)
        return delivery

    def _expire(self, step: Step) -> None:
        """The relay brought the message after its notification expired: its times say so, sometimes its status."""
        step.expired_on_delivery = True
        created, expires = self.now - timedelta(minutes=15), self.now - timedelta(minutes=5)
        for key, moment in (("created_at", created), ("expires_at", expires)):
            if key in step.body:
                step.body[key] = ms(moment) if isinstance(step.body[key], int) else iso(moment)
        if "status" in step.body and self.relay_rng.random() < 0.5:
            step.body["status"] = "expired"

    def authorised(self, authorization: str | None) -> bool:
        return authorization == f"Bearer {self.api_key}"

    def handle_get(self, notification_id: str, authorization: str | None) -> tuple[Any, ...]:
        """(status, body) or, for a 429, (status, body, headers)."""
        with self.lock:
            if self.deliveries:
                self.deliveries[-1].requests.append({"method": "GET", "id": notification_id})
            if not self.authorised(authorization):
                return 401, {"error": "unauthorized", "message": "Invalid API key."}
            step = self.by_id.get(notification_id)
            if step is None:
                return 404, {"error": "not_found", "message": "Notification not found."}
            if step.get_faults:
                if step.get_faults.pop(0) == 429:
                    return 429, {"error": "rate_limited", "message": "Too many requests."}, {"Retry-After": "0"}
                return 503, {"error": "service_unavailable", "message": "Try again shortly."}
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

