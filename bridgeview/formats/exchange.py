"""Deal files that dealing machines and converters exchange: BER, RZD, CDS (binary or fixed
records) and BHG, CSV (text).

Layouts as the real files show them (``../shared/realdata/other``; docs/formats.md has
every interpretation).  "Card order" below is spades A..2, hearts, diamonds, clubs, i.e.
card ``i`` of a file is our card ``51 - i``:

* BER: 52 ASCII digits a deal, no separator; digit ``i`` is the seat (N1 E2 S3 W4) of card ``i``.
* RZD: a 13-byte header (board count, little-endian 16-bit, then 11 spaces), then 13 bytes
  a deal: byte ``r`` holds rank ``r`` (A..2) of the four suits, two bits a suit, spades in
  the top bits and clubs in the bottom, each the seat N0 E1 S2 W3.
* CDS: 14 bytes a deal: the board number, then the RZD 13 bytes with seat codes W0 N1 E2 S3.
* BHG: CRLF text; line 0 a header, line ``n`` board ``n``: 52 letters, the dealer's hand
  first and then round the table, card ``i`` written ``chr(65 + i)`` (``A``-``Z``) for
  ``i < 26`` and ``chr(71 + i)`` (``a``-``z``) above.  Empty lines for missing numbers.
* CSV: every field quoted, CRLF: 16 holdings (N's spades, hearts, diamonds, clubs, then
  E, S, W), the board number, and ``dealer/vulnerability`` (``N/-``, ``E/NS``, ``S/EW``, ``W/All``).

BER, RZD and CDS use the fixed-record machinery of :mod:`.duplimate` (mapped, decoded on
demand, converted in numpy chunks).
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Iterable, Iterator
from typing import IO, TYPE_CHECKING, Any

from ..model.board import Board
from ..model.boardset import BoardSet, FileInfo, LazyBoardSet
from ..model.cards import RANK_CHARS, SEAT_LETTERS, Seat
from ..model.deal import Deal
from ..model.problem import Problem, error
from ..model.text import plural
from ..model.vulnerability import Vulnerability, dealer_for_board, vulnerability_for_board
from .bulk import BulkChunk, complete_rows
from .codec import Boards, BridgeCodec, Capabilities, ReadOptions, SaveReport, WriteOptions, source_info
from .duplimate.bri import show_bytes
from .errors import FormatError
from .mapped import map_file
from .records import FixedRecordCodec, owner_chunks, require_full
from .textcheck import EIGHT_BIT, decode_text, undecodable_problems

if TYPE_CHECKING:
    import numpy as np

CARD_NAMES = tuple("SHDC"[i // 13] + "AKQJT98765432"[i % 13] for i in range(52))
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def count_problem(owners: list[int] | np.ndarray) -> str | None:
    """Why 52 seat codes are not a full deal (a hand with other than 13 cards), or None."""
    import numpy as np

    counts = [int((np.asarray(owners) == s).sum()) for s in range(4)]
    for seat, n in enumerate(counts):
        if n != 13:
            return f"{SEAT_LETTERS[seat]} holds {plural(n, 'card')}, not 13"
    return None


# -- RZD/CDS rank bytes ----------------------------------------------------------
def rank_bytes_decode(raw: np.ndarray, seat_of_code: tuple[int, ...]) -> np.ndarray:
    """(n, 13) rank bytes (A..2; two bits a suit, spades on top) -> (n, 52) seat codes N0 E1 S2 W3."""
    import numpy as np

    seat_of = np.array(seat_of_code, dtype=np.uint8)
    n = raw.shape[0]
    owners = np.empty((n, 4, 13), dtype=np.uint8)  # [our suit][our rank, 2 first]
    ranks_low_first = raw[:, ::-1]
    for suit in range(4):
        owners[:, suit, :] = seat_of[(ranks_low_first >> (2 * suit)) & 3]
    return owners.reshape(n, 52)


def rank_bytes_encode(owners: np.ndarray, code_of_seat: tuple[int, ...]) -> np.ndarray:
    """(n, 52) seat codes of full deals -> (n, 13) rank bytes (A..2)."""
    import numpy as np

    n = owners.shape[0]
    codes = np.array(code_of_seat, dtype=np.uint8)[owners.reshape(n, 4, 13)]
    out = np.zeros((n, 13), dtype=np.uint8)
    for suit in range(4):
        out |= codes[:, suit, ::-1] << np.uint8(2 * suit)
    return out


#: RZD seat codes are ours (N0 E1 S2 W3); CDS codes W0 N1 E2 S3
RZD_SEATS = (0, 1, 2, 3)
CDS_SEATS = (3, 0, 1, 2)  # our seat for a CDS code
CDS_CODES = (1, 2, 3, 0, 0)  # CDS code for our seat (4 = absent, refused first)


class _DealRecords(FixedRecordCodec):
    """Fixed records holding only a deal; boards numbered by position (``--start-board``)."""

    caps = Capabilities(full_deals=True, board_numbers=False, deals_required=True)

    def _sniff_records(self, head: bytes, size: int | None) -> int:
        """How many whole records at the start of ``head`` decode to full deals (0 when any does not)."""
        import numpy as np

        rs = self.record_size
        start = self.header_size
        if size is not None and (size < start + rs or (size - start) % rs):
            return 0
        n = min((len(head) - start) // rs, 8)
        if n <= 0:
            return 0
        block = np.frombuffer(head[start : start + n * rs], dtype=np.uint8).reshape(n, rs)
        _, bad = self.decode_block(block)
        return 0 if bad.any() else n


class BerCodec(_DealRecords):
    name = "ber"
    title = "BER (digit per card)"
    extensions = ("ber",)
    record_size = 52

    def sniff(self, head: bytes, size: int | None = None) -> int:
        if size is not None and 0 < size % 52 <= 2:  # a line end after the last deal
            size -= size % 52
        return 92 if self._sniff_records(head, size) else 0

    def _broken_tail(self, buf: Any, count: int) -> str | None:
        """A line end (or Ctrl-Z) after the last deal is not a broken record."""
        if all(b in b"\r\n\x1a \t\0" for b in bytes(buf[count * self.record_size :])):
            return None
        return super()._broken_tail(buf, count)

    def decode_record(self, rec: bytes, base: int, record: int) -> Deal:
        rec = bytes(rec)
        for i, b in enumerate(rec):
            if not 0x31 <= b <= 0x34:
                raise FormatError(
                    f"card {CARD_NAMES[i]} has seat digit {show_bytes(rec[i : i + 1])}, not 1-4 (N E S W)",
                    record=record,
                    offset=base + i,
                )
        owners = [rec[51 - card] - 0x31 for card in range(52)]
        problem = count_problem(owners)
        if problem:
            raise FormatError(problem, record=record, offset=base)
        return Deal.from_owners(owners)

    def decode_block(self, block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        owners = np.subtract(block[:, ::-1], np.uint8(0x31), dtype=np.uint8)  # bytes below '1' wrap above 3
        bad = owners.max(axis=1, initial=0) > 3
        if bad.any():
            owners[owners > 3] = 4
        return owners, bad | ~complete_rows(owners)

    def encode_block(self, owners: np.ndarray) -> np.ndarray:
        import numpy as np

        return np.ascontiguousarray(owners[:, ::-1] + np.uint8(0x31))


RZD_HEADER = 13
RZD_PAD = b" " * 11


class RzdCodec(_DealRecords):
    name = "rzd"
    title = "RZD (rank bytes)"
    extensions = ("rzd",)
    record_size = 13
    header_size = RZD_HEADER
    caps = Capabilities(full_deals=True, board_numbers=False, deals_required=True, max_records=0xFFFF)

    def sniff(self, head: bytes, size: int | None = None) -> int:
        if len(head) < RZD_HEADER or head[2:RZD_HEADER] != RZD_PAD:
            return 0
        count = int.from_bytes(head[:2], "little")
        if size is not None and size != RZD_HEADER + 13 * count:
            return 40 if self._sniff_records(head, size) else 0
        return 95 if count == 0 or self._sniff_records(head, size) else 0

    def _map(self, path: str | os.PathLike[str]) -> Any:
        buf = map_file(path)
        if len(buf) < RZD_HEADER:
            raise FormatError(
                f"the file is {plural(len(buf), 'byte')}; an RZD file starts with a 13-byte header", offset=0
            )
        if bytes(buf[2:RZD_HEADER]) != RZD_PAD:
            raise FormatError(f"header bytes 2-12 are {show_bytes(bytes(buf[2:RZD_HEADER]))}, not 11 spaces", offset=2)
        return memoryview(buf)[RZD_HEADER:]

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> LazyBoardSet:
        doc = super().read(path, options)
        with open(path, "rb") as f:
            said = int.from_bytes(f.read(2), "little")
        if said != len(doc):
            doc.problems.insert(
                0,
                Problem(
                    None,
                    None,
                    error("rzd.board-count", f"the header says {plural(said, 'board')}; the file holds {len(doc)}"),
                ),
            )
        return doc

    def decode_record(self, rec: bytes, base: int, record: int) -> Deal:
        import numpy as np

        owners = rank_bytes_decode(np.frombuffer(bytes(rec), dtype=np.uint8).reshape(1, 13), RZD_SEATS)[0]
        problem = count_problem(owners)
        if problem:
            raise FormatError(problem, record=record, offset=base)
        return Deal.from_owners(owners.tolist())

    def decode_block(self, block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        owners = rank_bytes_decode(block, RZD_SEATS)
        return owners, ~complete_rows(owners)

    def encode_block(self, owners: np.ndarray) -> np.ndarray:
        return rank_bytes_encode(owners, RZD_SEATS)

    def write_bulk(self, chunks: Iterable[BulkChunk], out: IO[bytes], options: WriteOptions | None = None) -> int:
        """The header needs the count first, so records are encoded before anything is written
        (at most 65,535 of 13 bytes)."""
        parts: list[bytes] = []
        done = 0
        for c in chunks:
            require_full(c.owners, done, self.title)
            parts.append(self.encode_block(c.owners).tobytes())
            done += len(c)
            if done > 0xFFFF:
                raise FormatError(f"{self.title} holds at most 65535 boards")
        out.write(done.to_bytes(2, "little") + RZD_PAD)
        out.write(b"".join(parts))
        return done


class CdsCodec(_DealRecords):
    name = "cds"
    title = "CDS (numbered rank bytes)"
    extensions = ("cds",)
    record_size = 14
    caps = Capabilities(full_deals=True, board_numbers=True, deals_required=True, max_board=255)

    def sniff(self, head: bytes, size: int | None = None) -> int:
        n = self._sniff_records(head, size)
        return min(90, 50 + 10 * n) if n else 0

    def decode_record(self, rec: bytes, base: int, record: int) -> Deal:
        import numpy as np

        rec = bytes(rec)
        if rec[0] == 0:
            raise FormatError("board number 0 (CDS numbers boards 1-255)", record=record, offset=base)
        owners = rank_bytes_decode(np.frombuffer(rec[1:], dtype=np.uint8).reshape(1, 13), CDS_SEATS)[0]
        problem = count_problem(owners)
        if problem:
            raise FormatError(problem, record=record, offset=base + 1)
        return Deal.from_owners(owners.tolist())

    def decode_block(self, block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        owners = rank_bytes_decode(block[:, 1:], CDS_SEATS)
        return owners, ~complete_rows(owners) | (block[:, 0] == 0)

    def _record_number(self, rec: bytes, position: int) -> int:
        return int(rec[0])

    def _make_chunk(self, owners: np.ndarray, numbers: np.ndarray, block: np.ndarray) -> BulkChunk:
        import numpy as np

        return BulkChunk(owners, None, block[:, 0].astype(np.int64))

    def encode_block(self, owners: np.ndarray) -> np.ndarray:
        import numpy as np

        out = np.empty((owners.shape[0], 14), dtype=np.uint8)
        out[:, 0] = (np.arange(owners.shape[0]) % 255) + 1  # write_bulk sets the real numbers
        out[:, 1:] = rank_bytes_encode(owners, CDS_CODES)
        return out

    def write_bulk(self, chunks: Iterable[BulkChunk], out: IO[bytes], options: WriteOptions | None = None) -> int:
        import numpy as np

        start = options.start_board if options and options.start_board is not None else 1
        done = 0
        for c in chunks:
            require_full(c.owners, done, self.title)
            numbers = c.numbers if c.numbers is not None else np.arange(start + done, start + done + len(c))
            if len(c) and (numbers.min() < 1 or numbers.max() > 255):
                i = int(np.argmax((numbers < 1) | (numbers > 255)))
                raise FormatError(f"board {int(numbers[i])}: CDS holds board numbers 1-255", board=int(numbers[i]))
            records = self.encode_block(c.owners)
            records[:, 0] = numbers
            out.write(records.tobytes())
            done += len(c)
        return done

    def write(self, doc: Boards, out: IO[bytes], options: WriteOptions | None = None) -> None:
        self.write_bulk(_numbered_chunks(doc, options), out, options)

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        rep = BridgeCodec.check(self, boards, options)
        start = options.start_board if options and options.start_board is not None else 1
        for i, b in enumerate(boards):
            number = b.number if b.number is not None else start + i
            if number < 1:
                rep.errors.append(f"board {number}: CDS holds board numbers 1-255")
        return rep


def _numbered_chunks(doc: Boards, options: WriteOptions | None) -> Iterator[BulkChunk]:
    """Chunks of a board set's deals with its board numbers (position from ``start_board`` where none)."""
    import numpy as np

    start = options.start_board if options and options.start_board is not None else 1
    done = 0
    for owners in owner_chunks(doc):
        numbers = [
            b.number if b.number is not None else start + done + j
            for j, b in enumerate(doc[i] for i in range(done, done + len(owners)))
        ]
        yield BulkChunk(owners, None, np.array(numbers, dtype=np.int64))
        done += len(owners)


