"""The pre-commit hook runs the ruff the suite runs (pinned in the test extra), so a commit it lets through
also passes tests/test_lint.py."""

from __future__ import annotations

import importlib.metadata
import re

import pytest
from conftest import REPO


def test_pre_commit_runs_ruff_check_pinned_to_the_installed_ruff():
    config = (REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    assert "repo: https://github.com/astral-sh/ruff-pre-commit" in config
    assert re.search(r"^\s*- id: ruff-check\s*$", config, re.M)
    try:
        installed = importlib.metadata.version("ruff")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("ruff is not installed as a package")
    pinned = re.search(r"^\s*rev: v?(\S+)\s*$", config, re.M)
    assert pinned and pinned.group(1) == installed, f"pin the hook to ruff {installed}"


def test_the_hook_and_the_test_extra_pin_the_same_ruff():
    project = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    config = (REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    extra = re.search(r'"ruff==([0-9.]+)"', project)
    pinned = re.search(r"^\s*rev: v?(\S+)\s*$", config, re.M)
    assert extra and pinned and extra.group(1) == pinned.group(1)


def test_pre_commit_runs_the_pinned_mypy_on_the_package():
    config = (REPO / ".pre-commit-config.yaml").read_text(encoding="utf-8")
    hook = config[config.index("- id: mypy") :]
    assert re.search(r"^\s*entry: python -m mypy\s*$", hook, re.M)  # the environment's mypy: the test extra's
    assert re.search(r"^\s*pass_filenames: false\b", hook, re.M)  # the whole package, as tests/test_types.py
    project = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    extra = re.search(r'"mypy==([0-9.]+)"', project)
    assert extra
    try:
        installed = importlib.metadata.version("mypy")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("mypy is not installed as a package")
    assert installed == extra.group(1), f"install mypy {extra.group(1)} (pip install -e '.[test]')"
