"""A big PBN file converted to a fixed-record format in chunks, without a Board a game.

A lazily read PBN file (:mod:`.lazy`) converted to ZRD or ZBD the general way
decodes every game twice (once for the check, once for the writer) with the
careful reader.  :mod:`..chunked` runs the pass; this module reads PBN's chunks.
Deal files from generators and from our own export hold little but the export
roster, a deal and perhaps an OptimumResultTable, so here each
game is first tried against one regular expression of that shape; the deals of
the games that match are parsed together with numpy, and only the other games
go through the careful reader.  The losses reported and the bytes written are
those of the general path (``codec.check`` then ``codec.write``); the tests
compare both on varied files.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, Any

from ...model.boardset import BoardSource
from .. import chunked
from ..bulk import ABSENT, DD_UNKNOWN, BulkChunk
from ..chunked import VUL_CODES, finish_chunk, names_array, rank_table
from ..codec import FAST_TARGETS, BridgeCodec, WriteOptions, meaningful
from . import dd as pbn_dd
from .lazy import is_lazy_pbn
from .lex import escape
from .write import ROSTER

if TYPE_CHECKING:
    import mmap

    import numpy as np

    from ..chunked import Tally
    from .lazy import LazyPbnSet

    #: getters of the wanted and of the free-tag values from a match's groups
    _Getters = tuple[Callable[[tuple[Any, ...]], Any], Callable[[tuple[Any, ...]], Any]]
    #: a learned game pattern's fullmatch, with its getters
    _Learned = tuple[Callable[[bytes], re.Match[bytes] | None], _Getters]


MAX_SHAPES = 4  # shapes of game read with numpy
_MODELLED_ROSTER = frozenset(("Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result"))
_VALUE = rb'"(?P<%s>[^"\\\r\n]*)"'
_ORT_HEAD = rb'\[OptimumResultTable "Declarer;Denomination\\\\?2R;Result\\\\?2R"\][ \t]*\r?\n'  # \2R or \\2R
_ORT_BODY = rb"(?P<ort>[^\[\]\"{};%]+)"
_GAME = re.compile(
    b"".join(rb"(?:\[" + name.encode() + rb" " + _VALUE % name.encode() + rb"\][ \t]*\r?\n)?" for name in ROSTER)
    + rb"(?:"
    + _ORT_HEAD
    + _ORT_BODY
    + rb")?"
)
_ROWS = re.compile(rb"(?:[ \t]*[NESW][ \t]+(?:NT|nt|[SHDCNshdcn])[ \t]+\d{1,2}[ \t]*\r?\n)+")
_ROW = re.compile(rb"([NESW])[ \t]+(NT|nt|[SHDCNshdcn])[ \t]+(\d{1,2})")
_SEATS = {b"N": 0, b"E": 1, b"S": 2, b"W": 3}
_STRAINS = {b"NT": 4, b"N": 4, b"S": 3, b"H": 2, b"D": 1, b"C": 0}
_NOTE_TAGS = tuple(name for name in ROSTER if name not in _MODELLED_ROSTER)
_WANTED = ("Deal", "Board", "Dealer", "Vulnerable", "Declarer", "Contract", "Result", "ort")
_SEATS_ANY = {b"N": 0, b"E": 1, b"S": 2, b"W": 3, b"n": 0, b"e": 1, b"s": 2, b"w": 3}


#: sections no game pattern takes (a game with one is read carefully without trying them: a failed match costs)
_BID, _PLAYED = b"[Auction ", b"[Play "


def applies(doc: BoardSource, codec: BridgeCodec, options: WriteOptions | None) -> bool:
    """True for an unedited lazy PBN set going to a plain fixed-record format."""
    return is_lazy_pbn(doc) and not doc.edited and codec.name in FAST_TARGETS and not doc.index.inherits


def _notes(values: tuple[bytes | None, ...], header: dict[str, str | None], encoding: str) -> tuple[str, ...]:
    """The names of the roster's free tags whose values make the board lose "notes and tags" (none: ``()``)."""
    names = []
    for name, v in zip(_NOTE_TAGS, values, strict=True):
        if v and v != b"?":
            s = v.decode(encoding, errors="replace")
            if meaningful(s) and header.get(name) != s:
                names.append(name)
    return tuple(names)


