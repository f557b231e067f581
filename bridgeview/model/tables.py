"""Boards and tables: what a set holds when it holds a board more than once.

A **board** is a number and a deal, with its dealer and vulnerability.  A set may hold several
**tables** of one board, each with its own room, players, auction, play and result: the open and
closed rooms of a team match (LIN vugraphs, PBN ``[Room]``), or one record a table in a scoring
program's traveller export.  Records that share a board number and hold the same cards are tables
of one board.  Records that share a number but not the deal, the dealer or the vulnerability
contradict each other: a dealing machine deals one deal a number.

This module is the one place that answers "the distinct boards of this set" and "the tables of
board N" (:class:`Tables`, from :func:`set_tables`), for ``validate``, ``check``, ``diff`` and
Compare, ``print``, the board list and every writer of a format that holds deals only.

It stays cheap on huge sets: boards are noted in flat columns (:class:`BoardColumns`, about 45
bytes a board, no object a board) and sorted once; the answer keeps only the extra tables (none,
in a set of distinct boards).  A lazily read set whose format numbers its records by position
(:attr:`LazyBoardSet.numbered_by_position`: every fixed-record file of deals) holds one table a
board by construction, so only its edited boards are read.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .board import Board
from .boardset import Boards, LazyBoardSet, Numbered
from .text import plural

#: Sets larger than this are not searched for tables by the board list and the traveller tab, which would
#: decode every board of a big text file read lazily just to mark its rows (writers and checks do search).
TABLE_SEARCH_LIMIT = 100_000
#: sets up to this many records are first looked at in plain Python (most repeat no number)
_PLAIN_LIMIT = 100_000
#: sets up to this many records (a session's hand records, a 1,000-board file) are searched for conflicts and
#: deals dealt again with dicts of first records: importing numpy (0.1 s) costs more than their whole check
SMALL_SET = 1_500
#: rows compared at a time when groups are checked (bounds the temporary arrays)
_SLICE = 1 << 20
_INT64 = 1 << 63
_UNKNOWN = 4  # a dealer or vulnerability code: not stated

#: what a record can contradict the first record of its board number in
DEAL, DEALER, VULNERABILITY = "deal", "dealer", "vulnerability"


@dataclass(frozen=True)
class Conflict:
    """Record ``index`` has the board number of the earlier record ``first`` but another ``what``
    (:data:`DEAL`, :data:`DEALER` or :data:`VULNERABILITY`)."""

    index: int
    first: int
    what: str


class BoardColumns:
    """The number, hands, dealer and vulnerability of every record of a set, in record order, in flat
    arrays; what repeats among them is found by sorting, once, at the end."""

    def __init__(self) -> None:
        self._hands = array("Q")  # four hand masks a record
        self._numbers = array("q")
        self._numbered = bytearray()  # 1: the record has a number that fits in 64 bits
        self._dealers = bytearray()  # 0-3, or _UNKNOWN
        self._vuls = bytearray()
        self._big: dict[int, int] = {}  # record -> a number too big for 64 bits
        self._big_first: dict[int, int] = {}  # big number -> its first record
        self._big_conflicts: list[Conflict] = []

    def __len__(self) -> int:
        return len(self._numbered)

    def add(self, board: Board | None) -> None:
        """Note the next record (None: a record that could not be read)."""
        i = len(self._numbered)
        if board is None:
            self._hands.extend((0, 0, 0, 0))
            self._numbers.append(0)
            self._numbered.append(0)
            self._dealers.append(_UNKNOWN)
            self._vuls.append(_UNKNOWN)
            return
        self._hands.extend(board.deal.hands)
        self._dealers.append(_UNKNOWN if board.dealer is None else int(board.dealer))
        self._vuls.append(_UNKNOWN if board.vulnerability is None else int(board.vulnerability))
        num = board.number
        if num is not None and -_INT64 <= num < _INT64:
            self._numbers.append(num)
            self._numbered.append(1)
            return
        self._numbers.append(0)
        self._numbered.append(0)
        if num is not None:  # a number beyond 64 bits (a damaged file): kept aside, checked as it comes
            self._big[i] = num
            first = self._big_first.setdefault(num, i)
            what = self._differs(i, first) if first != i else None
            if what is not None:
                self._big_conflicts.append(Conflict(i, first, what))

    def number(self, i: int) -> int | None:
        """Record ``i``'s board number."""
        return self._numbers[i] if self._numbered[i] else self._big.get(i)

    def _differs(self, i: int, j: int) -> str | None:
        if self._hands[4 * i : 4 * i + 4] != self._hands[4 * j : 4 * j + 4]:
            return DEAL
        for column, what in ((self._dealers, DEALER), (self._vuls, VULNERABILITY)):
            if _UNKNOWN not in (column[i], column[j]) and column[i] != column[j]:
                return what
        return None

    def _columns(self) -> tuple[Any, Any, Any, Any, Any]:
        import numpy as np

        n = len(self._numbered)
        if not n:
            return np.zeros((0, 4), np.uint64), np.zeros(0, np.int64), np.zeros(0, bool), *(np.zeros(0, np.uint8),) * 2
        hands = np.frombuffer(self._hands, dtype=np.uint64).reshape(n, 4)
        numbers = np.frombuffer(self._numbers, dtype=np.int64)
        numbered = np.frombuffer(bytes(self._numbered), dtype=np.bool_)
        dealers = np.frombuffer(bytes(self._dealers), dtype=np.uint8)
        vuls = np.frombuffer(bytes(self._vuls), dtype=np.uint8)
        return hands, numbers, numbered, dealers, vuls

    def _by_number(self) -> tuple[Any, Any]:
        """The records whose number another record has too, grouped by number (each group in record order),
        and which of them start a group."""
        import numpy as np

        _hands, numbers, numbered, _d, _v = self._columns()
        idx = _members(np.where(numbered, numbers, 0), numbered)
        order = idx[np.lexsort((idx, numbers[idx]))] if idx.shape[0] else idx
        start = np.ones(order.shape[0], dtype=bool)
        if order.shape[0]:
            num = numbers[order]
            start[1:] = num[1:] != num[:-1]
        return order, start

    def conflicts(self) -> Iterator[Conflict]:
        """Each record whose board number an earlier record used with another deal, dealer or vulnerability,
        with the first record of that number; in no particular order."""
        if len(self) <= SMALL_SET:
            first: dict[int, int] = {}
            for i, numbered in enumerate(self._numbered):
                if numbered:
                    j = first.setdefault(self._numbers[i], i)
                    what = self._differs(i, j) if j != i else None
                    if what is not None:
                        yield Conflict(i, j, what)
            yield from self._big_conflicts
            return
        import numpy as np

        hands, _numbers, _numbered, dealers, vuls = self._columns()
        order, start = self._by_number()

        def known_and_differ(column: Any, a: Any, b: Any) -> Any:
            return (column[a] != _UNKNOWN) & (column[b] != _UNKNOWN) & (column[a] != column[b])

        for rows, firsts in _runs(order, start):
            deal = (hands[rows] != hands[firsts]).any(axis=1)
            dealer = ~deal & known_and_differ(dealers, rows, firsts)
            vul = ~deal & ~dealer & known_and_differ(vuls, rows, firsts)
            for mask, what in ((deal, DEAL), (dealer, DEALER), (vul, VULNERABILITY)):
                hit = np.flatnonzero(mask)
                yield from (Conflict(i, j, what) for i, j in zip(rows[hit].tolist(), firsts[hit].tolist(), strict=True))
        yield from self._big_conflicts

    def deals_dealt_again(self) -> Iterator[tuple[int, int]]:
        """``(record, first)``: each record with cards whose hands an earlier record had (under any number),
        and the first record that had them."""
        if len(self) <= SMALL_SET:
            seen: dict[tuple[int, ...], int] = {}
            for i in range(len(self)):
                hands = tuple(self._hands[4 * i : 4 * i + 4])
                if any(hands):
                    j = seen.setdefault(hands, i)
                    if j != i:
                        yield i, j
            return
        import numpy as np

        hands, _numbers, _numbered, _d, _v = self._columns()
        keys = deal_hashes(hands)
        idx = _members(keys, hands.any(axis=1))  # the records with cards whose hash repeats
        if not idx.shape[0]:
            return
        order = idx[np.argsort(keys[idx], kind="stable")]  # equal hashes together, each run in record order
        run = keys[order]
        start = np.ones(order.shape[0], dtype=bool)
        start[1:] = run[1:] != run[:-1]
        for rows, firsts in _runs(order, start):
            hit = np.flatnonzero((hands[rows] == hands[firsts]).all(axis=1))  # the same hands, not just the hash
            yield from zip(rows[hit].tolist(), firsts[hit].tolist(), strict=True)

    def _no_number_twice(self) -> bool:
        """True when no board number is used twice, told in plain Python for a small set (a small file's
        ``info`` imports no numpy); False when some number repeats, or the set is too big to tell so."""
        if len(self) > _PLAIN_LIMIT:
            return False
        numbers = [n for n, ok in zip(self._numbers, self._numbered, strict=True) if ok] + list(self._big.values())
        return len(set(numbers)) == len(numbers)

    def tables(self) -> Tables:
        """Which records are tables of one board: the same number and the same cards."""
        if self._no_number_twice():  # no table twice and nothing to contradict
            return Tables(len(self))
        import numpy as np

        hands, numbers, _numbered, _d, _v = self._columns()
        conflicts = sorted(self.conflicts(), key=lambda c: c.index)
        order, _start = self._by_number()
        order = order[hands[order].any(axis=1)] if order.shape[0] else order
        if not order.shape[0]:
            return Tables(len(self), conflicts=conflicts)
        h, num = hands[order], numbers[order]
        regroup = np.lexsort((order, h[:, 3], h[:, 2], h[:, 1], h[:, 0], num))  # by number and hands, in record order
        order, h, num = order[regroup], h[regroup], num[regroup]
        start = np.ones(order.shape[0], dtype=bool)
        start[1:] = (num[1:] != num[:-1]) | (h[1:] != h[:-1]).any(axis=1)
        runs = list(_runs(order, start))
        if not runs:
            return Tables(len(self), conflicts=conflicts)
        extra, firsts = np.concatenate([r for r, _f in runs]), np.concatenate([f for _r, f in runs])
        return Tables(len(self), extra, firsts, conflicts)


