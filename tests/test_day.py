"""`karakuri-agent day`: one in-world day, built from the state only, shown as text, JSON and a page."""

from __future__ import annotations

import copy
import json
from datetime import timedelta, timezone
from pathlib import Path

import pytest
from click.testing import CliRunner

from karakuri_agent.app.cli import agent
from karakuri_agent.memory.context import observe
from karakuri_agent.memory.promises import withdraw
from karakuri_agent.app.day import page
from karakuri_agent.app.day.as_json import to_json
from karakuri_agent.app.day.model import build
from karakuri_agent.app.day.read import records_for
from karakuri_agent.app.day.text import lines
from karakuri_agent.domain.notification import Notification
from karakuri_agent.domain.identity import Identity
from karakuri_agent.domain.records import Meeting
from karakuri_agent.memory.record import record_outcome
from karakuri_agent.state.factory import open_url

from testing.browser import Dom, dump_dom
from testing.samples import CONVERSATION_REQUEST, IDLE_REMINDER, SELF_ID, SELF_NAME
from testing.day_records import DAY, END, START, T0, day_entry, day_records, day_time

ME = Identity(SELF_ID, SELF_NAME)
HOSTILE_PERSON = '<script>alert("x")</script>'
HOSTILE_LINE = "</svg><img src=x onerror=alert(1)>「'\"&amp;」"
HOSTILE_PLACE = '"><script>x=2</script>'


def _at(minutes: float) -> str:
    return day_time(minutes).isoformat(timespec="milliseconds")


def _line(minutes, speaker, text, conversation="id:c1", partners=("桜草メイ",), own=False):
    return day_entry(minutes, "line", {"conversation": conversation, "partners": list(partners), "speaker": speaker,
                                    "text": text, "own": own})


# ------------------------------------------------------------------------------ the builder (pure)
def test_places_in_the_order_stood_at_with_arrival_times_and_no_walk_not_yet_over():
    day = build(day_records(journal=[
        day_entry(0, "here", {"node_id": "6-11", "label": "喫茶店 店内"}),
        day_entry(5, "here", {"node_id": "6-11"}),  # still there: not a new place
        day_entry(20, "arrival", {"node_id": "8-3"}),
        day_entry(30, "here", {"node_id": "8-3", "label": "図書館 閲覧室"}),
        day_entry(40, "here", {"node_id": "6-11"}),  # back again: a new visit
        day_entry(700, "arrival", {"node_id": "9-9"}),  # arrives after the last thing the state knows
    ]))
    assert [(v.node_id, v.label, v.arrived_at) for v in day.places] == [
        ("6-11", "喫茶店 店内", T0), ("8-3", "図書館 閲覧室", T0 + timedelta(minutes=20)),
        ("6-11", "喫茶店 店内", T0 + timedelta(minutes=40))]


def test_conversations_are_grouped_by_talk_with_partners_and_their_lines():
    day = build(day_records(journal=[
        _line(0, "桜草メイ", "こんにちは！"),
        _line(1, SELF_NAME, "こんにちは、メイさん！", own=True),
        _line(3, "桜草メイ", "またね", conversation="with:1474403124906295517"),  # the text showed no id
        _line(90, "桜草メイ", "また会ったね"),  # after a long silence: another talk
        _line(91, "時雨ソラ", "やあ", conversation="id:c2", partners=("時雨ソラ",)),
    ]))
    first, second, third = day.conversations
    assert first.partners == ("桜草メイ",) and [line.text for line in first.lines] == [
        "こんにちは！", "こんにちは、メイさん！", "またね"]
    assert first.lines_by_speaker() == {"桜草メイ": 2, SELF_NAME: 1}
    assert (first.started_at, first.ended_at) == (T0, T0 + timedelta(minutes=3))
    assert [line.text for line in second.lines] == ["また会ったね"] and third.partners == ("時雨ソラ",)


