"""The world's node ids: '{row}-{col}' on its grid ('3-3'), as the contract names them.

A leaf, the one place the agent takes a node id apart (the rules step toward a
far meeting place by it). The offline town keeps its own grid: it plays the
server and imports nothing of the agent.
"""

from __future__ import annotations

import re

NODE_ID = re.compile(r"([0-9]+)-([0-9]+)")


def coords(node: str) -> tuple[int, int] | None:
    """(row, col) of a node id ('3-12' → (3, 12)); None for anything else (a label, a malformed id)."""
    found = NODE_ID.fullmatch(str(node))
    return (int(found.group(1)), int(found.group(2))) if found else None


def distance(a: str, b: str) -> int | None:
    """Steps between two nodes on the grid (Manhattan distance: moves go to a neighbour); None when
    either is no node id."""
    first, second = coords(a), coords(b)
    if first is None or second is None:
        return None
    return abs(first[0] - second[0]) + abs(first[1] - second[1])
