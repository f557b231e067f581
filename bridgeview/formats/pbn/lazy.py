"""Big PBN files read lazily: one bytes-level scan for game boundaries, boards decoded on demand.

Opening a PBN file of a million boards the eager way builds a million boards
(minutes, gigabytes).  Here the file is mapped, :func:`index_games` finds where each
game starts and ends with one regular-expression pass over the bytes (the same
split as :func:`.lex.split_games`, kept as numpy offset arrays), and
:class:`LazyPbnSet` decodes a game with the ordinary reader when it is asked
for.  A board decodes exactly as the eager reader would decode it: the same
game text, the same first line, and -- in files that use ``#``/``##`` values --
the same inheritance context, rebuilt from checkpoints taken every
:data:`CHECKPOINT_EVERY` games on a sequential pass.
"""

from __future__ import annotations

import codecs
import copy
import mmap
import os
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import IO, TYPE_CHECKING, Any, TypeGuard

from ...model.board import Board, board_key
from ...model.boardset import FileInfo, LazyBoardSet, SetKind
from ..checksum import MASK64, sum_words, tail_sum
from ..codec import is_lazy_text
from ..errors import FormatError
from ..lazytext import LazyLines, text_encoding
from ..mapped import map_file, release
from ..textcheck import EIGHT_BIT, decode_errors, undecodable_offsets, undecodable_problems
from .context import Context
from .lex import Game, all_percent, detect_newline
from .read import PbnSource, known_field, read_game
from .write import board_text, encoding_name, header_edits, to_lf, unchanged_source

if TYPE_CHECKING:
    import numpy as np

#: files from this size on are read lazily (smaller ones are read whole: every problem known at once)
LAZY_MIN_BYTES = 8 << 20
#: games between inheritance checkpoints in files with ``#`` values
CHECKPOINT_EVERY = 256
#: decoded boards kept (a view repaints a screenful many times)
CACHE_BOARDS = 256
_LINE_BLOCK = 1 << 20  # bytes per entry of the newline-count index
_SCAN_CHUNK = 1 << 24
_SUM_STEP = 1 << 20  # bytes summed at a time for the checksum (a multiple of 8)


def _no_lines() -> np.ndarray:
    """The newline-count index of a file with no lines yet."""
    import numpy as np

    return np.zeros(1, np.int64)


@dataclass
class PbnIndex:
    """Where the games of a mapped PBN file are, as byte offsets."""

    buf: mmap.mmap | bytes
    base: int  # bytes before the text (3 for a UTF-8 byte-order mark)
    encoding: str
    starts: np.ndarray  # int64 byte offset where each game starts
    cends: np.ndarray  # ... where its content ends (before the blank lines after it)
    ends: np.ndarray  # ... where it ends, blank lines included
    preamble: str
    trailer: str
    newline: str
    inherits: bool  # some tag value may start with '#': decode needs the games before
    line_counts: np.ndarray = field(default_factory=_no_lines)  # newlines before each block
    checksum: int | None = None  # Pavlicek's checksum of the file, summed by the scan (None: not summed)

    def __len__(self) -> int:
        return int(self.starts.shape[0])

    def text(self, a: int, b: int) -> str:
        errors = decode_errors(self.encoding)  # an undefined byte: a problem of its game
        return bytes(self.buf[a:b]).decode(self.encoding, errors=errors)

    def raw(self, i: int) -> bytes:
        return bytes(self.buf[int(self.starts[i]) : int(self.ends[i])])

    def line_of(self, offset: int) -> int:
        """0-based line index of byte ``offset`` (newlines before it)."""
        block = offset // _LINE_BLOCK
        return int(self.line_counts[block]) + self.buf[block * _LINE_BLOCK : offset].count(b"\n")


