"""Test set-up: offscreen Qt, and paths to the shared real files (skipped when absent)."""

from __future__ import annotations

import atexit
import importlib
import os
import shutil
import sys
import tempfile
import threading
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Keep the tests' QSettings (recent files, window state, replay options) away from the user's own.
_CONFIG = tempfile.mkdtemp(prefix="bridgeview-test-config-")
os.environ["XDG_CONFIG_HOME"] = _CONFIG
atexit.register(shutil.rmtree, _CONFIG, ignore_errors=True)

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
REALDATA = SHARED / "realdata"
SPECS = SHARED / "specs"


@pytest.fixture(autouse=True)
def _no_dds_left_running():
    """A test ends when the DDS request it started ends.  Closing a window does not wait for the batch
    its solver thread has in the shared DDS process (the app stays responsive), so without this the batch
    would go on into the next tests: their time, and their wait for the shared process, would depend on
    which test ran before them on the same worker.  (Set up before ``qtbot``, so this waits after the
    test's windows are closed.)"""
    yield
    wait_for_the_shared_dds_process()


def wait_for_the_shared_dds_process() -> None:
    """Wait (60 s at most) until no thread holds the shared DDS process; at once where nothing imported
    ``solve.timed`` (nothing solved).

    The module is imported here, not read from ``sys.modules``: a window's solver thread imports it on its
    first deal, and ``sys.modules`` holds it from the start of that import, half made (no ``shared_process``
    yet: a test that closed its window then had "AttributeError: partially initialized module" in the
    waiting thread, a PytestUnhandledThreadExceptionWarning).  An import waits for another thread's to end;
    this thread holds no import lock here, so CPython cannot take the wait for a deadlock and hand the half
    made module out instead."""
    if "bridgeview.solve.timed" not in sys.modules:
        return
    timed = importlib.import_module("bridgeview.solve.timed")

    def wait_for_the_shared_process() -> None:
        with timed.shared_process():
            pass

    waiter = threading.Thread(target=wait_for_the_shared_process, name="test-dds-wait", daemon=True)
    waiter.start()
    waiter.join(60)  # a batch is given DD_TIMEOUT (20 s), then each deal of it; a test that set more waits less


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under pytest-xdist, the files that hold a test marked ``slow`` go first (each file whole, its tests in
    their order; xdist hands out whole files, see pyproject.toml): the workers then end on short files,
    together, instead of one waiting for the other's long file at the end.  Every worker collects the same
    order, as xdist requires; a run in one process keeps the usual order."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        slow_files = {item.path for item in items if item.get_closest_marker("slow") is not None}
        items.sort(key=lambda item: item.path not in slow_files)


@pytest.fixture
def realdata() -> Path:
    """The shared real-world files; the test is skipped when ../shared is absent."""
    if not REALDATA.is_dir():
        pytest.skip("../shared/realdata is not present")
    return REALDATA


def realdata_files(sub: str, pattern: str = "*") -> list[Path]:
    """Real files for parametrisation (an empty list when ../shared is absent)."""
    d = REALDATA / sub
    return sorted(d.glob(pattern)) if d.is_dir() else []


class Messages:
    """Stands in for ``bridgeview.ui.dialogs.message``: records calls, answers with ``answer``."""

    def __init__(self, answer=None) -> None:
        from bridgeview.ui import dialogs

        self.calls: list[tuple[str, str, str]] = []
        self.answer = dialogs.Button.Ok if answer is None else answer

    def __call__(self, kind, parent, title, text, *rest, **kw):
        self.calls.append((kind, title, text))
        return self.answer


@pytest.fixture
def messages(monkeypatch) -> Messages:
    """Message boxes recorded instead of shown (they would block an offscreen test)."""
    from bridgeview.ui import dialogs

    m = Messages()
    monkeypatch.setattr(dialogs, "message", m)
    return m


@pytest.fixture(autouse=True)
def _message_boxes_never_block(request, monkeypatch):
    """Outside tests that use ``messages``, a message box answers at once instead of waiting offscreen
    for a click that never comes (a window closed at teardown with a modified document asks to save:
    the answer is Discard, else No or Cancel, else the default button)."""
    if "messages" in request.fixturenames or request.node.get_closest_marker("real_message_box"):
        yield
        return
    from bridgeview.ui import dialogs

    Button = dialogs.Button

    def answer(kind, parent, title, text, buttons=Button.Ok, default=Button.NoButton, *rest, **kw):
        for choice in (Button.Discard, Button.No, Button.Cancel):
            if buttons.value & choice.value:
                return choice
        return default if default != Button.NoButton else Button.Ok

    monkeypatch.setattr(dialogs, "message", answer)
    yield


#: a child process's script lines (under ``if how == "gui":``) that open ``path`` in a real main window, show its
#: first board and set ``view`` and ``doc`` (the tab's boards): the cut-short tests' window case
OPENED_IN_A_WINDOW = """    from PySide6.QtWidgets import QApplication
    from bridgeview.ui import dialogs
    from bridgeview.ui.mainwindow import MainWindow
    app = QApplication([])
    dialogs.message = lambda *a, **k: dialogs.Button.Ok
    w = MainWindow()
    w.resize(1200, 800)
    w.show()
    assert w.open_file(path)
    view = w.current_view()
    view.select_board(1)
    w.grab()
    doc = view.boards
"""
