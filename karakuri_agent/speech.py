"""In-world lines for the agent, composed from a persona pack.

The voice lives in data (``skill/persona.json``) so it can change without
code. This module only picks, fills and fits templates, and it is pure: the
same inputs and seed always give the same line, which keeps decisions
reproducible in dry runs and testable in bulk.

Security rule: the partner's line is DATA. It is read only to find a known
topic or place keyword from the pack; nothing else of it is ever copied into
a line, so an instruction, a mention or a link in it cannot travel on.
Names and place labels from the server are cleaned of links, mentions and
chat markup before use.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
import json
import re
import string
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

__all__ = [
    "DEFAULT_MAX_LENGTH",
    "PERSONA_ENV",
    "PURPOSES",
    "Persona",
    "address_name",
    "clean_text",
    "compose",
    "iter_templates",
    "load_persona",
    "pick_topic",
]

PERSONA_ENV = "KARAKURI_PERSONA_FILE"
PURPOSES = frozenset({"accept", "reply", "farewell", "start", "promise_accept"})
# The server's maxLength for a conversation message (CONTRACT §2 example).
DEFAULT_MAX_LENGTH = 200
PLACEHOLDERS = frozenset({"partner", "place", "topic", "time", "first_person"})

_DEFAULT_TAILS = ("ふふっ。", "えへへ。", "うんうん。")
# Used only when a tiny max_length leaves nothing else unused.
_LAST_RESORT = ("…", "！", "♪", "うん", "ね", "あ", "え", "お", "ん", "？")
# How many candidates a tiny max_length may cut shorter before giving up.
_SHORTER_TRIES = 40
_NAME_CAP = 16
_LABEL_CAP = 20
_HONORIFICS = (
    "ちゃん", "くん", "君", "さん", "様", "さま", "先生", "せんせい",
    "先輩", "センパイ", "氏", "たん", "っち", "殿",
)
_TERMINATORS = "。！？!?♪…"
_CLOSERS = "」』）)〜~ー"


# ---------------------------------------------------------------------------
# The persona pack
# ---------------------------------------------------------------------------

Pool = tuple[str, ...]


@dataclass(frozen=True)
class Persona:
    """One voice: every line the agent says is one of these templates, filled.

    Mappings are read-only views so a loaded (and cached) pack cannot be
    changed by one caller under another (which also makes it unhashable).
    """

    name: str
    short_name: str
    first_person: str
    tone: str
    greetings: Mapping[str, Pool]
    accept: Pool
    small_talk: Mapping[str, Mapping[str, Pool]]
    reactions: Mapping[str, Pool]
    farewells: Pool
    conversation_start: Pool
    promise_accept: Pool
    place_aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    topic_aliases: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    tails: Pool = _DEFAULT_TAILS

    @property
    def by_place(self) -> Mapping[str, Pool]:
        return self.small_talk["by_place"]

    @property
    def by_topic(self) -> Mapping[str, Pool]:
        return self.small_talk["by_topic"]


class _PackError(Exception):
    """A reason the pack is unusable; turned into one ValueError line."""


def iter_templates(persona: Persona) -> Iterator[tuple[str, str]]:
    """Every template with a dotted path, so a pack can be checked as a whole."""
    for kind, pool in persona.greetings.items():
        yield from _labelled(f"greetings.{kind}", pool)
    yield from _labelled("accept", persona.accept)
    for section, table in persona.small_talk.items():
        for key, pool in table.items():
            yield from _labelled(f"small_talk.{section}.{key}", pool)
    for kind, pool in persona.reactions.items():
        yield from _labelled(f"reactions.{kind}", pool)
    yield from _labelled("farewells", persona.farewells)
    yield from _labelled("conversation_start", persona.conversation_start)
    yield from _labelled("promise_accept", persona.promise_accept)
    yield from _labelled("tails", persona.tails)


def _labelled(label: str, pool: Pool) -> Iterator[tuple[str, str]]:
    return ((f"{label}[{i}]", t) for i, t in enumerate(pool))


def _check_template(template: str, where: str) -> str:
    """Reject templates that would fail (or leak fields) when filled."""
    if not isinstance(template, str) or not template.strip():
        raise _PackError(f"{where}: templates must be non-empty strings")
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError as exc:
        raise _PackError(f"{where}: {exc}") from None
    for _, placeholder, spec, conversion in fields:
        if placeholder is None:
            continue
        if placeholder not in PLACEHOLDERS or spec or conversion:
            raise _PackError(f"{where}: unknown placeholder {{{placeholder}}}")
    return template


def _pool(data: Mapping[str, object], key: str, where: str, *, required: bool = True) -> Pool:
    value = data.get(key)
    if value is None and not required:
        return ()
    if not isinstance(value, list) or not value:
        raise _PackError(f"{where}{key}: expected a non-empty list of templates")
    return tuple(_check_template(t, f"{where}{key}[{i}]") for i, t in enumerate(value))


def _table(data: Mapping[str, object], key: str, where: str) -> Mapping[str, Pool]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise _PackError(f"{where}{key}: expected an object")
    return MappingProxyType({k: _pool(value, k, f"{where}{key}.") for k in value})


def _aliases(data: Mapping[str, object], key: str, targets: Mapping[str, Pool]) -> Mapping[str, str]:
    value = data.get(key, {})
    if not isinstance(value, dict):
        raise _PackError(f"small_talk.{key}: expected an object")
    for alias, target in value.items():
        if not alias or target not in targets:
            raise _PackError(f"small_talk.{key}.{alias}: unknown target {target!r}")
    return MappingProxyType(dict(value))


def _section(data: Mapping[str, object], key: str) -> Mapping[str, object]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise _PackError(f"{key}: expected an object")
    return value


def _text_field(data: Mapping[str, object], key: str, default: str | None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str) or (default is None and not value.strip()):
        raise _PackError(f"{key}: expected a string")
    return value


def _persona_from(data: object) -> Persona:
    """Build a Persona from parsed JSON; optional sections get safe defaults."""
    if not isinstance(data, dict):
        raise _PackError("expected a JSON object")
    greetings = _section(data, "greetings")
    small = _section(data, "small_talk")
    reactions = _section(data, "reactions")
    by_place = _table(small, "by_place", "small_talk.")
    by_topic = _table(small, "by_topic", "small_talk.")
    if "_default" not in by_place:
        raise _PackError("small_talk.by_place._default: missing")
    name = _text_field(data, "name", None)
    reaction_pools = {"default": _pool(reactions, "default", "reactions.")}
    for kind in reactions:
        reaction_pools[kind] = _pool(reactions, kind, "reactions.")
    tails = _pool(data, "tails", "", required=False) or _DEFAULT_TAILS
    return Persona(
        name=name,
        short_name=_text_field(data, "short_name", name),
        first_person=_text_field(data, "first_person", "わたし"),
        tone=_text_field(data, "tone", ""),
        greetings=MappingProxyType({
            "first_meeting": _pool(greetings, "first_meeting", "greetings."),
            "known": _pool(greetings, "known", "greetings."),
        }),
        accept=_pool(data, "accept", ""),
        small_talk=MappingProxyType({"by_place": by_place, "by_topic": by_topic}),
        reactions=MappingProxyType(reaction_pools),
        farewells=_pool(data, "farewells", ""),
        conversation_start=_pool(data, "conversation_start", ""),
        promise_accept=_pool(data, "promise_accept", ""),
        place_aliases=_aliases(small, "place_aliases", by_place),
        topic_aliases=_aliases(small, "topic_aliases", by_topic),
        tails=tails,
    )


def _parse_pack(text: str, origin: str) -> Persona:
    """One-line ValueError naming the file, whatever is wrong with it."""
    try:
        return _persona_from(json.loads(text))
    except json.JSONDecodeError as exc:
        reason = f"not valid JSON ({exc})"
    except _PackError as exc:
        reason = str(exc)
    reason = " ".join(reason.split())
    raise ValueError(f"invalid persona file {origin}: {reason}")


def _read_file(path: Path) -> Persona:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = " ".join(str(getattr(exc, "strerror", None) or exc).split())
        raise ValueError(f"cannot read persona file {path}: {reason}") from None
    return _parse_pack(text, str(path))


@functools.lru_cache(maxsize=1)
def _load_bundled() -> Persona:
    """The pack shipped with the package; read once per process.

    An installed wheel carries skill/ inside the package; a source checkout has
    it beside the package.
    """
    here = Path(__file__).resolve().parent
    installed = here / "skill" / "persona.json"
    return _read_file(installed if installed.is_file() else here.parent / "skill" / "persona.json")


def load_persona(path: Path | str | None = None) -> Persona:
    """The pack at ``path`` (settings read it from $KARAKURI_PERSONA_FILE), else the bundled one.

    Only the bundled pack is cached: an explicit or configured file is read
    as it is now, so editing it takes effect on the next run.
    """
    if path is not None:
        return _read_file(Path(path).expanduser())
    return _load_bundled()


# ---------------------------------------------------------------------------
# Cleaning what comes from outside
# ---------------------------------------------------------------------------

_MASKED_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\s]*\)")
_URL = re.compile(
    r"(?i)(?:\b(?:https?|ftp)://|\bwww\.|\bdiscord(?:app)?\.(?:gg|com)/)\S*"
)
_DISCORD_TOKEN = re.compile(r"<(?:a?:\w+:\d+|[@#][!&]?\d+|t:\d+(?::\w)?|id:\w+)>")
# A lone '@' goes too: nothing in town is addressed that way.
_MENTION = re.compile(r"[@＠]\s*(?:everyone|here)\b|[@＠][\w.\-]*", re.IGNORECASE)
_LINE_MARKUP = re.compile(r"(?m)^\s*(?:>+|-#|#+)\s*")
_MARKUP_CHARS = re.compile(r"[*_~`|<>]")
_KEEP_FORMAT = {"\u200d"}  # ZWJ joins emoji; other format chars can hide text


def clean_text(text: str) -> str:
    """Text with links, mentions and chat markup removed, on one line.

    Applied to everything that reaches a line (names, place labels, and the
    final line itself) so nothing platform-specific is ever said in town.
    """
    kept = "".join(
        ch for ch in text
        if ch in _KEEP_FORMAT or unicodedata.category(ch) not in ("Cs", "Cc", "Cf", "Co")
        or ch in "\n\t"
    )
    kept = _MASKED_LINK.sub(r"\1", kept)
    kept = _URL.sub(" ", kept)
    kept = _DISCORD_TOKEN.sub(" ", kept)
    kept = _MENTION.sub(" ", kept)
    kept = _LINE_MARKUP.sub("", kept)
    kept = _MARKUP_CHARS.sub("", kept)
    return " ".join(kept.split())


_BOT_TAG = re.compile(r"[\W_]*(?:(?<![A-Za-z])[Bb][Oo][Tt]|(?<=[a-z])B[Oo][Tt])$")
_BRACKET_TAG = re.compile(r"^[【\[（(][^】\]）)]*[】\]）)]|[【\[（(][^】\]）)]*[】\]）)]$")
_FAMILY_GIVEN = re.compile(r"^[\u4e00-\u9fff々]{2,3}([\u3040-\u30ffー]{2,6})$")


def _strip_decorations(name: str) -> str:
    """'Luna☆Bot' -> 'Luna', '【公式】メイ♪' -> 'メイ'."""
    name = _BRACKET_TAG.sub("", name).strip()
    name = _BOT_TAG.sub("", name).strip() or name
    name = "".join(ch for ch in name if unicodedata.category(ch) not in ("So", "Sk", "Sm"))
    name = name.replace("\u200d", "").replace("\ufe0f", "")
    while name and unicodedata.category(name[0])[0] in "PZ":
        name = name[1:]
    while name and unicodedata.category(name[-1])[0] in "PZ":
        name = name[:-1]
    return name


def address_name(name: str | None) -> str:
    """How the agent calls someone: 'メイさん', 'コウくん', 'Lunaさん'; '' if unusable.

    A kanji family name followed by a kana given name is shortened to the
    given name, the way the town's people call each other ('桜草メイ' ->
    'メイさん'). An honorific already there is kept, never doubled.
    """
    if not name:
        return ""
    bare = _strip_decorations(clean_text(name))
    if not bare:
        return ""
    if bare.endswith(_HONORIFICS):
        return _cut_units(bare, _NAME_CAP)
    given = _FAMILY_GIVEN.match(bare)
    if given:
        bare = given.group(1)
    return _cut_units(bare, _NAME_CAP - 2) + "さん"


def _place_label(place_name: str | None) -> str:
    """'6-11 (喫茶店 店内)' -> '喫茶店'; '本屋「栞」' stays as it is."""
    if not place_name:
        return ""
    label = clean_text(place_name)
    label = re.sub(r"^\d+-\d+\s*", "", label)
    inner = re.fullmatch(r"[(（]\s*([^\s)）]+)[^)）]*[)）]", label)
    if inner:
        label = inner.group(1)
    return _cut_units(label.strip(), _LABEL_CAP)


def _time_label(time_text: str | None) -> str:
    """'18時に' -> '18時' so templates can say '{time}に' without doubling it."""
    if not time_text:
        return ""
    label = clean_text(time_text).rstrip("に ")
    return _cut_units(label, _LABEL_CAP)


# ---------------------------------------------------------------------------
# Reading the partner's line
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class _Pickup:
    kind: str  # "topic" or "place"
    key: str  # the pack's key, whose templates answer it
    text: str  # what the line will say: the word as the partner wrote it


def _is_word(surface: str) -> bool:
    return any(unicodedata.category(ch)[0] == "L" for ch in surface)


def _is_kanji(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or ch == "々"


def _stands_alone(line: str, start: int, surface: str) -> bool:
    """A one-kanji keyword ('本', '雨') counts only outside a longer word
    ('本屋', '本当', '日本', '大雨')."""
    if len(surface) > 1 or not _is_kanji(surface):
        return True
    before = line[start - 1] if start > 0 else ""
    after = line[start + 1] if start + 1 < len(line) else ""
    return not (_is_kanji(before) or _is_kanji(after))


def _vocabulary(persona: Persona) -> Iterator[tuple[str, str, str]]:
    """(surface, kind, key) for every keyword the pack can answer."""
    for key in persona.by_topic:
        yield key, "topic", key
    for alias, key in persona.topic_aliases.items():
        yield alias, "topic", key
    for key in persona.by_place:
        if key != "_default":
            yield key, "place", key
    for alias, key in persona.place_aliases.items():
        yield alias, "place", key


def _find_pickup(line: str | None, persona: Persona,
                 kinds: frozenset[str] = frozenset({"topic", "place"})) -> _Pickup | None:
    """The keyword the partner's line ends on, if the pack knows one.

    The latest mention wins because a Japanese line usually puts its point
    last ('それより腹減った'); words beat emoji; longer beats shorter.
    """
    if not line:
        return None
    text = clean_text(line)
    best: tuple[tuple[bool, int, int], _Pickup] | None = None
    for surface, kind, key in _vocabulary(persona):
        if kind not in kinds:
            continue
        start = text.find(surface)
        while start != -1:
            if _stands_alone(text, start, surface):
                word = _is_word(surface)
                rank = (word, start + len(surface), len(surface))
                if best is None or rank > best[0]:
                    best = (rank, _Pickup(kind, key, surface if word else key))
            start = text.find(surface, start + 1)
    return best[1] if best else None


def pick_topic(line: str | None, persona: Persona) -> str | None:
    """The topic or place word a reply to ``line`` will pick up, or None.

    It is a word from the pack that occurs in the line (an emoji is
    returned as its word, e.g. '🍙' -> 'おにぎり'), and compose() puts it in
    the reply, so `pick_topic(x) in compose("reply", last_line=x, ...)` can
    be measured.
    """
    found = _find_pickup(line, persona)
    return found.text if found else None


_THANKS = re.compile(r"ありがと|助か|サンキュ|感謝|thanks|thx", re.IGNORECASE)
_APOLOGY = re.compile(r"ごめん|すみません|すまん|悪かった|申し訳")
_OPINION = re.compile(r"どう思う|どうかな|どうだろ|どう[？?]")
_QUESTION = re.compile(r"[？?]")


def _line_kind(line: str | None) -> str | None:
    """What sort of line it is, to choose a fitting reaction."""
    if not line:
        return None
    text = clean_text(line)
    for kind, pattern in (
        ("apology", _APOLOGY), ("thanks", _THANKS),
        ("opinion", _OPINION), ("question", _QUESTION),
    ):
        if pattern.search(text):
            return kind
    return None


# ---------------------------------------------------------------------------
# Filling templates
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class _Scene:
    """The values templates are filled with."""

    partner: str
    place: str
    topic: str
    time: str
    first_person: str

    def fill(self, template: str) -> str:
        text = template.format_map(vars(self))
        return _tidy_unnamed(text) if not self.partner else text


def _tidy_unnamed(text: str) -> str:
    """'はじめまして、！' -> 'はじめまして！' when the partner has no usable name."""
    text = re.sub(r"、+(?=[。！？!?、]|$)", "", text)
    text = re.sub(r"(?<=[。！？!?])、+", "", text)  # 'ニケ。、よろしく' -> 'ニケ。よろしく'
    return re.sub(r"^[、。！!？?\s]+", "", text)


def _usable_unnamed(template: str) -> bool:
    """A template reads well without a name when {partner} only sits between
    punctuation ('はじめまして、{partner}！'), not inside a phrase ('{partner}も')."""
    for match in re.finditer(r"\{partner\}", template):
        before = template[match.start() - 1] if match.start() else "、"
        after = template[match.end()] if match.end() < len(template) else "！"
        if before not in "、。！？!? " or after not in "、。！？!? ":
            return False
    return True


def _fill_pool(pool: Iterable[str], scene: _Scene) -> list[str]:
    templates = list(pool)
    if not scene.partner:
        templates = [t for t in templates if _usable_unnamed(t)] or templates
    filled = [scene.fill(t) for t in templates]
    return list(dict.fromkeys(t for t in filled if t))


def _join(parts: Iterable[str]) -> str:
    """Sentences run together the Japanese way, each closed by punctuation."""
    out = ""
    for part in parts:
        if out and out[-1] not in _TERMINATORS + _CLOSERS:
            out += "。"
        out += part
    return out


def _named(text: str, partner: str) -> str:
    """Address the partner by name once, unless the line already does."""
    if not partner or partner in text:
        return text
    return f"{partner}、{text}"


# ---------------------------------------------------------------------------
# Fitting a length
# ---------------------------------------------------------------------------

def _units(text: str) -> int:
    """Length as the server counts it (UTF-16 code units), so an emoji is 2."""
    return sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def _cut_units(text: str, limit: int) -> str:
    """The longest prefix within ``limit`` units, never splitting a character
    or leaving a dangling emoji joiner or variation selector."""
    out, used = [], 0
    for ch in text:
        width = 2 if ord(ch) > 0xFFFF else 1
        if used + width > limit:
            break
        out.append(ch)
        used += width
    cut = "".join(out)
    while cut and (cut[-1] in "\u200d\ufe0f " or unicodedata.combining(cut[-1])):
        cut = cut[:-1]
    return cut


def _sentence_ends(text: str) -> Iterator[int]:
    """Indices just after a sentence ends ('！？' and a closing '」' stay with it)."""
    for i, ch in enumerate(text):
        nxt = text[i + 1] if i + 1 < len(text) else ""
        if ch in _TERMINATORS and nxt not in _TERMINATORS + _CLOSERS:
            yield i + 1
        elif (ch in _CLOSERS and i > 0 and text[i - 1] in _TERMINATORS + _CLOSERS
              and nxt not in _TERMINATORS + _CLOSERS):
            yield i + 1


def _fit(text: str, max_length: int) -> tuple[str, bool]:
    """``text`` within ``max_length`` units, and whether it still reads as
    whole sentences: whole sentences if one fits, else up to a comma (shown
    as '…'), else a clean cut. Never empty."""
    if _units(text) <= max_length:
        return text, True
    whole = [i for i in _sentence_ends(text) if _units(text[:i]) <= max_length]
    if whole:
        return text[: whole[-1]], True
    commas = [i for i, ch in enumerate(text) if ch == "、" and _units(text[: i + 1]) <= max_length]
    if commas and commas[-1] > 0:
        return text[: commas[-1]] + "…", False
    return _cut_units(text, max_length) or "…", False


# ---------------------------------------------------------------------------
# Choosing among variants
# ---------------------------------------------------------------------------

def _stable_index(seed: str, salt: str, size: int) -> int:
    """A choice that is the same on every run and machine (hash() is salted)."""
    digest = hashlib.sha256(f"{seed}\x1f{salt}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") % size


def _rotated(items: Sequence[str], seed: str, salt: str) -> list[str]:
    if not items:
        return []
    k = _stable_index(seed, salt, len(items))
    return list(items[k:]) + list(items[:k])


@dataclass(frozen=True)
class _Plan:
    """A line is one variant from each slot, in order; ``extras`` are added
    as a further sentence once every plain combination has been said, and
    ``tails`` after that."""

    slots: tuple[list[str], ...]
    extras: list[str]
    tails: list[str]


def _candidates(plan: _Plan) -> Iterator[tuple[str, ...]]:
    """Plain combinations first, then two-variant combinations, then tails."""
    slots = [s for s in plan.slots if s]
    base = list(itertools.product(*slots)) if slots else []
    yield from base
    # The added sentence is the outer loop so consecutive fallbacks also
    # vary their opening, not only their ending.
    for extra in plan.extras:
        for combo in base:
            if extra not in combo:
                yield (*combo, extra)
    for tail in plan.tails:
        for combo in base:
            yield (*combo, tail)


def _normal(line: str) -> str:
    """Lines compared without any whitespace: spacing changes nothing in
    Japanese, so 'メイさん、 またね' was already said as 'メイさん、またね'."""
    return "".join(line.split())


def _choose(lines: Iterable[str], used: set[str], max_length: int) -> str:
    """The first line not said before that fits as whole sentences; else the
    first one cut to fit; for a tiny max_length with all of them used, a
    shorter cut or a one-word line still says something new."""
    seen: list[str] = []
    first_cut: str | None = None
    for line in lines:
        fitted, whole = _fit(line, max_length)
        if _normal(fitted) not in used:
            if whole:
                return fitted
            first_cut = first_cut or fitted
        seen.append(line)
    if first_cut:
        return first_cut
    for line in list(dict.fromkeys(seen))[:_SHORTER_TRIES]:
        for limit in range(min(max_length, _units(line)) - 1, 0, -1):
            shorter = _cut_units(line, limit)
            if shorter and _normal(shorter) not in used:
                return shorter
    for word in _LAST_RESORT:
        if _units(word) <= max_length and _normal(word) not in used:
            return word
    return _fit(seen[0], max_length)[0] if seen else "…"


# ---------------------------------------------------------------------------
# Plans per purpose
# ---------------------------------------------------------------------------

def _place_key(label: str, persona: Persona) -> str | None:
    """The by_place key a place label belongs to ('喫茶店「さくら」' -> '喫茶店')."""
    found = _find_pickup(label, persona, frozenset({"place"}))
    return found.key if found else None


def _pickup_pool(pickup: _Pickup | None, persona: Persona, scene: _Scene) -> list[str]:
    if pickup is None:
        return []
    table = persona.by_topic if pickup.kind == "topic" else persona.by_place
    return _fill_pool(table[pickup.key], scene)


def _chat_pool(persona: Persona, scene: _Scene, place_key: str | None) -> list[str]:
    """Small talk for when the partner's line gives nothing to pick up."""
    pool = list(persona.reactions["default"]) + list(persona.by_place["_default"])
    if place_key:
        pool += persona.by_place[place_key]
    return _fill_pool(pool, scene)


