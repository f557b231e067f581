"""The code base stays ruff-clean and ruff-formatted (ruff is a test dependency)."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest
from conftest import REPO


def test_ruff_clean():
    ruff = shutil.which("ruff")
    cmd = [ruff] if ruff else [sys.executable, "-m", "ruff"]
    try:
        proc = subprocess.run([*cmd, "check", "bridgeview", "tests", "bench"], cwd=REPO, capture_output=True, text=True)
    except FileNotFoundError:
        pytest.skip("ruff is not installed")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_formatted():
    """``ruff format`` was applied once to the whole tree; new code keeps its layout (run it before committing)."""
    ruff = shutil.which("ruff")
    cmd = [ruff] if ruff else [sys.executable, "-m", "ruff"]
    try:
        proc = subprocess.run(
            [*cmd, "format", "--check", "bridgeview", "tests", "bench"], cwd=REPO, capture_output=True, text=True
        )
    except FileNotFoundError:
        pytest.skip("ruff is not installed")
    assert proc.returncode == 0, "run `ruff format bridgeview tests bench`:\n" + proc.stdout + proc.stderr
