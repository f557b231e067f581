"""The "Traveller" side tab: every table's result of the current board.

A file from a scoring program repeats a board (same number, same deal) once per
table with that table's contract and result; this tab lists them together, and
its title counts them, so such a file reads as one board with N results.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..model.traveller import row, traveller

HEADERS = ("Record", "Contract", "By", "Tricks", "Result", "NS")
TITLE = "Traveller"


class TravellerView(QWidget):
    """A table of the current board's results at every table; a double-click shows that record."""

    def __init__(self, document_view, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = document_view
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.table = QTableWidget(0, len(HEADERS), self)
        self.table.setHorizontalHeaderLabels(HEADERS)
        self.table.horizontalHeaderItem(len(HEADERS) - 1).setToolTip("North-South's score")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.cellDoubleClicked.connect(self._open)
        layout.addWidget(self.table, 1)
        self.indices: list[int] = []

    def show_board(self, i: int) -> None:
        """List the results of the board at ``i`` and retitle the tab with their count."""
        boards = self.view.boards
        self.indices = traveller(boards, i) if i >= 0 else []
        rows = [row(boards[k], k) for k in self.indices]
        self.table.setRowCount(len(rows))
        for r, result in enumerate(rows):
            cells = (
                str(result.index + 1), result.contract_text,
                result.declarer.letter if result.declarer is not None else "",
                "" if result.tricks is None else str(result.tricks), result.result_text,
                "" if result.ns_score is None else f"{result.ns_score:+d}" if result.ns_score else "0",
            )
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if result.index == i:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
                self.table.setItem(r, c, item)
        number = boards[i].number if 0 <= i < len(boards) else None
        if len(rows) > 1:
            self.summary.setText(f"Board {number}: {len(rows)} results (one record a table). "
                                 "Double-click a row to show that table's record.")
        else:
            self.summary.setText("This board has one result in the file." if rows else "")
        tabs = self.view.side_tabs
        tabs.setTabText(tabs.indexOf(self), f"{TITLE} ({len(rows)})" if len(rows) > 1 else TITLE)

    def _open(self, r: int, _column: int) -> None:
        if 0 <= r < len(self.indices):
            self.view.select_board(self.indices[r])


def install_traveller(document_view) -> TravellerView:
    """Add the Traveller tab to a document view's side tabs and keep it on the current board."""
    tab = TravellerView(document_view)
    document_view.side_tabs.addTab(tab, TITLE)
    document_view.currentBoardChanged.connect(tab.show_board)
    if document_view.current_index() >= 0:
        tab.show_board(document_view.current_index())
    return tab