class Tables:
    """The boards of a set of ``count`` records, and the tables of each.

    A record is a board's first table or one of its ``extra`` tables (the same number and cards as an
    earlier record, ``first_of_extra``); a set of distinct boards has no extra tables and costs nothing.
    ``conflicts`` are the records that share a number with an earlier one but not its deal, dealer or
    vulnerability (in record order): they stay boards of their own here, and writers refuse them."""

    def __init__(
        self, count: int, extra: Any = None, first_of_extra: Any = None, conflicts: list[Conflict] | None = None
    ) -> None:
        self.count = count
        self.conflicts = conflicts or []
        self._extra: Any = None
        self._first: Any = None
        self._by_first: Any = None  # extra tables ordered by their board's first record (made when asked)
        if extra is not None and len(extra):
            import numpy as np

            order = np.argsort(extra, kind="stable")
            self._extra = np.asarray(extra, dtype=np.int64)[order]
            self._first = np.asarray(first_of_extra, dtype=np.int64)[order]

    @property
    def extra_count(self) -> int:
        """How many records are another table of an earlier record's board."""
        return 0 if self._extra is None else int(self._extra.shape[0])

    def __len__(self) -> int:
        """How many distinct boards."""
        return self.count - self.extra_count

    @property
    def repeated(self) -> bool:
        """True when some board has more than one table."""
        return self._extra is not None

    def first_of(self, index: int) -> int:
        """The first record of the board that record ``index`` is a table of (itself for a board's first)."""
        if self._extra is None:
            return index
        import numpy as np

        k = int(np.searchsorted(self._extra, index))
        return int(self._first[k]) if k < self._extra.shape[0] and self._extra[k] == index else index

    def tables_of(self, index: int) -> list[int]:
        """The records of the board that record ``index`` is a table of, in record order (just ``[index]``
        for a board played once)."""
        first = self.first_of(index)
        if self._extra is None:
            return [first]
        import numpy as np

        if self._by_first is None:
            order = np.argsort(self._first, kind="stable")
            self._by_first = (self._first[order], self._extra[order])
        firsts, extras = self._by_first
        a, b = np.searchsorted(firsts, [first, first + 1])
        return [first, *sorted(int(i) for i in extras[a:b])]

    def board_records(self) -> Any:
        """The first record of every board, in record order: a ``range`` when every record is a board,
        else an integer array."""
        if self._extra is None:
            return range(self.count)
        import numpy as np

        keep = np.ones(self.count, dtype=bool)
        keep[self._extra] = False
        return np.flatnonzero(keep)

    def places(self) -> dict[int, tuple[int, int]]:
        """For every record of a board with several tables: (its place among them, how many)."""
        if self._extra is None:
            return {}
        groups: dict[int, list[int]] = {}
        for i, f in zip(self._extra.tolist(), self._first.tolist(), strict=True):
            groups.setdefault(f, [f]).append(i)
        out: dict[int, tuple[int, int]] = {}
        for members in groups.values():
            members.sort()
            for k, i in enumerate(members, 1):
                out[i] = (k, len(members))
        return out

    def summary(self) -> str:
        """``15 boards from 30 tables`` (``16 boards`` when every board has one table)."""
        boards = plural(len(self), "board")
        return f"{boards} from {plural(self.count, 'table')}" if self.repeated else boards


