"""The codec contract: what a format is to the app, in a module that imports no codec.

A codec is one object per format, a subclass of :class:`Codec` that declares what the
format holds (:class:`Capabilities`) and reads, writes and checks it.  Codecs import this
module (never the registry, which imports them); the conversion machinery and the app
import it to speak of codecs.  Besides the class it holds the generic save check every
codec starts from (:func:`generic_check`: what a format cannot hold, in the words every
save report uses), the options of reading and writing, and what a conversion reports.

What some codecs do beyond ``read``/``write`` is said here too, so that the code which
asks for it needs no codec module:

* reading big text files lazily: a set a text codec opened with one scan and decodes on demand
  says so by its :class:`~model.boardset.SetKind` (:func:`lazy_text` asks it), and is a :class:`LazyTextSet`;
* converting such a set to a fixed-record format in chunks: a codec that can is a
  :class:`ConvertsInChunks`, and what it hands back a :class:`ChunkedConversion`;
* converting whole fixed-record files as numpy chunks: :attr:`Codec.bulk` with
  :meth:`Codec.read_bulk` and :meth:`Codec.write_bulk` (the fixed-record base implements them).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, Any, Generic, Protocol, TypeAlias, TypeGuard, TypeVar, runtime_checkable

from ..model.boardset import Boards as Boards  # the boards a check or a writer takes (re-exported for codecs)
from ..model.boardset import BoardSource, FileInfo, Numbered, SetKind, is_board_source
from ..model.text import plural
from ..model.vulnerability import dealer_for_board, vulnerability_for_board
from .errors import FormatError

if TYPE_CHECKING:
    from ..model.board import Board
    from ..model.boardset import BoardSet
    from ..model.cribbage import CribbageRecord  # (the cribbage model is imported with its codec, not here)
    from .bulk import BulkChunk


@dataclass(frozen=True)
class Capabilities:
    """What a format can hold; the UI and ``convert`` warn about the rest."""

    full_deals: bool = True
    partial_deals: bool = False
    board_numbers: bool = False
    dealer_vul: bool = False  # stored explicitly (not only implied by the number)
    dd: bool = False
    auction: bool = False
    play: bool = False
    header: bool = False  # event/site/date
    notes: bool = False  # free-form tags and commentary
    deals_required: bool = True  # a board without cards cannot be stored
    max_records: int | None = None
    max_board: int | None = None

    @property
    def tables(self) -> bool:
        """True for a format that holds each table of a board (its auction, play): it keeps every record.
        The others hold boards, a deal a board, and are written each board once (:mod:`model.tables`)."""
        return self.auction or self.play

    def holds(self) -> list[str]:
        """Short names of what the format holds, for ``bridgeview formats``."""
        names = []
        if self.full_deals:
            names.append("deals")
        if self.partial_deals:
            names.append("partial deals")
        if self.board_numbers:
            names.append("board numbers")
        if self.dealer_vul:
            names.append("dealer/vul")
        if self.dd:
            names.append("DD")
        if self.auction:
            names.append("auction")
        if self.play:
            names.append("play")
        if self.header:
            names.append("event/site/date")
        if self.notes:
            names.append("notes")
        return names


@dataclass
class ReadOptions:
    start_board: int | None = None  # first board number for formats that store none
    encoding: str | None = None
    #: a text format read lazily whatever the file's size, where it can (a conversion in chunks asks: it is the
    #: fastest way to ZRD or ZBD from 1,000 boards up); by default only big files are
    lazy: bool = False


@dataclass
class WriteOptions:
    start_board: int | None = None
    encoding: str | None = None  # text formats: None = as read, else e.g. "utf-8"
    newline: str | None = None  # text formats: None = as read, else "\n" or "\r\n"


@dataclass
class SaveReport:
    """What saving to a format would lose (warnings) or cannot do (errors)."""

    losses: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


#: what a codec's reader gives (:class:`~model.boardset.BoardSet`, lazy or not, or a cribbage record)
ContentT = TypeVar("ContentT")
#: what its writer takes (any :class:`Boards`, or a cribbage record)
WrittenT = TypeVar("WrittenT", contravariant=True)


class Codec(Generic[ContentT, WrittenT]):
    """One file format.  A codec subclasses :class:`BridgeCodec` or :class:`CribbageCodec` (which say what it
    reads and writes), sets the class attributes and overrides :meth:`read`/:meth:`write`; fixed-record formats
    may add bulk methods."""

    name: str = ""
    title: str = ""
    extensions: tuple[str, ...] = ()
    kind: str = "bridge"  # "bridge" documents are BoardSets; "cribbage" are CribbageRecords
    binary: bool = True
    caps: Capabilities = Capabilities()
    can_write: bool = True

    def sniff(self, head: bytes, size: int | None = None) -> int:
        """How sure (0..100) this codec is that a file starting with ``head`` is its own."""
        return 0

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> ContentT:
        raise NotImplementedError

    def write(self, doc: WrittenT, out: IO[bytes], options: WriteOptions | None = None) -> None:
        raise NotImplementedError

    # -- optional bulk path for fixed-record formats -------------------
    #: True when read_bulk/write_bulk are implemented
    bulk: bool = False

    def read_bulk(self, path: str | os.PathLike[str], chunk: int = 1 << 18) -> Iterator[BulkChunk]:
        """Yield :class:`bridgeview.formats.bulk.BulkChunk` s of the file's records."""
        raise NotImplementedError

    def write_bulk(self, chunks: Iterable[BulkChunk], out: IO[bytes], options: WriteOptions | None = None) -> int:
        """Write chunks; return the number of records written."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<codec {self.name}>"


class BridgeCodec(Codec["BoardSet", Boards]):
    """A format of bridge boards: it reads a :class:`~model.boardset.BoardSet` (a :class:`LazyBoardSet` for a
    file decoded on demand) and writes any boards (a set, a view of one, a progress wrapper, a list)."""

    kind = "bridge"

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        """What writing ``boards`` would lose; codecs extend this with their own limits."""
        start = options.start_board if options is not None and options.start_board is not None else 1
        return generic_check(self, boards, start=start)


class CribbageCodec(Codec["CribbageRecord", "CribbageRecord"]):
    """A format of cribbage games: it reads and writes a :class:`~model.cribbage.CribbageRecord`."""

    kind = "cribbage"


#: any codec the registry holds (``isinstance(codec, BridgeCodec)`` tells which)
AnyCodec = BridgeCodec | CribbageCodec
#: what a file read holds (``Document.content``)
Content: TypeAlias = "BoardSet | CribbageRecord"


def uncounted(boards: Boards) -> Boards:
    """``boards`` without any progress counting around them (see :attr:`~model.boardset.BoardSource.uncounted`)."""
    return boards.uncounted if is_board_source(boards) else boards


def source_info(boards: Boards) -> FileInfo | None:
    """The file info of ``boards`` when they are a set (or a view of one), None for a bare list of boards."""
    return boards.info if is_board_source(boards) else None


def generic_check(codec: BridgeCodec, boards: Boards, *, dealer_vul: bool = True, start: int = 1) -> SaveReport:
    """Losses and impossibilities that follow from the codec's capabilities alone
    (``dealer_vul=False``: the codec reports dealer/vulnerability losses itself; ``start``:
    the number a reader gives the first board of a format that stores none)."""
    caps = codec.caps
    rep = SaveReport()
    n = len(boards)
    moved = 0  # boards whose dealer or vulnerability the number (read back) will not give
    if caps.max_records is not None and n > caps.max_records:
        rep.errors.append(f"{codec.title} holds at most {caps.max_records} boards; this set has {n}")
    dd = auction = play = notes = unread = dealt = 0
    noted: dict[str, None] = {}  # what the notes and tags lost are, in order of appearance
    info = source_info(boards)
    for i, b in enumerate(boards):
        rep.errors.extend(record_errors(codec, boards, i, b))
        if b.unreadable:
            continue
        where = f"board {b.number}" if b.number is not None else f"record {i + 1}"
        if not caps.full_deals and not caps.partial_deals:  # a format of results alone (ZDD) drops the deal
            dealt += bool(b.deal.card_count)
        if caps.max_board is not None and b.number is not None and b.number > caps.max_board:
            rep.errors.append(f"{where}: {codec.title} holds board numbers up to {caps.max_board}")
        if dealer_vul and not caps.dealer_vul and not follows_number(b, start + i):
            moved += 1
        if b.dd is not None and not b.dd.is_empty and not caps.dd:
            dd += 1
        if b.auction and not caps.auction:
            auction += 1
        elif codec.name != "pbn" and b.tags.get("Auction:rest"):
            unread += 1
        if b.play and not caps.play:
            play += 1
        if not caps.notes:
            found = note_names(b, info)
            notes += bool(found)
            noted.update(dict.fromkeys(found))
    header = info is not None and any(meaningful(v) for v in (info.event, info.site, info.date)) and not caps.header
    for count, what in ((dd, "double-dummy results"), (auction, "auctions"), (play, "play")):
        if count:
            rep.losses.append(f"{what} of {plural(count, 'board')}")
    if notes:
        rep.losses.append(f"notes and tags of {plural(notes, 'board')} ({named(list(noted))})")
    if unread:
        rep.losses.append(f"the auction from a token that is not a call on {plural(unread, 'board')}")
    if moved:
        rep.losses.append(f"dealer and vulnerability that differ from the board number of {plural(moved, 'board')}")
    if header:
        rep.losses.append("the event, site and date")
    if not caps.board_numbers and any(b.number is not None and b.number != start + i for i, b in enumerate(boards)):
        rep.losses.append(f"board numbers (boards will be numbered from {start} when read back)")
    if dealt:
        rep.losses.append(f"deals of {plural(dealt, 'board')}")
    return rep


def record_errors(codec: BridgeCodec, boards: Boards, index: int, board: Board) -> list[str]:
    """Why ``codec`` cannot store the record at ``index`` at all, whatever the rest of the set: it stands in
    for a record that could not be read (writing it would lose the record), or its cards are not a deal the
    format holds."""
    if board.unreadable:
        return [unreadable_error(boards, index, board.unreadable)]
    if not codec.caps.full_deals and not codec.caps.partial_deals:  # a format of results alone drops the deal
        return []
    return deal_errors(codec, board, f"board {board.number}" if board.number is not None else f"record {index + 1}")


def deal_errors(codec: BridgeCodec, board: Board, where: str) -> list[str]:
    """Why a format that stores deals cannot store this board's (no cards, or not a full deal)."""
    count = board.deal.card_count
    if codec.caps.deals_required and count == 0:
        return [f"{where} has no cards; {codec.title} stores only deals"]
    if not codec.caps.partial_deals and count and not board.deal.is_complete:
        return [f"{where} is not a complete deal; {codec.title} stores only full deals"]
    return []


