"""A steady layout: nothing moves while the file is solved; 800x600 and 1366x768 windows stay usable."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication
from test_ui_support import main_window, make_file, run_queued_zero_timers


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
    from bridgeview.ui.analysis import solver as solver_module

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


def _visible_width(widget) -> int:
    """How much of ``widget`` the window shows (0 when hidden or clipped away)."""
    if not widget.isVisible():
        return 0
    top = widget.window()
    rect = widget.rect().translated(widget.mapTo(top, QPoint(0, 0)))
    return rect.intersected(top.rect()).width()


@pytest.mark.parametrize(("width", "height"), [(800, 600), (1366, 768)])
def test_small_windows_keep_every_panel_usable(qtbot, tmp_path, width, height):
    from bridgeview.ui.document.board_model import COL_BOARD, COL_CONTRACT, COL_HCP, COL_VUL

    path, _ = make_file(tmp_path, "pbn", n=40)
    w = main_window(qtbot, tmp_path)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_file(str(path))
    w.resize(width, height)
    qtbot.waitUntil(lambda: w.width() == width and w.height() == height)
    assert w.minimumSizeHint().width() <= 800 and w.minimumSizeHint().height() <= 600
    view = w.current_view()
    QApplication.processEvents()
    bar = view.replay.bar
    for pane, least in (
        (view.board_list, 150),
        (view.diagram, 200),
        (bar.slider, 80),
        (view.dd_grid, 150),
        (view.side_tabs, 150),
        (view.solver.bar.all, 40),
        (bar.grey, 40),
    ):
        assert _visible_width(pane) >= least, (pane, _visible_width(pane))
        assert _visible_width(pane) == pane.width(), pane  # nothing cut off at the window's edge
    table = view.board_list
    for col in (COL_BOARD, COL_VUL, COL_CONTRACT):
        assert not table.isColumnHidden(col)
    used = sum(table.columnWidth(c) for c in range(view.model.columnCount()) if not table.isColumnHidden(c))
    assert used <= table.viewport().width()  # no horizontal scrolling needed
    if width == 800:
        assert table.isColumnHidden(COL_HCP)  # the HCP columns go first
    else:
        assert not table.isColumnHidden(COL_HCP)
    side = view.side_tabs
    assert [side.tabText(i) for i in range(side.count())][:3] == ["Details", "Auction", "Play"]


def test_side_panels_collapse_and_come_back(qtbot, tmp_path):
    from bridgeview.ui.boardset.panels import BOARD_LIST, SIDE_PANEL

    path, _ = make_file(tmp_path, "pbn", n=10)
    w = main_window(qtbot, tmp_path)
    w.show()
    qtbot.waitExposed(w)
    w.open_file(str(path))
    w.resize(800, 600)
    view = w.current_view()
    QApplication.processEvents()
    diagram_before = view.diagram.width()
    sizes = view.splitter.sizes()
    w.panel_actions.actions[BOARD_LIST].trigger()
    w.panel_actions.actions[SIDE_PANEL].trigger()
    QApplication.processEvents()
    assert view.splitter.sizes()[0] == 0 and view.splitter.sizes()[2] == 0
    assert view.diagram.width() > diagram_before + 300  # the diagram takes the room
    assert not w.panel_actions.actions[BOARD_LIST].isChecked() and not w.panel_actions.actions[SIDE_PANEL].isChecked()
    w.panel_actions.actions[BOARD_LIST].trigger()
    w.panel_actions.actions[SIDE_PANEL].trigger()
    QApplication.processEvents()
    assert view.splitter.sizes() == sizes
    assert w.panel_actions.actions[BOARD_LIST].isChecked() and w.panel_actions.actions[SIDE_PANEL].isChecked()


def test_columns_to_hide_drops_hcp_first():
    from bridgeview.ui.boardset.panels import columns_to_hide
    from bridgeview.ui.document.board_model import COL_DEALER, COL_RESULT

    widths = dict(enumerate((56, 34, 42, 70, 48, 30, 30, 30, 30, 24)))
    assert columns_to_hide(widths, 400) == set()
    assert columns_to_hide(widths, 300) == {5, 6, 7, 8}
    assert columns_to_hide(widths, 250) == {5, 6, 7, 8, COL_RESULT}
    assert columns_to_hide(widths, 100) == {5, 6, 7, 8, COL_RESULT, COL_DEALER}


def test_a_small_window_gives_the_diagram_the_room_until_the_user_drags(qtbot, tmp_path):
    from bridgeview.ui.document.board_model import COL_HCP

    path, _ = make_file(tmp_path, "pbn", n=40)
    w = main_window(qtbot, tmp_path)
    w.resize(1000, 700)
    w.show()
    qtbot.waitExposed(w)
    assert w.open_file(str(path))
    view = w.current_view()
    expected = view.panels.small_window_sizes(view.splitter.width())
    assert expected is not None
    qtbot.waitUntil(lambda: view.splitter.sizes() == expected)
    assert view.board_list.isColumnHidden(COL_HCP)
    assert view.splitter.sizes()[1] > 1000 - 620  # more than the diagram's share before
    w.resize(1500, 850)
    qtbot.waitUntil(lambda: not view.board_list.isColumnHidden(COL_HCP))

    assert view.splitter.sizes()[2] == view.panels.side_width()  # as wide as its tabs (issue 25)
    # once the user has dragged the splitter, their layout stays
    view.splitter.splitterMoved.emit(200, 1)
    w.resize(1000, 700)
    qtbot.waitUntil(lambda: view.splitter.width() < 1000)  # the view has had its Resize event
    run_queued_zero_timers(qtbot)  # and a fit it started, had the drag not stopped them, has run
    assert view.splitter.sizes() != view.panels.small_window_sizes(view.splitter.width())
