"""`karakuri-agent demo`: replay a recorded session offline, as a dry run of the real thing.

The whole cycle runs (decide, claim, command, record) against the recorded
fixtures transport, with no webhook: nothing leaves the machine. The state is
a throwaway directory unless `state_dir` names one (then `log` can show the
run afterwards). Each message is replayed at the time it was recorded
(`session.json`), so the run is the same every time and promises fall due as
they did.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from contextlib import ExitStack
from datetime import datetime
from pathlib import Path
from typing import Callable, Iterator

from karakuri_agent.app.config import demo_environment, load_settings
from karakuri_agent.app.cycle import HandleResult, handle
from karakuri_agent.app.fixtures import bundled_fixtures_dir
from karakuri_agent.app.session import load_session
from karakuri_agent.app.state_dirs import for_fixtures, live_state_dir
from karakuri_agent.mind.persona import Persona
from karakuri_agent.voice.persona_pack import PERSONA_DIR_ENV, load_configured, load_persona

# What `demo` takes from the user's configuration: who decides and how to reach the model.
DECIDER_SETTINGS = frozenset({"KARAKURI_DECIDER", "KARAKURI_LLM_BASE_URL", "KARAKURI_LLM_API_KEY", "KARAKURI_LLM_MODEL",
                              "KARAKURI_LLM_TIMEOUT", "KARAKURI_LLM_MAX_TOKENS", "KARAKURI_LLM_TEMPERATURE"})


def _recast(recording: Path, persona: Persona, into: Path) -> Path:
    """The bundled recording (made by the bundled character) with that
    character's names replaced by ``persona``'s, so a demo of another pack
    does not address or quote someone else."""
    recorded = load_persona()
    if persona.name == recorded.name:
        return recording
    shutil.copytree(recording, into)
    swaps = [(recorded.name, persona.name), (recorded.short_name, persona.short_name)]
    for path in into.rglob("*.json"):
        text = path.read_text(encoding="utf-8")
        for old, new in swaps:
            text = text.replace(json.dumps(old, ensure_ascii=False)[1:-1], json.dumps(new, ensure_ascii=False)[1:-1])
        path.write_text(text, encoding="utf-8")
    return into


def decider_settings(decider: str | None = None) -> dict[str, str]:
    """Who decides, and the model's settings: from the environment, then `.env`, and nothing else.

    The demo never reads the rest of the user's configuration (no Karakuri
    key, no webhook), but a model configured for `handle` is the one the
    user wants to watch; `decider` (the --decider option) wins.
    """
    env = demo_environment()
    chosen = {name: value for name, value in env.items() if name in DECIDER_SETTINGS and value.strip()}
    if decider:
        chosen["KARAKURI_DECIDER"] = decider
    return chosen


def replay(fixtures_dir: Path | None = None, state_dir: Path | None = None,
           decider: str | None = None, at: datetime | None = None) -> Iterator[tuple[str, HandleResult]]:
    """Yield (message, result) for each message of the session, in order.

    KARAKURI_PERSONA_DIR picks the voice, as for `handle`; the bundled
    recording is then replayed as if made by that pack's character.
    KARAKURI_DECIDER (or `decider`) picks who decides (decider_settings).
    `at` moves the whole session to start then (fixture_shift.py): each
    message, its notification's times and its text's clock alike.
    """
    pack = demo_environment(with_env_file=False).get(PERSONA_DIR_ENV, "").strip()
    with ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="karakuri-demo-")))
        directory = fixtures_dir or bundled_fixtures_dir()
        if directory == bundled_fixtures_dir():
            directory = _recast(directory, load_configured(Path(pack) if pack else None), scratch / "recording")
        if at is not None:
            from karakuri_agent.app.fixture_shift import shifted_copy

            directory = shifted_copy(directory, load_session(directory, required=True), at, scratch / "shifted")
        session = load_session(directory, required=True)
        state = for_fixtures(state_dir, live_state_dir(demo_environment())) if state_dir else scratch / "state"
        settings = load_settings(
            {
                "KARAKURI_STATE_DIR": str(state),
                "KARAKURI_SELF_AGENT_ID": session.me.get("id", ""),
                "KARAKURI_SELF_NAME": session.me.get("name", ""),
                PERSONA_DIR_ENV: pack,
                **decider_settings(decider),
            },
            env_file=state / ".env",  # never read the user's .env
            fixtures_dir=directory,
        )
        for at, message in session.messages:
            yield message, handle(message, settings, clock=_stopped_at(at), post=False)


def _stopped_at(at: datetime) -> Callable[[], datetime]:
    """A clock that says `at`: each recorded message is handled at the time it was recorded."""
    return lambda: at
