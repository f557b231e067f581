"""A user's install: build the sdist and wheel, install the wheel into a fresh venv, and run the app from there.

Marked ``packaging``: ``python -m build`` fetches setuptools into its isolated
build environments, so offline runs skip it with ``-m "not packaging"``; CI
runs it.  The wheel is installed with ``--no-deps`` and PySide6, numpy and
endplay come from the environment the suite runs in instead of a ~200 MB
download per run: the venv is a plain one whose ``.pth`` file lists that
environment's site-packages folders.  (``--system-site-packages`` would not do:
it exposes the *base* interpreter's packages, which in a venv -- a newcomer's
usual set-up -- lack the dependencies.)  Folders named in a ``.pth`` file are
only appended to ``sys.path``, their own ``.pth`` files are not run, so an
editable install of bridgeview there stays inactive and the venv's copy comes
first: bridgeview itself (code *and* data) must come from the wheel -- the
probes check that it is imported from the venv, not from the checkout or an
editable install.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = [pytest.mark.packaging, pytest.mark.slow]

RESOURCE_FILES = sorted(
    p.relative_to(REPO / "resources").as_posix()
    for p in (REPO / "resources").rglob("*")
    if p.is_file() and "__pycache__" not in p.parts
)
_COPY_IGNORE = shutil.ignore_patterns(
    ".git",
    "__pycache__",
    "*.egg-info",
    "build",
    "dist",
    ".hypothesis",
    ".pytest_cache",
    ".ruff_cache",
    "*.png.part",
    "bench",
)


def _env(cwd: Path) -> dict[str, str]:
    """A user's shell: no PYTHONPATH pointing at a checkout, Qt offscreen, settings kept out of the real home."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env.update(QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(cwd / "config"))
    return env


def _run(args: list[str], cwd: Path, timeout: int = 600) -> subprocess.CompletedProcess:
    proc = subprocess.run(args, cwd=cwd, env=_env(cwd), capture_output=True, text=True, timeout=timeout)
    assert proc.returncode == 0, f"{' '.join(map(str, args))} failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    return proc


def _suite_site_packages() -> list[str]:
    """The site-packages folders of the interpreter running the suite (a venv's own, and the base's when it
    has ``--system-site-packages``; the user's when enabled): where the test extra put the dependencies."""
    folders = list(site.getsitepackages())
    if site.ENABLE_USER_SITE:
        folders.append(site.getusersitepackages())
    return [d for d in dict.fromkeys(folders) if Path(d).is_dir()]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Path]:
    """sdist and wheel (the wheel built *from the sdist*, as ``python -m build`` does), from a copy of the checkout."""
    pytest.importorskip("build", reason="python -m build is needed: pip install -e '.[test]'")
    root = tmp_path_factory.mktemp("wheel")
    src = root / "src"
    shutil.copytree(REPO, src, ignore=_COPY_IGNORE)
    _run([sys.executable, "-m", "build", "--outdir", str(root / "dist"), str(src)], cwd=root)
    wheels = list((root / "dist").glob("bridgeview-*.whl"))
    sdists = list((root / "dist").glob("bridgeview-*.tar.gz"))
    assert len(wheels) == 1 and len(sdists) == 1
    return {"root": root, "wheel": wheels[0], "sdist": sdists[0]}


@pytest.fixture(scope="module")
def venv(built) -> Path:
    """A fresh venv with the wheel installed; returns its bin folder."""
    home = built["root"] / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(home)], cwd=built["root"])
    python = home / "bin" / "python"
    venv_site = Path(
        _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], cwd=built["root"]
        ).stdout.strip()
    )
    (venv_site / "_suite_packages.pth").write_text("".join(f"{d}\n" for d in _suite_site_packages()))
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-index",
            "--force-reinstall",
            str(built["wheel"]),
        ],
        cwd=built["root"],
    )
    return home / "bin"


def test_wheel_carries_the_resources(built):
    with zipfile.ZipFile(built["wheel"]) as whl:
        names = set(whl.namelist())
        data = sorted(n.removeprefix("bridgeview/data/") for n in names if n.startswith("bridgeview/data/"))
        assert data == RESOURCE_FILES
        assert whl.read("bridgeview/data/sample.pbn") == (REPO / "resources" / "sample.pbn").read_bytes()
        entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
        assert "bridgeview = bridgeview.__main__:main" in whl.read(entry_points).decode()
    assert not any(n.startswith(("resources/", "tests/")) for n in names)  # nothing outside the package


def test_sdist_holds_what_the_wheel_build_needs(built):
    with tarfile.open(built["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"pyproject.toml", "setup.py", "README.md", "bridgeview/__init__.py"} <= names
    assert {f"resources/{f}" for f in RESOURCE_FILES} <= names


def test_installed_command_runs_from_the_venv(venv, built):
    work = built["root"]
    version = _run([str(venv / "bridgeview"), "--version"], cwd=work)
    assert version.stdout.strip() == "bridgeview 0.1.0"
    where = _run(
        [
            str(venv / "python"),
            "-c",
            "import json, bridgeview, bridgeview.resources as r; "
            "print(json.dumps([bridgeview.__file__, str(r.resource('sample.pbn'))]))",
        ],
        cwd=work,
    )
    module, sample = json.loads(where.stdout)
    site = venv.parent / "lib"
    assert Path(module).is_relative_to(site) and Path(sample).is_relative_to(site), (module, sample)
    info = _run([str(venv / "bridgeview"), "info", sample], cwd=work)
    assert "boards:        16" in info.stdout and "pbn (PBN" in info.stdout


def test_installed_app_renders_with_its_icon_and_fonts(venv, built):
    work = built["root"]
    sample = Path(
        _run(
            [str(venv / "python"), "-c", "from bridgeview.resources import resource; print(resource('sample.pbn'))"],
            cwd=work,
        ).stdout.strip()
    )
    out = work / "window.png"
    render = _run(
        [str(venv / "bridgeview"), "render", str(sample), "--board", "3", "--window", "-o", str(out)], cwd=work
    )
    assert "Cannot open" not in render.stderr, render.stderr
    assert out.stat().st_size > 20_000
    # the GUI as `bridgeview` starts it: the sample in a tab, the icon and DejaVu loaded, no Qt warnings
    probe = (
        "import json, sys\n"
        "from PySide6.QtCore import QTimer, qInstallMessageHandler\n"
        "from PySide6.QtGui import QFontDatabase\n"
        "from PySide6.QtWidgets import QApplication\n"
        "messages = []\n"
        "qInstallMessageHandler(lambda kind, ctx, text: messages.append(text))\n"
        "from bridgeview.ui import app as gui\n"
        "def report():\n"
        "    a = QApplication.instance()\n"
        "    win = next(w for w in a.topLevelWidgets() if w.inherits('QMainWindow'))\n"
        "    print(json.dumps({'title': win.windowTitle(), 'icon': not a.windowIcon().isNull(),\n"
        "                      'fonts': QFontDatabase.families(), 'messages': messages}))\n"
        "    a.quit()\n"
        "QTimer.singleShot(0, report)\n"
        "sys.exit(gui.run_gui([]))\n"
    )
    shown = _run([str(venv / "python"), "-c", probe], cwd=work)
    report = json.loads(shown.stdout.strip().splitlines()[-1])
    assert report["title"].startswith("sample.pbn"), report["title"]
    assert report["icon"]
    assert "DejaVu Sans" in report["fonts"]
    warnings = [m for m in report["messages"] if "propagateSizeHints" not in m]
    assert not warnings, warnings
    assert "Cannot open" not in shown.stderr, shown.stderr
