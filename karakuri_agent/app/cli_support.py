"""What every command of the CLI shares: settings read once, one-line errors with the contract's exit codes, output."""

from __future__ import annotations

import functools
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator

import click

from karakuri_agent.app.config import debug_enabled
from karakuri_agent.terminal import shown, shown_lines
from karakuri_agent.errors import (
    EXIT_FAILURE,
    EXIT_USAGE,
    ConfigError,
    KarakuriError,
    ServerRejected,
    UsageError,
    one_line,
)

if TYPE_CHECKING:
    from datetime import datetime

    from karakuri_agent.app.config import Settings


PACKAGE = "karakuri-agent"


def say(text: str = "", *, err: bool = False, nl: bool = True) -> None:
    """Print one line of output (stdout, or stderr with `err`) shown as data (terminal.shown): whatever a name,
    a line or a server's message holds, it stays this one line and nothing in it reaches the terminal as a
    control. Every human-readable line the programs print goes through here."""
    click.echo(shown(text), err=err, nl=nl)


def print_json(data: Any) -> None:
    """Every command's JSON output: strict JSON, one writer (outside.dumps_shown)."""
    from karakuri_agent.outside import dumps_shown

    click.echo(shown_lines(dumps_shown(data, indent=2)))  # the same JSON, no control character left raw


def program_name() -> str:
    """The program's own name (not argv[0], which is `-c` or a path when run another way)."""
    return click.get_current_context().find_root().command.name or PACKAGE


def fail(message: str, code: int) -> None:
    say(f"{program_name()}: error: {message}", err=True)
    sys.exit(code)


def reader_left() -> None:
    """The reader closed the pipe (`demo | head -2`): it has what it wanted, so stop writing and exit 0,
    keeping the exit flush from complaining."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    sys.exit(0)


def warn(line: str) -> None:
    say(f"{program_name()}: warning: {line}", err=True)


def cli_settings(**kwargs: Any) -> Settings:
    """The settings for a command that may act: the first bad variable stops it (exit 2); warnings on stderr."""
    from karakuri_agent.app.config import load_settings

    settings = load_settings(**kwargs)
    for line in settings.warnings:
        warn(line)
    return settings


def reading_settings() -> Settings:
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
        warn(line)
    for _, message in settings.problems:
        warn(f"{message} (ignored by this command; every other command stops on it)")
    return settings


def handles_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Map the error family to output and exit codes, in one place."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except ServerRejected as exc:
            print_json(exc.to_json())
            sys.exit(exc.exit_code)
        except KarakuriError as exc:
            if exc.exit_code == EXIT_USAGE:
                fail(exc.message, exc.exit_code)
            print_json(exc.to_json())
            sys.exit(exc.exit_code)
        except (click.ClickException, click.exceptions.Exit):
            raise
        except BrokenPipeError:
            reader_left()
        except Exception as exc:  # a bug: say so in one line, keep the traceback for debugging
            if debug_enabled():
                raise
            fail(f"internal error ({type(exc).__name__}); rerun with KARAKURI_DEBUG=1 for details", EXIT_FAILURE)

    return wrapper


def parse_params(text: str) -> dict[str, Any]:
    """Exactly one JSON object (outside.json_object, the reader of every door), or UsageError."""
    from karakuri_agent.outside import NotOneObject, json_object

    try:
        return json_object(text)
    except NotOneObject as exc:
        raise UsageError(f"params must be one JSON object: {exc}") from None


class OneLineUsageError(click.UsageError):
    """A usage error as every other error is shown: one line on stderr, the program's name first, exit 2.

    click's own is four lines (usage, a hint, a blank line, the error): a bot
    that keeps the last line of stderr would keep only part of it.
    """

    def show(self, file: Any = None) -> None:
        root, where = PACKAGE, PACKAGE
        if self.ctx is not None:  # the program's own name, not argv[0] (`-c` or a path when run another way)
            chain, ctx = [], self.ctx
            while ctx.parent is not None:
                chain.append(ctx.info_name or "")
                ctx = ctx.parent
            root = ctx.command.name or PACKAGE
            where = " ".join([root, *reversed(chain)])
        say(f"{root}: error: {one_line(self.format_message(), 500).rstrip('.')} (see `{where} --help`)", err=True)


_HELP_FOR_NO_ARGUMENTS: Any = getattr(click.exceptions, "NoArgsIsHelpError", OneLineUsageError)


@contextmanager
def usage_in_one_line() -> Iterator[None]:
    """Turn click's usage errors (bad option, bad value, missing argument, no such command) into one line."""
    try:
        yield
    except (OneLineUsageError, _HELP_FOR_NO_ARGUMENTS):
        raise  # (a bare `karakuri` shows its help, as before)
    except click.UsageError as exc:
        raise OneLineUsageError(exc.format_message(), exc.ctx) from None


