"""Settings from the environment and an optional `.env` file.

Every variable read here is listed in `.env.example`. Real environment
variables win over `.env` (so a runtime can override a checked-out file).
Secrets are wrapped in `Secret`, whose repr and str never show the value, so a
settings object can be logged or put in an error without leaking anything.
"""

from __future__ import annotations

import ipaddress
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Mapping
from urllib.parse import urlsplit

from .errors import ConfigError

if TYPE_CHECKING:
    from .llm.settings import LLMSettings

# Base URL used when the API is served from recorded fixtures: never resolvable.
FIXTURE_BASE_URL = "http://fixtures.invalid/api"


class Secret:
    """A string that does not print itself."""

    __slots__ = ("_value",)

    def __init__(self, value: str) -> None:
        self._value = value

    def get(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('***')"

    __str__ = __repr__

    def __bool__(self) -> bool:
        return bool(self._value)


def read_env_file(path: Path) -> dict[str, str]:
    """Parse `KEY=VALUE` lines (comments, blank lines, `export ` and quotes allowed)."""
    values: dict[str, str] = {}
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return values
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror}") from None
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.removeprefix("export ").partition("=")
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]
        values[key.strip()] = value
    return values


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() in {"1", "true", "yes", "on"}


def _number(env: Mapping[str, str], name: str, default: float, *, minimum: float = 0) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum:g}, got {raw!r}")
    return value


def default_state_dir() -> Path:
    """The platform's per-user data directory (imported lazily: it is rarely needed)."""
    from platformdirs import user_data_dir

    return Path(user_data_dir("karakuri-agent", appauthor=False))


TRANSFER_POLICIES = ("known", "accept", "reject")


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


def _header_safe(value: str) -> bool:
    """Visible ASCII only: what an HTTP header can carry without a line break or an encoding error."""
    return all("!" <= ch <= "~" for ch in value)


