"""Two thin click front ends: `karakuri` (the wrapper) and `karakuri-agent`.

No logic lives here: parse arguments, call one function, print, map errors to
exit codes (0 done, 1 the server said no or the outcome is unknown, 2 bad
input or configuration, nothing sent). Errors are one line; no traceback
reaches the user unless KARAKURI_DEBUG=1. A reader that stops early
(`demo | head -1`) ends the program quietly, as Python's documentation
recommends for a closed pipe (exit 1, nothing on stderr)."""

from __future__ import annotations

from types import SimpleNamespace

import click

from karakuri_agent.app.cli_support import (
    HELP,
    PACKAGE,
    VERBOSE,
    VerboseEverywhere,
    cli_settings,
    handles_errors,
    interruptible,
    parse_params,
    print_json,
    print_problems,
    show_waits_on_a_terminal,
)


# -- karakuri: the wrapper for LLM runtimes ---------------------------------------
@click.group("karakuri", cls=VerboseEverywhere, context_settings=HELP)
@click.version_option(package_name=PACKAGE)
@VERBOSE
def karakuri() -> None:
    """Read a Karakuri World notification with its decision context, or act on it once."""
    show_waits_on_a_terminal()


@karakuri.command("get_notification")
@click.argument("notification_id")
@handles_errors
def get_notification(notification_id: str) -> None:
    """Print the notification with `nikechan_preprocess` added."""
    from karakuri_agent.app import wrapper

    with interruptible():
        print_json(wrapper.get_notification(cli_settings(), notification_id))


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

    with interruptible():
        outcome = wrapper.run_command(cli_settings(), notification_id, command, parse_params(params_json))
        print_json(outcome.result)
        if outcome.unrecorded:
            print_problems(SimpleNamespace(error=None, unrecorded=outcome.unrecorded, webhook=None))


# -- karakuri-agent: the autonomous agent ------------------------------------------
# Each of the agent's commands, and the module of its job that defines it.
AGENT_COMMANDS = {
    "log": "cli_state", "day": "cli_state", "handle": "cli_run", "listen": "cli_run", "doctor": "cli_run",
    "demo": "cli_run", "town": "cli_town", "persona": "cli_pack", "rules": "cli_pack", "gc": "cli_state", "state": "cli_state",
}


class AgentCommands(VerboseEverywhere):
    """The agent's commands, each imported when it is asked for: `karakuri-agent handle` loads the
    module of the commands that run the agent, not those of `day` or `persona`, and the `karakuri`
    wrapper (in this same module) loads none of them. The help lists them all."""

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in self.commands:
            # An unknown name loads them all, so "No such command" can say which was meant.
            for wanted in [name] if name in AGENT_COMMANDS else AGENT_COMMANDS:
                self._load(wanted)
        return super().get_command(ctx, name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        for name in AGENT_COMMANDS:
            self._load(name)
        return super().list_commands(ctx)

    def _load(self, name: str) -> None:
        if name not in self.commands:
            from importlib import import_module

            self.add_command(getattr(import_module(f"karakuri_agent.app.{AGENT_COMMANDS[name]}"), name))


@click.group(PACKAGE, cls=AgentCommands, context_settings=HELP)
@click.version_option(package_name=PACKAGE)
@VERBOSE
def agent() -> None:
    """The autonomous Karakuri World agent: one notification in, at most one action out."""
    show_waits_on_a_terminal()
