"""The agent in the engine town (testing/engine_town): a town on the real Karakuri World engine's rules.

Two parts:
- the town's referee, checked on its own: it refuses what the engine refuses,
  with the engine's codes, and accepts what the engine accepts (so a metric
  cannot be green or red because the town is wrong);
- short lives of today's agent (`handle()` in this process, the town's
  clock), three seeds, one per generation of the engine's texts: the hard invariants (nothing
  outside the choices, never a second command) asserted as zero, and so
  are issue 30's aims: nothing refused that the texts said, no turn left
  unanswered, every offer in a turn answered, places every day, some
  conversations started.

The full benchmark is benchmarks/bench_engine_town.py (real processes, more seeds).
"""

from __future__ import annotations

import ast
import random
import re
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.engine_town import API_KEY, EngineTown, serving  # noqa: E402
from karakuri_agent.town import texts  # noqa: E402
from karakuri_agent.town.life import idle_prompt  # noqa: E402
from testing.engine_town.metrics import measure  # noqa: E402
from karakuri_agent.town.entities import Step  # noqa: E402
from karakuri_agent.town.world import SELF_ID, generate  # noqa: E402
from testing.town_agents import InProcessAgent  # noqa: E402

pytestmark = pytest.mark.life

SEEDS = {3: "new", 5: "old", 11: "oldest"}  # one town per generation of the engine's texts
MESSAGES = 60
AUTH = f"Bearer {API_KEY}"


