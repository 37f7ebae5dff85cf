"""Two thin click front ends: `karakuri` (the wrapper) and `karakuri-agent`.

No logic lives here: parse arguments, call one function, print, map errors to
exit codes (0 done, 1 the server said no or the outcome is unknown, 2 bad
input or configuration, nothing sent). Errors are one line; no traceback
reaches the user unless KARAKURI_DEBUG=1. A reader that stops early
(`demo | head -1`) ends the program quietly, as Python's documentation
recommends for a closed pipe (exit 1, nothing on stderr).
"""

from __future__ import annotations

import functools
import json
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import click

from .errors import EXIT_FAILURE, EXIT_USAGE, KarakuriError, ServerRejected, UsageError
from .retention import MAX_KEEP_DAYS

PACKAGE = "karakuri-agent"

if TYPE_CHECKING:
    from datetime import datetime


def _print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _program() -> str:
    """The program's own name (not argv[0], which is `-c` or a path when run another way)."""
    return click.get_current_context().find_root().command.name or PACKAGE


def _fail(message: str, code: int) -> None:
    click.echo(f"{_program()}: error: {message}", err=True)
    sys.exit(code)


def _reader_left() -> None:
    """The reader closed the pipe: stop writing, and keep the exit flush from complaining."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(EXIT_FAILURE)


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
        except BrokenPipeError:
            _reader_left()
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


class _WholeHelpCommand(click.Command):
    """A command listed in its group's help with its whole first paragraph, not cut at 45 characters."""

    def get_short_help_str(self, limit: int = 45) -> str:
        if self.short_help:
            return self.short_help
        return " ".join((self.help or "").split("\n\n")[0].split())


class _Programs(click.Group, _WholeHelpCommand):
    command_class = _WholeHelpCommand
    get_short_help_str = _WholeHelpCommand.get_short_help_str  # a group listed in its parent's help, too


_GROUP = {"cls": _Programs, "context_settings": {"help_option_names": ["-h", "--help"]}}


# -- karakuri: the wrapper for LLM runtimes ---------------------------------------
@click.group("karakuri", **_GROUP)
@click.version_option(package_name=PACKAGE)
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
    """Send COMMAND (one of the notification's choices) with PARAMS_JSON, at most once.

    KARAKURI_AGENT_DISABLED=1 refuses it (exit 2, nothing sent); `get_notification`
    still reads, since reading is not an action.
    """
    from . import wrapper
    from .config import load_settings

    _print_json(wrapper.run_command(load_settings(), notification_id, command, parse_params(params_json)))


# -- karakuri-agent: the autonomous agent ------------------------------------------
@click.group(PACKAGE, **_GROUP)
@click.version_option(package_name=PACKAGE)
@click.option("-v", "--verbose", is_flag=True,
              help="Log one line per notification (id, decision, outcome, ms) to stderr.")
def agent(verbose: bool) -> None:
    """The autonomous Karakuri World agent: one notification in, at most one action out."""
    if verbose:
        import logging

        _log_to_stderr("karakuri_agent", logging.INFO)


def _log_to_stderr(name: str, level: int) -> None:
    """Log `name` at `level` to stderr: stdout stays the report and the records."""
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    logger.setLevel(level)


@agent.command("log")
@click.option("-n", "--limit", default=20, show_default=True, type=click.IntRange(1, 1000))
@click.option("--json", "as_json", is_flag=True, help="Print the entries as JSON.")
@handles_errors
def log(limit: int, as_json: bool) -> None:
    """Show the recent activity, newest last: notifications, commands, dry runs and report lines."""
    from . import history
    from .config import load_settings

    settings = load_settings(require_api=False)
    entries = history.recent(settings, limit)
    if not entries:
        click.echo(history.why_empty(settings.state_dir), err=True)
    if as_json:
        _print_json(entries)
    else:
        for line in history.format_entries(entries):
            click.echo(line)