def test_every_promise_status_the_day_can_show():
    def promise(pid, due_minutes, status="pending", **extra):
        return Meeting(id=pid, notification_id="n", partner_id="1", partner_name="メイ", place_name=None,
                       node_id="8-3", due_at=None if due_minutes is None else day_time(due_minutes),
                       source_text=f"約束{pid}", status=status, created_at=day_time(0), fulfilled_at=extra.get("kept"))

    day = build(day_records(promises=[
        promise(1, 60, "fulfilled", kept=day_time(55)), promise(2, 60), promise(3, 60), promise(4, 500),
        promise(5, 60 * 24), promise(6, None)], withdrawn={2}, now_minutes=300))
    assert [p.status for p in day.promises] == ["kept", "cancelled", "missed", "pending", "made", "pending"]
    assert day.promises[0].place == "図書館 閲覧室" and day.promises[0].kept_at == T0 + timedelta(minutes=55)
    assert day.promises[5].due_at is None


def test_gifts_commands_failures_and_the_rules_extension():
    day = build(day_records(
        journal=[day_entry(1, "transfer", {"direction": "received", "partner": "メイ",
                                         "item": {"item_id": "お茶", "quantity": 2}, "money": None}),
                 day_entry(2, "transfer", {"direction": "declined", "partner": "ルナ", "item": None, "money": 50000})],
        activity=[{"kind": "request", "created_at": _at(0), "notification_id": "n1"},
                  {"kind": "command", "command": "move", "created_at": _at(0), "notification_id": "n1"},
                  {"kind": "command", "command": "move", "created_at": _at(9), "notification_id": "n2"},
                  {"kind": "command", "command": "wait", "created_at": _at(9), "notification_id": "n3"},
                  {"kind": "report", "success": False, "reason": "not_logged_in: log in first",
                   "created_at": _at(10), "notification_id": "n3", "behaviour": {
                       "rule": "night-rest", "gave_way": [],
                       "changes": [{"path": "energy", "before": 90, "after": 70, "status": "clamped"},
                                   {"path": "nothing", "status": "ignored"}]}},
                  {"kind": "report", "created_at": _at(10), "notification_id": "n2", "message": "ok"}]))
    assert [(t.direction, t.partner, t.item, t.money) for t in day.transfers] == [
        ("received", "メイ", {"item_id": "お茶", "quantity": 2}, None), ("declined", "ルナ", None, 50000)]
    assert day.commands == {"move": 2, "wait": 1} and day.notifications == 1
    assert [(f.notification_id, f.error, f.message) for f in day.failures] == [("n3", "not_logged_in", "log in first")]
    shown = to_json(day)
    # The rule that decided n3, the command it went out as; a change the engine ignored changed nothing.
    assert shown["rules_fired"] == [{"rule": "night-rest", "command": "wait", "at": "2026-11-29T10:10:00+09:00"}]
    assert shown["variables"] == [{"path": "energy", "value": 70, "at": "2026-11-29T10:10:00+09:00"}]
    assert shown["transfers"][1] == {"direction": "declined", "partner": "ルナ", "money": 50000,
                                     "at": "2026-11-29T10:02:00+09:00"}
    text = "\n".join(lines(day))
    assert "メイ から お茶×2 を受け取った" in text and "not_logged_in: log in first" in text and "night-rest" in text


def test_a_day_without_records_is_empty():
    day = build(day_records(places={}))
    assert day.empty and list(lines(day)) == ["2026-11-29 (Asia/Tokyo): no activity recorded on this day."]
    assert to_json(day)["empty"] is True and "この日の記録はありません" in page.render(day)


