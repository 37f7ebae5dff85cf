"""One turn of the pack's behaviour per notification (issue 29 item 3).

The cycle begins the turn once (`decide/behaving.begun`); the rules'
selection, a model's prompt and schema, and the finish after the outcome
all read that one turn. So what a rule did just now (a directive, a
variable change) is in this notification's prompt, and reading the turn
again fires nothing twice.
"""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st

from karakuri_agent.decide.behaving import begun, finish
from karakuri_agent.decide.rules import RulePolicy
from karakuri_agent.llm.prompt import build_messages, persona_card

from testing.packs import TOKYO_NOON, with_pack
from testing.views import MOVE, WAIT, view

MINDFUL = {"variables": {"energy": {"min": 0, "max": 100, "initial": 50, "max_delta": 30}},
           "rules": [{"id": "mindful", "priority": 500, "when": {"type": "notification", "types": ["*"]},
                      "then": [{"type": "directive", "text": "今日は静かに過ごす"},
                               {"type": "add", "path": "energy", "value": 20}]}]}


def _prompt(v):
    proposal = RulePolicy().propose(v)
    default = next((d for d in proposal.candidates if d.acts), None)
    return "\n".join(m["content"] for m in build_messages(persona_card(v.persona), v, default)), proposal


def test_a_directive_a_rule_fired_just_now_is_in_this_notifications_prompt():
    v = begun(with_pack(view([MOVE, WAIT]), MINDFUL, now=TOKYO_NOON))
    prompt, proposal = _prompt(v)
    assert proposal.selection is not None and proposal.selection.turn is v.turn  # the one turn, shared
    assert "今日は静かに過ごす" in prompt
    assert '{"name":"energy","value":70}' in prompt.splitlines()  # after the rule's +20, not the 50 before it


def test_a_view_without_a_begun_turn_begins_its_own_and_the_prompt_shows_the_state_before():
    v = with_pack(view([MOVE, WAIT]), MINDFUL, now=TOKYO_NOON)  # as tests and benchmarks build views by hand
    assert v.turn is None
    prompt, _ = _prompt(v)
    assert "今日は静かに過ごす" not in prompt  # its own fresh turn: nothing has fired in it
    assert '{"name":"energy","value":50}' in prompt.splitlines()


@settings(max_examples=25, deadline=None)
@given(reads=st.integers(min_value=0, max_value=4), add=st.integers(min_value=-30, max_value=30))
def test_reading_the_turn_any_number_of_times_fires_each_rule_once(reads, add):
    data = json.loads(json.dumps(MINDFUL))
    data["rules"][0]["then"][1]["value"] = add
    v = begun(with_pack(view([MOVE, WAIT]), data, now=TOKYO_NOON))
    proposal = RulePolicy().propose(v)
    for _ in range(reads):  # the prompt and the schema read the turn, as often as they like
        _prompt_only(v, proposal)
    memory, trace = finish(v, proposal.selection, proposal.candidates[0], "move", True)
    assert memory["rules"]["mindful"]["fires"] == 1 and trace["fired"] == ["mindful"]
    assert memory["variables"]["energy"] == max(0, min(100, 50 + add))


def _prompt_only(v, proposal) -> None:
    default = next((d for d in proposal.candidates if d.acts), None)
    build_messages(persona_card(v.persona), v, default)
