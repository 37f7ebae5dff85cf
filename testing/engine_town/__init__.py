"""The town for tests and benchmarks: the packaged town (`karakuri_agent/town/`) behind loopback HTTP.

The town itself (the world, the engine's texts and rules, the residents, the
relay that brings its messages) lives in the package, where `karakuri-agent
town` runs it in process; it imports nothing else of the package. What stays
here is what only tests need:

- `EngineTown`: the packaged town whose Discord messages come in every markup
  the contract allows (`Relay(markup=True)`) unless told otherwise;
  `Relay.rough()` adds every irregular delivery and passing server fault;
- `serving`: the contract's two endpoints over loopback HTTP (`testing/loopback.py`);
- `metrics`: the numbers, from the town's log alone (it imports nothing of the package).

`testing/town_agents.py` runs the agent against it.
"""

from __future__ import annotations

from typing import Any

from karakuri_agent.town import town as _town
from karakuri_agent.town.core import API_KEY
from karakuri_agent.town.relay import Relay
from testing.loopback import serving


class EngineTown(_town.EngineTown):
    """The packaged town, its messages in the contract's markups unless another relay is given."""

    def __init__(self, seed: int, *, relay: Relay = Relay(markup=True), **options: Any) -> None:
        super().__init__(seed, relay=relay, **options)


__all__ = ["API_KEY", "EngineTown", "Relay", "serving"]