class NumberRuns:
    """The board numbers a stream of chunks has shown so far, kept as runs of consecutive numbers (a file
    numbered 1 to ten million is one run): :meth:`repeats` tells when a chunk brings a number again."""

    def __init__(self) -> None:
        self._starts: list[int] = []
        self._stops: list[int] = []  # run k holds starts[k] .. stops[k] - 1

    def repeats(self, numbers: Any) -> bool:
        """Note the chunk's ``numbers`` (an int64 array); True when one of them was seen before or repeats
        within the chunk (the numbers are then not all noted)."""
        import numpy as np

        if not numbers.shape[0]:
            return False
        ordered = np.sort(numbers)
        if (ordered[1:] == ordered[:-1]).any():
            return True
        if self._starts and ordered[0] < max(self._stops):  # not all beyond every number seen
            starts = np.asarray(self._starts, dtype=np.int64)
            stops = np.asarray(self._stops, dtype=np.int64)
            k = np.searchsorted(starts, ordered, side="right") - 1
            inside = (k >= 0) & (ordered < stops[np.maximum(k, 0)])
            if inside.any():
                return True
        breaks = np.flatnonzero(ordered[1:] != ordered[:-1] + 1) + 1
        for a, b in zip(
            np.concatenate(([0], breaks)).tolist(), np.concatenate((breaks, [len(ordered)])).tolist(), strict=True
        ):
            self._add(int(ordered[a]), int(ordered[b - 1]) + 1)
        return False

    def _add(self, start: int, stop: int) -> None:
        import bisect

        k = bisect.bisect_left(self._starts, start)
        if k and self._stops[k - 1] == start:  # joins the run before it
            self._stops[k - 1] = stop
            if k < len(self._starts) and self._starts[k] == stop:
                self._stops[k - 1] = self._stops.pop(k)
                self._starts.pop(k)
            return
        if k < len(self._starts) and self._starts[k] == stop:  # joins the run after it
            self._starts[k] = start
            return
        self._starts.insert(k, start)
        self._stops.insert(k, stop)


