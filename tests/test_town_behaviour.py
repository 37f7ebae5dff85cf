"""The agent living in generated towns (testing/town): short lives, measured by the town alone.

Three towns (seeds below), 80 Discord messages each, handled by `handle()`
in this process with the town's clock, against the town's loopback API. The
full benchmark is `benchmarks/bench_behaviour.py` (real processes, 20 towns).

The hard invariants are asserted as zero. The other rows get conservative
floors: what the agent on `main` met on these seeds, well below the aims in
benchmarks/README.md; they catch a collapse, not a small regression. Each
floor is shown to fail on a deliberately bad agent that breaks only the
contract's spirit, never its rules (lazy, silent, name-only, repeating,
promise-ignoring), so no floor passes by construction.

The suite's towns write most ids without markup (`plain_ids`): a message
whose id sits in markup is dropped by the current agent (exit 2, counted in
`drops`), and the other behaviours need messages that reach the agent to be
measured. The benchmark uses the contract's full spread of markup.
"""

from __future__ import annotations

import ast
import json
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from testing.town import AgentRun, Delivery, Town, live, serving  # noqa: E402
from testing.town.metrics import measure, pool, takes_up  # noqa: E402
from testing.town.sim import TOKYO, Promise, Step  # noqa: E402
from testing.town import world  # noqa: E402
from testing.town_agents import InProcessAgent  # noqa: E402
from karakuri_agent.report import line as report  # noqa: E402

pytestmark = pytest.mark.life

SEEDS = (1, 2, 3)
MESSAGES = 80
PLAIN_IDS = 0.9
PROMISE_CHANCE = 0.9  # most talks carry a proposal to meet, so each short life holds several promises


def _town(seed: int) -> Town:
    return Town(seed=seed, promise_chance=PROMISE_CHANCE, plain_ids=PLAIN_IDS)