# ------------------------------------------------------------------------------ recorded as the agent lives
@pytest.fixture
def lived(tmp_path):
    """A SQLite state where a morning happened: a café, a talk with hostile names, a promise, a gift, a walk."""
    clock = {"now": T0}
    state = open_url("", tmp_path / "state", lambda: clock["now"])
    store = state.store

    def see(body: dict, minutes: float):
        clock["now"] = T0 + timedelta(minutes=minutes)
        body = copy.deepcopy(body)
        body["created_at"] = clock["now"].isoformat()
        notification = Notification.from_json(body, requested_id=body["notification_id"])
        return observe(store, notification, me=ME, now=clock["now"])[1]

    idle = copy.deepcopy(IDLE_REMINDER)
    idle["notification"]["text"] = idle["notification"]["text"].replace("喫茶店 店内", f"喫茶店{HOSTILE_PLACE}")
    parsed = see({**idle, "notification_id": "notif-idle"}, 0)
    talk = copy.deepcopy(CONVERSATION_REQUEST)
    note = talk["notification"]
    note["participants"][0]["name"] = HOSTILE_PERSON
    note["conversation_messages"] = [{"speaker": HOSTILE_PERSON, "message": HOSTILE_LINE},
                                     {"speaker": HOSTILE_PERSON, "message": "30分後に図書館で待ち合わせしよう！"}]
    note["text"] = note["text"].replace("桜草メイ", HOSTILE_PERSON)
    store.learn_places([{"node_id": "8-3", "name": "図書館 閲覧室"}])
    parsed = see(talk, 5)
    reply = {"message": "うん、図書館でね！"}
    record_outcome(store, notification_id=talk["notification_id"], parsed=parsed, me=ME, command="conversation_accept",
                   description="", params=reply, success=True, result={"ok": True}, reason="", now=clock["now"])
    parsed = see(talk, 6)  # the same notification read again: nothing doubles
    gift = {"notification_id": "notif-gift", "created_at": _at(10), "notification": {
        "type": "transfer_requested", "text": f"{HOSTILE_PERSON} から お茶×1 の譲渡提案が届きました。",
        "participants": [{"id": "1474403124906295517", "name": HOSTILE_PERSON}],
        "choices": [{"command": "transfer_accept"}, {"command": "transfer_reject"}]}}
    parsed = see(gift, 10)
    record_outcome(store, notification_id="notif-gift", parsed=parsed, me=ME, command="transfer_accept",
                   description="", params={}, success=True, result={"ok": True}, reason="", now=clock["now"])
    parsed = see({**IDLE_REMINDER, "notification_id": "notif-walk"}, 15)
    arrives = int((T0 + timedelta(minutes=25)).timestamp() * 1000)
    record_outcome(store, notification_id="notif-walk", parsed=parsed, me=ME, command="move", description="",
                   params={"target_node_id": "8-3"}, success=True, result={"arrives_at": arrives}, reason="",
                   now=clock["now"])
    clock["now"] = T0 + timedelta(minutes=30)
    store.record_request("notif-later", "idle_reminder_fired")
    yield state
    state.close()


def test_a_lived_morning_shows_every_place_person_promise_and_gift_once(lived):
    day = build(records_for(lived.store, None))
    assert day.date == DAY
    assert [(v.node_id, v.arrived_at) for v in day.places] == [("6-11", T0), ("8-3", T0 + timedelta(minutes=25))]
    assert day.places[0].label == f"喫茶店{HOSTILE_PLACE}"
    [talk] = day.conversations
    assert talk.partners == (HOSTILE_PERSON,)
    assert [(line.speaker, line.text) for line in talk.lines] == [
        (HOSTILE_PERSON, HOSTILE_LINE), (HOSTILE_PERSON, "30分後に図書館で待ち合わせしよう！"),
        (SELF_NAME, "うん、図書館でね！")]
    [promise] = day.promises
    assert (promise.partner, promise.node_id, promise.status) == (HOSTILE_PERSON, "8-3", "kept")
    assert [(t.direction, t.partner, t.item) for t in day.transfers] == [
        ("received", HOSTILE_PERSON, {"item_id": "お茶", "quantity": 1})]
    assert day.commands == {"conversation_accept": 1, "transfer_accept": 1, "move": 1}


def test_a_promise_called_off_shows_as_cancelled(lived):
    [promise] = lived.store.commitments_between(START, END)
    lived.conn.execute("UPDATE commitments SET status = 'pending', fulfilled_at = NULL")
    withdraw(lived.store, [promise.id])
    assert [p.status for p in build(records_for(lived.store, DAY)).promises] == ["cancelled"]


def test_the_page_escapes_every_name_line_and_label(lived):
    markup = page.render(build(records_for(lived.store, DAY)))
    assert "<script" not in markup and "<img" not in markup and "</svg><" not in markup.replace("</svg></figure>", "")
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in markup
    assert "http://" not in markup.replace('xmlns="http://www.w3.org/2000/svg"', "")


# ------------------------------------------------------------------------------ the command
@pytest.fixture
def demo_state(tmp_path, env, monkeypatch):
    state_dir = tmp_path / "demo-state"
    assert CliRunner().invoke(agent, ["demo", "--state-dir", str(state_dir)]).exit_code == 0
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(state_dir))
    return state_dir


