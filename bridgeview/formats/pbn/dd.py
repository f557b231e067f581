"""The three ways PBN files carry double-dummy tables.

* ``[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]`` (PBN 2.1):
  rows ``N NT 7`` in any order, columns found by name.  Written with one
  backslash (``\2R``, as real files and other programs have it, not PBN-escaped);
  the escaped ``\\2R`` reads the same.
* ``[DoubleDummyTricks "746b5747b55862758627"]`` (Bridge Composer): 20 hex
  digits, declarers N S E W, strains NT S H D C within each.
* ``%%!R 75974684697597468469`` lines (PSBridge, hidden in comments): 20 hex
  digits, declarers **E N W S**, strains NT S H D C.  We worked the order out
  from the 32 boards of ``zdenecek_psbridge_bigdeal12.pbn`` by solving each
  deal double-dummy: all 640 digits agree with this order and no other.
"""

from __future__ import annotations

import re
from operator import itemgetter

from ...model.cards import Seat, Strain
from ...model.ddtable import DDTable

_HEX20 = re.compile(r"[0-9A-Fa-f]{20}")
_STRAINS_NT_FIRST = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
BC_SEATS = (Seat.NORTH, Seat.SOUTH, Seat.EAST, Seat.WEST)
PSBRIDGE_SEATS = (Seat.EAST, Seat.NORTH, Seat.WEST, Seat.SOUTH)
_STRAIN_TOKENS = {
    "NT": Strain.NOTRUMP,
    "N": Strain.NOTRUMP,
    "S": Strain.SPADES,
    "H": Strain.HEARTS,
    "D": Strain.DIAMONDS,
    "C": Strain.CLUBS,
}
ORT_HEADER = "Declarer;Denomination\\2R;Result\\2R"
#: look-ups for the cells of a table (every board of an exported file has one: they are read a lot)
_COLUMNS: dict[str, list[str]] = {}
_SEAT_INDEX = {"N": 0, "E": 1, "S": 2, "W": 3}
_STRAIN_INDEX = {k: int(v) for k, v in _STRAIN_TOKENS.items()}
_TRICKS = {str(n): n for n in range(14)}


#: the declarer and strain columns of a table written in our order (N S E W, NT S H D C each), the order
#: almost every file has: such a table's tricks are taken by position
_CANONICAL_SEATS = [seat.letter for seat in BC_SEATS for _strain in _STRAINS_NT_FIRST]
_CANONICAL_STRAINS = [strain.letter for _seat in BC_SEATS for strain in _STRAINS_NT_FIRST]
#: for each seat (N E S W), the positions of its five strains (in Strain order) among the 20 tricks
_CANONICAL_ROWS = tuple(
    itemgetter(*(BC_SEATS.index(seat) * 5 + _STRAINS_NT_FIRST.index(strain) for strain in Strain)) for seat in Seat
)


def parse_hex20(text: str, seats: tuple[Seat, ...]) -> DDTable | None:
    """A 20-hex-digit table with ``seats`` in that order, NT S H D C each; None if malformed."""
    text = text.strip()
    if not _HEX20.fullmatch(text):
        return None
    rows: list[list[int | None]] = [[None] * 5 for _ in range(4)]
    for i, seat in enumerate(seats):
        for j, strain in enumerate(_STRAINS_NT_FIRST):
            v = int(text[5 * i + j], 16)
            rows[seat][strain] = v if v <= 13 else None
    return DDTable.from_rows(rows)


def parse_result_table(header: str, tokens: list[str]) -> tuple[DDTable | None, str | None]:
    """An OptimumResultTable from its column header and cell tokens; (table, problem)."""
    names = _COLUMNS.get(header)
    if names is None:
        names = [c.split("\\")[0].lstrip("+-") for c in header.split(";")]
        if len(_COLUMNS) < 100:
            _COLUMNS[header] = names
    try:
        di, si, ri = names.index("Declarer"), names.index("Denomination"), names.index("Result")
    except ValueError:
        return None, f"OptimumResultTable needs Declarer, Denomination and Result columns, not {header!r}"
    width = len(names)
    if width == 3 and (di, si, ri) == (0, 1, 2) and len(tokens) == 60:
        table = _canonical_table(tokens)
        if table is not None:
            return table, None
    if len(tokens) % width:
        return None, f"OptimumResultTable has {len(tokens)} entries, not a multiple of its {width} columns"
    rows: list[list[int | None]] = [[None] * 5 for _ in range(4)]
    seats, strains, tricks = _SEAT_INDEX.get, _STRAIN_INDEX.get, _TRICKS.get
    for k in range(0, len(tokens), width):
        d, s, r = seats(tokens[k + di]), strains(tokens[k + si]), tricks(tokens[k + ri])
        if d is None or s is None or r is None:
            s = _STRAIN_INDEX.get(tokens[k + si].upper())
            r = int(tokens[k + ri]) if tokens[k + ri].isdigit() else None
            if d is None or s is None or r is None or r > 13:
                return None, f"bad OptimumResultTable row: {' '.join(tokens[k : k + width])}"
        rows[d][s] = r
    return DDTable(tuple(map(tuple, rows))), None


def _canonical_table(tokens: list[str]) -> DDTable | None:
    """The table of 20 rows ``declarer strain tricks`` in our order, each cell once; None for any other."""
    if tokens[0::3] != _CANONICAL_SEATS or tokens[1::3] != _CANONICAL_STRAINS:
        return None
    tricks = list(map(_TRICKS.get, tokens[2::3]))
    if None in tricks:
        return None
    return DDTable(tuple(row(tricks) for row in _CANONICAL_ROWS))


def result_table_rows(dd: DDTable) -> list[str]:
    """Rows ``N NT  7`` for the known cells, declarers N S E W, strains NT S H D C."""
    out = []
    for seat in BC_SEATS:
        for strain in _STRAINS_NT_FIRST:
            v = dd.tricks[seat][strain]
            if v is not None:
                out.append(f"{seat.letter} {strain.letter:>2} {v:>2}")
    return out
