"""The one base of every fixed-record format: ZBD, ZDD, ZRD, zrj16, ZRJ, ZBS, .deals, BRI, DGE, DUP, BER, RZD, CDS.

A fixed-record file is mapped (:func:`map_file`, the only place a codec opens an
mmap) into :class:`Records`, its boards decoded on demand, and whole files
converted in numpy chunks (:mod:`bridgeview.formats.bulk`). A truncated last
record is reported and the complete records before it still open; a record that
does not decode becomes a board marked unreadable.

A codec module is its record layout plus a registration block (``CODECS``): a
:class:`FixedRecordCodec` subclass declares ``record_size`` (and a
``header_size``, or ``end_of_list`` for Pavlicek's files, which end at a record
whose first four bytes are zero) and how a record decodes and encodes; this
module does the rest.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Callable, Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

from ..model.boardset import FileInfo, LazyBoardSet
from ..model.text import plural
from .bulk import DD_UNKNOWN, BulkChunk, chunks_from_boards, complete_rows
from .codec import BridgeCodec, ReadOptions, WriteOptions
from .errors import FormatError
from .mapped import map_file, release

if TYPE_CHECKING:
    import numpy as np

    from ..model.board import Board
    from ..model.ddtable import DDTable
    from ..model.deal import Deal
    from ..model.problem import Problem

#: Files with at most this many records are checked completely when opened;
#: larger ones are checked record by record as boards are decoded or converted.
EAGER_LIMIT = 200_000
CHUNK = 1 << 16
SCAN_RECORDS = 1 << 16  # records per chunk when scanning for the end-of-list record
#: records per bulk chunk: 16 Ki records keep a chunk's arrays in cache through decoding,
#: checking and encoding (a third faster than 64 Ki on the benchmark's ZRD conversions)
BULK_RECORDS = 1 << 14


def full_deal_rows(owners: np.ndarray) -> np.ndarray:
    """Boolean (n,): rows that are complete deals (13 cards a hand, none absent)."""
    import numpy as np

    counts = np.stack([(owners == s).sum(axis=1) for s in range(4)], axis=1)
    full: np.ndarray = (counts == 13).all(axis=1)
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


def with_path(e: FormatError, path: str | os.PathLike[str] | None) -> FormatError:
    """``e`` naming ``path`` when it names no file yet: decoders know the record, the codec the file."""
    if e.path is None and path is not None:
        e.path = str(path)
    return e


def ddtable_from_row(row: np.ndarray) -> DDTable | None:
    """A DDTable from a (4, 5) chunk row, or None when every value is unknown."""
    from ..model.ddtable import DDTable  # (a record copy never makes a board: the model is imported when one is)

    if (row == DD_UNKNOWN).all():
        return None
    return DDTable.from_rows([[None if v == DD_UNKNOWN else int(v) for v in r] for r in row.tolist()])


def chunk_board(chunk: BulkChunk, row: int, number: int) -> Board:
    """Board ``number`` from row ``row`` of a chunk: its deal and its DD table when the chunk has them."""
    from ..model.board import Board
    from ..model.deal import Deal

    dd = ddtable_from_row(chunk.dd[row]) if chunk.dd is not None else None
    return Board.numbered(number, Deal.from_owners(chunk.owners[row].tolist()), dd=dd)


def tolerable(bad: int, rows: int) -> bool:
    """Whether ``bad`` undecodable records among the first ``rows`` still let a sniffer claim the
    file: none, or one among at least four (a damaged record is not a different format)."""
    return bad == 0 or (bad == 1 and rows >= 4)


class BulkCount(int):
    """The number of records a bulk writer wrote, carrying what it had to drop (``convert`` reports it)."""

    losses: list[str]

    def __new__(cls, value: int, losses: list[str] | None = None) -> BulkCount:
        obj = super().__new__(cls, value)
        obj.losses = list(losses or [])
        return obj


class Records:
    """A fixed-record file as opened: its records' bytes (past any header), how many count, what
    opening it found, and the number of its first board.  It keeps the mapping alive for the board set."""

    def __init__(self, path: str | None, buf: Any, record_size: int, header_size: int = 0) -> None:
        self.path = path
        self.buf = buf
        self.record_size = record_size
        self.header_size = header_size
        self.count = len(buf) // record_size
        #: bytes after the last whole record (a truncated record, or an end marker)
        self.rest = len(buf) - self.count * record_size
        #: the number of board 0 where boards are numbered by position
        self.first = 1
        self.problems: list[Problem] = []
        #: the problem a truncated last record makes, or None
        self.broken_tail: str | None = None
        #: True when an end-of-list record ends the records
        self.ended = False
        #: what a codec derives from the records to find its boards (ZBS: the groups)
        self.index: Any = None

    @property
    def mmap(self) -> mmap.mmap | None:
        """The file's mapping when the records are it (``validate`` gives back pages it has read)."""
        return self.buf if isinstance(self.buf, mmap.mmap) else None

    def block(self, start: int, stop: int) -> np.ndarray:
        """Records ``start..stop-1`` as a read-only (k, record_size) array on the mapping."""
        import numpy as np

        rs = self.record_size
        k = max(0, min(stop, self.count) - start)
        if k == 0:
            return np.zeros((0, rs), dtype=np.uint8)
        return np.frombuffer(self.buf, dtype=np.uint8, count=k * rs, offset=start * rs).reshape(k, rs)

    def record(self, index: int) -> bytes:
        """The bytes of record ``index`` (0-based)."""
        rs = self.record_size
        return bytes(self.buf[index * rs : (index + 1) * rs])

    def offset(self, index: int, byte: int = 0) -> int:
        """The file offset of byte ``byte`` of record ``index``."""
        return self.header_size + index * self.record_size + byte

    def error(self, message: str, index: int, byte: int = 0) -> FormatError:
        """A FormatError at byte ``byte`` of record ``index`` (0-based)."""
        return FormatError(message, path=self.path, record=index + 1, offset=self.offset(index, byte))


