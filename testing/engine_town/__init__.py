"""A test town on the real Karakuri World engine's rules (issue 30), written from reading the engine.

- `world`: the map (grid nodes, walls, doors, interiors, NPC nodes), buildings, NPCs, actions, items;
- `texts`: the engine's notification texts, in its newer and older generations;
- `choices`: the JSON choices in every shape the contract allows;
- `lines`: what the residents say, each in their own voice;
- `town.EngineTown`: the clock, the agent's body, residents, conversations, the log;
- `life`, `talk`, `events`: prompts, conversations and timers; `rules`: the referee with the engine's error codes;
- `server`: the contract's two endpoints over loopback HTTP;
- `metrics`: the numbers, from the town's log alone.

Nothing here imports the agent; `testing/engine_town_agents.py` runs it.
"""

from .server import EngineTownServer, serving
from .town import API_KEY, EngineTown

__all__ = ["API_KEY", "EngineTown", "EngineTownServer", "serving"]
