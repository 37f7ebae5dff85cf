"""One reference to a person whatever the record that names them, one "same person" rule, one "have we met"."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.identity import Identity, PersonRef, same_person
from karakuri_agent.domain.records import Line, Meeting, Parsed, Person, has_talked

IDS = st.one_of(st.none(), st.sampled_from(["", "1474403124906295517", "1490011223344556677"]))
NAMES = st.one_of(st.none(), st.sampled_from(["", "桜草メイ", "灯屋ユウ", "灯屋ユウキ"]))


def named(kind: str, agent_id, name):
    """The same person as each record that names someone says who (a promise's row has an id of its own)."""
    name = name or ""
    return {"participant": lambda: PersonRef(agent_id, name),
            "line": lambda: Line(name, "やあ", agent_id).person,
            "person": lambda: Person(agent_id or "", name, interactions=2).ref,
            "meeting": lambda: Meeting(name, agent_id, source_text="3時に神社で", id=42).partner}[kind]()


KIND = st.sampled_from(["participant", "line", "person", "meeting"])


@settings(max_examples=300, deadline=None)
@given(KIND, IDS, NAMES, KIND, IDS, NAMES)
def test_any_two_records_name_the_same_person_exactly_when_the_one_rule_says(ka, ida, namea, kb, idb, nameb):
    a, b = named(ka, ida, namea), named(kb, idb, nameb)
    assert (a.id, a.name) == ((ida or None), namea or "")  # never the promise's own row id
    assert a.same(b) == same_person(ida, namea, idb, nameb)


def test_the_people_a_notification_names_are_its_participants_then_its_speakers():
    parsed = Parsed(participants=[PersonRef("1", "桜草メイ")],
                    conversation_messages=[Line("灯屋ユウ", "こんにちは"), Line("桜草メイ", "やあ", "1")])
    assert parsed.named() == [PersonRef("1", "桜草メイ"), PersonRef(None, "灯屋ユウ"), PersonRef("1", "桜草メイ")]
    me = Identity("1", "桜草メイ")
    assert [p for p in parsed.named() if not me.is_me(p)] == [PersonRef(None, "灯屋ユウ")]


def test_have_we_met_is_one_question_of_the_count_of_talks():
    assert not has_talked(None)
    assert not has_talked(Person("1", "桜草メイ", interactions=0))
    assert has_talked(Person("1", "桜草メイ", interactions=1))
