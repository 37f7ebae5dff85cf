"""The engine town for tests and benchmarks: the packaged town (`karakuri_agent/town/`) behind loopback HTTP.

The town itself (the world, the engine's texts and rules, the residents)
lives in the package, where `karakuri-agent town` runs it in process; it
imports nothing else of the package. What stays here is what only tests
need:

- `EngineTown`: the packaged town whose Discord messages come in every markup
  the contract allows (`testing/town/texts.discord_body`), not the one plain form;
- `serving`: the contract's two endpoints over loopback HTTP (`testing/loopback.py`);
- `metrics`: the numbers, from the town's log alone (it imports nothing of the package).

`testing/engine_town_agents.py` runs the agent against it.
"""

from __future__ import annotations

from typing import Any

from karakuri_agent.town import town as _town
from karakuri_agent.town.core import API_KEY
from testing.loopback import serving
from testing.town.texts import discord_body


class EngineTown(_town.EngineTown):
    """The packaged town, with the contract's Discord markups (the town's rng picks one per message)."""

    def __init__(self, seed: int, **options: Any) -> None:
        super().__init__(seed, wrap=discord_body, **options)


__all__ = ["API_KEY", "EngineTown", "serving"]
