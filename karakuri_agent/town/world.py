"""The engine town's map and catalogue, generated from a seed, on the Karakuri World engine's model.

What the engine's config describes, modelled here (read from the engine's
`types/data-model.ts`, `domain/map-utils.ts`, `domain/actions.ts`):

- a grid of nodes `row-col` (1-based); a node is `normal` unless configured
  `wall`, `door`, `building_interior` or `npc`; only normal, door and
  interior nodes are passable (an NPC's node is not);
- a building is walls around interior nodes with one or two doors; its actions
  are offered on its interior nodes, within its hours; labels read
  `喫茶店 入口` / `喫茶店 店内`;
- an NPC stands on its node and offers its actions to an agent on a node next
  to it (Manhattan distance 1);
- an action has a fixed duration (`duration_ms`, shown as `3600秒`) or a range
  (`min_duration_minutes`..`max_duration_minutes`, shown as `30〜480分`), and
  may cost money, need items (consumed at the start), pay a reward or grant
  items when it completes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable

SELF_ID = "1470446478261747854"  # the agent the town is for (testing/town_agents.py sets these in its settings)
SELF_NAME = "AIニケちゃん"
SELF_SHORT_NAME = "ニケ"  # what the residents call her
PASSABLE = frozenset({"normal", "door", "building_interior"})


@dataclass(frozen=True)
class Item:
    item_id: str
    name: str
    type: str  # general | food | drink | venue


@dataclass(frozen=True)
class Action:
    action_id: str
    name: str
    duration_ms: int | None = None
    min_minutes: int | None = None
    max_minutes: int | None = None
    cost_money: int | None = None
    reward_money: int | None = None
    required_items: tuple[tuple[str, int], ...] = ()
    reward_items: tuple[tuple[str, int], ...] = ()
    hours: tuple[str, str] | None = None

    @property
    def ranged(self) -> bool:
        return self.duration_ms is None


@dataclass
class Building:
    building_id: str
    name: str
    word: str  # what its inside is called: 店内, 館内, 室内, 境内
    walls: list[str]
    interior: list[str]
    doors: list[str]
    actions: tuple[Action, ...]
    hours: tuple[str, str] | None = None


@dataclass
class Npc:
    npc_id: str
    name: str
    node: str
    actions: tuple[Action, ...]
    hours: tuple[str, str] | None = None


@dataclass
class Map:
    rows: int
    cols: int
    types: dict[str, str] = field(default_factory=dict)  # node -> type (absent: normal)
    labels: dict[str, str] = field(default_factory=dict)
    buildings: list[Building] = field(default_factory=list)
    npcs: list[Npc] = field(default_factory=list)

    def type_of(self, node: str) -> str:
        return self.types.get(node, "normal")

    def within(self, node: str) -> bool:
        row, col = coords(node)
        return 1 <= row <= self.rows and 1 <= col <= self.cols

    def passable(self, node: str) -> bool:
        return self.within(node) and self.type_of(node) in PASSABLE

    def walkable(self, start: str) -> set[str]:
        """Every node an agent can walk to from `start` (and `start`)."""
        seen, queue = {start}, [start]
        while queue:
            for nxt in self.neighbours(queue.pop()):
                if nxt not in seen and self.passable(nxt):
                    seen.add(nxt)
                    queue.append(nxt)
        return seen

    def reachable(self, start: str) -> list[str]:
        """The street nodes (type normal) an agent can walk to from `start`, in a stable order."""
        return sorted((n for n in self.walkable(start) if self.type_of(n) == "normal"), key=coords)

    def neighbours(self, node: str) -> list[str]:
        row, col = coords(node)
        return [n for n in (f"{row - 1}-{col}", f"{row + 1}-{col}", f"{row}-{col + 1}", f"{row}-{col - 1}")
                if self.within(n)]

    def path(self, start: str, goal: str) -> list[str] | None:
        """Breadth-first over passable nodes, as the engine's findPath: the nodes after `start`."""
        if start == goal:
            return []
        previous: dict[str, str] = {}
        queue, seen = [start], {start}
        while queue:
            current = queue.pop(0)
            for nxt in self.neighbours(current):
                if nxt in seen or not self.passable(nxt):
                    continue
                seen.add(nxt)
                previous[nxt] = current
                if nxt == goal:
                    out = [goal]
                    while out[-1] in previous and previous[out[-1]] != start:
                        out.append(previous[out[-1]])
                    return out[::-1]
                queue.append(nxt)
        return None

    def in_range(self, center: str, reach: int) -> list[str]:
        """The nodes within `reach` steps of `center` (Manhattan), nearest first: only the square around it is read."""
        row, col = coords(center)
        nodes = [(abs(r - row) + abs(c - col), f"{r}-{c}")
                 for r in range(max(1, row - reach), min(self.rows, row + reach) + 1)
                 for c in range(max(1, col - reach), min(self.cols, col + reach) + 1)
                 if abs(r - row) + abs(c - col) <= reach]
        return [node for _, node in sorted(nodes)]

    def building_inside(self, node: str) -> Building | None:
        return next((b for b in self.buildings if node in b.interior), None)

    def building_at(self, node: str) -> Building | None:
        return next((b for b in self.buildings if node in b.interior or node in b.doors), None)

    def npcs_next_to(self, node: str) -> list[Npc]:
        return sorted((n for n in self.npcs if distance(node, n.node) == 1), key=lambda n: n.npc_id)

    def place_of(self, node: str) -> str:
        """The place a node belongs to, for the visit count: a building's name, a label, or the street."""
        building = self.building_at(node)
        if building is not None:
            return building.name
        return self.labels.get(node, "")

    def normal_nodes(self) -> list[str]:
        return [f"{r}-{c}" for r in range(1, self.rows + 1) for c in range(1, self.cols + 1)
                if self.type_of(f"{r}-{c}") == "normal"]


