"""Travellers: the results of one board at every table.

Scoring programs export one record per table: the same board number and deal
repeated with each table's contract and result (PBN allows it).  Such repeats
are tables of one board, not duplicates; which records they are is
:mod:`model.tables`' answer (:func:`traveller` asks it), and here each table's
result is scored.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .auction import Contract
from .board import Board
from .boardset import LazyBoardSet
from .cards import Seat
from .scoring import duplicate_score
from .tables import TABLE_SEARCH_LIMIT, Tables, set_tables


@dataclass(frozen=True)
class TravellerRow:
    """One table's result of a board."""

    index: int  # position of the record in the set
    contract: Contract | None
    declarer: Seat | None
    tricks: int | None
    ns_score: int | None  # North-South's score, None when contract, declarer or tricks are unknown

    @property
    def contract_text(self) -> str:
        return self.contract.symbol_text() if self.contract is not None else ""

    @property
    def result_text(self) -> str:
        """``=``, ``+1``, ``-2`` against the contract, else the tricks, else nothing."""
        if self.tricks is None or self.contract is None or self.contract.is_passed_out:
            return "" if self.tricks is None else str(self.tricks)
        diff = self.tricks - 6 - self.contract.level
        return "=" if diff == 0 else f"{diff:+d}"


def traveller(boards: Sequence[Board], index: int) -> list[int]:
    """Positions of every table of the board at ``index`` (itself included), in file order; just ``[index]``
    for a board played once, or in a set too large to search (the board list would read every board of a
    big text file to mark its rows)."""
    if not 0 <= index < len(boards):
        return [index]
    tables = board_tables(boards)
    return tables.tables_of(index) if tables is not None else [index]


def board_tables(boards: Sequence[Board]) -> Tables | None:
    """The set's boards and tables when it is small enough to search for them on screen (a lazily read set
    numbered by position is answered without reading it), else None."""
    if len(boards) > TABLE_SEARCH_LIMIT and not (isinstance(boards, LazyBoardSet) and boards.numbered_by_position):
        return None
    return set_tables(boards)


def row(board: Board, index: int) -> TravellerRow:
    """One table's contract, declarer, tricks and North-South score."""
    contract, declarer = board.contract_and_declarer()
    tricks = board.result
    score: int | None = None
    if contract is not None and contract.is_passed_out:
        score = 0
    elif contract is not None and declarer is not None and tricks is not None:
        vulnerable = board.effective_vulnerability.is_vulnerable(declarer)
        score = duplicate_score(contract, vulnerable, tricks)
        score = score if declarer.is_ns else -score
    return TravellerRow(index, contract, declarer, tricks, score)
