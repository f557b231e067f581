"""Duplimate / Dealer4 dealing-machine files: BRI, DGE, BRE and DUP.

Layouts follow the Dealer4 manual, appendix A (``shared/specs/003_*``):

* BRI: 128-byte records; 78 ASCII digits (13 two-digit card numbers each for
  N, E, S; 01 = SA ... 13 = S2, 14 = HA ... 52 = C2; W gets the rest), then
  32 spaces and 18 NULs.
* DGE: 128-byte records; N, E, S, W as suit symbol bytes (0x06 spades, 0x03
  hearts, 0x04 diamonds, 0x05 clubs) each followed by ranks ``AKQJT98765432``
  high to low (68 bytes), then 60 NULs.
* BRE: three CRLF text lines (event, site, date), then 68-byte DGE deals each
  followed by CRLF.
* DUP: 156-byte records; the BRI 78 bytes, the DGE 68 bytes, then 10 control
  bytes (random Y/N, backwards Y/N, first board, copies, last board).

None of them stores a board number (DUP stores the first board of the set), so
boards are numbered by position and dealer/vulnerability follow the number.
The fixed-record readers map the file and decode boards on demand; whole files
are converted chunk by chunk with numpy (see :mod:`bridgeview.formats.bulk`).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import IO, TYPE_CHECKING, Any

from ...model.board import Board
from ...model.boardset import BoardSet, DupControl, FileInfo, LazyBoardSet
from ...model.cards import CARDS, SEAT_LETTERS
from ...model.deal import Deal
from ...model.problem import Problem, error
from ...model.problem import warning as problem_warning
from ..bulk import ABSENT, BulkChunk
from ..codec import Boards, BridgeCodec, Capabilities, ReadOptions, SaveReport, WriteOptions, source_info
from ..errors import MESSAGE_LIMIT, FormatError
from ..records import FixedRecordCodec, Records, owner_chunks, require_full
from ..textcheck import decode_text, undecodable_problems

if TYPE_CHECKING:
    import numpy as np

BRI_DEAL = 78
DGE_DEAL = 68
CONTROL = 10
RECORD = 128
DUP_RECORD = BRI_DEAL + DGE_DEAL + CONTROL
BRI_FILLER = b" " * 32 + b"\0" * 18
DGE_FILLER = b"\0" * 60
#: Suit symbol bytes in the order a DGE hand lists them: spades, hearts, diamonds, clubs.
SYMBOLS = b"\x06\x03\x04\x05"
SUIT_NAMES = ("spade", "heart", "diamond", "club")
RANKS_LOW_FIRST = b"23456789TJQKA"
#: DUP control bytes written when the set has none of its own (see docs/formats.md, "Duplimate").
#: ``FileInfo.extra`` key of the sentence saying a requested first board number was not used
START_IGNORED = "start_board_ignored"
DEFAULT_DUP = DupControl(random=True, backwards=False, first_board=1, copies=1, last_board=None)


@cache
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Byte look-up tables for the bulk deal readers, built on first use so importing the codec needs no numpy:
    is-suit-symbol, rank index (255 = not a rank), the four symbols as stored, BRI's seat of each stored card."""
    import numpy as np

    is_symbol = np.zeros(256, dtype=bool)
    is_symbol[list(SYMBOLS)] = True
    rank_index = np.full(256, 255, dtype=np.uint8)
    rank_index[list(RANKS_LOW_FIRST)] = np.arange(13, dtype=np.uint8)
    expected = np.frombuffer(SYMBOLS * 4, dtype=np.uint8)
    bri_seats = np.repeat(np.arange(3, dtype=np.uint8), 13)
    return is_symbol, rank_index, expected, bri_seats


def show_bytes(raw: bytes) -> str:
    """Bytes as a user can read them in an error message: quoted text or hex."""
    if all(0x20 <= b < 0x7F for b in raw):
        return repr(raw.decode("ascii"))
    return " ".join(f"0x{b:02x}" for b in raw)