def find_end(buf: Any, record_size: int, full: int) -> int | None:
    """Index of the first of ``full`` records of ``buf`` whose first 32 bits are zero, or None.

    Compares each record's first four bytes as an (unaligned, strided) uint32 view of the mapping,
    a chunk of records at a time, and gives each chunk's pages back once compared when the map is big
    enough for that to pay (:func:`release`, 8 MiB on): opening a 241 MB file holds 1.5 MB of it at a
    time, and nothing is copied (reading the chunks
    into a buffer instead cost a million-record conversion 4-8 ms, the scan 1.5)."""
    import numpy as np

    rs = record_size
    for start in range(0, full, SCAN_RECORDS):
        k = min(SCAN_RECORDS, full - start)
        heads = np.ndarray((k,), dtype="<u4", buffer=buf, offset=start * rs, strides=(rs,))
        null = heads == 0
        release(buf, start * rs, (start + k) * rs)
        if null.any():
            return start + int(np.argmax(null))
    return None


class FixedRecordCodec(BridgeCodec):
    """A format of equal-sized records: mapped, decoded lazily, converted in bulk.

    A codec declares its layout and one of three ways its records decode:

    * records holding only a deal: ``decode_record`` (one record, the exact fault)
      and ``decode_block`` (a numpy block, a flag a bad record), ``encode_block``;
      or, for a deal field then fixed filler (BRI, DGE), ``deal_size``, ``filler``
      and the three deal functions;
    * records holding more (DD tables): ``decode_chunk``/``encode_chunk`` on whole
      chunks (a board is then decoded as a chunk of one record);
    * records decoded one board at a time in Python (ZRJ's auction and play, ZBS's groups):
      ``decode_board``, and ``bulk = False``.
    """

    record_size: int = 0  # a codec declares its own
    binary = True
    bulk = True

    #: bytes before the first record (a format's own header, which ``_map`` skips)
    header_size: int = 0
    #: the records end at the first one whose first four bytes are zero (Pavlicek's files); later bytes are
    #: reported and ignored, and such a file is claimed by its structure, not checked whole when opened
    end_of_list: bool = False
    #: how end-of-list formats name their record in messages (default: the title)
    record_name: str = ""
    #: False: a truncated last record refuses the file instead of being reported (ZBS)
    truncated_opens: bool = True
    #: boards are numbered by position (``--start-board``), so an unreadable one keeps its number
    numbered_by_position: bool = True
    #: records a bulk chunk holds
    bulk_records: int = BULK_RECORDS
    #: what the bulk writer drops, as a template for "N boards" (the count ``encode_chunk`` returns)
    loss: str = ""

    # A record that is a deal field then fixed filler (BRI, DGE) is declared, not coded: ``deal_size``,
    # ``filler`` and the three deal functions (as staticmethods). Any other layout overrides the three methods.
    deal_size: int = 0
    filler: bytes = b""
    decode_deal: Callable[[bytes, int, int], list[int]]  # (deal bytes, offset, record) -> 52 seat codes
    decode_deal_block: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]]  # (n, deal_size) -> owners, bad
    encode_deal_block: Callable[[np.ndarray], np.ndarray]  # (n, 52) seat codes -> (n, deal_size) bytes

    def decode_record(self, rec: bytes, base: int, record: int) -> Deal:
        """One record's deal; raises FormatError with the exact fault."""
        from ..model.deal import Deal

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

    # -- opening
    def _map(self, path: str | os.PathLike[str]) -> Any:
        """The records' bytes: the whole file mapped, or a view past the format's header."""
        return map_file(path)

    def _record_words(self, rest: int) -> str:
        """How much of a record ``rest`` bytes are, as messages say it."""
        if self.end_of_list:
            return f"{plural(rest, 'byte')} of a {self.record_size}-byte {self.record_name or self.title} record"
        return f"{rest} of {self.record_size} bytes"

    def _broken_tail(self, buf: Any, count: int) -> str | None:
        """The problem a truncated last record makes (the complete records before it still open)."""
        rest = len(buf) - count * self.record_size
        if not rest:
            return None
        return (
            f"the file ends inside record {count + 1} (offset {self.header_size + count * self.record_size}): "
            f"{self._record_words(rest)}, not read"
        )

    def _cut_at_end_of_list(self, records: Records) -> None:
        """End the records at the end-of-list record (or a bare 32-bit end marker after the last record)."""
        rs = self.record_size
        end = find_end(records.buf, rs, records.count)
        if end is None and records.rest >= 4 and bytes(records.buf[records.count * rs :][:4]) == b"\0\0\0\0":
            end = records.count
        if end is None:
            return
        records.count = end
        records.ended = True
        after = len(records.buf) - (end + 1) * rs
        if after > 0:
            from ..model.problem import Problem, error  # (what opening finds is rare: imported when found)

            records.problems.append(
                Problem(
                    None,
                    None,
                    error(
                        "records.after-end-of-list",
                        f"{plural(after, 'byte')} after the end-of-list record (record {end + 1}) ignored",
                    ),
                )
            )

    def open_records(self, path: str | os.PathLike[str]) -> Records:
        """The file's records: counted to the end (or the end-of-list record), a truncated tail reported."""
        records = Records(str(path), self._map(path), self.record_size, self.header_size)
        if self.end_of_list:
            self._cut_at_end_of_list(records)
        full, rest = records.count, records.rest
        if records.ended or not rest:
            return records
        if not full or not self.truncated_opens:
            if self.end_of_list:
                message = (
                    f"{plural(rest, 'trailing byte')} {'does' if rest == 1 else 'do'} not fill a "
                    f"{self.record_size}-byte {self.record_name or self.title} record"
                )
            else:
                message = f"the file ends inside record 1: {self._record_words(rest)}"
            raise FormatError(message, path=str(path), record=full + 1, offset=records.offset(full))
        tail = self._broken_tail(records.buf, full)
        if tail:
            from ..model.problem import Problem, error

            records.broken_tail = tail
            records.problems.append(Problem(None, None, error("records.broken-tail", tail)))
        return records

    def _first_number(self, records: Records, options: ReadOptions, info: FileInfo) -> int:
        """The number of board 0: ``--start-board``, unless the format says (DUP's control bytes)."""
        return options.start_board if options.start_board is not None else 1

    def board_count(self, records: Records) -> int:
        """How many boards the records hold: one a record, unless a format groups them (ZBS)."""
        return records.count

    def board_offsets(self, records: Records) -> Callable[[int], int] | None:
        """The file offset of each board where boards are not one record each (ZBS), else None."""
        return None

    # -- reading
    def _source(self, rec: bytes) -> Any:
        return None

    def _record_number(self, rec: bytes, position: int) -> int:
        """The board number of a record: its position, unless the format stores one."""
        return position

    def decode_board(self, records: Records, index: int) -> Board:
        """Record ``index`` as a board; FormatError names what is wrong (the board set marks it unreadable)."""
        from ..model.board import Board

        number = records.first + index
        if type(self).decode_chunk is not FixedRecordCodec.decode_chunk:  # records with more than a deal
            return chunk_board(self.decode_chunk(records.block(index, index + 1), index, records), 0, number)
        rec = records.record(index)
        deal = self.decode_record(rec, records.offset(index), index + 1)
        return Board.numbered(self._record_number(rec, number), deal, source=self._source(rec))

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> LazyBoardSet:
        options = options or ReadOptions()
        records = self.open_records(path)
        info = FileInfo(record_size=self.record_size)
        if records.broken_tail:
            info.extra["broken_tail"] = records.broken_tail
        records.first = self._first_number(records, options, info)
        if not self.end_of_list and records.count <= EAGER_LIMIT:
            try:
                self._require_a_readable_record(records)
            except FormatError as e:
                raise with_path(e, path) from None

        def decode(i: int) -> Board:
            try:
                return self.decode_board(records, i)
            except FormatError as e:
                raise with_path(e, path) from None

        def bulk() -> Iterator[BulkChunk]:
            try:
                yield from self._chunks(records, self.bulk_records)
            except FormatError as e:
                raise with_path(e, path) from None

        doc = LazyBoardSet(
            self.board_count(records),
            decode,
            info,
            header_size=self.header_size,
            keepalive=records,
            bulk=bulk if self.bulk else None,
            offsets=self.board_offsets(records),
            first_number=records.first if self.numbered_by_position else None,
            positional=self.numbered_by_position and type(self)._record_number is FixedRecordCodec._record_number,
        )
        doc.problems.extend(records.problems)
        return doc

    def _require_a_readable_record(self, records: Records) -> None:
        """A file in which no record is a valid deal is not this format: say why record 1 fails.
        Single bad records do not stop the file opening; their boards are marked unreadable."""
        count = records.count
        if not count:
            return
        for start in range(0, count, CHUNK):
            _owners, bad = self.decode_block(records.block(start, start + CHUNK))
            if not bad.all():
                return
        self.decode_record(records.record(0), records.offset(0), 1)
        raise FormatError("not a valid deal", record=1, offset=records.offset(0))

    def _make_chunk(self, owners: np.ndarray, numbers: np.ndarray, block: np.ndarray) -> BulkChunk:
        return BulkChunk(owners, None, numbers)

    def decode_chunk(self, block: np.ndarray, start: int, records: Records) -> BulkChunk:
        """Records ``start..`` (``block``, (k, record_size) bytes) as a chunk; FormatError names the first bad one."""
        import numpy as np

        owners, bad = self.decode_block(block)
        if bad.any():
            i = start + int(np.argmax(bad))
            self.decode_record(records.record(i), records.offset(i), i + 1)
            raise FormatError("not a valid deal", record=i + 1, offset=records.offset(i))
        numbers = np.arange(records.first + start, records.first + start + len(block), dtype=np.int64)
        return self._make_chunk(owners, numbers, block)

    def _chunks(self, records: Records, chunk: int) -> Iterator[BulkChunk]:
        for start in range(0, records.count, chunk):
            yield self.decode_chunk(records.block(start, start + chunk), start, records)

    def read_bulk(self, path: str | os.PathLike[str], chunk: int | None = None) -> Iterator[BulkChunk]:
        try:
            records = self.open_records(path)
            records.first = self._first_number(records, ReadOptions(), FileInfo())
            yield from self._chunks(records, chunk or self.bulk_records)
        except FormatError as e:
            raise with_path(e, path) from None

    # -- sniffing
    def sniff(self, head: bytes, size: int | None = None) -> int:
        """Claim a file of end-of-list records when its first records decode (as full deals where the
        format stores them), one damaged record among four or more tolerated."""
        data = head_records(head, size, self.record_size)
        if data is None:
            return 0
        n = len(data)
        sample = Records(None, data.tobytes(), self.record_size)
        good = 0
        for row in range(n):  # row by row: one bad record must not hide what the file is
            try:
                chunk = self.decode_chunk(data[row : row + 1], row, sample)
            except FormatError:
                continue
            if not self.caps.full_deals or complete_rows(chunk.owners).all():
                good += 1
        if not tolerable(n - good, n):
            return 0
        return 30 + 5 * good

    # -- writing
    def encode_chunk(self, chunk: BulkChunk, done: int) -> tuple[np.ndarray, int]:
        """A chunk (after ``done`` records) as (k, record_size) bytes, and how many of its boards lose
        what :attr:`loss` names; FormatError for what the format cannot hold."""
        require_full(chunk.owners, done, self.title)
        return self.encode_block(chunk.owners), 0

    def write_bulk(self, chunks: Iterable[BulkChunk], out: IO[bytes], options: WriteOptions | None = None) -> int:
        import numpy as np

        done = lost = 0
        for chunk in chunks:
            if len(chunk) == 0:
                continue
            data, dropped = self.encode_chunk(chunk, done)
            out.write(np.ascontiguousarray(data).data.cast("B"))
            lost += dropped
            done += len(chunk)
        return BulkCount(done, [self.loss.format(plural(lost, "board"))] if lost else [])

    def write_chunks(self, doc: Iterable[Board]) -> Iterator[BulkChunk]:
        """The chunks :meth:`write` saves: deals, with DD tables and numbers for a codec that codes chunks."""
        if type(self).encode_chunk is not FixedRecordCodec.encode_chunk:
            return chunks_from_boards(doc)
        return (BulkChunk(o) for o in owner_chunks(doc))

    def write(self, doc: Any, out: IO[bytes], options: WriteOptions | None = None) -> None:
        self.write_bulk(self.write_chunks(doc), out, options)


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
