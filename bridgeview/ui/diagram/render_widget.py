"""A small composite for ``bridgeview render``: the diagram with its DD grid beside it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QVBoxLayout, QWidget

from ...model.board import Board
from ...model.ddtable import DDTable
from ...model.replay_state import ReplayState
from ..theme import WHITE
from .ddgrid import DDGrid
from .hand_diagram import HandDiagram

if TYPE_CHECKING:
    from ...solve.timed import DealInAdvance


def show_step(diagram: HandDiagram, board: Board, step: int, fmt: str | None = None) -> int:
    """Put the position after ``step`` cards of ``board``'s play on ``diagram``; returns the step shown."""
    pos = ReplayState(board, fmt).position(step)
    diagram.show_position(pos)
    return pos.step


class DiagramWithGrid(QWidget):
    """The hand diagram with the double-dummy grid in a column on its right."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAutoFillBackground(True)
        pal = self.palette()
        pal.setColor(QPalette.ColorRole.Window, WHITE)
        self.setPalette(pal)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 8, 0)
        layout.setSpacing(8)
        self.diagram = HandDiagram(self)
        layout.addWidget(self.diagram, 1)
        column = QVBoxLayout()
        column.setContentsMargins(0, 8, 0, 8)
        self.dd_grid = DDGrid(self)
        self.dd_grid.setFixedWidth(230)
        column.addWidget(self.dd_grid)
        column.addStretch(1)
        layout.addLayout(column)

    def set_board(
        self,
        board: Board | None,
        solve: bool = False,
        timeout: float | None = None,
        ahead: DealInAdvance | None = None,
    ) -> bool:
        """Show ``board``; with ``solve`` a missing DD table is worked out (as the window's solver does),
        giving DDS at most ``timeout`` seconds when given (``ahead``: the deal the caller had solved while it
        did other work).  False when DDS ran out of time (the grid then says so and shows only what the file
        holds)."""
        self.diagram.set_board(board)
        table = board.dd if board is not None else None
        in_time = True
        if solve and board is not None:
            table, in_time = solved_table(board, timeout, ahead)
        note = "" if in_time else f"No double-dummy table: DDS took longer than {timeout:g} s on this deal."
        self.dd_grid.set_table(table, note=note)
        if board is not None and table is not None and table.is_complete:
            from ...solve.boards import makeable_line, par_line

            self.dd_grid.set_par("\n".join(t for t in (par_line(board, table), makeable_line(table)) if t))
        return in_time


def solved_table(
    board: Board, timeout: float | None = None, ahead: DealInAdvance | None = None
) -> tuple[DDTable | None, bool]:
    """(the board's DD table, filled in by DDS when it lacks one and its deal can be solved (by ``ahead``
    when the caller had it solved in advance); False when DDS took longer than ``timeout`` seconds and was
    stopped, else True)."""
    try:
        from ...solve.boards import merged, needs_solving

        if not needs_solving(board):
            return board.dd, True
        if timeout is None:
            from ...solve.dds import solve_table

            table = solve_table(board.deal)
        else:
            from ...solve.timed import SolverUnavailable, solve_table_within

            try:
                table, slow = (ahead.table if ahead is not None else solve_table_within)(board.deal, timeout)
            except SolverUnavailable:
                return board.dd, True
            if slow:
                return board.dd, False
    except (ImportError, OSError):  # no DDS library: show what the file holds
        return board.dd, True
    return (merged(board.dd, table) if table is not None else board.dd), True
