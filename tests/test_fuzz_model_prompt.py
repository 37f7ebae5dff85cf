"""Fuzz: the model's prompt of a conversation turn, over partners' lines of every kind.

Whatever the line (the conversation benchmark's lines of all twelve kinds and
what partners tell, or any text), whatever the agent's day, plans and what it
was told: the prompt never depends on the rules' line (so it cannot offer it to
copy), never carries a configured secret someone repeats in town, and stays
within a fixed size.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.records import Parsed
from karakuri_agent.llm.prompt import build_messages, persona_card
from karakuri_agent.voice.persona_pack import load_persona

from testing.store_rows import as_lines, as_refs
from testing.model_talk import RIKU, turn

ROOT = Path(__file__).resolve().parents[1]
LINES = json.loads((ROOT / "testing" / "conversation" / "lines.json").read_text(encoding="utf-8"))
SAID = sorted({item["line"] for items in LINES.values() for item in items}
              | {s for items in LINES.values() for item in items for s in [item.get("setup") or ""] if s})
PACKS = (load_persona(), load_persona(ROOT / "testing" / "conversation" / "packs" / "minato"))
# A turn's prompt, whatever the store holds, stays under this (the typical one is about 2,500 characters).
BOUND = 9000

texts = st.text(st.characters(blacklist_categories=("Cs",)), max_size=400)
lines = st.one_of(st.sampled_from(SAID), texts, st.builds(lambda a, b: a + b, st.sampled_from(SAID), texts))
secrets = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7e), min_size=12, max_size=40)
places = st.lists(st.sampled_from(["公園 芝生広場", "図書館 閲覧室", "喫茶店 店内", "駅 改札前"]) | texts, max_size=30)
people = st.lists(st.sampled_from(["あおい", "ことね", "霧島レン"]) | texts, max_size=30)
gifts = st.lists(st.tuples(texts, st.none() | texts, st.integers(0, 10**9)), max_size=20)


def told_rows(sources: list[str]) -> list[dict]:
    return [{"kind": "like", "topic": "x", "about_id": RIKU["id"], "about_name": RIKU["name"], "speaker_id": RIKU["id"],
             "speaker_name": RIKU["name"], "said_at": "2027-05-09T03:00:00.000+00:00", "source": source,
             "withdrawn_at": None if i % 3 else "2027-05-09T05:00:00.000+00:00"} for i, source in enumerate(sources)]


def rules(line: str) -> Decision:
    return Decision("conversation_speak", {"message": line, "next_speaker_agent_id": RIKU["id"]}, "リクの発言に応える")


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line=lines, history=st.lists(lines, max_size=12), secret=secrets, pack=st.sampled_from(PACKS),
       day_places=places, day_people=people, received=gifts, told=st.lists(texts, max_size=12),
       rules_line=lines, other_line=lines, where=st.sampled_from(["line", "history", "told", "place", "name"]))
def test_a_turn_s_prompt_never_offers_the_rules_line_never_a_secret_and_is_bounded(
        line, history, secret, pack, day_places, day_people, received, told, rules_line, other_line, where):
    planted = f"{line} {secret}" if where == "line" else line
    messages = [{"speaker": RIKU["name"], "speaker_id": RIKU["id"], "message": h} for h in history]
    messages += [{"speaker": RIKU["name"], "speaker_id": RIKU["id"], "message": secret}] if where == "history" else []
    messages.append({"speaker": RIKU["name"], "speaker_id": RIKU["id"], "message": planted})
    view = turn(line, persona=pack,
                parsed=Parsed(notification_type="conversation_message",
                              participants=as_refs([{**RIKU, "name": RIKU["name"] + (secret if where == "name" else "")}]),
                              conversation_messages=as_lines(messages),
                              location={"current_node": {"node_id": "5-2", "name": "公園 芝生広場"}}),
                day_places=tuple(day_places) + ((secret,) if where == "place" else ()),
                day_people=tuple(day_people), day_received=tuple(received),
                told={RIKU["id"]: told_rows(told + ([secret] if where == "told" else []))})
    card = persona_card(pack)
    for repair in (None, (None, ["no JSON object"])):
        one = build_messages(card, view, rules(rules_line), repair=repair, secrets=(secret,))
        other = build_messages(card, view, rules(other_line), repair=repair, secrets=(secret,))
        assert one == other  # nothing of the rules' line reaches the prompt
        text = "".join(m["content"] for m in one)
        assert secret not in text
        assert len(one[1]["content"]) <= BOUND
