"""Board-list edits of one document view: insert, delete, duplicate, move, renumber, sort, cut/copy/paste.

Each is one undo step (:class:`BoardListCommand`).  Boards travel between
tabs as PBN text on the clipboard, so they also paste into other programs.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView

from ...formats.errors import FormatError
from ...model.board import Board
from ...model.boardset import FileInfo
from ...model.editing import empty_board, next_free_number, renumbered
from ...model.text import plural
from ..document.board_model import ROWS_MIME
from ..document.boardset_commands import BoardListCommand
from ..document.services import BoardView, ViewPlugin

#: list edits snapshot every board for undo; beyond this a file is too big to restructure here
MAX_LIST_EDIT = 200_000


class ListTooBig(ValueError):
    """The file has too many boards for an undoable list edit."""


def _boards(view: BoardView) -> list[Board]:
    if len(view.boards) > MAX_LIST_EDIT:
        raise ListTooBig(
            f"{len(view.boards):,} boards are too many to insert, delete or move here "
            f"(at most {MAX_LIST_EDIT:,}); convert the file with the command line instead"
        )
    return list(view.boards)


def _push(view: BoardView, new: list[Board], text: str, select: int) -> None:
    view.undo_stack.push(BoardListCommand(view, new, text, select))


def add_board(view: BoardView) -> int:
    """Insert an empty board after the current one, with the next free number; returns its row."""
    boards = _boards(view)
    at = view.current_index() + 1 if boards else 0
    number = next_free_number(boards)
    boards.insert(at, empty_board(number))
    _push(view, boards, f"Add board {number}", at)
    return at


def delete_boards(view: BoardView, rows: list[int] | None = None) -> int:
    """Delete the selected boards (or ``rows``); returns how many went."""
    boards = _boards(view)
    rows = sorted(set(rows if rows is not None else view.selected_rows()))
    rows = [r for r in rows if 0 <= r < len(boards)]
    if not rows:
        return 0
    keep = [b for i, b in enumerate(boards) if i not in set(rows)]
    what = f"board {boards[rows[0]].number}" if len(rows) == 1 else f"{len(rows)} boards"
    _push(view, keep, f"Delete {what}", rows[0])
    return len(rows)


def duplicate_board(view: BoardView) -> int:
    """Insert a copy of the current board after it, with the next free number; returns its row."""
    boards = _boards(view)
    i = view.current_index()
    if not 0 <= i < len(boards):
        return -1
    number = next_free_number(boards)
    copy = boards[i].touched(number=number)
    copy.tags.pop("Board", None)
    boards.insert(i + 1, copy)
    _push(view, boards, f"Duplicate board {boards[i].number}", i + 1)
    return i + 1


def move_board(view: BoardView, delta: int, row: int | None = None, to: int | None = None) -> int:
    """Move the current board (or ``row``) by ``delta`` rows (or to row ``to``); returns its new row."""
    boards = _boards(view)
    i = view.current_index() if row is None else row
    j = i + delta if to is None else to
    if not 0 <= i < len(boards) or not 0 <= j < len(boards) or i == j:
        return i
    b = boards.pop(i)
    boards.insert(j, b)
    _push(view, boards, f"Move board {b.number}", j)
    return j


def renumber(view: BoardView, first: int, *, rederive: bool = True, keep_auction_dealers: bool = False) -> None:
    """Number every board from ``first`` in list order; dealer and vulnerability follow unless kept (with
    ``keep_auction_dealers``, boards with an auction keep their dealer)."""
    boards = _boards(view)
    new = renumbered(boards, first, rederive=rederive, keep_auction_dealers=keep_auction_dealers)
    _push(view, new, f"Renumber boards from {first}", view.current_index())


def sort_boards(view: BoardView) -> None:
    """Order the boards by number (unnumbered ones last, in their order)."""
    boards = _boards(view)
    current = view.current_board()
    order = sorted(range(len(boards)), key=lambda i: (boards[i].number is None, boards[i].number or 0, i))
    new = [boards[i] for i in order]
    select = next((k for k, b in enumerate(new) if b is current), 0)
    _push(view, new, "Sort boards by number", select)


def boards_text(boards: list[Board], info: FileInfo | None = None) -> str:
    """PBN text of ``boards``, one game after another."""
    from ...formats.pbn.codec import board_to_pbn_text

    return "\n".join(board_to_pbn_text(b, info).rstrip("\n") + "\n" for b in boards)


def copy_boards(view: BoardView) -> str:
    """Put the selected boards on the clipboard as PBN text; returns the text."""
    rows = view.selected_rows()
    text = boards_text([view.boards[i] for i in rows], getattr(view.boards, "info", None))
    QGuiApplication.clipboard().setText(text)
    return text


def cut_boards(view: BoardView) -> str:
    text = copy_boards(view)
    delete_boards(view)
    return text


def paste_into(view: BoardView, text: str | None = None) -> int:
    """Insert the boards of PBN/LIN text (default: the clipboard's) after the current board; returns how many.

    Raises FormatError when the text holds no board.
    """
    from .clipboard import boards_from_text

    if text is None:
        text = QGuiApplication.clipboard().text()
    pasted = list(boards_from_text(text))
    boards = _boards(view)
    at = view.current_index() + 1 if boards else 0
    boards[at:at] = [b.touched() for b in pasted]
    if not pasted:
        raise FormatError("no board to paste")
    _push(view, boards, f"Paste {plural(len(pasted), 'board')}", at)
    return len(pasted)


class RowDrops(ViewPlugin):
    """Rows of a view's board list dragged and dropped: the dragged boards move there (one undo step).

    The editor turns it on for a view with ``RowDrops.instance(view)`` (one for each view, made on
    first use, living with the view)."""

    def __init__(self, view: BoardView) -> None:
        super().__init__(view)
        self.view = view
        lst = view.board_list
        lst.setDragEnabled(True)
        lst.setAcceptDrops(True)
        lst.viewport().setAcceptDrops(True)
        lst.setDropIndicatorShown(True)
        lst.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        lst.setDefaultDropAction(Qt.DropAction.MoveAction)
        lst.viewport().installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.DragEnter, QEvent.Type.DragMove, QEvent.Type.Drop):
            return False
        mime = event.mimeData()
        if not mime.hasFormat(ROWS_MIME) or event.source() not in (None, self.view.board_list):
            return False
        if kind != QEvent.Type.Drop:
            event.acceptProposedAction()
            return True
        rows = [int(r) for r in bytes(mime.data(ROWS_MIME)).decode().split(",") if r.strip().isdigit()]
        target = self.view.board_list.rowAt(int(event.position().y()))
        drop_rows(self.view, rows, len(self.view.boards) if target < 0 else target)
        event.setDropAction(Qt.DropAction.CopyAction)  # the list is rebuilt here: Qt must not remove rows
        event.accept()
        return True


def drop_rows(view: BoardView, rows: list[int], target: int) -> int:
    """Move boards ``rows`` so they stand before row ``target`` (as dropped there); returns their first new row."""
    boards = _boards(view)
    rows = sorted(r for r in set(rows) if 0 <= r < len(boards))
    if not rows:
        return -1
    moving = [boards[r] for r in rows]
    before = sum(1 for r in rows if r < target)
    rest = [b for i, b in enumerate(boards) if i not in set(rows)]
    at = max(0, min(len(rest), target - before))
    new = rest[:at] + moving + rest[at:]
    if new == boards:
        return at
    what = f"board {moving[0].number}" if len(moving) == 1 else f"{len(moving)} boards"
    _push(view, new, f"Move {what}", at)
    return at


__all__ = [
    "ListTooBig",
    "add_board",
    "boards_text",
    "copy_boards",
    "cut_boards",
    "delete_boards",
    "drop_rows",
    "duplicate_board",
    "RowDrops",
    "move_board",
    "paste_into",
    "renumber",
    "sort_boards",
]
