"""Board-level double-dummy helpers shared by ``bridgeview solve`` and the GUI.

Qt-free and endplay-free until something is actually solved.
"""

from __future__ import annotations

from ..model.board import Board
from ..model.cards import DISPLAY_STRAINS, Seat
from ..model.ddtable import DDTable
from ..model.text import plural
from . import dds


def has_table(board: Board) -> bool:
    """True when the board carries a complete DD table."""
    return board.dd is not None and board.dd.is_complete


def can_solve(board: Board) -> bool:
    return dds.unsolvable_reason(board.deal) is None


def needs_solving(board: Board) -> bool:
    """A board whose deal DDS can solve but whose DD table is missing or partial."""
    return not has_table(board) and can_solve(board)


def merged(stored: DDTable | None, solved: DDTable) -> DDTable:
    """The stored table with its unknown cells filled from ``solved`` (stored values win)."""
    if stored is None:
        return solved
    rows = [
        [stored.tricks[s][st] if stored.tricks[s][st] is not None else solved.tricks[s][st] for st in range(5)]
        for s in range(4)
    ]
    return DDTable.from_rows(rows)


def difference_note(stored: DDTable | None, solved: DDTable) -> tuple[str, set[tuple[int, int]]]:
    """("stored table differs from DDS in 2 cells", {(seat, strain), ...}); ("", set()) when they agree."""
    if stored is None:
        return "", set()
    diffs = stored.differences(solved)
    if not diffs:
        return "", set()
    n = len(diffs)
    cells = {(int(s), int(t)) for s, t, _, _ in diffs}
    return f"stored table differs from DDS in {plural(n, 'cell')}", cells


def board_par(board: Board, table: DDTable | None = None) -> tuple[int, list[str]] | None:
    """Par for the board's vulnerability and dealer, from ``table`` or the board's own; None if unknown."""
    table = table if table is not None else board.dd
    if table is None or not table.is_complete or not board.deal.is_complete:
        return None
    return dds.par(table, board.effective_vulnerability, board.effective_dealer)


def par_line(board: Board, table: DDTable | None = None) -> str:
    """``Par EW 420: EW 4S`` for under the grid, or ""."""
    table = table if table is not None else board.dd
    if table is None or not table.is_complete or not board.deal.is_complete:
        return ""
    return dds.par_text(table, board.effective_vulnerability, board.effective_dealer)


def makeable_line(table: DDTable | None) -> str:
    """Highest makeable contract of each side in each strain: ``Makes: NS 3NT 4S; EW 2H``."""
    if table is None or table.is_empty:
        return ""
    parts = []
    for side, seats in (("NS", (Seat.NORTH, Seat.SOUTH)), ("EW", (Seat.EAST, Seat.WEST))):
        bits = []
        for st in DISPLAY_STRAINS:
            vals = [t for s in seats if (t := table.tricks[s][st]) is not None]
            if vals and max(vals) >= 7:
                bits.append(f"{max(vals) - 6}{st.letter}")
        if bits:
            parts.append(f"{side} " + " ".join(bits))
    return "Makes: " + ("; ".join(parts) if parts else "nothing")


def par_tags(board: Board, table: DDTable | None = None) -> dict[str, str]:
    """PBN ``OptimumScore`` (``NS -420``) and ``ParContract`` (``EW 4S``) tags, or {} if par is unknown."""
    got = board_par(board, table)
    if got is None:
        return {}
    score, contracts = got
    if not contracts and score:  # a score without a contract (see par_text): no ParContract to say
        return {"OptimumScore": f"NS {score}"}
    return {"OptimumScore": f"NS {score}", "ParContract": "; ".join(contracts) if contracts else "Pass"}
