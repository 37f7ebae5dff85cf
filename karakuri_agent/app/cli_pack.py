"""The commands about the character pack: persona init/check/skill, and the rules it decides by."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from karakuri_agent.app.cli_support import (
    HELP,
    PACK_DIR,
    VerboseEverywhere,
    WholeHelpCommand,
    handles_errors,
    print_json,
    reading_settings,
    say,
)
from karakuri_agent.errors import EXIT_FAILURE, UsageError
from karakuri_agent.terminal import padded, shown_lines


@click.group(name="persona", cls=VerboseEverywhere, context_settings=HELP)
def persona() -> None:
    """Make, check and use a persona pack (a character of your own; see docs/persona.md)."""


@persona.command("init")
@click.argument("directory", type=PACK_DIR)
@click.option("--name", required=True, help="The character's name, as the world knows it.")
@handles_errors
def persona_init(directory: Path, name: str) -> None:
    """Write a new pack for NAME into DIRECTORY: persona.json (who it is, how it speaks), an empty
    behaviour.json (what it does: rules, reactions, variables; docs/behaviour.md) and a README.md
    explaining every field of both."""
    from karakuri_agent.app.persona_scaffold import init_pack
    from karakuri_agent.behaviour.spec import BEHAVIOUR_FILE

    for path in init_pack(directory, name):
        say(f"wrote {path}")
    say(f"next: edit {directory / 'persona.json'} (the voice) and {directory / BEHAVIOUR_FILE} (the rules,"
        f" reactions and variables), then `karakuri-agent persona check {directory}`; try it offline with"
        f" `KARAKURI_PERSONA_DIR={directory} karakuri-agent demo`")


@persona.command("check")
@click.argument("directory", type=PACK_DIR)
@click.option("--state", "against_state", is_flag=True,
              help="Also read the agent's state (the one KARAKURI_STATE_DIR or KARAKURI_DATABASE_URL names, in the"
                   " environment or .env; read only) and name every variable and rule it remembers that the"
                   " pack no longer has.")
@handles_errors
def persona_check(directory: Path, against_state: bool) -> None:
    """Validate the pack in DIRECTORY: exit 0, or exit 1 with one line per problem.

    A usable pack also gets one line naming the phrase sets it leaves unset
    (they use the neutral lines in the pack's register); with --state, one
    line per variable or rule the state keeps that the pack no longer has."""
    from karakuri_agent.voice.persona_pack import problems, unset_phrase_sets

    found = problems(directory)
    for line in found:
        say(line)
    if found:
        sys.exit(EXIT_FAILURE)
    say(f"{directory}: ok")
    register, unset = unset_phrase_sets(directory)
    if unset:
        say(f"{directory}: {len(unset)} phrase set(s) not set, said with neutral {register} lines: "
                   + ", ".join(unset))
    if against_state:
        for line in _left_behind(directory):
            say(f"{directory}: {line}")


def _left_behind(directory: Path) -> list[str]:
    """What the configured state remembers that the pack in `directory` no longer has (read only)."""
    from karakuri_agent.app.behaviour_state import left_behind
    from karakuri_agent.app.history import no_state_yet
    from karakuri_agent.behaviour.spec import EMPTY
    from karakuri_agent.domain.clock import utc_now
    from karakuri_agent.state.factory import open_state
    from karakuri_agent.voice.persona_pack import load_persona

    settings = reading_settings()
    nothing = no_state_yet(settings)
    if nothing is not None:
        return [f"{nothing}: nothing it remembers to compare"]
    with open_state(settings, utc_now, read_only=True) as opened:
        memory = opened.store.behaviour_state()
    return left_behind(load_persona(directory).behaviour or EMPTY, memory) or [
        "the state remembers no variable or rule the pack no longer has"]


@click.command(cls=WholeHelpCommand, name="rules")
@click.option("--pack", type=PACK_DIR, default=None,
              help="The persona pack whose behaviour.json to merge [default: KARAKURI_PERSONA_DIR, else the bundled one].")
@click.option("--json", "as_json", is_flag=True, help="Print the rules as JSON.")
@handles_errors
def rules(pack: Path | None, as_json: bool) -> None:
    """List the rules in the order they are tried: the built-in ones merged with the pack's (docs/behaviour.md)."""
    from karakuri_agent.app.config import load_settings
    from karakuri_agent.behaviour.selector import Selector
    from karakuri_agent.behaviour.spec import EMPTY
    from karakuri_agent.decide.rules import BUILTIN_RULES
    from karakuri_agent.voice.persona_pack import load_configured

    if pack is None:
        loaded = load_configured(load_settings(require_api=False).persona_dir)
    else:
        from karakuri_agent.errors import ConfigError
        from karakuri_agent.voice.persona_pack import BrokenPack, load_persona

        try:  # the pack named here, not KARAKURI_PERSONA_DIR: its errors name --pack
            loaded = load_persona(pack)
        except BrokenPack as exc:
            raise ConfigError(f"--pack {pack}: {exc}") from None
    entries = Selector(BUILTIN_RULES, loaded.behaviour or EMPTY).entries()
    if as_json:
        print_json([vars(e) for e in entries])
        return
    for e in entries:
        state = "" if e.enabled else f"(off: {e.off_by}) " if e.off_by else "(off) "
        details = ", ".join([f"on {e.trigger}"] * bool(e.trigger) + [f"cooldown {e.cooldown}"] * bool(e.cooldown)
                            + [f"at most {e.max_fires} fires"] * (e.max_fires is not None))
        say(f"{e.priority:>5}  {padded(e.id, 24)} {e.source if e.source == 'built-in' else 'pack':<8}  {state}{e.description}"
            + (f"  [{details}]" if details else ""))


@persona.command("skill")
@click.argument("directory", type=PACK_DIR, required=False)
@click.option("--agent-id", default="", help="The agent's id in the world [default: KARAKURI_SELF_AGENT_ID].")
@handles_errors
def persona_skill(directory: Path | None, agent_id: str) -> None:
    """Print skill/SKILL.md for the pack in DIRECTORY (default: KARAKURI_PERSONA_DIR, else the bundled one)."""
    from karakuri_agent.app.operations import load_configured_persona
    from karakuri_agent.app.persona_scaffold import skill_text

    settings = reading_settings()
    if directory is not None:
        settings = replace(settings, persona_dir=directory)
    agent_id = agent_id.strip() or settings.self_agent_id
    if not agent_id:
        raise UsageError("the skill needs the agent's id: pass --agent-id ID or set KARAKURI_SELF_AGENT_ID")
    if not (agent_id.isascii() and agent_id.isdigit()):
        raise UsageError(f"the agent's id is digits (as in `(id: 1470446478261747854)` in a notification),"
                         f" got {agent_id!r}")
    click.echo(shown_lines(skill_text(load_configured_persona(settings), agent_id)), nl=False)
