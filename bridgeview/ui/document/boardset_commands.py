"""Undo commands of the editor beyond one board: the whole board list and the file's header.

One board's edits use :class:`~bridgeview.ui.document.board_commands.SetBoardCommand`;
structural edits (insert, delete, move, renumber, paste) swap the whole list,
so undo is exact whatever the edit did.
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtGui import QUndoCommand

from ...model.board import Board
from ...model.boardset import DupControl
from .board_commands import SetBoardCommand
from .board_model import BoardSetModel
from .services import BoardView


class BoardListCommand(QUndoCommand):
    """Replace every board of a view with ``new``; ``select`` is the row shown after redo."""

    def __init__(self, view: BoardView, new: list[Board], text: str, select: int) -> None:
        super().__init__(text)
        self.view = view
        self.old = list(view.boards)
        self.old_select = max(view.current_index(), 0)
        self.new = list(new)
        self.select = select

    def redo(self) -> None:
        self.view.model.replace_all(self.new)
        self.view.reload(self.select)

    def undo(self) -> None:
        self.view.model.replace_all(self.old)
        self.view.reload(self.old_select)


class SetBoardsCommand(QUndoCommand):
    """Replace several boards by index (``changes``: index -> new board) in one undo step; undo puts the
    old boards back, with their sources, so unchanged boards save byte for byte again."""

    def __init__(self, model: BoardSetModel, changes: dict[int, Board], text: str) -> None:
        super().__init__(text)
        self.model = model
        self.old = {i: model.board(i) for i in changes}
        self.new = dict(changes)

    def redo(self) -> None:
        for i, board in self.new.items():
            self.model.set_board(i, board)

    def undo(self) -> None:
        for i, board in self.old.items():
            self.model.set_board(i, board)


class FileInfoCommand(QUndoCommand):
    """Change the file's own event, site and date, or its DUP dealing-machine fields."""

    def __init__(self, view: BoardView, text: str, *, dup: DupControl | None = None, **fields: str | None) -> None:
        super().__init__(text)
        self.view = view
        info = view.boards.info
        self.old = {k: getattr(info, k) for k in fields}
        self.new = dict(fields)
        self.old_dup = replace(info.dup) if info.dup is not None else None
        self.new_dup = dup if dup is not None else self.old_dup

    def _apply(self, values: dict, dup: DupControl | None) -> None:
        info = self.view.boards.info
        for k, v in values.items():
            setattr(info, k, v)
        info.dup = replace(dup) if dup is not None else None
        i = self.view.current_index()
        if i >= 0:  # the details pane and the editor show the header too
            self.view.model.boardChanged.emit(i)

    def redo(self) -> None:
        self._apply(self.new, self.new_dup)

    def undo(self) -> None:
        self._apply(self.old, self.old_dup)


def set_board(view: BoardView, new: Board, text: str, index: int | None = None) -> None:
    """Push "board ``index`` (default: current) becomes ``new``" on the view's undo stack."""
    i = view.current_index() if index is None else index
    if 0 <= i < len(view.boards):
        view.undo_stack.push(SetBoardCommand(view.model, i, new, text))


__all__ = ["BoardListCommand", "FileInfoCommand", "SetBoardsCommand", "set_board"]
