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


#: names vulture cannot see used: Qt calls the overrides (``paintEvent``, ``eventFilter``, a command's
#: ``redo``, a model's drag-and-drop answers), the package's lazy ``__getattr__``, a field of DDS's ctypes
#: structure, and references kept so Qt's objects live as long as Qt uses them (a preview's printer, the
#: window's step keys) or a Protocol's parameter, a module's ``__loader__``, which Python's import system reads, and
#: the overrides argparse calls
VULTURE_KNOWN = (
    "*Event,eventFilter,redo,mimeTypes,supportedDropActions,__getattr__,noOfTables,page_printer,step_keys,docks,"
    "__loader__,"
    "print_help,print_usage"  # (argparse calls them: cli/main.py's parser writes its help as any output)
)


def test_no_dead_code():
    """vulture finds no function, class, attribute or variable of the package that nothing uses (the tests
    and benchmarks count as users): dead code is removed, not kept "in case" (#27)."""
    pytest.importorskip("vulture")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "vulture",
            "bridgeview",
            "tests",
            "bench",
            "--min-confidence",
            "60",
            "--ignore-names",
            VULTURE_KNOWN,
            "--ignore-decorators",
            "@atexit.register",
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    dead = [line for line in proc.stdout.splitlines() if line.startswith("bridgeview")]
    assert not dead, "unused code (remove it, or say in VULTURE_KNOWN why Qt or ctypes uses it):\n" + "\n".join(dead)
