"""File › Compare With…: two board sets side by side, differing boards marked, both diagrams shown.

The pairing (boards by number, their tables by room or order, renumbered boards
by deal: :func:`bridgeview.check.compare.pair_sets`) and the differences come
from :func:`bridgeview.check.compare_sets`, the code behind ``bridgeview diff``;
this window only shows them, every record of each set a row.
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

from ...check.compare import BoardDiff, Pair, compare_sets, diff_summary, pair_sets
from ...model.board import Board
from ...model.boardset import BoardSet
from ..diagram.hand_diagram import HandDiagram
from ..plaintext import plain_label, plain_tooltip
from ..theme import RED

_PAIR = Qt.ItemDataRole.UserRole  # a row's place in CompareDialog.pairs


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

    def __init__(self, a: BoardSet, b: BoardSet, name_a: str, name_b: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.a, self.b = a, b
        self.name_a, self.name_b = os.path.basename(name_a), os.path.basename(name_b)
        self.setWindowTitle(f"Compare {self.name_a} with {self.name_b}")
        self.pairs: list[Pair] = pair_sets(a, b)
        diffs = compare_sets(a, b, name_a=self.name_a, name_b=self.name_b, pairs=self.pairs)
        self.diffs: list[BoardDiff | None] = _diffs_of(self.pairs, diffs)  # (None: the same) a pair each
        self.pair_of_a: dict[int, int] = {}  # a record's first pair (hand records pair with each room of a match)
        self.pair_of_b: dict[int, int] = {}
        for k, p in enumerate(self.pairs):
            if p.index_a is not None:
                self.pair_of_a.setdefault(p.index_a, k)
            if p.index_b is not None:
                self.pair_of_b.setdefault(p.index_b, k)
        text = diff_summary(self.pairs, diffs)
        text = text[:1].upper() + text[1:]
        self.summary = plain_label(QLabel(text, self))
        self.summary.setObjectName("compareSummary")
        self.left = self._table(a, self.name_a)
        self.right = self._table(b, self.name_b)
        self.detail = plain_label(QLabel("", self))  # tag values quote the files
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.diagram_a, self.diagram_b = HandDiagram(self), HandDiagram(self)
        self.caption_a = plain_label(QLabel(self.name_a, self))  # file names may look like HTML
        self.caption_b = plain_label(QLabel(self.name_b, self))
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
        first = next((k for k, d in enumerate(self.diffs) if d is not None and d.kind != "tags"), 0)
        self.show_pair(first)

    def _table(self, boards, name: str) -> QTableWidget:
        left = boards is self.a
        where = self.pair_of_a if left else self.pair_of_b
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
            k = where.get(row, -1)
            pair = self.pairs[k] if k >= 0 else None
            diff = self.diffs[k] if k >= 0 else None
            number = boards[row].number if boards[row].number is not None else row + 1
            label = str(number) + (f" {_short(pair.table)}" if pair is not None and pair.table else "")
            cells = [
                QTableWidgetItem(label),
                QTableWidgetItem("⚠" if diff else ""),
                QTableWidgetItem(diff.message if diff else "same deal"),
            ]
            for col, item in enumerate(cells):
                item.setData(_PAIR, k)
                if diff is not None:
                    item.setToolTip(plain_tooltip(str(diff)))
                    if diff.kind != "tags":
                        item.setForeground(RED)
                elif pair is not None and pair.table:
                    item.setToolTip(plain_tooltip(f"board {number}, {pair.table}"))
                table.setItem(row, col, item)
        return table

    def _picked(self, table: QTableWidget, row: int) -> None:
        item = table.item(row, 0) if row >= 0 else None
        if item is not None and item.data(_PAIR) >= 0:
            self.show_pair(item.data(_PAIR))

    def show_number(self, number: int) -> None:
        """Show the first table of board ``number`` (A's numbering, else B's) on both sides."""
        k = next((k for k, p in enumerate(self.pairs) if p.number == number), None)
        if k is not None:
            self.show_pair(k)

    def show_pair(self, k: int) -> None:
        """Select pair ``k`` on both sides and show both diagrams (an empty one where a side has no twin)."""
        if not 0 <= k < len(self.pairs):
            return
        pair = self.pairs[k]
        shown: list[Board | None] = []
        for table, boards, diagram, caption, name, row, number in (
            (self.left, self.a, self.diagram_a, self.caption_a, self.name_a, pair.index_a, pair.number_a),
            (self.right, self.b, self.diagram_b, self.caption_b, self.name_b, pair.index_b, pair.number_b),
        ):
            table.blockSignals(True)
            item = table.item(row, 0) if row is not None else None
            if item is not None and row is not None:
                table.selectRow(row)
                table.scrollToItem(item)
            else:
                table.clearSelection()
            table.blockSignals(False)
            shown.append(boards[row] if row is not None else None)
            diagram.set_board(shown[-1])
            which = f"board {number if number is not None else pair.number}" + (f", {pair.table}" if pair.table else "")
            caption.setText(f"{name}: {which}" if row is not None else f"{name}: no {which}")
        moved = moved_cards(*shown)
        self.diagram_a.set_marked_cards(moved)
        self.diagram_b.set_marked_cards(moved)
        diff = self.diffs[k]
        where = f"board {pair.number}" + (f" ({pair.table})" if pair.table else "")
        self.detail.setText(str(diff) if diff else f"{where}: same deal")


def _diffs_of(pairs: list[Pair], diffs: list[BoardDiff]) -> list[BoardDiff | None]:
    """The difference each pair shows: its own, or its board's when the whole board is on one side only."""
    exact = {(d.index_a, d.index_b): d for d in diffs}
    whole = {(d.kind, d.number): d for d in diffs if d.kind in ("only_a", "only_b") and not d.table}
    out: list[BoardDiff | None] = []
    for p in pairs:
        side = "only_a" if p.index_b is None else "only_b" if p.index_a is None else ""
        out.append(exact.get((p.index_a, p.index_b)) or whole.get((side, p.number)))
    return out


def _short(table: str) -> str:
    """``closed room`` → ``C``, ``table 3`` → ``t3``: a table in the narrow Board column."""
    if table.endswith(" room"):
        return table[:1].upper()
    return "t" + table.split()[-1] if table.startswith("table ") else table


__all__ = ["CompareDialog", "fit_to_screen", "moved_cards"]
