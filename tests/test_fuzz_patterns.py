"""Patterns compiled on first use (karakuri_agent/patterns.py): the same answers as re, and every declared
`needs` true of its pattern (a text without one of those words could never have matched)."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import karakuri_agent
from karakuri_agent.patterns import compiled, lazy, needs_of


def _package_patterns() -> list[tuple[str, re.Pattern[str]]]:
    """Every lazy pattern at module level in the readers' rooms, by its module and name."""
    found = []
    for info in pkgutil.walk_packages(karakuri_agent.__path__, "karakuri_agent."):
        if not info.name.startswith(("karakuri_agent.ja", "karakuri_agent.reading", "karakuri_agent.behaviour")):
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if type(value).__name__ == "_Lazy":
                found.append((f"{info.name}.{name}", value))
    return found


PATTERNS = _package_patterns()
WITH_NEEDS = [(name, pattern) for name, pattern in PATTERNS if needs_of(pattern)]


def _pieces(pattern: re.Pattern[str]) -> list[str]:
    """The pattern's own fixed words and their near misses: the texts most likely to match or almost."""
    words = [w for w in re.split(r"[\\()\[\]{}|?*+^$.:<>=!,\-]+|\\[a-zA-Z]|P<\w+>", pattern.pattern) if w]
    near = [w[:-1] for w in words if len(w) > 1] + [w[1:] for w in words if len(w) > 1]
    return words + near + ["猫", "公民館", "カフェ", "私", "、", "は", "が", "を", "で", "に", "ね", "よ", "今日", "1"]


def test_the_readers_declare_needs_somewhere():
    # The guard below would pass vacuously if no pattern declared any.
    assert len(WITH_NEEDS) >= 8, [name for name, _ in WITH_NEEDS]


@pytest.mark.parametrize("name, pattern", WITH_NEEDS, ids=[name for name, _ in WITH_NEEDS])
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_a_match_always_holds_one_of_the_needs(name, pattern, data):
    text = "".join(data.draw(st.lists(st.sampled_from(_pieces(pattern)), max_size=12)))
    real = compiled(pattern)
    match = real.search(text)
    if match is not None:
        assert any(word in text for word in needs_of(pattern)), (name, text)
    assert (pattern.search(text) is None) == (match is None)  # the lazy answer is re's


@given(st.text(alphabet="にい新しカフェができ駅前たやめ中止", max_size=20))
def test_lazy_answers_as_re_does(text):
    source = r"(?P<where>[ァ-ヴー\u4e00-\u9fff]{1,4})に新しい(?P<what>[ァ-ヴー]{1,6})ができた"
    plain, fast = re.compile(source), lazy(source, needs=("に新しい",))
    assert [m.groupdict() for m in fast.finditer(text)] == [m.groupdict() for m in plain.finditer(text)]
    assert fast.findall(text) == plain.findall(text)
    assert bool(fast.match(text)) == bool(plain.match(text))
    assert bool(fast.fullmatch(text)) == bool(plain.fullmatch(text))


def test_a_text_without_the_needs_is_answered_without_compiling():
    pattern = lazy(r"(?P<where>\w+)に新しい", needs=("に新しい",))
    assert pattern.search("こんにちは！") is None
    assert pattern.findall("こんにちは！") == [] and list(pattern.finditer("こんにちは！")) == []
    assert getattr(pattern, "_compiled") is None  # nothing compiled for a line that cannot match
    assert pattern.search("駅前に新しい")["where"] == "駅前"
    assert getattr(pattern, "_compiled") is not None


def test_the_told_patterns_still_read_real_lines():
    from karakuri_agent.ja import told_words

    assert told_words.NEWS_LINE.search("駅前に新しいカフェができた")["what"] == "カフェ"
    assert told_words.RETRACT.search("やっぱり旅行はやめた")["topic"] == "旅行"
    assert told_words.personal_facts("猫が大好き！") == [("like", "猫", "", False)]
    assert told_words.personal_facts("妹がいるんだ") == [("family", "妹さん", "妹", False)]
    assert told_words.personal_facts("パン屋で働いてるんだ") == [("work", "パン屋", "", False)]
    assert [kind for kind, *_ in told_words.personal_facts("昨日、映画館に行ってきた")] == ["event"]