#: what a save error about a stand-in for an unreadable record says (it names the source file, not the target)
UNREADABLE = "cannot be read"


def unreadable_error(boards: Boards, index: int, why: str) -> str:
    """The save error for board ``index``, which stands in for a record that could not be read."""
    offset = boards.record_offset(index) if is_board_source(boards) else None
    record = boards.record_number(index) if isinstance(boards, Numbered) else None
    where = f"record {record or index + 1}" + (f" (offset {offset})" if offset is not None else "")
    return f"{where}: {UNREADABLE}: {why}; fix or delete that board first"


def check_error(doc: Boards, target: str | os.PathLike[str], message: str) -> FormatError:
    """The error for a save that ``check`` refuses: located in the target, or in the source file
    when the trouble is a record of the source that could not be read."""
    info = source_info(doc)
    source = info.path if info is not None else None
    return FormatError(message, path=source if source and f": {UNREADABLE}: " in message else str(target))


def follows_number(board: Board, position: int) -> bool:
    """True when the board's dealer and vulnerability are what its number (else its position) implies."""
    number = board.number if board.number is not None and board.number > 0 else position
    return (board.dealer is None or board.dealer == dealer_for_board(number)) and (
        board.vulnerability is None or board.vulnerability == vulnerability_for_board(number)
    )