# -- single records (exact error messages) -------------------------------
def decode_bri(data: bytes, base: int = 0, record: int | None = None) -> list[int]:
    """52 seat codes from 78 BRI digits; raises FormatError naming the bad pair."""
    owners = [3] * 52
    seen = [False] * 52
    for i in range(39):
        pair = data[2 * i : 2 * i + 2]
        if len(pair) != 2 or not pair.isdigit():
            raise FormatError(
                f"bad card number {show_bytes(pair)}: expected two digits 01-52", record=record, offset=base + 2 * i
            )
        code = int(pair)
        if not 1 <= code <= 52:
            raise FormatError(f"card number {code:02d} is not 01-52", record=record, offset=base + 2 * i)
        card = 52 - code
        if seen[card]:
            raise FormatError(f"card {CARDS[card]} ({code:02d}) is listed twice", record=record, offset=base + 2 * i)
        seen[card] = True
        owners[card] = i // 13
    return owners


def decode_dge(data: bytes, base: int = 0, record: int | None = None) -> list[int]:
    """52 seat codes from a 68-byte DGE deal; raises FormatError naming the bad byte."""
    owners = [ABSENT] * 52
    pos = 0
    size = min(len(data), DGE_DEAL)
    for seat in range(4):
        hand_start = pos
        count = 0
        for k, symbol in enumerate(SYMBOLS):
            if pos >= size or data[pos] != symbol:
                found = show_bytes(data[pos : pos + 1]) if pos < size else "the end of the deal"
                raise FormatError(
                    f"expected the {SUIT_NAMES[k]} symbol 0x{symbol:02x} of {SEAT_LETTERS[seat]}'s hand, found {found}",
                    record=record,
                    offset=base + pos,
                )
            pos += 1
            suit = 3 - k
            while pos < size and data[pos] not in SYMBOLS:
                rank = RANKS_LOW_FIRST.find(data[pos])
                if rank < 0:
                    raise FormatError(
                        f"bad rank {show_bytes(data[pos : pos + 1])} in {SEAT_LETTERS[seat]}'s {SUIT_NAMES[k]}s",
                        record=record,
                        offset=base + pos,
                    )
                card = 13 * suit + rank
                if owners[card] != ABSENT:
                    raise FormatError(f"card {CARDS[card]} appears twice", record=record, offset=base + pos)
                owners[card] = seat
                pos += 1
                count += 1
        if count != 13:
            raise FormatError(
                f"{SEAT_LETTERS[seat]} holds {count} cards, not 13", record=record, offset=base + hand_start
            )
    if pos != size or size != DGE_DEAL:
        raise FormatError(f"the deal is {size} bytes, not {DGE_DEAL}", record=record, offset=base)
    return owners


def encode_bri(owners: np.ndarray) -> np.ndarray:
    """(n, 52) seat codes of full deals -> (n, 78) BRI digit bytes."""
    import numpy as np

    n = owners.shape[0]
    reversed_owners = owners[:, ::-1]  # column j is card 51 - j, whose BRI number is j + 1
    codes = np.empty((n, 39), dtype=np.uint8)
    for seat in range(3):
        _, cols = np.nonzero(reversed_owners == seat)
        codes[:, 13 * seat : 13 * seat + 13] = (cols + 1).reshape(n, 13)
    digits = np.empty((n, 39, 2), dtype=np.uint8)
    digits[..., 0] = codes // 10 + 48
    digits[..., 1] = codes % 10 + 48
    return digits.reshape(n, BRI_DEAL)


