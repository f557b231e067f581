"""SwiftBridge ``.deals`` and ``.dx`` files (``shared/specs/002_*``).

``.deals`` is 32 bytes a deal: four little-endian u64 card masks N E S W with
bit 0 = club two and bit 51 = spade ace -- exactly :attr:`Deal.hands`, so
partial deals (endings) cost nothing.  ``.dx`` adds a board-number byte before
the deal and, after it, the auction and the play, each ended by 0xFF.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterable
from typing import IO, TYPE_CHECKING

from ..model.auction import PASS, Call, CallKind, final_contract
from ..model.board import Board
from ..model.boardset import BoardSet, FileInfo
from ..model.cards import CARDS, SEAT_LETTERS, Card, Strain, cards_of
from ..model.deal import Deal
from ..model.play import declarer_tricks, replay
from ..model.text import plural
from .bulk import BulkChunk, masks_to_owners, overlapping_rows, owners_to_masks
from .codec import Boards, BridgeCodec, Capabilities, ReadOptions, SaveReport, WriteOptions
from .errors import FormatError
from .records import CHUNK, FixedRecordCodec

if TYPE_CHECKING:
    import numpy as np

DEAL_SIZE = 32
HIGH_BITS = ~((1 << 52) - 1) & ((1 << 64) - 1)
END = 0xFF
_PACK = struct.Struct("<4Q")


def decode_masks(raw: bytes, base: int, record: int) -> Deal:
    """Four u64 masks -> a Deal; FormatError for bits 52-63 or a card in two hands."""
    hands = _PACK.unpack_from(raw)
    for seat, mask in enumerate(hands):
        if mask & HIGH_BITS:
            raise FormatError(
                f"{SEAT_LETTERS[seat]}'s mask 0x{mask:016x} has bits above 51 set (no such card)",
                record=record,
                offset=base + 8 * seat,
            )
    deal = Deal(hands)
    if deal.overlap:
        both = " ".join(str(c) for c in cards_of(deal.overlap))
        raise FormatError(f"cards in more than one hand: {both}", record=record, offset=base)
    return deal


def deal_problems_for_write(boards: Iterable[Board]) -> list[str]:
    """Deals the mask formats cannot store faithfully: a card in two hands."""
    out: list[str] = []
    for i, b in enumerate(boards):
        if b.deal.overlap:
            where = f"board {b.number}" if b.number is not None else f"record {i + 1}"
            out.append(f"{where} has cards in more than one hand, which a card mask cannot hold")
    return out


class DealsCodec(FixedRecordCodec):
    name = "deals"
    title = "SwiftBridge .deals"
    extensions = ("deals",)
    record_size = DEAL_SIZE
    caps = Capabilities(full_deals=True, partial_deals=True, deals_required=False)

    def sniff(self, head: bytes, size: int | None = None) -> int:
        if size is not None and (size % DEAL_SIZE or size == 0):
            return 0
        if len(head) < DEAL_SIZE:
            return 0
        n = len(head) // DEAL_SIZE
        try:
            for i in range(min(n, 8)):
                decode_masks(head[i * DEAL_SIZE : (i + 1) * DEAL_SIZE], 0, 1)
        except FormatError:
            return 0
        return 40  # no magic: a plausible guess only

    def decode_record(self, rec: bytes, base: int, record: int) -> Deal:
        return decode_masks(rec, base, record)

    def decode_block(self, block: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        import numpy as np

        masks = np.ascontiguousarray(block).view("<u8").reshape(-1, 4).astype(np.uint64)
        bad = ((masks >> np.uint64(52)) != 0).any(axis=1) | overlapping_rows(masks)
        return masks_to_owners(masks), bad

    def encode_block(self, owners: np.ndarray) -> np.ndarray:
        return self.encode_masks(owners_to_masks(owners))

    @staticmethod
    def encode_masks(masks: np.ndarray) -> np.ndarray:
        import numpy as np

        return masks.astype("<u8", copy=False).view(np.uint8).reshape(-1, DEAL_SIZE)

    def write_bulk(self, chunks: Iterable[BulkChunk], out: IO[bytes], options: WriteOptions | None = None) -> int:
        done = 0
        for c in chunks:
            out.write(self.encode_masks(c.hand_masks()).tobytes())  # the source's masks when it has them
            done += len(c)
        return done

    def write(self, doc: Boards, out: IO[bytes], options: WriteOptions | None = None) -> None:
        batch: list[bytes] = []
        for b in doc:
            batch.append(_PACK.pack(*b.deal.hands))
            if len(batch) >= CHUNK:
                out.write(b"".join(batch))
                batch = []
        out.write(b"".join(batch))

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        rep = super().check(boards, options)
        rep.errors.extend(deal_problems_for_write(boards))
        return rep


# -- .dx ------------------------------------------------------------------
def call_byte(call: Call) -> int:
    """``(level << 5) | (1 << strain)``; pass 1, double 2, redouble 4."""
    if call.kind == CallKind.PASS:
        return 1
    if call.kind == CallKind.DOUBLE:
        return 2
    if call.kind == CallKind.REDOUBLE:
        return 4
    return (call.level << 5) | (1 << int(call.bid_strain))


def call_of_byte(b: int) -> Call | None:
    """The call a byte stands for, or None if it is none."""
    level, bits = b >> 5, b & 0x1F
    if bits == 0 or bits & (bits - 1):
        return None
    strain = bits.bit_length() - 1
    if level == 0:
        return {0: PASS, 1: Call(CallKind.DOUBLE), 2: Call(CallKind.REDOUBLE)}.get(strain)
    return Call.bid(level, Strain(strain))


def _fill_from_auction(board: Board) -> None:
    """Contract and declarer from the auction; the result when all 52 cards were played."""
    if not board.auction:
        return
    fc = final_contract(board.auction, board.effective_dealer)
    if fc is None:
        return
    board.contract, board.declarer = fc
    if board.play and len(board.play) == 52 and board.declarer is not None and board.deal.is_complete:
        rp = replay(board.deal, board.play, board.declarer, board.contract.strain)
        if rp.problem is None:
            board.result = declarer_tricks(rp, board.declarer)


def parse_dx(data: bytes, start_board: int | None = None) -> list[Board]:
    """Every record of a .dx file; FormatError (record, offset) on the first bad byte."""
    boards: list[Board] = []
    pos = 0
    size = len(data)
    while pos < size:
        record = len(boards) + 1
        number = data[pos]
        pos += 1
        if size - pos < DEAL_SIZE:
            raise FormatError(
                f"the file ends inside the deal: {size - pos} of {DEAL_SIZE} bytes", record=record, offset=pos
            )
        deal = decode_masks(data[pos : pos + DEAL_SIZE], pos, record)
        pos += DEAL_SIZE
        calls: list[Call] = []
        while True:
            if pos >= size:
                raise FormatError("the file ends inside the auction (no 0xFF after it)", record=record, offset=pos)
            b = data[pos]
            pos += 1
            if b == END:
                break
            call = call_of_byte(b)
            if call is None:
                raise FormatError(f"byte 0x{b:02x} is not a call", record=record, offset=pos - 1)
            calls.append(call)
        play: list[Card] = []
        while True:
            if pos >= size:
                raise FormatError("the file ends inside the play (no 0xFF after it)", record=record, offset=pos)
            b = data[pos]
            pos += 1
            if b == END:
                break
            if b > 51:
                raise FormatError(f"byte 0x{b:02x} is not a card (0-51)", record=record, offset=pos - 1)
            if len(play) == 52:
                raise FormatError("more than 52 cards played", record=record, offset=pos - 1)
            play.append(CARDS[b])
        if number:
            board = Board.numbered(number, deal)
        elif start_board is not None:
            board = Board.numbered(start_board + record - 1, deal)
        else:
            board = Board(deal=deal)
        board.auction = calls or None
        board.play = play or None
        _fill_from_auction(board)
        boards.append(board)
    return boards


class DxCodec(BridgeCodec):
    name = "dx"
    title = "SwiftBridge .dx"
    extensions = ("dx",)
    binary = True
    caps = Capabilities(
        full_deals=True,
        partial_deals=True,
        board_numbers=True,
        auction=True,
        play=True,
        deals_required=False,
        max_board=255,
    )

    def sniff(self, head: bytes, size: int | None = None) -> int:
        if len(head) < 1 + DEAL_SIZE + 2:
            return 0
        try:
            decode_masks(head[1 : 1 + DEAL_SIZE], 1, 1)
        except FormatError:
            return 0
        pos = 1 + DEAL_SIZE
        while pos < len(head) and head[pos] != END:
            if call_of_byte(head[pos]) is None:
                return 0
            pos += 1
        return 35 if pos < len(head) else 0

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> BoardSet:
        options = options or ReadOptions()
        with open(path, "rb") as f:
            data = f.read()
        return BoardSet(parse_dx(data, options.start_board), FileInfo())

    def write(self, doc: Boards, out: IO[bytes], options: WriteOptions | None = None) -> None:
        parts: list[bytes] = []
        for i, b in enumerate(doc):
            number = b.number or 0
            if not 0 <= number <= 255:
                raise FormatError(f"record {i + 1}: .dx board numbers are 0-255, not {number}", board=b.number)
            parts.append(bytes([number]))
            parts.append(_PACK.pack(*b.deal.hands))
            parts.append(bytes(call_byte(c) for c in b.auction or ()) + bytes([END]))
            parts.append(bytes(int(c) for c in b.play or ()) + bytes([END]))
        out.write(b"".join(parts))

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        rep = super().check(boards, options)
        rep.errors.extend(deal_problems_for_write(boards))
        contracts = results = annotations = 0
        for i, b in enumerate(boards):
            where = f"board {b.number}" if b.number is not None else f"record {i + 1}"
            if b.number is not None and b.number < 0:
                rep.errors.append(f"{where}: .dx board numbers are 0-255")
            if b.play and len(b.play) > 52:
                rep.errors.append(f"{where}: .dx holds at most 52 played cards")
            probe = Board(number=b.number, dealer=b.dealer, deal=b.deal, auction=b.auction, play=b.play)
            _fill_from_auction(probe)
            if b.contract is not None and (
                str(probe.contract) != str(b.contract) or (b.declarer is not None and probe.declarer != b.declarer)
            ):
                contracts += 1
            if (b.result is not None and probe.result != b.result) or b.claim is not None:
                results += 1
            if b.play_marks or any(c.alert or c.explanation or c.mark or c.note for c in b.auction or ()):
                annotations += 1
        for count, what in (
            (contracts, "contracts the auction does not reach"),
            (results, "results and claims the play does not show"),
            (annotations, "alerts, explanations and play marks"),
        ):
            if count:
                rep.losses.append(f"{what} of {plural(count, 'board')}")
        return rep


CODECS: tuple[BridgeCodec, ...] = (DealsCodec(), DxCodec())
