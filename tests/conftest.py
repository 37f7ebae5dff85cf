"""Shared test fixtures (a private state dir, a configured environment, loopback servers) and the lanes.

Every test runs in one lane, so a change can be checked in a lane that takes
seconds and CI still runs them all (`python -m pytest` runs every lane):

- `unit`: in one process, no server, no subprocess, no browser, no database;
- `fuzz`: property tests (hypothesis); `--hypothesis-profile quick` caps
  each at 10 examples, the default profile runs each test's own count;
- `process`: real processes, loopback servers, timeouts;
- `life`: whole simulated days (the offline town, the engine town, the
  conversation benchmark);
- `browser`: the day page in headless Chromium;
- `postgres`: the PostgreSQL backend (skipped without a database).

A module or a test names its lane with a marker (`pytestmark =
pytest.mark.process`); what names none is put in a lane by what it uses
(`pytest_collection_modifyitems` below). README's "For developers" shows the
commands.
"""

from __future__ import annotations

import copy
import os
import sys
import uuid
from pathlib import Path
from typing import Any, Iterator

import pytest
from hypothesis import settings

# Hypothesis profiles: "default" keeps each test's own example count; "quick" caps it (see the lanes above).
QUICK_EXAMPLES = 10
settings.register_profile("quick", max_examples=QUICK_EXAMPLES, deadline=None)

from testing.samples import (
    BASE_URL, API_KEY, SELF_ID, SELF_NAME, CONVERSATION_REQUEST, NID, GET_URL, POST_URL, in_schema,
)


def _files_under(root: Path) -> dict[str, float]:
    """Every file under `root` (recursively) with its modification time; {} when `root` is not there."""
    if not root.is_dir():
        return {}
    return {str(p): p.stat().st_mtime for p in root.rglob("*") if p.is_file()}


# What the suite may leave in the directory it was started from: pytest's and hypothesis's caches.
_ALLOWED_IN_WORKING_DIR = {".pytest_cache", ".hypothesis", "__pycache__"}


@pytest.fixture(scope="session", autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Path]:
    """Every test, and every process a test starts, sees a home, a data dir and a state dir of its own.

    HOME, XDG_DATA_HOME (what platformdirs' user data dir is made of) and
    KARAKURI_STATE_DIR point into a temporary directory for the whole session,
    so a test that forgets its `env` fixture cannot write into the user's
    real state. At the end the user's real data dir and the working directory
    are checked: anything new there fails the run, naming the file.
    """
    from platformdirs import user_data_dir

    real_data = Path(user_data_dir("karakuri-agent", appauthor=False))
    working = Path(request.config.invocation_params.dir)
    data_before = _files_under(real_data)
    working_before = {p.name for p in working.iterdir()}
    root = tmp_path_factory.mktemp("home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HOME", str(root))
        patch.setenv("XDG_DATA_HOME", str(root / ".local" / "share"))
        patch.setenv("XDG_CONFIG_HOME", str(root / ".config"))
        patch.setenv("KARAKURI_STATE_DIR", str(root / "state"))
        yield root
    changed = sorted(path for path, mtime in _files_under(real_data).items() if data_before.get(path) != mtime)
    appeared = sorted(name for name in {p.name for p in working.iterdir()} - working_before
                      if name not in _ALLOWED_IN_WORKING_DIR)
    assert not changed, f"the suite wrote into the user's real data directory: {changed}"
    assert not appeared, f"the suite left files in the working directory {working}: {appeared}"


@pytest.fixture(autouse=True)
def fresh_model_servers() -> Iterator[None]:
    """What a model server was found to refuse is remembered for the process: not from test to test."""
    yield
    chat = sys.modules.get("karakuri_agent.llm.chat")
    if chat is not None:
        chat.forget_servers()


@pytest.fixture
def notification() -> dict[str, Any]:
    """A fresh copy of the contract's example notification (safe to mutate)."""
    return copy.deepcopy(CONVERSATION_REQUEST)


@pytest.fixture
def api(notification):
    """A mocked API: the example notification and an accepting command endpoint."""
    import respx

    with respx.mock(assert_all_called=False) as mock:
        mock.get(GET_URL).respond(200, json=notification)
        mock.post(POST_URL).respond(200, json={"ok": True, "message": "会話を開始しました"})
        yield mock


@pytest.fixture
def state_dir(tmp_path: Path) -> Path:
    return tmp_path / "state"


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, state_dir: Path, tmp_path: Path) -> dict[str, str]:
    """A configured environment with no .env file around and no webhook."""
    monkeypatch.chdir(tmp_path)
    for name in ("KARAKURI_FIXTURES_DIR", "DISCORD_WEBHOOK_URL", "KARAKURI_WORLD_CONTEXT_FILE",
                 "KARAKURI_AGENT_DISABLED", "KARAKURI_COOLDOWN_SECONDS", "KARAKURI_PERSONA_FILE",
                 "KARAKURI_PERSONA_DIR", "KARAKURI_TRANSFER_POLICY", "KARAKURI_DATABASE_URL"):
        monkeypatch.delenv(name, raising=False)
    values = {
        "KARAKURI_API_BASE_URL": BASE_URL,
        "KARAKURI_API_KEY": API_KEY,
        "KARAKURI_STATE_DIR": str(state_dir),
        "KARAKURI_SELF_AGENT_ID": SELF_ID,
        "KARAKURI_SELF_NAME": SELF_NAME,
        "KARAKURI_GET_RETRY_BUDGET": "0.5",
    }
    for name, value in values.items():
        monkeypatch.setenv(name, value)
    return values



