"""The end of a benchmark's `--smoke` run: did its path run? (benchmarks/smoke.py runs them all in CI.)

A smoke run is a benchmark at its smallest sizes, so that a restructuring of
the package cannot break it unseen. It judges only that the path ran (no
notification handled, a crash, nothing read), never a speed or a score:
those are the full run's to report. A benchmark that needs what the machine
lacks says `skipped: <why>` and exits 0; one that lacks it for one part only
says `<part>: skipped: <why>` and runs the rest.
"""

from __future__ import annotations

import sys
from typing import NoReturn

SKIPPED = "skipped: "


def require(*checks: tuple[bool, str]) -> None:
    """Exit 1 naming every check that failed; each is (holds, what went wrong when it does not)."""
    failed = [what for holds, what in checks if not holds]
    for what in failed:
        print(f"smoke: broken: {what}", file=sys.stderr)
    if failed:
        raise SystemExit(1)


def skip(why: str) -> NoReturn:
    """The whole benchmark cannot run here: say why, exit 0."""
    print(SKIPPED + why, flush=True)
    raise SystemExit(0)


def skip_part(part: str, why: str) -> None:
    """One part cannot run here; the rest does."""
    print(f"{part}: {SKIPPED}{why}", flush=True)
