"""Richard Pavlicek's fixed-record binary formats of deals and double-dummy results: ZBD, ZDD and ZRD.

Guide 7A14 (``shared/specs/000_*`` and ``001_*``).  All four are arrays of
fixed-size little-endian records ended by an end-of-list record, declared on
:class:`~bridgeview.formats.records.FixedRecordCodec` (mapping, lazy decoding,
bulk conversion); this module is their bit layouts, as numpy arithmetic on whole
chunks of records with no Python loop per record.

Bit layouts, with seat codes 0=W 1=N 2=E 3=S:

* ZBD (13 bytes): 52 two-bit fields, field ``j`` at bits ``2j..2j+1``; field 0
  is the spade ace, then spades down to the two, hearts, diamonds, clubs.  Our
  card index runs the other way (club two = 0), so field ``j`` is card ``51 - j``.
* ZDD (10 bytes): 20 nibbles, nibble ``4b + h`` = tricks for hand ``h``
  (W N E S) in strain block ``b`` (NT S H D C, i.e. our strain ``4 - b``); 15 = unknown.
* ZRD (23 bytes): ZBD + ZDD.
* zrj16 (16 bytes): ZBD + byte 13 (bits 0-1 target hand, bits 2-3 zero, bits
  4-7 NT tricks) + bytes 14-15 (nibbles for S, H, D, C) of the target hand.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from ..bulk import ABSENT, DD_UNKNOWN, BulkChunk, complete_rows
from ..codec import Boards, Capabilities, SaveReport, WriteOptions
from ..errors import FormatError
from ..records import FixedRecordCodec, Records

if TYPE_CHECKING:
    import numpy as np

    from ..codec import Boards

#: our seat (N0 E1 S2 W3) for a Pavlicek seat code (W0 N1 E2 S3)
SEAT_OF_CODE = (3, 0, 1, 2)
#: Pavlicek seat code for our seat; index 4 (absent) maps to West, callers check first
CODE_OF_SEAT = (1, 2, 3, 0, 0)
#: the ZDD strain blocks NT S H D C as our strain indices
STRAIN_OF_BLOCK = [4, 3, 2, 1, 0]
OTHER_HANDS_LOSS = "double-dummy results of hands other than the target hand of {}"


# -- bit arithmetic shared by the codecs ---------------------------------------
# Everything below works on whole arrays with element-wise integer arithmetic on
# uint32 words that hold four one-byte lanes (no per-element table look-ups,
# which numpy would run through 8-byte index arrays).


@cache
def _decode_table() -> np.ndarray:
    """For each ZBD byte, the four owners it holds as a uint32 of four one-byte lanes in card order."""
    import numpy as np

    table = np.zeros(256, dtype=np.uint32)
    for byte in range(256):
        fields = (byte >> 6 & 3, byte >> 4 & 3, byte >> 2 & 3, byte & 3)  # the lowest card of the four first
        table[byte] = sum(int(SEAT_OF_CODE[code]) << (8 * lane) for lane, code in enumerate(fields))
    return table


def zbd_decode(raw: np.ndarray) -> np.ndarray:
    """(n, 13) uint8 ZBD bytes -> (n, 52) owner codes (N0 E1 S2 W3).

    Field ``j`` (bits 2j..2j+1) is card ``51 - j``: reading the bytes backwards
    and each byte's four fields from the top gives the cards in our order, four
    at a time through a 256-entry table.
    """
    import numpy as np

    n = raw.shape[0]
    return np.take(_decode_table(), raw[:, 12::-1]).view(np.uint8).reshape(n, 52)


@cache
def _mask_table() -> np.ndarray:
    """For each ZBD byte, a uint32 whose byte lane ``s`` holds seat ``s``'s nibble of the byte's
    four cards (bit ``i`` = the ``i``-th lowest card of the four)."""
    import numpy as np

    table = np.zeros(256, dtype=np.uint32)
    for byte in range(256):
        for k in range(4):  # field k (bits 2k..2k+1) is the (3 - k)-th lowest card of the four
            seat = int(SEAT_OF_CODE[byte >> (2 * k) & 3])
            table[byte] |= 1 << (8 * seat + 3 - k)
    return table


def zbd_masks(raw: np.ndarray) -> np.ndarray:
    """(n, 13) uint8 ZBD bytes -> (n, 4) uint64 hand masks N E S W, straight from the bytes.

    Twice as fast as decoding owners and packing them (``.deals`` conversions use it): one
    table look-up a byte gives every seat's nibble, and nibble pairs make the mask bytes."""
    import numpy as np

    n = raw.shape[0]
    lanes = np.take(_mask_table(), raw[:, 12::-1])  # (n, 13): column r = cards 4r..4r+3
    out = np.zeros((n, 8, 4), dtype=np.uint8)  # [mask byte][seat]
    pairs = lanes[:, 0:12:2] | (lanes[:, 1:12:2] << np.uint32(4))
    out[:, :6, :] = pairs.view(np.uint8).reshape(n, 6, 4)
    out[:, 6, :] = np.ascontiguousarray(lanes[:, 12]).view(np.uint8).reshape(n, 4)
    return np.ascontiguousarray(out.transpose(0, 2, 1)).view("<u8").reshape(n, 4).astype(np.uint64, copy=False)


