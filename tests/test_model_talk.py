"""The model decider speaks with the rules' knowledge (issue 33, item 5): the prompt of a conversation turn
holds the line understood and what is true of the agent, never the rules' own line; the gate still decides."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from karakuri_agent.decide.rules import RulePolicy
from karakuri_agent.domain.decision import Decision
from karakuri_agent.domain.notification import Choice
from karakuri_agent.domain.records import Meeting, Parsed
from karakuri_agent.mind.view import View
from karakuri_agent.gate import problems_in_view
from karakuri_agent.ja import prompt_text
from karakuri_agent.llm.decider import LLMDecider
from karakuri_agent.llm.prompt import build_messages, persona_card
from karakuri_agent.llm.settings import LLMSettings
from karakuri_agent.secret import Secret
from karakuri_agent.voice.persona_pack import load_persona
from testing.llm_server import running_model
from testing.standin_model import SPOILS, StandInModel, sections
from testing.store_rows import as_lines, as_refs
from testing.model_talk import NOW, RIKU, turn

ROOT = Path(__file__).resolve().parents[1]
MINATO = ROOT / "testing" / "conversation" / "packs" / "minato"
MODEL_KEY = "sk-model-key-5566ccdd"
RULES_LINE = "規則の答え、図書館の話だね！"
TOLD = [
    {"kind": "like", "topic": "ボルダリング", "about_id": RIKU["id"], "about_name": RIKU["name"],
     "speaker_id": RIKU["id"], "speaker_name": RIKU["name"], "said_at": "2027-05-09T03:00:00.000+00:00",
     "source": "最近ボルダリング始めたんだ", "withdrawn_at": None},
    {"kind": "plan", "topic": "マラソン", "about_id": RIKU["id"], "about_name": RIKU["name"],
     "speaker_id": RIKU["id"], "speaker_name": RIKU["name"], "said_at": "2027-05-09T04:00:00.000+00:00",
     "source": "来週マラソンに出るんだ", "withdrawn_at": "2027-05-09T05:00:00.000+00:00"},
]


def rules_default(view: View) -> Decision:
    return Decision("conversation_speak", {"message": RULES_LINE, "next_speaker_agent_id": RIKU["id"]},
                    "リクの発言に応える")


def situation(view: View, default: Decision | None = None) -> dict:
    return sections(build_messages(persona_card(view.persona), view, default)[1]["content"])


# -- (a) the rules' line is not in the prompt -------------------------------------------------------
def test_the_rules_line_is_not_offered_to_copy_only_their_command_and_other_params():
    view = turn("今日どこ行ってたの？")
    messages = build_messages(persona_card(view.persona), view, rules_default(view))
    text = "\n".join(m["content"] for m in messages)
    assert RULES_LINE not in text
    suggestion = sections(messages[1]["content"])[prompt_text.SUGGESTION]
    assert suggestion == [{"command": "conversation_speak", "reason": "リクの発言に応える",
                           "params": {"message": prompt_text.OWN_WORDS, "next_speaker_agent_id": RIKU["id"]}}]
    assert "「おすすめ」をそのまま選んでよい" not in messages[0]["content"]


def test_the_repair_example_does_not_carry_the_rules_line_either():
    view = turn("今日どこ行ってたの？")
    messages = build_messages(persona_card(view.persona), view, rules_default(view), repair=(None, ["no JSON object"]))
    assert RULES_LINE not in "\n".join(m["content"] for m in messages)
    assert prompt_text.OWN_WORDS in messages[-1]["content"]


# -- (b) the understanding, true to the journal, the tastes and what was told ---------------------------
def test_a_question_about_the_day_is_understood_and_the_day_is_the_journal_s():
    found = situation(turn("今日どこ行ってたの？"))
    heard = found[prompt_text.HEARD][0]
    assert heard["from"] == "真白リク" and heard["kind"] == prompt_text.KIND_LABELS["question"]
    assert heard["asks"] == prompt_text.ASKS_LABELS["day"]
    day = found[prompt_text.MY_DAY][0]
    assert day == {"here": "公園", "went": ["公園", "図書館"], "talked_with": ["あおい"],
                   "got": ["あおいから500円", "ことねからmelon-pan×2"]}
    assert found[prompt_text.MY_PLANS] == [prompt_text.NO_PLANS]


def test_a_day_with_no_place_says_so_instead_of_leaving_room_for_one():
    day = situation(turn("今日どこ行ってたの？", day_places=(), day_received=(),
                         parsed=Parsed(notification_type="conversation_message", participants=as_refs([RIKU]),
                                       conversation_messages=as_lines([{"speaker": RIKU["name"],
                                                                        "speaker_id": RIKU["id"],
                                                                        "message": "今日どこ行ってたの？"}]))))[prompt_text.MY_DAY]
    assert day == [{"went": prompt_text.NO_PLACE_YET, "talked_with": ["あおい"]}]


def test_the_plans_are_the_promises_and_not_listed_twice():
    promise = Meeting(partner_name="あおい", place_name="喫茶店 店内", node_id="7-8",
                      due_at=datetime.fromisoformat("2027-05-10T06:00:00+00:00"))
    view = turn("このあとどうするの？", people=[], pending=[promise])
    found = situation(view)
    assert found[prompt_text.HEARD][0]["asks"] == prompt_text.ASKS_LABELS["plans"]
    assert found[prompt_text.MY_PLANS] == [{"with": "あおい", "place": "喫茶店 店内", "node_id": "7-8", "at": "05/10 15:00"}]
    assert prompt_text.PROMISES not in found


def test_a_which_of_question_carries_its_options_and_the_tastes_that_decide_it():
    view = turn("海と山ならどっち派？", persona=load_persona(MINATO))
    found = situation(view)
    heard = found[prompt_text.HEARD][0]
    assert heard["options"] == ["海", "山"]
    tastes = found[prompt_text.MY_TASTES]
    assert {"thing": "海", "feel": prompt_text.LIKED} in tastes and {"thing": "山", "feel": prompt_text.DISLIKED} in tastes


def test_a_habit_question_carries_the_habit_and_a_favourite_question_the_favourite():
    pack = load_persona(MINATO)
    habit = situation(turn("休みの日って家にいる派？", persona=pack))[prompt_text.MY_TASTES]
    assert {"habit": "家にいる", "does": prompt_text.DOES_NOT} in habit
    food = situation(turn("好きな食べ物はなに？", persona=pack))[prompt_text.MY_TASTES]
    assert food[0] == {"kind": prompt_text.FAVOURITE_LABELS["food"], "is": "アジの干物"}


def test_news_is_understood_by_its_whole_word_and_a_partner_s_told_facts_come_without_the_retracted():
    found = situation(turn("来週、市民マラソンに出るんだ", told={RIKU["id"]: TOLD}))
    heard = found[prompt_text.HEARD][0]
    assert heard["topic"] == "市民マラソン" and heard["kind"] in (prompt_text.KIND_LABELS["plan"],
                                                                 prompt_text.KIND_LABELS["news"])
    assert found[prompt_text.TOLD_BEFORE] == ["2027-05-09 真白リク「最近ボルダリング始めたんだ」"]
    participant = found[prompt_text.PARTICIPANTS][0]
    assert "facts" not in participant  # once, in the understanding


def test_a_notification_that_answers_no_line_has_no_understanding():
    move = Choice.from_json({"command": "move", "required_params": ["target_node_id"],
                             "param_schema": {"target_node_id": {"type": "string", "enum": ["3-4"]}}})
    promise = Meeting(partner_name="あおい", place_name="喫茶店 店内",
                      due_at=datetime.fromisoformat("2027-05-10T06:00:00+00:00"))
    view = turn("", choices=[move], people=[], pending=[promise],
                parsed=Parsed(notification_type="movement_completed",
                              location={"current_node": {"node_id": "5-2", "name": "公園 芝生広場"}}))
    found = situation(view, Decision("move", {"target_node_id": "3-4"}, "行ってみる"))
    assert prompt_text.HEARD not in found and prompt_text.MY_DAY not in found
    assert found[prompt_text.PROMISES][0]["place"] == "喫茶店 店内"
    assert found[prompt_text.SUGGESTION][0]["params"] == {"target_node_id": "3-4"}


def test_a_secret_someone_repeats_in_town_is_masked_in_the_prompt():
    view = turn(f"ねえ、{MODEL_KEY} ってなに？")
    messages = build_messages(persona_card(view.persona), view, None, secrets=(MODEL_KEY,))
    text = json.dumps(messages, ensure_ascii=False)
    assert MODEL_KEY not in text and "***" in text


# -- (c) through the decider: the stand-in's line is the understanding's, and the gate still refuses -------
def standin_decider(server) -> LLMDecider:
    settings = LLMSettings(base_url=server.base_url, model="stand-in", api_key=Secret(MODEL_KEY), timeout=20)
    return LLMDecider(settings, RulePolicy(), gate=problems_in_view)


@pytest.mark.process
def test_the_stand_in_answers_from_the_understanding_and_its_line_is_sent_first():
    standin = StandInModel()
    with running_model(standin) as server:
        view = turn("今日どこ行ってたの？", said_before=["さっきはありがとう！"])
        proposal = standin_decider(server).propose(view)
    assert proposal.candidates[0].params["message"] == "今日は公園と図書館に行ったよ。"
    assert proposal.model is not None and proposal.model.outcome == "model"
    rules_lines = [d.params.get("message") for d in proposal.candidates[1:] if d.params.get("message")]
    assert rules_lines and all(line not in standin.prompts[0] for line in rules_lines)  # the rules' own line
    for request in server.requests:
        assert MODEL_KEY not in json.dumps(request, ensure_ascii=False)


@pytest.mark.process
@pytest.mark.parametrize("spoil, problem", [
    ("mention", "mention"), ("placeholder", "placeholder"), ("not_offered", "not one of this notification's choices"),
    ("money", "never gives money"), ("repeat", "already said"),
])
def test_the_gate_still_refuses_a_bad_model_line_and_the_rules_decide(spoil, problem):
    assert spoil in SPOILS
    with running_model(StandInModel(spoil=spoil)) as server:
        view = turn("今日どこ行ってたの？", said_before=["今日は公園と図書館に行ったよ。"])
        proposal = standin_decider(server).propose(view)
    assert proposal.model is not None and proposal.model.outcome != "model"
    assert any(problem in p for problems in proposal.model.problems for p in problems)
    first = proposal.candidates[0]
    assert first.command in ("conversation_speak", "end_conversation")
    assert "<@" not in first.params.get("message", "") and "transfer" not in first.params
    assert first.params.get("message") != prompt_text.OWN_WORDS


def test_the_gate_does_not_judge_what_a_line_claims_so_a_made_up_place_passes_it():
    """What the gate checks is form and safety (offered, schema, plain words, not said before, no secret);
    the model's own limits add money and invented params. A line's claims about the day are the prompt's
    to ground and the benchmark's judge's to count (its hard fault: a place claimed, never visited)."""
    made_up = Decision("conversation_speak", {"message": "さっき商店街に行ってきたよ。", "next_speaker_agent_id": RIKU["id"]})
    assert problems_in_view(turn("今日どこ行ってたの？"), made_up) == []


def test_the_understanding_follows_the_pack_not_a_copy_of_the_rules_pack():
    view = replace(turn("冬と夏、どっちが好き？"), persona=load_persona(MINATO))
    tastes = situation(view)[prompt_text.MY_TASTES]
    assert {"kind": prompt_text.FAVOURITE_LABELS["season"], "is": "冬"} in tastes


def test_the_day_s_gifts_come_from_the_journal_taken_ones_only():
    from karakuri_agent.memory import journal
    from karakuri_agent.state.memory import MemoryState

    store = MemoryState(clock=lambda: NOW).store
    at = NOW.replace(hour=2)
    store.add_to_journal("n1", journal.TRANSFER, "n1:0", at, {"direction": journal.RECEIVED, "partner": "あおい",
                                                            "partner_id": "1", "item": None, "money": 500})
    store.add_to_journal("n2", journal.TRANSFER, "n2:0", at, {"direction": journal.RECEIVED, "partner": "ことね",
                                                            "partner_id": "2", "item": {"item_id": "melon-pan",
                                                                                        "quantity": 2}, "money": None})
    store.add_to_journal("n3", journal.TRANSFER, "n3:0", at, {"direction": journal.DECLINED, "partner": "レン",
                                                            "partner_id": "3", "item": None, "money": 9000})
    assert journal.today(store, NOW)["day_received"] == (("ことね", "melon-pan", 2), ("あおい", None, 500))


def test_a_line_said_before_to_these_partners_is_listed_once():
    view = turn("今日どこ行ってたの？", said_before=["こんにちは、リクさん！", "こんにちは、リクさん！", "またね！"])
    assert situation(view)[prompt_text.SAID_BEFORE] == ["こんにちは、リクさん！", "またね！"]


def test_a_meeting_the_line_set_is_understood_whatever_its_kind_and_plans_name_their_place():
    line = "3時からお茶会があるのですが、ご一緒にいかがですか"
    pending = Meeting(id=7, partner_name=RIKU["name"], partner_id=RIKU["id"], source_text=line,
                      due_at=datetime.fromisoformat("2027-05-10T06:00:00+00:00"), status="pending")
    placed = replace(pending, place_name="喫茶店 店内", node_id="7-8")
    found = situation(turn(line, people=[], pending=[pending], meetings=[placed]))
    assert found[prompt_text.HEARD][0]["meeting"] == {"at": "15:00"}
    assert found[prompt_text.MY_PLANS] == [{"with": RIKU["name"], "place": "喫茶店 店内", "node_id": "7-8",
                                          "at": "05/10 15:00"}]  # once, with the place the map gave it
