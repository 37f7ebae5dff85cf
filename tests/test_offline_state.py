"""Offline runs (demo, fixture runs, town lives) keep their state apart from the live agent's, and clean up.

The live agent's state directory is refused under any spelling of its path,
and so is any directory holding a state no offline run made; two town
lives started at once into one new directory: exactly one lives; SIGTERM
removes a town's throwaway state as Ctrl-C does.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from testing.samples import CONVERSATION_REQUEST
from testing.loopback import running_api
from testing.processes import console_script, loopback_env

pytestmark = pytest.mark.process

AGENT = console_script("karakuri-agent", "agent")
NID = CONVERSATION_REQUEST["notification_id"]
DEMO01 = "notification_id: notif-demo01"


def run(env, *args, cwd, stdin=""):
    return subprocess.run([*AGENT, *args], env=env, cwd=cwd, input=stdin, capture_output=True, text=True,
                          timeout=300)


@pytest.fixture(scope="module")
def live(tmp_path_factory):
    """A live agent's state made by a real run against a loopback server: (its directory, its environment)."""
    root = tmp_path_factory.mktemp("live")
    with running_api() as api:
        api.notifications[NID] = CONVERSATION_REQUEST
        env = loopback_env(api.base_url, root / "state")
        handled = run(env, "handle", f"notification_id: {NID}", cwd=root)
        assert handled.returncode == 0 and len(api.posts) == 1, handled.stderr
    return root / "state", env


def fingerprint(state_dir):
    return sorted((p.name, p.stat().st_size, p.stat().st_mtime_ns) for p in state_dir.iterdir())


def spelled(state_dir, how, cwd):
    if how == "as is":
        return str(state_dir)
    if how == "trailing slash":
        return str(state_dir) + "/"
    if how == "with /./":
        return str(state_dir.parent / "." / state_dir.name)
    if how == "relative":
        return os.path.relpath(state_dir, cwd)
    link = cwd / f"link-{os.getpid()}-{time.monotonic_ns()}"
    link.symlink_to(state_dir)
    return str(link)


OFFLINE = {
    "demo": (["demo", "--state-dir"], ""),
    "handle --fixtures": (["handle", "--fixtures", "bundled", "--state-dir"], DEMO01),
    "handle --dry-run --fixtures": (["handle", "--dry-run", "--fixtures", "bundled", "--state-dir"], DEMO01),
    "listen --stdin --fixtures": (["listen", "--stdin", "--fixtures", "bundled", "--state-dir"],
                                  json.dumps({"content": DEMO01, "id": "1"}) + "\n"),
    "town": (["town", "--state-dir"], ""),
}


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(command=st.sampled_from(sorted(OFFLINE)),
       how=st.sampled_from(["as is", "trailing slash", "with /./", "relative", "a symlink"]),
       named=st.booleans())
def test_no_offline_run_writes_into_a_live_agents_state(live, tmp_path_factory, command, how, named):
    """`named`: KARAKURI_STATE_DIR names the live directory; otherwise it merely holds a live state."""
    state_dir, live_env = live
    cwd = tmp_path_factory.mktemp("cwd")
    before = fingerprint(state_dir)
    env = dict(live_env) if named else {k: v for k, v in live_env.items() if k != "KARAKURI_STATE_DIR"}
    args, stdin = OFFLINE[command]
    refused = run(env, *args, spelled(state_dir, how, cwd), cwd=cwd, stdin=stdin)
    assert refused.returncode == 2, (command, how, refused.stdout, refused.stderr)
    assert len(refused.stderr.strip().splitlines()) == 1 and "--state-dir" in refused.stderr, refused.stderr
    assert fingerprint(state_dir) == before


def test_an_offline_state_kept_once_is_used_again_by_later_offline_runs(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    first = run(env, "demo", "--state-dir", str(tmp_path / "kept"), cwd=tmp_path)
    again = run(env, "handle", "--fixtures", "bundled", "--state-dir", str(tmp_path / "kept"), cwd=tmp_path, stdin=DEMO01)
    assert first.returncode == 0 and again.returncode == 0, again.stderr
    assert "対応済み" in again.stdout  # the demo's own claim, kept: the same state


def test_two_town_lives_started_at_once_into_one_new_directory_one_lives_whole(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}
    alone = run(env, "town", "--json", cwd=tmp_path)
    procs = [subprocess.Popen([*AGENT, "town", "--json", "--state-dir", str(tmp_path / "shared")], env=env,
                              cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    results = [(p.wait(timeout=300), p.stdout.read(), p.stderr.read()) for p in procs]
    assert sorted(code for code, _, _ in results) == [0, 2], results
    [(_, lived, _)] = [r for r in results if r[0] == 0]
    [(_, _, refused)] = [r for r in results if r[0] == 2]
    assert "--state-dir" in refused and len(refused.strip().splitlines()) == 1
    assert json.loads(lived)["days"] == json.loads(alone.stdout)["days"]  # the whole life, as lived alone


def test_sigterm_during_a_town_life_removes_its_throwaway_state(tmp_path):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("KARAKURI_", "DISCORD_"))}, "TMPDIR": str(scratch)}
    proc = subprocess.Popen([*AGENT, "town", "--days", "30"], env=env, cwd=tmp_path, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not any(scratch.glob("karakuri-town-*/state/karakuri.db")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any(scratch.glob("karakuri-town-*")), "the town never started"
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=60) == 143
    assert list(scratch.iterdir()) == []
