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
from contextlib import contextmanager
import os
import sys
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any, Callable, Iterator

import click

from karakuri_agent.app.registry import DECIDERS
from karakuri_agent.errors import EXIT_FAILURE, EXIT_USAGE, ConfigError, KarakuriError, ServerRejected, UsageError
from karakuri_agent.state.retention import MAX_KEEP_DAYS

PACKAGE = "karakuri-agent"

if TYPE_CHECKING:
    from datetime import datetime

    from karakuri_agent.app.config import Settings


def _print_json(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def _program() -> str:
    """The program's own name (not argv[0], which is `-c` or a path when run another way)."""
    return click.get_current_context().find_root().command.name or PACKAGE


def _fail(message: str, code: int) -> None:
    click.echo(f"{_program()}: error: {message}", err=True)
    sys.exit(code)


def _reader_left() -> None:
    """The reader closed the pipe (`demo | head -2`): it has what it wanted, so stop writing and exit 0,
    keeping the exit flush from complaining."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(0)


def _warn(line: str) -> None:
    click.echo(f"{_program()}: warning: {line}", err=True)


def _settings(**kwargs: Any) -> Settings:
    """The settings for a command that may act: the first bad variable stops it (exit 2); warnings on stderr."""
    from karakuri_agent.app.config import load_settings

    settings = load_settings(**kwargs)
    for line in settings.warnings:
        _warn(line)
    return settings


def _reading_settings() -> Settings:
    """The settings for a command that only reads or tidies the state (`log`, `gc`, `state copy`).

    A bad setting that does not say where the state is (`KARAKURI_HTTP_TIMEOUT=ten`) is a
    warning, so `log` can still show the history that would explain it.
    """
    from karakuri_agent.app.config import STATE_VARIABLES, load_settings

    settings = load_settings(require_api=False, lenient=True)
    for name, message in settings.problems:
        if name in STATE_VARIABLES:
            raise ConfigError(message)
    for line in settings.warnings:
        _warn(line)
    for _, message in settings.problems:
        _warn(f"{message} (ignored by this command; every other command stops on it)")
    return settings


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
    from karakuri_agent.outside import loads

    try:
        value = loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"params must be one JSON object: {exc.msg} at position {exc.pos}") from None
    except ValueError:  # an integer longer than Python reads (thousands of digits)
        raise UsageError("params must be one JSON object with numbers of a sane size") from None
    except RecursionError:
        raise UsageError("params must be one JSON object nested less deeply") from None
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


def _be_verbose(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        import logging

        _log_to_stderr("karakuri_agent", logging.INFO)


_VERBOSE = click.option("-v", "--verbose", is_flag=True, expose_value=False, callback=_be_verbose,
                        help="Log one line per notification (id, decision, outcome, ms) to stderr.")


class _VerboseEverywhere(_Programs):
    """`-v` is accepted before the subcommand and after it (`karakuri-agent handle -v`)."""

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        if not isinstance(cmd, click.Group) and not any(p.name == "verbose" for p in cmd.params):
            cmd = _VERBOSE(cmd)
        super().add_command(cmd, name)


_Programs.group_class = _VerboseEverywhere
_GROUP = {"cls": _VerboseEverywhere, "context_settings": {"help_option_names": ["-h", "--help"]}}


# -- karakuri: the wrapper for LLM runtimes ---------------------------------------
@click.group("karakuri", **_GROUP)
@click.version_option(package_name=PACKAGE)
@_VERBOSE
def karakuri() -> None:
    """Read a Karakuri World notification with its decision context, or act on it once."""
    _show_waits_on_a_terminal()


@karakuri.command("get_notification")
@click.argument("notification_id")
@handles_errors
def get_notification(notification_id: str) -> None:
    """Print the notification with `nikechan_preprocess` added."""
    from karakuri_agent.app import wrapper

    with _interruptible():
        _print_json(wrapper.get_notification(_settings(), notification_id))


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
    from karakuri_agent.app import wrapper

    with _interruptible():
        outcome = wrapper.run_command(_settings(), notification_id, command, parse_params(params_json))
        _print_json(outcome.result)
        if outcome.unrecorded:
            _print_problems(SimpleNamespace(error=None, unrecorded=outcome.unrecorded, webhook=None))


@contextmanager
def _interruptible() -> Iterator[None]:
    """Ctrl-C for the wrapper: before the command, one line and exit 130; during it, finish and record it first."""
    from karakuri_agent.app import interrupt

    with interrupt.handled() as interruption:
        try:
            yield
        except KeyboardInterrupt:
            _fail(interrupt.ABANDONED, interrupt.EXIT_INTERRUPTED)
    if interruption.received:
        sys.exit(interrupt.EXIT_INTERRUPTED)


# -- karakuri-agent: the autonomous agent ------------------------------------------
@click.group(PACKAGE, **_GROUP)
@click.version_option(package_name=PACKAGE)
@_VERBOSE
def agent() -> None:
    """The autonomous Karakuri World agent: one notification in, at most one action out."""
    _show_waits_on_a_terminal()


def _show_waits_on_a_terminal() -> None:
    """A person at a terminal sees a line while the client retries or backs off, not a silent minute.

    A bot (stderr not a terminal) gets none of it unless -v; stdout is never touched.
    """
    if sys.stderr is None or not sys.stderr.isatty():
        return
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter(f"{_program()}: %(message)s"))
    waits = logging.getLogger("karakuri_agent.app.client")
    waits.addHandler(handler)
    waits.setLevel(logging.WARNING)
    waits.propagate = False  # once, even with -v


def _log_to_stderr(name: str, level: int) -> None:
    """Log `name` at `level` to stderr: stdout stays the report and the records (once per name)."""
    import logging

    logger = logging.getLogger(name)
    if any(getattr(h, "karakuri", False) for h in logger.handlers):
        logger.setLevel(min(logger.level or level, level))
        return
    handler = logging.StreamHandler()
    handler.karakuri = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(level)


@agent.command("log")
@click.option("-n", "--limit", default=20, show_default=True, type=click.IntRange(1, 1000))
@click.option("--since", "since_text", metavar="TIME",
              help="Only entries from TIME on (ISO 8601, e.g. 2026-04-18 or 2026-04-18T12:00+09:00; no zone: the world's).")
@click.option("--notification", "notification_id", metavar="ID", help="Only the entries of one notification.")
@click.option("--type", "notification_type", metavar="TYPE", help="Only one notification type (e.g. conversation_message).")
@click.option("--errors", is_flag=True, help="Only the runs and commands that failed.")
@click.option("--json", "as_json", is_flag=True, help="Print the entries as JSON.")
@handles_errors
def log(limit: int, since_text: str | None, notification_id: str | None, notification_type: str | None,
        errors: bool, as_json: bool) -> None:
    """Show the recent activity, newest last: notifications, commands, dry runs and report lines.

    Times are in the world's zone (Asia/Tokyo), as the report lines say them.
    """
    from karakuri_agent.app import history

    filters = history.Filters(_since(since_text), notification_id, notification_type, errors)
    settings = _reading_settings()
    nothing = history.no_state_yet(settings)
    if nothing is not None:
        click.echo(nothing, err=True)
        if as_json:
            _print_json([])
        return
    entries = history.recent(settings, limit, filters)
    if not entries:
        click.echo(history.why_empty(settings.state_dir, filters), err=True)
    if as_json:
        _print_json(entries)
    else:
        for line in history.format_entries(entries):
            click.echo(line)


@agent.command("day")
@click.option("--date", "date_text", metavar="YYYY-MM-DD",
              help="The in-world date (Asia/Tokyo); default: the latest day with activity.")
@click.option("--json", "as_json", is_flag=True, help="Print the day as one JSON object.")
@click.option("--html", "html_file", type=click.Path(dir_okay=False, writable=True, path_type=Path),
              help="Also write the day as one self-contained HTML page to FILE.")
@handles_errors
def day(date_text: str | None, as_json: bool, html_file: Path | None) -> None:
    """Show one day of the agent's life: places, conversations, promises, gifts, commands, failures."""
    from karakuri_agent.app.day.read import parse_date
    from karakuri_agent.app.day.show import show
    from karakuri_agent.app.history import no_state_yet

    wanted = parse_date(date_text) if date_text is not None else None  # a wrong date: exit 2 before anything
    settings = _reading_settings()
    nothing = no_state_yet(settings)
    if nothing is not None:  # reading creates no state: the day is shown empty, and why on stderr
        click.echo(nothing, err=True)
    for line in show(settings, wanted, as_json=as_json, html_file=html_file, empty=nothing is not None):
        click.echo(line)


def _since(text: str | None) -> datetime | None:
    """`--since`: ISO 8601; a date or time without a zone is the world's (Asia/Tokyo)."""
    if text is None:
        return None
    from datetime import datetime as moment

    from karakuri_agent.domain.notification import TOKYO

    try:
        value = moment.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--since must be an ISO 8601 date or time (e.g. 2026-04-18T12:00), got {text!r}") from None
    return value if value.tzinfo else value.replace(tzinfo=TOKYO)


_FIXTURES = click.option(
    "--fixtures", "fixtures_dir", metavar="DIR|bundled",
    help="Serve the API from recorded fixtures in DIR (`bundled`: the session shipped with the package);"
         " nothing leaves the machine, and the state is throwaway unless --state-dir is given.")
_AT = click.option("--at", "at_text", metavar="TIME",
                   help="With --fixtures: the time of the run (ISO 8601; default: when the message was recorded).")
_FIXTURE_STATE = click.option(
    "--state-dir", type=click.Path(file_okay=False, path_type=Path),
    help="With --fixtures: keep the run's state in DIR (for `KARAKURI_STATE_DIR=DIR karakuri-agent log`)."
         " KARAKURI_STATE_DIR and KARAKURI_DATABASE_URL are never used by a fixture run.")


def _fixture_settings(fixtures_dir: str | None, at_text: str | None, state_dir: Path | None,
                      clock_start: str | None = None) -> Any:
    """The settings and clock of a run: the real ones, or a fixture run's (`--fixtures`, `--at`, `--state-dir`)."""
    from contextlib import nullcontext

    settings = _settings(fixtures_dir=Path(fixtures_dir) if fixtures_dir else None)
    if settings.fixtures_dir is None:
        if at_text is not None:
            raise UsageError("--at only applies to a run on --fixtures (a real run happens now)")
        if state_dir is not None:
            raise UsageError("--state-dir only applies to a run on --fixtures (a real run uses KARAKURI_STATE_DIR)")
        return nullcontext((settings, _clock(clock_start)))
    from karakuri_agent.app.fixtures import fixture_run, parse_time

    return fixture_run(settings, parse_time(at_text) if at_text else None, state_dir)


@agent.command("handle")
@click.argument("body", required=False)
@click.option("--dry-run", is_flag=True, help="Decide and print the command that would be sent; send nothing, post nothing.")
@_FIXTURES
@_AT
@_FIXTURE_STATE
@click.option("--record", "record_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Save this run's exchanges with the server and the message as fixtures in DIR (secrets removed).")
@click.option("--json", "as_json", is_flag=True, help="Print the full decision record as JSON.")
@click.option("--explain", is_flag=True, help="Print the reason for the decision.")
@click.option("--clock-start", hidden=True, help="Run the agent's clock from this ISO 8601 time (simulations).")
@handles_errors
def handle(body: str | None, dry_run: bool, fixtures_dir: str | None, at_text: str | None, state_dir: Path | None,
           record_dir: Path | None, as_json: bool, explain: bool, clock_start: str | None) -> None:
    """Handle one Discord message (BODY, or stdin): at most one command, one report line."""
    from karakuri_agent.app.cycle import handle as run_cycle

    if record_dir is not None and fixtures_dir is not None:
        raise UsageError("--record and --fixtures cannot be combined")
    run = _fixture_settings(fixtures_dir, at_text, state_dir, clock_start)
    from karakuri_agent.app import interrupt

    with interrupt.handled() as interruption, run as (settings, clock):
        try:
            if body is None:
                body = _read_stdin()
            if hasattr(clock, "follow"):
                clock.follow(body)
            # A fixture run is offline: its report is printed, never posted.
            result = run_cycle(body, settings, dry_run=dry_run, record_dir=record_dir, clock=clock,
                               post=settings.fixtures_dir is None)
        except KeyboardInterrupt:  # Ctrl-C before the command: nothing was claimed or sent
            from karakuri_agent.report.line import INTERRUPTED

            click.echo(f"{_program()}: {interrupt.ABANDONED}", err=True)
            click.echo(INTERRUPTED)
            sys.exit(interrupt.EXIT_INTERRUPTED)
    if record_dir is not None and result.notification_id is not None:
        from karakuri_agent.app.fixtures import add_to_session

        add_to_session(record_dir, body, clock(), {"id": settings.self_agent_id, "name": settings.self_name})
    _print_result(result, as_json=as_json, explain=explain)
    if interruption.received:  # the command in flight was finished and recorded, then the run stops
        sys.exit(interrupt.EXIT_INTERRUPTED)


def _read_stdin() -> str:
    """The message on standard input; on a terminal, say so first (a person typing, not a bot piping)."""
    if sys.stdin is None:
        return ""
    if sys.stdin.isatty():
        click.echo(f"{_program()}: reading the message from standard input; end it with Ctrl-D"
                   " (or pass it as an argument)", err=True)
    return sys.stdin.read()


def _clock(start: str | None) -> Callable[[], datetime]:
    """The machine's clock, or one that starts at `start` and then ticks in real time."""
    from karakuri_agent.domain.clock import utc_now
    from karakuri_agent.app.fixtures import parse_time

    if start is None:
        return utc_now
    try:
        began = parse_time(start)
    except UsageError:
        raise UsageError(f"--clock-start must be an ISO 8601 time, got {start!r}") from None
    offset = began - utc_now()
    return lambda: utc_now() + offset


@agent.command("listen")
@click.option("--stdin", "from_stdin", is_flag=True,
              help='Read messages as JSON lines on stdin ({"content", "author_id", "channel_id", "id"}) instead'
                   " of from Discord; print one report line per notification.")
@_FIXTURES
@_AT
@_FIXTURE_STATE
@handles_errors
def listen(from_stdin: bool, fixtures_dir: str | None, at_text: str | None, state_dir: Path | None) -> None:
    """Stay running: handle each Discord message as `handle` would, one at a time, in arrival order.

    Logs one line per notification to stderr (-v adds skipped messages and the
    cycle's own lines). Stops on end of input, SIGTERM or SIGINT after the
    message in hand. Set-up: docs/listen.md.
    """
    if (fixtures_dir or at_text or state_dir) and not from_stdin:
        raise UsageError("--fixtures, --at and --state-dir apply to `listen --stdin` only")
    with _fixture_settings(fixtures_dir, at_text, state_dir) as (settings, clock):
        _listen(settings, clock, from_stdin)


def _listen(settings: Settings, clock: Callable[[], datetime], from_stdin: bool) -> None:
    import logging
    from contextlib import ExitStack

    from karakuri_agent.app.cycle import Agent
    from karakuri_agent.app.cycle import configured_reporter

    if not from_stdin:
        try:
            from karakuri_agent.app.listen import bot
        except ModuleNotFoundError as exc:
            if not (exc.name or "").startswith("discord"):
                raise
            raise UsageError("listening on Discord needs discord.py: in the clone, pip install '.[discord]'"
                             " (or use --stdin)") from None
        bot.check_settings(settings)  # before anything starts: a missing token is exit 2, not a log line
    if not logging.getLogger("karakuri_agent").isEnabledFor(logging.INFO):
        # A resident process's log is its journal: one line per notification by default.
        _log_to_stderr("karakuri_agent.app.listen", logging.INFO)
    else:
        logging.getLogger("karakuri_agent.app.listen").setLevel(logging.DEBUG)

    def open_agent(stack: ExitStack) -> Agent:
        return stack.enter_context(Agent.open(settings, clock=clock))

    if not from_stdin:
        _log_to_stderr("discord", logging.WARNING)  # the gateway's own trouble (reconnects, refusals)
        bot.run(settings, open_agent)
        return
    from karakuri_agent.app.listen import stdin
    from karakuri_agent.app.listen.core import Listener

    # A fixture run is offline: its reports are printed, never posted; each message is seen at its own time.
    webhook = configured_reporter(settings) if settings.fixtures_dir is None else None
    follow = getattr(clock, "follow", None)
    with ExitStack() as stack:
        stdin.run(Listener(open_agent(stack), reporter_for=lambda message: webhook), sys.stdin, sys.stdout,
                  before=(lambda message: follow(message.content)) if follow else None)


@agent.command("doctor")
@handles_errors
def doctor() -> None:
    """Check the set-up without acting: .env, every setting, the state, the persona, one read from the server.

    One line per finding (ok, warning, problem); exit 0 only when a real run would work, 1 otherwise.
    The server is asked once for a made-up notification id: a read, never an action.
    """
    from karakuri_agent.app.config import load_settings
    from karakuri_agent.app.doctor import PROBLEM, diagnose

    findings = diagnose(load_settings(lenient=True))
    for finding in findings:
        click.echo(finding.line())
    problems = sum(finding.level == PROBLEM for finding in findings)
    if problems:
        click.echo(f"{problems} problem{'s' if problems > 1 else ''}: a real run would not work until"
                   f" {'they are' if problems > 1 else 'it is'} fixed")
        sys.exit(EXIT_FAILURE)
    click.echo("a real run would work")


@agent.command("demo")
@click.option("--fixtures", "fixtures_dir", metavar="DIR|bundled", default="bundled", show_default=True,
              help="The recorded session to replay (a directory written by `handle --record DIR`).")
@click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Keep the replay's state in DIR (for `KARAKURI_STATE_DIR=DIR karakuri-agent log`)"
                   " instead of a throwaway directory.")
