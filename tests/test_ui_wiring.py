"""The window is wired, not patched (issue 27): a feature keeps its state in its own object.

A view's features are the fields ``DocumentView`` declares, made in its constructor; the window's
are the fields ``MainWindow`` declares.  Using them all (the editor's dock and row dragging, the desk's
dialogs, the panel toggles, the rooms, the ten, the step keys, pasting and generating) adds no
attribute to a view or to the window: what they hold afterwards is what their constructors made.
"""

from __future__ import annotations

import typing

from PySide6.QtCore import Qt
from test_ui_support import main_window, make_file

from bridgeview.app.document import Document
from bridgeview.ui.boardset.panels import BOARD_LIST, SIDE_PANEL
from bridgeview.ui.boardset.view import DocumentView
from bridgeview.ui.editor.board_ops import RowDrops
from bridgeview.ui.mainwindow import MainWindow


def declared(cls: type) -> set[str]:
    """The attributes ``cls`` and its bases declare (annotations)."""
    return {name for klass in cls.__mro__ for name in getattr(klass, "__annotations__", {})}


def test_using_every_feature_adds_no_attribute_to_a_view_or_the_window(qtbot, tmp_path, messages):
    w = main_window(qtbot, tmp_path)
    w.show()
    window_attributes = set(vars(w))
    path, _boards = make_file(tmp_path, "pbn", n=6, auction=True)
    view = w.make_tab(Document.read(str(path)))
    assert isinstance(view, DocumentView)
    view_attributes = set(vars(view))
    w.tabs.setCurrentIndex(w.tabs.addTab(view, view.title()))

    w.editor.show_panel()  # the dock opens: the panes make room for it
    drops = RowDrops.existing(view)
    assert drops is not None and RowDrops.instance(view) is drops  # one for the view, kept by the view
    for which in (BOARD_LIST, SIDE_PANEL, SIDE_PANEL, BOARD_LIST):
        w.panel_actions.actions[which].trigger()
    w.show_check_tab()
    w.act_ten_as_t.setChecked(True)
    w.act_ten_as_t.setChecked(False)
    w.room_menu.menu.aboutToShow.emit()
    qtbot.keyClick(view.board_list, Qt.Key.Key_Right)  # a step key, sent to the replay
    compare = w.desk.compare_with(str(path))
    records = w.desk.hand_records()
    dup = w.desk.dup_settings()
    assert compare is w.desk.compare_dialog and records is w.desk.hand_records_dialog and dup is w.desk.dup_dialog
    for dialog in (compare, records, dup):
        dialog.close()
    pasted_tabs = w.tabs.count()
    assert w.paste_boards(path.read_text(encoding="utf-8"))
    generated = w.editor.generate(2, 1, 5)
    assert w.tabs.count() == pasted_tabs + 2 and generated.title().startswith("Random deals")

    assert set(vars(view)) == view_attributes
    assert set(vars(generated)) == view_attributes  # every view is built the same way
    assert set(vars(w)) == window_attributes


def test_the_features_are_declared_fields():
    """What other modules use of a view and of the window is declared in their classes, with its type."""
    hints = typing.get_type_hints(DocumentView)
    for name in ("replay", "solver", "traveller", "check_panel", "rooms", "panels", "contract_delegate", "commentary"):
        assert name in hints, name
    assert {"desk", "editor", "panel_actions", "act_ten_as_t", "room_menu", "step_keys"} <= declared(MainWindow)
