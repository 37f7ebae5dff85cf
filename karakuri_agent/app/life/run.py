"""A character's life in the offline town: N in-world days through the real cycle, nothing sent anywhere.

The town (`karakuri_agent/town/`) plays the server in process
(`TownTransport`); the agent is the real one (`Agent.open`, `Agent.handle`),
with the pack's name, voice and behaviour, the rules as its decider, no
reporter and nothing taken from the user's environment or `.env` (no
webhook, no model, no database URL). Its state is the normal SQLite state,
in `state_dir` or in a throwaway directory.

Days are the world's calendar days (Asia/Tokyo), as `karakuri-agent day`
counts them: the town wakes at 07:00 on the first and the life ends at the
midnight after the last. The agent's clock is the town's (a `WorldClock`
that stands still while a notification is handled), so a seed, a pack and a
number of days make one life, the same every time.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from karakuri_agent.errors import ConfigError, UsageError

if TYPE_CHECKING:
    from karakuri_agent.app.cycle import HandleResult
    from karakuri_agent.town.entities import Delivery

MAX_DAYS = 30
START_HOUR = 7
# A town always has something to say, but an agent that is never left idle would never see the day end:
# past this many notifications in one day the life stops (a finding, said in the summary).
MAX_PER_DAY = 600
# How often a resident with a meeting still ahead takes it back when they next talk (the tests' towns: never).
CALL_OFF_CHANCE = 0.3
BASE_URL = "http://town.invalid/api"  # never resolved: every request is answered in process


@dataclass(frozen=True)
class Decided:
    """One notification of the life and what the character did with it."""

    notification_id: str
    notification_type: str
    at: datetime
    text: str  # the notification's text, as the town wrote it (two lives are compared while it is the same)
    command: str | None
    params: dict[str, Any]
    rule: str | None
    report: str


@dataclass
class Life:
    pack: str
    seed: int
    dates: list[date]
    decided: list[Decided] = field(default_factory=list)
    variables: dict[date, dict[str, Any]] = field(default_factory=dict)  # each day's end
    days: list[dict[str, Any]] = field(default_factory=list)  # summary.py's, one per date
    cut_short: date | None = None  # a day that hit MAX_PER_DAY


def check_days(days: int) -> int:
    if not 1 <= days <= MAX_DAYS:
        raise UsageError(f"--days {days}: give 1 to {MAX_DAYS} in-world days")
    return days


def load_pack(pack: Path | None) -> Any:
    """The pack's Persona, checked (None: the bundled character); a broken pack is one line naming it."""
    from karakuri_agent.voice.persona_pack import BrokenPack, load_persona

    try:
        return load_persona(pack)
    except BrokenPack as exc:
        raise ConfigError(f"--pack {pack}: {exc}") from None


def live(pack: Path | None, days: int, seed: int, state_dir: Path | None = None) -> Life:
    """Live `days` in-world days in the town of `seed` as the character of `pack`, and summarise each day."""
    check_days(days)
    persona = load_pack(pack)
    if state_dir is not None:
        from karakuri_agent.app.config import demo_environment
        from karakuri_agent.app.state_dirs import for_town, live_state_dir

        for_town(state_dir, live_state_dir(demo_environment()))
    with _state_dir(state_dir) as where:
        return _live(pack, persona, days, seed, where)


@contextmanager
def _state_dir(given: Path | None) -> Iterator[Path]:
    if given is not None:
        yield given
        return
    with tempfile.TemporaryDirectory(prefix="karakuri-town-") as scratch:
        yield Path(scratch) / "state"


def _live(pack: Path | None, persona: Any, days: int, seed: int, state_dir: Path) -> Life:
    from karakuri_agent.app.config import load_settings
    from karakuri_agent.app.cycle import Agent
    from karakuri_agent.app.life import summary
    from karakuri_agent.app.life.transport import TownTransport
    from karakuri_agent.domain.clock import WorldClock
    from karakuri_agent.town.texts import TOKYO
    from karakuri_agent.town.town import EngineTown
    from karakuri_agent.town.world import SELF_ID
    from karakuri_agent.voice.persona_pack import PERSONA_DIR_ENV

    # The engine's current texts ("new"); the tests' towns also try its older generations.
    town = EngineTown(seed, style="new", self_name=persona.name, you=persona.short_name, start_hour=START_HOUR)
    town.call_off_chance = CALL_OFF_CHANCE
    first = town.now.astimezone(TOKYO).date()
    life = Life(str(pack) if pack else "bundled", seed, [first + timedelta(days=n) for n in range(days)])
    end = datetime.combine(life.dates[-1] + timedelta(days=1), time(0), TOKYO)
    settings = load_settings({
        "KARAKURI_API_BASE_URL": BASE_URL,
        "KARAKURI_API_KEY": town.api_key,
        "KARAKURI_STATE_DIR": str(state_dir),
        "KARAKURI_SELF_AGENT_ID": SELF_ID,
        "KARAKURI_SELF_NAME": persona.name,
        "KARAKURI_DECIDER": "rules",
        PERSONA_DIR_ENV: str(pack) if pack else "",
    }, env_file=state_dir / ".env-never-read")
    clock = WorldClock(lambda: town.now, monotonic=lambda: 0.0)  # the town's time, standing still per message
    with Agent.open(settings, transport=TownTransport(town), clock=clock) as agent:
        today, count = first, 0
        while True:
            delivery = town.next_delivery()
            if delivery.time >= end:
                break
            day = delivery.time.astimezone(TOKYO).date()
            if day != today:
                life.variables[today] = summary.variables(persona, agent.runtime.store)
                today, count = day, 0
            count += 1
            if count > MAX_PER_DAY:
                life.cut_short = day
                break
            result = agent.handle(delivery.discord)
            life.decided.append(_decided(result, delivery))
        life.variables[today] = summary.variables(persona, agent.runtime.store)
        life.days = [summary.day(agent.runtime.store, d, life.variables.get(d)) for d in life.dates]
    return life


def _decided(result: HandleResult, delivery: Delivery) -> Decided:
    step = delivery.step
    assert step is not None  # the town delivers only what it issued
    decision = result.decision
    behaviour = result.behaviour or {}
    return Decided(
        notification_id=result.notification_id or step.notification_id,
        notification_type=result.notification_type or step.type,
        at=delivery.time,
        text=str(step.body["notification"].get("text", "")),
        command=decision.command if decision is not None and result.sent else None,
        params=dict(decision.params) if decision is not None and result.sent else {},
        rule=behaviour.get("rule") if isinstance(behaviour, dict) else None,
        report=result.report,
    )
