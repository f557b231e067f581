"""A big LIN file of hand records converted to a fixed-record format in chunks, without a Board a board.

Converting a lazily read LIN file (:mod:`.lazy`) to ZRD or ZBD the general
way decodes every board twice (for the check and for the writer) with the
careful reader.  Hand records, ours and BBO's, are nearly all one shape:
``qx``, ``pn``, ``st``, ``md``, ``rh``, ``ah|Board N|``, ``sv``, ``pg`` with
nothing else.  Each board is tried against one regular expression of that
shape; the deals of those that match are parsed together with numpy, and the
others go through the careful reader.  The chunks, the check's tally and the
writing are :mod:`..chunked`'s, shared with PBN, so the losses reported and the bytes written
are those of the general path (the tests compare both).
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

from ...model.boardset import BoardSource, lazy_set
from .. import chunked
from ..bulk import ABSENT, DD_UNKNOWN, BulkChunk
from ..chunked import VUL_CODES, finish_chunk, names_array, rank_table, running_count
from ..codec import FAST_TARGETS, BridgeCodec, WriteOptions, meaningful
from .lazy import LazyLinSet
from .read import LIN_SEATS, PLAYER_TAGS, flat_text

if TYPE_CHECKING:
    import numpy as np

    from ..chunked import Tally
    from .lazy import LazyLinSet

PARSE_ROWS = 4096  # rows of any shape parsed together
FULL_ROWS = 16384  # rows of full hands parsed together
_HAND = rb"S[2-9TJQKA]*H[2-9TJQKA]*D[2-9TJQKA]*C[2-9TJQKA]*"
_BOARD = re.compile(
    rb"[ \t\r\n]*(?:qx\|([oOcC]?)(\d{1,9})\|)?"
    rb"(?:pn\|([^|\r\n]*)\|)?"
    rb"(?:st\|\|)?"
    rb"md\|([1-4])(" + _HAND + rb"(?:," + _HAND + rb"){2},(?:" + _HAND + rb")?)\|"
    rb"(?:rh\|\|)?"
    rb"(?:ah\|Board (\d{1,9})\|)?"
    rb"(?:sv\|([onebONEB0])\|)?"
    rb"(?:pg\|\|)?[ \t\r\n]*"
)
#: the hands of an ``md`` value in order, as our seat numbers (LIN's dealer digit 1-4 counts the same way)
_LIN_SEATS = tuple(int(seat) for seat in LIN_SEATS)
_DEALERS = {b"%d" % (k + 1): seat for k, seat in enumerate(_LIN_SEATS)}


def applies(doc: BoardSource, codec: BridgeCodec, options: WriteOptions | None) -> bool:
    """True for an unedited lazy LIN set going to a plain fixed-record format (numbered by the file
    itself: a start board given when reading numbers the boards the careful way)."""
    lazy = lazy_set(doc)
    return isinstance(lazy, LazyLinSet) and not lazy.edited and codec.name in FAST_TARGETS and lazy.start_board is None


def parse_hands(texts: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """Owners (k, 52) of ``md`` hands written the plain way (``S…H…D…C…`` four times, South West North
    East, the last perhaps left out), and a boolean (k,) of the rows that are complete deals as
    :func:`.read.parse_md` reads them; the others (a card twice, a short hand) need the careful reader."""
    import numpy as np

    k = len(texts)
    owners = np.full((k, 52), ABSENT, dtype=np.uint8)
    if not k:
        return owners, np.zeros(0, dtype=bool)
    joined = b"|".join(texts) + b"|"
    arr = np.frombuffer(joined, np.uint8)
    ends = np.flatnonzero(arr == ord("|"))
    row_start = np.concatenate(([0], ends[:-1] + 1))
    row = np.cumsum(arr == ord("|")) - (arr == ord("|"))  # the row of each byte
    comma = np.cumsum(arr == ord(","))
    suit_mark = (arr == ord("S")) | (arr == ord("H")) | (arr == ord("D")) | (arr == ord("C"))
    suits_seen = np.cumsum(suit_mark)
    rank = rank_table()[arr]
    at = np.flatnonzero(rank >= 0)
    r_of = row[at]
    hand = comma[at] - comma[row_start[r_of]]  # commas before it in its row
    # each hand is S H D C in that order: the suit letters up to it in its row, modulo 4, give the suit
    order = (suits_seen[at] - suits_seen[row_start[r_of]]) % 4  # 0 = spades ... 3 = clubs (a row starts with S)
    card = (3 - order) * 13 + rank[at]
    slot = r_of.astype(np.int64) * 52 + card
    counts = np.bincount(slot, minlength=52 * k)
    per_hand = np.bincount(r_of.astype(np.int64) * 4 + hand, minlength=4 * k).reshape(k, 4)
    ok = (counts.reshape(k, 52) <= 1).all(axis=1) & (per_hand <= 13).all(axis=1)
    seats = np.array(_LIN_SEATS, dtype=np.uint8)
    owners.reshape(-1)[slot] = seats[hand]
    total = per_hand.sum(axis=1)
    empty = per_hand == 0
    one_left_out = (total == 39) & (empty.sum(axis=1) == 1)  # the fourth hand is the cards left
    for r in np.flatnonzero(one_left_out & ok).tolist():
        missing = int(np.argmax(empty[r]))
        owners[r][owners[r] == ABSENT] = seats[missing]
    ok &= (total == 52) | one_left_out
    return owners, ok


def _parse_in_pieces(hands: list[bytes]) -> tuple[np.ndarray, np.ndarray]:
    """The hands of a chunk: those of four or three full hands (71 or 54 bytes, what programs write) in
    one go by :func:`parse_full_hands`, the others by :func:`parse_hands` a few thousand rows at a time
    (its arrays are some dozen bytes a byte of text)."""
    import numpy as np

    k = len(hands)
    sizes = np.fromiter(map(len, hands), dtype=np.int64, count=k)
    if 0 < k <= FULL_ROWS and (sizes == 71).all():  # (a small file of four full hands a game: no rows to sort out)
        return parse_full_rows(b",".join(hands) + b",", k, 4)
    owners = np.full((k, 52), ABSENT, dtype=np.uint8)
    ok = np.zeros(k, dtype=bool)
    for width in (71, 54):
        every = np.flatnonzero(sizes == width)
        for i in range(0, every.shape[0], FULL_ROWS):
            rows = every[i : i + FULL_ROWS]
            texts = [hands[r] for r in rows.tolist()]
            if width == 71:
                owners[rows], ok[rows] = parse_full_rows(b",".join(texts) + b",", len(texts), 4)
            else:
                owners[rows], ok[rows] = parse_full_hands(np.frombuffer(b"".join(texts), np.uint8).reshape(-1, width))
    rest = np.flatnonzero((sizes != 71) & (sizes != 54)).tolist()
    for i in range(0, len(rest), PARSE_ROWS):
        rows_ = rest[i : i + PARSE_ROWS]
        owners[rows_], ok[rows_] = parse_hands([hands[r] for r in rows_])
    return owners, ok


def parse_full_hands(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`parse_hands` for rows of 13-card hands that the board pattern took: (k, 71) bytes of four
    hands, or (k, 54) of three and a comma (the fourth is the cards left): :func:`parse_full_rows` of the
    rows filled up with commas."""
    import numpy as np

    k, width = arr.shape
    rows = np.concatenate((arr, np.full((k, 4 * 18 - width), ord(","), np.uint8)), axis=1)
    return parse_full_rows(rows.tobytes(), k, 4 if width == 71 else 3)