def coords(node: str) -> tuple[int, int]:
    row, col = node.split("-")
    return int(row), int(col)


def distance(a: str, b: str) -> int:
    (ra, ca), (rb, cb) = coords(a), coords(b)
    return abs(ra - rb) + abs(ca - cb)


ITEMS = (
    Item("movie-ticket", "映画チケット", "general"),
    Item("bread", "あんパン", "food"),
    Item("takoyaki", "たこ焼き", "food"),
    Item("flowers", "花束", "general"),
    Item("green-tea", "ペットボトルのお茶", "drink"),
    Item("bath-ticket", "銭湯の回数券", "venue"),
    Item("omamori", "お守り", "general"),
)
ITEM_NAMES = {item.item_id: item.name for item in ITEMS}

# (building_id, name, inside word, actions, hours)
BUILDINGS = (
    ("cafe", "喫茶店「さくら」", "店内", (
        Action("drink-coffee", "コーヒーを飲む", duration_ms=3_600_000, cost_money=450),
        Action("eat-napolitan", "ナポリタンを食べる", duration_ms=3_600_000, cost_money=850),
    ), ("08:00", "21:00")),
    ("cinema", "映画館", "館内", (
        Action("buy-ticket", "チケットを買う", duration_ms=300_000, cost_money=1500, reward_items=(("movie-ticket", 1),)),
        Action("watch-movie", "映画を観る", duration_ms=7_200_000, required_items=(("movie-ticket", 1),)),
    ), ("10:00", "23:00")),
    ("home", "自宅", "室内", (
        Action("sleep", "寝る", min_minutes=30, max_minutes=480),
        Action("cook", "料理をする", min_minutes=20, max_minutes=90),
    ), None),
    ("bakery", "パン屋", "店内", (
        Action("work-bakery", "パン屋で働く", min_minutes=60, max_minutes=240, reward_money=2400),
        Action("buy-bread", "あんパンを買う", duration_ms=300_000, cost_money=180, reward_items=(("bread", 1),)),
    ), ("07:00", "19:00")),
    ("library", "図書館", "館内", (
        Action("read-book", "本を読む", min_minutes=15, max_minutes=180),
    ), ("09:00", "20:00")),
    ("bathhouse", "銭湯「松の湯」", "店内", (
        Action("take-bath", "お風呂に入る", duration_ms=2_400_000, required_items=(("bath-ticket", 1),)),
        Action("buy-bath-ticket", "回数券を買う", duration_ms=120_000, cost_money=480, reward_items=(("bath-ticket", 1),)),
    ), ("15:00", "24:00")),
    ("shrine", "神社", "境内", (
        Action("pray", "お参りする", duration_ms=600_000, cost_money=5),
        Action("buy-omamori", "お守りを買う", duration_ms=300_000, cost_money=800, reward_items=(("omamori", 1),)),
    ), None),
)
NPCS = (
    ("police", "おまわりさん", (), None),
    ("yatai", "屋台のおじさん", (
        Action("buy-takoyaki", "たこ焼きを買う", duration_ms=600_000, cost_money=500, reward_items=(("takoyaki", 1),)),
    ), ("11:00", "22:00")),
    ("florist", "花屋の娘さん", (
        Action("buy-flowers", "花束を買う", duration_ms=600_000, cost_money=1200, reward_items=(("flowers", 1),)),
    ), ("09:00", "18:00")),
    ("fortune", "占い師", (
        Action("fortune", "占ってもらう", duration_ms=1_200_000, cost_money=3000),
    ), ("18:00", "23:30")),
)
OUTDOOR_LABELS = ("中央広場", "川沿いの遊歩道", "バス停", "公園のベンチ", "商店街アーケード")


