"""The one base of every fixed-record format: ZBD, ZDD, ZRD, zrj16, ZRJ, ZBS, .deals, BRI, DGE, DUP, BER, RZD, CDS.

A fixed-record file is mapped (:func:`map_file`, the only place a codec opens an
mmap), its boards decoded on demand, and whole files converted in numpy chunks
(:mod:`bridgeview.formats.bulk`). A truncated last record is reported and the
complete records before it still open; a record that does not decode becomes a
board marked unreadable.

Two kinds of file share this module: files read from byte 0 (or a format's
header) to the end, through :class:`FixedRecordCodec` (.deals, BRI, DGE, DUP,
BER, RZD, CDS), and Pavlicek's files cut at an end-of-list record, through
:class:`RecordFile` (ZBD, ZDD, ZRD, zrj16, ZRJ).  A codec module is its record
layout plus a registration block (``CODECS``).
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any

from ..model.board import Board
from ..model.boardset import FileInfo, LazyBoardSet
from ..model.deal import Deal
from ..model.text import plural
from .bulk import BulkChunk
from .errors import FormatError
from .registry import Codec, ReadOptions, WriteOptions

if TYPE_CHECKING:
    from io import BufferedReader

    import numpy as np

#: Files with at most this many records are checked completely when opened;
#: larger ones are checked record by record as boards are decoded or converted.
EAGER_LIMIT = 200_000
CHUNK = 1 << 16
SCAN_RECORDS = 1 << 16  # records per chunk when scanning for the end-of-list record


def full_deal_rows(owners: np.ndarray) -> np.ndarray:
    """Boolean (n,): rows that are complete deals (13 cards a hand, none absent)."""
    import numpy as np

    counts = np.stack([(owners == s).sum(axis=1) for s in range(4)], axis=1)
    full: np.ndarray = (counts == 13).all(axis=1)  # numpy types an array comparison as Any
    return full


def owner_chunks(boards: Iterable[Board], chunk: int = CHUNK) -> Iterator[np.ndarray]:
    """The boards' deals as (k, 52) seat-code arrays, ``chunk`` boards at a time, for the bulk writers."""
    import numpy as np

    batch: list[list[int]] = []
    for b in boards:
        batch.append(b.deal.owners())
        if len(batch) >= chunk:
            yield np.array(batch, dtype=np.uint8)
            batch = []
    if batch:
        yield np.array(batch, dtype=np.uint8)


def require_full(owners: np.ndarray, done: int, title: str) -> None:
    """Refuse a chunk with a deal that is not complete, naming its record: these formats store only full deals."""
    import numpy as np

    full = full_deal_rows(owners)
    if not full.all():
        i = int(np.argmin(full))
        raise FormatError(f"record {done + i + 1} is not a complete deal; {title} stores only full deals")