def _greetings(persona: Persona, scene: _Scene, known: bool) -> list[str]:
    return _fill_pool(persona.greetings["known" if known else "first_meeting"], scene)


@dataclass(frozen=True)
class _Situation:
    """Everything a plan needs, read once from compose()'s arguments."""

    persona: Persona
    purpose: str
    seed: str
    known: bool
    pickup: _Pickup | None
    kind: str | None
    place_key: str | None  # where the agent is, as a by_place key
    said: _Scene  # {place}/{topic} are what the partner mentioned
    here: _Scene  # {place} is where the agent is

    def rot(self, pool: list[str], salt: str) -> list[str]:
        return _rotated(pool, self.seed, f"{self.purpose}:{salt}")

    @functools.cached_property
    def picked(self) -> list[str]:
        return _pickup_pool(self.pickup, self.persona, self.said)

    @functools.cached_property
    def reaction(self) -> list[str]:
        return _fill_pool(self.persona.reactions.get(self.kind or "", ()), self.said)

    @functools.cached_property
    def tails(self) -> list[str]:
        return self.rot(_fill_pool(self.persona.tails, self.here), "tail")


def _situation(purpose: str, persona: Persona, *, last_line: str | None, place_label: str,
               time_label: str, partner: str, known: bool, seed: str) -> _Situation:
    pickup = _find_pickup(last_line, persona)
    here_place = place_label or ("そこ" if purpose == "promise_accept" else "ここ")
    if purpose == "promise_accept" and not place_label and pickup and pickup.kind == "place":
        here_place = pickup.text  # the meeting place the partner just named
    here = _Scene(partner, here_place, "それ", time_label or "その時間", persona.first_person)
    said = _Scene(
        partner,
        pickup.text if pickup and pickup.kind == "place" else here.place,
        pickup.text if pickup and pickup.kind == "topic" else here.topic,
        here.time,
        persona.first_person,
    )
    return _Situation(
        persona=persona, purpose=purpose, seed=seed, known=known, pickup=pickup,
        kind=_line_kind(last_line),
        place_key=_place_key(place_label, persona) if place_label else None,
        said=said, here=here,
    )


