"""The bidding table of a board, with its notes and the result beneath.

Columns run W N E S as bridge books print them, so the dealer's first call
sits in the dealer's column with blank cells before it.  Alerts, explanations
and note numbers are shown on hover and listed under the table, so nothing a
file says about a call is lost in the view.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..model.auction import Call, CallKind, auction_problems
from ..model.board import Board
from ..model.cards import Seat, Strain
from ..model.replay_state import ReplayState, result_summary

#: column order of the table: West first, as in bridge literature
COLUMN_SEATS = (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH)
RED = QColor("#c8102e")
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_NOTE_RE = re.compile(r"^\s*(\d+)\s*:\s*(.*)$", re.S)
_NOTE_TAG_RE = re.compile(r"^note[:\s]\s*(\d+)$", re.I)


def column_of(seat: int) -> int:
    """Table column of ``seat`` (W=0, N=1, E=2, S=3)."""
    return (int(seat) + 1) % 4


def board_notes(board: Board) -> dict[int, str]:
    """Numbered notes the calls do not carry themselves, by number.

    The PBN reader keeps a ``[Note "n:text"]`` that no call refers to as the tag
    ``Note:n``; a free-form note ``n:text`` in ``Board.notes`` counts too.
    """
    found: dict[int, str] = {}
    for key, value in board.tags.items():
        m = _NOTE_TAG_RE.match(key)
        if m:
            found.setdefault(int(m.group(1)), value.strip())
    for text in board.notes:
        m = _NOTE_RE.match(text)
        if m:
            found.setdefault(int(m.group(1)), m.group(2).strip())
    return found


def call_text(call: Call) -> str:
    """``2♥!*¹``: the call, its punctuation, ``*`` if alerted, and its note number."""
    text = call.symbol_text() + call.mark
    if call.alert and "*" not in call.mark:
        text += "*"
    if call.note is not None:
        text += str(call.note).translate(SUPERSCRIPT)
    return text


def call_tooltip(call: Call, notes: dict[int, str]) -> str:
    """Everything known about a call, one fact a line; empty when there is nothing to add."""
    lines: list[str] = []
    if call.alert:
        lines.append("Alerted")
    if call.explanation:
        lines.append(call.explanation)
    if call.note is not None:
        text = notes.get(call.note)
        if text is None and not call.explanation:
            lines.append(f"Note {call.note} (not in the file)")
        elif text is not None and text != call.explanation:
            lines.append(f"Note {call.note}: {text}")
    if call.mark and call.mark != "*":
        lines.append(f"Marked {call.mark}")
    return "\n".join(lines)


class AuctionView(QWidget):
    """Bidding table (W N E S), notes, and ``4♥X by S, 10 tricks, +790 NS`` below."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._board: Board | None = None
        self.heading = QLabel()
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels([s.letter for s in COLUMN_SEATS])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.notes_label = QLabel()
        self.notes_label.setWordWrap(True)
        self.notes_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        font = self.summary.font()
        font.setBold(True)
        self.summary.setFont(font)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notes_label)
        layout.addWidget(self.summary)
        self.set_board(None)

    def set_board(self, board: Board | None, replay_state: ReplayState | None = None) -> None:
        """Show ``board``'s auction (None clears the view)."""
        self._board = board
        self.table.setRowCount(0)
        if board is None:
            self.heading.setText("")
            self.notes_label.setText("")
            self.notes_label.setVisible(False)
            self.summary.setText("")
            return
        dealer = board.effective_dealer
        vul = board.effective_vulnerability
        number = f"Board {board.number} · " if board.number is not None else ""
        self.heading.setText(f"{number}Dealer {dealer.letter} · Vul {vul.text}")
        for column, seat in enumerate(COLUMN_SEATS):
            item = QTableWidgetItem(seat.letter)
            if vul.is_vulnerable(seat):
                item.setForeground(RED)
                item.setToolTip(f"{seat.name.title()} is vulnerable")
            self.table.setHorizontalHeaderItem(column, item)
        notes = board_notes(board)
        calls = board.auction or []
        start = column_of(dealer)
        for index, call in enumerate(calls):
            row, column = divmod(start + index, 4)
            if row >= self.table.rowCount():
                self.table.setRowCount(row + 1)
            item = QTableWidgetItem(call_text(call))
            item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            if call.kind == CallKind.BID and call.strain in (Strain.HEARTS, Strain.DIAMONDS):
                item.setForeground(RED)
            tip = call_tooltip(call, notes)
            if tip:
                item.setToolTip(tip)
                if call.alert or call.explanation:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
            self.table.setItem(row, column, item)
        self.notes_label.setText(self._notes_text(board, calls, notes))
        self.notes_label.setVisible(bool(self.notes_label.text()))
        summary = result_summary(board, replay_state)
        if not calls:
            summary = "No auction recorded" + ("" if summary == "No contract" else f" · {summary}")
        self.summary.setText(summary)

    @staticmethod
    def _notes_text(board: Board, calls: list[Call], notes: dict[int, str]) -> str:
        lines: list[str] = []
        numbered = dict(notes)
        dealer = board.effective_dealer
        for index, call in enumerate(calls):
            if call.explanation and call.note is None:
                who = Seat((dealer + index) % 4).letter
                lines.append(f"{call.symbol_text()} ({who}): {call.explanation}")
            elif call.explanation and call.note is not None:
                numbered.setdefault(call.note, call.explanation)
        lines += [f"{n}. {text}" for n, text in sorted(numbered.items())]
        lines += [f"⚠ {p}" for p in auction_problems(calls, dealer)] if calls else []
        return "\n".join(lines)

    # -- for tests and accessibility -------------------------------------
    def board(self) -> Board | None:
        return self._board

    def cells(self) -> list[list[str]]:
        """The table as rows of four strings (W N E S), blank cells as ``""``."""
        rows = []
        for r in range(self.table.rowCount()):
            row = []
            for c in range(4):
                item = self.table.item(r, c)
                row.append(item.text() if item is not None else "")
            rows.append(row)
        return rows

    def tooltip_at(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return item.toolTip() if item is not None else ""

    def summary_text(self) -> str:
        return self.summary.text()

    def notes_text(self) -> str:
        return self.notes_label.text()
