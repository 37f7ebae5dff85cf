"""The conversation benchmark's model path: the installed agent with KARAKURI_DECIDER=llm, asking the loopback
stand-in model (testing/standin_model.py), which can only say back what the prompt's understanding gives it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from karakuri_agent.ja import prompt_text
from testing.conversation.measure import judged_seed
from testing.conversation.runner import KINDS
from testing.llm_server import running_model
from testing.standin_model import StandInModel, sections

pytestmark = pytest.mark.life

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def model_run():
    standin = StandInModel()
    with running_model(standin) as server:
        settings = {"KARAKURI_DECIDER": "llm", "KARAKURI_LLM_BASE_URL": server.base_url,
                    "KARAKURI_LLM_MODEL": "stand-in", "KARAKURI_LLM_TIMEOUT": "20"}
        result = judged_seed(2, 1, "listen", None, settings)
    return standin, result


def test_every_line_of_every_kind_is_asked_of_the_model_and_its_lines_are_sent(model_run):
    standin, result = model_run
    assert not result["errors"]
    assert {row["kind"] for row in result["judged"]} == set(KINDS)
    spoken = [row["posts"][0]["params"]["message"] for row in result["judged"]
              if row["posts"] and "message" in (row["posts"][0].get("params") or {})]
    assert spoken and sum(line in standin.lines for line in spoken) >= 0.8 * len(spoken)
    faults = [v for row in result["judged"] for v in row["verdict"]["violations"]]
    assert not [v for v in faults if not v.startswith("unvisited_place")]  # no command off-turn or off the choices


def test_no_prompt_offers_the_rules_line_and_every_turn_carries_the_understanding(model_run):
    standin, _ = model_run
    turns = [sections(p) for p in standin.prompts if prompt_text.HEARD in sections(p)]
    assert len(turns) >= len(KINDS) - 1  # every judged line the agent answers, and the greetings
    for prompt in standin.prompts:
        for suggestion in sections(prompt).get(prompt_text.SUGGESTION) or []:
            message = (suggestion.get("params") or {}).get("message")
            assert message in (None, prompt_text.OWN_WORDS)
    for found in turns:
        assert found[prompt_text.MY_DAY] and found[prompt_text.MY_PLANS] and found[prompt_text.HEARD][0].get("kind")


def test_the_day_the_prompt_tells_is_the_day_the_server_saw(model_run):
    standin, result = model_run
    visited = set(result["day"]["visited"])
    told_days = [sections(p)[prompt_text.MY_DAY][0] for p in standin.prompts if prompt_text.MY_DAY in sections(p)]
    assert told_days
    for day in told_days:
        went = day["went"]
        assert isinstance(went, list) and went  # the morning always goes somewhere
        assert set(went) <= visited, (went, visited)
    day_answers = [row for row in result["judged"] if row["kind"] == "wh_day"]
    assert all(not any(v.startswith("unvisited_place") for v in row["verdict"]["violations"]) for row in day_answers)


def test_the_model_path_without_a_model_to_ask_is_one_clear_line(monkeypatch, capsys):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import bench_conversation

    monkeypatch.delenv("KARAKURI_LLM_BASE_URL", raising=False)
    monkeypatch.delenv("KARAKURI_LLM_MODEL", raising=False)
    with pytest.raises(SystemExit) as exit_:
        bench_conversation.main(["--decider", "llm", "--smoke"])
    assert exit_.value.code == 2
    error = capsys.readouterr().err.strip().splitlines()[-1]
    assert "KARAKURI_LLM_BASE_URL and KARAKURI_LLM_MODEL" in error