def boards_to_print(boards: Boards) -> tuple[list[Board], list[str]]:
    """Each board of ``boards`` once (its first table), in number order, without those that hold no cards;
    and sentences saying what was left out (``15 boards from 30 tables``, ``2 boards without cards left
    out``): what hand records print."""
    tables = set_tables(boards)
    firsts = [boards[int(i)] for i in tables.board_records()]
    kept = [b for b in firsts if b.deal.card_count]
    notices = [tables.summary()] if tables.repeated else []
    if len(kept) < len(firsts):
        notices.append(f"{plural(len(firsts) - len(kept), 'board')} without cards left out")
    kept.sort(key=lambda b: (b.number is None, b.number or 0))
    return kept, notices


def record_name(boards: Boards, i: int) -> str:
    """``record 17 (closed room)``: a record as a director finds it in the file, with its room when it has one."""
    found = boards.record_number(i) if isinstance(boards, Numbered) else None
    try:
        room = boards[i].tags.get("Room")
    except Exception:
        room = None
    return f"record {found or i + 1}" + (f" ({room.lower()} room)" if room else "")


def board_columns(boards: Boards, indices: Sequence[int] | None = None) -> BoardColumns:
    """The columns of ``boards`` (or of the records at ``indices``, in that order)."""
    columns = BoardColumns()
    for i in range(len(boards)) if indices is None else indices:
        columns.add(boards[i])
    return columns


