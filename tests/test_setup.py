"""Setting up is checked, not guessed: the `.env` reader, strict switches, unknown names, `doctor`,
and commands that do what they say (fixture runs, `log`, `gc`, `state copy`, `persona`)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import httpx
import pytest
import respx

from testing.samples import API_KEY, BASE_URL, BODY, GET_URL, NID, POST_URL
from karakuri_agent.app.cli import agent, karakuri
from testing.runs import PROBE_URL, doctor_lines, invoke
from karakuri_agent.report.line import EXPIRED

pytestmark = pytest.mark.process

DEMO01 = "AIニケちゃん への通知があります。notification_id: notif-demo01"
AGENT = "import sys; from karakuri_agent.app.cli import agent; sys.exit(agent())"


# -- 1. python-dotenv reads .env -------------------------------------------------------
def test_a_dotenv_with_inline_comments_quotes_and_export_sends_the_bare_key(bare, api, notification):
    (bare / ".env").write_text(
        f"export KARAKURI_API_BASE_URL={BASE_URL}  # the world\n"
        f"KARAKURI_API_KEY={API_KEY} # my key\n"
        f"KARAKURI_STATE_DIR='{bare / 'state'}'\n", encoding="utf-8")
    result = invoke(karakuri, "get_notification", NID)
    assert result.exit_code == 0, result.output
    [call] = api.calls
    assert call.request.headers["Authorization"] == f"Bearer {API_KEY}"
    assert str(call.request.url) == GET_URL
    assert (bare / "state" / "karakuri.db").is_file()


def test_the_environment_wins_over_dotenv(bare, api, monkeypatch):
    (bare / ".env").write_text(f"KARAKURI_API_BASE_URL=https://wrong.test/api\nKARAKURI_API_KEY={API_KEY}\n")
    monkeypatch.setenv("KARAKURI_API_BASE_URL", BASE_URL)
    assert invoke(karakuri, "get_notification", NID).exit_code == 0
    assert str(api.calls[0].request.url) == GET_URL


# -- 2. strict switches -----------------------------------------------------------------
@pytest.mark.parametrize("value", ["ture", "enabled", "2"])
def test_an_off_switch_that_is_not_a_boolean_stops_before_anything_is_read(env, api, monkeypatch, value):
    monkeypatch.setenv("KARAKURI_AGENT_DISABLED", value)
    result = invoke(agent, "handle", BODY)
    assert result.exit_code == 2 and result.stdout == ""
    assert "KARAKURI_AGENT_DISABLED" in result.stderr and repr(value) in result.stderr
    assert not api.calls


@pytest.mark.parametrize("value", ["1", "TRUE", "yes", "On"])
def test_every_spelling_of_on_switches_the_agent_off(env, api, monkeypatch, value):
    monkeypatch.setenv("KARAKURI_AGENT_DISABLED", value)
    result = invoke(agent, "handle", BODY)
    assert result.exit_code == 0 and "停止中" in result.stdout and not api.calls


@pytest.mark.parametrize("value", ["0", "false", "NO", "off"])
def test_every_spelling_of_off_leaves_the_agent_on(env, api, monkeypatch, value):
    monkeypatch.setenv("KARAKURI_AGENT_DISABLED", value)
    result = invoke(agent, "handle", "--dry-run", BODY)
    assert result.exit_code == 0 and "停止中" not in result.stdout and len(api.calls) == 1


# -- 3. unknown names -------------------------------------------------------------------
def test_an_unknown_name_is_one_warning_naming_the_closest_one_and_the_run_goes_on(env, api, monkeypatch, tmp_path):
    (tmp_path / ".env").write_text("KARAKURI_STATE_DIRR=/somewhere\n")
    monkeypatch.setenv("KARAKURI_AGENT_DISABLE", "1")
    result = invoke(agent, "handle", "--dry-run", BODY)
    assert result.exit_code == 0 and result.stdout.splitlines()[-1].startswith("からくり: ")
    warnings = result.stderr.splitlines()
    assert len(warnings) == 2, warnings
    assert "KARAKURI_AGENT_DISABLE (in the environment)" in warnings[1]
    assert "did you mean KARAKURI_AGENT_DISABLED?" in warnings[1]
    assert f"KARAKURI_STATE_DIRR (in {tmp_path / '.env'})" in warnings[0]
    assert "did you mean KARAKURI_STATE_DIR?" in warnings[0]


# -- 4. where the settings came from ----------------------------------------------------
def test_a_missing_setting_says_which_directory_was_searched(bare):
    result = invoke(agent, "handle", BODY)
    assert result.exit_code == 2
    assert f"KARAKURI_API_BASE_URL is not set: not in the environment, and no .env in {bare}" in result.stderr


def test_a_missing_setting_names_the_dotenv_that_was_read(bare):
    (bare / ".env").write_text(f"KARAKURI_API_BASE_URL={BASE_URL}\n")
    result = invoke(agent, "handle", BODY)
    assert result.exit_code == 2 and f"KARAKURI_API_KEY is not set: not in the environment, and read {bare / '.env'}" \
        in result.stderr


def test_a_karakuri_env_file_naming_a_missing_file_is_exit_2_with_the_path(env, api, monkeypatch, tmp_path):
    monkeypatch.setenv("KARAKURI_ENV_FILE", str(tmp_path / "nowhere.env"))
    for program, args in ((agent, ["handle", BODY]), (agent, ["log"]), (karakuri, ["get_notification", NID])):
        result = invoke(program, *args)
        assert result.exit_code == 2, (args, result.output)
        assert f"KARAKURI_ENV_FILE names {tmp_path / 'nowhere.env'}, which does not exist" in result.stderr
    assert not api.calls


# -- 6. log is not stopped by an unrelated bad setting ----------------------------------
def test_log_warns_about_an_unrelated_bad_setting_and_shows_the_history(env, api, monkeypatch):
    assert invoke(agent, "handle", BODY).exit_code == 0
    monkeypatch.setenv("KARAKURI_HTTP_TIMEOUT", "ten")
    assert invoke(agent, "handle", BODY).exit_code == 2
    result = invoke(agent, "log")
    assert result.exit_code == 0 and NID in result.stdout and "received conversation_requested" in result.stdout
    assert "warning: KARAKURI_HTTP_TIMEOUT must be a number, got 'ten'" in result.stderr



@pytest.mark.parametrize("name", ["KARAKURI_HTTP_TIMEOUT", "KARAKURI_GET_RETRY_BUDGET", "KARAKURI_WEBHOOK_BUDGET",
                                  "KARAKURI_COOLDOWN_SECONDS", "KARAKURI_LLM_TIMEOUT"])
@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e999"])
def test_a_non_finite_number_of_seconds_is_a_setting_error_not_an_internal_one(env, api, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    if name == "KARAKURI_LLM_TIMEOUT":
        monkeypatch.setenv("KARAKURI_DECIDER", "llm")
        monkeypatch.setenv("KARAKURI_LLM_BASE_URL", "http://127.0.0.1:9/v1")
        monkeypatch.setenv("KARAKURI_LLM_MODEL", "m")
    result = invoke(agent, "handle", BODY)
    assert result.exit_code == 2 and "internal error" not in result.stderr
    assert f"{name} must be" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert not api.calls
    api.get(PROBE_URL).respond(404, json={"error": "not_found", "message": "no such notification"})
    doctor = invoke(agent, "doctor")
    assert doctor.exit_code == 1 and "internal error" not in doctor.stderr + doctor.stdout
    assert f"problem: {name} must be" in doctor.stdout



@pytest.mark.parametrize("url, said", [
    ("https://agent:hunter2-base-url-pw@karakuri.test/api", "must not carry a user name or password"),
    ("https://hunter2-base-url-pw@karakuri.test/api", "must not carry a user name or password"),
    ("http://[hunter2-base-url-pw/api", "is not a URL with a host name"),
    ("https://:443/api", "is not a URL with a host name"),
])
def test_a_base_url_with_user_info_or_no_host_is_refused_without_printing_it(env, api, monkeypatch, url, said):
    """A password in the base URL would be printed by doctor and sent as Basic auth instead of the key."""
    monkeypatch.setenv("KARAKURI_API_BASE_URL", url)
    for program, args in ((agent, ["handle", BODY]), (karakuri, ["get_notification", NID])):
        result = invoke(program, *args)
        assert result.exit_code == 2 and f"KARAKURI_API_BASE_URL {said}" in result.stderr
        assert "hunter2" not in result.stdout + result.stderr
    doctor = invoke(agent, "doctor")
    assert doctor.exit_code == 1 and f"problem: KARAKURI_API_BASE_URL {said}" in doctor.stdout
    assert "hunter2" not in doctor.stdout + doctor.stderr
    assert not api.calls

def test_log_still_stops_on_a_bad_setting_that_says_where_the_state_is(env, monkeypatch):
    monkeypatch.setenv("KARAKURI_DATABASE_URL", "mysql://x")
    result = invoke(agent, "log")
    assert result.exit_code == 2 and "KARAKURI_DATABASE_URL must be unset" in result.stderr


# -- 5. doctor ------------------------------------------------------------------------------
def test_doctor_on_a_working_setup_reads_once_and_exits_0(env, tmp_path):
    with respx.mock(assert_all_called=False) as mock:
        probe = mock.get(PROBE_URL).respond(404, json={"error": "not_found", "message": "no such notification"})
        command = mock.post(POST_URL).respond(200, json={"ok": True})
        code, lines = doctor_lines()
    assert code == 0, lines
    assert probe.call_count == 1 and command.call_count == 0
    assert probe.calls[0].request.headers["Authorization"] == f"Bearer {API_KEY}"
    assert lines[-1] == "a real run would work"
    assert f"ok: settings: no .env in the working directory {tmp_path}" in lines[0]
    assert any(line.startswith("ok: server: the key was accepted") for line in lines)
    assert any(line.startswith("ok: state: SQLite file") and "does not exist yet" in line for line in lines)
    assert not (tmp_path / "state").exists()  # a check, not a run: nothing created
    assert API_KEY not in "\n".join(lines)


@pytest.mark.parametrize("answer, expected", [
    (httpx.Response(401, json={"error": "unauthorized", "message": "bad key"}), "problem: server: the key was refused"),
    (httpx.Response(404, text="<html>Not Found</html>"), f"problem: server: the base URL looks wrong: GET {PROBE_URL}"),
    (httpx.Response(200, text="<html>welcome</html>"), f"problem: server: the base URL looks wrong: GET {PROBE_URL}"),
    (httpx.ConnectError("refused"), f"problem: server: unreachable: GET {PROBE_URL} failed (ConnectError)"),
    (httpx.ReadTimeout("slow"), f"problem: server: slow: GET {PROBE_URL} had no answer within"),
], ids=["key refused", "no such route", "not JSON", "unreachable", "slow"])
def test_doctor_names_what_is_wrong_with_the_server_and_exits_1(env, answer, expected):
    with respx.mock(assert_all_called=False) as mock:
        route = mock.get(PROBE_URL)
        route.side_effect = [answer] if isinstance(answer, Exception) else None
        if not isinstance(answer, Exception):
            route.return_value = answer
        code, lines = doctor_lines()
    assert code == 1
    assert route.call_count == 1  # asked once, never retried
    assert any(line.startswith(expected) for line in lines), lines
    assert lines[-1].startswith("1 problem: a real run would not work")


def test_doctor_lists_every_bad_setting_and_masks_the_database_password(env, monkeypatch, tmp_path):
    (tmp_path / ".env").write_text("KARAKURI_HTTP_TIMEOUT=ten\nKARAKURI_AGENT_DISABLED=ture\nKARAKURI_STATE_DIRR=x\n")
    monkeypatch.setenv("KARAKURI_DATABASE_URL", "postgresql://agent:s3cret-pw@127.0.0.1:9/karakuri")
    monkeypatch.setenv("KARAKURI_PERSONA_DIR", str(tmp_path / "no-pack"))
    with respx.mock(assert_all_called=False) as mock:
        mock.get(PROBE_URL).respond(404, json={"error": "not_found", "message": "none"})
        code, lines = doctor_lines()
    text = "\n".join(lines)
    assert code == 1 and "s3cret-pw" not in text
    assert f"ok: settings: read {tmp_path / '.env'}" in lines[0]
    assert "problem: KARAKURI_HTTP_TIMEOUT must be a number, got 'ten'" in lines
    assert any(line.startswith("problem: KARAKURI_AGENT_DISABLED must be") for line in lines)
    assert any("KARAKURI_STATE_DIRR" in line and "did you mean KARAKURI_STATE_DIR?" in line for line in lines)
    assert any(line.startswith("problem: state: PostgreSQL postgresql://agent:***@127.0.0.1:9/karakuri") for line in lines)
    assert any(line.startswith("problem: persona: ") and "no-pack" in line for line in lines)
    assert lines[-1].startswith("4 problems")


def test_doctor_with_nothing_configured_says_so_without_asking_anyone(bare):
    with respx.mock(assert_all_called=False) as mock:
        code, lines = doctor_lines()
        assert not mock.calls
    assert code == 1
    assert f"problem: KARAKURI_API_BASE_URL is not set: not in the environment, and no .env in {bare}" in lines[1]
    assert "problem: server: not asked (set KARAKURI_API_BASE_URL and KARAKURI_API_KEY first)" in lines


# -- 9. slow is not unreachable ------------------------------------------------------------
def test_a_read_timeout_is_reported_as_a_slow_server_not_an_unreachable_one(env):
    with respx.mock() as mock:
        mock.get(GET_URL).side_effect = httpx.ReadTimeout("slow")
        result = invoke(agent, "handle", BODY)
    assert result.exit_code == 0
    assert result.stderr.startswith("karakuri-agent: server_slow: the server answered too slowly")
    assert "unreachable" not in result.stderr


def test_a_refused_connection_is_reported_as_unreachable(env):
    with respx.mock() as mock:
        mock.get(GET_URL).side_effect = httpx.ConnectError("refused")
        result = invoke(agent, "handle", BODY)
    assert result.stderr.startswith("karakuri-agent: server_unreachable: ")


# -- 11. log and gc create nothing; gc --dry-run -------------------------------------------
@pytest.mark.parametrize("args", [["log"], ["log", "--json"], ["gc", "--keep-days", "30"]])
def test_reading_commands_on_a_state_that_does_not_exist_create_nothing(env, state_dir, args):
    result = invoke(agent, *args)
    assert result.exit_code == 0 and f"no state yet in {state_dir}" in result.stderr
    assert not state_dir.exists()


def test_gc_dry_run_counts_what_gc_deletes_and_deletes_nothing(env, api, state_dir):
    assert invoke(agent, "handle", BODY).exit_code == 0
    db = state_dir / "karakuri.db"
    before = sqlite3.connect(db).execute("SELECT count(*) FROM activity").fetchone()[0]
    planned = json.loads(invoke(agent, "gc", "--keep-days", "0", "--dry-run", "--json").stdout)
    assert planned["dry_run"] is True and planned["notifications"] == 1
    assert sqlite3.connect(db).execute("SELECT count(*) FROM activity").fetchone()[0] == before
    assert sqlite3.connect(db).execute("SELECT count(*) FROM notifications").fetchone()[0] == 1
    shown = invoke(agent, "gc", "--keep-days", "0", "--dry-run").stdout
    assert shown.startswith("would delete rows older than") and "notifications 1" in shown
    done = json.loads(invoke(agent, "gc", "--keep-days", "0", "--json").stdout)
    assert {k: v for k, v in done.items() if k not in ("cutoff", "dry_run")} == \
        {k: v for k, v in planned.items() if k not in ("cutoff", "dry_run")}
    assert sqlite3.connect(db).execute("SELECT count(*) FROM notifications").fetchone()[0] == 0


# -- 12. listen --stdin offline ----------------------------------------------------------------
def test_listen_stdin_runs_offline_on_the_bundled_fixtures_at_each_messages_time(env, state_dir):
    lines = "".join(json.dumps({"content": DEMO01.replace("01", f"{n:02d}"), "id": str(n)}) + "\n" for n in (1, 2))
    result = invoke(agent, "listen", "--stdin", "--fixtures", "bundled", stdin=lines)
    assert result.exit_code == 0, result.output
    reports = result.stdout.splitlines()
    assert len(reports) == 2 and EXPIRED not in reports, reports
    assert not state_dir.exists()
    late = invoke(agent, "listen", "--stdin", "--fixtures", "bundled", "--at", "2026-04-18T05:00:00Z", stdin=lines)
    assert late.stdout.splitlines() == [EXPIRED, EXPIRED]


# -- 15. persona ----------------------------------------------------------------------------------
def test_persona_check_reports_problems_of_every_kind_in_one_run(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    (pack / "persona.json").write_text(json.dumps({
        "name": "タロウ", "likes": "not a list",
        "greetings": {"first_meeting": ["{nobody}さん、こんにちは"]},
    }, ensure_ascii=False), encoding="utf-8")
    result = invoke(agent, "persona", "check", str(pack))
    assert result.exit_code == 1
    assert any("likes" in line for line in result.stdout.splitlines())
    assert any("{nobody}" in line for line in result.stdout.splitlines()), result.stdout


def test_persona_skill_refuses_an_agent_id_that_is_not_digits(env):
    result = invoke(agent, "persona", "skill", "--agent-id", "abc")
    assert result.exit_code == 2 and result.stdout == "" and "'abc'" in result.stderr


# -- 17. state copy ------------------------------------------------------------------------------
def test_state_copy_blames_the_argument_for_a_wrong_url(env):
    result = invoke(agent, "state", "copy", "--to", "mysql://x")
    assert result.exit_code == 2 and result.stdout == ""
    assert "--to must be sqlite:DIR or a postgresql:// URL" in result.stderr
    assert "KARAKURI_DATABASE_URL" not in result.stderr


def test_state_copy_reports_an_unreachable_database_as_one_line_exit_2(env, api):
    assert invoke(agent, "handle", BODY).exit_code == 0
    result = invoke(agent, "state", "copy", "--to", "postgresql://k:pw-secret@127.0.0.1:9/k?connect_timeout=2")
    assert result.exit_code == 2 and result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("karakuri-agent: error: ") and "pw-secret" not in line


# -- 18. log: the world's zone, filters ------------------------------------------------------------
def test_log_shows_times_in_the_worlds_zone_and_filters(env, tmp_path):
    runs = [["handle", "--fixtures", "bundled", "--state-dir", str(tmp_path / "kept"),
             DEMO01.replace("01", n)] for n in ("01", "02")]
    for args in runs:
        assert invoke(agent, *args).exit_code == 0
    import os

    os.environ["KARAKURI_STATE_DIR"] = str(tmp_path / "kept")
    lines = invoke(agent, "log").stdout.splitlines()
    # notif-demo01 was handled at 03:10:05Z: 12:10:05 in Japan, as its report says.
    assert any(line.startswith("2026-04-18 12:10:05 JST  notif-demo01") for line in lines), lines
    only = invoke(agent, "log", "--notification", "notif-demo02").stdout.splitlines()
    entries = [line for line in only if not line.startswith(" ")]  # indented: a run's rule trace, under its entry
    assert entries and all("notif-demo02" in line for line in entries)
    since = invoke(agent, "log", "--since", "2026-04-18T12:15").stdout.splitlines()
    assert since and all("notif-demo01" not in line for line in since)
    typed = [line for line in invoke(agent, "log", "--type", "agent_logged_in").stdout.splitlines()
             if not line.startswith(" ")]
    assert typed and all("notif-demo01" in line for line in typed)
    errors = invoke(agent, "log", "--errors")
    assert errors.stdout == "" and "matches the filters" in errors.stderr
    assert invoke(agent, "log", "--since", "yesterday").exit_code == 2


# -- 14. a closed pipe -------------------------------------------------------------------------------
def test_a_reader_that_takes_two_lines_and_leaves_gets_exit_0_and_no_traceback(tmp_path):
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    env["HOME"] = str(tmp_path)
    for args in (["demo"], ["log", "-n", "1000"]):
        if args[0] == "log":
            subprocess.run([sys.executable, "-c", AGENT, "demo", "--state-dir", str(tmp_path / "state")],
                           env=env, cwd=tmp_path, capture_output=True, timeout=120)
            env["KARAKURI_STATE_DIR"] = str(tmp_path / "state")
        env["PY"] = sys.executable
        shell = f"\"$PY\" -c '{AGENT}' {' '.join(args)} | head -2; exit ${{PIPESTATUS[0]}}"
        done = subprocess.run(["bash", "-c", shell], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, (args, done.stderr)
        assert len(done.stdout.splitlines()) == 2 and "Traceback" not in done.stderr and done.stderr == ""


def test_the_known_names_are_exactly_the_ones_env_example_lists():
    """So a name added to the program without .env.example (or the other way round) is caught."""
    import re

    from karakuri_agent.app.config import KNOWN_VARIABLES

    listed = set(re.findall(r"^(KARAKURI_[A-Z_]+)=", (Path(__file__).parents[1] / ".env.example").read_text(), re.M))
    assert listed | {"KARAKURI_PERSONA_FILE"} == set(KNOWN_VARIABLES)  # the old name, still refused by name


@pytest.mark.parametrize("answer, level", [('{"ok": true}', "ok"), ("hang", "warning")],
                         ids=["answers", "does not answer"])
def test_doctor_with_the_model_deciding_asks_it_once_and_reports_its_latency(env, monkeypatch, answer, level):
    from testing.llm_server import HANG, running_model

    with running_model([HANG if answer == "hang" else answer]) as model:
        for name, value in {"KARAKURI_DECIDER": "llm", "KARAKURI_LLM_BASE_URL": model.base_url,
                            "KARAKURI_LLM_MODEL": "tiny", "KARAKURI_LLM_API_KEY": "model-secret-key",
                            "KARAKURI_LLM_TIMEOUT": "5" if level == "ok" else "1"}.items():
            monkeypatch.setenv(name, value)
        with respx.mock(assert_all_called=False) as mock:
            mock.route(url__startswith=model.base_url).pass_through()
            mock.get(PROBE_URL).respond(404, json={"error": "not_found", "message": "none"})
            code, lines = doctor_lines()
    if level == "ok":  # (a hanging server never finishes reading the request it was sent)
        assert len(model.requests) == 1 and model.requests[0]["max_tokens"] == 16
    found = [line for line in lines if line.startswith(f"{level}: model tiny:")]
    assert found, lines
    assert code == 0  # a model that fails is not a broken set-up: the rules decide then
    assert "model-secret-key" not in "\n".join(lines)


def test_doctor_with_the_rules_deciding_asks_no_model(env):
    with respx.mock(assert_all_called=False) as mock:
        mock.get(PROBE_URL).respond(404, json={"error": "not_found", "message": "none"})
        code, lines = doctor_lines()
        assert [str(c.request.url) for c in mock.calls] == [PROBE_URL]
    assert code == 0 and "ok: decider: rules (no model is asked)" in lines
