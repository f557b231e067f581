"""The test command a newcomer reads is the one CI runs, and it runs the suite in parallel with every test."""

from __future__ import annotations

import os
import re
import subprocess
import sys
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


#: a fresh process: a thread imports solve.timed (as a window's solver thread on its first deal), held inside the
#: module's body - in sys.modules, half made - until the waiting is done or half a second has passed; meanwhile
#: the suite's end-of-test wait for the shared DDS process runs
_HALF_IMPORTED_TIMED = """
import importlib, importlib.abc, importlib.machinery, sys, threading

import conftest

NAME = "bridgeview.solve.timed"
started, done = threading.Event(), threading.Event()


class Held(importlib.abc.Loader):
    def __init__(self, real):
        self.real = real

    def create_module(self, spec):
        return self.real.create_module(spec)

    def exec_module(self, module):
        started.set()
        done.wait(0.5)
        self.real.exec_module(module)


class Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != NAME:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        spec.loader = Held(spec.loader)
        return spec


sys.meta_path.insert(0, Finder())
errors = []
threading.excepthook = lambda hook: errors.append(f"{hook.thread.name}: {hook.exc_type.__name__}: {hook.exc_value}")
solver = threading.Thread(target=importlib.import_module, args=(NAME,))
solver.start()
started.wait()
conftest.wait_for_the_shared_dds_process()
done.set()
solver.join()
print(errors or "clean")
"""


def test_the_end_of_test_wait_waits_for_a_solver_thread_importing_timed():
    """A test that closes its window while the window's solver thread imports ``solve.timed`` (its first deal)
    ends without an error in the suite's wait for the shared DDS process: the wait gets the whole module, not
    the half made one ``sys.modules`` holds meanwhile (the waiting thread died with "AttributeError: partially
    initialized module 'bridgeview.solve.timed' has no attribute 'shared_process'": once in about 20 runs of
    a window test)."""
    path = os.pathsep.join(filter(None, [str(REPO), str(REPO / "tests"), os.environ.get("PYTHONPATH")]))
    run = subprocess.run(
        [sys.executable, "-c", _HALF_IMPORTED_TIMED],
        env=dict(os.environ, PYTHONPATH=path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "clean", run.stdout
