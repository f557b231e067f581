"""Pavlicek's 80-byte ZRJ: deal, board, contract, result, auction and play in one record.

Layout (guide 7A14, revision 001):

* bytes 0-12: two bits a card (W0 N1 E2 S3); card ``k = 4 * (rank - 2) + suit``
  (C0 D1 H2 S3) at bits ``2k..2k+1``, so byte 0 holds the four twos.
* byte 13: board - 1 (0-239); 240-255 = no board number, dealer and
  vulnerability of board ``byte - 239`` (1-16).
* byte 14: contract, 0 = passed out, else ``5 * level + strain`` (C D H S N = 0-4),
  +40 doubled, +80 redoubled.
* byte 15: ``TTTTDDII``: declarer's tricks, declarer (W N E S), passes before
  the opening bid.
* bytes 16/17: offsets where the calls end and where the plays end.
* bytes 18..: calls from the opening bid (``?!LLLSSS``, strain 5/6/7 = P/X/XX),
  then plays (``?!RRRRSS``, rank 0 = two .. 12 = ace).

The two high bits are punctuation: ``!`` (bit 6), ``?`` (bit 7), both ``*``.
This revision has no bulk path: auctions and play are per-record data, so the
codec declares its records on :class:`~bridgeview.formats.records.FixedRecordCodec`
and decodes each board in Python.

Revision 000's ZRJ is 16 bytes a record (:class:`ZRJ16Codec`): a ZBD deal and one target hand's
double-dummy makes, decoded and written in numpy chunks with :mod:`.zbd`'s layouts.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING

from ...model.auction import PASS, Call, CallKind, Contract
from ...model.board import Board
from ...model.boardset import unreadable_message
from ...model.cards import Card, Seat, Strain
from ...model.deal import Deal
from ...model.text import plural
from ...model.vulnerability import Vulnerability, board_for, dealer_for_board, vulnerability_for_board
from ..bulk import DD_UNKNOWN, BulkChunk, chunks_from_boards, complete_rows
from ..codec import Boards, Capabilities, SaveReport, WriteOptions, generic_check
from ..errors import FormatError
from ..records import FixedRecordCodec, Records, head_records, tolerable
from .zbd import (
    BAD_DD,
    CODE_OF_SEAT,
    OTHER_HANDS_LOSS,
    SEAT_OF_CODE,
    STRAIN_OF_BLOCK,
    bad_nibble_byte,
    dd_of,
    nibbles,
    require_held,
    unknown_dd,
    zbd_bytes,
    zbd_chunk,
)

if TYPE_CHECKING:
    from typing import IO

    import numpy as np

    from ..codec import Boards

RECORD = 80
FIRST_CALL = 18
MAX_BOARD = 240
UNKNOWN_TRICKS = 15  # our extension: a contract whose result is not known
#: ZRJ field k -> our card index (13 * suit + rank - 2)
CARD_OF_FIELD = tuple(13 * (k % 4) + k // 4 for k in range(52))
_SHIFTS = (0, 2, 4, 6)
MARK_OF_BITS = {0x40: "!", 0x80: "?", 0xC0: "*"}
BITS_OF_MARK = {"!": 0x40, "?": 0x80, "*": 0xC0}


def decode_deal(raw: np.ndarray) -> np.ndarray:
    """(n, >=13) ZRJ bytes -> (n, 52) owner codes (N0 E1 S2 W3)."""
    import numpy as np

    n = raw.shape[0]
    fields = ((raw[:, :13, None] >> np.array(_SHIFTS, dtype=np.uint8)) & 3).reshape(n, 52)
    owners = np.empty((n, 52), dtype=np.uint8)
    owners[:, list(CARD_OF_FIELD)] = np.array(SEAT_OF_CODE, dtype=np.uint8)[fields]
    return owners


def encode_deal(owners: list[int]) -> bytes:
    """52 seat codes (all held) -> the 13 deal bytes."""
    import numpy as np

    held = np.asarray(owners, dtype=np.int64)[list(CARD_OF_FIELD)]
    codes = np.array(CODE_OF_SEAT, dtype=np.uint8)[held].reshape(13, 4)
    packed = codes[:, 0] | codes[:, 1] << 2 | codes[:, 2] << 4 | codes[:, 3] << 6
    return packed.astype(np.uint8).tobytes()


def decode_call(byte: int) -> Call | None:
    """A call byte -> Call (with its mark), or None when the code is impossible."""
    strain, level, mark = byte & 7, byte >> 3 & 7, MARK_OF_BITS.get(byte & 0xC0, "")
    if strain <= 4:
        if level == 0:
            return None
        return Call(CallKind.BID, level, Strain(strain), mark=mark)
    if level:
        return None
    kind = (CallKind.PASS, CallKind.DOUBLE, CallKind.REDOUBLE)[strain - 5]
    return Call(kind, mark=mark)


def encode_call(call: Call) -> int:
    if call.kind == CallKind.BID:
        code = int(call.level) << 3 | int(call.bid_strain)
    else:
        code = 5 + (CallKind.PASS, CallKind.DOUBLE, CallKind.REDOUBLE).index(call.kind)
    return code | mark_bits(call.mark, call.alert)


def mark_bits(mark: str, alert: bool = False) -> int:
    """The punctuation bits of a mark; an alert without a mark is ``*``."""
    if mark in BITS_OF_MARK:
        return BITS_OF_MARK[mark]
    return 0xC0 if alert and not mark else 0


def decode_contract(byte: int) -> Contract | None:
    """Byte 14 -> Contract (level 0 = passed out) or None when impossible."""
    if byte == 0:
        return Contract.passed_out()
    risk, code = divmod(byte, 40)
    if risk > 2 or code < 5:
        return None
    level, strain = divmod(code, 5)
    return Contract(level, Strain(strain), risk)


def encode_contract(contract: Contract) -> int:
    if contract.is_passed_out:
        return 0
    return 40 * contract.risk + 5 * contract.level + int(contract.bid_strain)


def salvage_record(raw: bytes, problem: str) -> Board:
    """The deal and board number of a record whose contract, auction or play bytes are
    impossible, marked ``unreadable`` with the reason (bytes 0-13 always decode)."""
    import numpy as np

    deal = Deal.from_owners(decode_deal(np.frombuffer(raw, dtype=np.uint8)[None, :])[0].tolist())
    if raw[13] < MAX_BOARD:
        return Board.numbered(raw[13] + 1, deal, unreadable=problem)
    cycle = raw[13] - 239
    return Board(
        dealer=dealer_for_board(cycle), vulnerability=vulnerability_for_board(cycle), deal=deal, unreadable=problem
    )


def decode_record(raw: bytes, index: int, rf: Records) -> Board:
    """One 80-byte record -> Board; FormatError (record, offset of the bad byte) on impossible codes."""
    import numpy as np

    arr = np.frombuffer(raw, dtype=np.uint8)[None, :]
    deal = Deal.from_owners(decode_deal(arr)[0].tolist())
    b13, b14, b15, b16, b17 = raw[13], raw[14], raw[15], raw[16], raw[17]
    if b16 < FIRST_CALL or b17 > RECORD or b16 > b17:
        at = 17 if b17 > RECORD and FIRST_CALL <= b16 <= RECORD else 16  # point at the byte that is wrong
        raise rf.error(f"call/play end offsets {b16}/{b17} must satisfy 18 <= calls end <= plays end <= 80", index, at)
    contract = decode_contract(b14)
    if contract is None:
        raise rf.error(f"bad contract code {b14}", index, 14)
    calls: list[Call] = []
    for pos in range(FIRST_CALL, b16):
        call = decode_call(raw[pos])
        if call is None:
            raise rf.error(f"bad call code 0x{raw[pos]:02x}", index, pos)
        calls.append(call)
    play: list[Card] = []
    marks: dict[int, str] = {}
    for pos in range(b16, b17):
        byte = raw[pos]
        rank_index = byte >> 2 & 15
        if rank_index > 12:
            raise rf.error(f"bad play code 0x{byte:02x} (rank {rank_index})", index, pos)
        if byte & 0xC0:
            marks[len(play)] = MARK_OF_BITS[byte & 0xC0]
        play.append(Card(13 * (byte & 3) + rank_index))
    initial = b15 & 3
    auction: list[Call] | None = [PASS] * initial + calls if (initial or calls) else None
    declarer: Seat | None = None
    result: int | None = None
    if contract.is_passed_out:
        if auction is None or any(c.kind == CallKind.BID for c in auction):
            contract = None  # no auction stored, or an unfinished one: the contract is not known
        elif len(auction) < 4:
            auction += [PASS] * (4 - len(auction))
    else:
        declarer = Seat(int(SEAT_OF_CODE[b15 >> 2 & 3]))
        tricks = b15 >> 4
        if tricks == 14:
            raise rf.error("declarer's tricks 14 (allowed: 0-13, 15 = unknown)", index, 15)
        result = None if tricks == UNKNOWN_TRICKS else tricks
    if b13 < MAX_BOARD:
        board = Board.numbered(b13 + 1, deal)
    else:
        cycle = b13 - 239
        board = Board(dealer=dealer_for_board(cycle), vulnerability=vulnerability_for_board(cycle), deal=deal)
    board.auction = auction
    board.play = play or None
    board.play_marks = marks
    board.contract = contract
    board.declarer = declarer
    board.result = result
    return board


class Plan:
    """The bytes of one board and what writing it loses or cannot do."""

    def __init__(self) -> None:
        self.data = b""
        self.errors: list[str] = []
        self.losses: set[str] = set()


LOSS_CUT = "play cut to fit ZRJ"
LOSS_MARKS = "marks other than !, ? and * on calls and cards (or any on the initial passes)"
LOSS_EXPLANATIONS = "call explanations"
LOSS_DEALER = "dealer and vulnerability that differ from the board number"
LOSS_CLAIM = "claims"


def _board_byte(board: Board, where: str, plan: Plan) -> int | None:
    """Byte 13: the board number less one, or (a board without a number) 239 plus the board of its dealer
    and vulnerability; None, with the error in ``plan``, when ZRJ cannot say which board it is."""
    if board.number is not None:
        if not 1 <= board.number <= MAX_BOARD:
            plan.errors.append(f"{where}: ZRJ holds board numbers 1 to {MAX_BOARD}")
            return None
        if (board.dealer is not None and board.dealer != dealer_for_board(board.number)) or (
            board.vulnerability is not None and board.vulnerability != vulnerability_for_board(board.number)
        ):
            plan.losses.add(LOSS_DEALER)
        return board.number - 1
    if board.dealer is not None:
        return 239 + board_for(board.dealer, board.vulnerability or Vulnerability.NONE)
    plan.errors.append(f"{where} has neither a board number nor a dealer; ZRJ needs one of them")
    return None


def _call_losses(plan: Plan, auction: list[Call], initial: int) -> None:
    """What ZRJ loses of the calls: marks and alerts of the initial passes (counted, not stored), marks it
    has no bits for, and explanations and notes."""
    if any(c.mark or c.alert for c in auction[:initial]):
        plan.losses.add(LOSS_MARKS)
    if any(c.mark and c.mark not in BITS_OF_MARK for c in auction[initial:]):
        plan.losses.add(LOSS_MARKS)
    if any(c.explanation or c.note is not None for c in auction):
        plan.losses.add(LOSS_EXPLANATIONS)


def plan_board(board: Board, index: int) -> Plan:
    """Encode ``board`` (record ``index``) as far as ZRJ allows."""
    plan = Plan()
    where = f"board {board.number}" if board.number is not None else f"record {index + 1}"
    byte13 = _board_byte(board, where, plan)
    if byte13 is None:
        return plan
    if not board.deal.is_complete:
        plan.errors.append(f"{where} is not a complete deal; ZRJ stores only full deals")
        return plan
    contract, declarer = board.contract_and_declarer()
    auction = list(board.auction or [])
    byte14 = byte15 = 0
    if contract is not None and not contract.is_passed_out:
        if declarer is None:
            plan.errors.append(f"{where}: the contract {contract} has no declarer; ZRJ needs one")
            return plan
        tricks = board.result if board.result is not None else board.claim
        if tricks is None:
            tricks = UNKNOWN_TRICKS
        elif not 0 <= tricks <= 13:
            plan.errors.append(f"{where}: declarer's tricks {tricks} are not 0-13")
            return plan
        byte14 = encode_contract(contract)
        byte15 = tricks << 4 | int(CODE_OF_SEAT[int(declarer)]) << 2
    elif contract is not None and not auction:
        auction = [PASS] * 4  # a passed-out board: its auction is known
    if board.claim is not None and board.claim != board.result:
        plan.losses.add(LOSS_CLAIM)
    leading = 0
    while leading < len(auction) and auction[leading].kind == CallKind.PASS:
        leading += 1
    initial = min(leading, 3)
    stored = auction[initial:]
    _call_losses(plan, auction, initial)
    room = RECORD - FIRST_CALL
    if len(stored) > room:
        plan.errors.append(f"{where}: an auction of {len(auction)} calls does not fit a ZRJ record")
        return plan
    byte15 |= initial
    play = list(board.play or [])
    if len(play) > room - len(stored):
        play = play[: room - len(stored)]
        plan.losses.add(LOSS_CUT)
    if any(m not in BITS_OF_MARK for i, m in board.play_marks.items() if i < len(play) and m):
        plan.losses.add(LOSS_MARKS)
    calls_end = FIRST_CALL + len(stored)
    plays_end = calls_end + len(play)
    body = bytearray(encode_deal(board.deal.owners()))
    body += bytes([byte13, byte14, byte15, calls_end, plays_end])
    body += bytes(encode_call(c) for c in stored)
    for i, card in enumerate(play):
        c = int(card)
        body.append((c % 13) << 2 | c // 13 | mark_bits(board.play_marks.get(i, "")))
    plan.data = bytes(body.ljust(RECORD, b"\0"))
    return plan


class ZRJCodec(FixedRecordCodec):
    name = "zrj"
    title = "ZRJ, 80-byte (Pavlicek deal, contract, auction, play)"
    extensions = ("zrj",)
    caps = Capabilities(full_deals=True, board_numbers=True, auction=True, play=True, max_board=MAX_BOARD)
    record_size = RECORD
    end_of_list = True
    record_name = "ZRJ"
    numbered_by_position = False  # each record holds its board number
    bulk = False  # auctions and play are per-record data

    def sniff(self, head: bytes, size: int | None = None) -> int:
        arr = head_records(head, size, RECORD)
        if arr is None:
            return 0
        n = len(arr)
        complete = complete_rows(decode_deal(arr)).tolist()
        bad = sum(
            1
            for row, ok in zip(arr.tolist(), complete, strict=True)
            if not ok or not FIRST_CALL <= row[16] <= row[17] <= RECORD or decode_contract(row[14]) is None
        )
        if not tolerable(bad, n):
            return 0
        return 40 + 5 * (n - bad)

    def decode_board(self, records: Records, index: int) -> Board:
        raw = records.record(index)
        try:
            return decode_record(raw, index, records)
        except FormatError as e:  # keep what the record's first bytes still say: the deal and number
            return salvage_record(raw, unreadable_message(e))

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        rep = generic_check(self, boards, dealer_vul=False)  # unnumbered boards keep theirs in ZRJ
        counts: dict[str, int] = {}
        for i, board in enumerate(boards):
            plan = plan_board(board, i)
            where = f"board {board.number}" if board.number is not None else f"record {i + 1}"
            if plan.errors and not any(e.startswith(where + " ") or e.startswith(where + ":") for e in rep.errors):
                rep.errors.extend(plan.errors)
            for what in plan.losses:
                counts[what] = counts.get(what, 0) + 1
        for what, n in counts.items():
            if what == LOSS_CUT:
                rep.losses.append(f"play of {plural(n, 'board')} cut to fit ZRJ")
            else:
                rep.losses.append(f"{what} of {plural(n, 'board')}")
        return rep

    def write(self, doc: Iterable[Board], out: IO[bytes], options: WriteOptions | None = None) -> None:
        for i, board in enumerate(doc):
            plan = plan_board(board, i)
            if plan.errors:
                raise FormatError(plan.errors[0])
            out.write(plan.data)


#: the 80-byte ZRJ first: it is what ".zrj" means when saving; zrj16 is chosen by name (or by content on reading)


class ZRJ16Codec(FixedRecordCodec):
    """ZBD + one target hand's double-dummy tricks (the 16-byte ZRJ of guide revision 000)."""

    name = "zrj16"
    title = "ZRJ, 16-byte (Pavlicek deal + one hand's makes)"
    extensions = ("zrj",)
    caps = Capabilities(full_deals=True, dd=True)
    record_size = 16
    end_of_list = True
    loss = OTHER_HANDS_LOSS

    def decode_chunk(self, block: np.ndarray, start: int, records: Records) -> BulkChunk:
        import numpy as np

        n = len(block)
        b13 = block[:, 13]
        bad = (b13 & 0x0C) != 0
        if bad.any():
            i = int(np.argmax(bad))
            raise records.error(f"byte 13 is 0x{int(b13[i]):02x}: bits 2-3 must be zero", start + i, 13)
        makes = np.stack([b13 >> 4, block[:, 14] & 15, block[:, 14] >> 4, block[:, 15] & 15, block[:, 15] >> 4], axis=1)
        bad_at = bad_nibble_byte(nibbles(block[:, 13:16]), skip_low_first=True)
        if bad_at is not None:
            raise records.error(BAD_DD, start + bad_at[0], 13 + bad_at[1])
        dd = unknown_dd(n)
        seats = np.array(SEAT_OF_CODE, dtype=np.uint8)[b13 & 3]
        dd[np.arange(n), seats, :] = makes[:, STRAIN_OF_BLOCK]
        return zbd_chunk(block[:, :13], dd)

    def targets(self, dd: np.ndarray, preferred: np.ndarray | None = None) -> np.ndarray:
        """The target seat of each row: ``preferred`` where given (>= 0), else the
        first seat (N E S W) whose row is fully known, else the first with any value, else North."""
        import numpy as np

        known = dd != DD_UNKNOWN
        full = known.all(axis=2)
        some = known.any(axis=2)
        fallback = np.where(some.any(axis=1), np.argmax(some, axis=1), 0)
        target = np.where(full.any(axis=1), np.argmax(full, axis=1), fallback)
        if preferred is not None:
            target = np.where(preferred >= 0, preferred, target)
        return target.astype(np.int64)

    def encode_chunk(self, chunk: BulkChunk, done: int) -> tuple[np.ndarray, int]:
        """The records and how many boards' other hands' results were dropped: the target hand is the
        declarer where the chunk knows one (:attr:`BulkChunk.declarers`)."""
        import numpy as np

        require_held(chunk, done, self.title)
        n = len(chunk)
        dd = dd_of(chunk)
        target = self.targets(dd, chunk.declarers)
        rows = dd[np.arange(n), target, :]  # (n, 5) strain C D H S NT
        others = dd != DD_UNKNOWN
        others[np.arange(n), target, :] = False
        dropped = int(others.any(axis=(1, 2)).sum())
        tail = np.empty((n, 3), dtype=np.uint8)
        tail[:, 0] = np.array(CODE_OF_SEAT, dtype=np.uint8)[target] | rows[:, 4] << 4
        tail[:, 1] = rows[:, 3] | rows[:, 2] << 4
        tail[:, 2] = rows[:, 1] | rows[:, 0] << 4
        return np.concatenate([zbd_bytes(chunk), tail], axis=1), dropped

    @staticmethod
    def declarers(boards: Boards) -> np.ndarray:
        """Each board's declarer (our seat code), -1 where none: the hand whose makes zrj16 keeps."""
        import numpy as np

        out = np.full(len(boards), -1, dtype=np.int64)
        for i, b in enumerate(boards):
            _, declarer = b.contract_and_declarer()
            if declarer is not None:
                out[i] = int(declarer)
        return out

    def write_chunks(self, doc: Iterable[Board]) -> Iterator[BulkChunk]:
        boards = doc if isinstance(doc, Sequence) else list(doc)
        prefs = self.declarers(boards)
        done = 0
        for chunk in chunks_from_boards(boards):
            chunk.declarers = prefs[done : done + len(chunk)]
            done += len(chunk)
            yield chunk

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        import numpy as np

        rep = super().check(boards, options)
        prefs = self.declarers(boards)
        dropped = 0
        for i, b in enumerate(boards):
            if b.dd is None or b.dd.is_empty:
                continue
            dd = np.array([[DD_UNKNOWN if v is None else v for v in row] for row in b.dd.tricks], dtype=np.uint8)
            target = int(self.targets(dd[None], prefs[i : i + 1])[0])
            if any(v is not None for s, row in enumerate(b.dd.tricks) if s != target for v in row):
                dropped += 1
        if dropped:
            rep.losses.append(OTHER_HANDS_LOSS.format(plural(dropped, "board")))
        return rep


#: the 80-byte ZRJ first: a ".zrj" name means it on save, and a file that fits both is read as it
CODECS = (ZRJCodec(), ZRJ16Codec())
