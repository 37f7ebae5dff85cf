"""Fuzz: any `.env` text is either read as python-dotenv reads it, or refused naming the first bad line."""

from __future__ import annotations

import io
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from karakuri_agent.app.config import read_env_file
from karakuri_agent.errors import ConfigError

NAMES = st.sampled_from(["KARAKURI_AGENT_DISABLED", "KARAKURI_API_KEY", "A", "export B"])
PIECES = st.lists(st.sampled_from(['"', "'", "=", " ", "#", "\\", "1", "x", "${A}", "\t"]), max_size=6).map("".join)
LINE = st.one_of(
    st.builds(lambda n, v: f"{n}={v}", NAMES, PIECES),
    PIECES,
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=10),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(LINE, max_size=6))
def test_any_dotenv_is_read_as_python_dotenv_reads_it_or_refused_at_its_first_bad_line(tmp_path, lines):
    from dotenv import dotenv_values
    from dotenv.parser import parse_stream

    text = "\n".join(lines)
    path = tmp_path / ".env"
    path.write_text(text, encoding="utf-8", newline="")
    bad = [b.original.line for b in parse_stream(io.StringIO(text)) if b.error]
    if bad:
        with pytest.raises(ConfigError) as raised:
            read_env_file(path)
        assert re.match(rf"{re.escape(str(path))}, line {bad[0]}: ", raised.value.message)
        assert "\n" not in raised.value.message
        assert set(read_env_file(path, skip_bad_lines=True)) <= set(dotenv_values(stream=io.StringIO(text)))
    else:
        expected = {k: v for k, v in dotenv_values(stream=io.StringIO(text)).items() if v is not None}
        assert read_env_file(path) == expected
