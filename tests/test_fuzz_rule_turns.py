"""Property tests for a pack rule's conversation turn (issue 32 item 2), each a class of bad outcome.

- Whatever the group (who is present, who spoke in what order, the enum,
  what the rule names as the next speaker), a rule's turn that decides
  names a present participant other than the agent, within the enum, and
  says the rule's line; else the rule gives way and says why.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from karakuri_agent.behaviour.builtin import BUILTIN_RULE_IDS
from karakuri_agent.behaviour.pack import parse_behaviour
from karakuri_agent.decide.rules import propose

from testing.store_rows import as_refs
from testing.views import ME, choice, view

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PEOPLE = [{"id": f"14800000000000000{i:02d}", "name": name} for i, name in enumerate(["桜草メイ", "朝凪ソラ", "灯屋ユウ"])]
SELF = {"id": ME.agent_id, "name": ME.name}


@SETTINGS
@given(present=st.lists(st.sampled_from(PEOPLE), unique_by=lambda p: p["id"], max_size=3),
       speakers=st.lists(st.sampled_from([*PEOPLE, SELF]), max_size=4),
       enum=st.one_of(st.none(), st.lists(st.sampled_from([p["id"] for p in [*PEOPLE, SELF]]), min_size=1,
                                          unique=True)),
       named=st.one_of(st.none(), st.sampled_from(["{partner}", "誰か", ME.agent_id, ME.name,
                                                   *[p["name"] for p in PEOPLE], *[p["id"] for p in PEOPLE]])),
       command=st.sampled_from(["conversation_speak", "end_conversation"]))
def test_a_rules_turn_names_a_present_participant_or_gives_way(present, speakers, enum, named, command):
    schema = {"message": {"type": "string", "maxLength": 200},
              "next_speaker_agent_id": {"type": "string", **({"enum": enum} if enum else {})}}
    turn = choice(command, required_params=["message", "next_speaker_agent_id"], param_schema=schema)
    v = view([turn], messages=[{"speaker_id": p["id"], "speaker": p["name"], "message": "やあ"} for p in speakers],
             kind="conversation_message")
    v = replace(v, parsed=replace(v.parsed, participants=as_refs([*present, SELF]), present=as_refs([*present, SELF]),
                                  participants_listed=True))
    params = {} if named is None else {"next_speaker_agent_id": named}
    rule = {"id": "nyan", "when": {"type": "notification", "types": ["conversation_message"]}, "priority": 400,
            "then": [{"type": "choose", "command": command, "params": params},
                     {"type": "say", "phrases": ["にゃーん"]}]}
    behaviour, problems = parse_behaviour({"rules": [rule]}, builtin_ids=BUILTIN_RULE_IDS)
    assert problems == []
    v = replace(v, persona=replace(v.persona, behaviour=behaviour))
    proposed = propose(v)
    assert proposed.candidates
    first = proposed.candidates[0]
    if first.rule == "nyan":
        speaker = first.params["next_speaker_agent_id"]
        assert speaker in {p["id"] for p in present}
        assert speaker != ME.agent_id
        assert enum is None or speaker in enum
        assert first.params["message"] == "にゃーん"
    else:
        gave_way = proposed.selection.gave_way
        assert [g["rule"] for g in gave_way] == ["nyan"], gave_way
        assert gave_way[0]["why"] and "\n" not in gave_way[0]["why"]