def parse_deals(deals: list[bytes] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Owners (k, 52) of ``N:`` deal strings of complete deals written the common way (69 bytes,
    one space between hands), and a boolean (k,) of the rows that were; others need the reader."""
    import numpy as np

    k = len(deals)
    if not k:
        return np.full((0, 52), ABSENT, dtype=np.uint8), np.zeros(0, dtype=bool)
    if isinstance(deals, np.ndarray):  # already (k, 69) bytes
        arr = deals
    else:
        fixed = [d if len(d) == 69 else b"-" * 69 for d in deals]
        arr = np.frombuffer(b"".join(fixed), np.uint8).reshape(k, 69)
    ok = (arr[:, 0] == ord("N")) & (arr[:, 1] == ord(":"))
    ok &= (arr[:, 18] == 32) & (arr[:, 35] == 32) & (arr[:, 52] == 32)
    hands = np.concatenate((arr[:, 2:], np.full((k, 1), 32, np.uint8)), axis=1).reshape(k, 4, 17)[:, :, :16]
    dots = hands == ord(".")
    ndots = dots_before(dots)
    ok &= (ndots[:, :, -1] == 3).all(axis=1)
    rank = rank_table()[hands]
    ok &= (dots | (rank >= 0)).all(axis=(1, 2))
    cards = (3 - ndots.astype(np.int32)) * 13 + rank  # S H D C -> suits 3 2 1 0
    # a card after a fourth dot has no suit: it must not land in another row's slots (its row is refused anyway)
    valid = ~dots & (rank >= 0) & (ndots <= 3)
    # scatter each card's hand into its row; dots and bad characters land in a spare slot
    flat = np.where(valid, cards + 52 * np.arange(k, dtype=np.int32)[:, None, None], 52 * k)
    spread = np.full(52 * k + 1, ABSENT, dtype=np.uint8)
    spread[flat.ravel()] = np.broadcast_to(np.arange(4, dtype=np.uint8)[None, :, None], flat.shape).ravel()
    owners = spread[:-1].reshape(k, 52)
    ok &= valid.sum(axis=(1, 2)) == 52
    ok &= (owners != ABSENT).all(axis=1)  # 52 cards covering all 52: each exactly once
    return owners, ok


#: a 64-bit word's eight bytes summed into each byte from the lowest up (a multiplication's partial sums)
_BYTE_SUMS = 0x0101_0101_0101_0101


def dots_before(dots: np.ndarray) -> np.ndarray:
    """``cumsum(dots, axis=2)`` as uint8 for (k, 4, 16) booleans: the dots up to each byte of a hand, its suit.

    Each hand's 16 flags are two 64-bit words; a word times 0x0101...01 holds in each byte the sum of the bytes
    up to it (no byte passes 8, so nothing carries into the next), and the second word adds the first's total.
    Four numpy calls instead of the sixteen of :func:`..chunked.running_count`."""
    import numpy as np

    words = np.ascontiguousarray(dots).view("<u8") * np.uint64(_BYTE_SUMS)  # (k, 4, 2), the bytes in file order
    words[:, :, 1] += (words[:, :, 0] >> np.uint64(56)) * np.uint64(_BYTE_SUMS)
    return words.astype("<u8", copy=False).view(np.uint8).reshape(dots.shape)


def _getters(pattern: re.Pattern[bytes]) -> _Getters:
    """Getters of the wanted and the free-tag values from ``match.groups()`` (faster than names)."""
    index = pattern.groupindex
    return (
        operator.itemgetter(*(index[name] - 1 for name in _WANTED)),
        operator.itemgetter(*(index[name] - 1 for name in _NOTE_TAGS)),
    )


def _learn(m: re.Match[bytes]) -> re.Pattern[bytes]:
    """A pattern for games with exactly the tags of the game ``m`` matched (no optional parts:
    several times faster than the general pattern, and most files repeat one shape)."""
    present = m.groupdict()
    parts = [
        rb"\[" + name.encode() + rb" " + _VALUE % name.encode() + rb"\][ \t]*\r?\n"
        for name in ROSTER
        if present.get(name) is not None
    ]
    if present.get("ort") is not None:
        parts.append(_ORT_HEAD + _ORT_BODY)
    # the tags this shape lacks, as empty groups (an empty value reads as an absent one)
    parts.extend(b"(?P<" + name.encode() + b">)" for name in (*ROSTER, "ort") if present.get(name) is None)
    return re.compile(b"".join(parts))


@cache
def _row_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Byte tables for fixed-width DD rows (seat letter, two strain bytes, digit; -1 = none), built on first use."""
    import numpy as np

    strain_at = np.full((256, 256), -1, dtype=np.int8)  # two bytes of a fixed-width row -> strain
    for two, strain in ((b"NT", 4), (b" S", 3), (b" H", 2), (b" D", 1), (b" C", 0), (b" N", 4)):
        strain_at[two[0], two[1]] = strain
    seat_at = np.full(256, -1, dtype=np.int8)
    for ch, seat in ((b"N", 0), (b"E", 1), (b"S", 2), (b"W", 3)):
        seat_at[ch[0]] = seat
    digit = np.full(256, -1, dtype=np.int16)
    for d in range(10):
        digit[ord(str(d))] = d
    return strain_at, seat_at, digit


def _fixed_tables(bodies: list[bytes] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DD tables (k, 4, 5) from OptimumResultTable bodies of 20 rows ``N NT 11`` (8 bytes each, as
    we and most programs write them), and a boolean (k,) of the bodies that were so.

    Bodies whose rows give the cells in the first body's order (all but the digits the same: one
    compare of twenty 8-byte words) only have their digits read; the others are sorted out cell by cell."""
    import numpy as np

    k = len(bodies)
    if not k:
        return np.full((0, 4, 5), DD_UNKNOWN, dtype=np.uint8), np.zeros(0, dtype=bool)
    if isinstance(bodies, np.ndarray):  # already (k, 160) bytes
        arr = np.ascontiguousarray(bodies).reshape(k, 20, 8)
    else:
        arr = np.frombuffer(b"".join(bodies), np.uint8).reshape(k, 20, 8)
    frame = arr.reshape(k, 160).view(np.uint64) & _FRAME
    cell = _frame_cells(frame[0])
    if cell is None:
        return _tables_any_order(arr)
    same = (frame == frame[0]).all(axis=1)
    _strain_at, _seat_at, digit = _row_tables()
    tens = digit[arr[:, :, 5]]
    ones = digit[arr[:, :, 6]]
    value = np.where(tens >= 0, tens * 10, 0) + ones
    ok = same & ((ones >= 0) & ((tens >= 0) | (arr[:, :, 5] == 32)) & (value <= 13)).all(axis=1)
    cells = np.full((k, 20), DD_UNKNOWN, dtype=np.uint8)
    cells[:, cell] = np.where(ok[:, None], value, DD_UNKNOWN).astype(np.uint8)
    dd = cells.reshape(k, 4, 5)
    other = np.flatnonzero(~same)
    if other.shape[0]:
        dd[other], ok[other] = _tables_any_order(arr[other])
    return dd, ok


def _frame_cells(frame: np.ndarray) -> np.ndarray | None:
    """The cells (seat * 5 + strain) of the 20 rows of a table body whose rows are laid out as ``frame`` says (its
    20 words, digits masked out), or None when they are not a table's rows each cell once; remembered, as a file
    has one or two layouts of its tables."""
    import numpy as np

    key = frame.tobytes()
    if key not in _FRAMES:
        rows = np.frombuffer(key, np.uint8).reshape(1, 20, 8).copy()
        rows[:, :, 5:7] = np.frombuffer(b" 0", np.uint8)  # any count: only the layout is asked about
        if len(_FRAMES) > 64:
            _FRAMES.clear()
        strain_at, seat_at, _digit = _row_tables()
        cell = seat_at[rows[0, :, 0]].astype(np.int64) * 5 + strain_at[rows[0, :, 2], rows[0, :, 3]]
        _FRAMES[key] = cell if bool(_tables_any_order(rows)[1][0]) else None
    return _FRAMES[key]


#: :func:`_frame_cells` by the layout's bytes
_FRAMES: dict[bytes, np.ndarray | None] = {}

#: 8-byte row ``N NT 11\n`` with its two digit bytes masked out (a little-endian word)
_FRAME = ~((0xFF << 40) | (0xFF << 48)) & 0xFFFF_FFFF_FFFF_FFFF


def _tables_any_order(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_fixed_tables` for (k, 20, 8) bodies whose rows may come in any order."""
    import numpy as np

    k = arr.shape[0]
    seat = _row_tables()[1][arr[:, :, 0]]
    strain = _row_tables()[0][arr[:, :, 2], arr[:, :, 3]]
    tens = _row_tables()[2][arr[:, :, 5]]
    ones = _row_tables()[2][arr[:, :, 6]]
    value = np.where(tens >= 0, tens * 10, 0) + ones
    ok = (seat >= 0) & (strain >= 0) & (ones >= 0) & ((tens >= 0) | (arr[:, :, 5] == 32))
    ok &= (arr[:, :, 1] == 32) & (arr[:, :, 4] == 32) & (arr[:, :, 7] == 10) & (value <= 13)
    ok = ok.all(axis=1)
    cell = seat.astype(np.int32) * 5 + strain
    ordered = np.sort(cell, axis=1)
    ok &= (ordered[:, 1:] != ordered[:, :-1]).all(axis=1)  # a cell given twice: the reader decides
    flat = np.where(ok[:, None], cell + 20 * np.arange(k, dtype=np.int32)[:, None], 20 * k)
    spread = np.full(20 * k + 1, DD_UNKNOWN, dtype=np.uint8)
    spread[flat.ravel()] = value.astype(np.uint8).ravel()
    dd = spread[:-1].reshape(k, 4, 5)
    return dd, ok


def _chunk(
    doc: LazyPbnSet, a: int, b: int, tally: Tally, header: dict[str, str | None], state: dict[str, Any]
) -> BulkChunk:
    """Boards ``a`` to ``b`` as chunks_from_boards makes them, tallying what the check counts: the games of
    the shapes learned so far all at once with numpy, then the other plain games a pattern at a time, then
    the rest through the careful reader (:func:`..chunked.finish_chunk`)."""
    import numpy as np

    k = b - a
    numbers = np.zeros(k, np.int64)
    dd = np.full((k, 4, 5), DD_UNKNOWN, dtype=np.uint8)
    owners = np.full((k, 52), ABSENT, dtype=np.uint8)
    shapes: list[_Shape] = state.setdefault("shapes", [])
    starts = doc.index.starts[a:b].tolist()
    cends = doc.index.cends[a:b].tolist()
    if state.get("learned") is None:  # learn the pattern and a shape from the first game the pattern takes
        _learn_first(doc.index.buf, starts, cends, shapes, state)
    remaining = np.ones(k, dtype=bool)
    counted: list[tuple[Any, ...]] = []  # what the tally hears, once the games without cards are known
    for shape in shapes:  # the games of the usual shapes, all at once
        done_rows, number, dealer, vul, shaped_owners, shaped_dd = _shaped_rows(doc, a, b, shape, remaining)
        owners[done_rows] = shaped_owners
        dd[done_rows] = shaped_dd
        numbers[done_rows] = np.where(number >= 0, number, a + done_rows + 1)
        counted.append(
            (
                done_rows,
                number,
                dealer,
                vul,
                (shaped_dd != DD_UNKNOWN).any(axis=(1, 2)),
                np.zeros(done_rows.shape[0], dtype=bool),
            )
        )
        remaining[done_rows] = False
    plain = _PlainGames()
    rest = np.flatnonzero(remaining).tolist()
    if rest:  # (most chunks of a generated file have none left: the numpy calls of an empty round are saved)
        plain.match(doc, (starts, cends), rest, dd, header, state)
        counted.append(plain.parsed_into(a, owners, dd, numbers))
    owners, dd, numbers = finish_chunk(doc, a, k, plain.slow, counted, owners, dd, numbers, tally, state)
    any_dd = bool((dd != DD_UNKNOWN).any())
    return BulkChunk(owners, dd if any_dd else None, numbers)


class _PlainGames:
    """The games of a chunk that no learned shape took, matched a game at a time by the learned (else the
    general) pattern: what the matched ones hold, row by row, and the rows left to the careful reader."""

    def __init__(self) -> None:
        self.deals: list[bytes] = []
        self.rows: list[int] = []
        self.numbers: list[int] = []  # -1 for none
        self.dealers: list[int] = []
        self.vuls: list[int] = []
        self.notes: list[tuple[str, ...]] = []
        #: 160-byte fixed-layout OptimumResultTables, parsed together, and their rows
        self.fixed_bodies: list[bytes] = []
        self.fixed_rows: list[int] = []
        self.slow: list[int] = []

    def match(
        self,
        doc: LazyPbnSet,
        bounds: tuple[list[int], list[int]],
        rows: list[int],
        dd: np.ndarray,
        header: dict[str, str | None],
        state: dict[str, Any],
    ) -> None:
        """Match each game of ``rows`` (chunk rows; ``bounds`` the chunk's games' starts and ends), keeping
        what a plain one holds (a table in another layout goes straight into ``dd``) and sending the others
        to ``slow``."""
        idx = doc.index
        buf = idx.buf
        starts, cends = bounds
        learned: _Learned | None = state.get("learned")  # (fullmatch of the learned pattern, its getters)
        shapes: list[_Shape] = state["shapes"]
        note_cache: dict[tuple[bytes | None, ...], tuple[str, ...]] = state.setdefault("notes", {})
        general, gen_get = _GAME.fullmatch, _getters(_GAME)
        tries = 0
        for r in rows:
            text = buf[starts[r] : cends[r]]
            if _PLAYED in text or _BID in text:  # no pattern takes an auction or play: the careful reader, untried
                self.slow.append(r)
                continue
            m = learned[0](text) if learned is not None else None
            if m is not None and learned is not None:
                wanted, free = learned[1]
            else:
                m = general(text)
                if m is None:
                    self.slow.append(r)
                    continue
                wanted, free = gen_get
                if learned is None:
                    pattern = _learn(m)
                    learned = state["learned"] = (pattern.fullmatch, _getters(pattern))
            if len(shapes) < MAX_SHAPES and tries < 256:  # another common shape (with or without a table, say)
                tries += 1
                _add_shape(shapes, m, text)
            groups = m.groups()
            deal, board, dealer, vul, decl, con, res, ort = wanted(groups)
            if not deal or decl and decl != b"?" or con and con != b"?" or res and res != b"?":
                self.slow.append(r)
                continue
            fields = _plain_fields(board, dealer, vul, _SEATS_ANY, VUL_CODES)
            if fields is None or (ort and len(ort) != 160 and not _read_rows(ort, dd[r])):
                self.slow.append(r)
                continue
            if ort and len(ort) == 160:
                self.fixed_bodies.append(ort)
                self.fixed_rows.append(r)
            key = free(groups)
            notes = note_cache.get(key)
            if notes is None:
                notes = note_cache[key] = _notes(key, header, idx.encoding)
                if len(note_cache) > 10_000:
                    note_cache.clear()
            self.deals.append(deal)
            self.rows.append(r)
            self.numbers.append(fields[0])
            self.dealers.append(fields[1])
            self.vuls.append(fields[2])
            self.notes.append(notes)

    def parsed_into(self, a: int, owners: np.ndarray, dd: np.ndarray, numbers: np.ndarray) -> tuple[Any, ...]:
        """The matched games' deals and fixed-layout tables parsed together with numpy into the chunk's
        arrays; a game whose deal or table does not parse goes to ``slow``.  What the tally hears of them."""
        import numpy as np

        tables, fixed_ok = _fixed_tables(self.fixed_bodies)
        fixed_at = np.array(self.fixed_rows, dtype=np.int64)
        dd[fixed_at[fixed_ok]] = tables[fixed_ok]
        not_fixed = set(fixed_at[~fixed_ok].tolist())
        parsed, ok = parse_deals(self.deals)
        fast = np.array(self.rows, dtype=np.int64)
        good = ok.copy()
        if not_fixed:
            good &= ~np.isin(fast, list(not_fixed))
        self.slow.extend(fast[~good].tolist())
        rows = fast[good]
        owners[rows] = parsed[good]
        number = np.array(self.numbers, dtype=np.int64)[good]
        dealer = np.array(self.dealers, dtype=np.int64)[good]
        vul = np.array(self.vuls, dtype=np.int64)[good]
        notes = names_array(self.notes)[good]
        numbers[rows] = np.where(number >= 0, number, a + rows + 1)
        has_dd = (dd[rows] != DD_UNKNOWN).any(axis=(1, 2))
        return (rows, number, dealer, vul, has_dd, notes)


def _learn_first(
    buf: mmap.mmap | bytes, starts: list[int], cends: list[int], shapes: list[_Shape], state: dict[str, Any]
) -> _Learned | None:
    """The game pattern (its fullmatch and group getters) learned from the chunk's first game the general
    pattern takes, with that game's shape; kept in ``state`` for the next chunks.  None if no game fits."""
    for start, end in zip(starts, cends, strict=True):
        text = buf[start:end]
        m = _GAME.fullmatch(text)
        if m is not None:
            pattern = _learn(m)
            learned = state["learned"] = (pattern.fullmatch, _getters(pattern))
            _add_shape(shapes, m, text)
            return learned
    return None


def _plain_fields(
    board: bytes | None, dealer: bytes | None, vul: bytes | None, seats: dict[bytes, int], vuls: dict[bytes, int]
) -> tuple[int, int, int] | None:
    """A plain game's board number, dealer and vulnerability as the tally counts them (-1: none or "?");
    None when one of them needs the careful reader."""
    if not board or board == b"?":
        number = -1
    elif board.isdigit() and len(board) <= 9:  # longer: past MAX_BOARD_NUMBER, which the careful reader says
        number = int(board)
    else:
        return None
    seat = -1 if not dealer or dealer == b"?" else seats.get(dealer, -2)
    vv = -1 if not vul or vul == b"?" else vuls[vul]
    if seat == -2 or vv == -2:
        return None
    return number, seat, vv


def _read_rows(ort: bytes, table: np.ndarray) -> bool:
    """An OptimumResultTable not in the fixed 20-row layout, into ``table`` (4 x 5); False (table untouched)
    when it needs the careful reader: rows it cannot read, or a trick count the reader rejects."""
    if _ROWS.fullmatch(ort) is None:
        return False
    cells = [(_SEATS[st], _STRAINS[sn.upper()], int(v)) for st, sn, v in _ROW.findall(ort)]
    if any(v > 13 for _s, _t, v in cells):  # the reader rejects the table: let it say so
        return False
    for st, sn, v in cells:
        table[st, sn] = v
    return True


#: the OptimumResultTable header as it stands between the quotes: one backslash (as pbn_write and
#: pbn_stream write it, and most programs) or escaped to two; a shape keeps the form its file uses
_ORT_VALUES = (pbn_dd.ORT_HEADER.encode(), escape(pbn_dd.ORT_HEADER).encode())
_VUL_VALUES = ((b"None", 0), (b"NS", 1), (b"EW", 2), (b"All", 3), (b"Both", 3), (b"Love", 0), (b"-", 0))


class _Shape:
    """The text of one plain game between its quotes, for recognising games of the same
    shape with numpy a chunk at a time: the same text between the quotes, values in the
    same tags, the same OptimumResultTable header and a 20-row table of 8-byte rows."""

    def __init__(self, m: re.Match[bytes], text: bytes) -> None:
        pieces = text.split(b'"')
        names = [name for name in ROSTER if m.group(name) is not None]
        ort = m.group("ort")
        if ort is not None:
            names.append("ort header")
        self.names = names
        self.consts = pieces[0::2][:-1]  # before the first value, and between each value and the next
        last = pieces[-1]
        self.ort = ort is not None
        self.tail = last[: len(last) - len(ort)] if self.ort else last
        self.usable = (len(pieces) - 1) // 2 == len(names) and "Deal" in names and (not self.ort or len(ort) == 160)
        self.ort_value = pieces[-2] if self.ort and len(pieces) > 1 else b""
        if self.ort and self.usable:
            self.usable = self.ort_value in _ORT_VALUES
        self.key = (tuple(self.consts), self.tail, self.ort, self.ort_value)
        self.where = {name: t for t, name in enumerate(names)}
        #: the values whose lengths tell the layouts apart (each up to its limit), and their weights in a layout's key:
        #: a number in mixed radix, each value's length a digit of base limit + 1
        free = [
            (t, _FREE_LENGTH.get(name, 1))
            for t, name in enumerate(names)
            if name in _FREE_LENGTH or name in _PLACEHOLDERS
        ]
        self.free_at = [t for t, _limit in free]
        self.limits = [limit for _t, limit in free]
        weights = [1] * len(free)
        for j in range(len(free) - 2, -1, -1):
            weights[j] = weights[j + 1] * (self.limits[j + 1] + 1)
        self.weights = weights
        #: a game's length less its values': the quotes and what stands between them (and the table's 160 bytes)
        self.frame = sum(len(c) + 2 for c in self.consts) + len(self.tail) + (160 if self.ort else 0)

    def layout(self, lengths: np.ndarray) -> _Layout:
        """The layout of this shape's games whose values have ``lengths`` (remembered: see :data:`_LAYOUTS`)."""
        key = (tuple(self.names), self.key, tuple(lengths.tolist()))
        layout = _LAYOUTS.get(key)
        if layout is None:
            if len(_LAYOUTS) > 1024:
                _LAYOUTS.clear()
            layout = _LAYOUTS[key] = _Layout(self, key[2])
        return layout


def _add_shape(shapes: list[_Shape], m: re.Match[bytes], text: bytes) -> None:
    found = _Shape(m, text)
    if found.usable and all(found.key != s.key for s in shapes):
        shapes.append(found)


def _shaped_rows(
    doc: LazyPbnSet, a: int, b: int, shape: _Shape, todo: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The games ``a..b`` that have ``shape`` and plain values (placeholders in the free tags,
    a 69-byte deal, a fixed-width table), read with numpy; returns (relative rows, numbers,
    dealers, vulnerabilities, owners, DD tables) for those whose deal and table are sound.

    Games whose board number, dealer and vulnerability have the same lengths are laid out
    alike, so each such group is copied out as whole rows of one width and compared with
    one template in 8-byte words: far fewer and wider gathers than one per constant byte."""
    import numpy as np

    idx = doc.index
    lo, hi = int(idx.starts[a]), int(idx.cends[b - 1])
    hi = min(len(idx.buf), hi + 8)  # the last game's row of 8-byte words may run a little past it
    arr = np.frombuffer(idx.buf, np.uint8, hi - lo, lo)
    starts = (idx.starts[a:b] - lo).astype(np.int64)
    cends = (idx.cends[a:b] - lo).astype(np.int64)
    quotes = np.flatnonzero(arr == 34).astype(np.int32)  # a chunk is far below 2 GiB: small indices
    nv = len(shape.names)
    first = np.searchsorted(quotes, starts)
    fit = (np.searchsorted(quotes, cends) - first == 2 * nv) & todo
    rows = np.flatnonzero(fit)
    if not rows.shape[0]:
        return _no_rows()
    around = quotes[first[rows][:, None] + np.arange(2 * nv)[None, :]]  # each value's opening and closing quotes
    lengths = around[:, 1::2] - around[:, 0::2] - 1  # (m, nv)
    where = shape.where
    ok_len = lengths[:, where["Deal"]] == 69
    if "ort header" in where:
        ok_len &= lengths[:, where["ort header"]] == len(shape.ort_value)
    # rows of one layout have one key; a game is of its layout when it is as long as the layout's template
    free = lengths[:, shape.free_at]
    limits = np.array(shape.limits, np.int32)
    ok_len &= (free <= limits).all(axis=1) & (cends[rows] - starts[rows] == shape.frame + lengths.sum(axis=1))
    key = np.where(ok_len, np.minimum(free, limits) @ np.array(shape.weights, np.int64), -1)
    gathered = _Gathered(rows.shape[0], shape.ort)
    order = np.argsort(key, kind="stable")
    keys, rows_in_order = key[order], rows[order]
    starts_in_order = starts[rows_in_order]
    bounds = [0, *(np.flatnonzero(keys[1:] != keys[:-1]) + 1).tolist(), keys.shape[0]]
    for lo_, hi_ in zip(bounds[:-1], bounds[1:], strict=False):  # each layout's rows
        if keys[lo_] >= 0:
            layout = shape.layout(lengths[order[lo_]])
            _layout_rows(arr, starts_in_order[lo_:hi_], layout, rows_in_order[lo_:hi_], gathered)
    if not gathered.count:
        return _no_rows()
    at, ok, number, dealer, vul = gathered.values()
    owners, deal_ok = _in_pieces(parse_deals, gathered.deals[: gathered.count])  # every layout's together
    ok &= deal_ok
    if gathered.tables is not None:  # (a shape has its table in every layout or in none)
        dd, dd_ok = _in_pieces(_fixed_tables, gathered.tables[: gathered.count])
        ok &= dd_ok
    else:
        dd = np.full((at.shape[0], 4, 5), DD_UNKNOWN, dtype=np.uint8)
    joined = (at, number, dealer, vul, owners, dd)
    if not ok.all():  # (most chunks: every game read)
        good = np.flatnonzero(ok)
        joined = (at[good], number[good], dealer[good], vul[good], owners[good], dd[good])
    order = np.argsort(joined[0], kind="stable")
    return (
        joined[0][order],
        joined[1][order],
        joined[2][order],
        joined[3][order],
        joined[4][order],
        joined[5][order],
    )


def _no_rows() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`_shaped_rows` returns when no game has the shape."""
    import numpy as np

    return (np.zeros(0, np.int64),) * 4 + (np.zeros((0, 52), np.uint8), np.zeros((0, 4, 5), np.uint8))


#: rows parsed at a time: the arrays of a piece stay in the cache from one numpy pass to the next
_PIECE = 1 << 13


def _in_pieces(
    parse: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], rows: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``parse(rows)`` (deals or tables: values and which are sound), :data:`_PIECE` rows at a time."""
    import numpy as np

    if rows.shape[0] <= _PIECE:
        return parse(rows)
    pieces = [parse(rows[i : i + _PIECE]) for i in range(0, rows.shape[0], _PIECE)]
    return np.concatenate([v for v, _ok in pieces]), np.concatenate([ok for _v, ok in pieces])


#: the values a layout leaves free in length (up to this many bytes), read from the game's bytes
_FREE_LENGTH = {"Board": 9, "Dealer": 1, "Vulnerable": 4}
#: the values a plain game leaves empty or ``?`` (each layout has one or the other in its template)
_PLACEHOLDERS = frozenset((*_NOTE_TAGS, "Declarer", "Contract", "Result"))


class _Layout:
    """The bytes a game of a shape with values of given lengths has, padded to whole 64-bit words: the
    template as words, the mask of the words' bytes that are constants (not values we read), where each value
    starts, where the table's body starts, and the game's length before the padding."""

    def __init__(self, shape: _Shape, lengths: tuple[int, ...]) -> None:
        import numpy as np

        template = bytearray()
        free = bytearray()  # 0xff where the game's bytes are values we read, not constants we compare
        self.at: dict[str, int] = {}
        for t, name in enumerate(shape.names):
            template += shape.consts[t] + b'"'
            free += bytes(len(shape.consts[t]) + 1)
            self.at[name] = len(template)
            n = lengths[t]
            if name in _FREE_LENGTH or name == "Deal":
                template += bytes(n)
                free += b"\xff" * n
            else:  # a placeholder ("" or "?") or the OptimumResultTable header
                template += shape.ort_value if name == "ort header" else b"?" * n
                free += bytes(n)
            template += b'"'
            free += b"\x00"
        template += shape.tail
        free += bytes(len(shape.tail))
        self.body_at = len(template)
        if shape.ort:
            template += bytes(160)
            free += b"\xff" * 160
        self.size = len(template)
        self.width = -(-self.size // 8) * 8
        template += bytes(self.width - self.size)
        free += b"\xff" * (self.width - self.size)
        self.want = np.frombuffer(bytes(template), np.uint64)
        self.mask = ~np.frombuffer(bytes(free), np.uint64)
        self.lengths = {name: lengths[t] for t, name in enumerate(shape.names) if name in _FREE_LENGTH}


class _Gathered:
    """What the layouts of one shape in a chunk found, row after row, for parsing all together: the
    layouts differ only in where their values stand, so each one copies its rows' values into columns of
    one width, and the values are read with one round of numpy calls a chunk instead of one a layout (a
    small file has a dozen layouts, board numbers of one to four digits times three lengths of
    vulnerability, and the calls' fixed cost was most of converting 1,000 boards)."""

    def __init__(self, capacity: int, ort: bool) -> None:
        import numpy as np

        self.count = 0
        self.rows = np.empty(capacity, np.int64)  # the chunk rows
        self.ok = np.empty(capacity, bool)  # the constants match
        self.board = np.full((capacity, _FREE_LENGTH["Board"]), ord("0"), np.uint8)  # right-aligned, 0-padded
        self.dealer = np.zeros(capacity, np.uint8)
        #: the vulnerability's bytes, zero-padded, its length in the last byte: one 64-bit word a row
        self.vul = np.zeros((capacity, 8), np.uint8)
        self.lengths = np.zeros((capacity, 2), np.int8)  # the board number's and the dealer's
        self.deals = np.empty((capacity, 69), np.uint8)
        self.tables = np.empty((capacity, 160), np.uint8) if ort else None

    def add(self, rows: np.ndarray, block: np.ndarray, layout: _Layout) -> slice:
        """The values of the rows of ``layout`` (their game bytes in ``block``); returns where they went, for
        :attr:`ok` (whether their constants match) to be set."""
        a, b = self.count, self.count + rows.shape[0]
        self.count = b
        self.rows[a:b] = rows
        at, n = layout.at, layout.lengths
        board, dealer, vul = n.get("Board", 0), n.get("Dealer", 0), n.get("Vulnerable", 0)
        if board:
            self.board[a:b, self.board.shape[1] - board :] = block[:, at["Board"] : at["Board"] + board]
        if dealer:
            self.dealer[a:b] = block[:, at["Dealer"]]
        if vul:
            self.vul[a:b, :vul] = block[:, at["Vulnerable"] : at["Vulnerable"] + vul]
            self.vul[a:b, 7] = vul
        self.lengths[a:b] = (board, dealer)
        self.deals[a:b] = block[:, at["Deal"] : at["Deal"] + 69]
        if self.tables is not None:
            self.tables[a:b] = block[:, layout.body_at : layout.body_at + 160]
        return slice(a, b)

    def values(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(chunk rows, which are sound so far, numbers, dealers, vulnerabilities; -1: none or ``?``)."""
        import numpy as np

        k = self.count
        ok = self.ok[:k].copy()
        has_board, has_dealer = self.lengths[:k, 0] > 0, self.lengths[:k, 1] > 0
        digits = self.board[:k] - np.uint8(ord("0"))  # wraps past 9 for anything but a digit
        digits_ok = (digits <= 9).all(axis=1)
        blank = (self.lengths[:k, 0] == 1) & (self.board[:k, -1] == ord("?"))
        ok &= ~has_board | digits_ok | blank
        powers = 10 ** np.arange(digits.shape[1] - 1, -1, -1, dtype=np.int64)
        number = np.where(has_board & digits_ok, digits.astype(np.int64) @ powers, -1)
        letter = self.dealer[:k]
        seat = _row_tables()[1][letter & 0xDF].astype(np.int64)  # upper case
        blank = letter == ord("?")
        ok &= ~has_dealer | blank | (seat >= 0)
        dealer = np.where(has_dealer & ~blank, seat, -1)
        word = self.vul[:k].view(np.uint64)[:, 0]
        words, values = _vul_table()  # each spelling looked up at once, not compared with a word at a time
        at = np.minimum(np.searchsorted(words, word), words.shape[0] - 1)
        hit = words[at] == word
        vul = np.where(hit, values[at], -1)
        ok &= hit | (self.vul[:k, 7] == 0)  # a spelling we know, "?" or none
        return self.rows[:k], ok, number, dealer, vul


#: the layouts met, by their shape's names and key and their values' lengths: a file has a dozen, and a
#: session converting many small files of one program meets the same ones again
_LAYOUTS: dict[tuple[tuple[str, ...], tuple[Any, ...], tuple[int, ...]], _Layout] = {}


def _vul_word(text: bytes) -> int:
    """A vulnerability's row of :attr:`_Gathered.vul` as a little-endian 64-bit word."""
    return int.from_bytes(text.ljust(7, b"\0") + bytes((len(text),)), "little")


@cache
def _vul_table() -> tuple[np.ndarray, np.ndarray]:
    """The words of ``?`` and of each spelling of :data:`_VUL_VALUES`, in order, and what each means (-1 for ``?``)."""
    import numpy as np

    pairs = sorted((_vul_word(text), v) for text, v in ((b"?", -1), *_VUL_VALUES))
    return np.array([w for w, _v in pairs], np.uint64), np.array([v for _w, v in pairs], np.int64)


def _layout_rows(arr: np.ndarray, at: np.ndarray, layout: _Layout, rows: np.ndarray, gathered: _Gathered) -> None:
    """The games at ``at`` (chunk rows ``rows``, all of ``layout``), compared with the layout's template in 8-byte
    words; their values go to ``gathered``, which reads them with the other layouts'."""
    import numpy as np

    n, width = arr.shape[0], layout.width
    # every ``width`` bytes from each offset (what sliding_window_view makes, without its checks: a tenth of the time)
    windows = np.ndarray((max(0, n - width + 1), width), np.uint8, arr, 0, (1, 1)) if n >= width else None
    if windows is not None and int(at.max()) + width <= n:  # the usual case: each game's words lie inside the chunk
        block = windows[at]  # (m, width), one copy a row
    else:  # the file's last game ends less than a word before the end: its row padded (the padding is masked)
        block = np.zeros((at.shape[0], width), np.uint8)
        inside = at + width <= n
        if windows is not None:
            block[inside] = windows[at[inside]]
        for j in np.flatnonzero(~inside).tolist():
            block[j, : n - int(at[j])] = arr[int(at[j]) :]
    placed = gathered.add(rows, block, layout)  # the values copied out, the block (a copy) is compared in place:
    words = block.view(np.uint64)  # no temporaries of its size (a small file's pages are touched afresh each time)
    np.bitwise_xor(words, layout.want, out=words)
    np.bitwise_and(words, layout.mask, out=words)
    gathered.ok[placed] = ~words.any(axis=1)


#: the conversion of a big file in chunks, this module's chunk reader in :mod:`..chunked`'s pass
CONVERSION = chunked.Conversion(_chunk)
convert = CONVERSION.convert
report = CONVERSION.report
