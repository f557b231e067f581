"""The test command a newcomer reads is the one CI runs, and it runs the suite in parallel with every test."""

from __future__ import annotations

import re
import tomllib

from conftest import REPO

README_COMMAND = "python3 -m pip install -e '.[test]' && python3 -m pytest"


def _pytest_config() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]


def test_ci_runs_the_readme_command_verbatim():
    assert README_COMMAND in (REPO / "README.md").read_text(encoding="utf-8")
    assert README_COMMAND in (REPO / "CONTRIBUTING.md").read_text(encoding="utf-8")
    last = (REPO / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()[-1]
    assert last == README_COMMAND.replace("pip install -e", "pip install -q -e")  # quiet, else the same


def test_plain_pytest_runs_in_parallel_and_deselects_nothing():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(re.match(r"pytest-xdist\b", dep) for dep in project["optional-dependencies"]["test"])
    addopts = _pytest_config()["addopts"]
    assert addopts[addopts.index("-n") + 1] in ("auto", "logical")
    assert "--strict-markers" in addopts  # a misspelt @pytest.mark.slow is an error, not a test that always runs
    # whole files to a worker; a crashed worker ends the run (restarted, it would leave the run waiting)
    assert addopts[addopts.index("--dist") + 1] == "loadfile"
    assert addopts[addopts.index("--max-worker-restart") + 1] == "0"
    assert not any(opt in ("-m", "-k") or opt.startswith(("-m=", "-k=", "--deselect", "--ignore")) for opt in addopts)


def test_the_slow_marker_is_registered_and_says_how_to_leave_it_out():
    slow = [m for m in _pytest_config()["markers"] if m.startswith("slow:")]
    assert len(slow) == 1 and "not slow" in slow[0]
