"""Parse the Karakuri World server's notification text.

This is the fallback of CONTRACT section 2: when the JSON fields
(`participants`, `conversation_messages`, ...) are absent, the same facts are
read from `notification.text`, which the server formats for people.

Security rule: quoted speech is DATA. Everything between a speaker's opening
「 and its closing 」 (possibly several physical lines, possibly with nested
「」) was written by another agent, so it never yields a participant, a next
speaker, a choice, a transfer or a place. Only the server's own lines count.
The text is therefore split once into structural lines and quoted messages
(`_scan`), and every parser except `parse_lines` reads structural lines only.

Limitation, by construction of the format: the server does not escape speech,
so a message that closes its own quote with an unbalanced 」 at the end of a
physical line cannot be told apart from the server's closing bracket. Prefer
the JSON fields whenever they are present.

Every public function is pure and never raises: non-text input or text it
does not understand gives an empty result (or None).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable, Protocol
from zoneinfo import ZoneInfo

from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.domain.clock import TOKYO
from karakuri_agent.domain.records import Given, Line, Node, Transfer
from karakuri_agent.ja import markup
from karakuri_agent.ja.notification_text import (
    BRACKET,
    BUILDING,
    CHOICE_LINE,
    CHOICES_HEADER,
    CLOCK,
    CURRENT_NODE,
    ENTRANCE,
    MAP_BUILDING,
    NODE,
    ID_ENTRY,
    INTRO_LINE,
    MONEY_SUMMARY,
    NAME_SENTENCES,
    NEARBY_AGENTS,
    NEXT_SPEAKER,
    NODE_WITH_LABEL,
    QUOTED_TURN_LINE,
    REASON_CODES,
    SPEAKER_LINE,
    STRUCTURAL_LABELS,
    TRANSFER_PATTERNS,
    WEATHER,
)

_EOL = re.compile(r"[ \t\u3000]*(?:\n|\Z)")

_ITEM_SUMMARY = re.compile(r"^(?P<item>[^\s×]{1,64})\s*×\s*(?P<qty>\d{1,9})$")


@dataclass(frozen=True)
class _Quote:
    """One conversation line: who said it, what, and where its line starts."""

    speaker: str
    message: str
    offset: int


@dataclass(frozen=True)
class _Scan:
    """The text split into server lines (with offsets) and quoted speech."""

    lines: tuple[tuple[int, str], ...]
    quotes: tuple[_Quote, ...]


# ---------------------------------------------------------------------------
# Scanning: separate the server's structure from quoted speech.
# ---------------------------------------------------------------------------


def _normalize(text: object) -> str:
    """Return text with `\\n` line ends; anything that is not a str is empty."""
    if not isinstance(text, str):
        return ""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _clean_name(name: str) -> str | None:
    """Strip a captured name; reject empty or implausible captures."""
    name = name.strip().lstrip(markup.BULLETS).strip()
    if not name or len(name) > 64 or markup.has_quote(name):
        return None
    return name


def _find_close(text: str, open_at: int) -> int | None:
    """Index of the 」 closing the quote opened at `open_at`, or None.

    Nested 「」 are balanced; the closing bracket is the first one that brings
    the depth back to zero (or below, for a stray 」) AND ends its physical
    line, which is where the server puts it. A 」 followed by a next-speaker
    line and a new 「 is not it: the server's own `次は … の番です。` ends a
    conversation line, and bare speech never follows it, so that shape was
    written inside the speech. Unclosed means "data until the end of the
    text": the safe reading.
    """
    depth = 0
    for match in BRACKET.finditer(text, open_at):
        depth += 1 if match.group() == markup.OPEN_QUOTE else -1
        if depth <= 0 and _EOL.match(text, match.end()) and not QUOTED_TURN_LINE.match(text, match.end()):
            return match.start()
    return None


def _quote_opening(line: str, initiator: str | None) -> tuple[str, int] | None:
    """(speaker, index of 「 in line) when this line opens quoted speech."""
    match = SPEAKER_LINE.match(line)
    if match and not line.startswith("-"):
        name = _clean_name(match.group("name"))
        if name and name not in STRUCTURAL_LABELS:
            return name, match.end() - 1
    match = INTRO_LINE.match(line)
    if match and match.group("quote"):
        name = _clean_name(match.group("name"))
        if name:
            return name, match.start("quote")
    stripped = line.lstrip(markup.INDENT)
    if initiator and stripped.startswith(markup.OPEN_QUOTE):
        return initiator, len(line) - len(stripped)
    return None


def _initiator(line: str) -> str | None:
    """Name from a bare introducing line (`名前 が話しかけています。`, a join or leave notice), else None."""
    match = INTRO_LINE.match(line)
    if match and not match.group("quote") and _EOL.match(line, match.end()):
        return _clean_name(match.group("name"))
    return None


def _scan(text: object) -> _Scan:
    """Split text into structural lines and quoted messages, in order.

    Every parser starts here, and a notification's text goes through about
    ten of them, so the split of the same text is computed once.
    """
    return _scan_text(_normalize(text))


@functools.lru_cache(maxsize=8)
def _scan_text(source: str) -> _Scan:
    lines: list[tuple[int, str]] = []
    quotes: list[_Quote] = []
    initiator: str | None = None
    pos, size = 0, len(source)
    while pos <= size:
        end = source.find("\n", pos)
        end = size if end == -1 else end
        line = source[pos:end]
        opening = _quote_opening(line, initiator)
        if opening is None:
            lines.append((pos, line))
            if line.strip():
                initiator = _initiator(line)
            pos = end + 1
            continue
        speaker, index = opening
        open_at = pos + index
        close = _find_close(source, open_at)
        stop = size if close is None else close
        quotes.append(_Quote(speaker, source[open_at + 1 : stop], pos))
        if close is None:
            break
        after = source.find("\n", close)
        pos = size + 1 if after == -1 else after + 1
        initiator = None
    return _Scan(tuple(lines), tuple(quotes))


# ---------------------------------------------------------------------------
# Names and ids.
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _id_entries(scan: _Scan) -> tuple[tuple[int, str, str], ...]:
    """(offset, name, id) for every `名前 (id: N)` on a server line (cached: most parsers need them)."""
    found = []
    for offset, line in scan.lines:
        for match in ID_ENTRY.finditer(line):
            name = _clean_name(match.group("name"))
            if name:
                found.append((offset + match.start("name"), name, match.group("id")))
    return tuple(found)


class NameLookup(Protocol):
    """Anything that answers name -> id: a dict[str, Any], or the store looking names up one by one."""

    def get(self, name: str, /) -> str | None: ...


def _id_resolver(scan: _Scan, roster: NameLookup | None) -> Callable[[str], str | None]:
    """name -> id: ids written in the text first, then the roster."""
    written: dict[str, str] = {}
    for _, name, agent_id in _id_entries(scan):
        written.setdefault(name, agent_id)

    def resolve(name: str) -> str | None:
        if name in written:
            return written[name]
        try:
            value = roster.get(name) if roster is not None else None
        except Exception:  # a broken mapping must not break parsing
            return None
        return str(value) if value is not None else None

    return resolve


def name_resolver(text: object, roster: NameLookup | None = None) -> Callable[[str], str | None]:
    """name -> id as this text's parsers resolve it: ids written in the text first, then the roster."""
    return _id_resolver(_scan(text), roster)