def index_games(buf: mmap.mmap | bytes) -> PbnIndex:
    """Index the games of a PBN file's bytes, the way :func:`.lex.split_games` splits its text."""
    import numpy as np

    n = len(buf)
    arr = np.frombuffer(buf, np.uint8) if n else np.zeros(0, np.uint8)
    base = 3 if buf[:3] == b"\xef\xbb\xbf" else 0
    m_start, m_end, line_counts, inherits, ascii_only, checksum = _blank_runs(arr, base, buf)
    encoding = "utf-8" if ascii_only else text_encoding(buf, base)
    if base and encoding != "utf-8":  # a byte-order mark on text that is not UTF-8: all of it is Latin-1
        base, encoding = 0, EIGHT_BIT
        m_start, m_end, line_counts, inherits, _ascii, checksum = _blank_runs(arr, base, buf)
    elif base:
        encoding = "utf-8-sig"
    decode_as = "utf-8" if encoding == "utf-8-sig" else encoding
    errors = decode_errors(encoding)  # an undefined byte: a problem of its game
    release(buf, 0, n)
    # blocks (start, end of content, end with blank lines), as split_games makes them
    b_start = np.concatenate(([base], m_end))
    b_cend = np.concatenate((m_start + 1, [n]))
    b_end = np.concatenate((m_end, [n]))
    if b_start[-1] >= n:  # the text ends with blank lines: no last block
        b_start, b_cend, b_end = b_start[:-1], b_cend[:-1], b_end[:-1]
    first = np.zeros(len(b_start), np.uint8)
    for a in range(0, n, _SCAN_CHUNK):  # the first byte of each block, a chunk of the file at a time
        lo, hi = np.searchsorted(b_start, [a, a + _SCAN_CHUNK])
        first[lo:hi] = arr[b_start[lo:hi]]
        release(buf, a, a + _SCAN_CHUNK)
    is_game = first == ord("[")
    for blk in np.nonzero(~is_game)[0]:  # the rare block that does not start with a tag: the eager rule
        body = bytes(buf[b_start[blk] : b_cend[blk]]).decode(decode_as, errors=errors)
        is_game[blk] = not (not body.strip() or body.lstrip().startswith("%") and all_percent(body))
    games = np.nonzero(is_game)[0]
    newline = "\n"
    head = bytes(buf[base : base + 4096]).decode(decode_as, errors="replace")
    newline = detect_newline(head) if "\n" in head else newline
    if not len(games):
        return PbnIndex(
            buf,
            base,
            decode_as,
            np.zeros(0, np.int64),
            np.zeros(0, np.int64),
            np.zeros(0, np.int64),
            bytes(buf[base:]).decode(decode_as, errors=errors),
            "",
            newline,
            inherits,
        )
    starts = b_start[games].copy()
    # a game takes the comment-only blocks between it and the game before
    prev = np.concatenate(([games[0]], games[:-1]))
    gap = games - prev > 1
    starts[gap] = b_start[prev[gap] + 1]
    # the leading % lines of the first game are preamble
    k = int(starts[0])
    cend0 = int(b_cend[games[0]])
    while buf[k : k + 1] == b"%":
        nl = buf.find(b"\n", k, cend0)
        if nl < 0:
            break
        k = nl + 1
    starts[0] = k
    last = int(games[-1])
    trailer = bytes(buf[b_start[last + 1] :]).decode(decode_as, errors=errors) if last + 1 < len(b_start) else ""
    idx = PbnIndex(
        buf,
        base,
        decode_as,
        starts,
        b_cend[games].copy(),
        b_end[games].copy(),
        bytes(buf[base:k]).decode(decode_as, errors=errors),
        trailer,
        newline,
        inherits,
    )
    idx.line_counts = line_counts
    idx.checksum = checksum
    release(buf, 0, n)
    return idx


@cache
def _ws() -> np.ndarray:
    """Byte -> is white space other than a newline; built on first use so importing the codec needs no numpy."""
    import numpy as np

    table = np.zeros(256, dtype=bool)
    table[[ord(c) for c in " \t\r\f\v"]] = True
    return table


