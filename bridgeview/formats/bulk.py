"""Columnar chunks of deals for vectorised conversion between record formats.

A :class:`BulkChunk` holds ``n`` deals as a ``(n, 52)`` uint8 array of seat
codes indexed by card (0-3 = N E S W, 4 = no hand), optional DD results as a
``(n, 4, 5)`` uint8 array ``[seat N E S W][strain C D H S NT]`` with 15 for
unknown, and optional board numbers.  Fixed-record codecs turn whole mmapped
slices into chunks with numpy and back, so converting ten million deals never
makes ten million Python objects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from ..model.board import Board
    from ..model.boardset import LazyBoardSet

ABSENT = 4
DD_UNKNOWN = 15


@dataclass
class BulkChunk:
    owners: np.ndarray  # (n, 52) uint8
    dd: np.ndarray | None = None  # (n, 4, 5) uint8
    numbers: np.ndarray | None = None  # (n,) int64
    #: (n, 4) uint64 hand masks N E S W, or a function computing them, when the source can
    #: produce them more cheaply than :func:`owners_to_masks` (they must agree with ``owners``)
    masks: np.ndarray | Callable[[], np.ndarray] | None = None

    def __len__(self) -> int:
        return int(self.owners.shape[0])

    #: the source's ZBD-coded deal bytes (n, 13) when the owners are exactly theirs: a writer of the
    #: same layout copies them instead of encoding the owners again
    zbd: np.ndarray | None = field(default=None, init=False, repr=False, compare=False)
    #: (n,) int64 each board's declarer (0-3 = N E S W, -1 none) when the writer's source knows it:
    #: zrj16 keeps the declarer's makes when it can store only one hand's
    declarers: np.ndarray | None = None

    def complete(self) -> np.ndarray:
        """Boolean (n,): rows that are complete deals (see :func:`complete_rows`)."""
        return complete_rows(self.owners)

    def known_dd_rows(self) -> np.ndarray | None:
        """Boolean (n,): rows with any DD value known (what a writer without DD drops); None without DD."""
        if self.dd is None:
            return None
        known: np.ndarray = (self.dd != DD_UNKNOWN).any(axis=(1, 2))
        return known

    def hand_masks(self) -> np.ndarray:
        """(n, 4) uint64 hand masks N E S W: the source's own, else from the owners."""
        if callable(self.masks):
            self.masks = self.masks()
        return self.masks if self.masks is not None else owners_to_masks(self.owners)


def owners_to_masks(owners: np.ndarray) -> np.ndarray:
    """(n, 52) seat codes -> (n, 4) uint64 hand masks (N E S W), via packbits."""
    import numpy as np

    n = owners.shape[0]
    out = np.zeros((n, 4, 8), dtype=np.uint8)
    for seat in range(4):
        out[:, seat, :7] = np.packbits(owners == seat, axis=1, bitorder="little")
    return out.view("<u8").reshape(n, 4).astype(np.uint64, copy=False)


def masks_to_owners(masks: np.ndarray) -> np.ndarray:
    """(n, 4) uint64 hand masks -> (n, 52) seat codes, 4 where no hand holds the card.

    Masks must not overlap (check with :func:`overlapping_rows` first): a card in
    two hands gets a meaningless seat code."""
    import numpy as np

    n = masks.shape[0]
    raw = np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(n, 4, 8)
    bits = np.unpackbits(raw, axis=2, bitorder="little")[:, :, :52]
    owners = bits[:, 1] + 2 * bits[:, 2] + 3 * bits[:, 3]
    absent = (bits[:, 0] | bits[:, 1] | bits[:, 2] | bits[:, 3]) == 0
    owners[absent] = ABSENT
    np.minimum(owners, 3, out=owners, where=~absent)
    return owners


def complete_rows(owners: np.ndarray) -> np.ndarray:
    """Boolean (n,): rows that are complete deals (every card held, 13 in each hand).

    Each card adds 16**seat to a 16-bit row sum (an absent card adds 0); the sum
    is 0xDDDD exactly when every hand has 13 cards, because any other way to
    reach it needs a nibble carry, i.e. more than 52 cards.  One pass, no
    per-seat comparisons: this check runs on every row of a bulk conversion.
    """
    import numpy as np

    n = owners.shape[0]
    weights = np.left_shift(np.ascontiguousarray(owners), np.uint16(2), dtype=np.uint16)
    np.left_shift(np.uint16(1), weights, out=weights)  # 16**seat; absent (shift 16 or more) gives 0
    total = np.add.reduce(weights.view(np.uint64).reshape(n, 13), axis=1)
    total = (total + (total >> 16) + (total >> 32) + (total >> 48)) & np.uint64(0xFFFF)
    complete: np.ndarray = total == 0xDDDD  # numpy types an array comparison as Any
    return complete


