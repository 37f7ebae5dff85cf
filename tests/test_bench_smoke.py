"""benchmarks/smoke.py, CI's run of every benchmark at its smallest: it leaves none out and tells a broken one.

The runner is run as a process (tests import nothing of benchmarks/): on the
real folder for its list, and as a copy beside stub scripts, one for each
listed name, that break, skip, or write where a smoke run must not.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
import pytest

pytestmark = pytest.mark.life

ROOT = Path(__file__).resolve().parents[1]
RUNNER = ROOT / "benchmarks" / "smoke.py"

OK_STUB = "import sys\nsys.exit(0 if '--smoke' in sys.argv else 3)\n"  # every benchmark is given --smoke
STUBS = {
    "bench_rules.py": "import sys\nsys.exit('smoke: broken: no rule fired')\n",
    "bench_llm_real.py": "print('skipped: no model server here')\n",
    "bench_listen.py": "print('shell wrapper: skipped: curl is not installed')\n",
    "bench_day.py": "from pathlib import Path\n(Path('benchmarks/results')).mkdir()\n"
                    "Path('benchmarks/results/bench_day.json').write_text('{}')\n",
    "bench_state.py": "import os\nfrom pathlib import Path\n"
                      "Path(os.environ['HOME'], '.local/share/karakuri-agent').mkdir(parents=True)\n",
    "bench_startup.py": "import time\ntime.sleep(60)\n",
    # compare_runs.py reads what bench_engine_town.py saved: it must run after it, with the same file.
    "bench_engine_town.py": "import sys\nfrom pathlib import Path\nPath(sys.argv[sys.argv.index('--output') + 1])"
                          ".write_text('{}')\n",
    "compare_runs.py": "import sys\nfrom pathlib import Path\n"
                       "sys.exit(0 if Path(sys.argv[1]).read_text() == '{}' else 1)\n",
}


def run(runner: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(runner), *args], capture_output=True, text=True, timeout=120)


def listed() -> list[str]:
    done = run(RUNNER, "--list")
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def stub_checkout(tmp_path: Path, extra: dict[str, str] | None = None) -> Path:
    """A copy of the runner (and the helper it imports) in a folder of stubs named as the real scripts."""
    folder = tmp_path / "benchmarks"
    folder.mkdir()
    shutil.copy(RUNNER, folder / "smoke.py")
    (tmp_path / "testing").mkdir()
    shutil.copy(ROOT / "testing" / "smoke.py", tmp_path / "testing" / "smoke.py")
    (tmp_path / "testing" / "__init__.py").write_text("")
    for name in listed():
        (folder / name).write_text(STUBS.get(name, OK_STUB))
    for name, code in (extra or {}).items():
        (folder / name).write_text(code)
    return folder / "smoke.py"


def statuses(output: str) -> dict[str, str]:
    """Script name → status, from the runner's lines `  <status>  <seconds> s  <name>  (<note>)`."""
    found = {}
    for line in output.splitlines():
        parts = line.split()
        if len(parts) >= 4 and parts[2] == "s" and parts[3].endswith(".py"):
            found[parts[3]] = parts[0]
    return found


def test_the_runner_lists_every_benchmark_and_only_scripts_that_exist() -> None:
    names = listed()
    benchmarks = {path.name for path in (ROOT / "benchmarks").glob("bench_*.py")}
    assert benchmarks <= set(names), benchmarks - set(names)
    assert all((ROOT / "benchmarks" / name).is_file() for name in names)
    assert "compare_runs.py" in names and len(names) == len(set(names))


def test_a_benchmark_left_out_of_the_list_fails_every_run(tmp_path: Path) -> None:
    runner = stub_checkout(tmp_path, {"bench_new.py": OK_STUB})
    done = run(runner, "--list")
    assert done.returncode == 1
    assert "bench_new.py: not in smoke.py's list" in done.stderr


def test_broken_skipped_and_stray_writes_are_told_apart(tmp_path: Path) -> None:
    runner = stub_checkout(tmp_path)
    done = run(runner, "--time-limit", "3")
    assert done.returncode == 1, done.stdout
    seen = statuses(done.stdout)
    assert set(seen) == set(listed()), done.stdout
    assert seen["bench_rules.py"] == "BROKEN" and "no rule fired" in done.stdout
    assert seen["bench_startup.py"] == "BROKEN" and "still running after 3 s" in done.stdout
    assert seen["bench_state.py"] == "BROKEN" and "wrote the default state directory" in done.stdout
    assert seen["bench_llm_real.py"] == "skipped" and "(no model server here)" in done.stdout
    assert seen["bench_listen.py"] == "ok" and "(shell wrapper: skipped: curl is not installed)" in done.stdout
    assert seen["compare_runs.py"] == "ok" and seen["bench_engine_town.py"] == "ok"
    assert "wrote into the repository: benchmarks/results/bench_day.json" in done.stdout
    ok = [name for name, status in seen.items() if status == "ok"]
    assert len(ok) == len(seen) - 4, seen  # the stubs that only exit 0 are ok: each was given --smoke
    assert done.stdout.splitlines()[-1].endswith(f"{len(ok)} ok, 1 skipped, 3 broken")


def test_only_the_named_scripts_run(tmp_path: Path) -> None:
    runner = stub_checkout(tmp_path)
    done = run(runner, "bench_rules.py", "bench_growth.py")
    assert done.returncode == 1
    assert statuses(done.stdout) == {"bench_rules.py": "BROKEN", "bench_growth.py": "ok"}
    assert run(runner, "bench_growth.py").returncode == 0
    unknown = run(runner, "bench_nothing.py")
    assert unknown.returncode == 2 and "not a listed script: bench_nothing.py" in unknown.stderr
