"""Boards a set repeats: a board number used again with another deal, a deal dealt again.

``validate`` notes each board here as it goes (its hands, number and room, about 45 bytes a
board in flat arrays, no object a board) and asks for the repeats once at the end, where
sorting finds them.  A dict with an entry a board would cost some 400 bytes a board: gigabytes
for Pavlicek's 10.5 million deals written as PBN.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator
from typing import Any

from ..model.board import Board

#: rows compared at a time when groups are checked (bounds the temporary arrays)
_SLICE = 1 << 20
#: sets of up to this many boards (a session's hand records, a 1,000-board file) are checked with a dict
#: of first boards instead of sorted columns: importing numpy (0.1 s) costs more than their whole check
SMALL_SET = 1_500
_INT64 = 1 << 63


class Repeats:
    """The hands, number and room of every board of a set, in board order, and what repeats among them."""

    def __init__(self) -> None:
        self._hands = array("Q")  # four hand masks a board
        self._numbers = array("q")
        self._numbered = bytearray()  # 1: the board has a number that fits in 64 bits
        self._rooms = array("i")  # 0: no room, else the room's id
        self._room_ids: dict[str, int] = {}
        self._big: dict[int, int] = {}  # board index -> a number too big for 64 bits
        self._big_first: dict[tuple[int, int], int] = {}  # (big number, room) -> its first board
        self._big_repeats: list[tuple[int, int]] = []

    def add(self, board: Board | None, room: str | None) -> None:
        """Note the next board (None: a record that could not be read)."""
        i = len(self._numbered)
        if board is None:
            self._hands.extend((0, 0, 0, 0))
            self._numbers.append(0)
            self._numbered.append(0)
            self._rooms.append(0)
            return
        self._hands.extend(board.deal.hands)
        room_id = 0 if room is None else self._room_ids.setdefault(room, len(self._room_ids) + 1)
        self._rooms.append(room_id)
        num = board.number
        if num is not None and -_INT64 <= num < _INT64:
            self._numbers.append(num)
            self._numbered.append(1)
            return
        self._numbers.append(0)
        self._numbered.append(0)
        if num is not None:  # a number beyond 64 bits (a damaged file): kept aside, checked as it comes
            self._big[i] = num
            first = self._big_first.setdefault((num, room_id), i)
            if first != i and self._row(first) != self._row(i):
                self._big_repeats.append((i, first))

    def number(self, i: int) -> int | None:
        """Board ``i``'s number."""
        return self._numbers[i] if self._numbered[i] else self._big.get(i)

    def _row(self, i: int) -> tuple[int, ...]:
        return tuple(self._hands[4 * i : 4 * i + 4])

    def _columns(self) -> tuple[Any, Any, Any, Any]:
        import numpy as np

        n = len(self._numbered)
        hands = np.frombuffer(self._hands, dtype=np.uint64).reshape(n, 4) if n else np.zeros((0, 4), np.uint64)
        numbers = np.frombuffer(self._numbers, dtype=np.int64) if n else np.zeros(0, np.int64)
        numbered = np.frombuffer(bytes(self._numbered), dtype=np.bool_) if n else np.zeros(0, bool)
        rooms = np.frombuffer(self._rooms, dtype=np.int32) if n else np.zeros(0, np.int32)
        return hands, numbers, numbered, rooms

    def _small(self) -> bool:
        return len(self._numbered) <= SMALL_SET

    def numbers_with_another_deal(self) -> Iterator[tuple[int, int]]:
        """``(board, first)``: each board whose number (in its room) an earlier board used with other hands,
        and the first board with that number."""
        if self._small():
            first: dict[tuple[int, int], int] = {}
            for i, numbered in enumerate(self._numbered):
                if numbered:
                    j = first.setdefault((self._numbers[i], self._rooms[i]), i)
                    if j != i and self._row(i) != self._row(j):
                        yield i, j
            yield from self._big_repeats
            return
        import numpy as np

        hands, numbers, numbered, rooms = self._columns()
        idx = _members(np.where(numbered, numbers, 0), numbered)  # the boards whose number repeats
        if idx.shape[0]:
            order = idx[np.lexsort((idx, rooms[idx], numbers[idx]))]  # by number and room, each in board order
            num, room = numbers[order], rooms[order]
            start = np.ones(order.shape[0], dtype=bool)
            start[1:] = (num[1:] != num[:-1]) | (room[1:] != room[:-1])
            yield from _pairs(order, start, lambda a, b: (hands[a] != hands[b]).any(axis=1))
        yield from self._big_repeats

    def deals_dealt_again(self) -> Iterator[tuple[int, int]]:
        """``(board, first)``: each board with cards whose hands an earlier board of its room had, and the first
        board that had them."""
        if self._small():
            first: dict[tuple[tuple[int, ...], int], int] = {}
            for i in range(len(self._numbered)):
                row = self._row(i)
                if any(row):
                    j = first.setdefault((row, self._rooms[i]), i)
                    if j != i:
                        yield i, j
            return
        import numpy as np

        hands, _numbers, _numbered, rooms = self._columns()
        keys = deal_hashes(hands)
        if rooms.any():
            with np.errstate(over="ignore"):
                keys ^= rooms.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)
        has_cards = hands.any(axis=1)
        idx = _members(keys, has_cards)  # the boards with cards whose hash repeats
        if not idx.shape[0]:
            return
        order = idx[np.argsort(keys[idx], kind="stable")]  # equal hashes together, each run in board order
        run = keys[order]
        start = np.ones(order.shape[0], dtype=bool)
        start[1:] = run[1:] != run[:-1]

        def same(a: Any, b: Any) -> Any:  # the same hands in the same room (not just the same hash)
            return (hands[a] == hands[b]).all(axis=1) & (rooms[a] == rooms[b])

        yield from _pairs(order, start, same)


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


def deal_hashes(masks) -> Any:
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


def _pairs(order: Any, start: Any, keep: Any) -> Iterator[tuple[int, int]]:
    """``(row, first)`` for the rows of ``order`` (grouped in runs that ``start`` marks, each in board order)
    that start no run and that ``keep(rows, firsts)`` keeps, ``first`` the board that starts the row's run."""
    import numpy as np

    pos = np.arange(order.shape[0])
    pos[~start] = 0
    np.maximum.accumulate(pos, out=pos)
    first = order[pos]
    del pos
    for a in range(0, order.shape[0], _SLICE):
        rows, firsts = order[a : a + _SLICE], first[a : a + _SLICE]
        hit = np.flatnonzero(~start[a : a + _SLICE] & keep(rows, firsts))
        yield from zip(rows[hit].tolist(), firsts[hit].tolist(), strict=True)
