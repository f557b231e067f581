"""Vugraph rooms in the board list: a Room column beside the board number, and showing one room only.

A LIN vugraph (or a PBN team match) holds each board twice, once per room.
The board model adds a ``Room`` column when the file has rooms; here it is
placed right after the board number, and rows of the other room can be
hidden (View › Rooms, or a click on the Room header: both, open, closed).  Hiding rows keeps every board's index, so the
diagram, the solver and edits are unaffected; stepping through boards skips
the hidden ones.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

from ..document.services import BoardView, WindowServices

ROOM_COLUMN_WIDTH = 58
ROOM_HEADER = "Room"
#: the choices of View › Rooms: (label, room shown or None for both)
ROOM_CHOICES = (("&Both Rooms", None), ("&Open Room Only", "Open"), ("&Closed Room Only", "Closed"))


class RoomFilter:
    """Which room ``view``'s board list shows; made once by the view, which it keeps as ``view.rooms``.

    Puts the Room column (if the file has rooms) right after the board number."""

    def __init__(self, view: BoardView) -> None:
        self.view = view
        self._room: str | None = None
        col = view.model.room_column
        if col is None:
            return
        table = view.board_list
        table.setColumnWidth(col, ROOM_COLUMN_WIDTH)
        header = table.horizontalHeader()
        header.moveSection(header.visualIndex(col), 1)
        header.sectionClicked.connect(lambda section: self.cycle() if section == col else None)
        # the list's first width makes room for the new column, so the HCP columns need not go
        widths = sum(table.columnWidth(c) for c in range(view.model.columnCount()))
        view.splitter.setSizes([widths + 24, 620, 300])

    @property
    def room(self) -> str | None:
        """The room shown alone, None for both."""
        return self._room

    def rooms(self) -> list[str]:
        """The rooms the view's file holds, in order of appearance."""
        if self.view.model.room_column is None:
            return []
        seen: list[str] = []
        for b in self.view.boards:
            room = b.tags.get("Room", "")
            if room and room not in seen:
                seen.append(room)
        return seen

    def show_room(self, room: str | None) -> int:
        """Show only the boards of ``room`` (None: all); returns how many rows are shown.

        The current board stays when it is shown, else the first shown board becomes current.
        """
        view = self.view
        model = view.model
        table = view.board_list
        self._room = room
        model.room_header = ROOM_HEADER if room is None else f"{room} ▾"
        if model.room_column is not None:
            model.headerDataChanged.emit(Qt.Orientation.Horizontal, model.room_column, model.room_column)
        shown = 0
        first: int | None = None
        for i in range(model.rowCount()):
            hide = room is not None and model.board(i).tags.get("Room", "") != room
            if table.isRowHidden(i) != hide:
                table.setRowHidden(i, hide)
            if not hide:
                shown += 1
                if first is None:
                    first = i
        cur = view.current_index()
        if first is not None and (cur < 0 or table.isRowHidden(cur)):
            view.select_board(first)
        return shown

    def cycle(self) -> str | None:
        """Both rooms → the first room only → the second … → both again (a click on the Room header)."""
        choices: list[str | None] = [None, *self.rooms()]
        nxt = choices[(choices.index(self._room) + 1) % len(choices)] if self._room in choices else None
        self.show_room(nxt)
        return nxt


def next_visible(view: BoardView, index: int, delta: int) -> int:
    """The board ``delta`` shown rows away from ``index`` (clamped to the shown ones)."""
    table = view.board_list
    n = len(view.boards)
    step = 1 if delta >= 0 else -1
    i, left, best = index, abs(delta), index
    while left and 0 <= i + step < n:
        i += step
        if not table.isRowHidden(i):
            best = i
            left -= 1
    return best


class RoomMenu(QObject):
    """View › Rooms: both rooms, or the open or closed room only, for the current tab."""

    def __init__(self, window: WindowServices, menu: QMenu) -> None:
        super().__init__(window.window())
        self.window = window
        self.menu = menu.addMenu("&Rooms")
        group = QActionGroup(self.menu)
        self.actions: list[QAction] = []
        for text, room in ROOM_CHOICES:
            act = QAction(text, self.menu)
            act.setCheckable(True)
            act.setData(room)
            act.setStatusTip("Show the boards of both rooms" if room is None else f"Show only the {room.lower()} room")
            group.addAction(act)
            self.menu.addAction(act)
            self.actions.append(act)
            act.triggered.connect(lambda _checked=False, room=room: self.choose(room))
        self.menu.aboutToShow.connect(self.refresh)
        self.refresh()

    def choose(self, room: str | None) -> None:
        view = self.window.current_view()
        if view is not None and view.model.room_column is not None:
            view.rooms.show_room(room)

    def refresh(self) -> None:
        view = self.window.current_view()
        has = view is not None and view.model.room_column is not None
        present = view.rooms.rooms() if view is not None and has else []
        current = view.rooms.room if view is not None and has else None
        for act in self.actions:
            room = act.data()
            act.setEnabled(has and (room is None or room in present))
            act.setChecked(room == current)


__all__ = ["RoomFilter", "RoomMenu", "next_visible", "ROOM_CHOICES"]
