"""A big text file converted to a fixed-record format in chunks, without a Board a board: the shared pass.

Converting a lazily read PBN or LIN file to ZRD or ZBD the general way decodes every
board twice (once for the check, once for the writer) with the careful reader.  Here a
format's chunk reader (:mod:`.pbn.bulk`, :mod:`.lin.bulk`) turns a chunk of boards into a
:class:`~.bulk.BulkChunk`, reading the usual shapes with numpy and handing the others to
:func:`slow_row` (the careful reader's board); this module runs the pass: it writes the
chunks through the target's ``write_bulk``, counts what the target's check would say
(:class:`Tally`, in :func:`codec.generic_check`'s words and order), leaves out games
without cards as the board-by-board path does, and gives way (:class:`codec.TablesFound`)
when a board number comes again.  The tests compare both paths' bytes and words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import IO, TYPE_CHECKING, Any

from ..model.deal import Deal
from ..model.text import plural
from ..model.vulnerability import Vulnerability, dealer_for_board, vulnerability_for_board
from .atomic import save_atomically
from .bulk import DD_UNKNOWN, BulkChunk, masks_to_owners, overlapping_rows, steady_heap
from .codec import (
    BridgeCodec,
    Cancelled,
    ConvertResult,
    LazyTextSet,
    ProgressFn,
    SaveReport,
    TablesFound,
    WriteOptions,
    check_error,
    empty_games_loss,
    meaningful,
    named,
    note_names,
    unreadable_error,
)
from .errors import FormatError
from .mapped import release

if TYPE_CHECKING:
    import os
    from collections.abc import Iterator

    import numpy as np

    from ..model.board import Board
    from ..model.boardset import FileInfo
    from ..model.cards import Seat


def no_tables(chunk: BulkChunk, state: dict[str, Any]) -> BulkChunk:
    """``chunk``, after making sure none of its board numbers was seen before (else :class:`TablesFound`)."""
    from ..model.tables import NumberRuns

    runs = state.setdefault("numbers", NumberRuns())
    if chunk.numbers is not None and runs.repeats(chunk.numbers):
        raise TablesFound()
    return chunk


CHUNK = 1 << 16  # boards a chunk, as chunks_from_boards makes them (the writers see the same chunks)


@cache
def rank_table() -> np.ndarray:
    """Byte -> rank index (2 = 0), -1 for any other byte; built on first use so importing needs no numpy."""
    import numpy as np

    table = np.full(256, -1, dtype=np.int16)
    for r, ch in enumerate("23456789TJQKA"):
        table[ord(ch)] = r
        table[ord(ch.lower())] = r
    return table


@cache
def vulnerability_cycle() -> np.ndarray:
    """The vulnerability of boards 1 to 16 (as int), built on first use (every chunk's tally compares with it)."""
    import numpy as np

    cycle = np.array([int(vulnerability_for_board(k)) for k in range(1, 17)], dtype=np.int64)
    cycle.setflags(write=False)
    return cycle


@dataclass
class Tally:
    """What generic_check counts, board by board."""

    codec: BridgeCodec
    start: int
    header: dict[str, str | None]
    errors: list[str] = field(default_factory=list)
    moved: int = 0
    dd: int = 0
    auction: int = 0
    play: int = 0
    notes: int = 0
    numbers_lost: bool = False
    #: the names of the notes and tags lost (as generic_check names them), each with the first place it is at
    names: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: where the boards of the errors found in the chunk being read land in the output
    _at: list[int] = field(default_factory=list)

    def board(
        self,
        i: int,
        number: int | None,
        dealer: int | None,
        vul: int | None,
        count: int,
        complete: bool,
        dd: bool,
        auction: bool,
        play: bool,
        notes: tuple[str, ...],
    ) -> None:
        caps = self.codec.caps
        where = f"board {number}" if number is not None else f"record {i + 1}"
        title = self.codec.title
        if caps.deals_required and count == 0:
            self.error(i, f"{where} has no cards; {title} stores only deals")
        elif not caps.partial_deals and count and not complete:
            self.error(i, f"{where} is not a complete deal; {title} stores only full deals")
        if caps.max_board is not None and number is not None and number > caps.max_board:
            self.error(i, f"{where}: {title} holds board numbers up to {caps.max_board}")
        if not caps.dealer_vul:
            n = number if number is not None and number > 0 else self.start + i
            if (dealer is not None and dealer != dealer_for_board(n)) or (
                vul is not None and vul != vulnerability_for_board(n)
            ):
                self.moved += 1
        self.dd += dd and not caps.dd
        self.auction += auction and not caps.auction
        self.play += play and not caps.play
        if notes and not caps.notes:
            self.notes += 1
            self.name(i, notes)
        if not caps.board_numbers and number is not None and number != self.start + i:
            self.numbers_lost = True

    def fast_rows(
        self,
        index: np.ndarray,
        number: np.ndarray,
        dealer: np.ndarray,
        vul: np.ndarray,
        has_dd: np.ndarray,
        notes: np.ndarray,
    ) -> None:
        """:meth:`board` for many complete deals at once (numbers, dealers and vulnerabilities -1 when
        absent); they cannot be errors unless the format limits board numbers."""
        import numpy as np

        caps = self.codec.caps
        if caps.max_board is not None and (number > caps.max_board).any():
            j = int(np.argmax(number > caps.max_board))
            self.error(
                int(index[j]), f"board {int(number[j])}: {self.codec.title} holds board numbers up to {caps.max_board}"
            )
        if not caps.dealer_vul:
            n = np.where(number > 0, number, self.start + index)
            moved = ((dealer >= 0) & (dealer != (n - 1) % 4)) | (
                (vul >= 0) & (vul != vulnerability_cycle()[(n - 1) % 16])
            )
            self.moved += int(moved.sum())
        if not caps.dd:
            self.dd += int(has_dd.sum())
        if not caps.notes:
            flags = notes.astype(bool)  # a row's note names (an object array), or False where it has none
            self.notes += int(flags.sum())
            if notes.dtype == object:
                for j in np.flatnonzero(flags).tolist():
                    self.name(int(index[j]), notes[j])
        if not caps.board_numbers and ((number >= 0) & (number != self.start + index)).any():
            self.numbers_lost = True

    def error(self, i: int, message: str) -> None:
        """An error of the board that lands at ``i`` in the output."""
        self.errors.append(message)
        self._at.append(i)

    def in_board_order(self) -> None:
        """Put the errors found since the last call in the order of their boards, as the board-by-board check
        gives them (a chunk's games are not looked at in file order: those read with numpy first)."""
        if self._at:
            first = len(self.errors) - len(self._at)
            found = self.errors[first:]
            self.errors[first:] = [found[k] for k in sorted(range(len(found)), key=self._at.__getitem__)]
            self._at.clear()

    def name(self, i: int, names: tuple[str, ...]) -> None:
        """Note the names of what board ``i`` (where it lands in the output) loses in notes and tags."""
        for k, name in enumerate(names):
            if name not in self.names or (i, k) < self.names[name]:
                self.names[name] = (i, k)

    def report(self, info: FileInfo) -> SaveReport:
        """The losses in generic_check's words and order."""
        rep = SaveReport(errors=list(self.errors))
        for count, what in ((self.dd, "double-dummy results"), (self.auction, "auctions"), (self.play, "play")):
            if count:
                rep.losses.append(f"{what} of {plural(count, 'board')}")
        if self.notes:
            names = sorted(self.names, key=self.names.__getitem__)  # in the order the boards show them
            rep.losses.append(f"notes and tags of {plural(self.notes, 'board')} ({named(names)})")
        if self.moved:
            rep.losses.append(
                f"dealer and vulnerability that differ from the board number of {plural(self.moved, 'board')}"
            )
        if not self.codec.caps.header and any(meaningful(v) for v in info.header().values()):
            rep.losses.append("the event, site and date")
        if self.numbers_lost:
            rep.losses.append(f"board numbers (boards will be numbered from {self.start} when read back)")
        return rep


class VulnerabilityCodes(dict[bytes, int]):
    """Vulnerability (as int) of a tag value's bytes, -2 for a value the reader would complain of."""

    def __missing__(self, key: bytes) -> int:
        try:
            value = int(Vulnerability.from_text(key.decode("latin-1")))
        except ValueError:
            value = -2
        if len(self) < 1000:
            self[key] = value
        return value


def names_array(rows: list[tuple[str, ...]]) -> np.ndarray:
    """Each row's note names as an object array (what :meth:`Tally.fast_rows` names and counts)."""
    import numpy as np

    out = np.empty(len(rows), dtype=object)
    out[:] = rows
    return out


def running_count(flags: np.ndarray) -> np.ndarray:
    """``cumsum(flags, axis=2)`` as int8 for a short last axis: one vector add per column, several
    times faster than numpy's cumsum, which loops over the 16 entries of each of the many rows."""
    import numpy as np

    d = flags.view(np.int8)
    out = np.empty(d.shape, np.int8)
    np.copyto(out[:, :, 0], d[:, :, 0])
    for p in range(1, d.shape[2]):
        np.add(out[:, :, p - 1], d[:, :, p], out=out[:, :, p])
    return out


#: a reader of boards ``a`` to ``b`` of a lazy set as one chunk: (doc, a, b, tally, header, state) -> chunk
ChunkReader = Callable[[Any, int, int, "Tally", dict[str, str | None], dict[str, Any]], BulkChunk]


@dataclass(frozen=True)
class Conversion:
    """A text format's :class:`~.codec.ChunkedConversion`: the pass of this module with the format's chunk
    reader."""

    read_chunk: ChunkReader

    def convert(
        self,
        doc: LazyTextSet,
        dst: str | os.PathLike[str],
        codec: BridgeCodec,
        options: WriteOptions | None,
        progress: ProgressFn | None = None,
    ) -> ConvertResult:
        """Check and write ``doc`` (an unedited lazily read text set) as ``codec`` would, a chunk at a time (each
        read by the format's :attr:`read_chunk`)."""
        options = options or WriteOptions()
        start = options.start_board if options.start_board is not None else 1
        info = doc.info
        header = info.header()
        n = len(doc)
        caps = codec.caps
        if caps.max_records is not None and n > caps.max_records:
            raise FormatError(f"{codec.title} holds at most {caps.max_records} boards; this set has {n}", path=str(dst))
        tally = Tally(codec, start, header)
        state: dict[str, Any] = {}  # what the chunks learn: the game pattern, shapes, the notes seen
        steady_heap()

        def chunks() -> Iterator[BulkChunk]:
            written = 0
            for first in range(0, n, CHUNK):
                chunk = no_tables(self.read_chunk(doc, first, min(n, first + CHUNK), tally, header, state), state)
                done_with(doc, min(n, first + CHUNK))
                if tally.errors:
                    raise check_error(doc, dst, tally.errors[0])
                if progress is not None and progress(min(n, first + CHUNK), n) is False:
                    raise Cancelled()
                written += len(chunk)
                if len(chunk):
                    yield chunk
            refused = no_cards_at_all(state, written, tally)
            if refused is not None:
                raise FormatError(refused, path=str(dst))

        result = ConvertResult(codec)

        def write(f: IO[bytes]) -> None:
            result.records = codec.write_bulk(chunks(), f, options)

        save_atomically(dst, write)
        result.records = int(result.records)
        result.losses = dropped_loss(state) + tally.report(info).losses
        return result

    def report(
        self,
        doc: LazyTextSet,
        codec: BridgeCodec,
        options: WriteOptions | None = None,
        progress: ProgressFn | None = None,
    ) -> SaveReport:
        """What writing ``doc`` as ``codec`` would lose, as ``codec.check`` says it, from one chunked pass (the GUI
        asks before it saves)."""
        options = options or WriteOptions()
        start = options.start_board if options.start_board is not None else 1
        info = doc.info
        header = info.header()
        n = len(doc)
        tally = Tally(codec, start, header)
        steady_heap()
        caps = codec.caps
        if caps.max_records is not None and n > caps.max_records:
            tally.errors.append(f"{codec.title} holds at most {caps.max_records} boards; this set has {n}")
        state: dict[str, Any] = {}
        written = 0
        for first in range(0, n, CHUNK):
            written += len(no_tables(self.read_chunk(doc, first, min(n, first + CHUNK), tally, header, state), state))
            done_with(doc, min(n, first + CHUNK))
            if progress is not None and progress(min(n, first + CHUNK), n) is False:
                raise Cancelled()
        refused = no_cards_at_all(state, written, tally)
        if refused is not None:
            tally.errors.append(refused)
        rep = tally.report(info)
        rep.losses[:0] = dropped_loss(state)
        return rep


def finish_chunk(
    doc: LazyTextSet,
    a: int,
    k: int,
    slow: list[int],
    counted: list[tuple[Any, ...]],
    owners: np.ndarray,
    dd: np.ndarray,
    numbers: np.ndarray,
    tally: Tally,
    state: dict[str, Any],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Read the chunk's ``slow`` games carefully, leave out those without cards when the target stores
    only deals (as ``without_empty_games`` does board by board), and tell the tally what it counts of
    every game, at the place it lands in the output; returns the chunk's arrays."""
    import numpy as np

    slow.sort()
    slow_args = []
    unread: list[tuple[int, str]] = []
    empty: list[int] = []  # games without cards: left out when the target stores only deals
    hands: list[tuple[int, int, int, int]] = []  # the hand masks of the games read carefully, in the order of ``read``
    read: list[int] = []
    for r in slow:
        dd[r] = DD_UNKNOWN
        board = doc[a + r]
        if board.unreadable:  # a game the reader could not read: the check refuses it (the save names the source)
            unread.append((r, unreadable_error(doc, a + r, board.unreadable)))
            continue
        args = slow_row(doc, board, a + r, r, dd, numbers)
        hands.append(board.deal.hands)
        read.append(r)
        if args[3] == 0 and tally.codec.caps.deals_required:
            empty.append(r)
            state.setdefault("first_empty", (a + r, args[0]))
        else:
            slow_args.append((r, args))
    if read:
        owners[read] = owners_of_hands(hands)
    # the tally counts boards where they land in the output, after the games left out before them
    before = state.get("dropped", 0)
    shift = np.zeros(k + 1, dtype=np.int64)
    if empty:
        shift[np.array(empty, dtype=np.int64) + 1] = 1
        shift = np.cumsum(shift)
    for rows_, number_, dealer_, vul_, dd_, notes_ in counted:
        tally.fast_rows(a - before + rows_ - shift[rows_], number_, dealer_, vul_, dd_, notes_)
    for r, args in slow_args:
        tally.board(a - before + r - int(shift[r]), *args)
    for r, error in unread:
        tally.error(a - before + r - int(shift[r]), error)
    tally.in_board_order()
    if empty or before:  # a board with no number of its own is numbered where it lands, as in the view
        auto = np.zeros(k, dtype=bool)
        for rows_, number_, *_rest in counted:
            auto[rows_] = number_ < 0
        for r, args in slow_args:
            auto[r] = args[0] is None
        at = np.arange(k, dtype=np.int64)
        numbers = np.where(auto, a - before + at - shift[:k] + 1, numbers)
    if empty:
        state["dropped"] = before + len(empty)
        keep = np.ones(k, dtype=bool)
        keep[empty] = False
        owners, dd, numbers = owners[keep], dd[keep], numbers[keep]
    return owners, dd, numbers


def no_cards_at_all(state: dict[str, Any], written: int, tally: Tally) -> str | None:
    """When every game was left out for want of cards, the check's error for the first (as the
    board-by-board path, which then refuses the file); else None."""
    first = state.get("first_empty")
    if written or first is None:
        return None
    i, number = first
    where = f"board {number}" if number is not None else f"record {i + 1}"
    return f"{where} has no cards; {tally.codec.title} stores only deals"


def dropped_loss(state: dict[str, Any]) -> list[str]:
    """The board-by-board path's words for the games left out (``without_empty_games``)."""
    dropped = state.get("dropped", 0)
    return [empty_games_loss(dropped)] if dropped else []


def done_with(doc: Any, stop: int) -> None:
    """Give back the mapped pages of the games before ``stop`` (memory stays flat however big the file)."""
    buf = doc.mapped_buffer()
    start = doc.data_start(stop) if stop < len(doc) else None
    release(buf, 0, start if start is not None else len(buf))


def owners_of_hands(hands: list[tuple[int, int, int, int]]) -> np.ndarray:
    """(k, 52) seat codes of deals given as hand masks N E S W (``Deal.hands``), all at once: what
    ``Deal.owners`` gives each, a fifth of the time of calling it a game."""
    import numpy as np

    masks = np.array(hands, dtype=np.uint64).reshape(-1, 4)
    owners = masks_to_owners(masks)
    for j in np.flatnonzero(overlapping_rows(masks)).tolist():  # a card in two hands: the last one holds it
        owners[j] = Deal(hands[j]).owners()
    return owners


def slow_row(
    doc: LazyTextSet,
    b: Board,
    i: int,
    r: int,
    dd: np.ndarray,
    numbers: np.ndarray,
) -> tuple[int | None, Seat | None, Vulnerability | None, int, bool, bool, bool, bool, tuple[str, ...]]:
    """Game ``i`` (``b``, read by the careful reader) into row ``r`` (its deal: the caller's); returns what the
    check counts of it."""
    table = b.dd.tricks if b.dd is not None else ((None,) * 5,) * 4
    dd[r] = [[DD_UNKNOWN if v is None else v for v in row] for row in table]
    numbers[r] = b.number if b.number is not None else i + 1
    notes = tuple(note_names(b, doc.info))
    return (
        b.number,
        b.dealer,
        b.vulnerability,
        b.deal.card_count,
        b.deal.is_complete,
        b.dd is not None and not b.dd.is_empty,
        bool(b.auction),
        bool(b.play),
        notes,
    )


VUL_CODES = VulnerabilityCodes()