def _pooled(results: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {r["key"]: r for r in pool(results, "rows") + pool(results, "extras")}


def plain_pack(directory: Path) -> Path:
    """The bundled character without its behaviour.json: the agent's default behaviour, measured.

    (The bundled pack's `night-rest` changes her nights by design; it is measured on its own below.)
    """
    from karakuri_agent.voice.persona_pack import PACK_FILE, bundled_pack_dir

    directory.mkdir(parents=True, exist_ok=True)
    (directory / PACK_FILE).write_bytes((bundled_pack_dir() / PACK_FILE).read_bytes())
    return directory


@pytest.fixture(scope="module")
def lived(tmp_path_factory: pytest.TempPathFactory):
    """Short lives in three towns: (towns, measured results, pooled rows by key)."""
    towns, results = [], []
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("KARAKURI_PERSONA_FILE", raising=False)
        patch.delenv("KARAKURI_PERSONA_DIR", raising=False)
        pack = {"KARAKURI_PERSONA_DIR": str(plain_pack(tmp_path_factory.mktemp("pack") / "nike"))}
        for seed in SEEDS:
            town = _town(seed)
            state_dir = tmp_path_factory.mktemp(f"town{seed}") / "state"
            with serving(town) as server:
                runs = live(town, InProcessAgent(server.base_url, town.api_key, state_dir, extra_env=pack), MESSAGES)
            towns.append(town)
            results.append(measure(town, runs))
    return towns, results, _pooled(results)


def _details(results: list[dict[str, Any]], key: str) -> list[Any]:
    return [r["details"][key] for r in results]


# ---------------------------------------------------------------------------- the agent on main
def test_the_short_lives_are_real_ones(lived):
    towns, _, rows = lived
    assert rows["exit_codes"]["counts"].get("exit 1", 0) == 0  # no crash
    assert {len(t.world.places) for t in towns} != {9}  # not the one map the agent was tuned on
    kinds = {s.kind for t in towns for s in t.steps}
    assert {"free", "turn", "request"} <= kinds
    forms = {d.form for t in towns for d in t.deliveries}
    assert {"fresh", "repeat", "no_id"} <= forms


def test_no_command_outside_the_choices_and_no_params_breaking_the_schema(lived):
    _, results, rows = lived
    assert rows["violations"]["value"] == 0, _details(results, "violating_posts")


def test_never_a_second_command_for_one_notification(lived):
    _, results, rows = lived
    assert rows["second_commands"]["value"] == 0, _details(results, "violating_posts")


def test_nothing_asked_for_a_message_without_id_and_no_command_on_a_dead_notification(lived):
    _, results, rows = lived
    assert rows["dead_or_idless"]["value"] == 0, _details(results, "violations")


# Floors: what the agent on main met on these seeds, with margin (aims in benchmarks/README.md). Met here:
# places 97 %, speak 100 %, unique lines 100 %, promises 4 of 4, takes up 72 %; the floors sit below
# with room for a seed's luck, and each bad agent still scores near zero on its row.
FLOORS: dict[str, Callable[[dict[str, Any]], bool]] = {
    "idle_wait": lambda r: r["value"] <= 0.10,  # aim ≤ 5 %
    "waits_in_row": lambda r: r["value"] <= 3,  # aim ≤ 2
    "places": lambda r: r["value"] >= 0.8,  # aim ≥ 80 %
    "speak": lambda r: r["den"] >= 10 and r["value"] >= 0.9,  # aim ≥ 95 %
    "unique_lines": lambda r: r["den"] >= 10 and r["value"] >= 0.95,  # aim ≥ 97 %
    "promises": lambda r: r["den"] >= 4 and r["value"] >= 0.5,  # aim ≥ 90 % (judged: places named as shown)
    "acted": lambda r: r["den"] >= 50 and r["value"] >= 0.8,  # aim ≥ 95 %
    "takes_up": lambda r: r["den"] >= 10 and r["value"] >= 0.45,  # aim ≥ 60 %
}


@pytest.mark.parametrize("key", sorted(FLOORS))
def test_the_agent_meets_the_floor(lived, key):
    _, results, rows = lived
    assert FLOORS[key](rows[key]), (rows[key], [r["details"].get(key) for r in results])


# ---------------------------------------------------------------------------- the world's clock is the server's
SKEWS = {"an hour ahead": timedelta(hours=1), "five hours behind": timedelta(hours=-5)}


def _life(seed: int, state_dir: Path, skew: timedelta) -> tuple[Town, list[AgentRun]]:
    town = _town(seed)
    with serving(town) as server:
        return town, live(town, InProcessAgent(server.base_url, town.api_key, state_dir, machine_skew=skew), MESSAGES)


@pytest.fixture(scope="module")
def skewed(tmp_path_factory: pytest.TempPathFactory):
    """One town lived three times: the machine's clock on the town's, an hour ahead, five hours behind."""
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("KARAKURI_PERSONA_FILE", raising=False)
        patch.delenv("KARAKURI_PERSONA_DIR", raising=False)
        return {name: _life(SEEDS[0], tmp_path_factory.mktemp(f"skew{i}") / "state", skew)
                for i, (name, skew) in enumerate({"on time": timedelta(0), **SKEWS}.items())}


def _what_was_done(runs: list[AgentRun]) -> list[tuple[Any, ...]]:
    return [(r.exit_code, r.record and r.record["report"], r.record and r.record["sent"],
             r.record and json.dumps(r.record["decision"], ensure_ascii=False, sort_keys=True)) for r in runs]


@pytest.mark.parametrize("name", sorted(SKEWS))
def test_a_machine_clock_off_the_towns_changes_no_decision(skewed, name):
    _, on_time = skewed["on time"]
    town, runs = skewed[name]
    assert _what_was_done(runs) == _what_was_done(on_time)
    rows = {r["key"]: r for r in measure(town, runs)["rows"]}
    assert rows["dead_or_idless"]["value"] == 0  # nothing expired looked live
    assert not any(r.record and r.record["report"] == report.EXPIRED and r.delivery.form != "expired"
                   for r in runs)  # nothing live looked expired


# ---------------------------------------------------------------------------- bad agents fail the floors
class Scripted:
    """A bad agent that keeps every contract rule but lives badly in one way.

    It reads the notification from the town's log instead of over HTTP (it
    is a yardstick, not an agent), answers only fresh messages, and sends
    valid params for the few commands it uses.
    """

    def __init__(self, town: Town, *, free: Callable[[Step], tuple[str, dict[str, Any]]] | None,
                 line: Callable[[Step, int], str] | None) -> None:
        self.town, self.free, self.line, self.said = town, free, line, 0

    def __call__(self, delivery: Delivery) -> AgentRun:
        step = delivery.step
        if delivery.form != "fresh" or step is None:
            return AgentRun(delivery, {"decision": None})
        decision = self._decide(step)
        if decision is not None:
            command, params = decision
            self.town.handle_post({"notification_id": step.notification_id, "command": command, "params": params},
                                  f"Bearer {self.town.api_key}")
        return AgentRun(delivery, {"decision": decision})

    def _decide(self, step: Step) -> tuple[str, dict[str, Any]] | None:
        commands = step.commands
        if step.kind == "free":
            return self.free(step) if self.free else None
        if step.kind == "transfer":
            return next((c, {}) for c in ("reject_transfer", "transfer_reject") if c in commands)
        listener = step.partner_id if step.partner_id in step.participants else step.participants[0]
        if self.line is None:
            if step.kind == "request":
                return "conversation_reject", {}
            if step.kind == "inactive":
                return "conversation_leave", {}
            end = "conversation_speak" if step.kind == "closing" else \
                next(c for c in ("conversation_end", "end_conversation") if c in commands)
            return end, {"message": "じゃあね。", "next_speaker_agent_id": listener}
        self.said += 1
        message = self.line(step, self.said)
        if step.kind == "request":
            return "conversation_accept", {"message": message}
        if step.kind == "inactive":
            return "conversation_stay", {}
        return "conversation_speak", {"message": message, "next_speaker_agent_id": listener}


def _name_of(town: Town, step: Step) -> str:
    return world.address_forms(town.world.person_by_id[step.partner_id].name)[-1]


BAD_AGENTS: dict[str, Callable[[Town], Scripted]] = {
    # waits whenever it may, turns every conversation down
    "lazy": lambda town: Scripted(town, free=lambda s: ("wait", {"duration": 1}), line=None),
    # never sends anything
    "silent": lambda town: Scripted(town, free=None, line=None),
    # talks, but says only the partner's name (each line made unique with one more "！")
    "name_only": lambda town: Scripted(town, free=lambda s: ("wait", {"duration": 1}),
                                       line=lambda s, n: f"{_name_of(town, s)}さん" + "！" * n),
    # talks, always the same line
    "repeater": lambda town: Scripted(town, free=lambda s: ("wait", {"duration": 1}),
                                      line=lambda s, n: "そうなんだ、面白いね。"),
    # talks well enough and agrees to meet, then never leaves the spot
    "promise_ignorer": lambda town: Scripted(town, free=lambda s: ("get_status", {}),
                                             line=lambda s, n: f"うん、いいね！{n}回目の話だね。"),
}
# Each floor, and the bad agent it must catch.
CAUGHT_BY = {
    "idle_wait": "lazy", "waits_in_row": "lazy", "places": "lazy", "speak": "lazy", "acted": "silent",
    "takes_up": "name_only", "unique_lines": "repeater", "promises": "promise_ignorer",
}


@pytest.fixture(scope="module")
def bad_lives():
    """Each bad agent's pooled rows over the suite's towns."""
    out = {}
    for name, make in BAD_AGENTS.items():
        results = []
        for seed in SEEDS:
            town = _town(seed)
            results.append(measure(town, live(town, make(town), MESSAGES)))
        out[name] = _pooled(results)
    return out


def test_every_floor_has_a_bad_agent():
    assert set(CAUGHT_BY) == set(FLOORS)


@pytest.mark.parametrize("key", sorted(CAUGHT_BY))
def test_the_floor_fails_on_a_bad_agent(bad_lives, key):
    rows = bad_lives[CAUGHT_BY[key]]
    assert not FLOORS[key](rows[key]), rows[key]


def test_bad_agents_break_no_rule(bad_lives):
    """They fail the floors by living badly, not by breaking the contract."""
    for name, rows in bad_lives.items():
        assert rows["violations"]["value"] == 0 and rows["second_commands"]["value"] == 0, name
        assert rows["dead_or_idless"]["value"] == 0, name


def test_a_name_only_reply_takes_nothing_up():
    line = world.Line("公園の前で猫が昼寝してたよ。")
    names = world.address_forms("桜草メイ")
    assert takes_up("メイさん、こんにちは！", line, names) == (False, None)
    assert takes_up("メイさん、公園の猫かわいいよね。", line, names) == (True, None)
    question = world.Line("紅茶とコーヒー、どっちにする？", "which", ("紅茶", "コーヒー"))
    assert takes_up("メイさん、うん！", question, names) == (False, False)
    assert takes_up("紅茶かな。", question, names) == (True, True)


# ---------------------------------------------------------------------------- the referee
def _fresh(town: Town, kind: str = "free") -> Delivery:
    for _ in range(200):
        delivery = town.next_delivery()
        if delivery.form == "fresh" and delivery.step is not None and delivery.step.kind == kind:
            return delivery
    raise AssertionError(f"no fresh {kind} notification in 200 messages")


def _post(town: Town, step: Step, command: str, params: dict[str, Any], key: str | None = None):
    payload = {"notification_id": step.notification_id, "command": command, "params": params}
    return town.handle_post(payload, f"Bearer {key or town.api_key}")


def test_the_town_refuses_a_command_that_was_not_offered():
    town = Town(seed=3, faults=False)
    step = _fresh(town).step
    status, body = _post(town, step, "conversation_accept", {"message": "やあ"})
    assert (status, body["error"], body["field"]) == (400, "invalid_request", "command")
    assert town.violations["not_in_choices"] == 1


@pytest.mark.parametrize("params, field", [
    ({"duration": 9}, "duration"),
    ({"duration": "2"}, "duration"),
    ({}, "duration"),
    ({"duration": 2, "minutes": 20}, "minutes"),
])
def test_the_town_refuses_params_that_break_the_schema(params, field):
    town = Town(seed=3, faults=False)
    step = _fresh(town).step
    status, body = _post(town, step, "wait", params)
    assert (status, body["error"], body["field"]) == (400, "invalid_request", field)
    assert town.violations["schema"] == 1


def test_the_town_refuses_a_second_command_for_the_same_notification():
    town = Town(seed=3, faults=False)
    step = _fresh(town).step
    assert _post(town, step, "wait", {"duration": 1})[0] == 200
    status, body = _post(town, step, "get_map", {})
    assert (status, body["error"]) == (409, "state_conflict")
    assert town.violations["second_command"] == 1


def test_a_command_on_an_expired_notification_is_counted():
    town = Town(seed=3, faults=False)
    step = _fresh(town).step
    town._expire_on_delivery(step)
    status, body = _post(town, step, "wait", {"duration": 1})
    assert (status, body["error"]) == (409, "notification_expired")
    assert town.violations["on_dead_notification"] == 1


def test_a_request_while_handling_a_message_without_id_is_counted():
    town = Town(seed=3)
    step = _fresh(town).step
    town._deliver("ログアウトが完了しました。", "no_id", None)
    town.handle_get(step.notification_id, f"Bearer {town.api_key}")
    assert town.violations["request_without_id"] == 1


def test_the_town_answers_a_wrong_key_with_401_json():
    town = Town(seed=3, faults=False)
    step = _fresh(town).step
    with serving(town) as server:
        answer = httpx.get(f"{server.base_url}/agents/notifications/{step.notification_id}",
                           headers={"Authorization": "Bearer wrong"})
        good = httpx.get(f"{server.base_url}/agents/notifications/{step.notification_id}",
                         headers={"Authorization": f"Bearer {town.api_key}"})
    assert answer.status_code == 401 and answer.json()["error"] == "unauthorized"
    assert good.status_code == 200 and good.json()["notification_id"] == step.notification_id


def test_the_same_seed_gives_the_same_town_and_seeds_differ():
    first, second = Town(seed=5), Town(seed=5)
    assert [d.discord for d in (first.next_delivery() for _ in range(5))] == \
           [d.discord for d in (second.next_delivery() for _ in range(5))]
    shapes = {(len(Town(seed=s).world.places), len(Town(seed=s).world.people)) for s in range(10)}
    assert len(shapes) > 3


# ---------------------------------------------------------------------------- the town is its own
def test_the_town_imports_nothing_of_the_agent():
    """The town and its metrics must not share code with what they judge.

    The referee of a command's params is the offline town's (`karakuri_agent/town/schema.py`), which imports
    nothing else of the package (tests/test_engine_town.py holds it): that one import is not the agent.
    """
    paths = sorted((ROOT / "testing" / "town").glob("*.py"))
    assert paths  # the town is where this looks: an empty glob would hold nothing
    for path in paths:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            assert not any(n.split(".")[0] == "karakuri_agent" and not n.startswith("karakuri_agent.town")
                           for n in names), (path.name, names)


def _persona_strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [s for v in value for s in _persona_strings(v)]
    return []


def test_the_town_lines_are_not_the_persona_lines():
    packs = (ROOT / "skill" / "personas" / "nike" / "persona.json", ROOT / "karakuri_agent" / "voice" / "persona_defaults.json")
    theirs = {s for pack in packs for s in _persona_strings(json.loads(pack.read_text(encoding="utf-8"))) if len(s) >= 6}
    ours = list(world.TALK + world.YES_NO + world.WHAT + world.INSTRUCT + world.FAREWELL + world.OPENERS
                + world.AFTER_PROMISE + world.MEETING_OPENERS) + [t for t, _ in world.WHICH]
    fixed = [part for line in ours for part in line.replace("}", "{").split("{")[::2] if len(part) >= 6]
    assert not [p for p in fixed if any(p in s for s in theirs)]


@pytest.mark.parametrize("said_local, when, due_local", [
    ("23:50", ("clock", 0, 40, 0), "2026-05-02 00:40"),  # a time of day past midnight: the next one
    ("10:00", ("clock", 14, 5, 0), "2026-05-01 14:05"),
    ("10:00", ("clock", 9, 30, 1), "2026-05-02 09:30"),  # 明日
    ("23:30", ("after", 45), "2026-05-02 00:15"),
])
def test_a_promise_is_due_from_when_its_line_was_said(said_local, when, due_local):
    said = datetime.fromisoformat(f"2026-05-01 {said_local}").replace(tzinfo=TOKYO)
    promise = Promise(1, "p", "1-1", "", "", when, "c")
    promise.resolve(said.astimezone(timezone.utc))
    assert promise.due.astimezone(TOKYO).strftime("%Y-%m-%d %H:%M") == due_local


# ---------------------------------------------------------------------------- behaviour.json in town
def _tokyo_clock(moment: datetime) -> str:
    return moment.astimezone(TOKYO).strftime("%H:%M")


def _live_with(tmp_path_factory, seed: int, pack: Path | None, messages: int = MESSAGES, parts: int = 1):
    """One town lived by the agent with `pack` (None: the bundled one); a new Agent per message, and
    the life split in `parts` handed to new agents over the same state (restarts)."""
    town = _town(seed)
    state_dir = tmp_path_factory.mktemp(f"rules{seed}") / "state"
    extra = {"KARAKURI_PERSONA_DIR": str(pack)} if pack else {}
    runs = []
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("KARAKURI_PERSONA_DIR", raising=False)
        with serving(town) as server:
            for _ in range(parts):
                runs += live(town, InProcessAgent(server.base_url, town.api_key, state_dir, extra_env=extra),
                             messages // parts)
    return town, runs


def _decided(run) -> tuple[str | None, str | None]:
    record = run.record or {}
    decision, trace = record.get("decision") or {}, record.get("behaviour") or {}
    return decision.get("command") if record.get("sent") else None, trace.get("rule")


ANSWERING = ("conversation-turn", "conversation-request", "inactive-check", "transfer-offer")


@pytest.mark.parametrize("seed", SEEDS)
def test_the_bundled_night_rest_waits_on_every_free_night_notification_and_never_on_a_turn(tmp_path_factory, seed):
    _, runs = _live_with(tmp_path_factory, seed, None)
    night = [r for r in runs if r.delivery.form == "fresh" and r.delivery.step is not None
             and (_tokyo_clock(r.delivery.time) >= "23:00" or _tokyo_clock(r.delivery.time) < "06:00")]
    eligible = [r for r in night if r.delivery.step.kind == "free" and "wait" in r.delivery.step.commands
                and _decided(r)[1] != "keep-commitment"]
    for run in eligible:
        assert _decided(run) == ("wait", "night-rest"), (run.delivery.time, run.record)
    for run in runs:
        step = run.delivery.step
        if step is not None and step.kind != "free":
            assert _decided(run)[1] != "night-rest", (step.kind, run.record)
    answered = [r for r in night if r.delivery.step.kind in ("turn", "request", "transfer")]
    assert all(_decided(r)[1] in ANSWERING for r in answered if (r.record or {}).get("sent"))


def test_night_rest_is_met_at_all(tmp_path_factory):
    """The night test above is not vacuous: these towns hold free night notifications that offer a wait."""
    counted = 0
    for seed in SEEDS:
        _, runs = _live_with(tmp_path_factory, seed, None, messages=40)
        counted += sum(1 for r in runs if _decided(r)[1] == "night-rest")
    assert counted > 0


TWICE_AND_NEVER = {
    "rules": [
        {"id": "twice", "description": "二回だけ待ってみる", "when": {"type": "notification", "types": ["*"]},
         "then": [{"type": "choose", "command": "wait", "params": {"duration": 1}}], "priority": 260, "max_fires": 2},
        {"id": "never-offered", "when": {"type": "notification", "types": ["*"]},
         "then": [{"type": "choose", "command": "get_event"}], "priority": 999},
    ],
}


def test_a_max_fires_2_rule_fires_twice_across_restarts_and_an_unoffered_command_is_never_sent(tmp_path_factory):
    pack = plain_pack(tmp_path_factory.mktemp("twice") / "pack")
    (pack / "behaviour.json").write_text(json.dumps(TWICE_AND_NEVER, ensure_ascii=False), encoding="utf-8")
    town, runs = _live_with(tmp_path_factory, 1, pack, parts=4)
    fired = [r for r in runs if _decided(r)[1] == "twice"]
    assert len(fired) == 2 and all(_decided(r)[0] == "wait" for r in fired)
    posted = [post for step in town.steps for post in step.posts]
    assert posted and all(post.get("command") != "get_event" for post in posted)
    gave_way = [w for r in runs for w in ((r.record or {}).get("behaviour") or {}).get("gave_way", [])
                if w["rule"] == "never-offered"]
    assert gave_way and all(w["why"] == "not offered: get_event" for w in gave_way)
