"""What hand records hold, whatever draws them: the boards in order, their DD tables and the title.

Qt-free, so ``bridgeview print -o set.html`` and the PDF painter in ``ui.printing.hand_records``
share one preparation (boards chosen and ordered, missing tables solved with a time
limit) and one wording of every line on the sheet.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model.board import Board
from ..model.boardset import Boards, is_board_source
from ..model.cards import DISPLAY_SUITS, RANK_CHARS, Seat, Strain, Suit
from ..model.ddtable import DDTable
from ..model.deal import Deal
from ..model.tables import boards_to_print

if TYPE_CHECKING:
    from ..solve.print_tables import DealSolver

#: boards a page, and the (columns, rows) of the grid that holds them
PER_PAGE = (1, 2, 4, 6, 9)
GRIDS = {1: (1, 1), 2: (1, 2), 4: (2, 2), 6: (2, 3), 9: (3, 3)}
#: paper sizes in millimetres (portrait)
PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN_MM = 12.0
#: hand records for more boards than this are not made (a sheet of 10 million boards helps nobody)
MAX_BOARDS = 5_000
#: seconds the solver gets a deal; equal to solve.timed.DEFAULT_TIMEOUT (a test keeps them equal), written
#: here so that the options need no solver import
DEFAULT_TIME_LIMIT = 20.0
SEAT_NAMES = ("North", "East", "South", "West")
DD_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
DD_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
VOID = "—"


@dataclass
class HandRecordOptions:
    """How the sheets look; ``title`` is the line at the top of every page; ``ten`` how the ten is
    written ("10", or "T" when the window is set so)."""

    title: str = ""
    per_page: int = 4
    dd: bool = True
    page_size: str = "A4"
    landscape: bool = False
    four_colour: bool = False
    time_limit: float = DEFAULT_TIME_LIMIT
    ten: str = "10"


@dataclass
class PrintData:
    """The boards to print with their DD tables and what the pages must say about missing ones."""

    boards: list[Board]
    tables: dict[int, DDTable] = field(default_factory=dict)
    notes: dict[int, str] = field(default_factory=dict)  # board index -> why it has no table
    #: what the sheets leave out of the file, as sentences (the other tables of a board, boards without cards)
    notices: list[str] = field(default_factory=list)


def default_title(boards: Boards, path: str | os.PathLike[str] | None = None) -> str:
    """``Event · Site · Date`` from the file (or its first board's tags), skipping PBN's ``?``; without an
    event, the file's name (``path``, extension dropped) stands in its place, so no sheet is headed just
    "Hand records"."""
    info = boards.info if is_board_source(boards) else None
    first = boards[0] if len(boards) else None
    parts = []
    said = (info.event, info.site, info.date) if info is not None else (None, None, None)
    for attr, tag, value in zip(("event", "site", "date"), ("Event", "Site", "Date"), said, strict=True):
        if not _says_something(value) and first is not None:
            value = first.tags.get(tag)
        if _says_something(value):
            parts.append(str(value).strip())
        elif attr == "event" and path:
            parts.append(os.path.splitext(os.path.basename(os.fspath(path)))[0])
    return " · ".join(parts)


def _says_something(value: str | None) -> bool:
    return bool(value) and str(value).strip() not in ("?", "#", "")


def page_count(boards: int, per_page: int) -> int:
    return max(1, -(-boards // per_page))


def prepare(
    boards: Boards,
    options: HandRecordOptions,
    *,
    progress: Callable[[int, int], bool | None] | None = None,
    solve: DealSolver | None = None,
) -> PrintData:
    """The boards in number order with their tables: stored ones, the rest solved (unless ``dd`` is off).
    Each board is printed once (a team match's rooms, a traveller's tables hold it again: :mod:`model.tables`),
    and boards without cards are left out; ``notices`` says so."""
    ordered, notices = boards_to_print(boards)
    data = PrintData(ordered, notices=notices)
    if not options.dd:
        return data
    from ..solve.print_tables import PrintTables, tables_for_print

    got: PrintTables = tables_for_print(ordered, progress=progress, time_limit=options.time_limit, solve=solve)
    data.tables = got.tables
    if got.overran is not None:
        late = ordered[got.overran]
        for i in got.skipped:
            data.notes[i] = (
                f"double-dummy analysis stopped: board {late.number} took longer than {options.time_limit:g} s"
            )
    elif got.cancelled:
        for i in got.skipped:
            data.notes[i] = "double-dummy analysis cancelled"
    for i, b in enumerate(ordered):
        if i not in data.tables and i not in data.notes and b.deal.card_count:
            data.notes[i] = "no double-dummy analysis: the deal is not complete"
    return data


def board_heading(board: Board, index: int) -> str:
    """``Board 7``, or ``Record 3`` for a board without a number (the third of the set)."""
    return f"Board {board.number}" if board.number is not None else f"Record {index + 1}"


def holdings(deal: Deal, seat: int, ten: str = "10") -> list[tuple[Suit, str]]:
    """A hand as the sheets print it: (suit, ``A K 10 5``) for spades, hearts, diamonds, clubs; a void is a dash."""
    lines = []
    for suit in DISPLAY_SUITS:
        ranks = [RANK_CHARS[c % 13] for c in deal.cards(seat) if c.suit == suit]
        lines.append((suit, " ".join(ten if r == "T" else r for r in ranks) if ranks else VOID))
    return lines


def makeable(table: DDTable, seat: Seat, strain: Strain) -> str:
    """A cell of the makeable-contracts table: the level ``seat`` makes in ``strain``, or a dash."""
    tricks = table.tricks[seat][strain]
    return "–" if tricks is None or tricks < 7 else str(tricks - 6)


def par_text(board: Board, table: DDTable) -> str:
    """``Par NS +620: NS 4♠`` style text, or "" when par cannot be worked out."""
    if not table.is_complete or not board.deal.is_complete:
        return ""
    from ..solve.boards import par_line

    try:
        text = par_line(board, table)
    except Exception:  # (par needs no DDS now; whatever went wrong there, the table still prints)
        return ""
    for st in (Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS):
        for level in range(1, 8):
            text = text.replace(f"{level}{st.letter}", f"{level}{st.symbol}")
    return text
