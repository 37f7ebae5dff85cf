"""Settings from the environment and an optional `.env` file.

Every variable read here is listed in `.env.example`. Real environment
variables win over `.env` (so a runtime can override a checked-out file).
Secrets are wrapped in `Secret`, whose repr and str never show the value, so a
settings object can be logged or put in an error without leaking anything.
"""

from __future__ import annotations

import errno
import ipaddress
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, TypeVar
from urllib.parse import urlsplit

from karakuri_agent.domain.limits import MAX_CONFIGURED_FILE_BYTES
from karakuri_agent.env_values import parse_flag, parse_number, refuse_credentials
from karakuri_agent.errors import ConfigError
from karakuri_agent.outside import file_kind, read_regular_file
from karakuri_agent.secret import Secret, webhook_token

if TYPE_CHECKING:
    from karakuri_agent.llm.settings import LLMSettings

# Base URL used when the API is served from recorded fixtures: never resolvable.
# How .env.example's placeholders begin (`KARAKURI_API_KEY=replace-with-your-api-key`): never a real key.
PLACEHOLDER_PREFIX = "replace-with-"
FIXTURE_BASE_URL = "http://fixtures.invalid/api"

# Every variable the program reads (the test suite's own KARAKURI_TEST_* aside):
# a KARAKURI_* name outside this list is a typo worth a warning.
KNOWN_VARIABLES = (
    "KARAKURI_API_BASE_URL", "KARAKURI_API_KEY", "KARAKURI_SELF_AGENT_ID", "KARAKURI_SELF_NAME",
    "KARAKURI_STATE_DIR", "KARAKURI_DATABASE_URL", "KARAKURI_WORLD_CONTEXT_FILE", "KARAKURI_PERSONA_DIR",
    "KARAKURI_PERSONA_FILE", "KARAKURI_FIXTURES_DIR", "KARAKURI_HTTP_TIMEOUT", "KARAKURI_GET_RETRY_BUDGET",
    "KARAKURI_WEBHOOK_BUDGET", "KARAKURI_AGENT_DISABLED", "KARAKURI_COOLDOWN_SECONDS",
    "KARAKURI_TRANSFER_POLICY", "KARAKURI_DECIDER", "KARAKURI_LLM_BASE_URL", "KARAKURI_LLM_API_KEY",
    "KARAKURI_LLM_MODEL", "KARAKURI_LLM_TIMEOUT", "KARAKURI_LLM_MAX_TOKENS", "KARAKURI_LLM_TEMPERATURE",
    "KARAKURI_CHANNEL_IDS", "KARAKURI_WORLD_AUTHOR_IDS",
    "KARAKURI_ENV_FILE", "KARAKURI_DEBUG",
)
_NOT_CHECKED_PREFIX = "KARAKURI_TEST_"
# Where the state is: a command that only reads the state (`log`, `gc`) cannot go on without them.
STATE_VARIABLES = ("KARAKURI_ENV_FILE", "KARAKURI_STATE_DIR", "KARAKURI_DATABASE_URL")


@dataclass(frozen=True)
class EnvSource:
    """Which `.env` was looked for, and whether it was there (so every message can say where it looked)."""

    path: Path
    found: bool
    file_wins: bool = False  # a fleet's agent: the file overrides the environment

    def describe(self) -> str:
        if self.found:
            return f"read {self.path}"
        return f"no .env in {self.path.parent}"


def find_env_file(env: Mapping[str, str], override: Path | None = None) -> EnvSource:
    """The `.env` to read: `override`, else KARAKURI_ENV_FILE (which must exist), else ./.env (which may not).

    A named path that is there but is no regular file (a FIFO, a directory, a
    device) is said to be what it is, not "missing".
    """
    named = override or (Path(env["KARAKURI_ENV_FILE"]).expanduser() if env.get("KARAKURI_ENV_FILE", "").strip()
                         else None)
    if named is not None:
        path = named.absolute()
        if override is None and not path.is_file() and path != Path(os.devnull):
            kind = file_kind(path)
            if kind is None:
                raise ConfigError(f"KARAKURI_ENV_FILE names {path}, which does not exist")
            raise ConfigError(f"KARAKURI_ENV_FILE names {path}, which is {kind}, not a regular file")
        return EnvSource(path, path.is_file() or file_kind(path) is not None)
    path = Path.cwd() / ".env"
    return EnvSource(path, path.is_file() or file_kind(path) is not None)