class WholeHelpCommand(click.Command):
    """A command listed in its group's help with its whole first paragraph, not cut at 45 characters;
    its usage errors are one line."""

    def get_short_help_str(self, limit: int = 45) -> str:
        if self.short_help:
            return self.short_help
        return " ".join((self.help or "").split("\n\n")[0].split())

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        with usage_in_one_line():
            return super().make_context(info_name, args, parent, **extra)

    def invoke(self, ctx: click.Context) -> Any:
        with usage_in_one_line():
            return super().invoke(ctx)


class Programs(click.Group, WholeHelpCommand):
    command_class = WholeHelpCommand
    get_short_help_str = WholeHelpCommand.get_short_help_str  # a group listed in its parent's help, too

    def invoke(self, ctx: click.Context) -> Any:  # "no such command" is raised here, by the group
        with usage_in_one_line():
            return super().invoke(ctx)


def be_verbose(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value:
        import logging

        log_to_stderr("karakuri_agent", logging.INFO)


VERBOSE = click.option("-v", "--verbose", is_flag=True, expose_value=False, callback=be_verbose,
                        help="Log one line per notification (id, decision, outcome, ms) to stderr.")


class VerboseEverywhere(Programs):
    """`-v` is accepted before the subcommand and after it (`karakuri-agent handle -v`)."""

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        if not isinstance(cmd, click.Group) and not any(p.name == "verbose" for p in cmd.params):
            cmd = VERBOSE(cmd)
        super().add_command(cmd, name)


Programs.group_class = VerboseEverywhere
HELP: dict[str, Any] = {"help_option_names": ["-h", "--help"]}  # every group's context_settings


@contextmanager
def interruptible() -> Iterator[None]:
    """Ctrl-C for the wrapper: before the command, one line and exit 130; during it, finish and record it first."""
    from karakuri_agent.app import interrupt

    with interrupt.handled() as interruption:
        try:
            yield
        except KeyboardInterrupt:
            fail(interrupt.ABANDONED, interrupt.EXIT_INTERRUPTED)
    if interruption.received:
        sys.exit(interrupt.EXIT_INTERRUPTED)


def show_waits_on_a_terminal() -> None:
    """A person at a terminal sees a line while the client retries or backs off, not a silent minute.

    A bot (stderr not a terminal) gets none of it unless -v; stdout is never touched.
    """
    if sys.stderr is None or not sys.stderr.isatty():
        return
    import logging

    handler = logging.StreamHandler()
    handler.setFormatter(shown_formatter(f"{program_name()}: %(message)s"))
    waits = logging.getLogger("karakuri_agent.app.client")
    waits.addHandler(handler)
    waits.setLevel(logging.WARNING)
    waits.propagate = False  # once, even with -v


def shown_formatter(fmt: str) -> Any:
    """A log formatter whose every line is `say`'s: the message shown as data, a traceback (debug) as it is."""
    import logging

    class Shown(logging.Formatter):
        def formatMessage(self, record: logging.LogRecord) -> str:  # noqa: N802  (logging's name)
            return shown(super().formatMessage(record))

    return Shown(fmt)


def log_to_stderr(name: str, level: int) -> None:
    """Log `name` at `level` to stderr: stdout stays the report and the records (once per name)."""
    import logging

    logger = logging.getLogger(name)
    if any(getattr(h, "karakuri", False) for h in logger.handlers):
        logger.setLevel(min(logger.level or level, level))
        return
    handler = logging.StreamHandler()
    handler.karakuri = True  # type: ignore[attr-defined]
    handler.setFormatter(shown_formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger.addHandler(handler)
    logger.setLevel(level)


def since_time(text: str | None) -> datetime | None:
    """`--since`: ISO 8601; a date or time without a zone is the world's (Asia/Tokyo)."""
    if text is None:
        return None
    from datetime import datetime as moment

    from karakuri_agent.domain.clock import TOKYO

    try:
        value = moment.fromisoformat(text.strip())
    except ValueError:
        raise UsageError(f"--since must be an ISO 8601 date or time (e.g. 2026-04-18T12:00), got {text!r}") from None
    return value if value.tzinfo else value.replace(tzinfo=TOKYO)


FIXTURES = click.option(
    "--fixtures", "fixtures_dir", metavar="DIR|bundled",
    help="Serve the API from recorded fixtures in DIR (`bundled`: the session shipped with the package);"
         " nothing leaves the machine, and the state is throwaway unless --state-dir is given.")
AT = click.option("--at", "at_text", metavar="TIME",
                   help="With --fixtures: the time of the run (ISO 8601; default: when the message was recorded)."
                        " A TIME outside the recorded session moves the whole session to start at TIME.")
FIXTURE_STATE = click.option(
    "--state-dir", type=click.Path(file_okay=False, path_type=Path),
    help="With --fixtures: keep the run's state in DIR (for `KARAKURI_STATE_DIR=DIR karakuri-agent log`)."
         " KARAKURI_STATE_DIR and KARAKURI_DATABASE_URL are never used by a fixture run.")


def fixture_settings(fixtures_dir: str | None, at_text: str | None, state_dir: Path | None,
                      clock_start: str | None = None) -> Any:
    """The settings and clock of a run: the real ones, or a fixture run's (`--fixtures`, `--at`, `--state-dir`)."""
    from contextlib import nullcontext

    settings = cli_settings(fixtures_dir=Path(fixtures_dir) if fixtures_dir else None)
    if settings.fixtures_dir is None:
        if at_text is not None:
            raise UsageError("--at only applies to a run on --fixtures (a real run happens now)")
        if state_dir is not None:
            raise UsageError("--state-dir only applies to a run on --fixtures (a real run uses KARAKURI_STATE_DIR)")
        return nullcontext((settings, clock_from(clock_start)))
    from karakuri_agent.app.fixtures import fixture_run
    from karakuri_agent.app.session import parse_time

    return fixture_run(settings, parse_time(at_text) if at_text else None, state_dir)


def read_stdin() -> str:
    """The message on standard input; on a terminal, say so first (a person typing, not a bot piping)."""
    if sys.stdin is None:
        return ""
    if sys.stdin.isatty():
        say(f"{program_name()}: reading the message from standard input; end it with Ctrl-D"
                   " (or pass it as an argument)", err=True)
    return sys.stdin.read()


def clock_from(start: str | None) -> Callable[[], datetime]:
    """The machine's clock, or one that starts at `start` and then ticks in real time."""
    from karakuri_agent.domain.clock import utc_now

    if start is None:
        return utc_now
    from karakuri_agent.app.session import parse_time

    try:
        began = parse_time(start)
    except UsageError:
        raise UsageError(f"--clock-start must be an ISO 8601 time, got {start!r}") from None
    offset = began - utc_now()
    return lambda: utc_now() + offset


PACK_DIR = click.Path(file_okay=False, path_type=Path)


def print_result(result: Any, *, as_json: bool, explain: bool) -> None:
    """The report (or, with --json, the record) is always the last line of stdout; why a run failed goes to stderr.

    --explain with --json prints the explanation first, then the record.
    """
    from karakuri_agent.outside import dumps_shown

    print_problems(result)
    decision = result.decision
    if decision is not None and decision.command and (explain or (result.dry_run and not as_json)):
        params = dumps_shown(decision.params)
        say(f"  {'would send' if result.dry_run else 'decision'}: {decision.command} {params}")
    if result.model is not None and (explain or (result.dry_run and not as_json)):
        say(f"  {result.model.line()}")  # what the model proposed and what the gate said
    elif result.decider_errors and explain:
        from karakuri_agent.app.history import decider_line

        say(f"  {decider_line({'errors': result.decider_errors})}")
    if explain and decision is not None:
        say(f"  reason: {decision.reason}")
        for rejected in result.rejected:
            say(f"  skipped: {rejected['command']} ({rejected['problem']})")
    if explain and result.behaviour:
        from karakuri_agent.app.history import behaviour_lines

        for line in behaviour_lines(result.behaviour):
            say(f"  {line}")
    say(dumps_shown(result.record()) if as_json else result.report)


def print_problems(result: Any) -> None:
    """One stderr line per problem: the error code, what happened, what to do."""
    if result.error:
        error = result.error
        say(f"{program_name()}: {error['error']}: {error['message'].rstrip('.')}. {error['what_to_do'][:1].upper()}{error['what_to_do'][1:]}.", err=True)
    if getattr(result, "unrecorded", None):
        say(f"{program_name()}: outcome_not_recorded: the command was sent, but what came of it could not be"
                   f" written to the state ({result.unrecorded}); `log` shows it as sent. Check the disk or"
                   " the database", err=True)
    if result.webhook is not None and not result.webhook.delivered:
        status = f"HTTP {result.webhook.status}" if result.webhook.status else "no answer"
        say(f"{program_name()}: webhook_failed: the report was not posted to Discord ({status},"
                   f" {result.webhook.attempts} attempts); check DISCORD_WEBHOOK_URL", err=True)
