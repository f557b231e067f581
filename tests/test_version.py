"""The version number is written once, in pyproject.toml; the package, --version and the About box read it."""

from __future__ import annotations

import importlib.metadata
import os
import subprocess
import sys
import tomllib

from conftest import REPO

import bridgeview


def _pyproject_version() -> str:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def test_the_package_version_is_pyprojects():
    assert bridgeview.__version__ == _pyproject_version()


def test_a_checkout_without_installed_metadata_reads_pyproject(monkeypatch):
    """A plain checkout on PYTHONPATH has no distribution metadata: the number then comes from pyproject.toml."""

    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    assert bridgeview._version() == _pyproject_version()


def test_installed_metadata_wins(monkeypatch):
    """An installed package reports its metadata's version, not a pyproject.toml it may not ship."""
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "9.8.7" if name == "bridgeview" else "")
    assert bridgeview._version() == "9.8.7"


def test_version_flag_prints_it():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run(
        [sys.executable, "-m", "bridgeview.cli.main", "--version"], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == f"bridgeview {_pyproject_version()}\n"
