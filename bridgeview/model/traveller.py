"""Travellers: the results of one board at every table.

Scoring programs export one record per table: the same board number and deal
repeated with each table's contract and result (PBN allows it).  Such repeats
are results of one board, not duplicates (``validate`` says the same).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .auction import Contract
from .board import Board
from .cards import Seat
from .scoring import duplicate_score

#: sets larger than this are not searched for travellers (boards are read on demand there)
TRAVELLER_LIMIT = 100_000


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


def same_board(a: Board, b: Board) -> bool:
    """True when ``b`` is another table's record of board ``a``: same number, same deal."""
    return a.number is not None and a.number == b.number and a.deal.card_count > 0 and a.deal == b.deal


def traveller(boards: Sequence[Board], index: int) -> list[int]:
    """Positions of every record of the board at ``index`` (itself included), in file order;
    just ``[index]`` for a board played once or a set too large to search."""
    if not 0 <= index < len(boards) or len(boards) > TRAVELLER_LIMIT or getattr(boards, "is_lazy", False):
        return [index]  # a lazily read (fixed-record, deals-only) set would decode every record
    board = boards[index]
    if board.number is None or not board.deal.card_count:
        return [index]
    return [i for i in range(len(boards)) if i == index or same_board(board, boards[i])]


def traveller_positions(boards: Sequence[Board]) -> dict[int, tuple[int, int]]:
    """For every record of a board played at several tables: (its place among them, how many),
    by position in the set; empty for sets too large to search or read lazily."""
    if len(boards) > TRAVELLER_LIMIT or getattr(boards, "is_lazy", False):
        return {}
    groups: dict[tuple[int, tuple[int, int, int, int]], list[int]] = {}
    for i, b in enumerate(boards):
        if b.number is not None and b.deal.card_count:
            groups.setdefault((b.number, b.deal.hands), []).append(i)
    return {i: (k, len(g)) for g in groups.values() if len(g) > 1 for k, i in enumerate(g, 1)}


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