@click.option("--json", "as_json", is_flag=True, help="Print each decision record as JSON.")
@click.option("--decider", type=click.Choice(sorted(DECIDERS)),
              help="Who decides [default: KARAKURI_DECIDER, else rules]. `llm` asks the model set by"
                   " KARAKURI_LLM_* (environment or .env): only the model is reached, nothing is sent.")
@handles_errors
def demo(fixtures_dir: str, state_dir: Path | None, as_json: bool, decider: str | None) -> None:
    """Replay a recorded session offline and show each decision, its reason and its report."""
    from karakuri_agent.app.demo import replay
    from karakuri_agent.app.fixtures import resolve_fixtures_dir

    from karakuri_agent.reading.trigger import find_notification_id

    for message, result in replay(resolve_fixtures_dir(fixtures_dir), state_dir, decider=decider):
        if not as_json:
            click.echo(f"▶ {message.splitlines()[0][:70]}")
            carried = find_notification_id(message)
            if carried and result.notification_id and result.notification_id != carried:
                # The server named a newer notification: what follows is that one's decision.
                click.echo(f"  redirected to {result.notification_id}: {carried} was superseded by it")
        _print_result(result, as_json=as_json, explain=not as_json)
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
    from karakuri_agent.app.persona_scaffold import init_pack

    for path in init_pack(directory, name):
        click.echo(f"wrote {path}")
    click.echo(f"next: edit {directory / 'persona.json'}, then `karakuri-agent persona check {directory}`")


