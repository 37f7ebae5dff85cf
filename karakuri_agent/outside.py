"""Text, JSON and files from outside (the server, Discord, the command line, configured paths), read safely.

JSON may spell a lone surrogate (`"\\ud800"`): Python reads it into a str
that no UTF-8 file, database, terminal or webhook can take, so a run would
crash far from where the text came in. Everything read from outside passes
through here once, and a lone surrogate becomes U+FFFD. A file a setting
names is read only if it is a regular file of a bounded size.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def clean_text(text: str) -> str:
    """`text` with every lone surrogate replaced (a real pair never reaches a str as two halves)."""
    return _LONE_SURROGATE.sub(REPLACEMENT, text) if _LONE_SURROGATE.search(text) else text


def clean(value: Any) -> Any:
    """A JSON value with its strings (keys too) cleaned; iterative, so any depth is fine."""
    if isinstance(value, str):
        return clean_text(value)
    if not isinstance(value, (dict, list)):
        return value
    root: list[Any] = [value]
    stack: list[tuple[Any, Any, Any]] = [(root, 0, value)]
    while stack:
        parent, key, item = stack.pop()
        if isinstance(item, str):
            parent[key] = clean_text(item)
        elif isinstance(item, list):
            copy = list(item)
            parent[key] = copy
            stack.extend((copy, i, v) for i, v in enumerate(copy))
        elif isinstance(item, dict):
            copy_d = {clean_text(k) if isinstance(k, str) else k: v for k, v in item.items()}
            parent[key] = copy_d
            stack.extend((copy_d, k, v) for k, v in copy_d.items())
    return root[0]


def loads(text: str) -> Any:
    """`json.loads`, with lone surrogates spelled as escapes cleaned (only then is the value walked)."""
    value = json.loads(text)
    if "\\u" in text and re.search(r"\\u[dD][89a-fA-F]", text):
        return clean(value)
    return value


def read_regular_file(path: Path, limit: int) -> str:
    """The UTF-8 text of a regular file of at most `limit` bytes, else OSError saying why.

    A configured path may name anything: `/dev/zero` (endless), a FIFO
    (blocks for ever), a directory, a huge file. The file is opened without
    blocking and checked before a byte is read; at most `limit` + 1 bytes are.
    """
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
        if info.st_size > limit:
            raise OSError(errno.EFBIG, f"larger than {limit // 1000} kB", str(path))
        with os.fdopen(fd, "rb", closefd=True) as handle:
            fd = -1
            data = handle.read(limit + 1)
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"larger than {limit // 1000} kB", str(path))
    return data.decode("utf-8")


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"), (stat.S_ISREG, "a regular file"))


def file_kind(path: Path) -> str | None:
    """What is at `path` ("a directory", "a FIFO (named pipe)", ...), so a message says what it is; None: nothing."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    return next((kind for test, kind in _KINDS if test(mode)), "not a regular file")
