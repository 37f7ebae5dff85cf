"""What a text offers and who stands where: the actions of the `選択肢:` block, with their details, and the NPCs.

An action line says what the world will ask before it starts it:
`映画を観る (action_id: watch-movie, 3600秒, 必要: 映画チケット×1) - 映画館`
(how long, what it costs, what it pays, the items it takes, and whose it is:
a building's or an NPC's). The world accepts the command and refuses the
action later when the agent cannot pay or lacks the items, so the decider
reads the requirement first.

NPCs (`近くのNPC: おまわりさん@8-13`, the map's `  猫 @ 12-9 - …`) stand on
nodes nobody can walk onto: a node listed there is someone to stand next
to, never a destination.

Pure functions over the server's own lines (`textparse.server_lines`):
nothing inside quoted speech counts. They never raise.
"""

from __future__ import annotations

from collections.abc import Sequence


from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.records import Npc, Offer
from karakuri_agent.ja.notification_text import (
    ACTION_OPTION,
    CANDIDATE_LINE,
    CANDIDATES_HEADER,
    CHOICES_HEADER,
    DETAIL_SEPARATOR,
    MAP_NPC_HEADER,
    MAP_NPC_LINE,
    MINUTES_RANGE,
    NPC_ENTRY,
    NPC_LIST,
    REQUIRED,
    REQUIRED_ITEM,
    REWARD,
    SECONDS,
    SPAN,
    START_CHOICE,
    YEN,
)
from karakuri_agent.reading.textparse import server_lines


def _yen(text: str) -> int | None:
    match = YEN.search(text)
    return int(match.group("yen").replace(",", "")) if match else None


def _details(action_id: str, name: str, source: str | None, rest: str) -> Offer:
    """cost, reward, needs, minutes (and the range of a length the agent chooses) from an action's details."""
    found: Offer = {"action_id": action_id, "name": name, "source": source, "cost": None, "reward": None,
                    "needs": [], "minutes": None, "min_minutes": None, "max_minutes": None}
    needing = False
    for part in DETAIL_SEPARATOR.split(rest):
        part = part.strip()
        if not part:
            continue
        if REQUIRED.match(part):
            needing, part = True, REQUIRED.sub("", part, count=1)
        if needing and (item := REQUIRED_ITEM.match(part)):
            found["needs"].append({"item": item.group("item").strip(), "quantity": int(item.group("qty"))})
            continue
        needing = False
        if REWARD.match(part):
            found["reward"] = _yen(part)
        elif (span := MINUTES_RANGE.search(part)) is not None:
            low, high = int(span.group("low")), int(span.group("high"))
            found.update({"min_minutes": min(low, high), "max_minutes": max(low, high), "minutes": max(low, high)})
        elif found["cost"] is None and (cost := _yen(part)) is not None:
            found["cost"] = cost
        elif found["minutes"] is None and (length := SPAN.search(part)) is not None:
            found["minutes"] = int(length.group("n")) / (60 if length.group("unit") == SECONDS else 1)
    return found


def parse_action_options(text: object) -> list[Offer]:
    """Actions offered in the `選択肢:` block, in order.

    Each: `action_id`, `name`, `source` (the building or NPC whose action it
    is, None when not written), `cost` (yen, None when free), `reward`,
    `needs` (`[{"item": name, "quantity": n}]`), `minutes` (how long, the
    longest when the agent chooses), `min_minutes` / `max_minutes` (the
    range of `duration_minutes`, None when the length is fixed). The text
    form is how the agent learns action ids when the JSON choice carries no enum.
    """
    options: list[Offer] = []
    in_block = False
    for line in server_lines(text):
        stripped = line.strip()
        if CHOICES_HEADER.match(stripped):
            in_block = True
        elif not stripped:
            in_block = False
        elif in_block and (option := _action_option(stripped)) is not None:
            options.append(option)
    return options


def _action_option(line: str) -> Offer | None:
    """One `- action: 名前 (action_id: …, …) - 出どころ` line as an offer, None when it is none."""
    match = ACTION_OPTION.match(line)
    if match is None:
        return None
    source = (match.group("source") or "").strip() or None
    return _details(match.group("id"), match.group("name").strip(), source, match.group("rest"))


def action_options_of_choices(choices: Sequence[Choice]) -> list[Offer]:
    """Actions as the per-action choices describe them (`コーヒーを飲む (action_id: drink-coffee, 3600秒, 450円)
    - 喫茶店`): what the newer API's choices say where no text lists them."""
    found = (_action_option(f"- action: {choice.description}") for choice in choices if choice.command == "action")
    return [offer for offer in found if offer is not None]


def parse_npcs(text: object) -> list[Npc]:
    """NPCs and the nodes they stand on, `[{"name", "node_id"}]`: the perception's list and the map's."""
    found: list[Npc] = []
    in_map_list = False
    for line in server_lines(text):
        listed = NPC_LIST.match(line.strip())
        if listed:
            found += [{"name": m.group("name").strip(), "node_id": m.group("node")}
                      for m in NPC_ENTRY.finditer(listed.group("list"))]
            continue
        if MAP_NPC_HEADER.match(line.strip()):
            in_map_list = True
            continue
        if in_map_list and (entry := MAP_NPC_LINE.match(line)):
            found.append({"name": entry.group("name").strip(), "node_id": entry.group("node")})
        elif not line.startswith((" ", "\t")):
            in_map_list = False
    unique = {(n["name"], n["node_id"]): n for n in found if n["name"]}
    return list(unique.values())


def parse_candidates(text: object) -> list[dict[str, str]] | None:
    """People the agent may start a conversation with, `[{"id", "name"}]`, as the text lists them.

    The nearby-agents answer (`conversation_candidates:` then `- 名前 (id) - idle`
    lines, up to the next header) and the older choices that offered one
    `conversation_start` line per person. None when the text lists nobody
    because it has no such list; `[]` when its list says `なし`.
    """
    found: list[dict[str, str]] = []
    listing, listed = False, False
    for line in server_lines(text):
        stripped = line.strip()
        if CANDIDATES_HEADER.match(stripped):
            listing = listed = True
            continue
        if (start := START_CHOICE.match(stripped)) is not None:
            listed = True
            found.append({"id": start.group("id"), "name": start.group("name").strip()})
            continue
        entry = CANDIDATE_LINE.match(stripped) if listing else None
        if entry is not None:
            found.append({"id": entry.group("id"), "name": entry.group("name").strip()})
        elif not stripped.startswith("-"):
            listing = False
    unique = {p["id"]: p for p in found if p["name"]}
    return list(unique.values()) if listed else None
