"""At most one command per notification across real, concurrent, killed processes."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess

import pytest

from testing.samples import API_KEY
from testing.runs import AGENT, DEMO01, KARAKURI, NID, run_agent



def karakuri(env, *args, **kwargs):
    return subprocess.Popen([*KARAKURI, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=env["KARAKURI_STATE_DIR"].rsplit("/", 1)[0], **kwargs)


def test_eight_concurrent_processes_on_one_id_send_exactly_one_post(loopback, proc_env):
    loopback.hold_post_seconds = 0.3  # keep the winner busy while the others arrive
    procs = [karakuri(proc_env, "command", NID, "conversation_reject", "{}") for _ in range(8)]
    results = [(p.wait(timeout=60), p.stdout.read(), p.stderr.read()) for p in procs]
    assert len(loopback.posts_for(NID)) == 1
    codes = sorted(code for code, _, _ in results)
    assert codes == [0] + [1] * 7, results
    refused = [json.loads(out)["error"] for code, out, _ in results if code == 1]
    assert refused == ["notification_already_attempted"] * 7


def test_process_killed_after_its_claim_spends_the_notification(loopback, proc_env, tmp_path):
    loopback.hold_post_seconds = 30  # the POST is in flight when the process dies
    victim = karakuri(proc_env, "command", NID, "conversation_reject", "{}")
    assert loopback.post_started.wait(timeout=30)
    victim.send_signal(signal.SIGKILL)
    victim.wait(timeout=10)
    loopback.hold_post_seconds = 0
    requests_before = len(loopback.gets) + len(loopback.posts)

    later = karakuri(proc_env, "command", NID, "conversation_accept", '{"message": "こんにちは"}')
    code, out = later.wait(timeout=60), later.stdout.read()
    assert code == 1 and json.loads(out)["error"] == "notification_already_attempted"
    assert len(loopback.gets) + len(loopback.posts) == requests_before
    conn = sqlite3.connect(tmp_path / "state" / "karakuri.db")
    assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert conn.execute("SELECT outcome FROM attempts").fetchall() == [("claimed",)]


def test_real_process_output_carries_no_api_key(loopback, proc_env):
    for args in (("get_notification", NID), ("command", NID, "conversation_reject", "{}")):
        p = karakuri(proc_env, *args)
        p.wait(timeout=60)
        assert API_KEY not in p.stdout.read() + p.stderr.read()


def test_first_runs_racing_on_a_new_state_directory_all_open_it(loopback, proc_env):
    """Creating the file and switching it to WAL at once must not fail any of them."""
    procs = [karakuri(proc_env, "get_notification", NID) for _ in range(8)]
    results = [(p.wait(timeout=60), p.stderr.read()) for p in procs]
    assert [code for code, _ in results] == [0] * 8, results


# -- a newcomer's commands, run as a user runs them ------------------------------------


def test_a_dry_run_on_the_bundled_fixtures_decides_as_the_demo_and_touches_no_state(home, tmp_path):
    from karakuri_agent.app.demo import replay

    code, out, err = run_agent(home, "handle", "--dry-run", "--fixtures", "bundled", cwd=tmp_path, stdin=DEMO01)
    assert code == 0 and err == ""
    lines = out.splitlines()
    message, demo_result = next(replay())  # the demo's own first run, at the recorded time
    assert message == DEMO01
    command = demo_result.decision.command
    # The same decision as the demo's, reported as a plan rather than as done.
    assert lines[-1].startswith("からくり: ") and lines[-1].endswith("予定です（ドライラン）。")
    assert lines[0] == f"  would send: {command} {json.dumps(demo_result.decision.params, ensure_ascii=False)}"
    assert not (tmp_path / "home" / "data" / "karakuri-agent").exists()
    assert list((tmp_path / "home").rglob("karakuri.db")) == []


def test_a_fixture_run_at_a_later_time_says_the_notification_expired(home, tmp_path):
    from karakuri_agent.report.line import EXPIRED

    code, out, err = run_agent(home, "handle", "--fixtures", "bundled", "--at", "2026-04-18T05:00:00Z", "--json",
                               DEMO01, cwd=tmp_path)
    record = json.loads(out)
    assert code == 0 and record["report"] == EXPIRED
    assert record["error"]["error"] == "notification_expired" and "2026-04-18T05:00:00" in record["error"]["message"]
    assert [line.split(": ")[1] for line in err.splitlines()] == ["notification_expired"]


def test_fixture_run_never_writes_into_the_real_state_and_keeps_its_own_with_state_dir(home, tmp_path):
    home["KARAKURI_STATE_DIR"] = str(tmp_path / "real")
    (tmp_path / ".env").write_text(f"KARAKURI_STATE_DIR={tmp_path / 'real'}\n")
    code, out, _ = run_agent(home, "handle", "--fixtures", "bundled", DEMO01, cwd=tmp_path)
    assert code == 0 and out.startswith("からくり: ")
    assert not (tmp_path / "real").exists()
    # Replaying one's own recording twice is two fresh runs, never "already handled".
    again = run_agent(home, "handle", "--fixtures", "bundled", DEMO01, cwd=tmp_path)[1]
    assert again == out
    run_agent(home, "handle", "--fixtures", "bundled", "--state-dir", str(tmp_path / "kept"), DEMO01, cwd=tmp_path)
    home["KARAKURI_STATE_DIR"] = str(tmp_path / "kept")
    code, out, _ = run_agent(home, "log", cwd=tmp_path)
    assert code == 0 and "notif-demo01  received agent_logged_in" in out
    assert not (tmp_path / "real").exists()


def test_handle_on_a_missing_fixtures_dir_refuses_in_one_line(home, tmp_path):
    code, out, err = run_agent(home, "handle", "--fixtures", str(tmp_path / "nowhere"), DEMO01, cwd=tmp_path)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and "nowhere" in err and "does not exist" in err


def test_a_failure_says_why_on_stderr_in_json_and_in_the_log(loopback, proc_env, tmp_path):
    from karakuri_agent.report.line import FAILED

    body = "notification_id: notif-unknown1"
    code, out, err = run_agent(proc_env, "handle", body, cwd=tmp_path)
    assert code == 0 and out.strip() == FAILED
    [line] = err.splitlines()
    assert line.startswith("karakuri-agent: not_found: unknown notification.")
    code, out, _ = run_agent(proc_env, "handle", "--json", body, cwd=tmp_path)
    assert json.loads(out)["error"]["error"] == "not_found"
    _, log, _ = run_agent(proc_env, "log", cwd=tmp_path)
    entries = [line.split("  ", 1)[1] for line in log.splitlines()]  # without the time stamp
    assert entries == [f"notif-unknown1  report {FAILED}  [not_found: unknown notification]"] * 2


def test_an_unreachable_server_is_named_as_such(proc_env, tmp_path):
    import socket

    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc_env.update(KARAKURI_API_BASE_URL=f"http://127.0.0.1:{port}/api", KARAKURI_GET_RETRY_BUDGET="0")
    code, out, err = run_agent(proc_env, "handle", f"notification_id: {NID}", cwd=tmp_path)
    assert code == 0 and "失敗" in out
    [line] = err.splitlines()
    assert line.startswith("karakuri-agent: server_unreachable: ") and "KARAKURI_API_BASE_URL" in line


def test_the_off_switch_stops_the_wrapper_command_before_any_request(loopback, proc_env):
    proc_env["KARAKURI_AGENT_DISABLED"] = "1"
    p = karakuri(proc_env, "command", NID, "conversation_reject", "{}")
    code, out, err = p.wait(timeout=60), p.stdout.read(), p.stderr.read()
    assert code == 2 and out == ""
    assert err.splitlines() == [err.strip()] and "KARAKURI_AGENT_DISABLED" in err
    assert loopback.gets == [] and loopback.posts == []
    # Reading is not an action: get_notification still answers.
    reader = karakuri(proc_env, "get_notification", NID)
    assert reader.wait(timeout=60) == 0 and json.loads(reader.stdout.read())["notification_id"] == NID


@pytest.mark.parametrize("args", [["demo"], ["log", "-n", "5"]], ids=["demo", "log"])
def test_a_reader_that_stops_early_gets_no_traceback(home, tmp_path, args):
    """`… | head -1`: the pipe is closed before the program writes (the deterministic form)."""
    run_agent(home, "demo", "--state-dir", str(tmp_path / "state"), cwd=tmp_path)  # something to log
    home["KARAKURI_STATE_DIR"] = str(tmp_path / "state")  # read afterwards, as the README shows
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        code, _, err = run_agent(home, *args, cwd=tmp_path, stdout=write_end)
    finally:
        os.close(write_end)
    assert err == "" and code == 0


@pytest.mark.parametrize("days", ["99999999999", "-1"])
def test_gc_refuses_keep_days_out_of_range_with_the_range(home, tmp_path, days):
    home["KARAKURI_STATE_DIR"] = str(tmp_path / "state")
    code, out, err = run_agent(home, "gc", "--keep-days", days, cwd=tmp_path)
    assert code == 2 and "Traceback" not in err and "0<=x<=36500" in err


def test_gc_keep_days_0_keeps_only_what_the_next_run_needs(home, tmp_path):
    run_agent(home, "demo", "--state-dir", str(tmp_path / "state"), cwd=tmp_path)
    home["KARAKURI_STATE_DIR"] = str(tmp_path / "state")
    code, out, err = run_agent(home, "gc", "--keep-days", "0", "--json", cwd=tmp_path)
    assert code == 0 and err == "" and json.loads(out)["notifications"] > 0


def test_both_programs_say_their_version(home, tmp_path):
    from importlib.metadata import version

    for program in (AGENT, KARAKURI):
        proc = subprocess.run([*program, "--version"], env=home, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and proc.stdout.strip().endswith(version("karakuri-agent"))


def test_top_level_help_shows_each_commands_whole_description(home, tmp_path):
    from karakuri_agent.app.cli import agent, karakuri as wrapper_group

    for program, group in ((AGENT, agent), (KARAKURI, wrapper_group)):
        proc = subprocess.run([*program, "--help"], env=home, capture_output=True, text=True, timeout=60)
        listing = " ".join(proc.stdout.split("Commands:")[1].split())
        for command in group.commands.values():
            assert " ".join(command.help.split("\n\n")[0].split()) in listing


def test_log_after_the_demo_says_why_it_is_empty_and_how_to_keep_a_run(home, tmp_path):
    run_agent(home, "demo", cwd=tmp_path)
    home["KARAKURI_STATE_DIR"] = str(tmp_path / "state")
    code, out, err = run_agent(home, "log", cwd=tmp_path)
    assert code == 0 and out == ""
    assert "demo --state-dir DIR" in err and "KARAKURI_STATE_DIR=DIR karakuri-agent log" in err
    assert f"no state yet in {tmp_path / 'state'}" in err and not (tmp_path / "state").exists()
    code, _, err = run_agent(home, "demo", "--state-dir", home["KARAKURI_STATE_DIR"], cwd=tmp_path)
    assert code == 2 and "is the live agent's state" in err  # never into the live agent's state
    del home["KARAKURI_STATE_DIR"]
    run_agent(home, "demo", "--state-dir", str(tmp_path / "state"), cwd=tmp_path)
    home["KARAKURI_STATE_DIR"] = str(tmp_path / "state")
    code, out, err = run_agent(home, "log", "-n", "1000", cwd=tmp_path)
    assert err == "" and "report からくり: ログイン通知を確認。" in out


def test_log_shows_a_dry_run_as_such_with_its_report(home, tmp_path):
    _, handled, _ = run_agent(home, "handle", "--dry-run", "--json", "--fixtures", "bundled",
                              "--state-dir", str(tmp_path / "state"), DEMO01, cwd=tmp_path)
    home["KARAKURI_STATE_DIR"] = str(tmp_path / "state")
    record = json.loads(handled)
    decision = record["decision"]
    _, out, _ = run_agent(home, "log", cwd=tmp_path)
    [line] = [line for line in out.splitlines() if "DRY-RUN" in line]
    params = json.dumps(decision["params"], ensure_ascii=False)
    assert f"DRY-RUN would send {decision['command']} {params}" in line
    assert f"report {record['report']}" in line and "（ドライラン）" in record["report"]