def read_env_file(path: Path, *, skip_bad_lines: bool = False) -> dict[str, str]:
    """The file's variables in the dotenv format (comments, quotes, `export`), by python-dotenv.

    Imported only here: a run with no `.env` never pays for it. A name with no
    `=` has no value and is left out, so it cannot blank a real variable. A
    line python-dotenv cannot parse (`KARAKURI_AGENT_DISABLED="1`, its
    closing quote missing) would be skipped with a warning, the setting it
    holds silently not set: it is a ConfigError naming the file and the line
    (`skip_bad_lines`: left out, for `doctor`, which lists it as a problem).
    A missing file has no variables; anything else must be a regular file.
    """
    import io

    from dotenv import dotenv_values
    from dotenv.parser import parse_stream

    if path == Path(os.devnull):  # KARAKURI_ENV_FILE=/dev/null: no file settings, on purpose
        return {}
    try:
        text = read_regular_file(path, MAX_CONFIGURED_FILE_BYTES)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        kind = file_kind(path) if exc.errno == errno.EINVAL else None
        raise ConfigError(f"cannot read {path}: " + (f"it is {kind}, not a regular file" if kind else
                                                      str(exc.strerror))) from None
    except UnicodeDecodeError:
        raise ConfigError(f"cannot read {path}: it is not UTF-8 text") from None
    bindings = list(parse_stream(io.StringIO(text)))
    bad = [binding.original.line for binding in bindings if binding.error]
    if bad and not skip_bad_lines:
        raise ConfigError(f"{path}, line {bad[0]}: not a NAME=value line (an unclosed quote?); fix it, or the"
                          " setting it holds would be silently left out")
    if bad:  # python-dotenv is given the good lines only, so it has nothing to warn about on stderr
        text = "".join(binding.original.string for binding in bindings if not binding.error)
    values = dotenv_values(stream=io.StringIO(text))
    return {key: value for key, value in values.items() if value is not None}


def unknown_names(values: Mapping[str, str], where: str) -> list[str]:
    """One warning per KARAKURI_* name nothing reads, with the closest known one (difflib, imported only then)."""
    unknown = sorted(name for name in values if name.startswith("KARAKURI_") and name not in KNOWN_VARIABLES
                     and not name.startswith(_NOT_CHECKED_PREFIX))
    if not unknown:
        return []
    import difflib

    lines = []
    for name in unknown:
        close = difflib.get_close_matches(name, KNOWN_VARIABLES, n=1, cutoff=0.6)
        hint = f"did you mean {close[0]}?" if close else "see .env.example for the names that are read"
        lines.append(f"{name} ({where}) is not a setting karakuri-agent reads; {hint}")
    return lines


def default_state_dir() -> Path:
    """The platform's per-user data directory (imported lazily: it is rarely needed)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("karakuri-agent", appauthor=False))


TRANSFER_POLICIES = ("known", "accept", "reject")
# What KARAKURI_DECIDER may name: app/registry.py builds each (tests/test_layers.py holds the two alike).
DECIDER_NAMES = ("rules", "llm")
T = TypeVar("T")


@dataclass(frozen=True)
class Settings:
    api_base_url: str
    api_key: Secret
    state_dir: Path
    webhook_url: Secret | None = None
    self_agent_id: str = ""
    self_name: str = ""
    world_context_file: Path | None = None
    fixtures_dir: Path | None = None
    persona_dir: Path | None = None
    http_timeout: float = 10.0
    get_retry_budget: float = 20.0
    webhook_budget: float = 10.0
    disabled: bool = False
    cooldown_seconds: float = 0.0
    transfer_policy: str = ""  # "" when unset: the persona pack's rule, else "known"
    decider: str = "rules"
    database_url: Secret | None = None
    # The model's endpoint, read only when KARAKURI_DECIDER=llm (None otherwise).
    llm: LLMSettings | None = None
    # The resident mode (`listen`): the bot's token, the channels it reads, whose messages count.
    discord_bot_token: Secret | None = None
    channel_ids: frozenset[str] = frozenset()
    world_author_ids: frozenset[str] = frozenset()
    secrets: tuple[str, ...] = field(default=(), repr=False)
    # Where the settings came from, and what was noticed on the way (printed by the CLI).
    env_source: EnvSource | None = None
    warnings: tuple[str, ...] = ()
    # With `lenient=True`: each bad variable and its message (its default was used instead).
    problems: tuple[tuple[str, str], ...] = ()

    @property
    def agent_key(self) -> str:
        """Whose turn a run takes in the state (state/agent_turn.py): the agent's id, else its name."""
        return self.self_agent_id or self.self_name