@persona.command("check")
@click.argument("directory", type=_PACK_DIR)
def persona_check(directory: Path) -> None:
    """Validate the pack in DIRECTORY: exit 0, or exit 1 with one line per problem."""
    from karakuri_agent.voice.persona import problems

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
    from karakuri_agent.behaviour.selector import Selector
    from karakuri_agent.behaviour.spec import EMPTY
    from karakuri_agent.app.config import load_settings
    from karakuri_agent.voice.persona import load_configured
    from karakuri_agent.decide.rules import BUILTIN_RULES

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
    from karakuri_agent.app.operations import load_configured_persona
    from karakuri_agent.app.persona_scaffold import skill_text

    settings = _reading_settings()
    if directory is not None:
        settings = replace(settings, persona_dir=directory)
    agent_id = agent_id.strip() or settings.self_agent_id
    if not agent_id:
        raise UsageError("the skill needs the agent's id: pass --agent-id ID or set KARAKURI_SELF_AGENT_ID")
    if not (agent_id.isascii() and agent_id.isdigit()):
        raise UsageError(f"the agent's id is digits (as in `(id: 1470446478261747854)` in a notification),"
                         f" got {agent_id!r}")
    click.echo(skill_text(load_configured_persona(settings), agent_id), nl=False)


def _print_result(result: Any, *, as_json: bool, explain: bool) -> None:
    """The report (or, with --json, the record) is always the last line of stdout; why a run failed goes to stderr.

    --explain with --json prints the explanation first, then the record.
    """
    _print_problems(result)
    decision = result.decision
    if decision is not None and decision.command and (explain or (result.dry_run and not as_json)):
        params = json.dumps(decision.params, ensure_ascii=False)
        click.echo(f"  {'would send' if result.dry_run else 'decision'}: {decision.command} {params}")
    if result.model is not None and (explain or (result.dry_run and not as_json)):
        click.echo(f"  {result.model.line()}")  # what the model proposed and what the gate said
    if explain and decision is not None:
        click.echo(f"  reason: {decision.reason}")
        for rejected in result.rejected:
            click.echo(f"  skipped: {rejected['command']} ({rejected['problem']})")
    if explain and result.behaviour:
        from karakuri_agent.app.history import behaviour_lines

        for line in behaviour_lines(result.behaviour):
            click.echo(f"  {line}")
    click.echo(json.dumps(result.record(), ensure_ascii=False) if as_json else result.report)