# -- PostgreSQL: tests that need it run when KARAKURI_TEST_DATABASE_URL is set ------------
TEST_DATABASE_URL = os.environ.get("KARAKURI_TEST_DATABASE_URL", "")
NO_POSTGRES = ("PostgreSQL backend not tested: KARAKURI_TEST_DATABASE_URL is not set"
               " (scripts/with-postgres.sh runs a command with a throwaway server)")



@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A URL to an empty schema in the test database (skipped loudly without one), dropped afterwards."""
    if not TEST_DATABASE_URL:
        pytest.skip(NO_POSTGRES)
    import psycopg

    schema = f"test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(TEST_DATABASE_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    yield in_schema(TEST_DATABASE_URL, schema)
    with psycopg.connect(TEST_DATABASE_URL, autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest) -> str:
    """KARAKURI_DATABASE_URL for each durable backend: "" (the SQLite file), then the test PostgreSQL."""
    return request.getfixturevalue("postgres_url") if request.param == "postgres" else ""


@pytest.fixture
def any_backend(env: dict[str, str], database_url: str, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """`env` with the state on each durable backend in turn."""
    monkeypatch.setenv("KARAKURI_DATABASE_URL", database_url)
    return {**env, "KARAKURI_DATABASE_URL": database_url}


# -- real processes against a loopback server (testing/runs.py runs them) -----------------------------------
@pytest.fixture
def loopback() -> Iterator[Any]:
    """A loopback Karakuri API on 127.0.0.1 serving the sample notification; it records every request.

    A module that needs other notifications defines its own `loopback`, which `proc_env` then uses."""
    from testing.loopback import running_api

    with running_api() as server:
        server.notifications[NID] = CONVERSATION_REQUEST
        yield server


@pytest.fixture
def proc_env(loopback: Any, tmp_path: Path) -> dict[str, str]:
    """A child process's environment against `loopback`: none of the caller's settings, a private state dir."""
    from testing.processes import loopback_env

    return loopback_env(loopback.base_url, tmp_path / "state")


@pytest.fixture
def model_env(proc_env: dict[str, str]) -> dict[str, str]:
    """`proc_env` with a language model deciding (its address is given per run: testing/model_runs.handle)."""
    from testing.model_runs import MODEL_KEY

    return {**proc_env, "KARAKURI_SELF_NAME": SELF_NAME, "KARAKURI_DECIDER": "llm", "KARAKURI_LLM_MODEL": "test-model",
            "KARAKURI_LLM_API_KEY": MODEL_KEY}


@pytest.fixture
def home(tmp_path: Path) -> dict[str, str]:
    """A user with no configuration at all: HOME and XDG dirs inside tmp_path, no .env around."""
    from testing.runs import clean_env

    return clean_env(tmp_path / "home")


@pytest.fixture
def bare(env: dict[str, str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """`env` without the URL and key: each test writes what it needs into ./.env."""
    for name in ("KARAKURI_API_BASE_URL", "KARAKURI_API_KEY", "KARAKURI_STATE_DIR"):
        monkeypatch.delenv(name)
    return tmp_path


# -- the lanes --------------------------------------------------------------------------------------------
LANES = ("unit", "fuzz", "process", "life", "browser", "postgres")
PROCESS_FIXTURES = {"loopback", "proc_env", "model_env", "home"}


def lane_of(item: pytest.Item) -> str:
    """The lane a test runs in: its own marker, else what it uses (a database, a server, hypothesis)."""
    named = [lane for lane in LANES if item.get_closest_marker(lane) is not None]
    if named:
        return named[0]
    callspec = getattr(item, "callspec", None)
    fixtures = set(getattr(item, "fixturenames", ()))
    if "postgres_url" in fixtures or (callspec is not None and "postgres" in callspec.params.values()):
        return "postgres"
    if fixtures & PROCESS_FIXTURES:
        return "process"
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        return "fuzz"
    return "unit"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    quick = settings.get_current_profile_name() == "quick"  # the profile `--hypothesis-profile` loaded
    for item in items:
        lane = lane_of(item)
        if item.get_closest_marker(lane) is None:
            item.add_marker(getattr(pytest.mark, lane))
        test = getattr(item, "obj", None)
        if quick and getattr(test, "is_hypothesis_test", False):
            # A test's own @settings(max_examples=N) outranks any profile: capped here, for this run only.
            own = getattr(test, "_hypothesis_internal_use_settings", None)
            if own is not None and own.max_examples > QUICK_EXAMPLES:
                test._hypothesis_internal_use_settings = settings(own, max_examples=QUICK_EXAMPLES)