@dataclass
class World:
    name: str
    description: str
    map: Map
    spawn: str
    timezone: str = "Asia/Tokyo"

    def action_by_id(self, action_id: str) -> Action | None:
        for building in self.map.buildings:
            for action in building.actions:
                if action.action_id == action_id:
                    return action
        for npc in self.map.npcs:
            for action in npc.actions:
                if action.action_id == action_id:
                    return action
        return None


def _rect(top: int, left: int, height: int, width: int) -> list[str]:
    return [f"{r}-{c}" for r in range(top, top + height) for c in range(left, left + width)]


def generate(rng: random.Random) -> World:
    """A town: 4-7 buildings placed on a grid with streets between them, NPCs on the streets."""
    rows, cols = rng.randint(11, 14), rng.randint(14, 18)
    world_map = Map(rows, cols)
    chosen = list(BUILDINGS)
    rng.shuffle(chosen)
    chosen = [b for b in chosen if b[0] == "home"] + [b for b in chosen if b[0] != "home"][:rng.randint(3, 6)]
    taken: set[str] = set()
    for building_id, name, word, actions, hours in chosen:
        for _ in range(200):
            height, width = rng.choice(((3, 3), (3, 4), (4, 3), (4, 4)))
            top, left = rng.randint(2, rows - height), rng.randint(2, cols - width)
            block = _rect(top - 1, left - 1, height + 2, width + 2)  # a street all around
            if any(n in taken for n in block):
                continue
            cells = _rect(top, left, height, width)
            inner = _rect(top + 1, left + 1, height - 2, width - 2)
            border = [n for n in cells if n not in inner]
            sides = [n for n in border if _is_edge_middle(n, top, left, height, width)]
            doors = rng.sample(sides, 2 if rng.random() < 0.25 and len(sides) > 1 else 1)
            walls = [n for n in border if n not in doors]
            taken.update(block)
            for node in walls:
                world_map.types[node] = "wall"
            for node in inner:
                world_map.types[node] = "building_interior"
                world_map.labels[node] = f"{name.split('「')[0]} {word}"
            for node in doors:
                world_map.types[node] = "door"
                world_map.labels[node] = f"{name.split('「')[0]} 入口"
            world_map.buildings.append(Building(building_id, name, word, walls, inner, doors, actions, hours))
            break
    free = [n for n in world_map.normal_nodes() if n not in taken or world_map.type_of(n) == "normal"]
    free = [n for n in free if all(world_map.type_of(m) != "door" for m in world_map.neighbours(n))]
    npcs = rng.sample(NPCS, rng.randint(2, len(NPCS)))
    for npc_id, name, actions, hours in npcs:
        node = rng.choice(free)
        free.remove(node)
        world_map.types[node] = "npc"
        world_map.npcs.append(Npc(npc_id, name, node, actions, hours))
    # an NPC must not cut the town in two: every passable node stays reachable from the spawn
    spawn = rng.choice([n for n in free if world_map.type_of(n) == "normal"])
    for label in rng.sample(OUTDOOR_LABELS, 3):
        node = rng.choice([n for n in free if n not in world_map.labels and n != spawn])
        world_map.labels[node] = label
    _drop_unreachable_npcs(world_map, spawn)
    name = rng.choice(("からくり町", "かざぐるま町", "ひだまり町"))
    description = rng.choice((
        "どこにでもありそうな日本の小さな町。神社や学校、商店街に映画館。穏やかな日常が流れている。",
        "川と坂の多い静かな町。古い商店街と新しいカフェが並んでいる。",
    ))
    return World(name, description, world_map, spawn)


def _is_edge_middle(node: str, top: int, left: int, height: int, width: int) -> bool:
    row, col = coords(node)
    corner = row in (top, top + height - 1) and col in (left, left + width - 1)
    return not corner


def _drop_unreachable_npcs(world_map: Map, spawn: str) -> None:
    """Turn back into street any NPC whose node cut off part of the town."""
    for npc in list(world_map.npcs):
        everything = {n for n in _all(world_map) if world_map.passable(n)}
        if everything <= world_map.walkable(spawn):
            break
        world_map.npcs.remove(npc)
        del world_map.types[npc.node]


def _all(world_map: Map) -> Iterable[str]:
    return (f"{r}-{c}" for r in range(1, world_map.rows + 1) for c in range(1, world_map.cols + 1))