def test_day_defaults_to_the_latest_day_with_activity_and_prints_its_summary(demo_state):
    result = CliRunner().invoke(agent, ["day"])
    assert result.exit_code == 0, result.output
    head, *rest = result.output.splitlines()
    assert head.startswith("2026-04-18 (Asia/Tokyo): 16 notifications")
    assert "Places, in the order visited" in rest and "  13:26  公民館 ホール [10-16]" in rest
    assert any("with 桜草メイ: 7 lines" in line for line in rest)


def test_day_json_has_every_listed_field(demo_state):
    result = CliRunner().invoke(agent, ["day", "--json", "--date", "2026-04-18"])
    shown = json.loads(result.output)
    assert result.exit_code == 0 and shown["date"] == "2026-04-18"
    assert {"places", "conversations", "promises", "transfers", "commands", "failures"} <= set(shown)
    assert set(shown["places"][0]) >= {"node_id", "label", "arrived_at"}
    assert set(shown["conversations"][0]) >= {"partners", "started_at", "ended_at", "lines"}
    assert set(shown["conversations"][0]["lines"][0]) >= {"speaker", "text"}
    assert shown["promises"][0]["status"] == "kept" and shown["promises"][0]["place"] == "公民館 ホール"
    assert {t["direction"] for t in shown["transfers"]} == {"received", "declined"}
    assert shown["failures"][0]["error"] == "notification_expired"


def test_a_day_without_activity_says_so_and_exits_0(demo_state):
    result = CliRunner().invoke(agent, ["day", "--date", "2026-04-19"])
    assert result.exit_code == 0 and result.output == "2026-04-19 (Asia/Tokyo): no activity recorded on this day.\n"


@pytest.mark.parametrize("text", ["2026-4-18", "2026-02-30", "yesterday", "2026-04-18T00:00", "２０２６-04-18"])
def test_a_date_in_a_wrong_format_is_exit_2_with_one_line(text, env, state_dir):
    result = CliRunner().invoke(agent, ["day", "--date", text])
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and "YYYY-MM-DD" in result.stderr
    assert not (state_dir / "karakuri.db").exists()  # rejected before the state is opened


def test_day_on_a_state_directory_that_does_not_exist_creates_nothing_and_says_so(env, state_dir):
    result = CliRunner().invoke(agent, ["day", "--json"])
    assert result.exit_code == 0 and json.loads(result.stdout)["empty"] is True
    assert result.stderr.startswith(f"no state yet in {state_dir}")
    assert not state_dir.exists()  # reading is not a run: no database left behind


def test_what_people_told_that_day_is_listed_with_whom_it_is_about(env, state_dir):
    from karakuri_agent.state.factory import open_url

    state = open_url("", state_dir, lambda: START)
    try:
        state.store.record_request("n1", "conversation_message")
        state.store.learn_facts([
            {"fact_key": "k1", "kind": "pet", "topic": "ミケ", "detail": "猫", "speaker_id": "1", "speaker_name": "桜草メイ",
             "about_id": "1", "about_name": "桜草メイ", "said_at": _at(5), "due_on": None,
             "source": "猫を飼ってるの、名前はミケ。", "conversation_id": None},
            {"fact_key": "k0", "kind": "pet", "topic": "ポチ", "detail": "犬", "speaker_id": "2", "speaker_name": "ルナ",
             "about_id": "2", "about_name": "ルナ", "said_at": (START - timedelta(hours=1)).astimezone(timezone.utc).isoformat(timespec="milliseconds"),
             "due_on": None, "source": "犬のポチがいるよ。", "conversation_id": None}])
    finally:
        state.close()
    result = CliRunner().invoke(agent, ["day", "--json", "--date", DAY.isoformat()])
    [fact] = json.loads(result.stdout)["learned"]  # the day before is not this day's
    assert fact["teller"] == "桜草メイ" and fact["topic"] == "ミケ" and fact["line"] == "猫を飼ってるの、名前はミケ。"
    assert not fact["withdrawn"]
    text = CliRunner().invoke(agent, ["day", "--date", DAY.isoformat()]).stdout
    assert "from 桜草メイ: pet ミケ「猫を飼ってるの、名前はミケ。」" in text


