"""Who a conversation turn may go to, and which lines are the server's own, read from the text.

The server's `参加者:` line is the conversation as it stands; its leave and
logout notices say who is gone; its own sentences (an offer's note, a turn
line, a list of people, a choice) are never what a person said. Pure, never
raises, quoted speech is data (reading/textparse.py's split).
"""

from __future__ import annotations


from karakuri_agent.domain.identity import PersonRef
from karakuri_agent.ja import markup
from karakuri_agent.ja.notification_text import (
    ARRIVAL,
    CHOICE_LINE,
    CHOICES_HEADER,
    DEPARTURES,
    ID_ENTRY,
    NEXT_SPEAKER,
    PARTICIPANTS_LINE,
    TRANSFER_PATTERNS,
)
from karakuri_agent.reading.textparse import NameLookup, clean_name, name_resolver, parse_participants, server_lines


def parse_roster_line(text: str, roster: NameLookup | None = None) -> list[PersonRef] | None:
    """Who is in the conversation now, from the server's last `参加者:` line; None when it has none.

    The server writes the line from the conversation as it stands (someone
    who left is no longer on it), so it is the truth about who may speak next.
    """
    resolve = name_resolver(text, roster)
    for line in reversed(server_lines(text)):
        if PARTICIPANTS_LINE.match(line.strip()):
            names = [clean_name(match.group("name")) for match in ID_ENTRY.finditer(line)]
            unique = list(dict.fromkeys(name for name in names if name))
            return [PersonRef(resolve(name), name) for name in unique]
    return None


def parse_departed(text: str, roster: NameLookup | None = None) -> list[PersonRef]:
    """People the server says are no longer in the conversation (left it, or left the world).

    Read in order: someone who left and then joined again (`が会話に参加しました。`) is back.
    """
    resolve = name_resolver(text, roster)
    gone: dict[str, PersonRef] = {}
    for line in server_lines(text):
        stripped = line.strip()
        arrived = ARRIVAL.match(stripped)
        if arrived and (name := clean_name(arrived.group("name"))):
            gone.pop(name, None)
            continue
        for pattern in DEPARTURES:
            left = pattern.match(stripped)
            if left and (name := clean_name(left.group("name"))):
                gone[name] = PersonRef(resolve(name), name)
                break
    return list(gone.values())


def parse_present(text: str, roster: NameLookup | None = None) -> list[PersonRef]:
    """The conversation's participants now: the `参加者:` line when there is one, else the people
    the text names (`parse_participants`) but those it says have left."""
    listed = parse_roster_line(text, roster)
    if listed is not None:
        return listed
    gone = {person.name for person in parse_departed(text, roster)}
    return [person for person in parse_participants(text, roster) if person.name not in gone]


def is_server_sentence(line: str) -> bool:
    """The line is one of the server's own sentences (a transfer, a turn, a list of people, a choice).

    What a partner said never holds one; a message that does (a runtime that
    put the server's note among the lines) is read without it.
    """
    stripped = line.strip().lstrip(markup.BULLETS).strip()
    if not stripped:
        return False
    patterns = [NEXT_SPEAKER, PARTICIPANTS_LINE, CHOICES_HEADER, ARRIVAL, *DEPARTURES,
                *(pattern for pattern, _, _ in TRANSFER_PATTERNS)]
    return any(pattern.match(stripped) for pattern in patterns) or bool(CHOICE_LINE.match(line.strip()))


def without_server_sentences(message: str) -> str:
    """`message` without the physical lines that are the server's own sentences."""
    return "\n".join(line for line in message.split("\n") if not is_server_sentence(line)).strip()