def _plan_reply(s: _Situation) -> _Plan:
    """Pick up the partner's topic; else react to the kind of line; else chat.
    Once those are used up, the best pool is combined with the others."""
    chat = _chat_pool(s.persona, s.here, s.place_key)
    primary = s.picked or s.reaction or chat
    rest = [pool for pool in (s.reaction, chat) if pool and pool is not primary] or [primary]
    extras = [line for i, pool in enumerate(rest) for line in s.rot(pool, f"extra{i}")]
    return _Plan((s.rot(primary, "main"),), extras, s.tails)


def _plan_accept(s: _Situation) -> _Plan:
    """Greet, answer what the request said (an apology, a topic), say yes."""
    middle = s.picked or (s.reaction if s.kind in ("apology", "thanks") else [])
    return _Plan(
        (s.rot(_greetings(s.persona, s.said, s.known), "greet"), s.rot(middle, "pick"),
         s.rot(_fill_pool(s.persona.accept, s.said), "accept")),
        s.rot(_fill_pool(s.persona.reactions["default"], s.said), "extra"),
        s.tails,
    )


def _plan_farewell(s: _Situation) -> _Plan:
    farewells = _fill_pool(s.persona.farewells, s.said)
    return _Plan((s.rot(s.picked, "pick"), s.rot(farewells, "bye")),
                 s.rot(farewells, "extra"), s.tails)


