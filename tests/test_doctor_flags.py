"""`doctor` flags what a copied `.env.example` leaves wrong (issue 32 item 11), through `karakuri-agent`.

The placeholder key is refused before anything is sent (doctor and a real
run alike), a KARAKURI_SELF_AGENT_ID that is not the world's digits is a
warning, and one bad webhook URL is one problem, not also "not set".
"""

from __future__ import annotations

import respx

from testing.samples import BODY
from karakuri_agent.app.cli import agent

from testing.samples import ROOT
from testing.runs import PROBE_URL, doctor_lines, invoke


def test_a_copied_env_example_is_flagged_and_no_request_is_sent(bare, monkeypatch):
    (bare / ".env").write_text((ROOT / ".env.example").read_text(encoding="utf-8"), encoding="utf-8")
    with respx.mock(assert_all_called=False) as mock:
        code, lines = doctor_lines()
        handled = invoke(agent, "handle", BODY)
        assert not mock.calls
    assert code == 1
    placeholder = ("problem: KARAKURI_API_KEY is still the .env.example placeholder: put the key issued at the"
                   " agent's registration there")
    assert placeholder in lines, lines
    assert handled.exit_code == 2 and handled.stdout == ""
    assert handled.stderr.strip() == f"karakuri-agent: error: {placeholder.removeprefix('problem: ')}"


def test_a_self_agent_id_that_is_not_digits_is_a_warning(env, monkeypatch):
    monkeypatch.setenv("KARAKURI_SELF_AGENT_ID", "AIニケちゃん")
    with respx.mock(assert_all_called=False) as mock:
        mock.get(PROBE_URL).respond(404, json={"error": "not_found", "message": "none"})
        code, lines = doctor_lines()
    assert code == 0, lines
    flagged = [line for line in lines if "KARAKURI_SELF_AGENT_ID" in line]
    assert len(flagged) == 1 and flagged[0].startswith("warning: KARAKURI_SELF_AGENT_ID is not the world's id"), lines
    monkeypatch.setenv("KARAKURI_SELF_AGENT_ID", "1470446478261747854")
    with respx.mock(assert_all_called=False) as mock:
        mock.get(PROBE_URL).respond(404, json={"error": "not_found", "message": "none"})
        _, lines = doctor_lines()
    assert not [line for line in lines if "KARAKURI_SELF_AGENT_ID" in line], lines


def test_one_bad_webhook_url_is_one_problem_not_also_not_set(env, monkeypatch):
    monkeypatch.setenv("DISCORD_WEBHOOK_URL", "ftp://discord.test/api/webhooks/1/tok")
    with respx.mock(assert_all_called=False) as mock:
        mock.get(PROBE_URL).respond(404, json={"error": "not_found", "message": "none"})
        code, lines = doctor_lines()
    about = [line for line in lines if "DISCORD_WEBHOOK_URL" in line]
    assert code == 1 and len(about) == 1 and about[0].startswith("problem: DISCORD_WEBHOOK_URL must be"), lines
    assert "tok" not in "\n".join(lines)


def test_persona_init_names_behaviour_json_in_its_help_and_next_steps(tmp_path):
    helped = invoke(agent, "persona", "init", "--help")
    assert helped.exit_code == 0 and "behaviour.json" in helped.stdout
    made = invoke(agent, "persona", "init", str(tmp_path / "tama"), "--name", "タマ")
    assert made.exit_code == 0, made.output
    *wrote, last = made.stdout.splitlines()
    assert f"wrote {tmp_path / 'tama' / 'behaviour.json'}" in wrote
    assert last.startswith("next: ") and str(tmp_path / "tama" / "behaviour.json") in last
    assert f"karakuri-agent persona check {tmp_path / 'tama'}" in last