@agent.command("handle")
@click.argument("body", required=False)
@click.option("--dry-run", is_flag=True, help="Decide and print the command that would be sent; send nothing, post nothing.")
@click.option("--fixtures", "fixtures_dir", metavar="DIR|bundled",
              help="Serve the API from recorded fixtures in DIR (`bundled`: the session shipped with the"
                   " package); nothing leaves the machine, the state is throwaway unless KARAKURI_STATE_DIR is set.")
@click.option("--at", "at_text", metavar="TIME",
              help="With --fixtures: the time of the run (ISO 8601; default: when the message was recorded).")
@click.option("--record", "record_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Save this run's exchanges with the server and the message as fixtures in DIR (secrets removed).")
@click.option("--json", "as_json", is_flag=True, help="Print the full decision record as JSON.")
@click.option("--explain", is_flag=True, help="Print the reason for the decision.")
@click.option("--clock-start", hidden=True, help="Run the agent's clock from this ISO 8601 time (simulations).")
@handles_errors
def handle(body: str | None, dry_run: bool, fixtures_dir: str | None, at_text: str | None,
           record_dir: Path | None, as_json: bool, explain: bool, clock_start: str | None) -> None:
    """Handle one Discord message (BODY, or stdin): at most one command, one report line."""
    from contextlib import nullcontext

    from .config import load_settings
    from .cycle import handle as run_cycle

    if body is None:
        body = "" if sys.stdin is None or sys.stdin.isatty() else sys.stdin.read()
    if record_dir is not None and fixtures_dir is not None:
        raise UsageError("--record and --fixtures cannot be combined")
    settings = load_settings(fixtures_dir=Path(fixtures_dir) if fixtures_dir else None)
    if settings.fixtures_dir is None:
        if at_text is not None:
            raise UsageError("--at only applies to a run on --fixtures (a real run happens now)")
        run = nullcontext((settings, _clock(clock_start)))
    else:
        from .fixtures import fixture_run, parse_time

        run = fixture_run(settings, body, parse_time(at_text) if at_text else None)
    with run as (settings, clock):
        # A fixture run is offline: its report is printed, never posted.
        result = run_cycle(body, settings, dry_run=dry_run, record_dir=record_dir, clock=clock,
                           post=settings.fixtures_dir is None)
    if record_dir is not None and result.notification_id is not None:
        from .fixtures import add_to_session

        add_to_session(record_dir, body, clock(), {"id": settings.self_agent_id, "name": settings.self_name})
    _print_result(result, as_json=as_json, explain=explain)


def _clock(start: str | None) -> Callable[[], datetime]:
    """The wall clock, or one that starts at `start` and then ticks in real time."""
    from .clock import utc_now
    from .models import parse_timestamp

    if start is None:
        return utc_now
    began = parse_timestamp(start)
    if began is None:
        raise UsageError(f"--clock-start must be an ISO 8601 time, got {start!r}")
    offset = began - utc_now()
    return lambda: utc_now() + offset


@agent.command("listen")
@click.option("--stdin", "from_stdin", is_flag=True,
              help='Read messages as JSON lines on stdin ({"content", "author_id", "channel_id", "id"}) instead'
                   " of from Discord; print one report line per notification.")
@handles_errors
def listen(from_stdin: bool) -> None:
    """Stay running: handle each Discord message as `handle` would, one at a time, in arrival order.

    Logs one line per notification to stderr (-v adds skipped messages and the
    cycle's own lines). Stops on end of input, SIGTERM or SIGINT after the
    message in hand. Set-up: docs/listen.md.
    """
    import logging
    from contextlib import ExitStack

    from .config import load_settings
    from .cycle import Agent
    from .reporters import configured_reporter

    settings = load_settings()
    if not from_stdin:
        try:
            from .listen import bot
        except ModuleNotFoundError as exc:
            if not (exc.name or "").startswith("discord"):
                raise
            raise UsageError("listening on Discord needs discord.py: pip install 'karakuri-agent[discord]'"
                             " (or use --stdin)") from None
        bot.check_settings(settings)  # before anything starts: a missing token is exit 2, not a log line
    if not logging.getLogger("karakuri_agent").isEnabledFor(logging.INFO):
        # A resident process's log is its journal: one line per notification by default.
        _log_to_stderr("karakuri_agent.listen", logging.INFO)
    else:
        logging.getLogger("karakuri_agent.listen").setLevel(logging.DEBUG)

    def open_agent(stack: ExitStack) -> Agent:
        return stack.enter_context(Agent.open(settings))

    if not from_stdin:
        _log_to_stderr("discord", logging.WARNING)  # the gateway's own trouble (reconnects, refusals)
        bot.run(settings, open_agent)
        return
    from .listen import stdin
    from .listen.core import Listener

    webhook = configured_reporter(settings)
    with ExitStack() as stack:
        stdin.run(Listener(open_agent(stack), reporter_for=lambda message: webhook), sys.stdin, sys.stdout)


