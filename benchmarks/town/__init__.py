"""A simulated Karakuri World town for measuring how the agent lives (issue 4).

- `world`: places, roads, actions, people and their lines (plain data);
- `sim.Town`: the world clock, the agent's body, the other people, the referee;
- `server`: the two contract endpoints over loopback HTTP;
- `drive`: running the agent against the town, as processes or in-process;
- `metrics`: the behaviour numbers, computed from the town's log.
"""

from .drive import AgentRun, InProcessAgent, ProcessAgent, live
from .server import TownServer, serving
from .sim import Town

__all__ = ["AgentRun", "InProcessAgent", "ProcessAgent", "Town", "TownServer", "live", "serving"]
