"""Headless Chromium for the tests (Debian's `chromium`): what a real browser made of a page.

`dump_dom` runs the browser on a file with no network features (no
background requests, no QUIC, a throwaway profile) and returns the DOM it
built, which `Dom` reads back into elements. Where Chromium is absent, the
tests that need it skip with the reason (CI installs it: .ci/run).
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync")
NOT_INSTALLED = "Chromium is not installed (Debian: apt-get install chromium; CI installs it)"


def executable() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


def require() -> str:
    found = executable()
    if found is None:
        pytest.skip(NOT_INSTALLED)
    return found


def run(page: Path, profile: Path, *extra: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([require(), *FLAGS, f"--user-data-dir={profile}", *extra, page.resolve().as_uri()],
                          capture_output=True, text=True, timeout=timeout, check=True)


def dump_dom(page: Path, profile: Path) -> str:
    return run(page, profile, "--dump-dom").stdout


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""
    children: list["Element"] = field(default_factory=list)

    def all_text(self) -> str:
        return self.text + "".join(child.all_text() for child in self.children)


class Dom(HTMLParser):
    """The dumped DOM as a flat list of elements, each with its text (entities decoded, as the browser shows it)."""

    VOID = {"meta", "link", "br", "img", "input", "hr", "circle", "polyline", "line", "path"}

    def __init__(self, markup: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self._open: list[Element] = []
        self.feed(markup)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {k: v or "" for k, v in attrs})
        if self._open:
            self._open[-1].children.append(element)
        self.elements.append(element)
        if tag not in self.VOID:
            self._open.append(element)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in self.VOID and self._open and self._open[-1].tag == tag:
            self._open.pop()

    def handle_endtag(self, tag: str) -> None:
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index].tag == tag:
                del self._open[index:]
                return

    def handle_data(self, data: str) -> None:
        if self._open:
            target = self._open[-1]
            if target.children:
                target.children.append(Element("#text", {}, data))
            else:
                target.text += data

    def find(self, tag: str | None = None, **attrs: str) -> list[Element]:
        """Elements by tag and attributes (`class_` for class: a word of it)."""
        wanted_class = attrs.pop("class_", None)
        return [e for e in self.elements if (tag is None or e.tag == tag)
                and all(e.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())
                and (wanted_class is None or wanted_class in e.attrs.get("class", "").split())]