def board_tags(board: Board, info: FileInfo | None) -> dict[str, str]:
    """The board's tags worth reporting as lost: not placeholders, and not an Event/Site/Date
    that only repeats the file's header (PBN copies it onto every board; the header has its own line)."""
    header = info.header() if info is not None else {}
    return {
        k: v for k, v in board.tags.items() if meaningful(v) and header.get(k) != v and k != "Auction:rest"
    }  # reported on its own


def note_names(board: Board, info: FileInfo | None) -> list[str]:
    """What a board's notes and tags are, as a save report names them: ``commentary`` for its notes (LIN's
    ``nt`` lesson text, PBN's comments), LIN's pairs kept as they were by their keys, other tags by name."""
    names = ["commentary"] if board.notes else []
    for name, value in board_tags(board, info).items():
        if name == "LinExtra":
            names.extend(f"LIN {key}|" for key in dict.fromkeys(re.findall(r"(?:^|\|)([A-Za-z]{2})\|", value)))
        elif name != "LinNoteAt":
            names.append(name)
    return names


def named(names: list[str], limit: int = 6) -> str:
    """``a, b, c`` of the first ``limit`` names, then ``…``."""
    return ", ".join(names[:limit]) + (", …" if len(names) > limit else "")


def meaningful(value: str | None) -> bool:
    """False for empty values and PBN's placeholders for "unknown" (``?``, ``#``, ``????.??.??``)."""
    return bool(value) and bool(str(value).strip("?.#- "))


# -- long jobs: conversions and checks that report progress ---------------
#: how far a long job has got, ``(done, total)``; a False answer cancels it
ProgressFn = Callable[[int, int], bool]


