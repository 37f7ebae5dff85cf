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
"""

from __future__ import annotations

import re
from typing import Any, cast


class _Lazy:
    __slots__ = ("pattern", "flags", "_compiled")

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self.flags)
        return self._compiled

    def search(self, *args: Any) -> Any:
        return self.compiled().search(*args)

    def match(self, *args: Any) -> Any:
        return self.compiled().match(*args)

    def fullmatch(self, *args: Any) -> Any:
        return self.compiled().fullmatch(*args)

    def finditer(self, *args: Any) -> Any:
        return self.compiled().finditer(*args)

    def findall(self, *args: Any) -> Any:
        return self.compiled().findall(*args)

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


def lazy(pattern: str, flags: int | re.RegexFlag = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, done on the first match asked of it."""
    return cast("re.Pattern[str]", _Lazy(pattern, int(flags)))


def compiled(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """The real compiled pattern behind `pattern` (for code that needs an `re.Pattern` itself)."""
    return cast(_Lazy, pattern).compiled() if isinstance(pattern, _Lazy) else pattern