@agent.command("demo")
@click.option("--fixtures", "fixtures_dir", metavar="DIR|bundled", default="bundled", show_default=True,
              help="The recorded session to replay (a directory written by `handle --record DIR`).")
@click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Keep the replay's state in DIR (for `KARAKURI_STATE_DIR=DIR karakuri-agent log`)"
                   " instead of a throwaway directory.")
@click.option("--json", "as_json", is_flag=True, help="Print each decision record as JSON.")
@handles_errors
def demo(fixtures_dir: str, state_dir: Path | None, as_json: bool) -> None:
    """Replay a recorded session offline and show each decision, its reason and its report."""
    from .demo import replay
    from .fixtures import resolve_fixtures_dir

    for message, result in replay(resolve_fixtures_dir(fixtures_dir), state_dir):
        if not as_json:
            click.echo(f"▶ {message.splitlines()[0][:70]}")
        _print_result(result, as_json=as_json, explain=True)
        if not as_json:
            click.echo()


@agent.group("persona", **_GROUP)
def persona() -> None:
    """Make, check and use a persona pack (a character of your own; see docs/persona.md)."""


_PACK_DIR = click.Path(file_okay=False, path_type=Path)


@persona.command("init")
@click.argument("directory", type=_PACK_DIR)
@click.option("--name", required=True, help="The character's name, as the world knows it.")
@handles_errors
def persona_init(directory: Path, name: str) -> None:
    """Write a new pack for NAME into DIRECTORY: persona.json and a README.md explaining every field."""
    from .persona_scaffold import init_pack

    for path in init_pack(directory, name):
        click.echo(f"wrote {path}")
    click.echo(f"next: edit {directory / 'persona.json'}, then `karakuri-agent persona check {directory}`")


@persona.command("check")
@click.argument("directory", type=_PACK_DIR)
def persona_check(directory: Path) -> None:
    """Validate the pack in DIRECTORY: exit 0, or exit 1 with one line per problem."""
    from .persona import problems

    found = problems(directory)
    for line in found:
        click.echo(line)
    if found:
        sys.exit(EXIT_FAILURE)
    click.echo(f"{directory}: ok")


@agent.command("rules")
@click.option("--pack", type=_PACK_DIR, default=None,
              help="The persona pack whose behaviour.json to merge [default: KARAKURI_PERSONA_DIR, else the bundled one].")
@click.option("--json", "as_json", is_flag=True, help="Print the rules as JSON.")
@handles_errors
def rules(pack: Path | None, as_json: bool) -> None:
    """List the rules in the order they are tried: the built-in ones merged with the pack's (docs/behaviour.md)."""
    from .behaviour.selector import Selector
    from .behaviour.spec import EMPTY
    from .config import load_settings
    from .persona import load_configured
    from .policy import BUILTIN_RULES

    directory = pack if pack is not None else load_settings(require_api=False).persona_dir
    entries = Selector(BUILTIN_RULES, load_configured(directory).behaviour or EMPTY).entries()
    if as_json:
        _print_json([vars(e) for e in entries])
        return
    for e in entries:
        state = "" if e.enabled else "(off) "
        click.echo(f"{e.priority:>5}  {e.id:<24} {e.source if e.source == 'built-in' else 'pack':<8}  {state}{e.description}")


