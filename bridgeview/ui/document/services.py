"""What the main window and a board set's view offer the features added to them, and where a feature
keeps its own state.

The main window (``mainwindow.py``) imports every feature it shows: the desk's menu entries, the editor,
the panel toggles, the room menu, the step keys, the tab management after a lossy save.  A feature that
needs the window back is handed it and types it with :class:`WindowServices`, never by importing
``mainwindow`` (that import would close a cycle, which ``tests/test_layers.py`` refuses).  The actions a
feature adds to the window's menus are made by :meth:`WindowServices.make_action`.

A feature that is added to a view from outside it (the editor's row dragging) keeps its state in its
own object, found again through the view with :meth:`ViewPlugin.instance` (Frescobaldi's
``DocumentInfo.instance(doc)``): nothing is written onto the view.  What a view is built with (replay,
solver, Check tab, panes, rooms …) is a typed field declared in ``DocumentView``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, Self

from PySide6.QtCore import QObject, QSettings, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence, QUndoGroup
from PySide6.QtWidgets import (
    QDockWidget,
    QMenu,
    QMenuBar,
    QSplitter,
    QStatusBar,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...app.document import Document
from ...model.board import Board
from ...model.boardset import BoardSet
from ..diagram.hand_diagram import HandDiagram
from .board_model import BoardSetModel
from .tab import DocumentTab


class Panes(Protocol):
    """A view's panes as the window's features see them (``boardset.panels.PanelLayout`` is them)."""

    def panel_shown(self, which: int) -> bool: ...

    def show_panel(self, which: int, on: bool) -> None: ...

    def make_room_for_editor(self, room: int) -> list[str]: ...


class Rooms(Protocol):
    """The vugraph room a view shows, as the View menu sees it (``boardset.rooms.RoomFilter`` is one)."""

    @property
    def room(self) -> str | None:
        """The room shown alone, None for both."""
        ...

    def rooms(self) -> list[str]: ...

    def show_room(self, room: str | None) -> int: ...


class BoardView(DocumentTab):
    """A tab showing a board set, as the window's features see it: ``DocumentView`` is the one there is.

    The window's features are handed views of this type: they cannot import ``DocumentView`` (it is built
    with features that the window's features import in turn)."""

    #: the current board changed (its index)
    currentBoardChanged = Signal(int)

    model: BoardSetModel
    diagram: HandDiagram
    board_list: QTableView
    #: the diagram, the replay bar and the commentary, one above the other (a feature adds its widget)
    diagram_column: QVBoxLayout
    #: the side tabs (Details, Auction, Play, Traveller, Check: a feature adds its tab)
    side_tabs: QTabWidget
    #: board list | diagram column | DD grid and side tabs
    splitter: QSplitter
    panels: Panes
    rooms: Rooms

    @property
    def boards(self) -> BoardSet:
        """The board set shown (a ``BoardSet``, or a ``LazyBoardSet`` over a big file: a kind of it)."""
        raise NotImplementedError

    def current_index(self) -> int:
        raise NotImplementedError

    def current_board(self) -> Board | None:
        raise NotImplementedError

    def select_board(self, i: int) -> None:
        raise NotImplementedError

    def selected_rows(self) -> list[int]:
        """Rows selected in the board list (at least the current one), in order."""
        raise NotImplementedError

    def reload(self, select: int) -> None:
        """Show board ``select`` after the board list was replaced as a whole."""
        raise NotImplementedError

    def shown_board(self, board: Board) -> Board:
        """``board`` as the window shows it (with the tables solved for display)."""
        raise NotImplementedError

    def step_action(self, name: str) -> QAction | None:
        """The replay's action ``name`` ("next_card" …), for the step keys."""
        raise NotImplementedError

    def file_info_changed(self) -> None:
        """The file's own fields changed: whatever shows them, again."""
        raise NotImplementedError


#: a key for :meth:`WindowServices.make_action`: a sequence, a standard key, its text, or none
Shortcut = QKeySequence | QKeySequence.StandardKey | str | None


class WindowServices(Protocol):
    """The main window as its features see it."""

    settings: QSettings
    tabs: QTabWidget
    undo_group: QUndoGroup
    file_menu: QMenu
    edit_menu: QMenu
    view_menu: QMenu
    help_menu: QMenu
    act_four_colour: QAction

    def current_view(self) -> BoardView | None: ...

    def current_tab(self) -> DocumentTab | None: ...

    def views(self) -> list[DocumentTab]: ...

    def make_action(self, text: str, slot: Callable[[], object], shortcut: Shortcut = None, tip: str = "") -> QAction:
        """A window action that runs ``slot`` (for a feature's menu entries)."""
        ...

    def make_tab(self, doc: Document) -> DocumentTab:
        """A tab for ``doc``, wired to the window, not yet added to the tab bar."""
        ...

    def open_boards(self, boards: BoardSet, untitled_name: str, tip: str) -> BoardView:
        """A new tab of boards that have no file yet (pasted, new, generated)."""
        ...

    def open_file(self, path: str) -> bool: ...

    def add_recent(self, path: str) -> None: ...

    def update_status(self) -> None:
        """Show the current tab's format, board and check summary in the status bar again."""
        ...

    def window(self) -> QWidget:
        """The window's widget (Qt's ``QWidget.window()``: the main window itself)."""
        ...

    # Qt's own, for the editor's docks and messages
    def statusBar(self) -> QStatusBar: ...

    def menuBar(self) -> QMenuBar: ...

    def width(self) -> int: ...

    def addDockWidget(self, area: Qt.DockWidgetArea, dock: QDockWidget) -> None: ...

    def splitDockWidget(self, first: QDockWidget, second: QDockWidget, how: Qt.Orientation) -> None: ...

    def resizeDocks(self, docks: list[QDockWidget], sizes: list[int], how: Qt.Orientation) -> None: ...


class ViewPlugin(QObject):
    """One object of a feature for each view, made on first use and living as long as the view.

    ``Feature.instance(view)`` returns the view's object of that feature, making it the first time; it is
    a child of the view (Qt keeps it, and deletes it with the view), so the view needs no field for it."""

    def __init__(self, view: BoardView) -> None:
        super().__init__(view)

    @classmethod
    def instance(cls, view: BoardView) -> Self:
        """The view's object of this feature, made now if it has none."""
        found = cls.existing(view)
        return found if found is not None else cls(view)

    @classmethod
    def existing(cls, view: BoardView) -> Self | None:
        """The view's object of this feature, or None when it was never made."""
        for child in view.children():
            if type(child) is cls:
                return child
        return None


__all__ = ["BoardView", "Panes", "Rooms", "ViewPlugin", "WindowServices"]
