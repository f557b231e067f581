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

from operator import itemgetter

from ...model.cards import Seat, Strain
from ...model.ddtable import DDTable

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


#: a hex digit to its tricks (a digit past 13 is unknown)
_HEX_TRICKS: dict[str, int | None] = {c: (int(c, 16) if int(c, 16) <= 13 else None) for c in "0123456789abcdefABCDEF"}
#: the hex digits 0-13 (``bytes.translate`` deletes them: a table of only these is read a byte a cell), and each
#: hex digit's byte to its value (other bytes stay as they are: only digits 0-13 are translated)
_DIGITS_TO_13 = b"0123456789abcdABCD"
_HEX_VALUES = bytes.maketrans(_DIGITS_TO_13, bytes(range(10)) + bytes(range(10, 14)) * 2)
#: per order of declarers, for each seat (N E S W), the positions of its five strains (in Strain order)
_HEX_ROWS: dict[tuple[Seat, ...], tuple[itemgetter[tuple[int | None, ...]], ...]] = {}


def parse_hex20(text: str, seats: tuple[Seat, ...]) -> DDTable | None:
    """A 20-hex-digit table with ``seats`` in that order, NT S H D C each; None if malformed."""
    if len(text) != 20:
        text = text.strip()
        if len(text) != 20:
            return None
    rows = _HEX_ROWS.get(seats)
    if rows is None:
        rows = _HEX_ROWS[seats] = tuple(
            itemgetter(*(seats.index(seat) * 5 + _STRAINS_NT_FIRST.index(strain) for strain in Strain)) for seat in Seat
        )
    north, east, south, west = rows
    if text.isascii():
        raw = text.encode("ascii")
        if not raw.translate(None, _DIGITS_TO_13):  # every digit 0-13 (a table of known tricks): bytes of tricks
            tricks: bytes | list[int | None] = raw.translate(_HEX_VALUES)
            return DDTable((north(tricks), east(tricks), south(tricks), west(tricks)))
    try:  # twenty characters, each a hex digit (the keys of _HEX_TRICKS): no pattern to run first
        tricks = list(map(_HEX_TRICKS.__getitem__, text))
    except KeyError:
        return None
    return DDTable((north(tricks), east(tricks), south(tricks), west(tricks)))


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
    if width == 3 and (di, si, ri) == (0, 1, 2) and len(tokens) <= 60 and not len(tokens) % 3:
        table = _table_in_order(tokens)
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


def _table_in_order(tokens: list[str]) -> DDTable | None:
    """The table of up to 20 rows ``declarer strain tricks``, each cell once at most, in an order met before
    (ours, N S E W and NT S H D C each, first: almost every file writes one order in every game; a partial
    table, N and W only, too), its tricks taken by position; None for a table in an order not known (yet)."""
    seats, strains = tokens[0::3], tokens[1::3]
    rows: tuple[itemgetter[tuple[int | None, ...]], ...]
    global _LAST_ORDER
    last = _LAST_ORDER
    if seats == _CANONICAL_SEATS and strains == _CANONICAL_STRAINS:
        rows = _CANONICAL_ROWS
    elif last is not None and seats == last[0] and strains == last[1]:  # the order of the table before (a file's)
        rows = last[2]
    else:
        key = (tuple(seats), tuple(strains))
        known = _ORDERS.get(key)
        if known is None:
            known = _ORDERS[key] = _order_rows(seats, strains) if len(_ORDERS) < 64 else None
        if known is None:
            return None
        rows = known
        _LAST_ORDER = (seats, strains, rows)  # (one tuple: a reader in another thread sees the old or the new)
    try:
        tricks: list[int | None] = list(map(_TRICKS.__getitem__, tokens[2::3]))
    except KeyError:  # not a number of tricks
        return None
    tricks.append(None)  # (the cells no row gives)
    north, east, south, west = rows
    return DDTable((north(tricks), east(tricks), south(tricks), west(tricks)))


#: the last order of rows met that is not ours: (declarers, strains, rows as in :data:`_ORDERS`)
_LAST_ORDER: tuple[list[str], list[str], tuple[itemgetter[tuple[int | None, ...]], ...]] | None = None


def _order_rows(seats: list[str], strains: list[str]) -> tuple[itemgetter[tuple[int | None, ...]], ...] | None:
    """For each seat (N E S W), the positions of its five strains (in Strain order) among the rows of a table
    in this order (a cell no row gives: the position after the last row); None unless the rows name each cell
    once at most, as written (``N``, ``NT``...)."""
    where: dict[tuple[int, int], int] = {}
    for k, (seat, strain) in enumerate(zip(seats, strains, strict=True)):
        d, s = _SEAT_INDEX.get(seat), _STRAIN_INDEX.get(strain)
        if d is None or s is None or (d, s) in where:
            return None
        where[d, s] = k
    missing = len(seats)
    return tuple(itemgetter(*(where.get((seat, strain), missing) for strain in range(5))) for seat in range(4))


#: orders of table rows met (other than ours), as :func:`_order_rows` gives them (None: no such order)
_ORDERS: dict[tuple[tuple[str, ...], tuple[str, ...]], tuple[itemgetter[tuple[int | None, ...]], ...] | None] = {}


def result_table_rows(dd: DDTable) -> list[str]:
    """Rows ``N NT  7`` for the known cells, declarers N S E W, strains NT S H D C."""
    out = []
    for seat in BC_SEATS:
        for strain in _STRAINS_NT_FIRST:
            v = dd.tricks[seat][strain]
            if v is not None:
                out.append(f"{seat.letter} {strain.letter:>2} {v:>2}")
    return out


def merged(first: DDTable, other: DDTable) -> DDTable:
    """``first`` completed by ``other`` where it has no figure (a partial table filled in by another)."""
    if first == other or first.is_complete:
        return first
    rows = [
        [a if a is not None else b for a, b in zip(ra, rb, strict=True)]
        for ra, rb in zip(first.tricks, other.tricks, strict=True)
    ]
    return DDTable.from_rows(rows)