def _print_problems(result: Any) -> None:
    """One stderr line per problem: the error code, what happened, what to do."""
    if result.error:
        error = result.error
        click.echo(f"{_program()}: {error['error']}: {error['message'].rstrip('.')}. {error['what_to_do'][:1].upper()}{error['what_to_do'][1:]}.", err=True)
    if getattr(result, "unrecorded", None):
        click.echo(f"{_program()}: outcome_not_recorded: the command was sent, but what came of it could not be"
                   f" written to the state ({result.unrecorded}); `log` shows it as sent. Check the disk or"
                   " the database", err=True)
    if result.webhook is not None and not result.webhook.delivered:
        status = f"HTTP {result.webhook.status}" if result.webhook.status else "no answer"
        click.echo(f"{_program()}: webhook_failed: the report was not posted to Discord ({status},"
                   f" {result.webhook.attempts} attempts); check DISCORD_WEBHOOK_URL", err=True)


@agent.command("gc")
@click.option("--keep-days", type=click.IntRange(min=0, max=MAX_KEEP_DAYS), required=True,
              help=f"Delete history older than this many days, 0 to {MAX_KEEP_DAYS} (0: all history but what"
                   " the next run reads; the ledger, people and places are always kept).")
@click.option("--dry-run", is_flag=True, help="Show how many rows would be deleted; delete nothing.")
@click.option("--json", "as_json", is_flag=True, help="Print the counts as JSON.")
@handles_errors
def gc(keep_days: int, dry_run: bool, as_json: bool) -> None:
    """Forget old history; keep the ledger, people, places and what the next run needs."""
    from karakuri_agent.app.history import no_state_yet
    from karakuri_agent.app.maintenance import collect

    settings = _reading_settings()
    nothing = no_state_yet(settings)
    if nothing is not None:
        click.echo(f"{nothing}; nothing to delete", err=True)
        if as_json:
            _print_json({})
        return
    deleted = collect(settings, keep_days, dry_run=dry_run)
    if as_json:
        _print_json({**deleted, "dry_run": dry_run})
    else:
        counts = ", ".join(f"{table} {count}" for table, count in deleted.items() if table != "cutoff")
        verb = "would delete" if dry_run else "deleted"
        click.echo(f"{verb} rows older than {deleted['cutoff']}: {counts}")


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
    from karakuri_agent.domain.clock import utc_now
    from karakuri_agent.state.copy import copy_between
    from karakuri_agent.state.urls import masked

    if (to_url is None) == (from_url is None):
        raise UsageError("state copy needs exactly one of --to URL or --from URL")
    other = to_url or from_url or ""
    try:
        copied = copy_between(_reading_settings(), other, to_other=to_url is not None, clock=utc_now,
                              argument="--to" if to_url else "--from")
    except KarakuriError as exc:  # every failure the same way: one line, exit 2 (nothing half-copied)
        _fail(exc.message, EXIT_USAGE)
    if as_json:
        _print_json(copied)
        return
    counts = ", ".join(f"{table} {count}" for table, count in copied.items())
    click.echo(f"copied {'to' if to_url else 'from'} {masked(other)}: {counts}")