def _plan_start(s: _Situation) -> _Plan:
    body = s.picked or _fill_pool(s.persona.conversation_start, s.here)
    if not s.picked and s.place_key:
        body += _fill_pool(s.persona.by_place[s.place_key], s.here)
    return _Plan(
        (s.rot(_greetings(s.persona, s.here, s.known), "greet"), s.rot(body, "body")),
        s.rot(_fill_pool(s.persona.by_place["_default"], s.here), "extra"),
        s.tails,
    )


def _plan_promise(s: _Situation) -> _Plan:
    promises = _fill_pool(s.persona.promise_accept, s.here)
    return _Plan((s.rot(promises, "promise"),), s.rot(promises, "extra"), s.tails)


_PLANS = {
    "reply": _plan_reply,
    "accept": _plan_accept,
    "farewell": _plan_farewell,
    "start": _plan_start,
    "promise_accept": _plan_promise,
}


def compose(
    purpose: str,
    *,
    persona: Persona,
    partner_name: str | None = None,
    partner_known: bool = False,
    last_line: str | None = None,
    place_name: str | None = None,
    previous_lines: Sequence[str] = (),
    max_length: int | None = None,
    seed: str = "",
    time_text: str | None = None,
) -> str:
    """One in-world line for ``purpose``, answering ``last_line`` where it can.

    Pure and deterministic for the same arguments. The line names the
    partner, picks up a topic or place the partner mentioned, is never one
    of ``previous_lines``, and fits ``max_length`` (UTF-16 units, as the
    server counts; None means the server's usual 200).
    """
    if purpose not in PURPOSES:
        raise ValueError(f"unknown speech purpose {purpose!r}; expected one of {sorted(PURPOSES)}")
    limit = DEFAULT_MAX_LENGTH if max_length is None else max_length
    if limit < 1:
        raise ValueError(f"max_length must be at least 1, got {max_length}")
    partner = address_name(partner_name)
    situation = _situation(
        purpose, persona, last_line=last_line, place_label=_place_label(place_name),
        time_label=_time_label(time_text), partner=partner, known=partner_known, seed=seed,
    )
    plan = _PLANS[purpose](situation)
    lines = (clean_text(_named(_join(parts), partner)) for parts in _candidates(plan))
    used = {_normal(line) for line in previous_lines}
    return _choose((line for line in lines if line), used, limit)