def decode_bri_block(digits: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, 78) BRI bytes -> (owners (n, 52), bad (n,) rows that decode_bri rejects)."""
    import numpy as np

    n = digits.shape[0]
    d = digits.reshape(n, 39, 2).astype(np.int16) - 48
    ok = ((d >= 0) & (d <= 9)).all(axis=(1, 2))
    codes = d[..., 0] * 10 + d[..., 1]
    in_range = (codes >= 1) & (codes <= 52)
    ok &= in_range.all(axis=1)
    cards = np.where(in_range, 52 - codes, 0)
    ok &= (np.diff(np.sort(cards, axis=1), axis=1) != 0).all(axis=1)
    owners = np.full((n, 52), 3, dtype=np.uint8)
    rows = np.repeat(np.arange(n), 39)
    owners[rows, cards.ravel()] = np.tile(_tables()[3], n)
    return owners, ~ok


def encode_dge(owners: np.ndarray) -> np.ndarray:
    """(n, 52) seat codes of full deals -> (n, 68) DGE bytes (sorting by hand, suit, rank)."""
    import numpy as np

    n = owners.shape[0]
    cards = np.arange(52)
    display_suit = 3 - cards // 13
    card_keys = display_suit * 20 + 1 + (12 - cards % 13)  # after its suit symbol, high ranks first
    symbol_keys = np.array([hand * 100 + s * 20 for hand in range(4) for s in range(4)], dtype=np.int16)
    keys = np.concatenate(
        [np.broadcast_to(symbol_keys, (n, 16)), owners.astype(np.int16) * 100 + card_keys.astype(np.int16)], axis=1
    )
    values = np.concatenate([_tables()[2], np.frombuffer(RANKS_LOW_FIRST * 4, dtype=np.uint8)])
    order = np.argsort(keys, axis=1, kind="stable")
    return values[order]


def decode_dge_block(block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, 68) DGE bytes -> (owners (n, 52), bad (n,) rows that decode_dge rejects)."""
    import numpy as np

    n = block.shape[0]
    sym = _tables()[0][block]
    ok = (sym.sum(axis=1) == 16) & sym[:, 0]
    rows = np.nonzero(ok)[0]
    if rows.size:
        ok[rows] = (block[rows][sym[rows]].reshape(-1, 16) == _tables()[2]).all(axis=1)
    group = np.cumsum(sym, axis=1) - 1  # which of the 16 suit runs a byte is in
    rank = _tables()[1][block]
    is_card = ~sym
    ok &= ~(is_card & (rank == 255)).any(axis=1)
    hand = group // 4
    for h in range(4):
        ok &= (is_card & (hand == h)).sum(axis=1) == 13
    valid = is_card & (rank != 255) & (group >= 0)
    r, c = np.nonzero(valid)
    card = 13 * (3 - group[r, c] % 4) + rank[r, c]
    owners = np.full((n, 52), ABSENT, dtype=np.uint8)
    owners[r, card] = hand[r, c]
    ok &= (owners != ABSENT).all(axis=1)  # 52 card bytes: a card missing means another is doubled
    return owners, ~ok


_DEAL_ONLY = Capabilities(full_deals=True, board_numbers=False, deals_required=True)


class BriCodec(FixedRecordCodec):
    name = "bri"
    title = "Duplimate BRI"
    extensions = ("bri",)
    caps = _DEAL_ONLY
    record_size = RECORD
    deal_size = BRI_DEAL
    filler = BRI_FILLER
    decode_deal = staticmethod(decode_bri)
    decode_deal_block = staticmethod(decode_bri_block)
    encode_deal_block = staticmethod(encode_bri)

    def sniff(self, head: bytes, size: int | None = None) -> int:
        if len(head) < BRI_DEAL:
            return 0
        if len(head) > BRI_DEAL and head[BRI_DEAL] == SYMBOLS[0]:
            return 0  # a DUP record
        try:
            decode_bri(head[:BRI_DEAL])
        except FormatError:
            return 0
        if _bare_bri(head, size):
            return 70
        if size is not None and size % RECORD:
            return 0
        filler = head[BRI_DEAL:RECORD]
        return 90 if all(b in (0, 0x20) for b in filler) else 60

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> LazyBoardSet:
        with open(path, "rb") as f:
            head = f.read(2 * BRI_DEAL)
        size = os.path.getsize(path)
        if not _bare_bri(head, size):
            return super().read(path, options)
        doc = _BARE_BRI.read(path, options)  # records of the 78 digits alone: nothing is ambiguous
        doc.problems.append(
            Problem(
                None,
                None,
                problem_warning(
                    "bri.bare-records", f"bare {BRI_DEAL}-byte BRI records without the 50 bytes of padding; read anyway"
                ),
            )
        )
        return doc