def clean_name(name: str) -> str | None:
    """A captured name stripped, or None when it is empty or implausible."""
    return _clean_name(name)


def _sentence_names(scan: _Scan) -> list[tuple[int, str]]:
    """(offset, name) of agents named by the server's own sentences."""
    found = []
    for offset, line in scan.lines:
        for pattern in NAME_SENTENCES:
            match = pattern.match(line)
            if match:
                name = _clean_name(match.group("name"))
                if name:
                    found.append((offset + match.start("name"), name))
                break
    return found


def parse_participants(text: str, roster: NameLookup | None = None) -> list[PersonRef]:
    """Agents named in the text, `[{"id", "name"}]`, in order of first appearance.

    Sources: `名前 (id: N)` entries, speakers of conversation lines, and the
    server sentences that start with an agent's name (next speaker, talk
    request, transfer and logout sentences). Ids missing from the text come
    from `roster` (name -> id), else None. The header `あなた (名前) は…` is
    not a participant, and nothing inside quoted speech is.
    """
    scan = _scan(text)
    resolve = _id_resolver(scan, roster)
    mentions = [(offset, name) for offset, name, _ in _id_entries(scan)]
    mentions += [(quote.offset, quote.speaker) for quote in scan.quotes]
    mentions += _sentence_names(scan)
    seen: set[str] = set()
    result: list[PersonRef] = []
    for _, name in sorted(mentions, key=lambda item: item[0]):
        if name not in seen:
            seen.add(name)
            result.append(PersonRef(resolve(name), name))
    return result