def parse_full_rows(text: bytes, k: int, hands: int) -> tuple[np.ndarray, np.ndarray]:
    """Owners (k, 52) and the rows that are complete deals (k,), as :func:`parse_hands` gives them, of
    ``k`` rows of 72 bytes: four hands of 17 bytes each followed by a comma (``hands``: 4), or three and the
    commas that stand for the fourth, the cards left (``hands``: 3).  A hand's suit letters come in order, so
    a byte's suit is the count of letters up to it: the rows must be hands the board pattern matched (``S``,
    ``H``, ``D``, ``C`` in that order); a hand in another order would be read with its suits swapped.  Each
    byte is looked up once, as a rank or a suit letter, by ``bytes.translate`` (a numpy look-up takes twice
    as long), and the hands are looked at with their commas (contiguous rows of 18 bytes, which numpy goes
    through faster than 17 of every 18)."""
    import numpy as np

    table, seats = _hand_tables()
    raw = np.frombuffer(text, np.uint8).reshape(k, 72)
    # a rank 0-12, SUIT_LETTER, or -1 for any other byte (the commas)
    code = np.frombuffer(text.translate(table), np.int8).reshape(k, 4, 18)[:, :hands]
    letters = running_count(code == SUIT_LETTER)  # the suit letters up to each byte: 1 = spades ... 4 = clubs
    # every hand 17 bytes (its commas in place), so 13 ranks with its four letters
    ok = (raw[:, 17] == ord(",")) & (raw[:, 35] == ord(",")) & (raw[:, 53] == ord(","))
    held = (code >= 0) & (code < SUIT_LETTER) & (letters >= 1) & (letters <= 4)
    held &= ok[:, None, None]
    # a card's place: (3 - suit) * 13 + rank, in int8 (bytes not held may wrap: they go to the spare slot)
    cards = np.add(52 - 13 * letters + code, 52 * np.arange(k, dtype=np.int32)[:, None, None], dtype=np.int32)
    cards[~held] = 52 * k  # suit letters, commas (and rows of another layout) land in a spare slot
    spread = np.full(52 * k + 1, ABSENT, dtype=np.uint8)
    spread[cards.ravel()] = np.broadcast_to(seats[:hands][None, :, None], cards.shape).ravel()
    owners = spread[:-1].reshape(k, 52)
    absent = (owners == ABSENT).sum(axis=1)
    ok &= held.sum(axis=(1, 2)) == 13 * hands
    if hands == 4:
        ok &= absent == 0  # 52 cards in 52 places: none twice
    else:
        ok &= absent == 13
        owners = np.where(owners == ABSENT, seats[3], owners).astype(np.uint8)
    return owners, ok


