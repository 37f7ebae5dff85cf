"""A simulated Karakuri World town for measuring how the agent lives (issues 4 and 15).

- `world`: a town generated from its seed: places, roads, actions, people, lines;
- `sim.Town`: the clock, the agent's body, other people, the server and referee, the log;
- `texts`: notification texts, Discord messages and choices in every contract form;
- `schema`: the town's own reading of `param_schema`;
- `metrics`: the behaviour numbers, computed from the town's log alone.

Its HTTP face is `testing/loopback.serving(town)`. Nothing here imports the agent;
`testing/town_agents.py` runs it.
"""

from testing.loopback import serving

from .sim import AgentRun, Delivery, Town, live

__all__ = ["AgentRun", "Delivery", "Town", "live", "serving"]
