"""The commands that run the agent: handle one message, listen, demo on fixtures, doctor."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import click

from karakuri_agent.app.cli_support import (
    AT,
    FIXTURES,
    FIXTURE_STATE,
    WholeHelpCommand,
    fixture_settings,
    handles_errors,
    log_to_stderr,
    print_result,
    program_name,
    read_stdin,
    say,
)
from karakuri_agent.app.registry import DECIDERS
from karakuri_agent.errors import EXIT_FAILURE, UsageError

if TYPE_CHECKING:
    from datetime import datetime

    from karakuri_agent.app.config import Settings
    from karakuri_agent.app.recording import Recorder


@click.command(cls=WholeHelpCommand, name="handle")
@click.argument("body", required=False)
@click.option("--dry-run", is_flag=True, help="Decide and print the command that would be sent; send nothing, post nothing.")
@FIXTURES
@AT
@FIXTURE_STATE
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
    run = fixture_settings(fixtures_dir, at_text, state_dir, clock_start)
    from contextlib import nullcontext

    from karakuri_agent.app import interrupt

    offline = interrupt.terminated_unwinds() if fixtures_dir is not None else nullcontext()
    with offline, interrupt.handled() as interruption, run as (settings, clock):
        recorder = _recorder(record_dir, settings)
        try:
            if body is None:
                body = read_stdin()
            if hasattr(clock, "follow"):
                clock.follow(body)
            # A fixture run is offline: its report is printed, never posted.
            result = run_cycle(body, settings, dry_run=dry_run, clock=clock, post=settings.fixtures_dir is None,
                               transport=recorder.transport() if recorder else None)
        except KeyboardInterrupt:  # Ctrl-C before the command: nothing was claimed or sent
            from karakuri_agent.report.line import INTERRUPTED

            say(f"{program_name()}: {interrupt.ABANDONED}", err=True)
            say(INTERRUPTED)
            sys.exit(interrupt.EXIT_INTERRUPTED)
    if recorder is not None:  # after the outcome is recorded and reported: a failure here loses nothing of it
        me = {"id": settings.self_agent_id, "name": settings.self_name}
        for problem in recorder.save(body if result.notification_id else None, clock(), me):
            say(f"{program_name()}: recording_failed: {problem}; the run itself was recorded in the state", err=True)
    print_result(result, as_json=as_json, explain=explain)
    if interruption.received:  # the command in flight was finished and recorded, then the run stops
        sys.exit(interrupt.EXIT_INTERRUPTED)


def _recorder(record_dir: Path | None, settings: Settings) -> Recorder | None:
    """`--record DIR`'s recorder, its directory checked before anything is read or sent."""
    if record_dir is None:
        return None
    from karakuri_agent.app.recording import Recorder

    recorder = Recorder(record_dir, settings.secrets)
    recorder.check()
    return recorder


@click.command(cls=WholeHelpCommand, name="listen")
@click.option("--stdin", "from_stdin", is_flag=True,
              help='Read messages as JSON lines on stdin ({"content", "author_id", "channel_id", "id"}) instead'
                   " of from Discord; print one report line per notification.")
@click.option("--fleet", "fleet_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Run every agent a fleet file names (TOML, one [[agent]] table with env_file per agent), each"
                   " fed the messages of its own channels. Set-up: docs/fleet.md.")
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="With --fleet: how many agents are handled at once (default 8); each agent's messages stay in order.")
@FIXTURES
@AT
@FIXTURE_STATE
@handles_errors
def listen(from_stdin: bool, fleet_file: Path | None, workers: int | None, fixtures_dir: str | None,
           at_text: str | None, state_dir: Path | None) -> None:
    """Stay running: handle each Discord message as `handle` would, one at a time, in arrival order.

    Logs one line per notification to stderr (-v adds skipped messages and the
    cycle's own lines). Stops on end of input, SIGTERM or SIGINT after the
    message in hand. Set-up: docs/listen.md; many agents in one process: docs/fleet.md.
    """
    if (fixtures_dir or at_text or state_dir) and not from_stdin:
        raise UsageError("--fixtures, --at and --state-dir apply to `listen --stdin` only")
    if fleet_file is not None:
        if fixtures_dir or at_text or state_dir:
            raise UsageError("--fixtures, --at and --state-dir replay one agent; a fleet's agents each have their"
                             " own state (docs/fleet.md)")
        _listen_fleet(fleet_file, from_stdin, workers)
        return
    if workers is not None:
        raise UsageError("--workers applies to `listen --fleet` only")
    with fixture_settings(fixtures_dir, at_text, state_dir) as (settings, clock):
        _listen(settings, clock, from_stdin)


def _listen_fleet(fleet_file: Path, from_stdin: bool, workers: int | None) -> None:
    """Every agent of the fleet file in this process (app/listen/fleet_run.py), from stdin or Discord."""
    import logging

    from karakuri_agent.app.fleet import load_fleet
    from karakuri_agent.app.listen import fleet_run

    members = load_fleet(fleet_file)
    bot = None if from_stdin else _discord_bot()
    for member in members:
        for warning in member.settings.warnings:
            say(f"warning: {member.env_file}: {warning}", err=True)
    log_to_stderr("karakuri_agent.app.listen", logging.INFO)
    if bot is None:
        fleet_run.from_stdin(members, workers or fleet_run.DEFAULT_WORKERS)
    else:
        log_to_stderr("discord", logging.WARNING)
        fleet_run.from_discord(bot, members, workers or fleet_run.DEFAULT_WORKERS)


