"""`karakuri-agent day`: open the state, read the day, build it, render it as asked."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from karakuri_agent.domain.clock import utc_now
from karakuri_agent.errors import ConfigError
from karakuri_agent.state.factory import open_state
from karakuri_agent.app.day.model import Day, build
from karakuri_agent.app.day.read import records_for

if TYPE_CHECKING:
    from karakuri_agent.app.config import Settings


def read_day(settings: Settings, day: date | None, *, empty: bool = False) -> Day:
    """The day named (`read.parse_date`, checked before anything is opened), or the latest one.

    `empty`: there is no state yet, and reading must not create one: the day
    is built from an empty in-memory state, so every view keeps its shape.
    """
    if empty:
        from karakuri_agent.state.memory import MemoryState

        return build(records_for(MemoryState(utc_now).store, day))
    with open_state(settings, utc_now, read_only=True) as state:
        return build(records_for(state.store, day))


def show(settings: Settings, wanted: date | None, *, as_json: bool, html_file: Path | None,
         empty: bool = False) -> Iterable[str]:
    """The lines to print; with `html_file`, the page is written there first."""
    day = read_day(settings, wanted, empty=empty)
    if html_file is not None:
        from karakuri_agent.app.day.page import render

        try:
            html_file.write_text(render(day), encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot write the page to {html_file}: {exc.strerror}") from None
    if as_json:
        from karakuri_agent.app.day.as_json import to_json

        from karakuri_agent.outside import dumps_shown

        return dumps_shown(to_json(day), indent=2).split("\n")  # line by line, as the text is printed
    from karakuri_agent.app.day.text import lines

    return list(lines(day))
