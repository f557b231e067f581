"""Driver for tests/test_real_window.py: run ``bridgeview FILE`` in a real X11 window and act as a user.

Run as ``python tests/real_window_app.py OUT.json SHOT.png FILE`` with ``DISPLAY`` set and
``QT_QPA_PLATFORM=xcb``.  The app starts through the ``bridgeview`` command's own ``main``
(the file opened by its command-line argument); once the X server has mapped and
focused the window, keys and a mouse click go in through the X server with
``xdotool`` (XTEST), exactly as typed, so Qt's focus, active-window and shortcut
handling decide where they land.  The screen is grabbed from the X server, and
what happened is written to OUT.json for the test to judge.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from PySide6.QtCore import QTimer, qInstallMessageHandler
from PySide6.QtGui import QFontInfo, QGuiApplication
from PySide6.QtWidgets import QApplication

from bridgeview.cli.main import main
from bridgeview.ui.app import application

OUT, SHOT, FILE = sys.argv[1:4]
START = time.monotonic()
messages: list[str] = []
report: dict = {"messages": messages}


def _xdotool(*args: str) -> None:
    subprocess.run(["xdotool", *args], check=True, timeout=20)


def _settle(ms: int = 300) -> None:
    """Let X deliver what xdotool sent and Qt process it."""
    end = time.monotonic() + ms / 1000
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)


def _window():
    return next((w for w in QApplication.topLevelWidgets() if w.inherits("QMainWindow") and w.isVisible()), None)


def _scenario() -> None:
    try:
        _steps()
    except Exception as e:  # reported to the test (the app's own excepthook would open a dialog)
        report["error"] = repr(e)
    QApplication.instance().quit()


def _steps() -> None:
    app = QApplication.instance()
    win = _window()
    view = win.current_view()
    report.update(
        platform=app.platformName(),
        shown_after=round(time.monotonic() - START, 3),
        title=win.windowTitle(),
        active=win.isActiveWindow(),
        window=list(win.frameGeometry().getRect()),
        screen=list(win.screen().availableGeometry().getRect()),
        focus_start=type(app.focusWidget()).__name__ if app.focusWidget() else None,
        font=QFontInfo(view.diagram.font()).family(),
        board_start=view.current_index(),
    )
    # the diagram has the focus at start (arrows step the play); Ctrl+Down goes to the next board
    _xdotool("key", "ctrl+Down")
    _settle()
    report["board_after_down"] = view.current_index()
    # a click on the felt gives the diagram the focus; Right x3 then Down step the play
    corner = view.diagram.mapToGlobal(view.diagram.rect().bottomLeft()) * view.diagram.devicePixelRatioF()
    _xdotool("mousemove", str(corner.x() + 12), str(corner.y() - 12), "click", "1")
    _settle()
    report["focus_after_click"] = type(app.focusWidget()).__name__ if app.focusWidget() else None
    state = view.replay.state
    expected = 0
    for _ in range(3):
        expected = state.next_card(expected)
    expected = state.next_trick(expected)
    _xdotool("key", "Right", "Right", "Right", "Down")
    _settle(500)
    report.update(step=view.replay.step, expected_step=expected, replay_label=view.replay.bar.label_text())
    shot = QGuiApplication.primaryScreen().grabWindow(0)
    report["shot_saved"] = shot.save(SHOT)
    report["shot_size"] = [shot.width(), shot.height()]


def _wait_for_window(focused: list[bool] = []) -> None:  # noqa: B006 - remembers the one focus request
    """Poll until the window is mapped, exposed and focused (or give up after 15 s).

    Xvfb runs no window manager, and without one nobody gives a new window the
    keyboard focus; ``xdotool windowfocus`` does what the window manager of a
    desktop does when it maps the window (XSetInputFocus)."""
    win = _window()
    handle = win.windowHandle() if win is not None else None
    exposed = handle is not None and handle.isExposed()
    if exposed and not focused:
        focused.append(True)
        _xdotool("windowfocus", "--sync", str(int(win.winId())))
    if exposed and win.isActiveWindow() and win.current_view() is not None:
        QTimer.singleShot(200, _scenario)  # let the first paint finish
    elif time.monotonic() - START > 15:
        report["error"] = "the window was not shown and focused within 15 s"
        QApplication.instance().quit()
    else:
        QTimer.singleShot(50, _wait_for_window)


def _run() -> int:
    qInstallMessageHandler(lambda _kind, _ctx, text: messages.append(text))
    application([sys.argv[0]])
    QTimer.singleShot(0, _wait_for_window)
    code = 1
    try:
        code = main([FILE])
    except Exception as e:  # reported to the test, which shows it
        report["error"] = repr(e)
    report["exit"] = code
    Path(OUT).write_text(json.dumps(report), encoding="utf-8")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("QT_QPA_PLATFORM", "xcb")
    raise SystemExit(_run())
