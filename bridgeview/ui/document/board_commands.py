"""Undoable edits: every change to a board goes through :class:`SetBoardCommand`."""

from __future__ import annotations

from PySide6.QtGui import QUndoCommand

from ...model.board import Board
from ...model.cards import Card, Seat, Suit
from ...model.vulnerability import Vulnerability
from ..card_text import rank_label
from .board_model import BoardSetModel


class SetBoardCommand(QUndoCommand):
    """Replace board ``index`` with ``new``; undo puts the old board back (with its source)."""

    def __init__(self, model: BoardSetModel, index: int, new: Board, text: str) -> None:
        super().__init__(text)
        self.model = model
        self.index = index
        self.old = model.board(index)
        self.new = new

    def redo(self) -> None:
        self.model.set_board(self.index, self.new)

    def undo(self) -> None:
        self.model.set_board(self.index, self.old)


def move_card_command(model: BoardSetModel, index: int, card: int, seat: int) -> SetBoardCommand:
    """Move ``card`` of board ``index`` to ``seat``'s hand."""
    from ...model.editing import with_deal

    board = model.board(index)
    new = with_deal(board, board.deal.with_card(card, seat))  # the DD table and par were about the old deal
    name = Suit(card // 13).symbol + rank_label(Card(card))
    return SetBoardCommand(model, index, new, f"Move {name} to {Seat(seat).name.title()}")


def header_command(
    model: BoardSetModel, index: int, number: int | None, dealer: Seat, vulnerability: Vulnerability
) -> SetBoardCommand:
    """Change a board's number, dealer and vulnerability."""
    board = model.board(index)
    new = board.touched(number=number, dealer=dealer, vulnerability=vulnerability)
    return SetBoardCommand(model, index, new, f"Edit board {number if number is not None else ''}".strip())
