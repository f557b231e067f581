"""The app in a real X11 window (Xvfb and Qt's xcb plugin), driven through the X server.

The rest of the suite runs Qt offscreen, where every window is "active", focus
is whatever the test sets and fonts come from Qt's own fallbacks.  Here
``bridgeview FILE`` runs as a user starts it, in its own process on an Xvfb
display: the file named on the command line opens, keys typed through XTEST
(``xdotool``) move the board list and step the replay only where Qt's real
focus puts them, and the screen is grabbed from the X server.  Skipped when
Xvfb, xdotool or the X11 libraries Qt's xcb plugin needs are missing
(``.ci/run`` installs them where it can: ``apt-get install xvfb xdotool libxcb-…``).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

DRIVER = Path(__file__).resolve().parent / "real_window_app.py"


def _child_env(display: str, tmp: Path) -> dict[str, str]:
    env = dict(os.environ, DISPLAY=display, QT_QPA_PLATFORM="xcb", XDG_CONFIG_HOME=str(tmp / "config"))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    env.pop("WAYLAND_DISPLAY", None)
    return env


@contextlib.contextmanager
def _xvfb(screen: str, tmp: Path):
    """A private Xvfb server with one screen of ``screen`` (``WxHxD``); yields its display name, e.g. ``:7``."""
    for tool in ("Xvfb", "xdotool"):
        if not shutil.which(tool):
            pytest.skip(f"{tool} is not installed (apt-get install xvfb xdotool)")
    read, write = os.pipe()
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", screen, "-nolisten", "tcp", "-noreset"],
        pass_fds=(write,),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    try:
        with os.fdopen(read) as pipe:
            number = pipe.readline().strip()
        if not number:
            pytest.skip("Xvfb did not start")
        name = f":{number}"
        probe = subprocess.run(
            [
                sys.executable,
                "-c",
                "from PySide6.QtGui import QGuiApplication; print(QGuiApplication([]).platformName())",
            ],
            env=_child_env(name, tmp),
            capture_output=True,
            text=True,
            timeout=60,
        )
        if probe.stdout.strip() != "xcb":
            pytest.skip(
                "Qt's xcb platform plugin cannot start (missing X11 libraries?): "
                + (probe.stderr.strip().splitlines() or ["no output"])[0]
            )
        yield name
    finally:
        server.terminate()
        server.wait(timeout=10)


def _session(display: str, tmp: Path) -> tuple[dict, Path]:
    """One run of the app on a copy of the sample, as a user's file: what happened, and the screenshot."""
    deals = tmp / "club night.pbn"
    shutil.copyfile(REPO / "resources" / "sample.pbn", deals)
    out, shot = tmp / "report.json", tmp / "screen.png"
    proc = subprocess.run(
        [sys.executable, str(DRIVER), str(out), str(shot), str(deals)],
        env=_child_env(display, tmp),
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert proc.returncode == 0 and out.exists(), proc.stdout + proc.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in report, report
    return report, shot


@pytest.fixture(scope="module")
def session(tmp_path_factory) -> tuple[dict, Path]:
    tmp = tmp_path_factory.mktemp("real-window")
    with _xvfb("1280x1024x24", tmp) as display:
        yield _session(display, tmp)


def test_file_from_the_command_line_opens_in_a_focused_window(session):
    report, _ = session
    assert report["platform"] == "xcb"
    assert report["title"].startswith("club night.pbn")
    assert report["active"]
    assert report["focus_start"] == "HandDiagram"  # the diagram: the step keys work at once
    assert report["board_start"] == 0
    assert report["exit"] == 0


def test_window_fits_the_screen_and_uses_the_bundled_font(session):
    report, _ = session
    x, y, w, h = report["window"]
    sx, sy, sw, sh = report["screen"]
    assert sx <= x and sy <= y and x + w <= sx + sw and y + h <= sy + sh, (report["window"], report["screen"])
    assert w >= 800 and h >= 600
    assert report["font"] == "DejaVu Sans"
    assert not [m for m in report["messages"] if "Cannot open" in m or "QFont" in m], report["messages"]


def test_real_keys_move_the_board_list_and_step_the_replay(session):
    report, _ = session
    assert report["board_after_down"] == 1
    assert report["focus_after_click"] == "HandDiagram"
    assert report["expected_step"] > 3
    assert report["step"] == report["expected_step"], report["replay_label"]
    assert f"({report['step']}/" in report["replay_label"]


def test_screenshot_from_the_x_server_shows_the_window(session):
    from PySide6.QtGui import QImage

    report, shot = session
    assert report["shot_saved"] and report["shot_size"] == [1280, 1024]
    image = QImage(str(shot)).convertToFormat(QImage.Format.Format_RGB32)
    w, h = image.width(), image.height()
    px = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes()).reshape(h, w, 4)
    b, g, r = (px[:, :, i].astype(int) for i in range(3))
    felt = (g > 90) & (g > r + 30) & (g > b + 20)  # the diagram's green baize
    red = (r > 150) & (g < 80) & (b < 80)  # hearts and diamonds
    assert felt.mean() > 0.15, felt.mean()
    assert red.sum() > 200
    assert len(np.unique(px.reshape(-1, 4)[:, :3], axis=0)) > 50  # text, cards and widgets, not a blank screen


def test_window_fits_a_small_screen(tmp_path):
    """On a netbook's 1024x600 screen the first window is made smaller, so the replay and status bars show."""
    with _xvfb("1024x600x24", tmp_path) as display:
        report, _ = _session(display, tmp_path)
    x, y, w, h = report["window"]
    sx, sy, sw, sh = report["screen"]
    assert (sw, sh) == (1024, 600)
    assert sx <= x and sy <= y and x + w <= sx + sw and y + h <= sy + sh, (report["window"], report["screen"])
    assert report["step"] == report["expected_step"]  # and it still works there
