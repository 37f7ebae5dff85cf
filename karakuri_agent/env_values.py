"""Reading one setting's value from the environment: switches and numbers, strictly.

Shared by the settings (app/config.py) and the model's settings
(llm/settings.py), which must not depend on each other's loader.
"""

from __future__ import annotations

import math
from typing import Mapping
from urllib.parse import SplitResult

from karakuri_agent.errors import ConfigError


_TRUE = frozenset({"1", "true", "yes", "on"})


_FALSE = frozenset({"0", "false", "no", "off"})


def parse_flag(env: Mapping[str, str], name: str, default: bool = False) -> bool:
    """A switch: 1/0, true/false, yes/no, on/off (any case); anything else is a ConfigError naming it."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if raw.lower() in _TRUE:
        return True
    if raw.lower() in _FALSE:
        return False
    raise ConfigError(f"{name} must be 1/0, true/false, yes/no or on/off, got {raw!r}")


# Every number setting is seconds (a timeout, a budget, a window): a day is more than any of them needs,
# and past it a sleep, a deadline or a date sum could overflow (1e300 seconds is no time).
MAX_SECONDS = 86_400


def parse_number(env: Mapping[str, str], name: str, default: float, *, minimum: float = 0,
                 maximum: float = MAX_SECONDS) -> float:
    """A finite number from ``minimum`` to ``maximum``; ConfigError naming the variable and the range otherwise."""
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number, got {raw!r}") from None
    if not math.isfinite(value):  # nan or inf: no timeout or budget can be that (and httpx cannot take it)
        raise ConfigError(f"{name} must be a finite number of seconds, got {raw!r}")
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum:g}, got {raw!r}")
    if value > maximum:
        raise ConfigError(f"{name} must be at most {maximum:g} seconds, got {raw!r}")
    return value


def refuse_credentials(name: str, parts: SplitResult, key_name: str) -> None:
    """A base URL carrying `user:password@` is a ConfigError naming `name`, never quoting the URL.

    httpx would send them as Basic auth in place of the key's Bearer header
    (`key_name` is where the key goes); the URL is not shown, it holds the password.
    """
    if parts.username is not None or parts.password is not None:
        raise ConfigError(f"{name} must not carry a user name or password (user:password@):"
                          f" the key goes in {key_name}")