def _blank_runs(
    arr: np.ndarray,
    base: int,
    buf: mmap.mmap | bytes | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool, bool, int | None]:
    """Spans of the matches of ``\\n(?:[ \\t\\r\\f\\v]*\\n)+`` in ``arr[base:]`` (the blank
    lines that separate games), found with numpy a chunk at a time; the newlines before
    each :data:`_LINE_BLOCK`-byte block (so a game's line number costs one short count);
    whether some tag value may start with ``#``; whether the text is all ASCII; and the
    file's Pavlicek checksum, summed while each chunk is mapped anyway (None when ``base``
    skips a byte-order mark: the words of the file would not line up with the chunks).
    A window showing the file then needs no thread to sum it again, which on a busy
    machine slowed its first moves two- to fourfold.

    A line between two newlines is blank when it is empty or all whitespace; runs of
    blank lines are the regular expression's matches."""
    import numpy as np

    n = arr.shape[0]
    line_counts = np.zeros(n // _LINE_BLOCK + 2, np.int64)
    blank_from: list[np.ndarray] = []  # the newline that starts a blank line
    blank_to: list[np.ndarray] = []  # the newline that ends it
    last_nl = -1  # the last newline of the chunks before
    total = 0  # newlines before the chunk
    hashes = False
    ascii_only = True
    total_sum: int | None = 0 if base == 0 else None
    for a in range(base, n, _SCAN_CHUNK):
        b = min(n, a + _SCAN_CHUNK)
        c = arr[a:b]
        if ascii_only and c.max(initial=0) >= 0x80:
            ascii_only = False
        if total_sum is not None:  # chunks start at multiples of _SCAN_CHUNK: whole 32-bit words
            whole = c.shape[0] // 8 * 8
            for k in range(0, whole, _SUM_STEP):  # a cache-sized piece at a time, as pavlicek_checksum reads
                total_sum += sum_words(c[k : min(k + _SUM_STEP, whole)])
            if whole < c.shape[0]:
                total_sum += tail_sum(bytes(c[whole:]))
        rel = np.flatnonzero(c == 10).astype(np.int32)
        # newlines before each block start inside this chunk
        first_block = -(-a // _LINE_BLOCK)
        bounds = np.arange(first_block, (b - 1) // _LINE_BLOCK + 1, dtype=np.int64)
        line_counts[bounds] = total + np.searchsorted(rel, bounds * _LINE_BLOCK - a)
        total += rel.shape[0]
        if not hashes and c.shape[0] and (c == 35).any():
            at = np.flatnonzero(c == 35) + a
            hashes = bool((arr[at[at > 0] - 1] == 34).any())
        if rel.shape[0] == 0:
            continue
        if last_nl >= 0:  # the line across the chunk boundary
            line = arr[last_nl + 1 : a + int(rel[0])]
            if _ws()[line].all():
                blank_from.append(np.array([last_nl], np.int64))
                blank_to.append(np.array([a + int(rel[0])], np.int64))
        if rel.shape[0] >= 2:
            gap = np.diff(rel) - 1
            blank = gap == 0
            after = c[rel[:-1] + 1]
            maybe = ~blank & _ws()[after]
            for k in map(int, np.flatnonzero(maybe)):  # a line that starts with whitespace: look at all of it
                blank[k] = bool(_ws()[c[int(rel[k]) + 1 : int(rel[k + 1])]].all())
            ks = np.flatnonzero(blank)
            blank_from.append(rel[ks].astype(np.int64) + a)
            blank_to.append(rel[ks + 1].astype(np.int64) + a)
        last_nl = a + int(rel[-1])
        release(buf, base, a)
    line_counts[n // _LINE_BLOCK + 1 :] = total
    starts = np.concatenate(blank_from) if blank_from else np.zeros(0, np.int64)
    ends = np.concatenate(blank_to) if blank_to else np.zeros(0, np.int64)
    checksum = total_sum & MASK64 if total_sum is not None else None
    if not starts.shape[0]:
        return starts, ends, line_counts, hashes, ascii_only, checksum
    new_run = np.ones(starts.shape[0], dtype=bool)
    new_run[1:] = starts[1:] != ends[:-1]
    first = np.flatnonzero(new_run)
    last = np.concatenate((first[1:] - 1, [starts.shape[0] - 1]))
    return starts[first], ends[last] + 1, line_counts, hashes, ascii_only, checksum


class LazyPbnSet(LazyBoardSet):
    """A PBN file's boards, decoded on demand from a mapped file.

    ``problems`` holds the problems of the boards decoded so far; :meth:`problems_of`
    gives one board's (``validate`` asks board by board)."""

    lazy_kind = SetKind.PBN_TEXT
    index: PbnIndex  # type: ignore[assignment]  # shadows Sequence.index(), which no one calls on a board set

    def __init__(self, index: PbnIndex, info: FileInfo, keepalive: Any = None) -> None:
        super().__init__(len(index), self._decode_board, info, keepalive=keepalive)
        self.index = index
        self._cache: OrderedDict[int, tuple[Board, list[tuple[int | None, str]], int]] = OrderedDict()
        self._checkpoints: list[Context] = [Context()]  # context before game k * CHECKPOINT_EVERY
        self._noted: set[int] = set()
        self._last_line: tuple[int, int] | None = None  # (game, its first line), for sequential reads

    def data_start(self, index: int) -> int | None:
        return int(self.index.starts[index])

    def mapped_buffer(self) -> Any:
        return self.index.buf

    # -- decoding -------------------------------------------------------------------
    def game(self, i: int) -> Game:
        """Game ``i`` as the eager splitter makes it."""
        idx = self.index
        a, c, e = int(idx.starts[i]), int(idx.cends[i]), int(idx.ends[i])
        raw = idx.text(a, e)
        content = len(idx.text(a, c)) if idx.encoding not in ("latin-1", EIGHT_BIT) and not raw.isascii() else c - a
        return Game(raw, self._first_line(i, a), content)

    def _first_line(self, i: int, offset: int) -> int:
        last = self._last_line
        if last is not None and last[0] == i - 1:
            prev = int(self.index.starts[i - 1])
            line = last[1] + self.index.buf[prev:offset].count(b"\n")
        else:
            line = self.index.line_of(offset)
        self._last_line = (i, line)
        return line

    def decoded(self, i: int) -> tuple[Board, list[tuple[int | None, str]], int]:
        """Board ``i`` as read, its problems ``(line, message)`` and its line."""
        hit = self._cache.get(i)
        if hit is not None:
            self._cache.move_to_end(i)
            return hit
        if self.index.inherits:
            hit = self._decode_in_context(i)
        else:
            hit = self._read(i, Context())
        return hit

    def _read(self, i: int, ctx: Context) -> tuple[Board, list[tuple[int | None, str]], int]:
        game = self.game(i)
        board, probs, line = read_game(game, ctx)
        if self.index.encoding == EIGHT_BIT:  # bytes that are not characters: problems of this game
            raw = self.index.raw(i)
            bad = undecodable_problems(raw, undecodable_offsets(raw, EIGHT_BIT), None, first_line=game.first_line + 1)
            probs = probs + [(ln, msg) for _i, ln, msg in bad]
        board.source = PbnSource(game.raw, board_key(board), ctx.inherits)
        ctx.inherits = False
        hit = (board, probs, line)
        self._cache[i] = hit
        if len(self._cache) > CACHE_BOARDS:
            self._cache.popitem(last=False)
        if probs and i not in self._noted:
            self._noted.add(i)
            self.problems.extend((i, ln if ln else line, msg) for ln, msg in probs)
        return hit

    def _decode_in_context(self, i: int) -> tuple[Board, list[tuple[int | None, str]], int]:
        """Read the games from the last checkpoint before ``i`` on, as the eager reader would."""
        k = i // CHECKPOINT_EVERY
        have = len(self._checkpoints) - 1
        start = min(k, have)
        ctx = copy.deepcopy(self._checkpoints[start])
        hit = None
        for j in range(start * CHECKPOINT_EVERY, i + 1):
            if j % CHECKPOINT_EVERY == 0 and j // CHECKPOINT_EVERY == len(self._checkpoints):
                self._checkpoints.append(copy.deepcopy(ctx))
            hit = self._read(j, ctx)
        assert hit is not None
        return hit

    def _decode_board(self, i: int) -> Board:
        return self.decoded(i)[0]

    def problems_of(self, i: int) -> list[tuple[int | None, str]]:
        """The reader's problems with board ``i``, lines resolved (as the eager set lists them)."""
        _board, probs, line = self.decoded(i)
        return [(ln if ln else line, msg) for ln, msg in probs]

    def line_of(self, i: int) -> int:
        """The line board ``i`` is reported at (its Board tag's)."""
        return self.decoded(i)[2]

    def raw_text(self, i: int) -> str:
        idx = self.index
        return idx.text(int(idx.starts[i]), int(idx.ends[i]))

    def iter_sequential(self) -> Iterator[Board]:
        """Every board in order, each read once (a full pass in a file with ``#`` values too)."""
        ctx = Context()
        for i in range(len(self)):
            edited = self._edits.get(i) if not self._materialised else None
            if self._materialised:
                yield self._boards[i]
                continue
            hit = self._read(i, ctx) if self.index.inherits else self.decoded(i)
            yield edited if edited is not None else hit[0]

    def __iter__(self) -> Iterator[Board]:
        if self._materialised:
            yield from self._boards
            return
        if not self.index.inherits:
            yield from super().__iter__()
            return
        yield from self.iter_sequential()


def read_lazy(path: str | os.PathLike[str]) -> LazyPbnSet:
    """Open a PBN file lazily (the codec's read path for big files)."""
    try:
        buf = map_file(path)
    except (OSError, ValueError) as e:
        raise FormatError(getattr(e, "strerror", None) or str(e), path=str(path)) from None
    head = bytes(buf[:4096])
    if b"\x00" in head:
        at = head.index(b"\x00")
        raise FormatError(
            "a NUL byte: this is a binary file, not PBN text", offset=at, line=head.count(b"\n", 0, at) + 1
        )
    index = index_games(buf)
    info = FileInfo(format="pbn", path=str(path), checksum=index.checksum)
    doc = LazyPbnSet(index, info, keepalive=buf)
    if index.encoding == EIGHT_BIT:  # bytes of the preamble that are not characters (a game's are its own)
        head_bytes = bytes(buf[: int(index.starts[0]) if len(index) else len(buf)])
        doc.problems.extend(undecodable_problems(head_bytes, undecodable_offsets(head_bytes, EIGHT_BIT), None))
    if len(index):
        first = doc[0].tags
        info.event, info.site, info.date = (known_field(first.get(tag)) for tag in ("Event", "Site", "Date"))
    info.extra.update(
        header=(info.event, info.site, info.date),
        encoding=index.encoding if index.base == 0 else "utf-8-sig",
        newline=index.newline,
        preamble=index.preamble,
        trailer=index.trailer,
        board_lines=LazyLines(doc),
    )
    return doc


def is_lazy_pbn(doc: object) -> TypeGuard[LazyPbnSet]:
    """True when ``doc`` is a lazy PBN set (through any progress wrapper) whose text can be written game by game."""
    return is_lazy_text(doc, "pbn")


def write_lazy(doc: LazyPbnSet, out: IO[bytes], encoding: str, newline: str) -> bool:
    """Write a lazy set game by game, the untouched games straight from the file (as bytes
    when the encoding and line ends stay); False when the set needs the whole-text writer
    (``#`` values together with edits, or an edited event/site/date)."""
    idx = doc.index
    info = doc.info
    original = info.extra.get("newline") or "\n"
    if header_edits(info) or doc._edits and idx.inherits:
        return False
    enc = encoding_name(encoding)
    if enc.lower().replace("_", "-") == "utf-8-sig":  # one mark at the start, not one a part
        out.write(codecs.BOM_UTF8)
        enc = "utf-8"
    same_bytes = newline == original and encoding == info.extra.get("encoding")
    buf = idx.buf

    def own(text: str) -> str:
        return text if newline == original else to_lf(text).replace("\n", newline)

    def made(text: str) -> str:
        return text if newline == "\n" else text.replace("\n", newline)

    def emit(text: str) -> bytes:
        data = text.encode(enc, errors="replace")
        out.write(data)
        return data[-16:]

    if same_bytes:
        tail = _copy(buf, idx.base, int(idx.starts[0]) if len(idx) else len(buf), out)
    else:
        tail = emit(own(info.extra["preamble"]))
    for i in range(len(doc)):
        b = doc._edits.get(i)
        if i and not _blank_tail(tail):
            tail = emit(made("\n" if to_lf(tail[-8:].decode("latin-1")).endswith("\n") else "\n\n"))
        if b is None and same_bytes:
            tail = _copy(buf, int(idx.starts[i]), int(idx.ends[i]), out)
            continue
        if b is None:  # untouched: its text as read
            tail = emit(own(doc.raw_text(i)))
            continue
        raw = unchanged_source(b)
        tail = emit(own(raw) if raw is not None else made(board_text(b, info, foreign=False) + "\n"))
    if info.extra.get("trailer"):
        emit(own(info.extra["trailer"]))
    return True


def _copy(buf: mmap.mmap | bytes, a: int, b: int, out: IO[bytes]) -> bytes:
    """Copy ``buf[a:b]`` to ``out``; return its last bytes."""
    for k in range(a, b, _SCAN_CHUNK):
        out.write(buf[k : min(b, k + _SCAN_CHUNK)])
    return bytes(buf[max(a, b - 16) : b])


def _blank_tail(tail: bytes) -> bool:
    """:func:`.write.ends_with_blank_line` on the last bytes written (LF or CRLF)."""
    t = tail.replace(b"\r\n", b"\n").rstrip(b" \t")
    return t.endswith((b"\n\n", b"\n \n", b"\n\t\n"))
