"""`karakuri-agent day`: open the state, read the day, build it, render it as asked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

from ..clock import utc_now
from ..errors import ConfigError
from ..state.factory import open_state
from .model import Day, build
from .read import parse_date, records_for

if TYPE_CHECKING:
    from ..config import Settings


def read_day(settings: Settings, date_text: str | None, *, empty: bool = False) -> Day:
    """The day named (a wrong format is a usage error before the state is opened), or the latest one.

    `empty`: there is no state yet, and reading must not create one: the day
    is built from an empty in-memory state, so every view keeps its shape.
    """
    day = parse_date(date_text) if date_text is not None else None
    if empty:
        from ..state.memory import MemoryState

        return build(records_for(MemoryState(utc_now).store, day))
    with open_state(settings, utc_now) as state:
        return build(records_for(state.store, day))


def show(settings: Settings, date_text: str | None, *, as_json: bool, html_file: Path | None,
         empty: bool = False) -> Iterable[str]:
    """The lines to print; with `html_file`, the page is written there first."""
    day = read_day(settings, date_text, empty=empty)
    if html_file is not None:
        from .page import render

        try:
            html_file.write_text(render(day), encoding="utf-8")
        except OSError as exc:
            raise ConfigError(f"cannot write the page to {html_file}: {exc.strerror}") from None
    if as_json:
        from .as_json import to_json

        return [json.dumps(to_json(day), ensure_ascii=False, indent=2)]
    from .text import lines

    return list(lines(day))
