"""Pavlicek's ZBS (binary suit): one 32-bit record per suit, grouped into diagrams.

Each little-endian record holds a flag in bit 0 (1 = the next record belongs to
the same group) and in bits 1-31 a 13-digit base-5 locator, ace the least
significant digit, digit 0 = unused, 1-4 = W N E S.  A group lists suits in the
order S H D C; a group of one record is a single spade layout.  An all-zero
record ends the list.  Each group is one board, numbered by its position, so
partial deals (endings, single-suit layouts) are stored exactly.

When writing, a group holds the suits from spades down to the last suit that
has a card: a trailing empty suit would be an all-zero record, which readers
take for the end of the list.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from typing import IO

from ...model.board import Board
from ...model.deal import Deal
from ..codec import Capabilities, WriteOptions
from ..errors import FormatError
from ..records import FixedRecordCodec, Records

LOCATOR_LIMIT = 5**13  # 1,220,703,125
#: our seat (N0 E1 S2 W3) for a locator digit 1-4 (W N E S); digit 0 = unused
_SEAT_OF_DIGIT = (4, 3, 0, 1, 2)
#: locator digit for our seat N E S W
_DIGIT_OF_SEAT = (2, 3, 4, 1)
_SUIT_OF_POSITION = (3, 2, 1, 0)  # a group's records are S H D C


def decode_locator(locator: int, suit: int, owners: list[int]) -> None:
    """Put the 13 cards of ``suit`` into ``owners`` (52 seat codes) from a locator."""
    for rank_index in range(12, -1, -1):  # ace first: the least significant digit
        locator, digit = divmod(locator, 5)
        owners[13 * suit + rank_index] = _SEAT_OF_DIGIT[digit]


def encode_locator(owners: list[int], suit: int) -> int:
    """The locator of ``suit`` from 52 seat codes (4 = absent), two first as the spec encodes."""
    value = 0
    for rank_index in range(13):  # two first, ace last = least significant
        seat = owners[13 * suit + rank_index]
        value = value * 5 + (_DIGIT_OF_SEAT[seat] if seat < 4 else 0)
    return value


class ZBSGroups:
    """The group index of a ZBS file's records: where each group (board) starts, how many records it
    has, and the groups that cannot be decoded, with why (their boards are marked unreadable)."""

    def __init__(self, records: Records) -> None:
        import numpy as np

        end = records.count
        words = records.block(0, end).view("<u4").reshape(end)
        ends = np.flatnonzero((words & 1) == 0)
        unclosed = bool(end) and (ends.size == 0 or int(ends[-1]) != end - 1)
        if unclosed:
            ends = np.append(ends, end - 1)
        starts = np.concatenate([[0], ends[:-1] + 1]).astype(np.int64) if ends.size else np.zeros(0, np.int64)
        sizes = ends - starts + 1
        self.bad: dict[int, FormatError] = {}
        too_big = np.flatnonzero((words >> 1) >= LOCATOR_LIMIT)
        for g, i in zip(np.searchsorted(ends, too_big).tolist(), too_big.tolist(), strict=True):
            if g not in self.bad:
                self.bad[g] = records.error(f"locator {int(words[i]) >> 1} is not below 5^13 = {LOCATOR_LIMIT}", i)
        for g in np.flatnonzero(sizes > 4).tolist():
            self.bad.setdefault(
                g, records.error(f"a group of {int(sizes[g])} records; a deal has at most 4 suits", int(starts[g]) + 4)
            )
        if unclosed:
            where = "the end-of-list record" if records.ended else "the end of the file"
            self.bad.setdefault(
                len(ends) - 1, records.error(f"the last group is not closed (flag bit set) before {where}", end - 1)
            )
        if self.bad and len(self.bad) == len(ends):  # nothing readable: not a ZBS file, say why
            raise self.bad[min(self.bad)]
        self.words = words
        self.starts = starts
        self.sizes = sizes.astype(np.int64)

    def __len__(self) -> int:
        return int(self.starts.size)

    def owners(self, group: int) -> list[int]:
        if group in self.bad:
            raise self.bad[group]
        owners = [4] * 52
        start = int(self.starts[group])
        for pos in range(int(self.sizes[group])):
            decode_locator(int(self.words[start + pos]) >> 1, _SUIT_OF_POSITION[pos], owners)
        return owners


def _possible_deal(group: list[int]) -> bool:
    """True when a group's records give no hand more than 13 cards and its last suit a card
    (the writer stops at the last suit that has one)."""
    owners = [4] * 52
    for pos, word in enumerate(group):
        decode_locator(word >> 1, _SUIT_OF_POSITION[pos], owners)
    if all(o == 4 for o in owners[13 * _SUIT_OF_POSITION[len(group) - 1] :][:13]):
        return False
    return all(owners.count(seat) <= 13 for seat in range(4))


class ZBSCodec(FixedRecordCodec):
    """4-byte records in groups: a board is a group, so its boards are decoded from the group index."""

    name = "zbs"
    title = "ZBS (Pavlicek binary suits)"
    extensions = ("zbs",)
    caps = Capabilities(full_deals=True, partial_deals=True)
    record_size = 4
    end_of_list = True
    record_name = "ZBS"
    truncated_opens = False  # a cut group cannot be told from a whole one
    bulk = False

    def sniff(self, head: bytes, size: int | None = None) -> int:
        """Strict: the records seen must form groups of at most four suits, each a possible
        (partial) deal, closed where the file ends; text (digits of a BER file) is never ZBS."""
        import numpy as np

        n = len(head) // 4
        if n == 0 or (size is not None and size % 4 and b"\0\0\0\0" not in head):
            return 0
        if all(32 <= b < 127 or b in b"\r\n\t" for b in head):
            return 0  # ASCII text: locators would need bytes above 0x7f or below 0x20
        words = np.frombuffer(head[: 4 * n], dtype="<u4")
        nulls = np.flatnonzero(words == 0)
        whole = size is not None and size <= len(head)
        if nulls.size:
            if any(head[4 * int(nulls[0]) :]):
                return 0  # data after the end-of-list record: not a ZBS list
            words = words[: int(nulls[0])]
            whole = True
        if words.size == 0 or ((words >> 1) >= LOCATOR_LIMIT).any():
            return 0
        group: list[int] = []
        for w in words.tolist():
            group.append(w)
            if len(group) > 4:
                return 0
            if not w & 1:
                if not _possible_deal(group):
                    return 0
                group = []
        if whole and group:
            return 0  # the last group is not closed
        return 5  # binary data can still pass these checks: the extension decides

    def open_records(self, path: str | os.PathLike[str]) -> Records:
        records = super().open_records(path)
        records.index = ZBSGroups(records)
        return records

    def board_count(self, records: Records) -> int:
        return len(records.index)

    def board_offsets(self, records: Records) -> Callable[[int], int]:
        starts = records.index.starts
        return lambda i: records.offset(int(starts[i]))

    def decode_board(self, records: Records, index: int) -> Board:
        return Board.numbered(records.first + index, Deal.from_owners(records.index.owners(index)))

    def write(self, doc: Iterable[Board], out: IO[bytes], options: WriteOptions | None = None) -> None:
        buf = bytearray()
        for i, board in enumerate(doc):
            owners = board.deal.owners()
            used = [s for s in range(4) if any(owners[13 * s + r] < 4 for r in range(13))]
            if not used:
                where = f"board {board.number}" if board.number is not None else f"record {i + 1}"
                raise FormatError(f"{where} has no cards; an empty ZBS group would read as the end of the list")
            count = 4 - min(used)  # spades down to the lowest suit that has a card
            for pos in range(count):
                flag = 1 if pos < count - 1 else 0
                word = encode_locator(owners, _SUIT_OF_POSITION[pos]) << 1 | flag
                buf += word.to_bytes(4, "little")
            if len(buf) >= 1 << 20:
                out.write(bytes(buf))
                buf.clear()
        out.write(bytes(buf))


CODECS = (ZBSCodec(),)
