"""Every benchmark once at its smallest (`--smoke`), each in a fresh process: CI's guard that they still run.

Run from the repository root:

    .venv/bin/python benchmarks/smoke.py                    # all of them, three at a time
    .venv/bin/python benchmarks/smoke.py bench_day.py -v    # some, with their output
    .venv/bin/python benchmarks/smoke.py --jobs 1           # one at a time (each line's time its own)
    .venv/bin/python benchmarks/smoke.py --list             # the scripts it runs

A restructuring of the package can break a benchmark without any test
noticing (they import the package's modules by name and read its records);
this runs each one in a fresh interpreter with `--smoke` (one seed, a few
notifications, tiny iterations) and prints one line per script: its status
and wall time. A script is broken when it exits non-zero (an exception, or
its own check that the path ran: e.g. no notification handled; never a
speed: nothing here is timed against an aim), when it runs past its time
limit, or when it wrote anything into the repository (e.g.
benchmarks/results/) or the default state directory of its home. A script
that needs what this machine lacks prints `skipped: <why>` and exits 0.

Each child gets its own empty HOME and no KARAKURI_*/DISCORD_*/XDG_*
settings (KARAKURI_TEST_DATABASE_URL is kept: under scripts/with-postgres.sh
bench_state.py measures PostgreSQL too); compiled modules go to a cache in
the temporary directory, kept between runs. Exit code 1 when any script
broke. It imports nothing of the package.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

from testing.smoke import SKIPPED  # noqa: E402  (what a script prints when this machine cannot run it)

TIME_LIMIT = 180.0  # seconds per script; a smoke run takes a few
# Each script with its smoke arguments, the longest first (they run a few at a time). `{work}` is a temporary
# directory shared by the run: compare_runs.py reads what bench_engine_town.py saved there (the results
# format, read back by the tool that compares runs), so it runs after it (AFTER).
SCRIPTS: dict[str, tuple[str, ...]] = {
    "bench_steps.py": ("--smoke",),
    "bench_conversation.py": ("--smoke",),
    "bench_llm_prompt.py": ("--smoke",),
    "bench_llm_town.py": ("--smoke",),
    "bench_engine_town.py": ("--smoke", "--relay", "rough", "--output", "{work}/engine-town.json"),
    "compare_runs.py": ("{work}/engine-town.json", "{work}/engine-town.json", "--limit", "0"),
    "bench_wrapper.py": ("--smoke",),
    "bench_oneshot.py": ("--smoke",),
    "bench_listen.py": ("--smoke",),
    "bench_fleet.py": ("--smoke",),
    "bench_day.py": ("--smoke",),
    "bench_reading.py": ("--smoke",),
    "bench_commits.py": ("--smoke",),
    "bench_town.py": ("--smoke",),
    "bench_llm_real.py": ("--smoke",),
    "bench_startup.py": ("--smoke",),
    "bench_state.py": ("--smoke",),
    "bench_growth.py": ("--smoke",),
    "bench_bigtext.py": ("--smoke",),
    "bench_listening.py": ("--smoke",),
    "bench_rules.py": ("--smoke",),
    "bench_textparse.py": ("--smoke",),
    "bench_sealed.py": ("--smoke",),
    "bench_understanding.py": ("--smoke",),
    "speech_samples.py": ("--smoke",),
}
AFTER = {"compare_runs.py": "bench_engine_town.py"}  # run once the other is done, if it is run at all


def unlisted() -> list[str]:
    """What the list and the folder disagree on: a benchmark left out, or a listed script that is gone."""
    present = {path.name for path in HERE.glob("bench_*.py")}
    return [f"{name}: not in {Path(__file__).name}'s list" for name in sorted(present - set(SCRIPTS))] + [
        f"{name}: listed but not in {HERE.name}/" for name in SCRIPTS if not (HERE / name).is_file()]


def repository_files() -> dict[str, tuple[int, int]]:
    """Every file of the checkout but the hidden folders and bytecode: path → (mtime, size)."""
    found: dict[str, tuple[int, int]] = {}
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d != "__pycache__" and not d.endswith(".egg-info")]
        for name in files:
            path = Path(folder, name)
            try:
                stat = path.stat()
            except OSError:
                continue
            found[str(path.relative_to(ROOT))] = (stat.st_mtime_ns, stat.st_size)
    return found


def changed(before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]) -> list[str]:
    return sorted(name for name in before.keys() | after.keys() if before.get(name) != after.get(name))


def default_state(home: Path) -> Path:
    """Where the agent keeps its state when nothing says otherwise (platformdirs on Linux, XDG unset)."""
    return home / ".local" / "share" / "karakuri-agent"


def bytecode_cache() -> Path:
    """Where the children keep compiled modules: outside the checkout and the home, kept between runs
    (a cache keyed by each source's path and time), so only a first run pays for compiling the package."""
    return Path(tempfile.gettempdir()) / f"karakuri-smoke-pycache-{os.getuid()}"


def child_environment(home: Path, pycache: Path) -> dict[str, str]:
    """This environment without the user's settings, an empty home, bytecode cached outside the tree."""
    env = {k: v for k, v in os.environ.items()
           if k.startswith("KARAKURI_TEST_") or not k.startswith(("KARAKURI_", "DISCORD_", "XDG_"))}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # each child would compile the whole package again
    env.update(HOME=str(home), PYTHONPYCACHEPREFIX=str(pycache))
    return env


def run_one(name: str, argv: list[str], env: dict[str, str], limit: float) -> tuple[int | None, str, float]:
    """(exit code or None past `limit` seconds, its output, seconds)."""
    started = time.perf_counter()
    proc = subprocess.Popen([sys.executable, str(HERE / name), *argv], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=limit)
        code: int | None = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the script and whatever it started (its own session)
        output, _ = proc.communicate()
        code = None
    return code, output, time.perf_counter() - started


def verdict(code: int | None, output: str, home: Path, limit: float) -> tuple[str, str]:
    """(status, what to say after the name)."""
    lines = output.splitlines()
    if code is None:
        return "BROKEN", f"still running after {limit:g} s"
    if code != 0:
        last = next((line for line in reversed(lines) if line.strip()), "")
        return "BROKEN", f"exit {code}: {last.strip()[:200]}"
    if default_state(home).exists():
        return "BROKEN", f"wrote the default state directory {default_state(Path('~'))}"
    skipped = next((line for line in lines if line.startswith(SKIPPED)), None)
    if skipped is not None:
        return "skipped", skipped[len(SKIPPED):]
    parts = [line.strip() for line in lines if f": {SKIPPED}" in line]
    return "ok", "; ".join(parts)


def groups(names: list[str]) -> list[list[str]]:
    """The scripts in runs of one after another: a script listed in AFTER follows the one it needs."""
    out: dict[str, list[str]] = {}
    for name in names:
        leader = AFTER.get(name)
        if leader in names:
            out[leader].append(name)
        else:
            out.setdefault(name, []).insert(0, name)
    return list(out.values())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", metavar="SCRIPT", help="run only these (default: all)")
    parser.add_argument("--list", action="store_true", help="print the scripts it runs, one a line, and stop")
    parser.add_argument("--jobs", type=int, default=3, help="scripts run at once (default 3: on two cores, one"
                                                             " waits on its loopback servers while two compute)")
    parser.add_argument("--time-limit", type=float, default=TIME_LIMIT, metavar="SECONDS",
                        help=f"a script still running after this is broken (default {TIME_LIMIT:g})")
    parser.add_argument("-v", "--verbose", action="store_true", help="print each script's output too")
    args = parser.parse_args(argv)
    problems = unlisted()
    if problems:
        for problem in problems:
            print(f"smoke: {problem}", file=sys.stderr)
        return 1
    if args.list:
        print("\n".join(SCRIPTS))
        return 0
    unknown = [name for name in args.names if name not in SCRIPTS]
    if unknown:
        parser.error(f"not a listed script: {', '.join(unknown)} (see --list)")
    names = [name for name in SCRIPTS if name in args.names] if args.names else list(SCRIPTS)
    real_state = default_state(Path.home())
    had_state = real_state.exists()
    before = repository_files()
    statuses: list[str] = []
    lock = threading.Lock()
    started = time.perf_counter()
    print(f"benchmarks --smoke: {len(names)} scripts, {args.jobs} at a time, each in a fresh process", flush=True)
    with tempfile.TemporaryDirectory(prefix="karakuri-smoke-") as tmp:
        work = Path(tmp)

        def run(name: str) -> None:
            home = Path(tempfile.mkdtemp(prefix="home-", dir=work))
            script_argv = [part.replace("{work}", str(work)) for part in SCRIPTS[name]]
            code, output, seconds = run_one(name, script_argv, child_environment(home, bytecode_cache()),
                                            args.time_limit)
            status, note = verdict(code, output, home, args.time_limit)
            shutil.rmtree(home, ignore_errors=True)
            with lock:
                statuses.append(status)
                print(f"  {status:<8}{seconds:6.1f} s  {name}" + (f"  ({note})" if note else ""), flush=True)
                if args.verbose or status == "BROKEN":
                    tail = output.splitlines() if args.verbose else output.splitlines()[-25:]
                    print("".join(f"      | {line}\n" for line in tail), end="", flush=True)

        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(lambda group: [run(name) for name in group], groups(names)))
    strays = []
    wrote = changed(before, repository_files())
    if wrote:
        strays.append(f"the run wrote into the repository: {', '.join(wrote[:10])}")
    if not had_state and real_state.exists():
        strays.append(f"the run created {real_state}")
    for stray in strays:
        print(f"  BROKEN  {stray}")
    broken = statuses.count("BROKEN")
    print(f"{len(names)} scripts in {time.perf_counter() - started:.1f} s: {statuses.count('ok')} ok,"
          f" {statuses.count('skipped')} skipped, {broken} broken")
    return 1 if broken or strays else 0


if __name__ == "__main__":
    sys.exit(main())
