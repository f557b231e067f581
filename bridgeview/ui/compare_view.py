"""File › Compare With…: two board sets side by side, differing boards marked, both diagrams shown.

The differences come from :func:`bridgeview.check.compare_sets`, the code
behind ``bridgeview diff``; this window only shows them.
"""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..check import BoardDiff, compare_sets
from ..model.board import Board
from ..model.text import plural
from .diagram import HandDiagram
from .theme import RED

_NUMBER = Qt.ItemDataRole.UserRole


def _key(boards, i: int) -> int:
    n = boards[i].number
    return n if n is not None else i + 1


def moved_cards(a: Board | None, b: Board | None) -> int:
    """The cards (52-bit mask) that one board's hands place elsewhere than the other's: a card in another
    hand, or in a hand on one side only.  0 when a board is missing or either has no cards."""
    if a is None or b is None or not a.deal.card_count or not b.deal.card_count:
        return 0
    moved = 0
    for mine, theirs in zip(a.deal.hands, b.deal.hands, strict=True):
        moved |= mine ^ theirs
    return moved


def fit_to_screen(window: QWidget, width: int, height: int) -> None:
    """Size ``window`` ``width`` x ``height``, or less on a smaller screen (the one its parent is on), so
    that its buttons are never below the bottom of a 768-pixel screen."""
    parent = window.parentWidget()
    screen = parent.screen() if parent is not None else window.screen()
    room = screen.availableGeometry()
    window.resize(min(width, room.width() - 24), min(height, room.height() - 48))  # the frame and title bar


class CompareDialog(QDialog):
    """Boards of ``a`` (left) and ``b`` (right) by number; a row selected on one side selects its twin."""

    def __init__(self, a, b, name_a: str, name_b: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.a, self.b = a, b
        self.name_a, self.name_b = os.path.basename(name_a), os.path.basename(name_b)
        self.setWindowTitle(f"Compare {self.name_a} with {self.name_b}")
        self.diffs: dict[int | None, BoardDiff] = {
            d.number: d for d in compare_sets(a, b, name_a=self.name_a, name_b=self.name_b)
        }
        deals = [d for d in self.diffs.values() if d.kind != "tags"]
        n = len({_key(a, i) for i in range(len(a))} | {_key(b, i) for i in range(len(b))})
        if deals:
            text = f"{len(deals)} of {plural(n, 'board')} differ"
        else:
            text = f"Same deals on all {plural(n, 'board')}"
        tags = len(self.diffs) - len(deals)
        if tags:
            text += f" ({tags} with different tags)"
        self.summary = QLabel(text, self)
        self.summary.setObjectName("compareSummary")
        self.left = self._table(a, self.name_a)
        self.right = self._table(b, self.name_b)
        self.detail = QLabel("", self)
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.diagram_a, self.diagram_b = HandDiagram(self), HandDiagram(self)
        self.caption_a, self.caption_b = QLabel(self.name_a, self), QLabel(self.name_b, self)
        lists = QSplitter(Qt.Orientation.Horizontal, self)
        lists.addWidget(self.left)
        lists.addWidget(self.right)
        pictures = QWidget(self)
        grid = QGridLayout(pictures)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.addWidget(self.caption_a, 0, 0)
        grid.addWidget(self.caption_b, 0, 1)
        grid.addWidget(self.diagram_a, 1, 0)
        grid.addWidget(self.diagram_b, 1, 1)
        split = QSplitter(Qt.Orientation.Vertical, self)
        split.addWidget(lists)
        split.addWidget(pictures)
        split.setSizes([260, 480])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        layout.addWidget(self.detail)
        layout.addWidget(buttons)
        self.left.currentCellChanged.connect(lambda row, *_: self._picked(self.left, row))
        self.right.currentCellChanged.connect(lambda row, *_: self._picked(self.right, row))
        fit_to_screen(self, 1100, 820)
        first = next(
            (d.number for d in sorted(self.diffs.values(), key=lambda d: d.number or 0) if d.kind != "tags"), None
        )
        self.show_number(first if first is not None else (_key(a, 0) if len(a) else _key(b, 0) if len(b) else 0))

    def _table(self, boards, name: str) -> QTableWidget:
        table = QTableWidget(len(boards), 3, self)
        table.setHorizontalHeaderLabels(["Board", "", f"Difference ({name})"])
        table.verticalHeader().setVisible(False)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        table.setColumnWidth(0, 60)
        table.setColumnWidth(1, 26)
        for row in range(len(boards)):
            number = _key(boards, row)
            diff = self.diffs.get(number)
            cells = [
                QTableWidgetItem(str(number)),
                QTableWidgetItem("⚠" if diff else ""),
                QTableWidgetItem(diff.message if diff else "same deal"),
            ]
            for col, item in enumerate(cells):
                item.setData(_NUMBER, number)
                if diff is not None:
                    item.setToolTip(str(diff))
                    if diff.kind != "tags":
                        item.setForeground(RED)
                table.setItem(row, col, item)
        return table

    @staticmethod
    def _row_of(table: QTableWidget, number: int) -> int:
        for row in range(table.rowCount()):
            item = table.item(row, 0)
            if item is not None and item.data(_NUMBER) == number:
                return row
        return -1

    def _picked(self, table: QTableWidget, row: int) -> None:
        item = table.item(row, 0) if row >= 0 else None
        if item is not None:
            self.show_number(item.data(_NUMBER))

    def show_number(self, number: int) -> None:
        """Select board ``number`` on both sides and show both diagrams (an empty one where it is missing)."""
        shown: list[Board | None] = []
        for table, boards, diagram, caption, name in (
            (self.left, self.a, self.diagram_a, self.caption_a, self.name_a),
            (self.right, self.b, self.diagram_b, self.caption_b, self.name_b),
        ):
            row = self._row_of(table, number)
            table.blockSignals(True)
            item = table.item(row, 0) if row >= 0 else None
            if item is not None:
                table.selectRow(row)
                table.scrollToItem(item)
            else:
                table.clearSelection()
            table.blockSignals(False)
            shown.append(boards[row] if row >= 0 else None)
            diagram.set_board(shown[-1])
            caption.setText(f"{name}: board {number}" if row >= 0 else f"{name}: no board {number}")
        moved = moved_cards(*shown)
        self.diagram_a.set_marked_cards(moved)
        self.diagram_b.set_marked_cards(moved)
        diff = self.diffs.get(number)
        self.detail.setText(str(diff) if diff else f"board {number}: same deal")


__all__ = ["CompareDialog", "fit_to_screen", "moved_cards"]
