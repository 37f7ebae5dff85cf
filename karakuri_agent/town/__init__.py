"""The offline town: a world on the real Karakuri World engine's rules, for trying a character (`karakuri-agent town`).

Written from reading the engine (`apps/server/src/domain/`,
`apps/server/src/discord/notification.ts`), not copied from it:

- `world`: the map (grid nodes, walls, doors, interiors, NPC nodes), buildings, NPCs, actions, items;
- `texts`: the engine's notification texts, in its newer and older generations;
- `choices`: the JSON choices in every shape the contract allows;
- `relay`: how a notification reaches the agent: the Discord message's forms, and (for tests) repeats,
  late and expired messages, messages without an id, and a server that answers 503 or 429 first;
- `lines`: what the residents say, each in their own voice;
- `town.EngineTown`: the clock, the agent's body, residents, conversations, the log;
- `life`, `talk`, `events`, `gifts`: prompts, conversations, timers, offers; `rules`: the referee
  with the engine's error codes; `schema`: its own check of a command's params.

The town plays the server, so it imports nothing else of the package: it
must not share a reader, a phrase or a check with the agent it answers
(tests/test_engine_town.py and the import-linter contract hold it). For the
same reason its Japanese lives here and not in `ja/`: these are the world's
sentences, which the agent's language layer must read, not write.
The tests' loopback server and metrics are in `testing/engine_town/`.
"""