def map_file(path: str | os.PathLike[str]) -> Any:
    """The file's bytes as a read-only mmap (``b""`` for an empty file)."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return b""
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


def with_path(e: FormatError, path: str | os.PathLike[str]) -> FormatError:
    """``e`` naming ``path`` when it names no file yet: decoders know the record, the codec the file."""
    if e.path is None:
        e.path = str(path)
    return e


class FixedRecordCodec(Codec):
    """A format of equal-sized records from byte 0: mapped, decoded lazily, converted in bulk."""

    record_size: int = 0  # a codec declares its own
    binary = True
    bulk = True

    # A record that is a deal field then fixed filler (BRI, DGE) is declared, not coded: ``deal_size``,
    # ``filler`` and the three deal functions (as staticmethods). Any other layout overrides the three methods.
    deal_size: int = 0
    filler: bytes = b""
    decode_deal: Callable[[bytes, int, int], list[int]]  # (deal bytes, offset, record) -> 52 seat codes
    decode_deal_block: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]  # (n, deal_size) -> owners, bad
    encode_deal_block: Callable[[np.ndarray], np.ndarray]  # (n, 52) seat codes -> (n, deal_size) bytes

    def decode_record(self, rec: bytes, base: int, record: int) -> Deal:
        """One record's deal; raises FormatError with the exact fault."""
        return Deal.from_owners(self.decode_deal(rec[: self.deal_size], base, record))

    def decode_block(self, block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(n, record_size) bytes -> (owners (n, 52), bad (n,))."""
        return self.decode_deal_block(block[:, : self.deal_size])

    def encode_block(self, owners: np.ndarray) -> np.ndarray:
        """(n, 52) seat codes -> (n, record_size) bytes."""
        import numpy as np

        out = np.empty((owners.shape[0], self.record_size), dtype=np.uint8)
        out[:, : self.deal_size] = self.encode_deal_block(owners)
        out[:, self.deal_size :] = np.frombuffer(self.filler, dtype=np.uint8)
        return out

    # -- reading
    #: bytes before the first record (a format's own header, which ``_map`` skips)
    header_size: int = 0

    def _map(self, path: str | os.PathLike[str]) -> Any:
        """The records' bytes: the whole file mapped, or a view past the format's header."""
        return map_file(path)

    def _count(self, buf: Any) -> int:
        """Complete records in ``buf``; a broken tail after them is reported by :meth:`_broken_tail`."""
        count, rest = divmod(len(buf), self.record_size)
        if rest and not count:
            raise FormatError(
                f"the file ends inside record 1: {rest} of {self.record_size} bytes", record=1, offset=self.header_size
            )
        return count

    def _broken_tail(self, buf: Any, count: int) -> str | None:
        """The problem a truncated last record makes (the complete records before it still open)."""
        rest = len(buf) - count * self.record_size
        if not rest:
            return None
        return (f"the file ends inside record {count + 1} (offset {self.header_size + count * self.record_size}): "
                f"{rest} of {self.record_size} bytes, not read")

    def _first_number(self, buf: Any, count: int, options: ReadOptions, info: FileInfo,
                      problems: list[tuple[int | None, int | None, str]]) -> int:
        return options.start_board if options.start_board is not None else 1

    def _source(self, rec: bytes) -> Any:
        return None

    def _record_number(self, rec: bytes, position: int) -> int:
        """The board number of a record: its position, unless the format stores one."""
        return position

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> LazyBoardSet:
        options = options or ReadOptions()
        buf = self._map(path)
        count = self._count(buf)
        info = FileInfo(record_size=self.record_size)
        problems: list[tuple[int | None, int | None, str]] = []
        tail = self._broken_tail(buf, count)
        if tail:
            problems.append((None, None, tail))
            info.extra["broken_tail"] = tail
        first = self._first_number(buf, count, options, info, problems)
        if count <= EAGER_LIMIT:
            try:
                self._require_a_readable_record(buf, count)
            except FormatError as e:
                raise with_path(e, path) from None
        size = self.record_size

        def decode(i: int) -> Board:
            rec = buf[i * size : (i + 1) * size]
            try:
                deal = self.decode_record(rec, self.header_size + i * size, i + 1)
            except FormatError as e:
                raise with_path(e, path) from None
            return Board.numbered(self._record_number(rec, first + i), deal, source=self._source(rec))

        def bulk() -> Iterator[BulkChunk]:
            try:
                yield from self._chunks(buf, count, first)
            except FormatError as e:
                raise with_path(e, path) from None

        doc = LazyBoardSet(count, decode, info, header_size=self.header_size, keepalive=buf, bulk=bulk,
                           first_number=first)
        doc.problems.extend(problems)
        return doc

    def _require_a_readable_record(self, buf: Any, count: int) -> None:
        """A file in which no record is a valid deal is not this format: say why record 1 fails.
        Single bad records do not stop the file opening; their boards are marked unreadable."""
        import numpy as np

        size = self.record_size
        if not count:
            return
        arr = np.frombuffer(buf, dtype=np.uint8, count=count * size).reshape(count, size)
        for start in range(0, count, CHUNK):
            _owners, bad = self.decode_block(arr[start : start + CHUNK])
            if not bad.all():
                return
        self.decode_record(bytes(buf[:size]), 0, 1)
        raise FormatError("not a valid deal", record=1, offset=0)

    def _make_chunk(self, owners: np.ndarray, numbers: np.ndarray, block: np.ndarray) -> BulkChunk:
        return BulkChunk(owners, None, numbers)

    def _chunks(self, buf: Any, count: int, first: int, chunk: int = CHUNK) -> Iterator[BulkChunk]:
        import numpy as np

        size = self.record_size
        if not count:
            return
        arr = np.frombuffer(buf, dtype=np.uint8, count=count * size).reshape(count, size)
        for start in range(0, count, chunk):
            block = arr[start : start + chunk]
            owners, bad = self.decode_block(block)
            if bad.any():
                i = start + int(np.argmax(bad))
                base = self.header_size + i * size
                self.decode_record(bytes(buf[i * size : (i + 1) * size]), base, i + 1)
                raise FormatError("not a valid deal", record=i + 1, offset=base)
            numbers = np.arange(first + start, first + start + len(block), dtype=np.int64)
            yield self._make_chunk(owners, numbers, block)

    def read_bulk(self, path: str | os.PathLike[str], chunk: int = 1 << 18) -> Iterator[BulkChunk]:
        buf = self._map(path)
        try:
            count = self._count(buf)
            first = self._first_number(buf, count, ReadOptions(), FileInfo(), [])
            yield from self._chunks(buf, count, first, chunk)
        except FormatError as e:
            raise with_path(e, path) from None

    # -- writing
    def write_bulk(self, chunks: Iterable[BulkChunk], out: IO[bytes], options: WriteOptions | None = None) -> int:
        done = 0
        for c in chunks:
            require_full(c.owners, done, self.title)
            out.write(self.encode_block(c.owners).tobytes())
            done += len(c)
        return done

    def write(self, doc: Sequence[Board], out: IO[bytes], options: WriteOptions | None = None) -> None:
        self.write_bulk((BulkChunk(o) for o in owner_chunks(doc)), out, options)


class RecordFile:
    """A file of fixed-size records, mmapped, cut at the end-of-list record.

    The end-of-list record (a record whose first four bytes are zero) is found
    by reading the file in chunks with ``pread``, so opening a 241 MB file keeps
    only a small buffer resident; records are then read through the mmap.
    """

    def __init__(self, path: str | os.PathLike[str], record_size: int, what: str) -> None:
        self.path = str(path)
        self.record_size = rs = record_size
        self.size = size = os.path.getsize(path)
        self.problems: list[tuple[int | None, int | None, str]] = []
        #: the problem a truncated last record makes, or None
        self.broken_tail: str | None = None
        mapped = map_file(path)
        self.mmap: mmap.mmap | None = mapped if isinstance(mapped, mmap.mmap) else None
        full = size // rs
        with open(path, "rb") as f:
            end = self._find_end(f, full)
            tail = size - full * rs
            if end is None and tail:
                f.seek(full * rs)
                last = f.read(min(tail, 4))
                if tail >= 4 and last == b"\0\0\0\0":
                    end = full  # a bare 32-bit end marker after the last record
                elif full:  # a truncated copy: open the complete records, report the rest
                    self.broken_tail = (
                        f"the file ends inside record {full + 1} (offset {full * rs}): {plural(tail, 'byte')} "
                        f"of a {rs}-byte {what} record, not read"
                    )
                    self.problems.append((None, None, self.broken_tail))
                else:
                    raise FormatError(
                        f"{plural(tail, 'trailing byte')} do not fill a {rs}-byte {what} record",
                        path=self.path, record=full + 1, offset=full * rs,
                    )
        self.count = full if end is None else end
        if end is not None:
            after = size - (end + 1) * rs
            if after > 0:
                self.problems.append(
                    (None, None, f"{plural(after, 'byte')} after the end-of-list record (record {end + 1}) ignored")
                )

    def _find_end(self, f: BufferedReader, full: int) -> int | None:
        """Index of the first record whose first 32 bits are zero, or None.

        Reads chunks into one reused buffer and compares each record's first
        four bytes as an (unaligned, strided) uint32 view: memory speed, and
        no file pages stay mapped.
        """
        import numpy as np

        rs = self.record_size
        buf = np.empty(SCAN_RECORDS * rs, dtype=np.uint8)
        view = buf.data  # the buffer's memoryview
        f.seek(0)
        for start in range(0, full, SCAN_RECORDS):
            k = min(SCAN_RECORDS, full - start)
            got = f.readinto(view[: k * rs])
            k = min(k, (got or 0) // rs)
            heads = np.ndarray((k,), dtype="<u4", buffer=buf, strides=(rs,))
            null = heads == 0
            if null.any():
                return start + int(np.argmax(null))
        return None

    def records(self, start: int, stop: int) -> np.ndarray:
        """Records ``start..stop-1`` as a read-only (k, record_size) array on the mmap."""
        import numpy as np

        stop = min(stop, self.count)
        k = max(0, stop - start)
        if k == 0 or self.mmap is None:
            return np.zeros((0, self.record_size), dtype=np.uint8)
        rs = self.record_size
        return np.frombuffer(self.mmap, dtype=np.uint8, count=k * rs, offset=start * rs).reshape(k, rs)

    def error(self, message: str, index: int, byte: int = 0) -> FormatError:
        """A FormatError for record ``index`` (0-based)."""
        return FormatError(message, path=self.path, record=index + 1, offset=index * self.record_size + byte)


def head_records(head: bytes, size: int | None, record_size: int) -> np.ndarray | None:
    """The first records (up to 8) of a file being sniffed, as (n, record_size) bytes, cut at the
    end-of-list record; None when there are none, or when the file has no end-of-list record in
    ``head`` and its size is not a whole number of records (it cannot be this format)."""
    import numpy as np

    n = min(len(head) // record_size, 8)
    if n == 0:
        return None
    data = np.frombuffer(head[: n * record_size], dtype=np.uint8).reshape(n, record_size)
    null = (data[:, 0] | data[:, 1] | data[:, 2] | data[:, 3]) == 0
    if null.any():
        n = int(np.argmax(null))
        data = data[:n]
    elif size is not None and size % record_size:
        return None
    return data if n else None