def _discord_bot() -> Any:
    """app/listen/bot.py, or a UsageError saying how to install discord.py."""
    try:
        from karakuri_agent.app.listen import bot
    except ModuleNotFoundError as exc:
        if not (exc.name or "").startswith("discord"):
            raise
        raise UsageError("listening on Discord needs discord.py: in the clone, pip install '.[discord]'"
                         " (or use --stdin)") from None
    return bot


def _listen(settings: Settings, clock: Callable[[], datetime], from_stdin: bool) -> None:
    import logging
    from contextlib import ExitStack

    from karakuri_agent.app.cycle import Agent, configured_reporter

    if not from_stdin:
        bot = _discord_bot()
        bot.check_settings(settings)  # before anything starts: a missing token is exit 2, not a log line
    if not logging.getLogger("karakuri_agent").isEnabledFor(logging.INFO):
        # A resident process's log is its journal: one line per notification by default.
        log_to_stderr("karakuri_agent.app.listen", logging.INFO)
    else:
        logging.getLogger("karakuri_agent.app.listen").setLevel(logging.DEBUG)

    def open_agent(stack: ExitStack) -> Agent:
        return stack.enter_context(Agent.open(settings, clock=clock))

    if not from_stdin:
        log_to_stderr("discord", logging.WARNING)  # the gateway's own trouble (reconnects, refusals)
        bot.run(settings, open_agent)
        return
    from karakuri_agent.app.listen import stdin
    from karakuri_agent.app.listen.listener import Listener

    # A fixture run is offline: its reports are printed, never posted; each message is seen at its own time.
    webhook = configured_reporter(settings) if settings.fixtures_dir is None else None
    follow = getattr(clock, "follow", None)
    if hasattr(sys.stdin, "reconfigure"):  # bytes that are not UTF-8 make a bad line, not a dead listener
        sys.stdin.reconfigure(errors="replace")
    with ExitStack() as stack:
        stdin.run(Listener(open_agent(stack), reporter_for=lambda message: webhook), sys.stdin, sys.stdout,
                  before=(lambda message: follow(message.content)) if follow else None)


@click.command(cls=WholeHelpCommand, name="doctor")
@click.option("--fleet", "fleet_file", type=click.Path(dir_okay=False, path_type=Path),
              help="Check every agent of a fleet file (each line names its env file), and that no two are one.")
@handles_errors
def doctor(fleet_file: Path | None) -> None:
    """Check the set-up without acting: .env, every setting, the state, the persona, one read from the server.

    One line per finding (ok, warning, problem); exit 0 only when a real run would work, 1 otherwise.
    The server is asked once for a made-up notification id: a read, never an action.
    """
    from karakuri_agent.app.config import load_settings
    from karakuri_agent.app.doctor import PROBLEM, diagnose, diagnose_fleet

    if fleet_file is not None:
        named = diagnose_fleet(fleet_file)
        findings = [finding for _, finding in named]
        for where, finding in named:
            say(f"{where}: {finding.line()}")
    else:
        findings = diagnose(load_settings(lenient=True))
        for finding in findings:
            say(finding.line())
    problems = sum(finding.level == PROBLEM for finding in findings)
    if problems:
        say(f"{problems} problem{'s' if problems > 1 else ''}: a real run would not work until"
                   f" {'they are' if problems > 1 else 'it is'} fixed")
        sys.exit(EXIT_FAILURE)
    say("a real run would work")


@click.command(cls=WholeHelpCommand, name="demo")
@click.option("--fixtures", "fixtures_dir", metavar="DIR|bundled", default="bundled", show_default=True,
              help="The recorded session to replay (a directory written by `handle --record DIR`).")
@click.option("--state-dir", type=click.Path(file_okay=False, path_type=Path),
              help="Keep the replay's state in DIR (for `KARAKURI_STATE_DIR=DIR karakuri-agent log`)"
                   " instead of a throwaway directory.")
@click.option("--json", "as_json", is_flag=True, help="Print each decision record as JSON.")
@click.option("--at", "at_text", metavar="TIME",
              help="Move the whole session to start at TIME (ISO 8601): each message, its notification's"
                   " created_at and expires_at and its text's clock, so time rules can be tried.")
@click.option("--decider", type=click.Choice(sorted(DECIDERS)),
              help="Who decides [default: KARAKURI_DECIDER, else rules]. `llm` asks the model set by"
                   " KARAKURI_LLM_* (environment or .env): only the model is reached, nothing is sent.")
@handles_errors
def demo(fixtures_dir: str, state_dir: Path | None, as_json: bool, at_text: str | None, decider: str | None) -> None:
    """Replay a recorded session offline and show each decision, its reason and its report."""
    from karakuri_agent.app.fixtures import resolve_fixtures_dir
    from karakuri_agent.app.interrupt import terminated_unwinds
    from karakuri_agent.app.session import parse_time

    at = parse_time(at_text) if at_text else None
    with terminated_unwinds():  # SIGTERM, as Ctrl-C, removes the throwaway state on the way out
        _demo(resolve_fixtures_dir(fixtures_dir), state_dir, as_json, at, decider)


def _demo(fixtures_dir: Path, state_dir: Path | None, as_json: bool, at: datetime | None, decider: str | None) -> None:
    from karakuri_agent.app.demo import replay
    from karakuri_agent.reading.trigger import find_notification_id

    for message, result in replay(fixtures_dir, state_dir, decider=decider, at=at):
        if not as_json:
            say(f"▶ {message.splitlines()[0][:70]}")
            carried = find_notification_id(message)
            if carried and result.notification_id and result.notification_id != carried:
                # The server named a newer notification: what follows is that one's decision.
                say(f"  redirected to {result.notification_id}: {carried} was superseded by it")
        print_result(result, as_json=as_json, explain=not as_json)
        if not as_json:
            say()