#: the code of a suit letter in :func:`_hand_tables`' byte table (ranks are 0-12)
SUIT_LETTER = 16


@cache
def _hand_tables() -> tuple[bytes, np.ndarray]:
    """Byte -> rank (0-12, as :func:`..chunked.rank_table`), :data:`SUIT_LETTER` for S H D C, -1 for any other
    byte (as int8), a table for ``bytes.translate``; and the seats of an ``md`` value's hands in order (uint8).
    Built on first use."""
    import numpy as np

    codes = rank_table().astype(np.int8)
    codes[list(b"SHDC")] = SUIT_LETTER
    seats = np.array(_LIN_SEATS, dtype=np.uint8)
    seats.setflags(write=False)
    return codes.view(np.uint8).tobytes(), seats


@lru_cache(maxsize=4096)
def _names_noted(names: bytes, closed: bool, encoding: str) -> tuple[str, ...]:
    """The player tags a ``pn`` value gives the board (which a fixed-record format loses), South West North
    East as the reader sets them."""
    people = flat_text(names.decode(encoding, errors="replace")).split(",")
    base = 4 if len(people) >= 8 and closed else 0
    return tuple(tag for tag, p in zip(PLAYER_TAGS, people[base : base + 4], strict=False) if meaningful(p.strip()))


def _chunk(
    doc: LazyLinSet, a: int, b: int, tally: Tally, header: dict[str, str | None], state: dict[str, Any]
) -> BulkChunk:
    """Boards ``a`` to ``b`` as chunks_from_boards makes them, tallying what the check counts."""
    import numpy as np

    idx = doc.lin_index
    buf = idx.buf
    k = b - a
    bounds = idx.starts[a : b + 1].tolist()
    if len(bounds) == k:
        bounds.append(idx.end)
    numbers = np.zeros(k, np.int64)
    dd = np.full((k, 4, 5), DD_UNKNOWN, dtype=np.uint8)
    match = _BOARD.fullmatch
    encoding = idx.encoding
    has_closed = idx.has_closed
    fast_rows: list[int] = []
    hands: list[bytes] = []
    numbers_l: list[int] = []
    dealers_l: list[int] = []
    vuls_l: list[int] = []
    notes_l: list[tuple[str, ...]] = []
    slow: list[int] = []
    vuls = VUL_CODES
    for r in range(k):
        m = match(buf[bounds[r] : bounds[r + 1]])
        if m is None:
            slow.append(r)
            continue
        room, qx_no, names, digit, deal, title_no, sv = m.groups()
        vv = vuls[sv] if sv else -1
        if vv == -2:
            slow.append(r)
            continue
        closed = room in (b"c", b"C")
        kept_room = closed or (room and has_closed)  # the open room is said only when there is a closed one
        notes = (("Room",) if kept_room else ()) + (_names_noted(names, closed, encoding) if names else ())
        number = int(qx_no) if qx_no else int(title_no) if title_no else -1
        fast_rows.append(r)
        hands.append(deal)
        numbers_l.append(number)
        dealers_l.append(_DEALERS[digit])
        vuls_l.append(vv)
        notes_l.append(notes)
    parsed, ok = _parse_in_pieces(hands)
    game_number = np.array(numbers_l, dtype=np.int64)
    game_dealer = np.array(dealers_l, dtype=np.int64)
    game_vul = np.array(vuls_l, dtype=np.int64)
    game_notes = names_array(notes_l)
    if not slow and ok.all():  # every game read together (a file as programs write it): the arrays as they are
        rows = np.arange(k, dtype=np.int64)
        owners = parsed
    else:
        fast = np.array(fast_rows, dtype=np.int64)
        slow.extend(fast[~ok].tolist())
        rows = fast[ok]
        owners = np.full((k, 52), ABSENT, dtype=np.uint8)
        owners[rows] = parsed[ok]
        game_number, game_dealer, game_vul, game_notes = game_number[ok], game_dealer[ok], game_vul[ok], game_notes[ok]
    numbers[rows] = np.where(game_number >= 0, game_number, a + rows + 1)
    counted = [(rows, game_number, game_dealer, game_vul, np.zeros(rows.shape[0], dtype=bool), game_notes)]
    owners, dd, numbers = finish_chunk(doc, a, k, slow, counted, owners, dd, numbers, tally, state)
    return BulkChunk(owners, None, numbers)


#: the conversion of a big file in chunks, this module's chunk reader in :mod:`..chunked`'s pass
CONVERSION = chunked.Conversion(_chunk)
convert = CONVERSION.convert
report = CONVERSION.report