# -- text formats -------------------------------------------------------------------
def _text_lines(data: bytes) -> tuple[list[bytes], str]:
    """The file's lines without their ends, and the line end it uses (CRLF unless only LF is seen)."""
    newline = "\r\n" if b"\r\n" in data or b"\n" not in data else "\n"
    lines = data.split(b"\n")
    if lines and lines[-1].strip(b"\r\x1a \t\0") == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines], newline


def _newline(doc: Boards, options: WriteOptions | None, key: str) -> bytes:
    info = source_info(doc)
    nl = (
        (options.newline if options and options.newline else None)
        or (info.extra.get(key) if info is not None else None)
        or "\r\n"
    )
    return nl.encode("ascii")


def bhg_letter(index: int) -> str:
    """The BHG letter of card ``index`` in file order (SA = 0)."""
    return chr(65 + index) if index < 26 else chr(71 + index)


_BHG_INDEX = {bhg_letter(i): i for i in range(52)}


class BhgCodec(BridgeCodec):
    name = "bhg"
    title = "BHG (letter per card)"
    extensions = ("bhg",)
    binary = False
    caps = Capabilities(full_deals=True, board_numbers=True, deals_required=True, max_board=9999)

    def sniff(self, head: bytes, size: int | None = None) -> int:
        lines = head.split(b"\n")
        if len(lines) < 2 or any(b < 0x20 and b not in (9, 13) for b in lines[0]):
            return 0
        for line in lines[1:-1]:  # the last piece may be cut off by the sniff window
            text = line.rstrip(b"\r")
            if not text.strip():
                continue
            if len(text) == 52 and text.isalpha() and len(set(text)) == 52:
                return 88
            return 0
        return 0

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> BoardSet:
        with open(path, "rb") as f:
            data = f.read()
        if not data:
            raise FormatError("the file is empty; a BHG file has a header line, then a line a board", line=1)
        lines, newline = _text_lines(data)
        info = FileInfo()
        header = decode_text(lines[0]) if lines else None  # the one text a BHG file holds
        info.extra["bhg_header"] = header.text if header is not None else ""
        info.extra["bhg_encoding"] = header.encoding if header is not None else EIGHT_BIT
        info.extra["bhg_newline"] = newline
        boards: list[Board] = []
        for number, raw in enumerate(lines[1:], 1):
            text = raw.strip(b" \t\x1a\0")
            if not text:
                continue
            owners = self.decode_line(text, number)
            boards.append(Board.numbered(number, Deal.from_owners(owners)))
        if not boards:
            raise FormatError(
                "no deals: a BHG file has a header line, then 52 letters for each board", line=min(len(lines), 2)
            )
        doc = BoardSet(boards, info)
        if header is not None:
            doc.problems.extend(undecodable_problems(lines[0], header.undecodable, None))
        return doc

    @staticmethod
    def decode_line(text: bytes, number: int) -> list[int]:
        """Seat codes of board ``number`` from its 52 letters (the dealer's hand first)."""
        if len(text) != 52:
            raise FormatError(f"{len(text)} characters, not 52 letters", line=number + 1, board=number)
        dealer = int(dealer_for_board(number))
        owners = [4] * 52
        for k, byte in enumerate(text):
            index = _BHG_INDEX.get(chr(byte))
            if index is None:
                raise FormatError(
                    f"character {k + 1} is {show_bytes(bytes([byte]))}, not a card letter A-Z or a-z",
                    line=number + 1,
                    board=number,
                )
            card = 51 - index
            if owners[card] != 4:
                raise FormatError(
                    f"card {CARD_NAMES[index]} ({chr(byte)}) appears twice", line=number + 1, board=number
                )
            owners[card] = (dealer + k // 13) % 4
        return owners

    @staticmethod
    def encode_board(deal: Deal, number: int) -> str:
        dealer = int(dealer_for_board(number))
        out: list[str] = []
        for k in range(4):
            hand = deal.hands[(dealer + k) % 4]
            out.extend(bhg_letter(i) for i in range(52) if hand >> (51 - i) & 1)
        return "".join(out)

    def _numbered(self, boards: Boards, options: WriteOptions | None) -> list[tuple[int, Board]]:
        start = options.start_board if options and options.start_board is not None else 1
        return [(b.number if b.number is not None else start + i, b) for i, b in enumerate(boards)]

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        rep = super().check(boards, options)
        numbered = self._numbered(boards, options)
        seen: set[int] = set()
        for number, _b in numbered:
            if number < 1:
                rep.errors.append(f"board {number}: BHG numbers boards from 1 (line n is board n)")
            elif number in seen:
                rep.errors.append(f"board {number} appears twice; BHG has one line a board number")
            seen.add(number)
        numbers = [n for n, _ in numbered]
        if numbers != sorted(numbers):
            rep.losses.append("the order of the boards (BHG keeps them in board-number order)")
        return rep

    def write(self, doc: Boards, out: IO[bytes], options: WriteOptions | None = None) -> None:
        nl = _newline(doc, options, "bhg_newline")
        info = source_info(doc)
        header = info.extra.get("bhg_header", "") if info is not None else ""
        numbered = dict(self._numbered(doc, options))
        last = max(numbered, default=0)
        encoding = info.extra.get("bhg_encoding", EIGHT_BIT) if info is not None else EIGHT_BIT
        lines = [header.encode(encoding, "replace")]  # in the encoding it was read in
        for number in range(1, last + 1):
            board = numbered.get(number)
            if board is None:
                lines.append(b"")
                continue
            if not board.deal.is_complete:
                raise FormatError(f"board {number} is not a complete deal; {self.title} stores only full deals")
            lines.append(self.encode_board(board.deal, number).encode("ascii"))
        out.write(b"".join(line + nl for line in lines))


def holding_text(deal: Deal, seat: int, suit: int) -> str:
    """``AK762``: the seat's cards in ``suit`` (our suit index), high first; empty for a void."""
    hand = deal.hands[seat]
    return "".join(RANK_CHARS[r] for r in range(12, -1, -1) if hand >> (13 * suit + r) & 1)


class CsvCodec(BridgeCodec):
    name = "csv"
    title = "CSV (holdings per hand)"
    extensions = ("csv",)
    binary = False
    caps = Capabilities(full_deals=True, board_numbers=True, dealer_vul=True, deals_required=True)

    FIELDS = 18

    def sniff(self, head: bytes, size: int | None = None) -> int:
        first = head.split(b"\n", 1)[0].rstrip(b"\r")
        if not first.startswith(b'"'):
            return 0
        try:
            row = next(csv.reader([first.decode("ascii")]))
        except (UnicodeDecodeError, csv.Error, StopIteration):
            return 0
        if len(row) != self.FIELDS or not row[16].strip().isdigit():
            return 0
        try:
            self.dealer_vul(row[17], 1)
        except FormatError:
            return 0
        return 85

    @staticmethod
    def dealer_vul(text: str, line: int) -> tuple[Seat, Vulnerability]:
        dealer, sep, vul = text.strip().partition("/")
        try:
            if not sep:
                raise ValueError
            return Seat.from_letter(dealer.strip()), Vulnerability.from_text(vul)
        except ValueError:
            raise FormatError(
                f"dealer/vulnerability {text!r} is not like N/-, E/NS, S/EW or W/All", line=line
            ) from None

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> BoardSet:
        with open(path, "rb") as f:
            data = f.read()
        lines, newline = _text_lines(data)
        info = FileInfo()
        info.extra["csv_newline"] = newline
        boards: list[Board] = []
        board_lines: dict[int, int] = {}
        for n, raw in enumerate(lines, 1):
            if not raw.strip(b" \t\x1a\0"):
                continue
            try:
                text = raw.decode("ascii")
                row = next(csv.reader([text], strict=True))
            except UnicodeDecodeError as e:
                raise FormatError(
                    f"byte {e.start + 1} is {show_bytes(raw[e.start : e.start + 1])}, not ASCII", line=n
                ) from None
            except csv.Error as e:
                raise FormatError(f"not a CSV row: {e}", line=n) from None
            board_lines[len(boards)] = n
            boards.append(self.decode_row(row, n))
        if not boards:
            raise FormatError("no deals: a CSV deal file has a line a board", line=1)
        info.extra["board_lines"] = board_lines
        return BoardSet(boards, info)

    def decode_row(self, row: list[str], line: int) -> Board:
        if len(row) != self.FIELDS:
            raise FormatError(f"{len(row)} fields, not 18 (16 holdings, board number, dealer/vulnerability)", line=line)
        number_text = row[16].strip()
        if not number_text.isdigit() or int(number_text) < 1:
            raise FormatError(f"board number {number_text!r} is not a positive number", line=line)
        number = int(number_text)
        dealer, vul = self.dealer_vul(row[17], line)
        owners = [4] * 52
        for seat in range(4):
            for k in range(4):
                suit = 3 - k
                text = row[4 * seat + k].strip().upper().replace("10", "T")
                if text in ("-", "—"):
                    text = ""
                for ch in text:
                    rank = RANK_CHARS.find(ch)
                    if rank < 0:
                        raise FormatError(
                            f"{SEAT_LETTERS[seat]}'s {SUIT_NAMES[k]} {row[4 * seat + k]!r}: {ch!r} is not a rank",
                            line=line,
                            board=number,
                        )
                    card = 13 * suit + rank
                    if owners[card] != 4:
                        raise FormatError(f"card {CARD_NAMES[51 - card]} appears twice", line=line, board=number)
                    owners[card] = seat
        problem = count_problem(owners)
        if problem:
            raise FormatError(problem, line=line, board=number)
        return Board(number=number, dealer=dealer, vulnerability=vul, deal=Deal.from_owners(owners))

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        rep = super().check(boards, options)
        start = options.start_board if options and options.start_board is not None else 1
        for i, b in enumerate(boards):
            if b.number is not None and b.number < 1 or b.number is None and start + i < 1:
                rep.errors.append(
                    f"board {b.number if b.number is not None else start + i}: CSV board numbers are positive"
                )
        return rep

    def write(self, doc: Boards, out: IO[bytes], options: WriteOptions | None = None) -> None:
        nl = _newline(doc, options, "csv_newline").decode("ascii")
        start = options.start_board if options and options.start_board is not None else 1
        buf = io.StringIO()
        for i, b in enumerate(doc):
            if not b.deal.is_complete:
                raise FormatError(f"record {i + 1} is not a complete deal; {self.title} stores only full deals")
            number = b.number if b.number is not None else start + i
            fields = [holding_text(b.deal, seat, 3 - k) for seat in range(4) for k in range(4)]
            dealer = b.dealer if b.dealer is not None else dealer_for_board(number)
            vul = b.vulnerability if b.vulnerability is not None else vulnerability_for_board(number)
            fields += [str(number), f"{dealer.letter}/{('-', 'NS', 'EW', 'All')[vul]}"]
            buf.write('"' + '","'.join(fields) + '"' + nl)
        out.write(buf.getvalue().encode("ascii"))


CODECS: tuple[BridgeCodec, ...] = (BerCodec(), BhgCodec(), CdsCodec(), CsvCodec(), RzdCodec())

__all__ = [
    "CODECS",
    "BerCodec",
    "BhgCodec",
    "CdsCodec",
    "CsvCodec",
    "RzdCodec",
    "bhg_letter",
    "holding_text",
    "rank_bytes_decode",
    "rank_bytes_encode",
]