def set_tables(boards: Boards) -> Tables:
    """The boards and tables of ``boards``: one pass over its records, except for a lazily read set numbered
    by position, where only the edited boards (and the records whose numbers they took) are read."""
    if isinstance(boards, LazyBoardSet) and boards.numbered_by_position:
        return _edited_tables(boards)
    return board_columns(boards).tables()


def _edited_tables(boards: LazyBoardSet) -> Tables:
    """Tables of a set whose unedited records are numbered first, first + 1, ... by position: only an edited
    board can share a number, with another edited board or with the record at its number's position."""
    edited = boards.edited_positions()
    first = boards.first_number
    if not edited or first is None:
        return Tables(len(boards))
    look = set(edited)
    for i in edited:
        number = boards[i].number
        if number is not None and 0 <= number - first < len(boards):
            look.add(number - first)
    places = sorted(look)
    local = board_columns(boards, places).tables()
    conflicts = [Conflict(places[c.index], places[c.first], c.what) for c in local.conflicts]
    if not local.repeated:
        return Tables(len(boards), conflicts=conflicts)
    import numpy as np

    where = np.asarray(places, dtype=np.int64)
    extra = [i for i in range(len(places)) if local.first_of(i) != i]
    return Tables(len(boards), where[extra], where[[local.first_of(i) for i in extra]], conflicts)


def _members(keys: Any, counted: Any) -> Any:
    """The indices, among those ``counted``, whose key another counted index has too (one sort of the keys;
    the usual file repeats few, so only those few are grouped)."""
    import numpy as np

    ordered = np.sort(keys[counted])
    repeated = np.unique(ordered[1:][ordered[1:] == ordered[:-1]])
    del ordered
    if not repeated.shape[0]:
        return np.zeros(0, dtype=np.int64)
    parts = []
    for a in range(0, keys.shape[0], _SLICE):
        part = keys[a : a + _SLICE]
        pos = np.minimum(np.searchsorted(repeated, part), repeated.shape[0] - 1)
        parts.append(np.flatnonzero((repeated[pos] == part) & counted[a : a + _SLICE]) + a)
    return np.concatenate(parts)


def _runs(order: Any, start: Any) -> Iterator[tuple[Any, Any]]:
    """``(rows, firsts)`` slices of ``order`` (grouped in runs that ``start`` marks, each in record order)
    without the rows that start a run, each with the record that starts its run."""
    import numpy as np

    if not order.shape[0]:
        return
    pos = np.arange(order.shape[0])
    pos[~start] = 0
    np.maximum.accumulate(pos, out=pos)
    first = order[pos]
    del pos
    for a in range(0, order.shape[0], _SLICE):
        rows, firsts, starts = order[a : a + _SLICE], first[a : a + _SLICE], start[a : a + _SLICE]
        yield rows[~starts], firsts[~starts]


def deal_hashes(masks: Any) -> Any:
    """A 64-bit hash of each row of an (n, k) uint64 array (four hand masks, or a record's
    bytes as words): sorting these finds equal deals (with ten million deals a collision
    is a one-in-a-hundred-thousand chance, and a reported duplicate is compared in full first)."""
    import numpy as np

    m = np.ascontiguousarray(masks, dtype=np.uint64)
    h = np.zeros(m.shape[0], dtype=np.uint64)
    mults = (0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93)
    with np.errstate(over="ignore"):
        for k in range(m.shape[1]):
            x = m[:, k] * np.uint64(mults[k % 4])
            x ^= x >> np.uint64(29)
            h ^= x
            h *= np.uint64(0xBF58476D1CE4E5B9)
    return h


__all__ = [
    "DEAL",
    "DEALER",
    "NumberRuns",
    "TABLE_SEARCH_LIMIT",
    "VULNERABILITY",
    "BoardColumns",
    "Conflict",
    "Tables",
    "board_columns",
    "boards_to_print",
    "deal_hashes",
    "record_name",
    "set_tables",
]