def row_words(raw: np.ndarray, at: int) -> np.ndarray:
    """(n,) little-endian uint64: bytes ``at..at+7`` of each row of ``raw`` (n, k) uint8, read in place
    (a strided, possibly unaligned view: nothing copied; ``raw`` is copied only when its rows are not)."""
    import numpy as np

    if raw.strides[1] != 1:
        raw = np.ascontiguousarray(raw)
    words: np.ndarray = raw[:, at : at + 8].view("<u8")[:, 0]
    return words


#: the high and the low bit of every two-bit field of a word
_HIGH_BITS = 0xAAAA_AAAA_AAAA_AAAA
_LOW_BITS = 0x5555_5555_5555_5555


def zbd_complete(raw: np.ndarray) -> np.ndarray:
    """Boolean (n,): the (n, 13) ZBD records whose four hands hold 13 cards each (see :func:`complete_words`),
    from two 64-bit words a record: bytes 0-7 (copied once: it is read twice), and 5-12 shifted down to 8-12."""
    import numpy as np

    return complete_words(row_words(raw, 0).copy(), row_words(raw, 5) >> np.uint64(24))


def complete_words(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Boolean (n,): ZBD records given as 64-bit words, bytes 0-7 (``first``) and bytes 8-12 (the low 40
    bits of ``second``, the rest zero), whose four hands hold 13 cards each.

    Every two-bit field names a hand (W0 N1 E2 S3), so a record is complete when the fields with the
    high bit set (E, S) number 26, those with the low bit set (N, S) 26 and those with both (S) 13.
    Each count is one popcount: the high bits of the first word's 32 fields stay at their odd places and
    the second word's 20 go to the even ones; the low bits are laid out the same way, so that a field's two
    bits meet at one place and S is the popcount of the two layouts' AND.  Four times as fast as a table
    look-up a byte, which numpy runs as a gather of 8-byte indices."""
    import numpy as np

    high, low, one = np.uint64(_HIGH_BITS), np.uint64(_LOW_BITS), np.uint64(1)
    highs = second & high  # E and S: the second word's at even places, the first's at odd ones
    highs >>= one
    highs |= first & high
    lows = first & low  # N and S: the first word's moved to the odd places, the second's at even ones
    lows <<= one
    lows |= second & low
    ok: np.ndarray = np.bitwise_count(highs) == 26
    ok &= np.bitwise_count(lows) == 26
    highs &= lows  # a field's two bits at one place: S where both are set
    ok &= np.bitwise_count(highs) == 13
    return ok


class ZbdChunk(BulkChunk):
    """A chunk of ZBD-coded deals whose owners are decoded only when someone asks: a writer of
    the same layout copies the bytes (:attr:`zbd`), and completeness is counted from the bytes.
    DD tables read as ZDD bytes (ZRD) are decoded only when asked for too: ZRD -> ZBD copies the
    deal bytes and only counts the boards whose DD results it drops, from the bytes (or from the
    words the reader already took out of them: :func:`zrd_words`)."""

    zbd: np.ndarray

    def __init__(
        self,
        raw: np.ndarray,
        dd: np.ndarray | None = None,
        numbers: np.ndarray | None = None,
        zdd: np.ndarray | None = None,
        words: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
    ) -> None:
        self.zbd = raw
        self._dd = dd
        self._zdd = zdd  # (n, 10) ZDD bytes, checked for 14s already, decoded into ``dd`` on first use
        self.words = words  # ``zrd_words`` of the records, when the reader has them
        self.numbers = numbers
        self.masks = lambda: zbd_masks(raw)
        self._owners: np.ndarray | None = None

    @property
    def owners(self) -> np.ndarray:  # type: ignore[override]  # decoded from the ZBD bytes on first use; read-only
        if self._owners is None:
            self._owners = zbd_decode(self.zbd)
        return self._owners

    @property
    def dd(self) -> np.ndarray | None:  # decoded from the ZDD bytes on first use
        if self._dd is None and self._zdd is not None:
            self._dd = zdd_decode(self._zdd)
        return self._dd

    @dd.setter
    def dd(self, value: np.ndarray | None) -> None:
        self._dd, self._zdd = value, None

    def known_dd_rows(self) -> np.ndarray | None:
        if self._dd is None and self._zdd is not None:
            return dd_words_known(*self.words[2:]) if self.words is not None else zdd_known(self._zdd)
        return super().known_dd_rows()

    def __len__(self) -> int:
        return int(self.zbd.shape[0])

    def complete(self) -> np.ndarray:
        """Every card of a ZBD record has a hand: complete when each hand has 13."""
        return complete_words(*self.words[:2]) if self.words is not None else zbd_complete(self.zbd)


def zbd_chunk(
    raw: np.ndarray,
    dd: np.ndarray | None = None,
    zdd: np.ndarray | None = None,
    words: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None,
) -> BulkChunk:
    """A chunk of ZBD-coded deals (``raw`` (n, 13)); owners, masks and DD tables (from ``zdd``, the
    records' checked ZDD bytes, when given) are computed only if asked; ``words`` are the records'
    :func:`zrd_words` when the reader has them."""
    return ZbdChunk(raw, dd, zdd=zdd, words=words)


def zbd_encode(owners: np.ndarray) -> np.ndarray:
    """(n, 52) owner codes -> (n, 13) uint8 ZBD bytes (every card must be held)."""
    import numpy as np

    n = owners.shape[0]
    words = np.ascontiguousarray(owners, dtype=np.uint8).view(np.uint32).reshape(n, 13)
    c = words + np.uint32(0x01010101)  # our seat -> Pavlicek code: (seat + 1) mod 4, in each lane
    c &= np.uint32(0x03030303)
    packed = c >> 24  # the highest card of the four goes to bits 0-1
    part = c >> 14
    part &= 0x0C
    packed |= part
    np.right_shift(c, 4, out=part)
    part &= 0x30
    packed |= part
    np.left_shift(c, 6, out=part)
    part &= 0xC0
    packed |= part
    return np.ascontiguousarray(packed[:, ::-1], dtype=np.uint8)


def nibbles(raw: np.ndarray) -> np.ndarray:
    """(n, k) bytes -> (n, 2k) nibbles, low nibble first."""
    import numpy as np

    out = np.empty((raw.shape[0], 2 * raw.shape[1]), dtype=np.uint8)
    out[:, 0::2] = raw & 15
    out[:, 1::2] = raw >> 4
    return out


def pack_nibbles(nib: np.ndarray) -> np.ndarray:
    """(n, 2k) nibbles -> (n, k) bytes, the inverse of :func:`nibbles`."""
    import numpy as np

    packed: np.ndarray = (nib[:, 0::2] | nib[:, 1::2] << 4).astype(np.uint8)
    return packed


#: ZDD nibble (4 * block + hand) for each cell (seat * 5 + strain) of a (4, 5) DD row
_ZDD_NIBBLE_OF_CELL = [4 * (4 - strain) + [1, 2, 3, 0][seat] for seat in range(4) for strain in range(5)]
_ZDD_CELL_OF_NIBBLE = sorted(range(20), key=_ZDD_NIBBLE_OF_CELL.__getitem__)


def zdd_decode(raw: np.ndarray, nib: np.ndarray | None = None) -> np.ndarray:
    """(n, 10) ZDD bytes (or their nibbles, when already split) -> (n, 4, 5) tricks
    [seat NESW][strain CDHS NT] (15 unknown)."""
    nib = nibbles(raw) if nib is None else nib
    return nib[:, _ZDD_NIBBLE_OF_CELL].reshape(-1, 4, 5)


def zdd_encode(dd: np.ndarray) -> np.ndarray:
    """(n, 4, 5) tricks -> (n, 10) ZDD bytes."""
    return pack_nibbles(dd.reshape(dd.shape[0], 20)[:, _ZDD_CELL_OF_NIBBLE])


def bad_nibble_byte(nib: np.ndarray, skip_low_first: bool = False) -> tuple[int, int] | None:
    """(row, byte column) of the first 14 in ``nib``, the (n, 2k) nibbles of k bytes of tricks, or None.

    ``skip_low_first`` ignores the low nibble of byte 0 (zrj16's target-hand bits)."""
    import numpy as np

    bad = nib == 14
    if skip_low_first:
        bad[:, 0] = False
    if not bad.any():  # the usual case, decided in one pass
        return None
    rows = bad.any(axis=1)
    if not rows.any():
        return None
    row = int(np.argmax(rows))
    return row, int(np.argmax(bad[row])) // 2


def unknown_dd(n: int) -> np.ndarray:
    import numpy as np

    return np.full((n, 4, 5), DD_UNKNOWN, dtype=np.uint8)


# -- the codecs -------------------------------------------------------------------
#: what a DD value of 14 (neither tricks nor "unknown") is called
BAD_DD = "double-dummy value 14 (allowed: 0-13, 15 = unknown)"


def require_held(chunk: BulkChunk, done: int, title: str) -> None:
    """Refuse a chunk with a card in no hand: two bits a card cannot say "nowhere".

    Whether each hand has 13 cards is the caller's check (``check()`` and the bulk
    conversion do it); here only what cannot be encoded at all is refused.
    """
    import numpy as np

    if chunk.zbd is None and chunk.owners.max(initial=0) > 3:
        bad = ~complete_rows(chunk.owners)
        if bad.any():
            i = int(np.argmax(bad))
            num = int(chunk.numbers[i]) if chunk.numbers is not None else done + i + 1
            raise FormatError(f"board {num} is not a complete deal; {title} stores only full deals")


def _check_dd_values(dd: np.ndarray, chunk: BulkChunk) -> None:
    import numpy as np

    bad = ((dd > 13) & (dd != DD_UNKNOWN)).any(axis=(1, 2))
    if bad.any():
        i = int(np.argmax(bad))
        num = int(chunk.numbers[i]) if chunk.numbers is not None else i + 1
        raise FormatError(f"board {num}: double-dummy tricks must be 0-13")


def zbd_bytes(chunk: BulkChunk) -> np.ndarray:
    """The chunk's deals as ZBD bytes: the source's own when it has them (a copy, no encoding), laid out
    from the words its reader took out of them when it has those (:func:`zbd_rows`)."""
    if isinstance(chunk, ZbdChunk) and chunk.words is not None:
        return zbd_rows(*chunk.words[:2])
    return chunk.zbd if chunk.zbd is not None else zbd_encode(chunk.owners)


def zbd_rows(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """(n, 13) contiguous ZBD bytes from the records' words (bytes 0-7; bytes 8-12 in the low 40 bits of
    ``second``), for a writer: two strided stores of a word a row (bytes 5-12, then 0-7 over the first's
    zeros) instead of numpy copying 13-byte rows one at a time, which takes twice as long."""
    import numpy as np

    n = first.shape[0]
    out = np.empty((n, 13), dtype=np.uint8)
    if not n:  # (no rows: numpy makes no strided view of an empty buffer)
        return out
    np.left_shift(second, np.uint64(24), out=np.ndarray((n,), dtype="<u8", buffer=out, offset=5, strides=(13,)))
    np.ndarray((n,), dtype="<u8", buffer=out, offset=0, strides=(13,))[:] = first
    return out


def dd_of(chunk: BulkChunk) -> np.ndarray:
    """The chunk's DD tables (all unknown when it has none), refused when a value is not 0-13 or unknown."""
    dd = chunk.dd if chunk.dd is not None else unknown_dd(len(chunk))
    _check_dd_values(dd, chunk)
    return dd


def _dd_nibbles(raw: np.ndarray, start: int, records: Records, byte: int) -> np.ndarray:
    """The DD nibbles of ZDD bytes ``raw`` (at ``byte`` of each record), refused at the first 14."""
    nib = nibbles(raw)
    bad = bad_nibble_byte(nib)
    if bad is not None:
        raise records.error(BAD_DD, start + bad[0], byte + bad[1])
    return nib


_ALL_BITS = 0xFFFF_FFFF_FFFF_FFFF
#: the low six bytes of a word
_LOW_SIX_BYTES = 0x0000_FFFF_FFFF_FFFF
#: the low five bytes of a word
_LOW_FIVE_BYTES = 0x0000_00FF_FFFF_FFFF


def zdd_words(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The (n, 10) ZDD records as two 64-bit words each for :func:`dd_words_known` and
    :func:`dd_words_have_14`: bytes 0-7 (read in place), and bytes 8-9 at the top of a word whose other six
    bytes (2-7, the first word's) are all ones, so that they read as unknown values and never as a 14."""
    import numpy as np

    return row_words(raw, 0), row_words(raw, 2) | np.uint64(_LOW_SIX_BYTES)


def zdd_known(raw: np.ndarray) -> np.ndarray:
    """Boolean (n,): the (n, 10) ZDD records with some DD value known (not every nibble 15)."""
    return dd_words_known(*zdd_words(raw))


def zdd_has_14(raw: np.ndarray) -> bool:
    """Whether any nibble of the (n, 10) ZDD records is 14."""
    return dd_words_have_14(*zdd_words(raw))


def dd_words_known(*words: np.ndarray) -> np.ndarray:
    """Boolean (n,): the records, given as 64-bit words of DD nibbles (bytes that are not DD values set to
    ones), with some value known (a nibble not 15): the words' AND is not all ones."""
    import numpy as np

    every = words[0]
    for word in words[1:]:
        every = every & word
    known: np.ndarray = every != np.uint64(_ALL_BITS)
    return known


def dd_words_have_14(*words: np.ndarray) -> bool:
    """Whether any nibble of these 64-bit words of DD nibbles (bytes that are not DD values set to ones)
    is 14, decided on whole words.

    A nibble is 14 when it is zero after an XOR with 0xE; the classic test for a zero lane,
    ``(x - 0x11..1) & ~x & 0x88..8``, flags a true zero and, through a borrow, perhaps lanes above a
    true zero, so "any flag" is exact."""
    import numpy as np

    fourteens, ones, tops = np.uint64(0xEEEE_EEEE_EEEE_EEEE), np.uint64(0x1111_1111_1111_1111), np.uint64(_HIGH_NIBBLES)
    for word in words:
        x = word ^ fourteens
        flags = x - ones
        flags &= ~x
        flags &= tops
        if flags.max(initial=0):  # (a maximum of words is twice as fast as ``any``, which casts them to bool)
            return True
    return False


def zrd_words(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The (n, 23) ZRD records as the words the checks read: the deal for :func:`complete_words` (bytes
    0-7; bytes 8-12 in the low 40 bits) and the DD nibbles for :func:`dd_words_known` and
    :func:`dd_words_have_14` (bytes 13-15 at the top of a word whose other five bytes are ones; bytes
    15-22).  Three strided reads of the mapped records instead of six: each pass over records
    spread 23 bytes apart costs as much as a dozen operations on the words it gives."""
    import numpy as np

    first = row_words(raw, 0).copy()
    middle = row_words(raw, 8).copy()
    second = middle & np.uint64(_LOW_FIVE_BYTES)
    middle |= np.uint64(_LOW_FIVE_BYTES)
    return first, second, middle, row_words(raw, 15).copy()


_HIGH_NIBBLES = 0x8888_8888_8888_8888


class ZBDCodec(FixedRecordCodec):
    name = "zbd"
    title = "ZBD (Pavlicek binary deal)"
    extensions = ("zbd",)
    caps = Capabilities(full_deals=True)
    record_size = 13
    end_of_list = True

    def decode_chunk(self, block: np.ndarray, start: int, records: Records) -> BulkChunk:
        return zbd_chunk(block)

    def encode_chunk(self, chunk: BulkChunk, done: int) -> tuple[np.ndarray, int]:
        require_held(chunk, done, self.title)
        return zbd_bytes(chunk), 0


class ZDDCodec(FixedRecordCodec):
    """Double-dummy results only: a ZDD board set has no deals."""

    name = "zdd"
    title = "ZDD (Pavlicek double-dummy results)"
    extensions = ("zdd",)
    caps = Capabilities(full_deals=False, dd=True, deals_required=False)
    record_size = 10
    end_of_list = True
    loss = "deals of {}"

    def sniff(self, head: bytes, size: int | None = None) -> int:
        score = super().sniff(head, size)
        return min(score, 20)  # nibbles alone are weak evidence; prefer the extension

    def decode_chunk(self, block: np.ndarray, start: int, records: Records) -> BulkChunk:
        import numpy as np

        dd = zdd_decode(block, _dd_nibbles(block, start, records, 0))
        return BulkChunk(np.full((len(block), 52), ABSENT, dtype=np.uint8), dd)

    def encode_chunk(self, chunk: BulkChunk, done: int) -> tuple[np.ndarray, int]:
        import numpy as np

        dd = dd_of(chunk)
        null = (dd[:, :, 4] == 0).all(axis=1)
        if null.any():
            i = int(np.argmax(null))
            num = int(chunk.numbers[i]) if chunk.numbers is not None else i + 1
            raise FormatError(f"board {num}: {NULL_NOTRUMP}")
        return zdd_encode(dd), int((chunk.owners != ABSENT).any(axis=1).sum())

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        rep = super().check(boards, options)
        for i, b in enumerate(boards):
            if b.dd is not None and all(b.dd.tricks[s][4] == 0 for s in range(4)):
                where = f"board {b.number}" if b.number is not None else f"record {i + 1}"
                rep.errors.append(f"{where}: {NULL_NOTRUMP}")
        return rep


#: why a ZDD record cannot say that every hand makes no trick in notrump
NULL_NOTRUMP = "every hand making 0 tricks in notrump would read as the ZDD end-of-list record"


class ZRDCodec(FixedRecordCodec):
    name = "zrd"
    title = "ZRD (Pavlicek deal + double-dummy results)"
    extensions = ("zrd",)
    caps = Capabilities(full_deals=True, dd=True)
    record_size = 23
    end_of_list = True

    def decode_chunk(self, block: np.ndarray, start: int, records: Records) -> BulkChunk:
        words = zrd_words(block)
        if dd_words_have_14(*words[2:]):
            _dd_nibbles(block[:, 13:], start, records, 13)  # refused at the first 14
        return zbd_chunk(block[:, :13], zdd=block[:, 13:], words=words)

    def encode_chunk(self, chunk: BulkChunk, done: int) -> tuple[np.ndarray, int]:
        import numpy as np

        require_held(chunk, done, self.title)
        dd = dd_of(chunk)
        return np.concatenate([zbd_bytes(chunk), zdd_encode(dd)], axis=1), 0


CODECS = (ZBDCodec(), ZDDCodec(), ZRDCodec())
