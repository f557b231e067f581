"""Starting the GUI: fonts, the sample board set, the crash dialog, the background checksum."""

from __future__ import annotations

import sys

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QApplication
from test_ui_support import main_window, make_file

from bridgeview.ui import app as app_module
from bridgeview.ui import dialogs
from bridgeview.ui.boardset import details
from bridgeview.ui.mainwindow import open_filter, sample_path


def test_application_loads_fonts_and_names(qapp):
    a = app_module.application()
    assert a is qapp
    assert "DejaVu Sans" in QFontDatabase.families()
    assert a.font().family() == "DejaVu Sans"
    assert a.organizationName() == "bridgeview" and a.applicationName() == "bridgeview"


def test_run_gui_opens_sample_without_files(qapp, monkeypatch, tmp_path):
    from PySide6.QtCore import QSettings

    import bridgeview.ui.mainwindow as mw

    windows = []
    real = mw.MainWindow

    def make(*a, **k):
        w = real(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
        windows.append(w)
        return w

    monkeypatch.setattr(mw, "MainWindow", make)
    monkeypatch.setattr(QApplication, "exec", lambda self=None: 0)
    hook = sys.excepthook
    try:
        assert app_module.run_gui([]) == 0
        assert sys.excepthook is app_module.excepthook
    finally:
        sys.excepthook = hook
    w = windows[0]
    view = w.current_view()
    assert view.path == str(sample_path()) and len(view.boards) == 16
    vm = view.diagram.view_model()
    assert vm["board"] == 1 and vm["contract"] is not None
    assert view.dd_grid.table() is not None and view.dd_grid.table().is_complete
    assert w.recent_files() == []  # the sample is not a "recent file"
    w.close()


def test_sample_boards_are_realistic():
    from bridgeview.check.validate import validate
    from bridgeview.formats.registry import read_file

    doc = read_file(sample_path())
    assert [b.number for b in doc] == list(range(1, 17))
    assert not validate(doc)
    assert all(b.deal.is_complete and b.dd is not None and b.dd.is_complete for b in doc)
    assert all(b.auction and b.contract is not None and b.result is not None for b in doc)
    played = [b for b in doc if b.play]
    assert any(len(b.play) == 52 for b in played) and any(b.claim is not None or len(b.play) < 52 for b in played)


def test_excepthook_shows_a_dialog(qapp, monkeypatch, capsys):
    seen = []
    monkeypatch.setattr(dialogs, "message", lambda kind, parent, title, text, *a, **k: seen.append((kind, text)))
    try:
        raise RuntimeError("kaboom")
    except RuntimeError:
        app_module.excepthook(*sys.exc_info())
    assert seen and seen[0][0] == "error" and "kaboom" in seen[0][1]
    assert "Traceback" in capsys.readouterr().err


def test_excepthook_takes_ctrl_c_as_the_close_buttons(qtbot, tmp_path, capsys, messages):
    """A KeyboardInterrupt that reaches the crash hook (Ctrl+C where the window's own handling is not installed)
    closes the windows as their close buttons do, without a traceback (it printed one and quit)."""
    w = main_window(qtbot, tmp_path)
    w.show()
    try:
        raise KeyboardInterrupt
    except KeyboardInterrupt:
        app_module.excepthook(*sys.exc_info())
    assert not w.isVisible()
    assert capsys.readouterr().err == ""


def test_open_filter_lists_formats():
    text = open_filter()
    parts = text.split(";;")
    assert parts[0].startswith("All supported files") and parts[-1] == "All files (*)"
    assert any("*.deals" in p for p in parts[1:-1])


def test_checksum_in_background(qtbot, tmp_path, monkeypatch):
    monkeypatch.setattr(details, "SYNC_CHECKSUM_BYTES", 0)
    path, _ = make_file(tmp_path, "deals", n=5)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    view = w.current_view()
    from bridgeview.formats.checksum import pavlicek_checksum

    want = f"{pavlicek_checksum(path):X}"
    qtbot.waitUntil(lambda: dict(view.details.file_rows()).get("checksum") == want, timeout=5000)


def test_none_survives_many_void_qt_calls(qapp):
    """PySide6 6.12 on CPython 3.11 drops a reference to None per void call; the ui package guards it."""
    import PySide6
    from PySide6.QtCore import QObject

    import bridgeview.ui as ui

    obj = QObject()
    before = sys.getrefcount(None)
    for _ in range(30_000):
        obj.setObjectName("x")  # a void method
    after = sys.getrefcount(None)
    affected = sys.version_info < (3, 12) and tuple(PySide6.__version_info__[:2]) >= (6, 12)
    if affected and sys.implementation.name == "cpython":
        assert sys.getrefcount(None) > ui.NONE_REFERENCE_RESERVE // 2
        assert sys.getrefcount(True) > ui.NONE_REFERENCE_RESERVE // 2
    elif sys.version_info < (3, 12):
        assert after >= before - 100  # no steady leak on the releases pyproject allows
