"""Property tests for text padded to terminal columns (issue 32 item 11: `rules` with Japanese ids).

- Whatever the text (wide, narrow, mixed), padding it to a width it fits in
  makes it exactly that many columns, and never cuts it.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from karakuri_agent.terminal import columns, padded


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs", "Cc", "Mn", "Me", "Cf")), max_size=20), st.integers(0, 50))
def test_padding_reaches_the_width_and_keeps_the_text(text, width):
    out = padded(text, width)
    assert out.startswith(text) and set(out[len(text):]) <= {" "}
    assert columns(out) == max(width, columns(text))
