"""Property tests for `doctor`'s findings on the settings (issue 32 item 11), each a class of bad outcome.

- Whatever DISCORD_WEBHOOK_URL holds, doctor says one thing of it: a
  problem, or that it is not set, or nothing (a usable one), never two.
- Whatever KARAKURI_SELF_AGENT_ID holds, it is flagged exactly when it is
  not the world's kind of id (ASCII digits), once.
- Whatever key holds .env.example's placeholder, it is a problem.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from karakuri_agent.app.config import load_settings
from karakuri_agent.app.doctor import PROBLEM, check_settings

from testing.samples import API_KEY, BASE_URL

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)
URLS = st.one_of(TEXT, st.sampled_from(["", "https://discord.test/api/webhooks/1/t", "http://127.0.0.1:9/hook",
                                        "http://discord.test/hook", "ftp://x", "https://", " "]))


def _findings(**env: str) -> list[str]:
    values = {"KARAKURI_API_BASE_URL": BASE_URL, "KARAKURI_API_KEY": API_KEY, "KARAKURI_STATE_DIR": "/nonexistent",
              **env}
    return [f.line() for f in check_settings(load_settings(values, env_file=None, lenient=True))]


@SETTINGS
@given(url=URLS, own=st.one_of(TEXT, st.from_regex(r"\A[0-9]{17,20}\Z")))
def test_one_finding_per_bad_setting(url, own):
    lines = _findings(DISCORD_WEBHOOK_URL=url, KARAKURI_SELF_AGENT_ID=own)
    assert len([line for line in lines if "DISCORD_WEBHOOK_URL" in line]) <= 1, lines
    flagged = [line for line in lines if "KARAKURI_SELF_AGENT_ID" in line]
    own = own.strip()
    wrong = bool(own) and not (own.isascii() and own.isdigit())
    assert len(flagged) == (1 if wrong or not own else 0), lines


@SETTINGS
@given(tail=st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7e), max_size=12))
def test_the_placeholder_key_is_a_problem_whatever_follows_it(tail):
    lines = _findings(KARAKURI_API_KEY=f"replace-with-{tail}")
    assert any(line.startswith(f"{PROBLEM}: KARAKURI_API_KEY is still the .env.example placeholder") for line in lines)
