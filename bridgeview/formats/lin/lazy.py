"""Big LIN hand-record files read lazily: one scan of the ``|`` bars, boards decoded on demand.

A LIN file of hand records (``pn|…|st||md|…|…|pg||`` a board, as BBO's "download
hand records" and deal generators write them) has no state that runs across
boards.  So :func:`index_boards` finds the pairs with numpy (every second bar closes a
value), and the boards start where the eager splitter starts them: at each
``md`` after the first, moved back over the ``pn``/``st`` pairs just before it.
A board is decoded by the ordinary LIN reader from its own bytes, with the
file's line numbers.

Boards with ``qx`` ids (what our own export and BBO's downloads write) start at
each ``qx`` instead, moved back over a ``pn``/``st`` that follows the deal of the
board before (GIB's ``pn|…|qx|…|md|…``; the decoder puts them after the ``qx``, as
the eager splitter does), and the one thing they share -- whether any board is in
the closed room, without which the "Open" room says nothing -- is found by the
scan.  Files with anything else that depends on the whole file -- file keys
(``vg``, ``rs``, ``pw``, ``mp``, ``bn``: results by board number, headers),
pairs before the first ``qx`` that hold no deal (file-level players), ``%``
comments, a stray text, a key that is not two letters -- are read the eager way:
:func:`index_boards` returns None for them.
"""

from __future__ import annotations

import codecs
import contextlib
import mmap
import os
from collections import OrderedDict
from collections.abc import Callable, Iterator
from functools import cache
from typing import IO, TYPE_CHECKING, Any, TypeGuard

from ...model.board import Board
from ...model.boardset import BoardSet, FileInfo, LazyBoardSet, SetKind
from ...model.cards import Card
from ...model.problem import Problem
from ..codec import is_lazy_text
from ..errors import FormatError
from ..lazytext import LazyLines, text_encoding
from ..mapped import map_file, release
from ..textcheck import EIGHT_BIT, decode_errors, is_utf8, undecodable_offsets, undecodable_problems
from .read import (
    QX_VALUE,
    ROOM_TAG,
    ReadContext,
    implied_result,
    needs_rs,
    nothing_readable,
    parse_board,
    parse_calls,
    parse_text,
)
from .tokens import scan
from .write import board_pairs, document_text, join_pairs

if TYPE_CHECKING:
    import numpy as np

#: files from this size on are read lazily when their shape allows
LAZY_MIN_BYTES = 8 << 20
CACHE_BOARDS = 256
_FILE_KEYS = (b"vg", b"rs", b"pw", b"mp", b"bn")
_MD_CODE = ord("m") << 8 | ord("d")  # keys as scan reads them: two lower-case bytes as one number
_QX_CODE = ord("q") << 8 | ord("x")