def parse_lines(text: str, roster: NameLookup | None = None) -> list[Line]:
    """Conversation lines `[{"speaker", "speaker_id", "message"}]`, in order.

    A line is `名前: 「発言」`, or a bare `「発言」` after `名前 が話しかけています。`
    or after the notice that someone joined or left the conversation.
    The message keeps any nested 「」 and inner line breaks.
    """
    scan = _scan(text)
    resolve = _id_resolver(scan, roster)
    return [
        Line(quote.speaker, quote.message, resolve(quote.speaker))
        for quote in scan.quotes
    ]


def parse_next_speakers(text: str, roster: NameLookup | None = None) -> list[PersonRef]:
    """The name of the server's last `次は 名前 の番です。` line, `[{"id", "name"}]` (empty when none).

    The server writes one such line, after the conversation line it follows;
    when a text holds several, the last is the server's (issue 28: a line
    quoting one is data, and the turn is the one named at the end).
    """
    scan = _scan(text)
    resolve = _id_resolver(scan, roster)
    for _, line in reversed(scan.lines):
        match = NEXT_SPEAKER.match(line)
        name = _clean_name(match.group("name")) if match else None
        if name:
            return [PersonRef(resolve(name), name)]
    return []


def parse_choice_commands(text: str) -> list[str]:
    """Commands of the `選択肢:` block(s), in order, duplicates kept.

    Only `- command: …` lines after a `選択肢:` header and before the next
    blank line count; a `- transfer:` line inside quoted speech does not.
    """
    commands: list[str] = []
    in_block = False
    for _, line in _scan(text).lines:
        if CHOICES_HEADER.match(line.strip()):
            in_block = True
        elif not line.strip():
            in_block = False
        elif in_block:
            match = CHOICE_LINE.match(line.strip())
            if match:
                commands.append(match.group("command"))
    return commands


def server_lines(text: object) -> tuple[str, ...]:
    """The server's own lines of a text, in order, without any quoted speech: what other readers read."""
    return tuple(line for _, line in _scan(text).lines)


# ---------------------------------------------------------------------------
# Transfers.
# ---------------------------------------------------------------------------


def _parse_summary(summary: str) -> tuple[Given | None, int | None]:
    """(item, money) from `tea×2` or `12,000円`; (None, None) otherwise."""
    summary = summary.strip()
    match = _ITEM_SUMMARY.match(summary)
    if match:
        return {"item_id": match.group("item"), "quantity": int(match.group("qty"))}, None
    match = MONEY_SUMMARY.match(summary)
    if match:
        return None, int(match.group("amount").replace(",", ""))
    return None, None


def _reason_code(sentence: str) -> str:
    """Map the server's reason sentence to a stable code."""
    for needle, code in REASON_CODES:
        if needle in sentence:
            return code
    return "unknown"


def _transfer_from_line(line: str, me: PersonRef, resolve: Callable[[str], str | None]) -> Transfer | None:
    """One transfer from a server transfer sentence, else None."""
    for pattern, direction, status in TRANSFER_PATTERNS:
        match = pattern.match(line)
        if not match:
            continue
        name = _clean_name(match.group("name"))
        if not name:
            return None
        other: PersonRef = PersonRef(resolve(name), name)
        sender, receiver = (other, me) if direction == "in" else (me, other)
        transfer: Transfer = {"from": sender, "to": receiver}
        if status in ("offered", "offered_in_conversation", "accepted"):
            item, money = _parse_summary(match.group("summary"))
            transfer.update({"item": item, "money": money, "status": "accepted" if status == "accepted" else "offered"})
            if status != "accepted" and direction == "in":
                transfer["response_required"] = True
            if status == "offered_in_conversation":
                transfer["in_conversation"] = True  # answered by the next turn's `transfer_response`
        else:
            reason = "timeout" if status == "expired" else _reason_code(match.group("reason"))
            transfer.update({"status": status, "reason": reason})
        return transfer
    return None


def parse_transfers(
    text: str, self_id: str, self_name: str, roster: NameLookup | None = None
) -> list[Transfer]:
    """Item or money transfers the server reports, in order.

    Shapes: offered `{from, to, item, money, status}` (plus
    `response_required: True` when the agent must answer, and
    `in_conversation: True` when it answers in its next turn, with the
    turn's `transfer_response`), accepted (same
    keys), and rejected / cancelled / expired `{from, to, status, reason}`
    where reason is a code such as `inventory_full`, `server_announcement`,
    `receiver_logged_out`, `error` (`timeout` for expired). The agent itself
    is `{"id": self_id, "name": self_name}`.
    """
    scan = _scan(text)
    resolve = _id_resolver(scan, roster)
    me: PersonRef = PersonRef(self_id, self_name)
    transfers: list[Transfer] = []
    for _, line in scan.lines:
        transfer = _transfer_from_line(line, me, resolve)
        if transfer:
            transfers.append(transfer)
    return transfers


