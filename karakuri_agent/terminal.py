"""Text from outside shown as data: the one terminal-safe rendering of every human-readable output.

A participant's name, a line said in town, a place's label, a rule id, the
server's error message: any of them may hold a line break (which would forge
a well-formed line in `log`), ESC or BEL (which a terminal obeys), a C1
control, DEL, U+2028/U+2029 or a bidi override (which reorders what is
read). `shown` escapes each such character the way JSON spells it
(`\\u001b`, `\\u2028`), so every output line stays one line of inert text,
and so JSON text passed through it is still the same JSON. Everything the
programs print (stdout, stderr, their log lines) goes through it once, at
the CLI's edge; `ESCAPE_SEQUENCE` is what the voice drops whole.
"""

from __future__ import annotations

import re
import unicodedata

# Control and format characters a terminal or a reader may act on; ZWJ joins emoji and stays.
_CONTROL_CATEGORIES = {"Cc", "Cf", "Cs", "Zl", "Zp"}
_KEPT = {"\u200d"}
# A terminal's escape and control sequences (CSI, OSC, the two-byte ones, and their C1 forms), whole.
ESCAPE_SEQUENCE = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]?|\x9b[0-?]*[ -/]*[@-~]?"  # CSI: colours, cursor moves, clearing
    r"|(?:\x1b[\]P^_X]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)"  # OSC, DCS, SOS, PM, APC to their end
    r"|\x1b[ -/]*[0-~]?"  # the two-byte ones (ESC c resets the terminal)
)


def is_control(ch: str) -> bool:
    """A character that acts on a terminal or a reader instead of showing: C0, DEL, C1, line and paragraph
    separators, bidi and other format controls, lone surrogates."""
    return ch not in _KEPT and unicodedata.category(ch) in _CONTROL_CATEGORIES


def _escaped(ch: str) -> str:
    code = ord(ch)
    if code > 0xFFFF:  # as JSON spells it: a surrogate pair
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def shown(text: str) -> str:
    """`text` as one line of inert text: every control character escaped (`\\n` → `\\u000a`), the rest kept."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(_escaped(ch) if is_control(ch) else ch for ch in text)


def shown_lines(text: str) -> str:
    """Text made of lines (a JSON document, indented), each line `shown`: its own line breaks kept."""
    return "\n".join(shown(line) for line in text.split("\n"))


def columns(text: str) -> int:
    """How many terminal columns `text` takes: a wide or full-width character (漢字, かな) two, the rest one."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def padded(text: str, width: int) -> str:
    """`text` followed by spaces up to `width` columns (as `:<width`, counting a wide character as two)."""
    return text + " " * max(0, width - columns(text))
