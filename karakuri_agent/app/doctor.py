"""`karakuri-agent doctor`: is this installation ready for a real run? Checked, not guessed.

One line per finding, each `ok`, `warning` or `problem`: which `.env` was
read, every setting, the state, the persona pack, and the server, asked once
for a made-up notification (a read, never an action: no claim, no command,
no report). A real run would work exactly when there is no `problem`.

Each check is a small function returning its findings; with
`KARAKURI_DECIDER=llm` the last one asks the model once with a tiny prompt
and reports its latency.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import httpx

from karakuri_agent.app.config import Settings
from karakuri_agent.errors import KarakuriError, ServerRejected, ServerSlow, Unreachable

# Matches the contract's id pattern, names nothing any server holds.
PROBE_ID = "notif-doctor-probe-0000"
OK, WARNING, PROBLEM = "ok", "warning", "problem"


@dataclass(frozen=True)
class Finding:
    level: str  # OK, WARNING or PROBLEM
    text: str

    def line(self) -> str:
        return f"{self.level}: {self.text}"


def check_env_file(settings: Settings, transport: httpx.BaseTransport | None = None) -> list[Finding]:
    source = settings.env_source
    if source is None:
        return []  # KARAKURI_ENV_FILE named a missing file: that is among the settings' problems
    if source.found and source.file_wins:
        return [Finding(OK, f"settings: read {source.path}; it wins over the environment (a fleet's agent)")]
    if source.found:
        return [Finding(OK, f"settings: read {source.path}; variables in the environment win over it")]
    return [Finding(OK, f"settings: no .env in the working directory {source.path.parent}; the environment only"
                        " (KARAKURI_ENV_FILE=/path/to/.env names another file)")]


def check_settings(settings: Settings, transport: httpx.BaseTransport | None = None) -> list[Finding]:
    found = [Finding(PROBLEM, message) for _, message in settings.problems]
    found += [Finding(WARNING, line) for line in settings.warnings]
    own_id = settings.self_agent_id
    if not own_id:
        found.append(Finding(WARNING, "KARAKURI_SELF_AGENT_ID is not set: the agent may count itself as a person"
                                      " met (its id is in every participant list, `(id: …)` after its name)"))
    elif not (own_id.isascii() and own_id.isdigit()):
        # The world's agent id is the Discord bot id it was registered with: digits only.
        found.append(Finding(WARNING, "KARAKURI_SELF_AGENT_ID is not the world's id (its ids are digits, the bot's"
                                      " Discord id, e.g. 1470446478261747854): the agent will not know itself in"
                                      " participant lists; copy the `(id: …)` after its name in a notification"))
    if settings.disabled and not any(name == "KARAKURI_AGENT_DISABLED" for name, _ in settings.problems):
        found.append(Finding(WARNING, "KARAKURI_AGENT_DISABLED is on: a run reads nothing and sends nothing"))
    if settings.webhook_url is None and not any(name == "DISCORD_WEBHOOK_URL" for name, _ in settings.problems):
        found.append(Finding(OK, "DISCORD_WEBHOOK_URL is not set: report lines go to stdout only"))
    if not any(f.level == PROBLEM for f in found):
        found.insert(0, Finding(OK, "every setting is valid"))
    return found


def check_state(settings: Settings, transport: httpx.BaseTransport | None = None) -> list[Finding]:
    """Open the state to read it, changing nothing (not even a directory's mode); a SQLite file not made yet is
    only checked for room, one that is there for being writable, as a run needs."""
    from karakuri_agent.domain.clock import utc_now
    from karakuri_agent.state.factory import open_state
    from karakuri_agent.state.sqlite.db import DB_FILENAME
    from karakuri_agent.state.urls import masked

    if settings.database_url is not None:
        where = f"PostgreSQL {masked(settings.database_url.get())}"
    else:
        path = settings.state_dir / DB_FILENAME
        where = f"SQLite file {path}"
        if not path.exists():
            parent = _nearest_existing(settings.state_dir)
            if parent.is_dir() and os.access(parent, os.W_OK | os.X_OK):
                return [Finding(OK, f"state: {where} does not exist yet; the first run creates it")]
            return [Finding(PROBLEM, f"state: {where} cannot be created: {parent} is not a writable directory"
                                     " (set KARAKURI_STATE_DIR)")]
    try:
        with open_state(settings, utc_now, read_only=True):
            pass
    except KarakuriError as exc:
        return [Finding(PROBLEM, f"state: {where} cannot be opened: {exc.message}")]
    if settings.database_url is None and not (os.access(settings.state_dir, os.W_OK | os.X_OK)
                                              and os.access(settings.state_dir / DB_FILENAME, os.W_OK)):
        return [Finding(PROBLEM, f"state: {where} can be read but not written: a run records its claim there"
                                 " (`log` and `day` still read it)")]
    return [Finding(OK, f"state: {where} opened")]


def _nearest_existing(path: Path) -> Path:
    path = path.absolute()
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def check_persona(settings: Settings, transport: httpx.BaseTransport | None = None) -> list[Finding]:
    from karakuri_agent.voice.persona_pack import load_persona, problems

    if settings.persona_dir is None:
        return [Finding(OK, f"persona: the bundled character ({load_persona().name})")]
    found = problems(settings.persona_dir)
    if found:
        return [Finding(PROBLEM, f"persona: {line}") for line in found]
    return [Finding(OK, f"persona: {settings.persona_dir} ({load_persona(settings.persona_dir).name}) is usable")]


def check_behaviour_state(settings: Settings, transport: httpx.BaseTransport | None = None) -> list[Finding]:
    """A warning per variable or rule the state remembers that the pack no longer has (kept, not erased)."""
    from karakuri_agent.app.behaviour_state import left_behind
    from karakuri_agent.behaviour.spec import EMPTY
    from karakuri_agent.domain.clock import utc_now
    from karakuri_agent.state.factory import open_state
    from karakuri_agent.state.sqlite.db import DB_FILENAME
    from karakuri_agent.voice.persona_pack import load_configured

    if settings.database_url is None and not (settings.state_dir / DB_FILENAME).exists():
        return []  # no state yet: nothing remembered
    try:
        behaviour = load_configured(settings.persona_dir).behaviour
        with open_state(settings, utc_now, read_only=True) as opened:
            memory = opened.store.behaviour_state()
    except KarakuriError:
        return []  # a pack or a state that cannot be read: said by their own checks
    return [Finding(WARNING, f"behaviour: {line}") for line in left_behind(behaviour or EMPTY, memory)]


def check_server(settings: Settings, transport: httpx.BaseTransport | None = None) -> list[Finding]:
    """Ask once for a notification nobody has: the answer says whether the URL and the key are right.

    A read, never retried and never an action: the contract's "not found"
    answer means the route exists and the key was accepted.
    """
    from karakuri_agent.app.client import KarakuriClient

    if settings.fixtures_dir is not None:
        return [Finding(OK, f"server: none; the API is served from the fixtures in {settings.fixtures_dir}")]
    if any(name in ("KARAKURI_API_BASE_URL", "KARAKURI_API_KEY") for name, _ in settings.problems):
        return [Finding(PROBLEM, "server: not asked (set KARAKURI_API_BASE_URL and KARAKURI_API_KEY first)")]
    url = f"{settings.api_base_url}/agents/notifications/{PROBE_ID}"
    asked = f"GET {url}"
    client = KarakuriClient(settings.api_base_url, settings.api_key, transport=transport,
                            timeout=settings.http_timeout, get_retry_budget=0, get_attempts=1,
                            secrets=settings.secrets)
    try:
        with client:
            client.get_notification(PROBE_ID)
    except ServerSlow:
        return [Finding(PROBLEM, f"server: slow: {asked} had no answer within {settings.http_timeout:g} s"
                                 " (KARAKURI_HTTP_TIMEOUT)")]
    except Unreachable as exc:
        return [Finding(PROBLEM, f"server: unreachable: {asked} failed ({exc.message.rpartition(': ')[2]});"
                                 " check KARAKURI_API_BASE_URL and the network")]
    except ServerRejected as exc:
        return [_judge(exc, asked)]
    return [Finding(PROBLEM, f"server: {asked} answered 200 for a notification that does not exist:"
                             " is KARAKURI_API_BASE_URL the world's REST base (ending in /api)?")]


def _judge(exc: ServerRejected, asked: str) -> Finding:
    if exc.status == 404 and exc.code == "not_found":
        return Finding(OK, f"server: the key was accepted ({asked} answered 404 not_found, as a made-up id should)")
    if exc.status in (401, 403):
        return Finding(PROBLEM, f"server: the key was refused ({exc.status} {exc.code}): check KARAKURI_API_KEY")
    if exc.status >= 500 or exc.status == 429:
        return Finding(PROBLEM, f"server: {asked} answered {exc.status} {exc.code}: the server is in trouble;"
                                " try again later")
    return Finding(PROBLEM, f"server: the base URL looks wrong: {asked} answered {exc.status} {exc.code}"
                            f" ({'not JSON' if exc.code.startswith('http_') or exc.code == 'invalid_response' else 'an answer the contract does not give'});"
                            " KARAKURI_API_BASE_URL is the world's REST base, e.g. https://karakuri.example.com/api")


def check_model(settings: Settings, transport: httpx.BaseTransport | None = None) -> list[Finding]:
    """With KARAKURI_DECIDER=llm: ask the model once with a tiny prompt, and say how long it took.

    A model that does not answer is a warning, not a problem: the rules decide
    whenever the model fails, so a real run still works.
    """
    if settings.decider != "llm" or settings.llm is None:
        return [Finding(OK, f"decider: {settings.decider} (no model is asked)")]
    from karakuri_agent.llm.chat import probe

    answered, seconds, message = probe(settings.llm)
    if not answered:
        return [Finding(WARNING, f"{message}; the rules will decide until it answers")]
    budget = settings.llm.timeout
    if seconds > budget / 2:
        return [Finding(WARNING, f"{message}: more than half of KARAKURI_LLM_TIMEOUT={budget:g} s for one"
                                 " tiny request; a notification's ask may run out of time")]
    return [Finding(OK, message)]


Check = Callable[[Settings, "httpx.BaseTransport | None"], list[Finding]]
CHECKS: tuple[Check, ...] = (check_env_file, check_settings, check_state, check_persona, check_behaviour_state,
                             check_server, check_model)


def diagnose(settings: Settings, transport: httpx.BaseTransport | None = None) -> list[Finding]:
    """Every check's findings, in order; a real run would work when none is a PROBLEM."""
    return [finding for check in CHECKS for finding in check(settings, transport)]


def diagnose_fleet(path: Path, environ: dict[str, str] | None = None,
                   transport: httpx.BaseTransport | None = None) -> list[tuple[str, Finding]]:
    """`doctor --fleet`: every agent's findings, named by its env file, then what keeps two agents from being
    two (app/fleet.py). A fleet file that cannot be read is a ConfigError (nothing checked)."""
    from karakuri_agent.app.fleet import apart, env_files, read_member

    env = dict(os.environ if environ is None else environ)
    members = [read_member(env_file, env, lenient=True) for env_file in env_files(path)]
    found = [(member.env_file.name, finding) for member in members for finding in diagnose(member.settings, transport)]
    return found + [(path.name, Finding(PROBLEM, problem)) for problem in apart(members)]
