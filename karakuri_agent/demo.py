"""`karakuri-agent demo`: replay a recorded session offline, as a dry run of the real thing.

The whole cycle runs (decide, claim, command, record) against the recorded
fixtures transport, with no webhook: nothing leaves the machine. The state is
a throwaway directory unless `state_dir` names one (then `log` can show the
run afterwards). Each message is replayed at the time it was recorded
(`session.json`), so the run is the same every time and promises fall due as
they did.
"""

from __future__ import annotations

import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Iterator

from .config import load_settings
from .cycle import HandleResult, handle
from .fixtures import bundled_fixtures_dir, load_session


def replay(fixtures_dir: Path | None = None, state_dir: Path | None = None) -> Iterator[tuple[str, HandleResult]]:
    """Yield (message, result) for each message of the session, in order."""
    directory = fixtures_dir or bundled_fixtures_dir()
    session = load_session(directory, required=True)
    with ExitStack() as stack:
        state = state_dir or Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="karakuri-demo-")))
        settings = load_settings(
            {
                "KARAKURI_STATE_DIR": str(state),
                "KARAKURI_SELF_AGENT_ID": session.me.get("id", ""),
                "KARAKURI_SELF_NAME": session.me.get("name", ""),
            },
            env_file=state / ".env",  # never read the user's .env
            fixtures_dir=directory,
        )
        for at, message in session.messages:
            yield message, handle(message, settings, clock=lambda at=at: at, post=False)
