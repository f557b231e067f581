"""The double-dummy grid: tricks for N S E W in NT S H D C, makeable contracts highlighted."""

from __future__ import annotations

import html
import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ...model.cards import DISPLAY_STRAINS, Seat, Strain, Suit
from ...model.ddtable import DDTable
from ..plaintext import plain_label
from ..theme import INK, MAKE_BG, MAKE_FG, MUTED, UNKNOWN_GREY, suit_colour

ROW_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
UNKNOWN_TEXT = "—"
#: lines of text kept under the grid for the note and the par lines
INFO_LINES = 3
SUIT_FG = {
    Strain.NOTRUMP: INK,
    Strain.SPADES: suit_colour(Suit.SPADES),
    Strain.HEARTS: suit_colour(Suit.HEARTS),
    Strain.DIAMONDS: suit_colour(Suit.DIAMONDS),
    Strain.CLUBS: suit_colour(Suit.CLUBS),
}


#: a contract written with a suit letter ("4S", "3Hx") in a par line
CONTRACT = re.compile(r"\b([1-7])([SHDC])(?=[x+\-=\s;,.)]|X|$)")
#: a suit letter's symbol and its colour (HTML) in two and in four colours
_SUIT_HTML = {
    letter: (symbol, suit_colour(suit).name(), suit_colour(suit, True).name())
    for letter, symbol, suit in (
        ("S", "♠", Suit.SPADES),
        ("H", "♥", Suit.HEARTS),
        ("D", "♦", Suit.DIAMONDS),
        ("C", "♣", Suit.CLUBS),
    )
}


def contracts_html(text: str, four_colour: bool = False) -> str:
    """``text`` as rich text with "4S" written 4♠ (hearts and diamonds red), for the par line."""

    def symbol(m: re.Match) -> str:
        sym, two, four = _SUIT_HTML[m.group(2)]
        return f"{m.group(1)}<span style='color:{four if four_colour else two}'>{sym}</span>"

    lines = [CONTRACT.sub(symbol, html.escape(line)) for line in text.splitlines()]
    return "<br>".join(lines)


class DDGrid(QWidget):
    """A 4 x 5 table of double-dummy tricks with a note line and the par score."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._table: DDTable | None = None
        self._par_plain = ""
        self._four_colour = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        self.title = QLabel("<b>Double dummy</b>")
        layout.addWidget(self.title)
        self.grid = QTableWidget(4, 5, self)
        self.grid.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.grid.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.grid.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.grid.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.grid.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.grid.setShowGrid(True)
        for col, strain in enumerate(DISPLAY_STRAINS):
            item = QTableWidgetItem(strain.symbol)
            item.setForeground(SUIT_FG[strain])
            f = QFont()
            f.setBold(True)
            if strain != Strain.NOTRUMP:  # the symbols are small beside "NT" at the same size
                f.setPointSizeF(f.pointSizeF() * 1.3)
            item.setFont(f)
            self.grid.setHorizontalHeaderItem(col, item)
        for row, seat in enumerate(ROW_SEATS):
            item = QTableWidgetItem(seat.letter)
            self.grid.setVerticalHeaderItem(row, item)
        hh = self.grid.horizontalHeader()
        hh.setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        hh.setMinimumSectionSize(28)
        vh = self.grid.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(26)
        self.grid.setFixedHeight(26 * 4 + hh.sizeHint().height() + 4)
        self.grid.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        layout.addWidget(self.grid)
        # the note and par lines live in a box of steady height, so the panes below do not move
        # when solving starts, ends or par arrives
        self.info_box = QWidget(self)
        info = QVBoxLayout(self.info_box)
        info.setContentsMargins(0, 0, 0, 0)
        info.setSpacing(2)
        self.note = plain_label(QLabel(""))
        self.note.setWordWrap(True)
        self.note.setStyleSheet(f"color: {MUTED.name()};")
        info.addWidget(self.note)
        self.par = QLabel("")
        self.par.setWordWrap(True)
        self.par.setTextFormat(Qt.TextFormat.RichText)
        self.par.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        info.addWidget(self.par)
        info.addStretch(1)
        # at least three lines (a note and two par lines), more only when the text needs it
        self.info_box.setMinimumHeight(INFO_LINES * self.fontMetrics().lineSpacing() + 4)
        self.info_box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)
        layout.addWidget(self.info_box)
        self.set_table(None)

    def set_table(self, table: DDTable | None, note: str = "") -> None:
        """Show ``table`` (None or empty = nothing known) with an explanatory ``note``."""
        self._table = table
        bold = QFont()
        bold.setBold(True)
        for row, seat in enumerate(ROW_SEATS):
            for col, strain in enumerate(DISPLAY_STRAINS):
                value = table.get(seat, strain) if table is not None else None
                item = QTableWidgetItem(UNKNOWN_TEXT if value is None else str(value))
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if value is not None and value >= 7:
                    item.setBackground(MAKE_BG)
                    item.setForeground(MAKE_FG)
                    item.setFont(bold)
                    item.setToolTip(f"{value - 6}{strain.letter} makes for {seat.letter}")
                elif value is None:
                    item.setForeground(UNKNOWN_GREY)
                self.grid.setItem(row, col, item)
        if not note and (table is None or table.is_empty):
            note = "No double-dummy results in the file."
        self.note.setText(note)
        self.note.setVisible(bool(note))

    def set_four_colour(self, on: bool) -> None:
        """Diamonds orange and clubs green in the header, matching the diagram's four-colour suits."""
        self._four_colour = bool(on)
        self.set_par(self._par_plain)
        colours = dict(SUIT_FG)
        if on:
            colours[Strain.DIAMONDS] = suit_colour(Suit.DIAMONDS, True)
            colours[Strain.CLUBS] = suit_colour(Suit.CLUBS, True)
        for col, strain in enumerate(DISPLAY_STRAINS):
            item = self.grid.horizontalHeaderItem(col)
            if item is not None:
                item.setForeground(colours[strain])

    def set_par(self, text: str) -> None:
        """Show the par contract/score line (filled by the solver), contracts with suit symbols."""
        self._par_plain = text
        self.par.setText(contracts_html(text, self._four_colour))
        self.par.setVisible(bool(text))

    def table(self) -> DDTable | None:
        return self._table

    def cell_text(self, seat: Seat, strain: Strain) -> str:
        """The text shown for ``seat`` declaring in ``strain`` (for tests)."""
        row = ROW_SEATS.index(seat)
        col = DISPLAY_STRAINS.index(strain)
        item = self.grid.item(row, col)
        return item.text() if item is not None else ""

    def is_highlighted(self, seat: Seat, strain: Strain) -> bool:
        item = self.grid.item(ROW_SEATS.index(seat), DISPLAY_STRAINS.index(strain))
        return item is not None and item.background().color() == MAKE_BG

    def par_text(self) -> str:
        """The par line as plain text ("Par EW 420: EW 4S")."""
        return self._par_plain
