"""`karakuri-agent demo`: replay a recorded session offline, as a dry run of the real thing.

The whole cycle runs (decide, claim, command, record) against the recorded
fixtures transport, in a throwaway state directory, with no webhook: nothing
leaves the machine and nothing of the user's state is touched. Each message
is replayed at the time it was recorded (`session.json`), so the run is the
same every time and promises fall due as they did.
"""

from __future__ import annotations

import json
import tempfile
from datetime import datetime
from pathlib import Path
from typing import Iterator

from .config import load_settings
from .cycle import HandleResult, handle
from .errors import UsageError
from .fixtures import bundled_fixtures_dir


def replay(fixtures_dir: Path | None = None) -> Iterator[tuple[str, HandleResult]]:
    """Yield (message, result) for each message of the session, in order."""
    directory = fixtures_dir or bundled_fixtures_dir()
    try:
        session = json.loads((directory / "session.json").read_text(encoding="utf-8"))
        me, messages = session.get("self", {}), session["messages"]
    except (OSError, ValueError, KeyError, AttributeError) as exc:
        raise UsageError(f"{directory / 'session.json'} is not a readable recorded session ({exc})") from None
    with tempfile.TemporaryDirectory(prefix="karakuri-demo-") as state:
        settings = load_settings(
            {
                "KARAKURI_STATE_DIR": state,
                "KARAKURI_SELF_AGENT_ID": me.get("id", ""),
                "KARAKURI_SELF_NAME": me.get("name", ""),
            },
            env_file=Path(state) / ".env",  # never read the user's .env
            fixtures_dir=directory,
        )
        for entry in messages:
            at = datetime.fromisoformat(entry["at"].replace("Z", "+00:00"))
            yield entry["message"], handle(entry["message"], settings, clock=lambda at=at: at, post=False)
