"""A steady layout: nothing moves while the file is solved; 800x600 and 1366x768 windows stay usable."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication
from test_ui_support import main_window, make_file


def geometry(view) -> dict[str, object]:
    """Where the panes sit in the window (what a user would see move)."""
    QApplication.processEvents()
    bar = view.replay.bar
    top = view.window()

    def box(w):
        return (w.mapTo(top, QPoint(0, 0)).x(), w.mapTo(top, QPoint(0, 0)).y(), w.width(), w.height())

    return {
        "splitter": view.splitter.sizes(),
        "diagram": box(view.diagram),
        "slider": box(bar.slider),
        "grid": box(view.dd_grid),
        "tabs": box(view.side_tabs),
    }


def test_layout_does_not_move_while_the_file_is_solved(qtbot, tmp_path, monkeypatch):
    from bridgeview.ui import solver as solver_module

    monkeypatch.setattr(solver_module, "AUTO_DELAY_MS", 100_000)  # started by hand below
    path, _ = make_file(tmp_path, "pbn", n=12)
    w = main_window(qtbot, tmp_path)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_file(str(path))
    view = w.current_view()
    qtbot.waitUntil(lambda: not view.solver.bar.is_running())
    before = geometry(view)
    assert before["slider"][2] > 100  # a real slider, not a stray box
    view.solver.solve_all()
    assert view.solver.bar.is_running()
    assert geometry(view) == before
    qtbot.waitUntil(lambda: not view.solver.bar.is_running(), timeout=60_000)
    assert all(b.dd is not None for b in view.boards)
    assert geometry(view) == before
