"""The suite never touches the user's real home, data directory or state (conftest's `private_home`)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_home_data_dir_and_state_dir_point_into_the_sessions_temporary_directory(private_home: Path):
    from karakuri_agent.app.config import default_state_dir, load_settings

    assert Path(os.environ["HOME"]) == private_home
    assert default_state_dir().is_relative_to(private_home)
    settings = load_settings({"KARAKURI_STATE_DIR": os.environ["KARAKURI_STATE_DIR"]}, require_api=False)
    assert settings.state_dir.is_relative_to(private_home)


def test_a_process_a_test_starts_without_a_state_dir_of_its_own_uses_the_private_home(private_home: Path, tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "KARAKURI_STATE_DIR"}
    code = "from karakuri_agent.app.config import default_state_dir; print(default_state_dir())"
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, capture_output=True, text=True,
                         check=True).stdout.strip()
    assert Path(out).is_relative_to(private_home)
