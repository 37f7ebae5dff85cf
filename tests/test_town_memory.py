"""Three in-world days in the loopback town: what partners told on day 1 comes back, to them only."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.town import Town, live, serving  # noqa: E402
from testing.town.memory import memory_rows  # noqa: E402
from testing.town.metrics import pool  # noqa: E402
from testing.town_agents import InProcessAgent  # noqa: E402

pytestmark = pytest.mark.life

SEEDS = (1, 2, 3, 4)  # pooled: what comes up depends on whom each life meets, so one seed or two is noise
MESSAGES = 150


@pytest.fixture(scope="module")
def lived(tmp_path_factory: pytest.TempPathFactory):
    towns, results = [], []
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("KARAKURI_PERSONA_FILE", raising=False)
        patch.delenv("KARAKURI_PERSONA_DIR", raising=False)
        for seed in SEEDS:
            town = Town(seed=seed, days=3, per_day=MESSAGES // 3)
            state_dir = tmp_path_factory.mktemp(f"days{seed}") / "state"
            with serving(town) as server:
                live(town, InProcessAgent(server.base_url, town.api_key, state_dir), MESSAGES)
            towns.append(town)
            results.append({"memory": memory_rows(town, {})})
    return towns, {r["key"]: r for r in pool(results, "memory")}


def test_the_town_runs_three_days_and_plants_facts_on_the_first(lived):
    towns, _ = lived
    for town in towns:
        assert len(town.day_starts) == 3 and town.day_starts[1] < town.day_starts[2]
        assert any(f.said_at is not None for facts in town.planted.values() for f in facts)
        assert all(f.said_at is None or f.said_at < town.day_starts[1] for fs in town.planted.values() for f in fs)


def test_planted_facts_come_back_and_never_to_the_wrong_person(lived):
    _, rows = lived
    assert rows["fact_brought_up"]["den"] > 0 and rows["fact_brought_up"]["value"] >= 0.5
    assert rows["fact_to_wrong_person"]["value"] == 0
    assert rows["retracted_recalled"]["value"] == 0
    assert rows["fact_twice"]["value"] == 0


def test_the_metrics_see_a_fact_told_to_someone_else():
    """A town whose agent line names another person's pet is caught (the metric can fail)."""
    town = Town(seed=5, days=3, per_day=1)
    owner, other = town.world.people[0], town.world.people[1]
    fact = town.planted[owner.agent_id][0]
    town.steps.append(type("S", (), {"time": town.start, "index": 0, "posts": [], "nearby": []})())
    fact.said_at = town.start.replace(year=2000)
    from testing.town.sim import Conversation

    conv = Conversation(id="c", partners=[other.agent_id], initiator="x", show_id=False, turns_left=1,
                        known_before=True, everyone=[other.agent_id])
    conv.agent_lines.append({"step": 0, "command": "conversation_speak", "message": f"{fact.keywords[0]}のこと覚えてる？",
                             "partner_id": other.agent_id, "partner_line": None, "participants": [other.agent_id]})
    town.conversations.append(conv)
    rows = {r["key"]: r for r in memory_rows(town, {})}
    assert rows["fact_to_wrong_person"]["num"] == 1