class _BareBriCodec(BriCodec):
    """BRI records of the 78 digits alone, as some programs write them (read only, via BriCodec)."""

    record_size = BRI_DEAL
    filler = b""

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> LazyBoardSet:
        return FixedRecordCodec.read(self, path, options)


_BARE_BRI = _BareBriCodec()


def _bare_bri(head: bytes, size: int | None) -> bool:
    """True for a file of unpadded 78-byte BRI records: its size a multiple of 78 and, when
    there are two records, the second one starting right after the first's 78 digits."""
    if size is None or size % BRI_DEAL or not head[:BRI_DEAL].isdigit():
        return False
    if size == BRI_DEAL:
        return True
    second = head[BRI_DEAL : 2 * BRI_DEAL]
    return len(second) == BRI_DEAL and second.isdigit()


class DgeCodec(FixedRecordCodec):
    name = "dge"
    title = "Duplimate DGE"
    extensions = ("dge",)
    caps = _DEAL_ONLY
    record_size = RECORD
    deal_size = DGE_DEAL
    filler = DGE_FILLER
    decode_deal = staticmethod(decode_dge)
    decode_deal_block = staticmethod(decode_dge_block)
    encode_deal_block = staticmethod(encode_dge)

    def sniff(self, head: bytes, size: int | None = None) -> int:
        if size is not None and size % RECORD:
            return 0
        if len(head) < DGE_DEAL:
            return 0
        try:
            decode_dge(head[:DGE_DEAL])
        except FormatError:
            return 0
        return 90


# -- DUP -------------------------------------------------------------------
@dataclass(frozen=True)
class DupSource:
    """``Board.source`` of a DUP record: its control bytes as read, so a set
    whose later records had none (as most programs write) is saved the same way."""

    control: bytes


@dataclass
class DupChunk(BulkChunk):
    """A bulk chunk of DUP records that also carries their (n, 10) control bytes."""

    control: np.ndarray | None = None


def _blank(raw: bytes) -> bool:
    return all(b in (0, 0x20) for b in raw)


def parse_control(raw: bytes, base: int = 0, record: int = 1, default_first: int = 1) -> DupControl | None:
    """The control fields of one DUP record; None when all ten bytes are blank."""
    if _blank(raw):
        return None

    def flag(i: int, what: str) -> bool:
        b = raw[i]
        if b in b"Yy":
            return True
        if b in b"Nn\0 ":
            return False
        raise FormatError(
            f"the {what} flag is {show_bytes(raw[i : i + 1])}, not Y or N", record=record, offset=base + i
        )

    def number(lo: int, hi: int, what: str) -> int | None:
        text = raw[lo:hi].replace(b"\0", b" ").strip()
        if not text:
            return None
        if not text.isdigit():
            raise FormatError(
                f"the {what} field is {show_bytes(raw[lo:hi])}, not a number", record=record, offset=base + lo
            )
        return int(text)

    random = flag(0, "random")
    backwards = flag(1, "backwards")
    first = number(2, 5, "first board")
    copies = number(5, 7, "copies")
    last = number(7, 10, "last board")
    if first == 0:
        raise FormatError("the first board number is 0", record=record, offset=base + 2)
    return DupControl(random, backwards, first if first is not None else default_first, copies, last)


def format_control(dup: DupControl, first: int, last: int) -> bytes:
    """The ten control bytes: flags, then left-aligned space-padded numbers."""
    copies = "" if dup.copies is None else str(dup.copies)
    text = ("Y" if dup.random else "N") + ("Y" if dup.backwards else "N")
    text += f"{first:<3}{copies:<2}{last:<3}"
    return text.encode("ascii")