# ---------------------------------------------------------------------------
# Places, position, clock.
# ---------------------------------------------------------------------------


def parse_places(text: str) -> list[Node]:
    """Named nodes `[{"node_id", "name"}]`, deduplicated by node id.

    Sources: `6-11 (喫茶店 店内)`, `7-11(喫茶店 入口)`, building entries
    `本屋「栞」 [7-6]` and the map's buildings (`神社 [入口: 3-3, 3-4] - …`: each
    entrance, as `神社 入口`, marked `from_building`, as a building entry is). The first label
    seen for a node wins, a name from the map or a building entry only where no label names
    it (the node's own label is what the next text calls it too); node ids
    written without a name teach nothing and are skipped.
    """
    found: list[tuple[int, str, str, bool]] = []
    for offset, line in _scan(text).lines:
        entrances = MAP_BUILDING.match(line)
        if entrances:  # the map's buildings: each entrance a place ('神社 入口')
            name = entrances.group("name").strip()
            for node in re.findall(NODE, entrances.group("nodes")):
                found.append((offset, node, f"{name} {ENTRANCE}", True))
            continue
        for pattern in (NODE_WITH_LABEL, BUILDING):
            for match in pattern.finditer(line):
                name = match.group("name").strip()
                if name:  # a building's entry names its door only where no label does (no flip-flop)
                    found.append((offset + match.start(), match.group("node"), name, pattern is BUILDING))
    places: dict[str, Node] = {}
    for _, node_id, name, from_building in sorted(found, key=lambda item: (item[3], item[0])):
        places.setdefault(node_id, {"node_id": node_id, "name": name, "from_building": True} if from_building
                          else {"node_id": node_id, "name": name})
    return list(places.values())


def parse_buildings(text: str) -> list[dict[str, Any]]:
    """Building entries `本屋「栞」 [7-6]` as `[{"node_id", "name"}]`, every one (a node may have a label too).

    `parse_places` keeps one name per node, the label first; a building's own
    name (栞, さくら) is how people say where to meet, so it is kept apart.
    """
    found = [{"node_id": match.group("node"), "name": match.group("name").strip()}
             for _, line in _scan(text).lines for match in BUILDING.finditer(line)]
    return [entry for entry in found if entry["name"]]


def parse_current_node(text: str) -> Node | None:
    """`{"node_id", "name"}` from `現在地: 6-11 (喫茶店 店内)` (name may be None)."""
    for _, line in _scan(text).lines:
        match = CURRENT_NODE.match(line.strip())
        if match:
            name = (match.group("name") or "").strip() or None
            return {"node_id": match.group("node"), "name": name}
    return None


def _zone(name: str | None) -> ZoneInfo:
    """The named time zone if it is a real one, else Asia/Tokyo."""
    if not name:
        return TOKYO
    try:
        return ZoneInfo(name)
    except Exception:  # unknown or malformed zone keys raise several types
        return TOKYO


def parse_clock(text: str) -> datetime | None:
    """World time from `現在時刻: 2026-04-18 15:02 (Asia/Tokyo)`.

    Returned aware, in Asia/Tokyo (read in the zone the text names, which is
    Asia/Tokyo on today's server). None when absent or not a real date.
    """
    for _, line in _scan(text).lines:
        match = CLOCK.match(line.strip())
        if not match:
            continue
        try:
            moment = datetime(
                int(match.group("y")), int(match.group("mo")), int(match.group("d")),
                int(match.group("h")), int(match.group("mi")),
                tzinfo=_zone(match.group("tz")),
            )
        except ValueError:
            return None
        return moment.astimezone(TOKYO)
    return None


def parse_nearby_agent_count(text: str) -> int | None:
    """The number in `近くのエージェント: 3 人`, or None."""
    for _, line in _scan(text).lines:
        match = NEARBY_AGENTS.match(line.strip())
        if match:
            return int(match.group("count"))
    return None


def parse_weather(text: str) -> str | None:
    """The sky of `天気: くもり 18℃` (`くもり`), the temperature left out; None when the text does not say."""
    for _, line in _scan(text).lines:
        match = WEATHER.match(line.strip())
        if match:
            return match.group("sky")
    return None