@dataclass
class ConvertResult:
    """What a conversion or a save wrote and what it had to say about it."""

    codec: AnyCodec
    records: int = 0
    losses: list[str] = field(default_factory=list)
    #: things the user asked for that the input made impossible (a DUP file's own first board)
    notices: list[str] = field(default_factory=list)


class Cancelled(Exception):
    """The user cancelled a conversion; the target was not touched."""


@runtime_checkable
class ReportsProgress(Protocol):
    """A progress wrapper around a set (the conversion's counted view, the GUI's): a writer that takes the
    boards its own way (chunks of records) tells it how far it has got."""

    def report_progress(self, done: int) -> None:
        """``done`` boards of the set are written; raises :class:`Cancelled` when the user cancelled."""
        ...


def progress_of(doc: object) -> Callable[[int], None]:
    """Report ``done`` boards to whatever progress wrapper ``doc`` is (the CLI's counted
    view or the GUI's), raising Cancelled when the user cancels; a no-op for a bare set."""
    if isinstance(doc, ReportsProgress):
        return doc.report_progress
    return lambda done: None


# -- big text files: read lazily, converted in chunks ----------------------
class LazyTextSet(BoardSource, Protocol):
    """A big text file opened lazily: one scan of the mapped file, boards decoded on demand
    (:class:`formats.pbn.lazy.LazyPbnSet`, :class:`formats.lin.lazy.LazyLinSet`; their
    :attr:`~model.boardset.BoardSource.kind` is ``PBN_TEXT`` or ``LIN_TEXT``)."""

    def problems_of(self, index: int) -> list[tuple[int | None, str]]: ...
    def line_of(self, index: int) -> int: ...
    def mapped_buffer(self) -> Any: ...
    def data_start(self, index: int) -> int | None: ...


def lazy_text(doc: object) -> str | None:
    """The codec name of a text set still read lazily from its file (``"pbn"``, ``"lin"``), asked through
    any progress wrapper around it; None for any other set (or boards that are no set)."""
    # the kind alone, not ``is_board_source(doc)``: a runtime protocol check walks every member
    # (30-40 us on Python 3.11), and a conversion asks this a dozen times
    kind = getattr(doc, "kind", None)
    return kind.text_codec if isinstance(kind, SetKind) else None


def is_lazy_text(doc: object, codec_name: str | None = None) -> TypeGuard[LazyTextSet]:
    """True when ``doc`` is a text set the codec ``codec_name`` (any text codec: None) reads lazily, still read
    from its file."""
    name = lazy_text(doc)
    return name is not None and codec_name in (None, name)


class TablesFound(Exception):
    """A board number came again: the set may hold tables of a board (two rooms, a traveller), which a format
    of deals writes once.  The chunked pass gives way to the board-by-board one, which sorts them out
    (:func:`convert.distinct_boards`), so both paths always write and report the same."""


class ChunkedConversion(Protocol):
    """A lazily read text set to a fixed-record format a chunk of boards at a time, deals parsed together,
    never a Board a board: the same losses and the same bytes as ``codec.check`` then ``codec.write``.
    Either may raise :class:`TablesFound` (then the board-by-board path takes over) or :class:`Cancelled`."""

    def convert(
        self,
        doc: LazyTextSet,
        dst: str | os.PathLike[str],
        codec: BridgeCodec,
        options: WriteOptions | None,
        progress: ProgressFn | None = None,
    ) -> ConvertResult: ...

    def report(
        self,
        doc: LazyTextSet,
        codec: BridgeCodec,
        options: WriteOptions | None = None,
        progress: ProgressFn | None = None,
    ) -> SaveReport: ...


@runtime_checkable
class ConvertsInChunks(Protocol):
    """A codec whose lazily read sets can go to some fixed-record formats in chunks."""

    def chunked(self, doc: BoardSource, target: BridgeCodec, options: WriteOptions | None) -> ChunkedConversion | None:
        """How ``doc`` (read by this codec) goes to ``target`` in chunks; None when it cannot (edited, another
        target, ``#`` values...)."""
        ...


def converts_in_chunks(codec: object) -> TypeGuard[ConvertsInChunks]:
    """``isinstance(codec, ConvertsInChunks)`` without the runtime protocol check's cost (it works out the
    protocol's members again each time: tens of microseconds, asked three times a conversion): the one
    member, a method, present and not None, as that check asks."""
    return getattr(codec, "chunked", None) is not None


#: the targets of the chunked converter (:mod:`.chunked`): formats whose check is the generic one and whose
#: writer takes ``chunks_from_boards``
FAST_TARGETS = frozenset(("zrd", "zbd"))


def empty_games_loss(count: int) -> str:
    """A save report's words for the games left out for want of cards (``without_empty_games``)."""
    return f"{plural(count, 'game')} without cards"
