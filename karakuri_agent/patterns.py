"""Regular expressions compiled when first used, not when their module is imported.

Python compiles every regular expression anew in every process, and the
readers' Japanese patterns are large (a kanji class alone is 21 000
characters that the compiler walks one by one): compiling all of them at
import cost a one-shot `handle` more than its whole decision. A run uses
only some of them (a move's notification never reads a conversation line),
so each is compiled the first time it is asked to match, once per process.

`lazy()` returns an object with the `re.Pattern` methods the package uses;
it is typed as `re.Pattern[str]` so callers do not change. Its `pattern`
and `flags` are there without compiling (patterns built from other
patterns read them).

`needs` names words of which every match holds at least one (the
pattern's own fixed words: "に新しい" in "…に新しい…ができた"): a text with
none of them cannot match, so it is answered without compiling or running
the pattern. tests/test_fuzz_patterns.py holds each declared `needs` to
its pattern.
"""

from __future__ import annotations

import re
from typing import Any, cast


class _Lazy:
    __slots__ = ("pattern", "flags", "needs", "_compiled")

    def __init__(self, pattern: str, flags: int, needs: tuple[str, ...]) -> None:
        self.pattern = pattern
        self.flags = flags
        self.needs = needs
        self._compiled: re.Pattern[str] | None = None

    def _hopeless(self, text: Any) -> bool:
        return bool(self.needs) and isinstance(text, str) and not any(word in text for word in self.needs)

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, text: Any, *args: Any) -> Any:
        return None if self._hopeless(text) else self.compiled().search(text, *args)

    def match(self, text: Any, *args: Any) -> Any:
        return None if self._hopeless(text) else self.compiled().match(text, *args)

    def fullmatch(self, text: Any, *args: Any) -> Any:
        return None if self._hopeless(text) else self.compiled().fullmatch(text, *args)

    def finditer(self, text: Any, *args: Any) -> Any:
        return iter(()) if self._hopeless(text) else self.compiled().finditer(text, *args)

    def findall(self, text: Any, *args: Any) -> Any:
        return [] if self._hopeless(text) else self.compiled().findall(text, *args)

    def sub(self, *args: Any, **kwargs: Any) -> Any:
        return self.compiled().sub(*args, **kwargs)

    def subn(self, *args: Any, **kwargs: Any) -> Any:
        return self.compiled().subn(*args, **kwargs)

    def split(self, *args: Any, **kwargs: Any) -> Any:
        return self.compiled().split(*args, **kwargs)

    @property
    def groups(self) -> int:
        return self.compiled().groups

    @property
    def groupindex(self) -> Any:
        return self.compiled().groupindex

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(pattern: str, flags: int | re.RegexFlag = 0, *, needs: tuple[str, ...] = ()) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, done on the first match asked of it (of a text holding one of `needs`)."""
    return cast("re.Pattern[str]", _Lazy(pattern, int(flags), needs))


def needs_of(pattern: re.Pattern[str]) -> tuple[str, ...]:
    """The words a lazy pattern declared every match holds one of (none: it is always run)."""
    return pattern.needs if isinstance(pattern, _Lazy) else ()


def compiled(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """The real compiled pattern behind `pattern` (for code that needs an `re.Pattern` itself)."""
    return cast(_Lazy, pattern).compiled() if isinstance(pattern, _Lazy) else pattern
