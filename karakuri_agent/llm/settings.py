"""How to reach the language model: `KARAKURI_LLM_*`, read once and checked.

Read only when the model decides, so the rules path never pays for it. The
key is a `Secret` (its repr never shows it); no error here echoes a value
that could carry a credential, the base URL included.
"""

from __future__ import annotations

import ipaddress
import math
from dataclasses import dataclass
from typing import Mapping
from urllib.parse import urlsplit

from karakuri_agent.env_values import parse_number, refuse_credentials
from karakuri_agent.secret import Secret
from karakuri_agent.errors import ConfigError

DEFAULT_TIMEOUT = 20.0
# One proposal: a line of at most 200 characters, a reason of at most 80 and the JSON around
# them. Measured at most 125 tokens (gemma-3's tokenizer, benchmarks/README.md); a tokenizer
# weak at Japanese may spend one or two a character. 400 leaves that room without letting a
# model that loops run on until its context is full.
DEFAULT_MAX_TOKENS = 400
MAX_TOKENS_LIMIT = 8192
# Greedy decoding: the same notification gets the same proposal from the same model.
DEFAULT_TEMPERATURE = 0.0
_EXAMPLE = "e.g. http://localhost:11434/v1"


@dataclass(frozen=True)
class LLMSettings:
    """An OpenAI-compatible endpoint, a model, and the time one notification may spend on it."""

    base_url: str
    model: str
    api_key: Secret | None = None
    timeout: float = DEFAULT_TIMEOUT
    max_tokens: int = DEFAULT_MAX_TOKENS  # the bound on each answer, sent with every request
    temperature: float = DEFAULT_TEMPERATURE

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> LLMSettings:
        """Settings from the environment (merged with `.env`); ConfigError names the bad variable."""
        model = env.get("KARAKURI_LLM_MODEL", "").strip()
        if not model:
            raise ConfigError("KARAKURI_LLM_MODEL is not set: name the model to ask (e.g. qwen2.5:7b)")
        key = env.get("KARAKURI_LLM_API_KEY", "").strip()
        return cls(
            base_url=normalise_base_url(env.get("KARAKURI_LLM_BASE_URL", "")),
            model=model,
            api_key=Secret(key) if key else None,
            timeout=parse_number(env, "KARAKURI_LLM_TIMEOUT", DEFAULT_TIMEOUT, minimum=1),
            max_tokens=_max_tokens(env),
            temperature=_temperature(env),
        )


def _max_tokens(env: Mapping[str, str]) -> int:
    """A whole number of tokens, 16 to 8192: below that no proposal fits, above it nothing is bounded."""
    raw = env.get("KARAKURI_LLM_MAX_TOKENS", "").strip()
    if not raw:
        return DEFAULT_MAX_TOKENS
    if not raw.isdigit() or not 16 <= int(raw) <= MAX_TOKENS_LIMIT:
        raise ConfigError(f"KARAKURI_LLM_MAX_TOKENS must be a whole number from 16 to {MAX_TOKENS_LIMIT},"
                          f" got {raw!r}")
    return int(raw)


def _temperature(env: Mapping[str, str]) -> float:
    """0 (the same answer every time) to 2, the range OpenAI-compatible servers take."""
    raw = env.get("KARAKURI_LLM_TEMPERATURE", "").strip()
    if not raw:
        return DEFAULT_TEMPERATURE
    try:
        value = float(raw)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 2:  # NaN fails too
        raise ConfigError(f"KARAKURI_LLM_TEMPERATURE must be a number from 0 to 2, got {raw!r}")
    return value


def normalise_base_url(raw: str) -> str:
    """The `/v1` base the client posts `/chat/completions` under.

    Forgiving about what people paste (a bare server root gets `/v1`, a full
    `/chat/completions` URL is cut back), strict about where the key may go:
    plain http only to this machine, and never a `user:password@` (Basic
    auth in place of the key).
    """
    url = raw.strip().rstrip("/")
    if not url:
        raise ConfigError(f"KARAKURI_LLM_BASE_URL is not set ({_EXAMPLE})")
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        host = None
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not host:
        raise ConfigError(f"KARAKURI_LLM_BASE_URL must be an http(s) URL ({_EXAMPLE})")
    refuse_credentials("KARAKURI_LLM_BASE_URL", parts, "KARAKURI_LLM_API_KEY")
    if parts.query or parts.fragment:
        raise ConfigError("KARAKURI_LLM_BASE_URL must not carry a query or fragment")
    if parts.scheme == "http" and not is_loopback(host):
        raise ConfigError("KARAKURI_LLM_BASE_URL must use https:// (http:// only to this machine)")
    path = parts.path.removesuffix("/chat/completions").rstrip("/") or "/v1"
    if not path.endswith("/v1"):
        raise ConfigError(f"KARAKURI_LLM_BASE_URL must end in /v1, the OpenAI-compatible base ({_EXAMPLE})")
    return parts._replace(path=path).geturl()


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 or `localhost`: a request that never leaves the machine."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
