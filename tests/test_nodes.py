"""Node ids taken apart once (domain/nodes.py): the grid a move steps across."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from karakuri_agent.domain import nodes

pytestmark = pytest.mark.unit


@given(st.integers(0, 999), st.integers(0, 999), st.integers(0, 999), st.integers(0, 999))
def test_distance_is_the_steps_between_two_grid_nodes(r1, c1, r2, c2):
    assert nodes.coords(f"{r1}-{c1}") == (r1, c1)
    assert nodes.distance(f"{r1}-{c1}", f"{r2}-{c2}") == abs(r1 - r2) + abs(c1 - c2)


@pytest.mark.parametrize("text", ["", "3", "3-", "-3", "a-b", "3-3-3", "３-３", "3 - 3", "神社 入口", "-1-2"])
def test_anything_but_a_node_id_has_no_place_on_the_grid(text):
    assert nodes.coords(text) is None
    assert nodes.distance(text, "1-1") is None and nodes.distance("1-1", text) is None
