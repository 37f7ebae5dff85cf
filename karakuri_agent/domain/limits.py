"""How much of the past one run reads: the context's bounds, and so what `gc` must keep.

In a module of their own, with no imports, so that retention (which the CLI
loads for the `gc` bound) can know them without loading the context's
parsers into every command's start-up.
"""

# The newest activity entries the decision context shows.
ACTIVITY_LIMIT = 6
# The newest commands a decider sees (variety, cooldown).
RECENT_COMMANDS = 6
# Short memory: entries of the last few days, at most this many.
MEMORY_DAYS = 3
MEMORY_LIMIT = 12
# Files a setting names (persona.json, KARAKURI_WORLD_CONTEXT_FILE): regular files up to this size.
MAX_CONFIGURED_FILE_BYTES = 1_000_000
# What of a notification the text patterns read: its text (head and tail, at line ends) and any
# other text field. Real texts are a few kB; past this, a pattern's cost would grow with the sender.
MAX_TEXT_CHARS = 64_000
MAX_FIELD_CHARS = 4_000
# Talks after which someone is a friend: the relationship's label, and closeness without a pack's variable.
FRIEND_AFTER_TALKS = 5
# How deep a pack file (persona.json, behaviour.json) may nest arrays and objects: the deepest real
# field is a rule's choose params, six levels down; past this it is a mistake or an attack.
MAX_PACK_NESTING = 32
# The server's maxLength for a conversation message, in UTF-16 code units (as the server counts).
MESSAGE_UNITS = 200


def utf16_units(text: str) -> int:
    """Length as the server counts it (JavaScript strings): an emoji outside the BMP is two."""
    return len(text.encode("utf-16-le")) // 2