def load_settings(
    environ: Mapping[str, str] | None = None,
    *,
    env_file: Path | None = None,
    require_api: bool = True,
    fixtures_dir: Path | None = None,
) -> Settings:
    """Build settings; raise ConfigError naming the first bad variable.

    `require_api` is False for commands that never call the server (`log`).
    With fixtures (argument or `KARAKURI_FIXTURES_DIR`) no URL or key is needed.
    """
    env = dict(os.environ if environ is None else environ)
    file_path = env_file or Path(env.get("KARAKURI_ENV_FILE") or ".env")
    merged = {**read_env_file(file_path), **env}

    if fixtures_dir is None and merged.get("KARAKURI_FIXTURES_DIR"):
        fixtures_dir = Path(merged["KARAKURI_FIXTURES_DIR"])
    base_url = merged.get("KARAKURI_API_BASE_URL", "").strip().rstrip("/")
    api_key = merged.get("KARAKURI_API_KEY", "").strip()
    webhook = merged.get("DISCORD_WEBHOOK_URL", "").strip()
    database_url = merged.get("KARAKURI_DATABASE_URL", "").strip()
    bot_token = merged.get("DISCORD_BOT_TOKEN", "").strip()
    model_key = merged.get("KARAKURI_LLM_API_KEY", "").strip()
    from .state.factory import password_pieces

    # The database URL whole, and its password and its pieces (a driver message may quote them without the URL).
    secrets = tuple(s for s in (api_key, webhook, database_url, *password_pieces(database_url), model_key, bot_token)
                    if len(s) >= 4)
    if fixtures_dir is not None:
        base_url = base_url or FIXTURE_BASE_URL
        api_key = api_key or "fixtures"
    elif require_api:
        if not base_url:
            raise ConfigError("KARAKURI_API_BASE_URL is not set (see .env.example)")
        if not base_url.startswith(("http://", "https://")):
            raise ConfigError("KARAKURI_API_BASE_URL must start with http:// or https://")
        if not api_key:
            raise ConfigError("KARAKURI_API_KEY is not set (see .env.example)")
    if api_key and not _header_safe(api_key):
        raise ConfigError("KARAKURI_API_KEY must be printable ASCII with no spaces or line breaks"
                          " (it travels in an HTTP header); copy it again from the registration")

    if webhook and not _secure_or_loopback(webhook):
        raise ConfigError("DISCORD_WEBHOOK_URL must start with https:// (http:// only to 127.0.0.1, localhost or [::1])")
    transfer_policy = merged.get("KARAKURI_TRANSFER_POLICY", "").strip()
    if transfer_policy and transfer_policy not in TRANSFER_POLICIES:
        raise ConfigError(f"KARAKURI_TRANSFER_POLICY must be one of {', '.join(TRANSFER_POLICIES)}")

    decider = merged.get("KARAKURI_DECIDER", "").strip() or "rules"
    from .deciders import decider_builder

    decider_builder(decider)  # an unknown name is a configuration error before anything is read
    llm = None
    # Read only when the model may be asked: the rules path never reads (or imports)
    # the model's settings, nor do `log` and `gc`, which never decide.
    if decider == "llm" and require_api:
        from .llm.settings import LLMSettings

        llm = LLMSettings.from_env(merged)
    from .state.factory import backend_for

    backend_for(database_url)  # so is a database this version cannot open

    if merged.get("KARAKURI_PERSONA_FILE", "").strip():
        raise ConfigError("KARAKURI_PERSONA_FILE is no longer read: set KARAKURI_PERSONA_DIR to the pack's directory"
                          " (the one holding persona.json) instead")

    def optional_path(name: str) -> Path | None:
        value = merged.get(name, "").strip()
        return Path(value).expanduser() if value else None

    return Settings(
        api_base_url=base_url,
        api_key=Secret(api_key),
        webhook_url=Secret(webhook) if webhook else None,
        state_dir=optional_path("KARAKURI_STATE_DIR") or default_state_dir(),
        self_agent_id=merged.get("KARAKURI_SELF_AGENT_ID", "").strip(),
        self_name=merged.get("KARAKURI_SELF_NAME", "").strip(),
        world_context_file=optional_path("KARAKURI_WORLD_CONTEXT_FILE"),
        fixtures_dir=fixtures_dir,
        persona_dir=optional_path("KARAKURI_PERSONA_DIR"),
        http_timeout=_number(merged, "KARAKURI_HTTP_TIMEOUT", 10.0, minimum=0.1),
        get_retry_budget=_number(merged, "KARAKURI_GET_RETRY_BUDGET", 20.0),
        webhook_budget=_number(merged, "KARAKURI_WEBHOOK_BUDGET", 10.0),
        disabled=_flag(merged.get("KARAKURI_AGENT_DISABLED")),
        cooldown_seconds=_number(merged, "KARAKURI_COOLDOWN_SECONDS", 0.0),
        transfer_policy=transfer_policy,
        decider=decider,
        database_url=Secret(database_url) if database_url else None,
        llm=llm,
        discord_bot_token=Secret(bot_token) if bot_token else None,
        channel_ids=_discord_ids(merged, "KARAKURI_CHANNEL_IDS"),
        world_author_ids=_discord_ids(merged, "KARAKURI_WORLD_AUTHOR_IDS"),
        secrets=secrets,
    )


def _discord_ids(env: Mapping[str, str], name: str) -> frozenset[str]:
    """Comma-separated Discord ids (digits); empty means "no filter". A channel *name* is a mistake worth stopping on."""
    ids = frozenset(part.strip() for part in env.get(name, "").split(",") if part.strip())
    wrong = sorted(i for i in ids if not i.isascii() or not i.isdigit())
    if wrong:
        raise ConfigError(f"{name} must be Discord ids (digits) separated by commas, got {wrong[0]!r}")
    return ids


def _secure_or_loopback(url: str) -> bool:
    """https anywhere; plain http only where it never leaves the machine (a local relay, a test server)."""
    if url.startswith("https://"):
        return True
    if not url.startswith("http://"):
        return False
    try:
        host = urlsplit(url).hostname
    except ValueError:
        return False
    if host == "localhost":
        return True
    try:
        return host is not None and ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def redact(text: str, secrets: tuple[str, ...]) -> str:
    """Text from outside (server answers, recorded fixtures) with every secret masked."""
    for secret in secrets:
        if secret:
            text = text.replace(secret, "***")
    return text