@persona.command("skill")
@click.argument("directory", type=_PACK_DIR, required=False)
@click.option("--agent-id", default="", help="The agent's id in the world [default: KARAKURI_SELF_AGENT_ID].")
@handles_errors
def persona_skill(directory: Path | None, agent_id: str) -> None:
    """Print skill/SKILL.md for the pack in DIRECTORY (default: KARAKURI_PERSONA_DIR, else the bundled one)."""
    from .config import load_settings
    from .operations import load_configured_persona
    from .persona_scaffold import skill_text

    settings = load_settings(require_api=False)
    if directory is not None:
        settings = replace(settings, persona_dir=directory)
    agent_id = agent_id.strip() or settings.self_agent_id
    if not agent_id:
        raise UsageError("the skill needs the agent's id: pass --agent-id ID or set KARAKURI_SELF_AGENT_ID")
    click.echo(skill_text(load_configured_persona(settings), agent_id), nl=False)


def _print_result(result: Any, *, as_json: bool, explain: bool) -> None:
    """The report is always the last line of stdout; why a run failed goes to stderr."""
    _print_problems(result)
    if as_json:
        click.echo(json.dumps(result.record(), ensure_ascii=False))
        return
    decision = result.decision
    if decision is not None and decision.command and (explain or result.dry_run):
        params = json.dumps(decision.params, ensure_ascii=False)
        click.echo(f"  {'would send' if result.dry_run else 'decision'}: {decision.command} {params}")
    if result.model is not None and (explain or result.dry_run):
        click.echo(f"  {result.model.line()}")  # what the model proposed and what the gate said
    if explain and decision is not None:
        click.echo(f"  reason: {decision.reason}")
        for rejected in result.rejected:
            click.echo(f"  skipped: {rejected['command']} ({rejected['problem']})")
    if explain and result.behaviour:
        from .history import behaviour_lines

        for line in behaviour_lines(result.behaviour):
            click.echo(f"  {line}")
    click.echo(result.report)


def _print_problems(result: Any) -> None:
    """One stderr line per problem: the error code, what happened, what to do."""
    if result.error:
        error = result.error
        click.echo(f"{_program()}: {error['error']}: {error['message'].rstrip('.')}. {error['what_to_do'][:1].upper()}{error['what_to_do'][1:]}.", err=True)
    if result.webhook is not None and not result.webhook.delivered:
        status = f"HTTP {result.webhook.status}" if result.webhook.status else "no answer"
        click.echo(f"{_program()}: webhook_failed: the report was not posted to Discord ({status},"
                   f" {result.webhook.attempts} attempts); check DISCORD_WEBHOOK_URL", err=True)


@agent.command("gc")
@click.option("--keep-days", type=click.IntRange(min=0, max=MAX_KEEP_DAYS), required=True,
              help=f"Delete history older than this many days, 0 to {MAX_KEEP_DAYS} (0: all history but what"
                   " the next run reads; the ledger, people and places are always kept).")
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


@agent.group("state", **_GROUP)
def state() -> None:
    """Copy the agent's state between the SQLite file and PostgreSQL (`state copy --to/--from URL`)."""


@state.command("copy")
@click.option("--to", "to_url", metavar="URL", help="Copy the configured state into URL (postgresql://… or sqlite:DIR).")
@click.option("--from", "from_url", metavar="URL", help="Copy URL's state into the configured state.")
@click.option("--json", "as_json", is_flag=True, help="Print the rows copied per table as JSON.")
@handles_errors
def copy(to_url: str | None, from_url: str | None, as_json: bool) -> None:
    """Copy every table (memory, promises, people, places, the ledger…); rows already there are skipped, so it can be re-run."""
    from .config import load_settings
    from .clock import utc_now
    from .state.copy import copy_between
    from .state.factory import masked

    if (to_url is None) == (from_url is None):
        raise UsageError("state copy needs exactly one of --to URL or --from URL")
    other = to_url or from_url or ""
    copied = copy_between(load_settings(require_api=False), other, to_other=to_url is not None, clock=utc_now)
    if as_json:
        _print_json(copied)
        return
    counts = ", ".join(f"{table} {count}" for table, count in copied.items())
    click.echo(f"copied {'to' if to_url else 'from'} {masked(other)}: {counts}")