def control_rows(first: int, count: int, dup: DupControl | None, raws: list[bytes | None]) -> list[bytes]:
    """Control bytes for each record: computed from the set (with ``dup``'s flags
    and copies), except that a later record read with blank control bytes stays blank and
    bytes read that mean what would be written (``02 `` for ``2  ``) stay exactly as read."""
    computed = format_control(dup or DEFAULT_DUP, first, first + count - 1)
    meaning = parse_control(computed)
    out: list[bytes] = []
    for i, raw in enumerate(raws):
        keep = raw is not None and ((i > 0 and _blank(raw)) or _means(raw, meaning))
        out.append(raw if raw is not None and keep else computed)
    return out


def _means(raw: bytes, control: DupControl | None) -> bool:
    """True when control bytes read from a file say exactly ``control``."""
    try:
        return not _blank(raw) and parse_control(raw) == control
    except FormatError:
        return False


def run_breaks(numbers: list[int]) -> list[tuple[int, int, int]]:
    """(position, number, previous number) of each board that does not follow the one before it."""
    return [(i, n, numbers[i - 1]) for i, n in enumerate(numbers) if i and n != numbers[i - 1] + 1]


def run_breaks_message(numbers: list[int], limit: int = 5) -> str:
    """Why a set cannot be a DUP file as numbered: which boards break the run, and what to do.  Only the list
    of examples is ever shortened (to ``limit``, and to what fits an error message): the advice stays whole."""
    breaks = run_breaks(numbers)
    first = numbers[0]
    head = f"DUP numbers boards consecutively from the first board ({first}), and this set's numbers break the run: "
    advice = (
        f". Renumber the boards {first}-{first + len(numbers) - 1} "
        "(bridgeview convert --renumber, or Edit › Dealing Machine Settings in the GUI)"
    )
    parts: list[str] = []
    for k, (_i, n, prev) in enumerate(breaks[:limit]):
        part = f"board {n} repeated" if n == prev else f"board {n} follows board {prev}"
        more = len(breaks) - k - 1
        tail = f", and {more} more" if more else ""
        if parts and len(head + ", ".join([*parts, part]) + tail + advice) > MESSAGE_LIMIT:
            break
        parts.append(part)
    if len(breaks) > len(parts):
        parts.append(f"and {len(breaks) - len(parts)} more")
    return head + ", ".join(parts) + advice


