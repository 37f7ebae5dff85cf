"""`listen --stdin`: a bad line costs that line only, whatever it holds (issue 28, also). Real processes."""

from __future__ import annotations

import json
import subprocess

import pytest
from hypothesis import given, settings, strategies as st

from karakuri_agent.app.listen.stdin import BadLine, parse_line
from karakuri_agent.outside import NotOneObject, json_object
from karakuri_agent.report import line as report
from testing.runs import AGENT, body, notification

from testing.loopback import running_api

IDS = ["notif-bad-lines-1", "notif-bad-lines-2"]
BAD = [
    '{"content": "x", "id": %s}\n' % ("9" * 5000),  # gave internal error (AttributeError) and a dead listener
    '{"content": %s}\n' % ("9" * 5000),
    '{"content": NaN}\n',
    '{"content": "x", "channel_id": 1e400}\n',
    "[" * 100_000 + "\n",
    '{"content": ' + "[" * 40 + "]" * 40 + "}\n",
    "[1, 2]\n",
    '"just a string"\n',
    "null\n",
    '{"content": "x", "id": {"nested": true}}\n',
    "{\n",
]


@pytest.fixture
def loopback():
    with running_api() as server:
        for nid in IDS:
            server.notifications[nid] = notification(nid)
        yield server


def good(nid: str) -> str:
    return json.dumps({"content": body(nid)}, ensure_ascii=False) + "\n"


def test_every_kind_of_bad_line_is_one_warning_and_the_listener_goes_on(loopback, proc_env, tmp_path):
    feed = (good(IDS[0]) + "".join(BAD)).encode() + b'{"content": "\xff\xfe not utf-8"}\n' + good(IDS[1]).encode()
    proc = subprocess.Popen([*AGENT, "listen", "--stdin"], env=proc_env, cwd=tmp_path, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = proc.communicate(feed, timeout=120)
    out_lines, err_text = out.decode().splitlines(), err.decode()
    assert proc.returncode == 0, err_text
    assert [p["notification_id"] for p in loopback.posts] == IDS  # the line after the bad ones was handled
    assert len(out_lines) == 2 and all(o.startswith(report.PREFIX) for o in out_lines)
    skipped = [line for line in err_text.splitlines() if " skipped: " in line]
    assert [line.split(" skipped: ")[0].rsplit("line ", 1)[1] for line in skipped] == [
        str(n) for n in range(2, 2 + len(BAD))]
    assert "internal error" not in err_text and "Traceback" not in err_text


LINES = st.one_of(
    st.text(max_size=60),
    st.builds(lambda c, i: json.dumps({"content": c, "id": i}), st.text(max_size=20),
              st.one_of(st.integers(), st.text(max_size=5), st.none(), st.booleans(), st.floats())),
    st.builds(lambda n, d: "[" * n + d + "]" * n, st.integers(0, 200), st.sampled_from(["", "1", '"a"', "NaN"])),
    st.builds(lambda digits: '{"content": "x", "id": %s}' % ("9" * digits), st.integers(1, 6000)),
)


@settings(max_examples=300, deadline=None)
@given(line=LINES)
def test_any_line_is_a_message_or_one_bad_line_never_another_error(line):
    try:
        message = parse_line(line)
    except BadLine as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert isinstance(message.content, str) and all(isinstance(v, str) for v in
                                                    (message.author_id, message.channel_id, message.message_id))


@settings(max_examples=300, deadline=None)
@given(text=LINES)
def test_the_doors_reader_gives_one_object_or_says_why_in_one_line(text):
    try:
        value = json_object(text)
    except NotOneObject as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert isinstance(value, dict)
