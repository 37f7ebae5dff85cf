"""A fleet file: many characters from one install, each its own agent (docs/fleet.md).

TOML, one `[[agent]]` table per character, naming that agent's env file
(relative to the fleet file):

    [[agent]]
    env_file = "nike.env"

Each env file holds that agent's settings exactly as a one-agent `.env` does
(its key, id and name, channels, pack, state, webhook, decider). The
process's own environment gives defaults that every env file may override:
a fleet turns the one-agent precedence round (app/config.py).

Read whole before anything runs. A fleet must keep its agents apart, so a
second agent with the same id, key, channel or SQLite state directory stops
it at start, with one line naming the env files and the setting; so does a
bad setting in any env file (the file named, then the setting). Two agents
may share one PostgreSQL database, each in a schema of its own named in its
URL (`?options=-csearch_path%3Dnike`, made on first use by state/postgres.py);
two naming the same URL would share their memory, and are refused.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from karakuri_agent.app.config import Settings, load_settings
from karakuri_agent.domain.limits import MAX_CONFIGURED_FILE_BYTES
from karakuri_agent.errors import ConfigError
from karakuri_agent.outside import file_kind, read_regular_file

AGENT_KEYS = frozenset({"env_file"})
SECRET_SETTINGS = frozenset({"KARAKURI_API_KEY", "KARAKURI_DATABASE_URL"})


@dataclass(frozen=True)
class Member:
    """One agent of the fleet: its env file and the settings read from it."""

    env_file: Path
    settings: Settings

    @property
    def name(self) -> str:
        """How the log names it: the agent's name, else its id, else its env file."""
        return self.settings.self_name or self.settings.self_agent_id or self.env_file.name


def env_files(path: Path) -> list[Path]:
    """The env files a fleet file names, in order, each resolved beside the fleet file; ConfigError naming
    the file and what is wrong with it (not TOML, no agents, an unknown key, an env file that is missing)."""
    try:
        text = read_regular_file(path, MAX_CONFIGURED_FILE_BYTES)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such fleet file") from None
    except OSError as exc:
        kind = file_kind(path)
        raise ConfigError(f"{path}: cannot read the fleet file ({kind or exc.strerror})") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: the fleet file is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not TOML ({exc}); a fleet file is [[agent]] tables with env_file = \"...\"") \
            from None
    unknown = sorted(set(data) - {"agent"})
    if unknown:
        raise ConfigError(f"{path}: {unknown[0]!r} is not a fleet setting; only [[agent]] tables are read")
    agents: Any = data.get("agent")
    if not isinstance(agents, list) or not agents or not all(isinstance(a, dict) for a in agents):
        raise ConfigError(f"{path}: no [[agent]] tables; each names one agent's env file (env_file = \"nike.env\")")
    found: list[Path] = []
    for number, agent in enumerate(agents, 1):
        extra = sorted(set(agent) - AGENT_KEYS)
        if extra:
            raise ConfigError(f"{path}, agent {number}: {extra[0]!r} is not read; an [[agent]] table holds only"
                              " env_file (every other setting goes in the env file)")
        named = agent.get("env_file")
        if not isinstance(named, str) or not named.strip():
            raise ConfigError(f"{path}, agent {number}: env_file is not set (env_file = \"nike.env\")")
        env_path = (path.parent / Path(named.strip()).expanduser()).absolute()
        if not env_path.is_file():
            kind = file_kind(env_path)
            raise ConfigError(f"{path}, agent {number}: env_file {env_path} "
                              + (f"is {kind}, not a regular file" if kind else "does not exist"))
        if env_path in found:
            raise ConfigError(f"{path}, agent {number}: env_file {env_path} is agent {found.index(env_path) + 1}'s"
                              " too; each agent has an env file of its own")
        found.append(env_path)
    return found


def read_member(env_file: Path, environ: Mapping[str, str], *, lenient: bool = False) -> Member:
    """One agent's settings: its env file over the process's environment; ConfigError names the file."""
    base = {k: v for k, v in environ.items() if k != "KARAKURI_ENV_FILE"}  # the fleet names each agent's file
    try:
        settings = load_settings(base, env_file=env_file, lenient=lenient, file_over_environ=True)
    except ConfigError as exc:
        raise ConfigError(f"{env_file}: {exc.message}") from None
    return Member(env_file, settings)


def apart(members: list[Member]) -> list[str]:
    """What keeps two agents from being two: one line per clash (an id, a key, a channel, a state directory
    named by two env files), and per agent a setting a fleet cannot run without."""
    problems: list[str] = []
    for member in members:
        if not member.settings.agent_key:
            problems.append(f"{member.env_file}: KARAKURI_SELF_AGENT_ID is not set: a fleet tells its agents"
                            " apart by their ids")
        if not member.settings.channel_ids:
            problems.append(f"{member.env_file}: KARAKURI_CHANNEL_IDS is not set: a fleet hands each agent the"
                            " messages of its own channels")
        if member.settings.fixtures_dir is not None:
            problems.append(f"{member.env_file}: KARAKURI_FIXTURES_DIR is set: recorded fixtures replay one"
                            " agent (karakuri-agent handle --fixtures), never a fleet")
    checks: tuple[tuple[str, Callable[[Settings], set[str]]], ...] = (
        ("KARAKURI_SELF_AGENT_ID", lambda s: {s.agent_key} if s.agent_key else set()),
        ("KARAKURI_API_KEY", lambda s: {s.api_key.get()} if s.api_key.get() else set()),
        ("KARAKURI_CHANNEL_IDS", lambda s: set(s.channel_ids)),
        ("KARAKURI_STATE_DIR", lambda s: set() if s.database_url else {os.path.realpath(s.state_dir)}),
        ("KARAKURI_DATABASE_URL", lambda s: {s.database_url.get()} if s.database_url else set()),
    )
    for setting, values in checks:
        seen: dict[str, Path] = {}
        for member in members:
            for value in sorted(values(member.settings)):
                if value in seen and seen[value] != member.env_file:
                    shown = "" if setting in SECRET_SETTINGS else f" ({value})"  # a secret is never shown
                    hint = " (a schema of its own: ?options=-csearch_path%3Dname)" \
                        if setting == "KARAKURI_DATABASE_URL" else ""
                    problems.append(f"{seen[value]} and {member.env_file} name the same {setting}{shown}:"
                                    f" each agent of a fleet needs its own{hint}")
                seen.setdefault(value, member.env_file)
    return problems


def load_fleet(path: Path, environ: Mapping[str, str] | None = None) -> list[Member]:
    """Every agent of the fleet file, checked; ConfigError with the first problem (exit 2, nothing run)."""
    env = dict(os.environ if environ is None else environ)
    members = [read_member(env_file, env) for env_file in env_files(path)]
    problems = apart(members)
    if problems:
        raise ConfigError(problems[0])
    return members