# ---------------------------------------------------------------------------- the referee
def _post(town: EngineTown, step: Step, command: str, params: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    return town.handle_post({"notification_id": step.notification_id, "command": command, "params": params}, AUTH)


def _free_step(town: EngineTown) -> Step:
    step = town.next_delivery().step
    assert step is not None and step.kind == "idle"
    return step


def test_a_move_onto_an_npc_or_a_wall_is_refused_impassable_and_a_street_move_is_accepted():
    town = EngineTown(3, enums=0.0)
    npc = town.world.map.npcs[0].node
    step = _free_step(town)
    assert _post(town, step, "move", {"target_node_id": npc}) == (400, {
        "error": "impassable_node", "message": "Destination node is not passable."})
    wall = next(n for n, t in town.world.map.types.items() if t == "wall")
    assert _post(town, _free_step_after_idle(town), "move", {"target_node_id": wall})[1]["error"] == "impassable_node"
    street = next(n for n in town.world.map.neighbours(town.body.node) if town.world.map.passable(n))
    status, answer = _post(town, _free_step_after_idle(town), "move", {"target_node_id": street})
    assert status == 200 and answer["to_node_id"] == street


def _free_step_after_idle(town: EngineTown) -> Step:
    """The next idle prompt (the refused command left the agent idle: the idle reminder comes)."""
    while True:
        step = town.next_delivery().step
        assert step is not None
        if step.kind == "idle":
            return step


def test_one_command_per_notification_and_only_one_of_its_choices():
    town = EngineTown(3)
    step = _free_step(town)
    assert _post(town, step, "fly", {})[1]["error"] == "invalid_request"
    assert step.outside_choices == 1
    assert _post(town, step, "wait", {"duration": 1})[1]["error"] == "state_conflict"
    assert len(step.posts) == 2


def test_an_action_without_its_item_is_accepted_by_the_route_and_refused_by_the_world():
    town = _town_at_action("watch-movie")
    step = _free_step_after_idle(town)
    status, _ = _post(town, step, "action", {"action_id": "watch-movie"})
    assert status == 200 and step.world_refusal == "items_short"
    rejected = town.next_delivery().step
    assert rejected is not None and rejected.type == "action_rejected"
    assert "「映画を観る」を実行できませんでした。必要なアイテムが足りません（必要: 映画チケット×1）。" in rejected.body["notification"]["text"]
    assert "watch-movie" not in rejected.body["notification"]["text"].split("選択肢:")[1]  # suppressed once


def test_a_ranged_action_needs_its_minutes_within_the_range():
    town = _town_at_action("sleep")
    step = _free_step_after_idle(town)
    assert "寝る (action_id: sleep, 30〜480分, duration_minutes: 分数を指定) - 自宅" in step.body["notification"]["text"]
    choice = next(c for c in step.choices if c["command"] == "action" and c["params"].get("action_id") == "sleep")
    assert _post(town, step, "action", {**choice["params"], "duration_minutes": 600})[1]["error"] == "invalid_request"
    step = _free_step_after_idle(town)
    choice = next(c for c in step.choices if c["command"] == "action" and c["params"].get("action_id") == "sleep")
    assert _post(town, step, "action", {**choice["params"], "duration_minutes": 420})[0] == 200


def _town_at_action(action_id: str) -> EngineTown:
    """A town (free ids, one choice per action) with the agent standing where `action_id` is offered, at 14:00."""
    for seed in range(1, 200):
        town = EngineTown(seed, enums=0.0, per_action=1.0)
        building = next((b for b in town.world.map.buildings if any(a.action_id == action_id for a in b.actions)), None)
        if building is None:
            continue
        town.body.node = building.interior[0]
        town.now = town.now.astimezone(texts.TOKYO).replace(hour=14, minute=0).astimezone(town.now.tzinfo)
        town.outbox.clear()
        town.arm("idle", town.now, "idle_reminder", since=town.now)
        return town
    raise AssertionError("no town has " + action_id)


def _talking(seed: int = 3, plan: tuple[str, ...] = ("chat", "bye")) -> tuple[EngineTown, Any, Step]:
    """A town where the agent started a conversation and has the resident's first answer in hand."""
    town = EngineTown(seed, enums=0.0)
    _free_step(town)
    resident = next(iter(town.residents.values()))
    resident.node, resident.state = town.body.node, "idle"
    idle_prompt(town, "idle_reminder_fired", "前回の行動から10分間が経過しました。")
    town.outbox.clear()
    assert _post(town, town.steps[-1], "conversation_start", {"target_agent_id": resident.agent_id,
                                                              "message": "こんにちは"})[0] == 200
    town.conversations[town.body.pending_conversation or ""].plan = list(plan)
    town.rng = _Always(0.5)  # the resident accepts, no one joins, no announcement
    reply = town.next_delivery().step
    assert reply is not None and reply.kind == "reply", reply and reply.kind
    return town, resident, reply


class _Always(random.Random):
    """A random source whose random() is fixed: the town's dice made predictable for one scenario."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


def test_an_offer_in_a_conversation_is_announced_and_answered_in_the_next_turn():
    town, resident, reply = _talking(plan=("offer", "chat", "bye"))
    resident.money, resident.items = 5000, {}
    assert _post(town, reply, "conversation_speak", {"message": "うん", "next_speaker_agent_id": resident.agent_id})[0] == 200
    offer = town.next_delivery().step
    assert offer is not None and offer.pending_offer is not None
    assert "譲渡提案が届いています（次の発話で transfer_response: accept または reject を指定。省略すると自動 reject）。" \
        in offer.body["notification"]["text"]
    assert _post(town, offer, "conversation_speak", {"message": "ありがとう", "next_speaker_agent_id": SELF_ID}
                 )[1]["error"] == "cannot_nominate_self"


def test_an_offer_answered_with_accept_is_received_and_counted():
    town, resident, reply = _talking(plan=("offer", "chat", "bye"))
    resident.money, resident.items = 5000, {}
    _post(town, reply, "conversation_speak", {"message": "うん", "next_speaker_agent_id": resident.agent_id})
    offer = town.next_delivery().step
    assert offer is not None
    money = town.body.money
    assert _post(town, offer, "conversation_speak", {"message": "ありがとう！", "next_speaker_agent_id": resident.agent_id,
                                                     "transfer_response": "accept"})[0] == 200
    assert town.body.money == money + 1000
    assert [e.data["answered"] for e in town.events if e.kind == "offer_settled"] == [True]


def test_a_departed_speaker_cannot_be_named_next():
    town, first, reply = _talking(plan=("chat", "bye"))
    second = [r for r in town.residents.values() if r is not first][0]
    conv = town.conversations[town.body.conversation or ""]
    conv.participants.append(second.agent_id)
    second.state = "in_conversation"
    assert _post(town, reply, "conversation_speak", {"message": "そうなんだ", "next_speaker_agent_id": first.agent_id})[0] == 200
    conv.plan = ["bye"]
    town.announcement_chance = 0.0
    town.rng = _Always(0.0)  # the leaver names the agent next
    leave = town.next_delivery().step
    assert leave is not None and leave.kind == "fyi" and f"🔔 {first.name} が会話から離れました。" in leave.body["notification"]["text"]
    turn = town.next_delivery().step
    assert turn is not None and turn.kind == "turn" and "あなたの番です。" in turn.body["notification"]["text"]
    assert first.agent_id not in turn.body["notification"]["text"]
    assert _post(town, turn, "conversation_speak", {"message": "またね", "next_speaker_agent_id": first.agent_id}
                 )[1]["error"] == "invalid_next_speaker"


def test_transfer_response_without_an_offer_is_refused():
    town, resident, reply = _talking()
    answer = _post(town, reply, "conversation_speak", {"message": "いいね", "next_speaker_agent_id": resident.agent_id,
                                                      "transfer_response": "accept"})
    assert answer[1] == {"error": "invalid_request", "message": "No pending transfer response is available."}


def test_a_turn_left_unanswered_ends_the_conversation_by_timeout():
    town, resident, reply = _talking()
    ended = town.next_delivery().step
    assert ended is not None and ended.type == "conversation_ended"
    assert "会話が終了しました。（応答がタイムアウトしました）" in ended.body["notification"]["text"]
    assert measure(town)["rows"]["unanswered_turns"]["num"] == 1


def test_the_texts_carry_the_engine_formats():
    world = generate(__import__("random").Random(2))
    line = texts.pending_transfer_line("小野寺ハル", texts.transfer_summary(None, 500))
    assert line == "小野寺ハル から 500円 の譲渡提案が届いています（次の発話で transfer_response: accept または reject を指定。省略すると自動 reject）。"
    assert texts.leave_text("烏丸ジン", "ほなまたな〜。", "結城ミオ") == "🔔 烏丸ジン が会話から離れました。\n「ほなまたな〜。」\n次は 結城ミオ の番です。"
    assert texts.header(world, "AIニケちゃん").startswith("あなた (AIニケちゃん) は仮想世界「")


def _imported(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [name for node in ast.walk(tree)
            for name in ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [node.module or ""] if isinstance(node, ast.ImportFrom) and node.level == 0 else [])]


def test_the_engine_town_imports_nothing_of_the_agent():
    """The town and its metrics must not share code with what they judge (its testing/ imports included).

    The town lives in the package (`karakuri_agent/town/`, so `karakuri-agent town` can run it) and imports
    only itself; the metrics and the loopback server import nothing of the package at all.
    """
    for path in (ROOT / "karakuri_agent" / "town").glob("*.py"):
        names = _imported(path)
        assert not any(n.split(".")[0] in ("karakuri_agent", "testing") and not n.startswith("karakuri_agent.town")
                       for n in names), (path.name, names)
    for path in [ROOT / "testing" / "engine_town" / "metrics.py", ROOT / "testing" / "loopback.py"]:
        names = _imported(path)
        assert not any(n.split(".")[0] == "karakuri_agent" for n in names), (path.name, names)


# ---------------------------------------------------------------------------- short lives of today's agent
@pytest.fixture(scope="module", params=["older", "newer"])
def lives(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """Short lives in each API generation: the older `type` + `text`, and the newer `kind`, `summary`,
    `payload` and `perception` with no text at all (karakuri_agent/town/newer.py)."""
    results = []
    for seed, style in SEEDS.items():
        town = EngineTown(seed, style=style, generation=request.param)
        state = tmp_path_factory.mktemp(f"engine-town-{seed}")
        with serving(town) as server:
            agent = InProcessAgent(server.base_url, API_KEY, state / "state")
            for _ in range(MESSAGES):
                agent(town.next_delivery())
        results.append(measure(town))
    return results


@pytest.mark.parametrize("days", [200, -200])
def test_a_machine_clock_months_from_the_worlds_changes_nothing_the_town_sees(tmp_path, days):
    """The agent's machine clock 200 days off the world's: it still acts (CONTRACT §9: the world's time is the server's)."""
    town = EngineTown(4)
    with serving(town) as server:
        agent = InProcessAgent(server.base_url, API_KEY, tmp_path / "state", machine_skew=timedelta(days=days))
        for _ in range(30):
            agent(town.next_delivery())
    rows = measure(town)["rows"]
    assert rows["outside_choices"]["num"] == 0 and rows["second_commands"]["num"] == 0
    assert rows["idle_acted"]["value"] >= 0.6, rows["idle_acted"]


def _rows(lives: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    return [life["rows"][key] for life in lives]


def test_never_a_command_outside_the_choices(lives):
    assert [r["num"] for r in _rows(lives, "outside_choices")] == [0, 0, 0]


def test_never_a_second_command_for_one_notification(lives):
    assert [r["num"] for r in _rows(lives, "second_commands")] == [0, 0, 0]


def test_the_agent_lives_it_acts_on_most_idle_prompts(lives):
    for row in _rows(lives, "idle_acted"):
        assert row["den"] and row["value"] >= 0.6, row


def test_no_command_refused_for_a_reason_readable_from_the_texts(lives):
    assert [r["num"] for r in _rows(lives, "refused_readable")] == [0, 0, 0], [r["counts"] for r in _rows(lives, "refused_readable")]


def test_no_conversation_turn_left_unanswered(lives):
    assert [r["num"] for r in _rows(lives, "unanswered_turns")] == [0, 0, 0], [r["counts"] for r in _rows(lives, "unanswered_turns")]


def test_every_offer_inside_a_conversation_is_answered(lives):
    rows = [r for r in _rows(lives, "offers_answered") if r["den"]]
    assert rows and all(r["num"] == r["den"] for r in rows), rows


def test_the_agent_visits_places_every_day(lives):
    """Counted in the daytime (07:00-21:00): a night at home is no day out (the agent no longer walks the
    town at night, so a calendar day that was mostly night may see one place)."""
    rows = [r for r in _rows(lives, "places_per_daytime") if r["num"] is not None]
    assert rows and all(r["num"] >= 2 for r in rows), rows


def test_the_agent_starts_some_of_the_conversations_it_is_offered(lives):
    rows = [r for r in _rows(lives, "conversations_started") if r["den"]]
    assert rows and all(r["num"] * 5 >= r["den"] for r in rows), rows  # one chance in five, at least (issue 41)


def test_every_meeting_the_agent_agreed_to_is_kept(lives):
    """Proposed with a time and not declined (a clash with another meeting is declined out loud)."""
    rows = [r for r in _rows(lives, "meetings_kept") if r["den"]]
    assert all(r["num"] == r["den"] for r in rows), rows


def test_a_standalone_offer_waits_for_accept_or_reject_and_expires_unanswered():
    town = EngineTown(3, enums=0.0)
    _free_step(town)
    giver = next(iter(town.residents.values()))
    giver.node, giver.state, giver.money, giver.items = town.body.node, "idle", 5000, {}
    town.gift_chance = 1.0
    from karakuri_agent.town import gifts
    gifts.maybe_offer(town)
    offer = town.next_delivery().step
    assert offer is not None and offer.kind == "transfer" and offer.commands == {"accept_transfer", "reject_transfer"}
    assert f"{giver.name} から 1,000円 の譲渡提案が届きました。" in offer.body["notification"]["text"]
    expired = town.next_delivery().step
    assert expired is not None and f"{giver.name} からの譲渡は応答期限切れになりました。" in expired.body["notification"]["text"]
    assert giver.money == 5000
    assert measure(town)["rows"]["gifts_answered"]["num"] == 0


def test_the_oldest_engine_texts_have_no_transfer_lines():
    town = EngineTown(1, style="oldest")
    step = _free_step(town)
    text = step.body["notification"]["text"]
    assert "transfer" not in text and "見えているエージェント:" in text and "アイテム:" in text
    assert texts.conversation_choices("reply", False, transfers=False) == (
        "選択肢:\n- conversation_speak: 返答する (message: 発言内容, next_speaker_agent_id: 次の話者ID)\n"
        "- end_conversation: 会話を終了する (message: お別れのメッセージ, next_speaker_agent_id: 次の話者ID)")


def test_a_timed_meeting_is_logged_and_the_resident_turns_up():
    town, resident, reply = _talking(plan=("meet_timed", "bye"))
    assert _post(town, reply, "conversation_speak", {"message": "うん", "next_speaker_agent_id": resident.agent_id})[0] == 200
    proposal = town.next_delivery().step
    assert proposal is not None and len(town.meetings) == 1
    meeting = town.meetings[0]
    assert meeting["place"] in proposal.body["notification"]["text"]
    hour = meeting["at"].astimezone(texts.TOKYO).hour  # said in one of the ways people say it: 16時, 午後4時...
    assert f"{hour}時" in proposal.body["notification"]["text"] or f"{hour - 12}時" in proposal.body["notification"]["text"]
    while town.now < meeting["at"] + timedelta(minutes=1):
        town.outbox.clear()
        town.advance()
    assert resident.node == meeting["node"]


@pytest.mark.parametrize("seed", range(6))
def test_a_meeting_time_is_said_in_many_ways_each_naming_its_hour(seed):
    from karakuri_agent.town.life import meeting_time

    town, said = EngineTown(seed), set()
    for _ in range(40):
        at, spoken = meeting_time(town)
        local, today = at.astimezone(texts.TOKYO), town.now.astimezone(texts.TOKYO).date()
        hour = local.hour - 12 if re.match(r"(明日の)?(午後|夕方|今夜)", spoken) else local.hour
        assert re.search(rf"(?<!\d){hour}時" + ("半" if local.minute == 30 else r"(?!半)"), spoken), (spoken, local)
        assert spoken.startswith("明日") == (local.date() != today), (spoken, local)
        said.add(re.sub(r"\d+", "N", spoken))
    assert len(said) >= 3


def test_offer_lines_name_what_is_offered_and_no_resident_line_is_the_characters():
    """What the residents say shares no phrase with the bundled character's lines: the town must not hand
    the agent its own words to recognise."""
    from karakuri_agent.town.lines import PERSONAS
    packs = (ROOT / "skill" / "personas" / "nike" / "persona.json", ROOT / "karakuri_agent" / "voice" / "persona_defaults.json")
    characters = "\n".join(path.read_text(encoding="utf-8") for path in packs)
    for persona in PERSONAS:
        assert all("{item}" in line for line in persona.offer_item)
        assert all("{money}" in line for line in persona.offer_money)
        for field in ("open", "chat", "ask", "bye", "offer_item", "offer_money"):
            for line in getattr(persona, field):
                fragments = [f for f in re.split(r"\{\w+\}", line) if len(f) >= 6]
                assert not any(f in characters for f in fragments), line


def test_someone_who_left_a_group_does_not_join_it_again():
    town, first, reply = _talking(plan=("chat", "chat", "chat", "bye"))
    conv = town.conversations[town.body.conversation or ""]
    conv.left.update(r.agent_id for r in town.residents.values() if r is not first)
    town.join_chance = 1.0
    from karakuri_agent.town.talk import maybe_join
    maybe_join(town, conv)
    assert conv.participants == [SELF_ID, first.agent_id]


def test_a_server_announcement_lets_a_busy_agent_act_and_stops_what_it_was_doing():
    town = EngineTown(3, enums=0.0)
    step = _free_step(town)
    assert _post(town, step, "wait", {"duration": 6})[0] == 200
    town.now = town.now.astimezone(texts.TOKYO).replace(hour=12).astimezone(town.now.tzinfo)
    town.server_announcement_chance = 1.0
    from karakuri_agent.town import gifts
    gifts.maybe_announce(town)
    notice = town.next_delivery().step
    assert notice is not None and notice.kind == "announcement"
    text = notice.body["notification"]["text"]
    assert "【サーバーアナウンス】\n" in text and "現在の行動をキャンセルして選択するか、この通知を無視してください。" in text
    street = next(n for n in town.world.map.neighbours(town.body.node) if town.world.map.passable(n))
    assert _post(town, notice, "move", {"target_node_id": street})[0] == 200
    arrived = town.next_delivery().step
    assert arrived is not None and arrived.type == "movement_completed"  # the wait was cancelled, not completed


def test_a_talk_among_residents_next_to_the_agent_can_be_joined_and_then_the_agent_speaks_in_it():
    town = EngineTown(5, enums=0.0)  # the older texts: the join line names the talkers
    _free_step(town)
    first, second = list(town.residents.values())[:2]
    for resident in (first, second):
        resident.node, resident.state = town.body.node, "idle"
    town.side_talk_chance = 1.0
    from karakuri_agent.town.life import maybe_side_talk
    maybe_side_talk(town)
    idle_prompt(town, "idle_reminder_fired", "前回の行動から10分間が経過しました。")
    town.outbox.clear()
    step = town.steps[-1]
    conv_id = next(iter(town.conversations))
    assert f"の会話に参加する (conversation_id: {conv_id})" in step.body["notification"]["text"]
    assert _post(town, step, "conversation_join", {"conversation_id": "conversation-nope"})[1]["error"] == "conversation_not_found"
    idle_prompt(town, "idle_reminder_fired", "前回の行動から20分間が経過しました。")
    town.outbox.clear()
    assert _post(town, town.steps[-1], "conversation_join", {"conversation_id": conv_id})[0] == 200
    town.announcement_chance = 0.0
    town.rng = _Always(0.0)  # the greeting names the agent next
    greeted = town.next_delivery().step
    assert greeted is not None and greeted.kind == "reply"
    assert SELF_ID in {p["id"] for p in greeted.body["notification"].get("participants", [])} or \
        f"(id: {SELF_ID})" in greeted.body["notification"]["text"]


def test_an_agent_left_out_of_a_group_is_asked_to_stay_and_removed_when_it_does_not_answer():
    town, first, reply = _talking(plan=("chat", "chat", "chat", "chat", "chat", "bye"))
    second = [r for r in town.residents.values() if r is not first][0]
    conv = town.conversations[town.body.conversation or ""]
    conv.participants.append(second.agent_id)
    conv.last_spoken[second.agent_id] = conv.turn
    second.state = "in_conversation"
    town.announcement_chance = 0.0
    assert _post(town, reply, "conversation_speak", {"message": "へえ", "next_speaker_agent_id": first.agent_id})[0] == 200
    town.rng = _Always(0.99)  # the residents name each other, never the agent
    seen = []
    while True:
        step = town.next_delivery().step
        assert step is not None
        seen.append(step.kind)
        if step.kind == "inactive":
            break
        assert step.kind == "fyi" and "次は" in step.body["notification"]["text"]
    assert step.commands == {"conversation_stay", "conversation_leave"}
    assert "しばらく会話に関与していないため、会話を続けるか確認しています。" in step.body["notification"]["text"]
    after = town.next_delivery().step
    assert after is not None and town.body.conversation is None and town.body.state == "idle"
    assert measure(town)["rows"]["unanswered_turns"]["counts"] == {"inactive": 1}


def test_the_map_answer_is_written_as_the_engine_writes_it_and_read_as_places():
    """`get_map` answers as the engine's map summary (`  神社 [入口: 3-3] - …`, `NPC:` `  名前 @ 5-5 - …`); the
    agent reads each building's entrances as places to go and no NPC's node as one."""
    from karakuri_agent.memory.record import places_in

    world = generate(random.Random(3))
    summary = texts.map_summary(world.map)
    assert summary.splitlines()[0].startswith("マップ: ") and "建物:" in summary and "NPC:" in summary
    places = {p["node_id"]: p["name"] for p in places_in(summary)}
    doors = {door: b.name for b in world.map.buildings for door in b.doors}
    assert places.keys() == doors.keys()
    assert all(name == f"{doors[node]} 入口" for node, name in places.items())
    assert not {n.node for n in world.map.npcs} & places.keys()


@pytest.mark.parametrize("seed", [3, 5, 11, 21])
def test_an_agent_logged_in_where_nothing_is_in_sight_asks_for_the_map_once_and_goes(tmp_path, seed):
    """Logged in at the street node farthest from every building, seeing nothing (perception reach 1): it
    asks for the map once, then walks to the places the map named, several of them, never back to
    asking for the map every turn."""
    town = EngineTown(seed, style="new", login="anywhere", enums=0.0)
    world_map = town.world.map
    doors = {d for b in world_map.buildings for d in b.doors}

    def distance(node: str) -> int:
        (r, c) = map(int, node.split("-"))
        return min(abs(r - int(d.split("-")[0])) + abs(c - int(d.split("-")[1])) for d in doors)

    town.body.node = max(world_map.reachable(town.world.spawn), key=distance)
    town.reach = 1
    for resident in town.residents.values():
        resident.node = town.world.spawn  # nobody near the agent at first
    with serving(town) as server:
        agent = InProcessAgent(server.base_url, API_KEY, tmp_path / "state")
        for _ in range(40):
            agent(town.next_delivery())
    commands = [s.accepted["command"] for s in town.steps if s.accepted]
    moves = [s.accepted["params"]["target_node_id"] for s in town.steps if s.accepted and s.accepted["command"] == "move"]
    assert commands.count("get_map") == 1, commands
    assert len(set(moves) & doors) >= 2, (moves, sorted(doors))


@pytest.mark.parametrize("seed, enums", [(5, 0.0), (3, 0.0), (3, 1.0)])
def test_the_agent_joins_a_talk_beside_it_and_never_the_same_talk_twice_in_a_row(tmp_path, seed, enums):
    """Two residents talk beside the idle agent: it joins them (the id from the choice, the text, or a
    `get_active_conversations` answer), within a few prompts."""
    town = EngineTown(seed, enums=enums)
    town.body.node = next(n for n in town.world.map.reachable(town.world.spawn)
                          if sum(town.world.map.passable(m) for m in town.world.map.neighbours(n)) >= 2)
    beside = [m for m in town.world.map.neighbours(town.body.node) if town.world.map.type_of(m) == "normal"]
    first, second = list(town.residents.values())[:2]
    for resident in (first, second):
        resident.node, resident.state = beside[0], "idle"
    town.side_talk_chance = 1.0
    from karakuri_agent.town.life import maybe_side_talk
    maybe_side_talk(town)
    assert town.conversations, "the town started no side talk"
    town.outbox.clear()
    idle_prompt(town, "idle_reminder_fired", "前回の行動から10分間が経過しました。")
    joined = []
    with serving(town) as server:
        agent = InProcessAgent(server.base_url, API_KEY, tmp_path / "state")
        for _ in range(4):
            step = town.outbox[0] if town.outbox else None
            agent(town.next_delivery())
            if step is not None and step.accepted and step.accepted["command"] == "conversation_join":
                joined.append(step.accepted["params"]["conversation_id"])
                break
    assert joined and joined[0] in town.conversations


def test_the_ids_of_talks_to_join_are_read_from_the_answer_and_the_choices():
    from karakuri_agent.memory.record import parse_active_conversations

    text = ("参加可能な進行中の会話:\n- conversation-3-013: 山吹ハル (1234567890123)、時雨ソラ (2345678901234)\n"
            "選択肢:\n- conversation_join: 山吹ハル、時雨ソラ の会話に参加する (conversation_id: conversation-3-014)\n"
            "- conversation_join: 進行中の会話に参加する (conversation_id: ID)")
    assert parse_active_conversations(text) == ["conversation-3-013", "conversation-3-014"]
    assert parse_active_conversations("参加可能な進行中の会話はありません。") == []