def with_complete_rows(owners: np.ndarray, complete: np.ndarray) -> np.ndarray:
    """(n, 52) uint8: ``owners`` with every row that is not a complete deal (``complete`` False) replaced by
    one that is (the cards dealt in order, 13 to each hand), for the writers that scatter a chunk's cards into
    fixed-width text (``pbn.stream.deal_bytes``, ``lin.stream.md_bytes``): they leave 13 cards' room a hand,
    and a hand of 14 or 52 wrote past it into the next board's text.  The rows replaced are written by the
    general formatter instead; their text from here is never used."""
    import numpy as np

    dealt = (np.arange(52) // 13).astype(np.uint8)
    return np.where(complete[:, None], owners, dealt).astype(np.uint8)


def overlapping_rows(masks: np.ndarray) -> np.ndarray:
    """Boolean (n,) array: rows where some card is in two hands."""
    a, b, c, d = (masks[:, i] for i in range(4))
    overlapping: np.ndarray = ((a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)) != 0
    return overlapping


def chunks_from_boards(boards: Iterable[Board], chunk: int = 1 << 16) -> Iterator[BulkChunk]:
    """Chunks from any sequence of boards (the slow, general path)."""
    import numpy as np

    buf_owners: list[list[int]] = []
    buf_dd: list[list[list[int]]] = []
    buf_num: list[int] = []
    any_dd = False

    def flush() -> BulkChunk:
        owners = np.array(buf_owners, dtype=np.uint8).reshape(-1, 52)
        dd = np.array(buf_dd, dtype=np.uint8).reshape(-1, 4, 5) if any_dd else None
        nums = np.array(buf_num, dtype=np.int64)
        return BulkChunk(owners, dd, nums)

    for i, b in enumerate(boards):
        buf_owners.append(b.deal.owners())
        if b.dd is not None and not b.dd.is_empty:
            any_dd = True
        table = b.dd.tricks if b.dd is not None else ((None,) * 5,) * 4
        buf_dd.append([[DD_UNKNOWN if v is None else v for v in row] for row in table])
        buf_num.append(b.number if b.number is not None else i + 1)
        if len(buf_owners) >= chunk:
            yield flush()
            buf_owners, buf_dd, buf_num, any_dd = [], [], [], False
    if buf_owners:
        yield flush()


#: codecs whose lazy boards are exactly ``Board.numbered(first + i, deal, dd=...)`` of their bulk rows
FAST_CODECS = frozenset(("zrd", "zbd"))


def first_number(doc: LazyBoardSet) -> int:
    """The number of the first record of a lazy ZRD/ZBD set (its bulk rows are numbered on from it), as
    read even when the user has edited that board."""
    first = doc[0].number if 0 not in doc.edits else None
    if first is None:
        first = doc.as_read(0).number
    assert first is not None  # the fast codecs number every board
    return first


#: glibc's mallopt parameters, and the values :func:`steady_heap` gives them: the ceiling of glibc's own
#: adjustment of its mmap threshold on 64-bit systems (32 MiB) and the trim threshold it pairs with it (twice that)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_STEADY_HEAP = ((_M_MMAP_THRESHOLD, 32 << 20), (_M_TRIM_THRESHOLD, 64 << 20))
#: what :func:`steady_heap` found, once it has run: whether the C library took the settings
_steady: list[bool] = []


def steady_heap() -> bool:
    """Let the C library keep the memory numpy's temporaries give back, once a process; True when it took it.

    glibc serves an allocation of 128 KiB or more with a fresh ``mmap`` and gives the top of its heap back
    to the system when more than twice that is free, raising both limits only when such a block is freed. A
    conversion of a big file raises them on its first chunk; one of 1,000 boards never gets that far, so each
    conversion touched some 230 fresh pages for its temporaries (a page fault each, about 2 us on this
    machine's VM: 0.45 ms of a 4 ms conversion, the most of what a small file paid more a board than a
    big one), and a ZRD -> ZBD copy, whose chunks keep their words while the writer lays out their
    bytes, some 4,000 of a million records (5,000 faults, not 1,100). Set here to where glibc's own
    adjustment ends, once, before the first chunk of any bulk or chunked conversion. Other C libraries
    (no ``mallopt``) are left as they are."""
    if not _steady:
        _steady.append(_set_heap_limits())
    return _steady[0]


def _set_heap_limits() -> bool:
    import ctypes

    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):  # not glibc
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    return all(mallopt(param, value) == 1 for param, value in _STEADY_HEAP)
