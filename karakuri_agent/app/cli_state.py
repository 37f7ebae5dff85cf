"""The commands that read or tend the state: log, day, gc, state copy."""

from __future__ import annotations

from pathlib import Path

import click

from karakuri_agent.app.cli_support import (
    HELP,
    VerboseEverywhere,
    WholeHelpCommand,
    fail,
    handles_errors,
    print_json,
    reading_settings,
    say,
    since_time,
)
from karakuri_agent.errors import EXIT_USAGE, KarakuriError, UsageError
from karakuri_agent.state.retention import MAX_KEEP_DAYS


@click.command(cls=WholeHelpCommand, name="log")
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

    filters = history.Filters(since_time(since_text), notification_id, notification_type, errors)
    settings = reading_settings()
    nothing = history.no_state_yet(settings)
    if nothing is not None:
        say(nothing, err=True)
        if as_json:
            print_json([])
        return
    entries, passing = history.recent_counted(settings, limit, filters)
    if not entries:
        say(history.why_empty(settings.state_dir, filters), err=True)
    elif passing > limit:  # say so: the oldest of what was asked for is not shown
        say(f"showing the newest {limit} of {passing} entries that match; raise -n (at most 1000) or narrow"
            " --since to see the rest", err=True)
    if as_json:
        print_json(entries)
    else:
        for line in history.format_entries(entries):
            say(line)


@click.command(cls=WholeHelpCommand, name="day")
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
    settings = reading_settings()
    nothing = no_state_yet(settings)
    if nothing is not None:  # reading creates no state: the day is shown empty, and why on stderr
        say(nothing, err=True)
    for line in show(settings, wanted, as_json=as_json, html_file=html_file, empty=nothing is not None):
        say(line)


@click.command(cls=WholeHelpCommand, name="gc")
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

    settings = reading_settings()
    nothing = no_state_yet(settings)
    if nothing is not None:
        say(f"{nothing}; nothing to delete", err=True)
        if as_json:
            print_json({})
        return
    deleted = collect(settings, keep_days, dry_run=dry_run)
    if as_json:
        print_json({**deleted, "dry_run": dry_run})
    else:
        counts = ", ".join(f"{table} {count}" for table, count in deleted.items() if table != "cutoff")
        verb = "would delete" if dry_run else "deleted"
        say(f"{verb} rows older than {deleted['cutoff']}: {counts}")


@click.group(name="state", cls=VerboseEverywhere, context_settings=HELP)
def state() -> None:
    """Copy the state between SQLite and PostgreSQL (`state copy`); show or reset the behaviour it remembers."""


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
        copied = copy_between(reading_settings(), other, to_other=to_url is not None, clock=utc_now,
                              argument="--to" if to_url else "--from")
    except KarakuriError as exc:  # every failure the same way: one line, exit 2 (nothing half-copied)
        fail(exc.message, EXIT_USAGE)
    if as_json:
        print_json(copied)
        return
    counts = ", ".join(f"{table} {count}" for table, count in copied.items())
    say(f"copied {'to' if to_url else 'from'} {masked(other)}: {counts}")


@state.command("show")
@click.option("--json", "as_json", is_flag=True, help="Print the variables, rules and directives as JSON.")
@handles_errors
def show(as_json: bool) -> None:
    """Show what the pack's behaviour remembers: every variable with its band, each rule's fires, cooldown and
    switch, the active directives. Reads only: creates and changes nothing."""
    from karakuri_agent.app.behaviour_state import shown, text_lines
    from karakuri_agent.app.day.read import latest_activity
    from karakuri_agent.app.history import no_state_yet
    from karakuri_agent.behaviour.spec import EMPTY
    from karakuri_agent.domain.clock import utc_now
    from karakuri_agent.state.factory import open_state
    from karakuri_agent.voice.persona_pack import load_configured

    settings = reading_settings()
    behaviour = load_configured(settings.persona_dir).behaviour or EMPTY
    nothing = no_state_yet(settings)
    if nothing is not None:  # no state yet: every value is the pack's initial one
        say(nothing, err=True)
        memory, now = {}, None
    else:
        with open_state(settings, utc_now, read_only=True) as opened:
            memory, now = opened.store.behaviour_state(), latest_activity(opened.store)
    view = shown(behaviour, memory, now)
    if as_json:
        print_json(view)
        return
    for line in text_lines(view):
        say(line)


@state.command("reset-behaviour")
@click.option("--rule", "rule_id", metavar="ID", help="Only this rule: its fire count, cooldown and switch.")
@click.option("--variable", "path", metavar="PATH",
              help="Only this variable (a name: every person's; `name.person`: one person's).")
@handles_errors
def reset_behaviour(rule_id: str | None, path: str | None) -> None:
    """Set the pack's variables, rule records and directives back to the pack's initial values."""
    from karakuri_agent.app.behaviour_state import reset
    from karakuri_agent.app.history import no_state_yet
    from karakuri_agent.behaviour.spec import EMPTY
    from karakuri_agent.domain.clock import utc_now
    from karakuri_agent.state.factory import open_state
    from karakuri_agent.voice.persona_pack import load_configured

    settings = reading_settings()
    behaviour = load_configured(settings.persona_dir).behaviour or EMPTY
    nothing = no_state_yet(settings)
    if nothing is not None:
        reset(behaviour, {}, rule=rule_id, variable=path)  # a wrong id or path: exit 2, nothing created
        say(f"{nothing}; nothing to reset", err=True)
        return
    with open_state(settings, utc_now, read_only=True) as opened:  # one the pack left behind is known only here
        reset(behaviour, opened.store.behaviour_state(), rule=rule_id, variable=path)
    with open_state(settings, utc_now) as opened, opened.turn(settings.agent_key):  # never between a run's read and write
        with opened.store.batch():
            memory, done = reset(behaviour, opened.store.behaviour_state(), rule=rule_id, variable=path)
            opened.store.save_behaviour_state(memory)
    for line in done:
        say(line)