class _Checks:
    """Raise the first bad variable, or (lenient) keep every one and go on with its default."""

    def __init__(self, lenient: bool) -> None:
        self.lenient = lenient
        self.problems: list[tuple[str, str]] = []

    def __call__(self, name: str, read: Callable[[], T], fallback: T) -> T:
        try:
            return read()
        except ConfigError as exc:
            if not self.lenient:
                raise
            self.problems.append((name, exc.message))
            return fallback


def _header_safe(value: str) -> bool:
    """Visible ASCII only: what an HTTP header can carry without a line break or an encoding error."""
    return all("!" <= ch <= "~" for ch in value)


def load_settings(
    environ: Mapping[str, str] | None = None,
    *,
    env_file: Path | None = None,
    require_api: bool = True,
    fixtures_dir: Path | None = None,
    lenient: bool = False,
    file_over_environ: bool = False,
) -> Settings:
    """Build settings; raise ConfigError naming the first bad variable.

    `require_api` is False for commands that never call the server (`log`).
    With fixtures (argument or `KARAKURI_FIXTURES_DIR`) no URL or key is needed.
    `lenient` keeps going past bad values (their defaults are used) and lists
    them in `problems`: for `doctor`, which reports them all, and for commands
    that only read the state, which warn about them. `file_over_environ` turns
    the precedence round for a fleet (app/fleet.py): each agent's env file
    overrides the process's environment, whose settings are the defaults.
    """
    env = dict(os.environ if environ is None else environ)
    check = _Checks(lenient)
    source = check("KARAKURI_ENV_FILE", lambda: find_env_file(env, env_file), None)
    from_file: dict[str, str] = {}
    if source is not None and source.found:
        found = source.path
        read = check("KARAKURI_ENV_FILE", lambda: read_env_file(found), None)
        # Lenient (doctor): the bad line is a problem, the lines around it are still read.
        from_file = read if read is not None else read_env_file(found, skip_bad_lines=True)
    merged = {**env, **from_file} if file_over_environ else {**from_file, **env}
    if source is not None and file_over_environ:
        source = replace(source, file_wins=True)
    warnings = [*unknown_names({k: v for k, v in from_file.items() if file_over_environ or k not in env},
                               f"in {source.path}" if source else ""),
                *unknown_names(env, "in the environment")]

    def missing(name: str) -> ConfigError:
        where = source.describe() if source else "no .env read"
        return ConfigError(f"{name} is not set: not in the environment, and {where}"
                           f" (see .env.example; KARAKURI_ENV_FILE names another file)")

    if fixtures_dir is None and merged.get("KARAKURI_FIXTURES_DIR"):
        fixtures_dir = Path(merged["KARAKURI_FIXTURES_DIR"])
    base_url = merged.get("KARAKURI_API_BASE_URL", "").strip().rstrip("/")
    api_key = merged.get("KARAKURI_API_KEY", "").strip()
    webhook = merged.get("DISCORD_WEBHOOK_URL", "").strip()
    database_url = merged.get("KARAKURI_DATABASE_URL", "").strip()
    bot_token = merged.get("DISCORD_BOT_TOKEN", "").strip()
    model_key = merged.get("KARAKURI_LLM_API_KEY", "").strip()
    from karakuri_agent.state.urls import password_pieces

    # The database URL whole, and its password and its pieces (a driver message may quote them without the URL).
    secrets = tuple(s for s in (api_key, webhook, *webhook_token(webhook), database_url,
                                *password_pieces(database_url), model_key, bot_token)
                    if len(s) >= 4)
    if fixtures_dir is not None:
        base_url = base_url or FIXTURE_BASE_URL
        api_key = api_key or "fixtures"
    elif require_api:
        def api_url() -> str:
            if not base_url:
                raise missing("KARAKURI_API_BASE_URL")
            if not base_url.startswith(("http://", "https://")):
                raise ConfigError("KARAKURI_API_BASE_URL must start with http:// or https://")
            # The URL itself is never quoted: it may hold a password.
            try:
                parts = urlsplit(base_url)
                host = parts.hostname
            except ValueError:
                parts, host = None, None
            if parts is None or not host:
                raise ConfigError("KARAKURI_API_BASE_URL is not a URL with a host name,"
                                  " e.g. https://karakuri.example.com/api")
            refuse_credentials("KARAKURI_API_BASE_URL", parts, "KARAKURI_API_KEY")
            return base_url

        def key() -> str:
            if not api_key:
                raise missing("KARAKURI_API_KEY")
            if api_key.startswith(PLACEHOLDER_PREFIX):  # .env.example's `replace-with-your-api-key`, copied as is
                raise ConfigError("KARAKURI_API_KEY is still the .env.example placeholder: put the key issued"
                                  " at the agent's registration there")
            return api_key

        base_url = check("KARAKURI_API_BASE_URL", api_url, base_url)
        api_key = check("KARAKURI_API_KEY", key, api_key)

    def header_safe_key() -> str:
        if api_key and not _header_safe(api_key):
            raise ConfigError("KARAKURI_API_KEY must be printable ASCII with no spaces or line breaks"
                              " (it travels in an HTTP header); copy it again from the registration")
        return api_key

    api_key = check("KARAKURI_API_KEY", header_safe_key, "")

    def webhook_url() -> Secret | None:
        if webhook and not _secure_or_loopback(webhook):
            raise ConfigError("DISCORD_WEBHOOK_URL must be an https:// URL with a host"
                              " (http:// only to 127.0.0.1, localhost or [::1])")
        return Secret(webhook) if webhook else None

    def transfer_policy() -> str:
        value = merged.get("KARAKURI_TRANSFER_POLICY", "").strip()
        if value and value not in TRANSFER_POLICIES:
            raise ConfigError(f"KARAKURI_TRANSFER_POLICY must be one of {', '.join(TRANSFER_POLICIES)}, got {value!r}")
        return value

    def decider() -> str:
        name = merged.get("KARAKURI_DECIDER", "").strip() or "rules"
        if name not in DECIDER_NAMES:  # an unknown name is a configuration error before anything is read
            raise ConfigError(f"KARAKURI_DECIDER must be one of {', '.join(DECIDER_NAMES)}, got {name!r}")
        return name

    def database() -> Secret | None:
        from karakuri_agent.state.factory import backend_for

        backend_for(database_url)  # so is a database this version cannot open
        return Secret(database_url) if database_url else None

    def no_persona_file() -> None:
        if merged.get("KARAKURI_PERSONA_FILE", "").strip():
            raise ConfigError("KARAKURI_PERSONA_FILE is no longer read: set KARAKURI_PERSONA_DIR to the pack's"
                              " directory (the one holding persona.json) instead")

    def optional_path(name: str) -> Path | None:
        value = merged.get(name, "").strip()
        return Path(value).expanduser() if value else None

    def number(name: str, default: float, minimum: float = 0) -> float:
        return check(name, lambda: parse_number(merged, name, default, minimum=minimum), default)

    chosen_decider = check("KARAKURI_DECIDER", decider, "rules")
    llm = None
    # Read only when the model may be asked: the rules path never reads (or imports)
    # the model's settings, nor do `log` and `gc`, which never decide.
    if chosen_decider == "llm" and require_api:
        def model() -> LLMSettings:
            from karakuri_agent.llm.settings import LLMSettings

            return LLMSettings.from_env(merged)

        llm = check("KARAKURI_LLM_BASE_URL", model, None)
    check("KARAKURI_PERSONA_FILE", no_persona_file, None)
    state_dir = optional_path("KARAKURI_STATE_DIR")

    return Settings(
        api_base_url=base_url,
        api_key=Secret(api_key),
        webhook_url=check("DISCORD_WEBHOOK_URL", webhook_url, None),
        state_dir=state_dir or default_state_dir(),
        self_agent_id=merged.get("KARAKURI_SELF_AGENT_ID", "").strip(),
        self_name=merged.get("KARAKURI_SELF_NAME", "").strip(),
        world_context_file=optional_path("KARAKURI_WORLD_CONTEXT_FILE"),
        fixtures_dir=fixtures_dir,
        persona_dir=optional_path("KARAKURI_PERSONA_DIR"),
        http_timeout=number("KARAKURI_HTTP_TIMEOUT", 10.0, minimum=0.1),
        get_retry_budget=number("KARAKURI_GET_RETRY_BUDGET", 20.0),
        webhook_budget=number("KARAKURI_WEBHOOK_BUDGET", 10.0),
        # A bad off switch is never taken as "on" for acting: lenient callers only read.
        disabled=check("KARAKURI_AGENT_DISABLED", lambda: parse_flag(merged, "KARAKURI_AGENT_DISABLED"), True),
        cooldown_seconds=number("KARAKURI_COOLDOWN_SECONDS", 0.0),
        transfer_policy=check("KARAKURI_TRANSFER_POLICY", transfer_policy, ""),
        decider=chosen_decider,
        database_url=check("KARAKURI_DATABASE_URL", database, None),
        llm=llm,
        discord_bot_token=Secret(bot_token) if bot_token else None,
        channel_ids=check("KARAKURI_CHANNEL_IDS", lambda: _discord_ids(merged, "KARAKURI_CHANNEL_IDS"), frozenset()),
        world_author_ids=check("KARAKURI_WORLD_AUTHOR_IDS",
                               lambda: _discord_ids(merged, "KARAKURI_WORLD_AUTHOR_IDS"), frozenset()),
        secrets=secrets,
        env_source=source,
        warnings=tuple(warnings),
        problems=tuple(check.problems),
    )


