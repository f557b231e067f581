"""The dealing machine's settings: DUP's control fields, shown and edited, kept on save.

Random and backwards are the machine's flags; copies is how many of each board
it deals; the first board number is the set's own (changing it renumbers the
boards, as the machine numbers them from it, and OK also closes any gaps in
the numbering, which a DUP file cannot hold); the last board follows from the
first and the number of boards.  The edit is one undoable step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from PySide6.QtGui import QUndoCommand
from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QSpinBox, QWidget

from ...formats.duplimate.bri import DEFAULT_DUP
from ...model.board import Board
from ...model.boardset import BoardSet, DupControl
from ...model.editing import board_numbers
from ...model.text import plural
from ...model.vulnerability import dealer_for_board, vulnerability_for_board
from ..document.services import BoardView
from ..plaintext import plain_label

MAX_BOARD, MAX_COPIES = 999, 99


def current_dup(boards: BoardSet) -> DupControl:
    """The set's DUP fields, or what a DUP file written now would get."""
    dup = getattr(getattr(boards, "info", None), "dup", None)
    if dup is not None:
        return dup
    first = boards[0].number if len(boards) and boards[0].number else 1
    return replace(DEFAULT_DUP, first_board=first)


class DupSettingsDialog(QDialog):
    """Random, backwards, first board, copies (and the last board it makes)."""

    def __init__(self, parent: QWidget | None, dup: DupControl, count: int) -> None:
        super().__init__(parent)
        self.setWindowTitle("Dealing machine settings (DUP)")
        self.count = count
        form = QFormLayout(self)
        self.random = QCheckBox("Deal the boards in random order", self)
        self.random.setChecked(dup.random)
        form.addRow("&Random", self.random)
        self.backwards = QCheckBox("Deal the boards from the last to the first", self)
        self.backwards.setChecked(dup.backwards)
        form.addRow("&Backwards", self.backwards)
        self.first = QSpinBox(self)
        self.first.setRange(1, max(1, MAX_BOARD - max(count, 1) + 1))
        self.first.setValue(min(max(1, dup.first_board), self.first.maximum()))
        self.first.setToolTip("The number of the first board; changing it renumbers the set")
        form.addRow("&First board", self.first)
        self.copies = QSpinBox(self)
        self.copies.setRange(0, MAX_COPIES)
        self.copies.setValue(dup.copies if dup.copies is not None else 1)
        self.copies.setToolTip("Copies of each board the machine deals (Dealer4 ignores this field)")
        form.addRow("&Copies", self.copies)
        self.last = plain_label(QLabel(self))
        form.addRow("Last board", self.last)
        self.first.valueChanged.connect(self._update_last)
        self._update_last()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def _update_last(self) -> None:
        first = self.first.value()
        self.last.setText(f"{first + max(self.count, 1) - 1}  ({plural(self.count, 'board')} from board {first})")

    def values(self) -> DupControl:
        first = self.first.value()
        return DupControl(
            self.random.isChecked(),
            self.backwards.isChecked(),
            first,
            self.copies.value(),
            first + max(self.count, 1) - 1,
        )


def needs_renumbering(boards: Sequence[Board], first: int) -> bool:
    """True unless the boards already run first, first + 1, ... (as DUP numbers them; the tables of a board,
    a match's rooms, share its number: :func:`model.editing.board_numbers`)."""
    return [b.number for b in boards] != board_numbers(boards, first)


class DupSettingsCommand(QUndoCommand):
    """Set the DUP fields of ``view``'s set; renumber the boards from a new first board."""

    def __init__(self, view: BoardView, new: DupControl) -> None:
        super().__init__("Change dealing machine settings")
        self.view = view
        self.old = view.boards.info.dup
        self.new = new
        self.old_boards = [view.model.board(i) for i in range(len(view.boards))]
        self.renumber = needs_renumbering(self.old_boards, new.first_board)

    def redo(self) -> None:
        self.view.boards.info.dup = self.new
        if self.renumber:
            numbers = board_numbers(self.old_boards, self.new.first_board)
            for i, b in enumerate(self.old_boards):
                n = numbers[i]
                follows = (
                    b.number is not None
                    and b.dealer in (None, dealer_for_board(b.number))
                    and b.vulnerability in (None, vulnerability_for_board(b.number))
                )
                changes: dict[str, object] = {"number": n}
                if follows:
                    changes.update(
                        # an auction was bid from its dealer: it keeps them (as Renumber does by default)
                        dealer=(
                            b.effective_dealer if b.auction else dealer_for_board(n) if b.dealer is not None else None
                        ),
                        vulnerability=vulnerability_for_board(n) if b.vulnerability is not None else None,
                    )
                self.view.model.set_board(i, b.touched(**changes))
        self._refresh()

    def undo(self) -> None:
        self.view.boards.info.dup = self.old
        if self.renumber:
            for i, b in enumerate(self.old_boards):
                self.view.model.set_board(i, b)
        self._refresh()

    def _refresh(self) -> None:
        self.view.file_info_changed()
