"""One reference to a person whatever the record's spelling, one "same person" rule, one "have we met"."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.identity import Identity, PersonRef, same_person
from karakuri_agent.domain.records import Parsed, has_talked

IDS = st.one_of(st.none(), st.sampled_from(["", "1474403124906295517", "1490011223344556677"]))
NAMES = st.one_of(st.none(), st.sampled_from(["", "桜草メイ", "灯屋ユウ", "灯屋ユウキ"]))


def spelled(spelling: str, agent_id, name) -> dict:
    """The same person in each of the four spellings records use (a promise's row has an id of its own)."""
    return {"participant": {"id": agent_id, "name": name},
            "line": {"speaker_id": agent_id, "speaker": name, "message": "やあ"},
            "person": {"agent_id": agent_id, "display_name": name, "nickname": None, "interactions": 2},
            "meeting": {"id": 42, "notification_id": "notif-1", "partner_id": agent_id, "partner_name": name,
                        "source_text": "3時に神社で"}}[spelling]


SPELLING = st.sampled_from(["participant", "line", "person", "meeting"])


@settings(max_examples=300, deadline=None)
@given(SPELLING, IDS, NAMES, SPELLING, IDS, NAMES)
def test_any_two_spellings_are_the_same_person_exactly_when_the_one_rule_says(sa, ida, namea, sb, idb, nameb):
    a, b = PersonRef.of(spelled(sa, ida, namea)), PersonRef.of(spelled(sb, idb, nameb))
    assert (a.id, a.name) == ((ida or None), namea or "")  # never the promise's own row id
    assert a.same(b) == same_person(ida, namea, idb, nameb)


def test_the_people_a_notification_names_are_its_participants_then_its_speakers():
    parsed = Parsed(participants=[{"id": "1", "name": "桜草メイ"}],
                    conversation_messages=[{"speaker_id": None, "speaker": "灯屋ユウ", "message": "こんにちは"},
                                           {"speaker_id": "1", "speaker": "桜草メイ", "message": "やあ"}])
    assert parsed.named() == [PersonRef("1", "桜草メイ"), PersonRef(None, "灯屋ユウ"), PersonRef("1", "桜草メイ")]
    me = Identity("1", "桜草メイ")
    assert [p for p in parsed.named() if not me.is_me(p)] == [PersonRef(None, "灯屋ユウ")]


def test_have_we_met_is_one_question_of_the_count_of_talks():
    assert not has_talked(None)
    assert not has_talked({"agent_id": "1", "display_name": "桜草メイ", "nickname": None, "interactions": 0,
                           "last_contact": None})
    assert has_talked({"agent_id": "1", "display_name": "桜草メイ", "nickname": None, "interactions": 1,
                       "last_contact": None})
