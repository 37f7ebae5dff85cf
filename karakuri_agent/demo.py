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
import os
import shutil
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Iterator

from .config import load_settings
from .cycle import HandleResult, handle
from .fixtures import bundled_fixtures_dir, load_session
from .persona import PERSONA_DIR_ENV, Persona, load_configured, load_persona


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


def replay(fixtures_dir: Path | None = None, state_dir: Path | None = None) -> Iterator[tuple[str, HandleResult]]:
    """Yield (message, result) for each message of the session, in order.

    KARAKURI_PERSONA_DIR picks the voice, as for `handle`; the bundled
    recording is then replayed as if made by that pack's character.
    """
    pack = os.environ.get(PERSONA_DIR_ENV, "").strip()
    with ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="karakuri-demo-")))
        directory = fixtures_dir or bundled_fixtures_dir()
        if directory == bundled_fixtures_dir():
            directory = _recast(directory, load_configured(Path(pack) if pack else None), scratch / "recording")
        session = load_session(directory, required=True)
        state = state_dir or scratch / "state"
        settings = load_settings(
            {
                "KARAKURI_STATE_DIR": str(state),
                "KARAKURI_SELF_AGENT_ID": session.me.get("id", ""),
                "KARAKURI_SELF_NAME": session.me.get("name", ""),
                PERSONA_DIR_ENV: pack,
            },
            env_file=state / ".env",  # never read the user's .env
            fixtures_dir=directory,
        )
        for at, message in session.messages:
            yield message, handle(message, settings, clock=lambda at=at: at, post=False)