@cache
def _letter() -> np.ndarray:
    """Byte -> is an ASCII letter; built on first use so importing the codec needs no numpy."""
    import numpy as np

    table = np.zeros(256, dtype=bool)
    table[list(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")] = True
    return table


@cache
def _file_keys() -> np.ndarray:
    """Key (two lower-case bytes as one number, as :func:`_window` reads them) -> is a file key (:data:`_FILE_KEYS`):
    one look-up a key, not a comparison with each (five rounds of numpy calls a window)."""
    import numpy as np

    table = np.zeros(1 << 16, dtype=bool)
    table[[key[0] << 8 | key[1] for key in _FILE_KEYS]] = True
    table.setflags(write=False)
    return table


@cache
def _space() -> np.ndarray:
    """Byte -> is white space."""
    import numpy as np

    table = np.zeros(256, dtype=bool)
    table[list(b" \t\r\n\f\v")] = True
    return table


class LinIndex:
    """Where each board of a mapped LIN file starts, and the newlines before each."""

    def __init__(
        self,
        buf: mmap.mmap | bytes,
        base: int,
        encoding: str,
        starts: np.ndarray,
        lines: np.ndarray,
        has_qx: bool = False,
        has_closed: bool = False,
        crlf: bool = False,
    ) -> None:
        self.buf = buf
        self.base = base
        self.encoding = encoding
        self.starts = starts  # byte offset where each board's text starts
        self.lines = lines  # newlines before each start
        self.end = len(buf)
        self.has_qx = has_qx  # boards have qx ids (an edited board is saved with one too)
        self.has_closed = has_closed  # some qx names the closed room: the open room is kept on the others
        self.crlf = crlf  # the file has a CR LF line end (saving keeps them)

    def __len__(self) -> int:
        return int(self.starts.shape[0])

    def text(self, i: int) -> str:
        a = int(self.starts[i])
        b = int(self.starts[i + 1]) if i + 1 < len(self) else self.end
        errors = decode_errors(self.encoding)  # an undefined byte: a problem of its board
        return bytes(self.buf[a:b]).decode(self.encoding, errors=errors)

    def undecodable(self, i: int) -> list[tuple[int | None, str]]:
        """Board ``i``'s bytes that are not characters in the file's encoding, as problems ``(line, message)``."""
        if self.encoding != EIGHT_BIT:
            return []
        a = int(self.starts[i])
        raw = bytes(self.buf[a : int(self.starts[i + 1]) if i + 1 < len(self) else self.end])
        found = undecodable_problems(
            raw, undecodable_offsets(raw, self.encoding), None, first_line=int(self.lines[i]) + 1
        )
        return [(line, msg) for _i, line, msg in found]


#: bytes of the file looked at together by :func:`index_boards` (its arrays are a few dozen bytes a byte)
SCAN_WINDOW = 1 << 20


class _Pairs:
    """What :func:`index_boards` carries from window to window: counts of pairs and deals, where a board moved back
    over ``pn``/``st`` pairs would start, the boards found, and what is known of the rooms."""

    def __init__(self, base: int) -> None:
        self.count = 0  # pairs so far
        self.last_other = -1  # the last pair that is not pn/st
        self.after_other = base  # where the pair after it starts
        self.deals = 0  # md pairs so far
        self.group_deals = 0  # md pairs since the last qx (all of them before the first qx)
        self.has_qx = False
        self.has_closed = False
        self.maybe_closed: list[tuple[int, int]] = []  # qx values that are not ASCII: looked at once decoded
        self.starts: list[np.ndarray] = []
        self.high = 0  # the highest byte seen (ASCII or not)
        self.crlf = False  # a CR LF line end seen


def index_boards(buf: mmap.mmap | bytes) -> LinIndex | None:
    """Index the boards of a hand-record LIN file; None when the file needs the eager reader.  The file is
    looked at a window at a time (each ending after a value), so memory is that of a window and of what
    is kept of each board, whatever the file's size."""
    import numpy as np

    base = 3 if buf[:3] == b"\xef\xbb\xbf" else 0
    arr = np.frombuffer(buf, np.uint8)
    n = arr.shape[0]
    if n <= base or buf.find(b"\x00", base, min(n, base + 4096)) >= 0:
        return None
    pairs = _Pairs(base)
    for pos, end, bars in _windows(buf, arr, base):
        if end == n and (bars.shape[0] % 2 or not _space()[arr[int(bars[-1]) + 1 if bars.shape[0] else pos :]].all()):
            return None  # a key without its value, or text after the last pair
        if not _window(arr, pos, bars, pairs):
            return None
        pairs.crlf = pairs.crlf or buf.find(b"\r\n", max(base, pos - 1), end) >= 0
    if not pairs.deals:
        return None
    encoding = "utf-8" if pairs.high < 0x80 else text_encoding(buf, base)
    if encoding != "utf-8":
        if base:  # a UTF-8 mark on text that is not UTF-8: the eager reader says so
            return None
        encoding = EIGHT_BIT  # as textcheck.decode_text decides it
    has_closed = pairs.has_closed or any(_names_closed(bytes(buf[a:b]), encoding) for a, b in pairs.maybe_closed)
    starts = np.concatenate(pairs.starts).astype(np.int64)
    return LinIndex(buf, base, encoding, starts, _lines_before(buf, arr, starts), pairs.has_qx, has_closed, pairs.crlf)


def _windows(
    buf: mmap.mmap | bytes, arr: np.ndarray, base: int, size: int | None = None
) -> Iterator[tuple[int, int, np.ndarray]]:
    """The file from ``base`` a window of about ``size`` bytes (:data:`SCAN_WINDOW`) at a time, each but the last
    ending after a value: where each starts and ends, and the offsets of its bars.  A window's pages are given
    back once the next is asked for."""
    import numpy as np

    size = size or SCAN_WINDOW
    n = arr.shape[0]
    pos = base
    window = size
    while pos < n:
        end = min(n, pos + window)
        bars = np.flatnonzero(arr[pos:end] == ord("|"))
        if end < n:  # end the window after the last value closed in it
            closing = bars.shape[0] - 1 if bars.shape[0] % 2 == 0 else bars.shape[0] - 2
            if closing < 1:
                window *= 2  # a value longer than the window: look further
                continue
            bars = bars[: closing + 1]
            end = pos + int(bars[-1]) + 1
        yield pos, end, bars + pos
        release(buf, pos, end)  # (the pages before were given back with the window before)
        pos, window = end, size


def _window(arr: np.ndarray, pos: int, bars: np.ndarray, pairs: _Pairs) -> bool:
    """Look at the pairs whose bars are ``bars`` (the window starts at ``pos``, after a value); note what
    :func:`index_boards` keeps of them in ``pairs``.  False when the file needs the eager reader."""
    import numpy as np

    if not bars.shape[0]:
        return True
    piece = arr[pos : int(bars[-1]) + 1]
    pairs.high = max(pairs.high, int(piece.max()))
    if (piece == ord("%")).any():  # comment lines (or a % in a value): the eager reader decides
        return False
    key_end = bars[0::2]  # the bar after each key
    key_start = np.concatenate(([pos], bars[1::2][:-1] + 1))  # where the text before each key starts
    # keys written the plain way: exactly two letters right before the bar, only spaces before them
    if not (key_end - key_start >= 2).all():
        return False
    first, second = arr[key_end - 2], arr[key_end - 1]
    if not (_letter()[first] & _letter()[second]).all():
        return False
    padded = np.flatnonzero(key_end - key_start > 2)
    if padded.shape[0] and not _only_space_before(arr, key_start[padded], key_end[padded] - 2):
        return False  # text before a key that is not white space (a line break)
    keys = (first | 0x20).astype(np.uint16) << 8 | (second | 0x20)  # lower case, two bytes as one number
    if _file_keys()[keys].any():
        return False
    lead = (keys == (ord("p") << 8 | ord("n"))) | (keys == (ord("s") << 8 | ord("t")))
    idx = np.arange(keys.shape[0], dtype=np.int64)
    # the last pair that is not pn/st before each pair (as a pair number), and where the pair after it starts
    last = np.maximum.accumulate(np.concatenate(([pairs.last_other], np.where(lead, -1, idx + pairs.count))))
    starts_ext = np.concatenate((key_start, [int(bars[-1]) + 1]))
    if pairs.count == 0 and keys[0] != _QX_CODE:
        pairs.starts.append(np.array([pos], dtype=np.int64))  # the first board: at the start of the file
    # the deals and board ids, in order: a board starts at each qx, and at each md after the first since the
    # last qx; either moved back over pn/st, a qx only when the group before it holds a deal
    events = np.flatnonzero((keys == _MD_CODE) | (keys == _QX_CODE))
    if events.shape[0]:
        is_qx = keys[events] == _QX_CODE
        deals_to = np.cumsum(~is_qx)  # md pairs among the events up to each
        deals_before = deals_to - ~is_qx
        last_qx = np.maximum.accumulate(np.where(is_qx, np.arange(events.shape[0]), -1))
        qx_before = np.concatenate(([-1], last_qx[:-1]))
        since = np.where(
            qx_before >= 0,
            deals_before - deals_to[np.maximum(qx_before, 0)],
            pairs.group_deals + deals_before,
        )  # md pairs since the last qx, before each event
        if not pairs.has_qx and is_qx.any():
            q = int(np.argmax(is_qx))
            if pairs.count + int(events[q]) > 0 and since[q] == 0:
                return False  # pairs before the first qx without a deal: the file's header
        before = last[:-1][events]
        back = np.where(before >= pairs.count, starts_ext[np.maximum(before - pairs.count + 1, 0)], pairs.after_other)
        cut = since > 0
        pairs.starts.append(np.where(is_qx & ~cut, key_start[events], back)[cut | is_qx])
        if is_qx.any():
            pairs.has_qx = True
            lq = int(last_qx[-1])
            pairs.group_deals = int(deals_to[-1] - deals_to[lq])
            if not pairs.has_closed:
                qx_at = events[is_qx]
                _note_rooms(arr, key_end[qx_at] + 1, bars[1::2][qx_at], pairs)
        else:
            pairs.group_deals += int(deals_to[-1])
        pairs.deals += int(deals_to[-1])
    if last[-1] >= pairs.count:
        pairs.after_other = int(starts_ext[last[-1] - pairs.count + 1])
    pairs.last_other = int(last[-1])
    pairs.count += keys.shape[0]
    return True


def _only_space_before(arr: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> bool:
    """Whether every ``arr[starts[k]:ends[k]]`` is white space: a line break or two before a key, looked at
    byte by byte with numpy; longer runs one by one (there are few)."""
    import numpy as np

    space = _space()
    width = ends - starts
    if not space[arr[starts]].all():
        return False
    two = width >= 2
    if two.any() and not space[arr[starts[two] + 1]].all():
        return False
    longer = np.flatnonzero(width > 2)
    return all(space[arr[int(starts[k]) + 2 : int(ends[k])]].all() for k in longer.tolist())


def _lines_before(buf: mmap.mmap | bytes, arr: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The line breaks before each of ``starts`` (sorted), counted a window at a time."""
    import numpy as np

    lines = np.zeros(starts.shape[0], dtype=np.int64)
    seen = 0
    n = arr.shape[0]
    for a in range(0, n, SCAN_WINDOW):
        b = min(n, a + SCAN_WINDOW)
        breaks = np.flatnonzero(arr[a:b] == 10)
        lo, hi = np.searchsorted(starts, [a, b])
        lines[lo:hi] = seen + np.searchsorted(breaks, starts[lo:hi] - a)
        seen += breaks.shape[0]
        release(buf, 0, b)
    return lines


def _note_rooms(arr: np.ndarray, value_start: np.ndarray, value_end: np.ndarray, pairs: _Pairs) -> None:
    """Note whether some of these ``qx`` values names the closed room, read as the eager reader reads it;
    only the values that start with a ``c`` or a space (none, in files that programs write) are looked at
    closely, and those that are not ASCII once the file's encoding is known."""
    import numpy as np

    filled = value_start < value_end
    starts, ends = value_start[filled], value_end[filled]
    first = arr[starts]
    maybe = np.flatnonzero((first == ord("c")) | (first == ord("C")) | _space()[first])
    for a, b in zip(starts[maybe].tolist(), ends[maybe].tolist(), strict=True):
        value = arr[a:b].tobytes()
        if not value.isascii():
            pairs.maybe_closed.append((a, b))
        elif _names_closed(value, "ascii"):
            pairs.has_closed = True
            return


def _names_closed(value: bytes, encoding: str) -> bool:
    m = QX_VALUE.fullmatch(value.decode(encoding, errors="replace").split(",")[0])
    return bool(m and m.group(1).lower() == "c")


class LazyLinSet(LazyBoardSet):
    """A hand-record LIN file's boards, decoded on demand; ``problems_of(i)`` as for lazy PBN."""

    lazy_kind = SetKind.LIN_TEXT
    lin_index: LinIndex

    @property
    def start_board(self) -> int | None:
        """The number given to the first board when reading (``--start-board``), None when the file numbers them."""
        return self._start_board

    def __init__(self, index: LinIndex, info: FileInfo, start_board: int | None, keepalive: Any = None) -> None:
        super().__init__(len(index), self._decode_board, info, keepalive=keepalive)
        self.lin_index = index  # not ``index``: that is Sequence.index
        self._start_board = start_board
        self._cache: OrderedDict[int, tuple[Board, list[tuple[int | None, str]], int]] = OrderedDict()
        self._noted: set[int] = set()

    def data_start(self, index: int) -> int | None:
        return int(self.lin_index.starts[index])

    def mapped_buffer(self) -> Any:
        return self.lin_index.buf

    def decoded(self, i: int) -> tuple[Board, list[tuple[int | None, str]], int]:
        """Board ``i``, its problems ``(line, message)`` and the line of its first pair."""
        hit = self._cache.get(i)
        if hit is not None:
            self._cache.move_to_end(i)
            return hit
        index = self.lin_index
        toks = scan(index.text(i), line_base=int(index.lines[i]))
        group: range | list[int] = range(len(toks))
        if index.has_qx and toks.keys and toks.keys[0] in ("pn", "st"):
            group = _qx_first(toks.keys)
        ctx = ReadContext(start_board=self._start_board)
        try:
            board = parse_board(toks, group, i, ctx)
        except FormatError as e:
            e.path = e.path or self.info.path
            raise
        if index.has_qx and not index.has_closed and board.tags.get(ROOM_TAG) == "Open":
            del board.tags[ROOM_TAG]  # with one room only, the room says nothing
        if board.result is None:
            board.result = implied_result(board)
        probs = [(line, msg) for _i, line, msg in ctx.problems] + index.undecodable(i)
        hit = (board, probs, toks.line(group[0]) if len(group) else toks.line(0))
        self._cache[i] = hit
        if len(self._cache) > CACHE_BOARDS:
            self._cache.popitem(last=False)
        if probs and i not in self._noted:
            self._noted.add(i)
            self.problems.extend(Problem(i, line, msg) for line, msg in probs)
        return hit

    def _decode_board(self, i: int) -> Board:
        return self.decoded(i)[0]

    def problems_of(self, i: int) -> list[tuple[int | None, str]]:
        """The reader's problems of board ``i``; none for a board that cannot be read at all (its board
        stands in as unreadable, with the error)."""
        try:
            return list(self.decoded(i)[1])
        except FormatError:
            return []

    def line_of(self, i: int) -> int:
        """The line of board ``i``'s first pair (of its error, for a board that cannot be read)."""
        try:
            return self.decoded(i)[2]
        except FormatError as e:
            if e.line is not None:
                return e.line
            text = self.lin_index.text(i)
            return int(self.lin_index.lines[i]) + 1 + text[: len(text) - len(text.lstrip())].count("\n")


def _qx_first(keys: list[str]) -> range | list[int]:
    """The pairs of a board that starts with the ``pn``/``st`` left after the deal before it, in the order the
    eager splitter gives them: its ``qx`` first, then those pairs, then the rest."""
    q = 0
    while q < len(keys) and keys[q] in ("pn", "st"):
        q += 1
    if q == len(keys) or keys[q] != "qx":
        return range(len(keys))
    return [q, *range(q), *range(q + 1, len(keys))]


def read_lazy(path: str | os.PathLike[str], start_board: int | None = None) -> LazyLinSet | None:
    """Open a hand-record LIN file lazily; None when its shape needs the eager reader."""
    try:
        buf = map_file(path)
    except OSError as e:
        if e.filename is not None:  # the file cannot be opened
            raise FormatError(e.strerror or str(e), path=str(path)) from None
        return None  # nor mapped (a device, a pipe): the eager reader reads it
    except ValueError:
        return None
    index = index_boards(buf)
    if index is None:
        if isinstance(buf, mmap.mmap):
            buf.close()
        return None
    info = FileInfo(format="lin", path=str(path))
    doc = LazyLinSet(index, info, start_board, keepalive=buf)
    info.extra["board_lines"] = LazyLines(doc)
    info.extra["encoding"] = index.encoding
    info.extra["newline"] = "\r\n" if index.crlf else "\n"
    try:
        _some_board_reads(doc)
    except FormatError:
        with contextlib.suppress(BufferError, ValueError, AttributeError):
            buf.close()
        raise
    return doc


def _some_board_reads(doc: LazyLinSet) -> None:
    """Raise the whole-file reader's error for a file none of whose boards can be read (no damaged LIN file,
    but no LIN at all).  Boards are decoded from the first until one reads: nearly always just the first."""
    for i in range(len(doc)):
        if doc.decoded(i)[0].unreadable is None:
            return
    board, problems, _line = doc.decoded(0)
    error = nothing_readable(board, problems)
    error.path = doc.info.path
    raise error


_PC_CODE = ord("p") << 8 | ord("c")
_MB_CODE = ord("m") << 8 | ord("b")
#: ``pc`` and ``mb`` values of up to this many bytes are tried once per distinct value; longer ones board by board
_SHORT_VALUE = 7
#: bytes of the file looked at together when looking for boards that cannot be read (a save's check), at
#: least: a 256th of the file, up to a scan's window, so its arrays (some dozen bytes a byte of the window)
#: stay a small part of what the save copies
CHECK_WINDOW = 1 << 14


def unreadable_boards(doc: LazyLinSet) -> list[int]:
    """The untouched boards of ``doc`` that cannot be read (a card, call or deal the reader refuses), in order:
    the check refuses them, as it does for the file read whole.  One pass over the file a window at a time
    picks the boards that might be so -- a ``pc`` or ``mb`` value the reader refuses (each distinct one tried
    once), an ``md`` that is not three or four plain full hands -- and only those are decoded, so a big file of
    hand records is not decoded board by board to learn that every board reads."""
    import numpy as np

    index = doc.lin_index
    arr = np.frombuffer(index.buf, np.uint8)
    verdicts: dict[bytes, bool] = {}
    found: list[int] = []
    window = max(CHECK_WINDOW, min(SCAN_WINDOW, index.end >> 8))
    for _pos, _end, bars in _windows(index.buf, arr, index.base, window):
        at = _doubtful_pairs(arr, bars, index.encoding, verdicts)
        if at.shape[0]:
            found.extend(np.unique(np.searchsorted(index.starts, at, side="right") - 1).tolist())
    del arr
    return [i for i in sorted(set(found)) if i not in doc._edits and doc[i].unreadable]


def _doubtful_pairs(arr: np.ndarray, bars: np.ndarray, encoding: str, verdicts: dict[bytes, bool]) -> np.ndarray:
    """Where the ``md``, ``mb`` and ``pc`` pairs among ``bars`` that might not be read are (the bar after their
    key); ``verdicts`` keeps whether each short value tried so far reads."""
    import numpy as np
    from numpy.lib.stride_tricks import sliding_window_view

    if not bars.shape[0]:
        return bars
    key_end, value_end = bars[0::2], bars[1::2]
    keys = (arr[key_end - 2] | 0x20).astype(np.uint16) << 8 | (arr[key_end - 1] | 0x20)
    value_start = key_end + 1
    size = value_end - value_start
    doubt = np.zeros(keys.shape[0], dtype=bool)
    played = np.flatnonzero((keys == _PC_CODE) | (keys == _MB_CODE))
    width = _SHORT_VALUE + 1
    fits = (size[played] <= _SHORT_VALUE) & (value_start[played] <= arr.shape[0] - width)
    doubt[played[~fits]] = True
    short = played[fits]
    if short.shape[0]:
        # each value as 8 bytes: its bytes, then its size and whether it is a card; one number to find the distinct
        rows = sliding_window_view(arr, width)[value_start[short]]
        rows[np.arange(width) >= size[short, None]] = 0
        rows[:, -1] = size[short] | (keys[short] == _PC_CODE).astype(np.uint8) << 7
        distinct, which = np.unique(rows.view(np.uint64).ravel(), return_inverse=True)
        as_bytes = distinct.view(np.uint8).reshape(-1, width)
        fails = np.array([not _short_value_reads(row.tobytes(), encoding, verdicts) for row in as_bytes], dtype=bool)
        doubt[short[fails[which.ravel()]]] = True
    deals = np.flatnonzero(keys == _MD_CODE)
    if deals.shape[0]:
        doubt[deals[~_plain_full_deals(arr, value_start[deals], size[deals])]] = True
    return key_end[doubt]


def _short_value_reads(raw: bytes, encoding: str, verdicts: dict[bytes, bool]) -> bool:
    """Whether a short ``pc`` or ``mb`` value reads (``raw``: its bytes, then its size and whether it is a card)."""
    known = verdicts.get(raw)
    if known is None:
        text = raw[: raw[-1] & 0x7F].decode(encoding, errors="replace")
        try:
            Card.parse(text) if raw[-1] & 0x80 else parse_calls(text)
            known = True
        except Exception:
            known = False
        verdicts[raw] = known
    return known


@cache
def _hand_ranks() -> np.ndarray:
    """Byte -> rank (2 = 0 ... ace = 12) of a hand written the plain way, 13 for a suit letter, 255 for any other."""
    import numpy as np

    table = np.full(256, 255, dtype=np.uint8)
    table[list(b"23456789TJQKA")] = np.arange(13, dtype=np.uint8)
    table[list(b"SHDC")] = 13
    return table


def _plain_full_deals(arr: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """Which ``md`` values (at ``starts``, of ``sizes`` bytes) are surely read: a dealer digit 0-4, then three or
    four 13-card hands written the plain way (``S…H…D…C…``, upper case, the fourth left out after a comma) with
    no card twice.  Any other (a partial deal, another spelling) may still read: its board is decoded."""
    import numpy as np
    from numpy.lib.stride_tricks import sliding_window_view

    plain = np.zeros(starts.shape[0], dtype=bool)
    for width, hands in ((72, 4), (55, 3)):
        at = np.flatnonzero((sizes == width) & (starts <= arr.shape[0] - width))
        if not at.shape[0]:
            continue
        rows = sliding_window_view(arr, width)[starts[at]]  # the dealer digit, then 17 bytes and a comma a hand
        ok = (rows[:, 0] >= ord("0")) & (rows[:, 0] <= ord("4"))
        ok &= (rows[:, 18::18] == ord(",")).all(axis=1)
        hand = np.concatenate((rows, np.full((at.shape[0], 73 - width), ord(","), np.uint8)), axis=1)
        hand = hand[:, 1:].reshape(-1, 4, 18)[:, :hands, :17]
        rank = _hand_ranks()[hand]
        mark = rank == 13
        ok &= (rank != 255).all(axis=(1, 2)) & (mark.sum(axis=2, dtype=np.int8) == 4).all(axis=1)
        suit = np.cumsum(mark, axis=2, dtype=np.int8) - 1  # 0 = spades ... 3 = clubs, in this order
        ok &= (np.where(mark, hand, 0) == np.where(mark, np.frombuffer(b"SHDC", np.uint8)[suit.clip(0, 3)], 0)).all(
            axis=(1, 2)
        )
        ok &= (hand[:, :, 0] == ord("S")).all(axis=1)
        cards = np.where(mark, 255, (3 - suit).astype(np.uint8) * 13 + rank).reshape(at.shape[0], -1)
        cards.sort(axis=1)  # each card once: 13 a hand, none twice (the suit letters sort last)
        ok &= (cards[:, 1 : 13 * hands] != cards[:, : 13 * hands - 1]).all(axis=1)
        plain[at] = ok
    return plain


#: bytes copied from the mapped file at a time when saving
COPY_CHUNK = 1 << 20


def is_lazy_lin(doc: object) -> TypeGuard[LazyLinSet]:
    """True when ``doc`` is a lazy LIN set still read from its file (through any progress wrapper), so saving
    can copy its untouched boards."""
    return is_lazy_text(doc, "lin")


def write_lazy(doc: LazyLinSet, out: IO[bytes], encoding: str, newline: str) -> bool:
    """Save a lazy set board by board: the untouched boards' bytes straight from the mapped file (their text,
    re-encoded, when the encoding or line ends change), each edited board's new text in its place between the
    white space the file had there.  Memory stays that of one board.  False when the set needs the
    whole-file writer: an edited board whose result only a file-level ``rs`` list can hold."""
    edits = doc._edits
    if any(needs_rs(b) for b in edits.values()):
        return False
    idx = doc.lin_index
    info = doc.info
    enc = "utf-8" if is_utf8(encoding) else encoding
    same = newline == info.extra.get("newline") and enc == idx.encoding
    encoder = codecs.getincrementalencoder(enc)(errors="replace")
    buf = idx.buf
    spans = len(idx)

    def emit(text: str) -> None:
        out.write(encoder.encode(text))

    def copy(a: int, b: int) -> None:
        if same:
            for k in range(a, b, COPY_CHUNK):
                out.write(buf[k : min(b, k + COPY_CHUNK)])
        elif b > a:  # a piece of whole boards (see _copy_boards): decoded, its line ends changed, encoded
            errors = decode_errors(idx.encoding)
            text = bytes(buf[a:b]).decode(idx.encoding, errors=errors)
            text = text.replace("\r\n", "\n")
            emit(text if newline == "\n" else text.replace("\n", newline))

    def end(i: int) -> int:
        return int(idx.starts[i + 1]) if i + 1 < spans else idx.end

    if same:
        copy(0, idx.base)  # a UTF-8 mark stays first (re-encoded text gets one only from a "-sig" encoding)
    emit(document_text(BoardSet([], info), newline))  # a header only when the file info was edited
    pos = idx.base
    for i in sorted(k for k in edits if 0 <= k < spans):
        a, b = int(idx.starts[i]), end(i)
        span = bytes(buf[a:b])
        lead = a + len(span) - len(span.lstrip())
        trail = a + len(span.rstrip())
        _copy_boards(copy, idx, pos, lead)
        emit(_board_text(edits[i], idx.has_qx))
        pos = trail
    _copy_boards(copy, idx, pos, idx.end)
    out.write(encoder.encode("", final=True))
    return True


def _copy_boards(copy: Callable[[int, int], None], idx: LinIndex, a: int, b: int) -> None:
    """Copy bytes ``a:b`` of the file, in pieces that end where a board starts when they are re-encoded."""
    if a >= b:
        return
    import numpy as np

    cuts = idx.starts[np.searchsorted(idx.starts, a, side="right") : np.searchsorted(idx.starts, b, side="left")]
    pos = a
    for k in range(0, cuts.shape[0], 256):  # a piece every 256 boards: a few hundred KB at most
        cut = int(cuts[k])
        copy(pos, cut)
        pos = cut
    copy(pos, b)


def _board_text(board: Board, with_qx: bool = False) -> str:
    """An edited board as one LIN line in the style of the file: with ``qx`` in a file of ``qx`` boards; else
    without, unless its number or room would then be lost (the file is then read the ``qx`` way next time)."""
    pairs = board_pairs(board)
    text = join_pairs(pairs)
    if board.number is not None:
        number = None
        if not with_qx:
            try:
                number = parse_text(text)[0].number
            except (FormatError, IndexError):
                number = None
        if with_qx or number != board.number or ROOM_TAG in board.tags:
            room = "c" if board.tags.get(ROOM_TAG) == "Closed" else "o"
            text = join_pairs([("qx", f"{room}{board.number}"), *pairs])
    return text
