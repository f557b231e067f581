"""Writing LIN a piece at a time: never the whole text, nor a list of every board.

Any set is written line by line from :func:`.write.document_lines`.  A lazily read
binary set (ZRD, ZBD: nothing but a deal, a number and perhaps a DD table a
board, none of which LIN keeps but the deal and number) is written from its bulk
chunks instead: the ``md`` hands, 17 bytes each whatever their shape, are
scattered with numpy, and the boards the user edited are written by
:func:`.write.board_line` as always.  The bytes are those of the whole-text writer
(the tests compare them); its check is counted from the same chunks.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator
from functools import cache
from typing import IO, TYPE_CHECKING, Any

from ...model.boardset import Boards, BoardSet, LazyBoardSet, is_board_source, lazy_set
from ...model.text import plural
from ...model.vulnerability import dealer_for_board, vulnerability_for_board
from ..bulk import DD_UNKNOWN, FAST_CODECS, complete_rows, first_number, with_complete_rows
from ..codec import BridgeCodec, SaveReport, deal_errors, meaningful, progress_of
from .read import LIN_SEATS, VUL_LETTERS, needs_rs
from .write import board_line, document_lines, unreadable_deal

if TYPE_CHECKING:
    import numpy as np

    from ..codec import SaveReport

#: bytes gathered before a write
FLUSH_BYTES = 1 << 22


def write(doc: Boards, out: IO[bytes], encoding: str, newline: str) -> None:
    """Write ``doc`` as LIN to ``out`` in pieces of a few megabytes."""
    encoder = codecs.getincrementalencoder(encoding)(errors="replace")
    pending: list[bytes] = []
    size = 0
    lazy = fast(doc)
    lines = _fast_lines(lazy, newline, encoder.encode) if lazy is not None else _lines(doc, newline, encoder.encode)
    for data in lines:
        pending.append(data)
        size += len(data)
        if size >= FLUSH_BYTES:
            out.write(b"".join(pending))
            pending.clear()
            size = 0
    pending.append(encoder.encode("", final=True))
    out.write(b"".join(pending))


def _lines(doc: Any, newline: str, encode: Any) -> Iterator[bytes]:
    for line in document_lines(doc, newline):
        yield encode(line)


def fast(doc: Boards) -> LazyBoardSet | None:
    """The lazily read ZRD or ZBD set ``doc`` is (through any progress wrapper) when its edited boards (if any)
    need no ``rs`` line: written from chunks; else None."""
    lazy = lazy_set(doc) if is_board_source(doc) else None
    if lazy is None or lazy.bulk is None or lazy.info.format not in FAST_CODECS or lazy.info.extra.get("lin_rs"):
        return None
    return None if any(needs_rs(b) for b in lazy.edits.values()) else lazy


@cache
def _numbering() -> tuple[tuple[bytes, bytes], ...]:
    """(dealer digit, vulnerability letter) of board numbers 1..16 (index ``(number - 1) % 16``)."""
    return tuple(
        (
            b"%d" % (LIN_SEATS.index(dealer_for_board(n)) + 1),
            VUL_LETTERS[vulnerability_for_board(n)].encode("ascii"),
        )
        for n in range(1, 17)
    )


def md_bytes(owners: np.ndarray) -> np.ndarray:
    """(n, 71) uint8: the four hands of complete deals as :func:`.write.md_text` writes them after the
    dealer digit: South, West, North, East, each ``S…H…D…C…`` with the ranks high to low (17 bytes)."""
    import numpy as np

    n = owners.shape[0]
    out = np.zeros((n, 71), dtype=np.uint8)
    out[:, [17, 35, 53]] = ord(",")
    flat = out.reshape(-1)
    # our seats N E S W are LIN's hands 2 3 0 1; the next free place of each (row, seat), as an index into flat
    place = np.array([2, 3, 0, 1], dtype=np.int64) * 18
    free = (np.arange(n, dtype=np.int64)[:, None] * 71 + place[None, :]).reshape(-1)
    row4 = np.arange(n, dtype=np.int64) * 4
    ranks = b"23456789TJQKA"
    for c in range(51, -1, -1):
        if c % 13 == 12:  # a new suit: its letter in every hand
            flat[free] = ord("SHDC"[3 - c // 13])
            free += 1
        slot = row4 + owners[:, c]
        at = free[slot]
        flat[at] = ranks[c % 13]
        free[slot] = at + 1
    return out


def _fast_lines(doc: LazyBoardSet, newline: str, encode: Callable[[str], bytes]) -> Iterator[bytes]:
    """The lines of a lazy ZRD/ZBD set (see :func:`fast`), a chunk of boards at a time."""
    import numpy as np

    tell = progress_of(doc)
    yield encode("".join(document_lines(BoardSet([], doc.info), newline)))  # the header, if the info has one
    edits = doc.edits
    numbering = _numbering()
    nl = encode(newline)
    first = first_number(doc) if len(doc) else 1
    done = 0
    for chunk in doc.bulk() if doc.bulk is not None else ():
        tell(done)
        owners = np.ascontiguousarray(chunk.owners)
        full = complete_rows(owners)
        md = md_bytes(with_complete_rows(owners, full)).tobytes()  # (the rows not full go to board_line)
        fulls = full.tolist()
        for r in range(owners.shape[0]):
            i = done + r
            board = edits.get(i)
            if board is None and fulls[r]:
                number = first + i
                digit, vul = numbering[(number - 1) % 16]
                yield b"qx|o%d|pn|,,,|st||md|%s%s|rh||ah|Board %d|sv|%s|%s" % (
                    number,
                    digit,
                    md[71 * r : 71 * r + 71],
                    number,
                    vul,
                    nl,
                )
            else:
                yield encode(board_line(board if board is not None else doc[i]) + newline)
            if r and r % 4096 == 0:
                tell(i)
        done += owners.shape[0]


def fast_check(codec: BridgeCodec, doc: LazyBoardSet) -> SaveReport:
    """What LIN's check says of a lazy ZRD/ZBD set with nothing edited, counted from its chunks: the
    deals it cannot hold (none are partial in those formats: a broken one has a hand of more than 13 cards,
    which no LIN reader reads back) and the DD tables it drops."""
    import numpy as np

    rep = SaveReport()
    tell = progress_of(doc)
    dd = done = 0
    for chunk in doc.bulk() if doc.bulk is not None else ():
        tell(done)
        full = complete_rows(np.ascontiguousarray(chunk.owners))
        if not full.all():  # every card of these formats has a hand: a deal not complete has a hand of 14 or more
            rep.errors.extend(_deal_error(codec, doc, done + r) for r in np.flatnonzero(~full).tolist())
        if chunk.dd is not None:
            dd += int((chunk.dd != DD_UNKNOWN).any(axis=(1, 2)).sum())
        done += len(chunk)
    tell(done)
    if dd:
        rep.losses.append(f"double-dummy results of {plural(dd, 'board')}")
    info = doc.info
    if meaningful(info.site) or meaningful(info.date):
        rep.losses.append("the site and date (LIN keeps only the event)")
    return rep


def _deal_error(codec: BridgeCodec, doc: LazyBoardSet, i: int) -> str:
    board = doc[i]
    where = f"board {board.number}" if board.number is not None else f"record {i + 1}"
    errors = deal_errors(codec, board, where)
    why = errors[0] if errors else unreadable_deal(board, where)
    return why if why is not None else f"{where} is not a complete deal"
