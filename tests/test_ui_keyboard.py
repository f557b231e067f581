"""Keyboard from the first second: the diagram has the focus after opening and after a tab change, the
step keys work from every pane except text fields, and a click on a card plays up to it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QPushButton
from test_replay_state import played_board
from test_ui_support import main_window

from bridgeview.formats.registry import write_file
from bridgeview.model.boardset import BoardSet


def played_file(tmp_path: Path, name: str = "played.pbn", seed: int = 1) -> Path:
    path = tmp_path / name
    write_file(BoardSet([played_board(seed=seed), played_board(seed=seed + 1, number=2)]), path, "pbn")
    return path


def shown_window(qtbot, tmp_path):
    w = main_window(qtbot, tmp_path)
    w.show()
    qtbot.waitExposed(w)
    w.activateWindow()
    return w


def focus_in_diagram(view) -> bool:
    f = QApplication.focusWidget()
    return f is not None and (f is view.diagram or view.diagram.isAncestorOf(f))


def test_diagram_has_the_focus_after_open_and_after_a_tab_change(qtbot, tmp_path):
    w = shown_window(qtbot, tmp_path)
    assert w.open_file(str(played_file(tmp_path, "a.pbn")))
    first = w.current_view()
    qtbot.waitUntil(lambda: focus_in_diagram(first))
    assert w.open_file(str(played_file(tmp_path, "b.pbn", seed=5)))
    second = w.current_view()
    assert second is not first
    qtbot.waitUntil(lambda: focus_in_diagram(second))
    w.tabs.setCurrentIndex(0)
    qtbot.waitUntil(lambda: focus_in_diagram(first))
    # and the very first key steps the play instead of switching files
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Right)
    assert first.replay.step == 1 and w.tabs.currentIndex() == 0


def test_step_keys_work_from_the_tab_bar_board_list_and_side_tabs(qtbot, tmp_path):
    w = shown_window(qtbot, tmp_path)
    w.open_file(str(played_file(tmp_path, "a.pbn")))
    w.open_file(str(played_file(tmp_path, "b.pbn", seed=5)))
    view = w.current_view()
    qtbot.waitUntil(lambda: focus_in_diagram(view))
    index = w.tabs.currentIndex()
    expected = 0
    for widget in (w.tabs.tabBar(), view.board_list, view.side_tabs.tabBar()):
        widget.setFocus()
        qtbot.waitUntil(widget.hasFocus)
        qtbot.keyClick(widget, Qt.Key.Key_Right)
        qtbot.keyClick(widget, Qt.Key.Key_Right)
        qtbot.keyClick(widget, Qt.Key.Key_Left)
        expected += 1
        assert view.replay.step == expected, widget
        assert w.tabs.currentIndex() == index  # Left/Right no longer switch files
        assert view.current_index() == 0
    # Up/Down still walk the board list when it has the focus
    view.board_list.setFocus()
    qtbot.waitUntil(view.board_list.hasFocus)
    qtbot.keyClick(view.board_list, Qt.Key.Key_Down)
    assert view.current_index() == 1 and view.replay.step == 0
    # Space starts and stops the movie from any pane
    w.tabs.tabBar().setFocus()
    qtbot.waitUntil(w.tabs.tabBar().hasFocus)
    qtbot.keyClick(w.tabs.tabBar(), Qt.Key.Key_Space)
    assert view.replay.playing
    qtbot.keyClick(w.tabs.tabBar(), Qt.Key.Key_Space)
    assert not view.replay.playing


def test_text_fields_keep_their_keys(qtbot, tmp_path):
    w = shown_window(qtbot, tmp_path)
    w.open_file(str(played_file(tmp_path)))
    view = w.current_view()
    qtbot.waitUntil(lambda: focus_in_diagram(view))
    field = QLineEdit("abc")
    w.statusBar().addWidget(field)
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    field.setCursorPosition(3)
    qtbot.keyClick(field, Qt.Key.Key_Left)
    qtbot.keyClick(field, Qt.Key.Key_Space)
    assert view.replay.step == 0 and not view.replay.playing
    assert field.text() == "ab c"
    # Space on a focused button presses the button (a bidding box, a dialog's OK), not the movie
    pressed = []
    button = QPushButton("Press")
    button.clicked.connect(lambda: pressed.append(True))
    w.statusBar().addWidget(button)
    button.setFocus()
    qtbot.waitUntil(button.hasFocus)
    qtbot.keyClick(button, Qt.Key.Key_Space)
    assert pressed and not view.replay.playing


def test_clicking_a_card_plays_up_to_it(qtbot, tmp_path):
    w = shown_window(qtbot, tmp_path)
    w.open_file(str(played_file(tmp_path)))
    view = w.current_view()
    board = view.current_board()
    target = int(board.play[9])  # the second card of trick 3
    qtbot.waitUntil(lambda: target in view.diagram.card_rects())
    rect = view.diagram.card_rects()[target]
    qtbot.mouseClick(view.diagram, Qt.MouseButton.LeftButton, pos=rect.center().toPoint())
    assert view.replay.step == 10
    assert str(board.play[9]) in view.diagram.view_model()["trick"]
    # in an edit mode (click_plays off) a click does not move the replay
    view.diagram.click_plays = False
    target = int(board.play[20])
    qtbot.waitUntil(lambda: target in view.diagram.card_rects())
    qtbot.mouseClick(view.diagram, Qt.MouseButton.LeftButton, pos=view.diagram.card_rects()[target].center().toPoint())
    assert view.replay.step == 10