def _discord_ids(env: Mapping[str, str], name: str) -> frozenset[str]:
    """Comma-separated Discord ids (digits); empty means "no filter". A channel *name* is a mistake worth stopping on."""
    ids = frozenset(part.strip() for part in env.get(name, "").split(",") if part.strip())
    wrong = sorted(i for i in ids if not i.isascii() or not i.isdigit())
    if wrong:
        raise ConfigError(f"{name} must be Discord ids (digits) separated by commas, got {wrong[0]!r}")
    return ids


def _secure_or_loopback(url: str) -> bool:
    """https anywhere; plain http only where it never leaves the machine (a local relay, a test server).

    Either way the URL must name a host: `https://` alone posts nowhere.
    """
    if not url.startswith(("https://", "http://")):
        return False
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return False
    if not host:
        return False
    if url.startswith("https://"):
        return True
    if host == "localhost":
        return True
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def debug_enabled() -> bool:
    """KARAKURI_DEBUG=1: a bug shows its traceback. Read when a bug happens, from the environment alone
    (the settings may be what failed to load)."""
    return os.environ.get("KARAKURI_DEBUG") == "1"


def demo_environment(*, with_env_file: bool = True) -> dict[str, str]:
    """What `demo` may take from the user's configuration: the environment (over `.env`, unless told not to)."""
    if not with_env_file:
        return dict(os.environ)
    return {**read_env_file(Path(os.environ.get("KARAKURI_ENV_FILE") or ".env")), **os.environ}