def test_the_html_page_is_written_whole(demo_state, tmp_path):
    target = tmp_path / "day.html"
    result = CliRunner().invoke(agent, ["day", "--html", str(target)])
    markup = target.read_text(encoding="utf-8")
    assert result.exit_code == 0 and markup.startswith("<!DOCTYPE html>") and markup.rstrip().endswith("</html>")
    assert 'data-node="10-16"' in markup and "<polyline" in markup


# ------------------------------------------------------------------------------ in a real browser
@pytest.mark.browser
def test_chromium_renders_places_names_lines_and_statuses(lived, tmp_path):
    target = tmp_path / "day.html"
    target.write_text(page.render(build(records_for(lived.store, DAY))), encoding="utf-8")
    dom = Dom(dump_dom(target, tmp_path / "profile"))
    assert dom.find("script") == [] and dom.find("img") == []  # the hostile names stayed text
    assert {e.attrs["data-node"] for e in dom.find("g", class_="visited")} == {"6-11", "8-3"}
    assert {e.attrs["data-node"] for e in dom.find("g", class_="place")} >= {"6-11", "8-3", "7-11", "9-2"}
    assert len(dom.find("polyline", class_="path")) == 1 and len(dom.find("svg")) == 1
    [talk] = dom.find("article", class_="talk")
    said = [li.all_text() for li in talk.children[1].children if li.tag == "li"]
    assert HOSTILE_LINE in said[0] and HOSTILE_PERSON in said[0] and "うん、図書館でね！" in said[2]
    assert [e.attrs["data-status"] for e in dom.find("span", class_="status")] == ["kept"]
    assert [e.all_text() for e in dom.find("span", class_="partner")] == [HOSTILE_PERSON, HOSTILE_PERSON]  # promise, gift
    assert {e.all_text() for e in dom.find("span", class_="teller")} <= {HOSTILE_PERSON}  # what they told, if anything
    places = [e.all_text() for e in dom.find("g", class_="visited")]
    assert any(f"喫茶店{HOSTILE_PLACE}" in text for text in places)


@pytest.mark.browser
@pytest.mark.parametrize("width", [390, 1280])
def test_chromium_draws_the_page_at_phone_and_desktop_width(lived, tmp_path, width):
    from testing.browser import run

    target = tmp_path / "day.html"
    target.write_text(page.render(build(records_for(lived.store, DAY))), encoding="utf-8")
    shot = tmp_path / "shot.png"
    run(target, tmp_path / "profile", f"--window-size={width},900", f"--screenshot={shot}", "--hide-scrollbars")
    png = shot.read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(png[16:20], "big") == width  # drawn at the width asked for
    assert len(set(png[100:5000])) > 50  # not a blank image


def test_a_packs_rules_and_variables_show_in_the_days_json_text_and_page(tmp_path, env, monkeypatch):
    """What the run's trace recorded (the rule that decided, each variable change) is read back by `day`."""
    pack = Path(__file__).resolve().parents[1] / "docs" / "examples" / "behaviour-pack"
    state_dir = tmp_path / "pack-state"
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(pack))
    assert CliRunner().invoke(agent, ["demo", "--state-dir", str(state_dir)]).exit_code == 0
    monkeypatch.setenv("KARAKURI_STATE_DIR", str(state_dir))
    shown = json.loads(CliRunner().invoke(agent, ["day", "--json"]).stdout)
    fired = {(r["rule"], r["command"]) for r in shown["rules_fired"]}
    assert ("glad-you-asked", "conversation_accept") in fired and ("first-map", "get_map") in fired
    assert [(v["path"], v["value"]) for v in shown["variables"] if v["path"].startswith("affection.")] == [
        ("affection.桜草メイ", 2), ("affection.桜草メイ", 4)]
    text = CliRunner().invoke(agent, ["day"]).stdout
    assert "Rules that fired" in text and "glad-you-asked → conversation_accept" in text
    assert "affection.桜草メイ = 4" in text
    target = tmp_path / "day.html"
    assert CliRunner().invoke(agent, ["day", "--html", str(target)]).exit_code == 0
    markup = target.read_text(encoding="utf-8")
    assert "<code>glad-you-asked</code>" in markup and "<code>affection.桜草メイ</code> = 4" in markup