class DupCodec(FixedRecordCodec):
    name = "dup"
    title = "Duplimate DUP"
    extensions = ("dup",)
    record_size = DUP_RECORD
    caps = Capabilities(full_deals=True, board_numbers=True, deals_required=True, max_records=999, max_board=999)

    def sniff(self, head: bytes, size: int | None = None) -> int:
        if size is not None and size % DUP_RECORD:
            return 0
        if len(head) < BRI_DEAL + DGE_DEAL:
            return 0
        try:
            decode_bri(head[:BRI_DEAL])
            decode_dge(head[BRI_DEAL : BRI_DEAL + DGE_DEAL])
        except FormatError:
            return 0
        return 95

    def decode_record(self, rec: bytes, base: int, record: int) -> Deal:
        from_bri = decode_bri(rec[:BRI_DEAL], base, record)
        from_dge = decode_dge(rec[BRI_DEAL : BRI_DEAL + DGE_DEAL], base + BRI_DEAL, record)
        if from_bri != from_dge:
            card = next(c for c in range(51, -1, -1) if from_bri[c] != from_dge[c])
            raise FormatError(
                f"the BRI and DGE parts disagree: BRI gives {CARDS[card]} to {SEAT_LETTERS[from_bri[card]]}, "
                f"DGE to {SEAT_LETTERS[from_dge[card]]}",
                record=record,
                offset=base + BRI_DEAL,
            )
        return Deal.from_owners(from_bri)

    def decode_block(self, block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        owners, bad = decode_bri_block(block[:, :BRI_DEAL])
        owners2, bad2 = decode_dge_block(block[:, BRI_DEAL : BRI_DEAL + DGE_DEAL])
        return owners, bad | bad2 | (owners != owners2).any(axis=1)

    def _source(self, rec: bytes) -> Any:
        return DupSource(bytes(rec[BRI_DEAL + DGE_DEAL :]))

    def _make_chunk(self, owners: np.ndarray, numbers: np.ndarray, block: np.ndarray) -> BulkChunk:
        import numpy as np

        return DupChunk(owners, None, numbers, control=np.array(block[:, BRI_DEAL + DGE_DEAL :]))

    def _first_number(self, records: Records, options: ReadOptions, info: FileInfo) -> int:
        default = options.start_board if options.start_board is not None else 1
        count = records.count
        if not count:
            return default
        dup = parse_control(records.record(0)[BRI_DEAL + DGE_DEAL :], BRI_DEAL + DGE_DEAL, 1, default)
        info.dup = dup
        if dup is None:
            return default
        first = dup.first_board
        if options.start_board is not None and options.start_board != first:
            info.extra[START_IGNORED] = (
                f"the start board {options.start_board} is ignored: "
                f"this DUP file numbers its boards from {first} itself"
            )
        if dup.last_board is not None and dup.last_board != first + count - 1:
            records.problems.append(
                Problem(
                    None,
                    None,
                    error(
                        "dup.last-board-differs",
                        f"the control bytes say the last board is {dup.last_board}, "
                        f"but the file's {count} boards run {first}-{first + count - 1}",
                    ),
                )
            )
        return first

    def encode_block(self, owners: np.ndarray) -> np.ndarray:
        import numpy as np

        out = np.zeros((owners.shape[0], DUP_RECORD), dtype=np.uint8)
        out[:, :BRI_DEAL] = encode_bri(owners)
        out[:, BRI_DEAL : BRI_DEAL + DGE_DEAL] = encode_dge(owners)
        return out

    def _write_records(
        self, owners: np.ndarray, numbers: list[int], dup: DupControl | None, raws: list[bytes | None], out: IO[bytes]
    ) -> int:
        import numpy as np

        if not len(numbers):
            return 0
        first = numbers[0]
        for i, num in enumerate(numbers):
            if num != first + i:
                raise FormatError(
                    f"board {num} at position {i + 1}: DUP numbers boards consecutively from the first "
                    f"(expected board {first + i})",
                    board=num,
                )
        if first < 1 or first + len(numbers) - 1 > 999:
            raise FormatError(f"DUP holds board numbers 1-999, not {first}-{first + len(numbers) - 1}")
        require_full(owners, 0, self.title)
        records = self.encode_block(owners)
        records[:, BRI_DEAL + DGE_DEAL :] = np.frombuffer(
            b"".join(control_rows(first, len(numbers), dup, raws)), dtype=np.uint8
        ).reshape(-1, CONTROL)
        out.write(records.tobytes())
        return len(numbers)

    def write_bulk(self, chunks: Iterable[BulkChunk], out: IO[bytes], options: WriteOptions | None = None) -> int:
        import numpy as np

        owners_parts: list[np.ndarray] = []
        numbers: list[int] = []
        raws: list[bytes | None] = []
        start = options.start_board if options and options.start_board is not None else 1
        for c in chunks:
            owners_parts.append(c.owners)
            if c.numbers is not None:
                numbers.extend(int(n) for n in c.numbers)
            else:
                numbers.extend(range(start + len(numbers), start + len(numbers) + len(c)))
            control = c.control if isinstance(c, DupChunk) else None
            if control is not None:
                raws.extend(bytes(r) for r in control)
            else:
                raws.extend([None] * len(c))
        if not numbers:
            return 0
        dup = parse_control(raws[0]) if raws[0] is not None else None
        return self._write_records(np.concatenate(owners_parts), numbers, dup, raws, out)

    def write(self, doc: Boards, out: IO[bytes], options: WriteOptions | None = None) -> None:
        import numpy as np

        boards = list(doc)
        if not boards:
            return
        start = self._start(doc, options)
        numbers = [b.number if b.number is not None else start + i for i, b in enumerate(boards)]
        raws = [b.source.control if isinstance(b.source, DupSource) else None for b in boards]
        owners = np.array([b.deal.owners() for b in boards], dtype=np.uint8)
        info = source_info(doc)
        self._write_records(owners, numbers, info.dup if info is not None else None, raws, out)

    @staticmethod
    def _start(doc: Boards, options: WriteOptions | None) -> int:
        if options and options.start_board is not None:
            return options.start_board
        info = source_info(doc)
        return info.dup.first_board if info is not None and info.dup is not None else 1

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        rep = BridgeCodec.check(self, boards, options)
        start = self._start(boards, options)
        numbers = [b.number if b.number is not None else start + i for i, b in enumerate(boards)]
        if numbers:
            first = numbers[0]
            if any(n != first + i for i, n in enumerate(numbers)):
                rep.errors.append(run_breaks_message(numbers))
            if first < 1:
                rep.errors.append(f"board {first}: DUP board numbers start at 1")
        info = source_info(boards)
        dup = info.dup if info is not None else None
        if dup is not None and dup.copies is not None and not 0 <= dup.copies <= 99:
            rep.errors.append(f"DUP holds 0-99 copies a board, not {dup.copies}")
        return rep


# -- BRE -------------------------------------------------------------------
HEADER_LINES = ("event", "site", "date")
TRAILING_JUNK = b"\r\n\x1a \0"


class BreCodec(BridgeCodec):
    name = "bre"
    title = "Duplimate BRE"
    extensions = ("bre",)
    binary = True
    caps = Capabilities(full_deals=True, header=True, deals_required=True)

    @staticmethod
    def _header_end(data: bytes) -> tuple[list[bytes], int, bytes] | None:
        """The three header lines, where the deals start and the line end used."""
        lines: list[bytes] = []
        pos = 0
        newline = b"\r\n"
        for _ in range(3):
            end = data.find(b"\n", pos)
            if end < 0:
                return None
            line = data[pos:end]
            if line.endswith(b"\r"):
                line = line[:-1]
            elif not lines:
                newline = b"\n"
            lines.append(line)
            pos = end + 1
        return lines, pos, newline

    def sniff(self, head: bytes, size: int | None = None) -> int:
        found = self._header_end(head)
        if found is None:
            return 0
        lines, pos, _ = found
        if any(b < 0x20 and b != 9 for line in lines for b in line):
            return 0
        if pos < len(head):  # strict: a whole 68-byte DGE deal, then a line end (when the head holds it)
            record = head[pos : pos + DGE_DEAL]
            if record[:1] != SYMBOLS[:1]:
                return 0
            if len(record) == DGE_DEAL:
                try:
                    decode_dge(record)
                except FormatError:
                    return 0
                after = head[pos + DGE_DEAL : pos + DGE_DEAL + 1]
                if after and after not in (b"\r", b"\n"):
                    return 0
            return 90
        # three lines and no deals (a two-board BHG file looks like that): only the .bre extension says BRE
        return 0

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> BoardSet:
        options = options or ReadOptions()
        with open(path, "rb") as f:
            data = f.read()
        found = self._header_end(data)
        if found is None:
            raise FormatError("a BRE file starts with three lines (event, site, date)", line=data.count(b"\n") + 1)
        lines, pos, newline = found
        raw_header = b"\n".join(lines)
        try:
            decoded = decode_text(raw_header, options.encoding)
        except FormatError as e:
            e.line = 1
            raise
        text, encoding = decoded.text, decoded.encoding
        if raw_header.isascii() and not options.encoding:
            encoding = "ascii"  # nothing to tell: write back in the default
        texts = text.split("\n")
        info = FileInfo(event=texts[0] or None, site=texts[1] or None, date=texts[2] or None)
        info.extra["bre_encoding"] = encoding
        info.extra["bre_newline"] = newline.decode("ascii")
        header_size = pos
        start = options.start_board if options.start_board is not None else 1
        boards: list[Board] = []
        board_lines: dict[int, int] = {}
        while pos < len(data):
            rest = data[pos:]
            if len(rest) < DGE_DEAL and all(b in TRAILING_JUNK for b in rest):
                break
            index = len(boards)
            if len(rest) < DGE_DEAL:
                raise FormatError(
                    f"the file ends inside a deal: {len(rest)} of {DGE_DEAL} bytes",
                    offset=pos,
                    record=index + 1,
                    line=index + 4,
                )
            try:
                owners = decode_dge(rest[:DGE_DEAL], pos, index + 1)
            except FormatError as e:
                e.line = index + 4
                raise
            pos += DGE_DEAL
            if data.startswith(b"\r\n", pos):
                pos += 2
            elif data.startswith(b"\n", pos):
                pos += 1
            elif pos < len(data):
                raise FormatError(
                    f"expected a line end after the deal, found {show_bytes(data[pos : pos + 1])}",
                    offset=pos,
                    record=index + 1,
                    line=index + 4,
                )
            board_lines[index] = index + 4
            boards.append(Board.numbered(start + index, Deal.from_owners(owners)))
        info.extra["board_lines"] = board_lines
        info.extra["header_size"] = header_size
        doc = BoardSet(boards, info)
        doc.problems.extend(undecodable_problems(raw_header, decoded.undecodable, None))  # the header's text
        return doc

    def _encoding(self, doc: Boards, options: WriteOptions | None) -> str:
        if options and options.encoding:
            return options.encoding
        info = source_info(doc)
        enc = info.extra.get("bre_encoding") if info is not None else None
        return enc if enc and enc != "ascii" else "cp1252"

    def _header(self, doc: Boards, options: WriteOptions | None) -> list[bytes]:
        header = info.header() if (info := source_info(doc)) is not None else {}
        enc = self._encoding(doc, options)
        out = []
        for key in HEADER_LINES:
            text = header.get(key.title()) or ""
            text = " ".join(text.splitlines())
            try:
                out.append(text.encode(enc))
            except UnicodeEncodeError:
                raise FormatError(f"the {key} {text!r} cannot be written in {enc}") from None
        return out

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        rep = super().check(boards, options)
        try:
            self._header(boards, options)
        except FormatError as e:
            rep.errors.append(e.message)
        info = source_info(boards)
        if info is not None and any("\n" in (v or "") or "\r" in (v or "") for v in info.header().values()):
            rep.losses.append("line breaks in the event, site or date (they become spaces)")
        return rep

    def write(self, doc: Boards, out: IO[bytes], options: WriteOptions | None = None) -> None:
        info = source_info(doc)
        newline = (
            (options.newline if options and options.newline else None)
            or (info.extra.get("bre_newline") if info is not None else None)
            or "\r\n"
        )
        nl = newline.encode("ascii")
        out.write(b"".join(line + nl for line in self._header(doc, options)))
        done = 0
        for owners in owner_chunks(doc):
            require_full(owners, done, self.title)
            deals = encode_dge(owners)
            out.write(b"".join(row.tobytes() + nl for row in deals))
            done += len(owners)


CODECS: tuple[BridgeCodec, ...] = (BriCodec(), DgeCodec(), BreCodec(), DupCodec())

__all__ = [
    "CODECS",
    "DupChunk",
    "DupSource",
    "FixedRecordCodec",
    "control_rows",
    "decode_bri",
    "decode_bri_block",
    "decode_dge",
    "decode_dge_block",
    "encode_bri",
    "encode_dge",
    "format_control",
    "parse_control",
]
