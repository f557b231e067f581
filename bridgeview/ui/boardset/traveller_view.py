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

from ...model.traveller import board_tables, row, traveller
from ..document.services import BoardView
from ..plaintext import plain_label

HEADERS = ("Record", "Contract", "By", "Tricks", "Result", "NS")
TITLE = "Traveller"


class TravellerView(QWidget):
    """A table of the current board's results at every table; a double-click shows that record."""

    def __init__(self, document_view: BoardView, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = document_view
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.summary = plain_label(QLabel(self))
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.table = QTableWidget(0, len(HEADERS), self)
        self.table.setHorizontalHeaderLabels(HEADERS)
        score_header = self.table.horizontalHeaderItem(len(HEADERS) - 1)
        if score_header is not None:  # set by the labels above
            score_header.setToolTip("North-South's score")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.cellDoubleClicked.connect(self._open)
        layout.addWidget(self.table, 1)
        self.indices: list[int] = []
        #: the board list's marks of each board's results ("3 (2/4)")
        self.marks = TravellerMarks(document_view)

    def show_board(self, i: int) -> None:
        """List the results of the board at ``i`` and retitle the tab with their count."""
        boards = self.view.boards
        self.indices = traveller(boards, i) if i >= 0 else []
        rows = [row(boards[k], k) for k in self.indices]
        self.table.setRowCount(len(rows))
        for r, result in enumerate(rows):
            cells = (
                str(result.index + 1),
                result.contract_text,
                result.declarer.letter if result.declarer is not None else "",
                "" if result.tricks is None else str(result.tricks),
                result.result_text,
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
            self.summary.setText(
                f"Board {number}: {len(rows)} results (one record a table). "
                "Double-click a row to show that table's record."
            )
        else:
            self.summary.setText("This board has one result in the file." if rows else "")
        tabs = self.view.side_tabs
        tabs.setTabText(tabs.indexOf(self), f"{TITLE} ({len(rows)})" if len(rows) > 1 else TITLE)

    def _open(self, r: int, _column: int) -> None:
        if 0 <= r < len(self.indices):
            self.view.select_board(self.indices[r])


class TravellerMarks:
    """Marks in the board list's Board column: ``3 (2/4)`` is board 3, the second of its four results."""

    def __init__(self, document_view: BoardView) -> None:
        self.view = document_view
        self.positions: dict[int, tuple[int, int]] = {}
        self.keys: list[tuple] = []  # (number, hands) of every board, to notice edits that matter
        self.update()
        document_view.model.boardChanged.connect(self._changed)

    def update(self) -> None:
        """Find the travellers again and redraw the Board column."""
        boards = self.view.boards
        tables = board_tables(boards)
        self.positions = tables.places() if tables is not None else {}
        searchable = tables is not None and not getattr(boards, "is_lazy", False)  # (a big set is not watched)
        self.keys = [(b.number, b.deal.hands) for b in boards] if searchable else []
        model = self.view.model
        model.board_label = self.label if self.positions else None
        model.refresh_texts()
        if self.positions:
            digits = max(len(str(boards[i].number)) for i in self.positions)
            width = self.view.board_list.fontMetrics().horizontalAdvance("8" * digits + " (88/88)") + 18
            if self.view.board_list.columnWidth(0) < width:
                self.view.board_list.setColumnWidth(0, width)

    def label(self, i: int, text: str) -> str:
        place = self.positions.get(i)
        return f"{text} ({place[0]}/{place[1]})" if place is not None else text

    def _changed(self, i: int) -> None:
        """A board was replaced: look again only when its number or deal changed (solving adds
        tables to thousands of boards; they stay where they are)."""
        if i < len(self.keys):
            board = self.view.model.board(i)
            if self.keys[i] != (board.number, board.deal.hands):
                self.update()


def install_traveller(document_view: BoardView) -> TravellerView:
    """Add the Traveller tab to a document view's side tabs, keep it on the current board, and mark
    each board's results in the board list."""
    tab = TravellerView(document_view)
    document_view.side_tabs.addTab(tab, TITLE)
    document_view.currentBoardChanged.connect(tab.show_board)
    if document_view.current_index() >= 0:
        tab.show_board(document_view.current_index())
    marks = tab.marks

    def board_changed(i: int) -> None:  # after the marks had their look: a result edited, or a board moved
        current = document_view.current_index()
        if current >= 0 and (i in tab.indices or i in marks.positions):
            tab.show_board(current)

    document_view.model.boardChanged.connect(board_changed)
    return tab
