"""Tables the app solved, into the file: by the user's word, or with a save made for another reason.

The solver keeps the tables it works out in the document's cache (``Document.solved``, by deal) and
shows them; the boards themselves stay as the file has them, so opening a file never makes it
modified.  Two ways put the tables into the boards:

- Analysis › Add Solved Tables to the File: one undoable edit (the document is then modified);
- a save the user makes anyway (an edited document, or Save As to another file) into a format that
  holds DD results writes them too, so the file holds what the window showed.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMainWindow

from ...model.board import Board
from ...model.text import plural
from ...solve.boards import has_table, merged
from ..document.boardset_commands import SetBoardsCommand

#: sets up to this size are looked through board by board for tables to add; bigger ones (read lazily,
#: solved only where the user looked) use where each table was asked for
SCAN_LIMIT = 200_000


def boards_gaining_tables(view) -> dict[int, Board]:
    """Board index -> the board with the table solved here for its deal, for every board that lacks it."""
    solved = view.document.core.solved
    if not solved:
        return {}
    n = len(view.boards)
    if n <= SCAN_LIMIT:
        indices: list[int] = list(range(n))
    else:
        where = view.solver.solved_at
        indices = sorted(i for i in where if 0 <= i < n)
    out: dict[int, Board] = {}
    for i in indices:
        board = view.model.board(i)
        table = solved.get(board.deal.hands)
        if table is None or has_table(board):
            continue
        filled = merged(board.dd, table)
        if filled != board.dd:
            out[i] = board.touched(dd=filled)
    return out


def add_solved_tables(view) -> int:
    """Analysis › Add Solved Tables to the File: one undo step; how many boards got a table."""
    changes = boards_gaining_tables(view)
    window = view.window()
    status = window.statusBar() if isinstance(window, QMainWindow) else None  # a view without a window has none
    if not changes:
        if status is not None:
            status.showMessage("No solved table to add: every board holds its table, or none is solved yet", 5000)
        return 0
    text = f"Add solved tables to {plural(len(changes), 'board')}"
    view.undo_stack.push(SetBoardsCommand(view.model, changes, text))
    if status is not None:
        status.showMessage(f"Added solved double-dummy tables to {plural(len(changes), 'board')}", 5000)
    return len(changes)


def write_solved_tables(view) -> int:
    """Before a save made for another reason: the solved tables into the boards (not an undo step: the
    save that follows makes the document match its file); how many boards got one."""
    changes = boards_gaining_tables(view)
    for i, board in changes.items():
        view.model.set_board(i, board)
    return len(changes)


__all__ = ["SCAN_LIMIT", "add_solved_tables", "boards_gaining_tables", "write_solved_tables"]
