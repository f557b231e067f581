"""The bidding table of a board, with its notes and the result beneath.

Columns follow the table round from the dealer (dealer South: S W N E), as
many bridge books print auctions, so the first row has no blank cells; an
option (the table's context menu) fixes them as W N E S instead, BBO-style,
with blanks before the dealer's first call.  Alerts, explanations
and note numbers are shown on hover and listed under the table, so nothing a
file says about a call is lost in the view.
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...model.auction import Call, CallKind, auction_problems
from ...model.board import Board
from ...model.cards import Seat, Strain
from ...model.replay_state import ReplayState, result_summary
from ..plaintext import plain_label, plain_tooltip, set_plain_text, tooltip_text
from ..theme import RED

#: fixed column order (the trick table, and the auction when not dealer-first): West first
COLUMN_SEATS = (Seat.WEST, Seat.NORTH, Seat.EAST, Seat.SOUTH)
SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
_NOTE_RE = re.compile(r"^\s*(\d+)\s*:\s*(.*)$", re.S)
_NOTE_TAG_RE = re.compile(r"^note[:\s]\s*(\d+)$", re.I)
#: BBO writes suits in explanations as !S !H !D !C
_BBO_SUIT_RE = re.compile(r"!([SHDCshdc])(?![A-Za-z])")
_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def pretty(text: str) -> str:
    """Explanation text for the eye: BBO's ``!S``-style suit escapes become ♠ ♥ ♦ ♣."""
    return _BBO_SUIT_RE.sub(lambda m: _SUIT_SYMBOLS[m.group(1).upper()], text)


def column_of(seat: int) -> int:
    """Column of ``seat`` in the fixed W N E S order (W=0, N=1, E=2, S=3)."""
    return (int(seat) + 1) % 4


def column_seats(dealer: int, dealer_first: bool) -> tuple[Seat, ...]:
    """The seats of the auction's four columns: from the dealer round the table, or W N E S."""
    if not dealer_first:
        return COLUMN_SEATS
    return tuple(Seat((int(dealer) + k) % 4) for k in range(4))


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
        lines.append(pretty(call.explanation))
    if call.note is not None:
        text = notes.get(call.note)
        if text is None and not call.explanation:
            lines.append(f"Note {call.note} (not in the file)")
        elif text is not None and text != call.explanation:
            lines.append(f"Note {call.note}: {pretty(text)}")
    if call.mark and call.mark != "*":
        lines.append(f"Marked {call.mark}")
    return "\n".join(lines)


class AuctionView(QWidget):
    """Bidding table (dealer first, or W N E S), notes, and ``4♥X by S, 10 tricks, +790 NS`` below."""

    def __init__(self, parent: QWidget | None = None, dealer_first: bool = True) -> None:
        super().__init__(parent)
        self._board: Board | None = None
        self._replay_state: ReplayState | None = None
        self.dealer_first = dealer_first
        self.heading = plain_label(QLabel())
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels([s.letter for s in COLUMN_SEATS])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.dealer_first_action = QAction("Columns start at the dealer", self)
        self.dealer_first_action.setToolTip("Off: columns W N E S, with blank cells before the dealer's call")
        self.dealer_first_action.setCheckable(True)
        self.dealer_first_action.setChecked(dealer_first)
        self.dealer_first_action.toggled.connect(self.set_dealer_first)
        for widget in (self.table, self.table.horizontalHeader()):
            widget.addAction(self.dealer_first_action)
            widget.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.notes_label = plain_label(QLabel())  # explanations come from the file: never render them
        self.notes_label.setWordWrap(True)
        self.notes_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = plain_label(QLabel())
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
        self._replay_state = replay_state
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
        seats = column_seats(dealer, self.dealer_first)
        for column, seat in enumerate(seats):
            item = QTableWidgetItem(seat.letter)
            if vul.is_vulnerable(seat):
                item.setForeground(RED)
                item.setToolTip(f"{seat.name.title()} is vulnerable")
            self.table.setHorizontalHeaderItem(column, item)
        notes = board_notes(board)
        calls = board.auction or []
        start = seats.index(dealer)
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
                item.setToolTip(plain_tooltip(tip))
                if call.alert or call.explanation:
                    font = item.font()
                    font.setBold(True)
                    item.setFont(font)
            self.table.setItem(row, column, item)
        set_plain_text(self.notes_label, self._notes_text(board, calls, notes))
        self.notes_label.setVisible(bool(self.notes_label.text()))
        summary = result_summary(board, replay_state)
        if not calls:
            summary = "No auction recorded" + ("" if summary == "No contract" else f" · {summary}")
        self.summary.setText(summary)

    def set_dealer_first(self, on: bool) -> None:
        """Start the columns at the dealer (True) or fix them as W N E S; re-shows the board."""
        on = bool(on)
        if self.dealer_first_action.isChecked() != on:
            self.dealer_first_action.setChecked(on)  # comes back here through ``toggled``
            return
        if on != self.dealer_first:
            self.dealer_first = on
            self.set_board(self._board, self._replay_state)

    def column_letters(self) -> list[str]:
        """The column headings, left to right."""
        return [item.text() if (item := self.table.horizontalHeaderItem(c)) is not None else "" for c in range(4)]

    @staticmethod
    def _notes_text(board: Board, calls: list[Call], notes: dict[int, str]) -> str:
        lines: list[str] = []
        numbered = dict(notes)
        dealer = board.effective_dealer
        for index, call in enumerate(calls):
            if call.explanation and call.note is None:
                who = Seat((dealer + index) % 4).letter
                lines.append(f"{call.symbol_text()} ({who}): {pretty(call.explanation)}")
            elif call.explanation and call.note is not None:
                numbered.setdefault(call.note, call.explanation)
        lines += [f"{n}. {pretty(text)}" for n, text in sorted(numbered.items())]
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
        return tooltip_text(item.toolTip()) if item is not None else ""

    def summary_text(self) -> str:
        return self.summary.text()

    def notes_text(self) -> str:
        return self.notes_label.text()
