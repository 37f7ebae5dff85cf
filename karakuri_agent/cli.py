"""Two thin click front ends: `karakuri` (the wrapper) and `karakuri-agent`.

No logic lives here: parse arguments, call one function, print, map errors to
exit codes (0 done, 1 the server said no or the outcome is unknown, 2 bad
input or configuration, nothing sent). Errors are one line; no traceback
reaches the user unless KARAKURI_DEBUG=1.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import click

from .errors import EXIT_FAILURE, EXIT_USAGE, KarakuriError, ServerRejected, UsageError

if TYPE_CHECKING:
    from datetime import datetime


def _print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _fail(message: str, code: int) -> None:
    click.echo(f"{click.get_current_context().find_root().info_name}: error: {message}", err=True)
    sys.exit(code)


def handles_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Map the error family to output and exit codes, in one place."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ServerRejected as exc:
            _print_json(exc.to_json())
            sys.exit(exc.exit_code)
        except KarakuriError as exc:
            if exc.exit_code == EXIT_USAGE:
                _fail(exc.message, exc.exit_code)
            _print_json(exc.to_json())
            sys.exit(exc.exit_code)
        except (click.ClickException, click.exceptions.Exit):
            raise
        except Exception as exc:  # a bug: say so in one line, keep the traceback for debugging
            if os.environ.get("KARAKURI_DEBUG") == "1":
                raise
            _fail(f"internal error ({type(exc).__name__}); rerun with KARAKURI_DEBUG=1 for details", EXIT_FAILURE)

    return wrapper


def parse_params(text: str) -> dict[str, Any]:
    """Exactly one JSON object, or UsageError."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"params must be one JSON object: {exc.msg} at position {exc.pos}") from None
    if not isinstance(value, dict):
        raise UsageError(f"params must be one JSON object, not {type(value).__name__}")
    return value


# -- karakuri: the wrapper for LLM runtimes ---------------------------------------
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def karakuri() -> None:
    """Read a Karakuri World notification with its decision context, or act on it once."""


@karakuri.command("get_notification")
@click.argument("notification_id")
@handles_errors
def get_notification(notification_id: str) -> None:
    """Print the notification with `nikechan_preprocess` added."""
    from . import wrapper
    from .config import load_settings

    _print_json(wrapper.get_notification(load_settings(), notification_id))


@karakuri.command("command")
@click.argument("notification_id")
@click.argument("command")
@click.argument("params_json", default="{}")
@handles_errors
def command(notification_id: str, command: str, params_json: str) -> None:
    """Send COMMAND (one of the notification's choices) with PARAMS_JSON, at most once."""
    from . import wrapper
    from .config import load_settings

    _print_json(wrapper.run_command(load_settings(), notification_id, command, parse_params(params_json)))


# -- karakuri-agent: the autonomous agent ------------------------------------------
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-v", "--verbose", is_flag=True,
              help="Log one line per notification (id, decision, outcome, ms) to stderr.")
def agent(verbose: bool) -> None:
    """The autonomous Karakuri World agent: one notification in, at most one action out."""
    if verbose:
        import logging

        handler = logging.StreamHandler()  # stderr: stdout stays the report and the records
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        package = logging.getLogger("karakuri_agent")
        package.addHandler(handler)
        package.setLevel(logging.INFO)


@agent.command("log")
@click.option("-n", "--limit", default=20, show_default=True, type=click.IntRange(1, 1000))
@click.option("--json", "as_json", is_flag=True, help="Print the entries as JSON.")
@handles_errors
def log(limit: int, as_json: bool) -> None:
    """Show the recent activity, newest last."""
    from . import history
    from .config import load_settings

    entries = history.recent(load_settings(require_api=False), limit)
    if as_json:
        _print_json(entries)
    else:
        for line in history.format_entries(entries):
            click.echo(line)


@agent.command("handle")
@click.argument("body", required=False)
@click.option("--dry-run", is_flag=True, help="Decide and print; send no command and post nothing.")
@click.option("--fixtures", "fixtures_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Serve the API from recorded fixtures in DIR (nothing leaves the machine).")
@click.option("--record", "record_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Save this run's exchanges with the server as fixtures in DIR (secrets removed).")
@click.option("--json", "as_json", is_flag=True, help="Print the full decision record as JSON.")
@click.option("--explain", is_flag=True, help="Print the reason for the decision.")
@click.option("--clock-start", hidden=True, help="Run the agent's clock from this ISO 8601 time (simulations).")
@handles_errors
def handle(body: str | None, dry_run: bool, fixtures_dir: Path | None, record_dir: Path | None,
           as_json: bool, explain: bool, clock_start: str | None) -> None:
    """Handle one Discord message (BODY, or stdin): at most one command, one report line."""
    from .config import load_settings
    from .cycle import handle as run_cycle

    if body is None:
        body = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()
    if record_dir is not None and fixtures_dir is not None:
        raise UsageError("--record and --fixtures cannot be combined")
    settings = load_settings(fixtures_dir=fixtures_dir)
    result = run_cycle(body, settings, dry_run=dry_run, record_dir=record_dir, clock=_clock(clock_start))
    _print_result(result, as_json=as_json, explain=explain)


def _clock(start: str | None) -> Callable[[], datetime]:
    """The wall clock, or one that starts at `start` and then ticks in real time."""
    from .db import utc_now
    from .models import parse_timestamp

    if start is None:
        return utc_now
    began = parse_timestamp(start)
    if began is None:
        raise UsageError(f"--clock-start must be an ISO 8601 time, got {start!r}")
    offset = began - utc_now()
    return lambda: utc_now() + offset


@agent.command("demo")
@click.option("--fixtures", "fixtures_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="A recorded session to replay instead of the bundled one.")
@click.option("--json", "as_json", is_flag=True, help="Print each decision record as JSON.")
@handles_errors
def demo(fixtures_dir: Path | None, as_json: bool) -> None:
    """Replay a recorded session offline and show each decision, its reason and its report."""
    from .demo import replay

    for message, result in replay(fixtures_dir):
        if not as_json:
            click.echo(f"\n▶ {message.splitlines()[0][:70]}")
        _print_result(result, as_json=as_json, explain=True)


def _print_result(result: Any, *, as_json: bool, explain: bool) -> None:
    """The report is always the last line of stdout."""
    if as_json:
        click.echo(json.dumps(result.record(), ensure_ascii=False))
        return
    decision = result.decision
    if explain and decision is not None:
        if decision.command:
            params = json.dumps(decision.params, ensure_ascii=False)
            click.echo(f"  decision: {decision.command} {params}")
        click.echo(f"  reason: {decision.reason}")
        for rejected in result.rejected:
            click.echo(f"  skipped: {rejected['command']} ({rejected['problem']})")
    click.echo(result.report)


@agent.command("gc")
@click.option("--keep-days", type=click.IntRange(min=1), required=True,
              help="Delete history older than this many days (the ledger, people and places are kept).")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@handles_errors
def gc(keep_days: int, as_json: bool) -> None:
    """Forget old history; keep the ledger, people, places and what the next run needs."""
    from .config import load_settings
    from .retention import collect

    deleted = collect(load_settings(require_api=False), keep_days)
    if as_json:
        _print_json(deleted)
    else:
        counts = ", ".join(f"{table} {count}" for table, count in deleted.items() if table != "cutoff")
        click.echo(f"deleted rows older than {deleted['cutoff']}: {counts}")
