"""Board sets: the boards of one file plus the file's own data.

A :class:`BoardSet` is a mutable sequence.  :class:`LazyBoardSet` decodes
boards on demand from a fixed-record source (an mmap) and keeps only the
boards the user edited, so a ten-million-deal file costs a few MB.

What every set of boards offers its readers (codecs, checks, the solver, the window) is
:class:`BoardSource`; how it holds its boards is its :class:`SetKind`.  The sets read
whole, the lazy ones, the views of some of a set's records and the progress wrappers
all satisfy it (``tests/test_boardsource.py`` checks each).
"""

from __future__ import annotations

import mmap
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableSequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self, TypeGuard, cast, overload, runtime_checkable

if TYPE_CHECKING:  # (a board is made here only for an unreadable record: a record copy never imports the model)
    from .board import Board


@dataclass
class DupControl:
    """The control bytes of a Duplimate DUP record (Dealer4 appendix A4)."""

    random: bool = False
    backwards: bool = False
    first_board: int = 1
    copies: int | None = None
    last_board: int | None = None


@dataclass
class FileInfo:
    """File-level data: where the boards came from and what the file says of itself."""

    format: str | None = None  # registry name of the codec that read it
    path: str | None = None
    event: str | None = None
    site: str | None = None
    date: str | None = None
    dup: DupControl | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # codec-private (PBN preamble, encoding, ...)
    record_size: int | None = None  # bytes a record, for fixed-record formats
    checksum: int | None = None  # Pavlicek checksum of the file as read

    def header(self) -> dict[str, str | None]:
        """The event, site and date by their PBN tag names (``Event``, ``Site``, ``Date``), as formats write them."""
        return {"Event": self.event, "Site": self.site, "Date": self.date}


#: a problem a reader survived: (board index or None, line or None, message)
ReadProblem = tuple[int | None, int | None, str]


class SetKind(Enum):
    """How a set holds its boards, which decides how it is best written, checked and shown."""

    #: a list of boards in memory (a file read whole, a new set, a lazy set since restructured)
    MEMORY = "memory"
    #: the fixed-size records of a memory-mapped file, decoded on demand (:class:`LazyBoardSet`)
    RECORDS = "records"
    #: a big PBN file, mapped and scanned once, its games decoded on demand
    PBN_TEXT = "pbn"
    #: a big LIN file, likewise
    LIN_TEXT = "lin"
    #: some records of another set, read through to it (a save's boards without their empty games or
    #: other tables); it is lazy or not as that set is, but it is written board by board either way
    SELECTION = "selection"

    @property
    def lazy(self) -> bool:
        """True for the kinds that decode their boards from a mapped file on demand."""
        return self in (SetKind.RECORDS, SetKind.PBN_TEXT, SetKind.LIN_TEXT)

    @property
    def text_codec(self) -> str | None:
        """The name of the text codec whose lazy reader made a set of this kind (``"pbn"``, ``"lin"``), else None."""
        return self.value if self in (SetKind.PBN_TEXT, SetKind.LIN_TEXT) else None


class Boards(Protocol):
    """Boards to read in order or by index: a :class:`BoardSource` (a set and its views), a plain list of boards,
    or only the edited boards of a lazy set; what more a set tells (its file's info, where a board came from)
    is asked of a ``BoardSource``."""

    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Board]: ...
    def __getitem__(self, index: int) -> Board: ...


@runtime_checkable
class Numbered(Protocol):
    """Boards that know the number of each one's record in the file (a set; a lazy set's edited boards)."""

    def record_number(self, index: int) -> int | None: ...


@runtime_checkable
class BoardSource(Protocol):
    """A set of boards, as everything that reads one sees it: the boards (``len``, by index, in order), the
    file's info, the problems its reader survived, how it holds its boards, and where a board came from.

    :class:`BoardSet` and :class:`LazyBoardSet` (and the lazy text sets, subclasses of it) are the sets; the
    views of some of their records and the progress wrappers that count boards as a save takes them are
    sources too, reading through to a set.  A function that takes "a board set" takes a ``BoardSource``.
    """

    @property
    def info(self) -> FileInfo: ...
    @property
    def problems(self) -> list[ReadProblem]: ...
    @property
    def kind(self) -> SetKind: ...
    @property
    def edited(self) -> bool:
        """True when a lazy set holds boards edited since it was read (or was restructured); False for an
        unedited lazy set and for a set held in memory (its changes are the undo stack's to tell)."""
        ...

    @property
    def numbered_by_position(self) -> bool:
        """True while board i is numbered by its position in the file (a lazy set of a format that stores no
        board numbers, unedited): a board each, no two records share a number."""
        ...

    @property
    def uncounted(self) -> BoardSource:
        """The set itself, without any progress counting around it (a writer's extra pass over the boards
        leaves the progress bar be); a set that counts nothing is its own."""
        ...

    def __len__(self) -> int: ...
    def __getitem__(self, index: int) -> Board: ...
    def __iter__(self) -> Iterator[Board]: ...
    def record_offset(self, index: int) -> int | None:
        """Byte offset of board ``index`` in the file, for fixed-record formats (else None)."""
        ...

    def record_number(self, index: int) -> int | None:
        """1-based number of the record where board ``index`` starts in the file (None: not known)."""
        ...


#: what a class needs to be a :class:`BoardSource` (the protocol's members)
_SOURCE_MEMBERS = tuple(name for name in vars(BoardSource) if not name.startswith("_"))
_SOURCE_MEMBERS += ("__len__", "__getitem__", "__iter__")  # (dunders: the filter above leaves them out)
#: the members that are methods: a runtime protocol check also wants them not None on the object
_SOURCE_METHODS = frozenset(name for name in _SOURCE_MEMBERS if callable(getattr(BoardSource, name)))
#: the classes :func:`is_board_source` found to be sources by their own members
_SOURCE_CLASSES: set[type] = set()


def is_board_source(obj: object) -> TypeGuard[BoardSource]:
    """``isinstance(obj, BoardSource)``, faster: a runtime protocol check works out the protocol's members
    again each time (30-40 us on Python 3.11), and a conversion asked it half a dozen times.

    A class with every member of its own is remembered; an object whose members are partly its own
    attributes (a set's ``info`` and ``problems``, set in ``__init__``) has them looked up as the protocol
    check does (each present, a method not None), from the member list made once; an object without them
    is asked of the protocol (a class registered as one)."""
    cls = type(obj)
    if cls in _SOURCE_CLASSES:
        return True
    if all(
        hasattr(obj, name) and (name not in _SOURCE_METHODS or getattr(obj, name) is not None)
        for name in _SOURCE_MEMBERS
    ):
        if all(getattr(cls, name, None) is not None for name in _SOURCE_MEMBERS):
            _SOURCE_CLASSES.add(cls)
        return True
    return isinstance(obj, BoardSource)


class Selection:
    """What every view of some records of another set says of itself (:class:`SetKind` ``SELECTION``); a view
    (``formats.convert.BoardsView``, ``formats.lazytext.EditedBoards``) adds the boards, ``info``, ``problems``
    and where each record is."""

    @property
    def kind(self) -> SetKind:
        return SetKind.SELECTION

    @property
    def edited(self) -> bool:
        """True: a selection is not the file as read (it is never copied byte for byte)."""
        return True

    @property
    def numbered_by_position(self) -> bool:
        return False

    @property
    def uncounted(self) -> Self:
        return self


def find_number(boards: Boards, number: int, board: Callable[[int], Board] | None = None) -> int | None:
    """Index of the board numbered ``number`` in ``boards``; cheap guesses first (its place in a set numbered
    from 1 or from its first board's number), so big lazy sets stay fast, and no scan of more than 200,000
    boards of a lazy set (a jump is not a search of millions of records).  ``board(i)`` reads a board where the
    caller keeps them (the board list's cache); by default ``boards[i]``."""
    at = board if board is not None else boards.__getitem__
    n = len(boards)
    if n == 0:
        return None
    guesses = [number - 1]
    first = at(0).number
    if first is not None:
        guesses.append(number - first)
    for g in guesses:
        if 0 <= g < n and at(g).number == number:
            return g
    if getattr(boards, "is_lazy", False) and n > 200_000:
        return None
    for i, b in enumerate(boards):
        if b.number == number:
            return i
    return None


def lazy_set(source: BoardSource) -> LazyBoardSet | None:
    """The set under ``source`` (through any progress wrapper) when it still decodes its boards on demand."""
    found = source.uncounted
    return found if isinstance(found, LazyBoardSet) and found.kind.lazy else None


@runtime_checkable
class MappedFile(Protocol):
    """What keeps a lazy set's fixed-record file open (``formats.records.Records``): its memory map, when the
    file is mapped (a small file is read into bytes)."""

    @property
    def mmap(self) -> mmap.mmap | None: ...


#: seconds between checks that a memory-mapped file was not cut short under us
CHECK_INTERVAL = 0.05


#: what is said of a mapped file cut short on disk while it was being read (its pages past the new end read as
#: zeros): the reader of the map notices only afterwards
CUT_WHILE_READ = "the file was cut short on disk while it was read; open it again"


class FileChangedError(OSError):
    """The file under a lazily read set changed on disk: its records can no longer be read safely."""

    @property
    def message(self) -> str:
        return str(self.strerror)


def unreadable_message(error: Exception) -> str:
    """Why a record could not be decoded, with the offset of the bad byte when the error names it
    (the record itself is located by whoever shows the board)."""
    message = getattr(error, "message", None) or f"{type(error).__name__}: {error}"
    offset = getattr(error, "offset", None)
    return f"{message} (at offset {offset})" if offset is not None else message


class BoardSet(MutableSequence["Board"]):
    """An in-memory list of boards with the file's info and any read problems."""

    def __init__(self, boards: list[Board] | None = None, info: FileInfo | None = None) -> None:
        self._boards: list[Board] = list(boards or [])
        self.info = info or FileInfo()
        #: problems the reader found but could survive, as (board index or None, line or None, message)
        self.problems: list[ReadProblem] = []

    def __len__(self) -> int:
        return len(self._boards)

    @overload
    def __getitem__(self, index: int) -> Board: ...
    @overload
    def __getitem__(self, index: slice) -> list[Board]: ...
    def __getitem__(self, index: int | slice) -> Board | list[Board]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        return self._boards[index]

    @overload
    def __setitem__(self, index: int, board: Board) -> None: ...
    @overload
    def __setitem__(self, index: slice, board: Iterable[Board]) -> None: ...
    def __setitem__(self, index: int | slice, board: Board | Iterable[Board]) -> None:
        # the overloads pair an index with a board and a slice with boards
        if isinstance(index, slice):
            self._boards[index] = cast("Iterable[Board]", board)
        else:
            self._boards[index] = cast("Board", board)

    def __delitem__(self, index: int | slice) -> None:
        del self._boards[index]

    def insert(self, index: int, board: Board) -> None:
        self._boards.insert(index, board)

    def record_offset(self, index: int) -> int | None:
        """Byte offset of board ``index`` in the file, for fixed-record formats."""
        return None

    def replace_all(self, boards: list[Board]) -> None:
        """Make ``boards`` the whole list (the board-list editor's undo snapshots)."""
        self._boards = list(boards)

    def record_number(self, index: int) -> int | None:
        """1-based number of the record where board ``index`` starts, for fixed-record formats
        (not ``index + 1`` where a board spans several records, as in ZBS)."""
        offset = self.record_offset(index)
        size = self.info.record_size
        if offset is None or not size:
            return None
        return (offset - self.header_size) // size + 1

    @property
    def header_size(self) -> int:
        """Bytes before the first record, for fixed-record formats."""
        return 0

    @property
    def kind(self) -> SetKind:
        return SetKind.MEMORY

    @property
    def is_lazy(self) -> bool:
        """Shorthand for ``kind.lazy``."""
        return self.kind.lazy

    @property
    def edited(self) -> bool:
        return False

    @property
    def numbered_by_position(self) -> bool:
        return False

    @property
    def uncounted(self) -> Self:
        return self


#: mapped pages are given back at least this many bytes at a time (release_pages)
RELEASE_BYTES = 1 << 24


class LazyBoardSet(BoardSet):
    """Boards decoded on demand by ``decode(index)``; edits are kept aside.

    Structural edits (insert/delete) turn it into a plain list first: they are
    rare, and a file the user restructures is one they will save anyway.
    """

    #: the kind of set while its boards are decoded from the file (a lazy text reader's subclass names its own)
    lazy_kind: ClassVar[SetKind] = SetKind.RECORDS

    def __init__(
        self,
        count: int,
        decode: Callable[[int], Board],
        info: FileInfo | None = None,
        *,
        header_size: int = 0,
        keepalive: Any = None,
        bulk: Callable[[], Iterable[Any]] | None = None,
        offsets: Callable[[int], int] | None = None,
        first_number: int | None = None,
        positional: bool = False,
    ) -> None:
        super().__init__([], info)
        self._count = count
        self._decode = decode
        self._edits: dict[int, Board] = {}
        self._materialised = False
        self._header_size = header_size
        #: objects (mmap, file) that must live as long as the set
        self.keepalive = keepalive
        #: a callable returning chunks of bulk records (``formats.bulk.BulkChunk``) for fast conversion, or None
        self.bulk: Callable[[], Iterable[Any]] | None = bulk
        #: byte offset of board i where boards are not one record each (ZBS groups), else None
        self._offsets = offsets
        #: the number of board 0 where the format numbers boards by position (for unreadable records)
        self._first_number = first_number
        #: the format numbers board i ``first_number + i`` (it stores no number of its own)
        self._positional = positional and first_number is not None
        #: (path, device, inode, size) of the mapped file, to notice it being cut short under us
        self._watched: tuple[str, int, int, int] | None = None
        self._checked = -CHECK_INTERVAL
        self._changed: FileChangedError | None = None
        self._was_cut: Callable[[], bool] | None = None
        self._released = 0  # mapped bytes given back (release_pages)

    def __len__(self) -> int:
        return len(self._boards) if self._materialised else self._count

    @overload
    def __getitem__(self, index: int) -> Board: ...
    @overload
    def __getitem__(self, index: slice) -> list[Board]: ...
    def __getitem__(self, index: int | slice) -> Board | list[Board]:
        if self._materialised:
            return super().__getitem__(index)
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        board = self._edits.get(index)
        if board is not None:
            return board
        try:
            self.check_unchanged()
            board = self._decode(index)
            self.check_not_cut()  # (a page cut away while it was read reads as zeros: not this board)
            return board
        except Exception as e:
            return self.unreadable_board(index, e)

    def watch(self, path: str, was_cut: Callable[[], bool] | None = None) -> None:
        """Remember ``path``'s identity and size: the records are read through a memory map, and
        reading a page of a file another program has since cut short kills the process (SIGBUS).
        A stat every :data:`CHECK_INTERVAL` notices most; ``was_cut()`` (the mapping layer's, for the
        set's own map) tells when a read between two looks went past the end, read as zeros instead.
        Bulk reading is guarded too."""
        try:
            st = os.stat(path)
        except OSError:
            return
        self._watched = (path, st.st_dev, st.st_ino, st.st_size)
        self._was_cut = was_cut
        bulk = self.bulk
        if bulk is not None:

            def guarded() -> Iterator[Any]:
                self._checked = -CHECK_INTERVAL
                self.check_unchanged()
                for chunk in bulk():
                    self.check_not_cut()  # (before the chunk goes anywhere: it may hold zeros for records)
                    yield chunk
                    self._checked = -CHECK_INTERVAL  # a chunk is a quarter of a million records: always look
                    self.check_unchanged()

            self.bulk = guarded

    @property
    def cut_short(self) -> FileChangedError | None:
        """Why the file under this set can no longer be read (it shrank in place once opened), once seen: the
        boards read since then stand in as unreadable ones, which a window shows; a command that wrote them out
        would report garbage as a success."""
        return self._changed

    def check_unchanged(self) -> None:
        """Raise (a FormatError-like ``OSError``) when the watched file shrank in place since it was opened.
        A file replaced by a rename is fine: the map keeps the old one."""
        if self._watched is None:
            return
        if self._changed is not None:  # once cut short, never read the map again
            raise self._changed
        self.check_not_cut()
        now = time.monotonic()
        if now - self._checked < CHECK_INTERVAL:  # a stat a board would slow a ten-million-board pass
            return
        self._checked = now
        path, dev, ino, size = self._watched
        try:
            st = os.stat(path)
        except OSError:
            return  # deleted: the map keeps the data
        if (st.st_dev, st.st_ino) == (dev, ino) and st.st_size < size:
            self._changed = FileChangedError(
                None,
                f"the file was cut short on disk after it was opened ({st.st_size:,} of {size:,} bytes left); "
                "open it again",
                path,
            )
            raise self._changed

    def check_not_cut(self) -> None:
        """Raise as :meth:`check_unchanged` does when a read of the map went past the file's end since it was
        cut short (see :meth:`watch`): what was read there is zeros, not records."""
        was_cut = self._was_cut
        if was_cut is None or self._watched is None:
            return
        if self._changed is not None:
            raise self._changed
        if was_cut():
            path = self._watched[0]
            self._changed = FileChangedError(None, CUT_WHILE_READ, path)
            raise self._changed

    def unreadable_board(self, index: int, error: Exception) -> Board:
        """The stand-in for record ``index`` that failed to decode: numbered, no cards, and
        marked with the reason, which the board list, ``validate`` and the Details tab show."""
        from .board import Board

        message = unreadable_message(error)
        if self._first_number is None:
            return Board(unreadable=message)
        return Board.numbered(self._first_number + index, unreadable=message)

    @overload
    def __setitem__(self, index: int, board: Board) -> None: ...
    @overload
    def __setitem__(self, index: slice, board: Iterable[Board]) -> None: ...
    def __setitem__(self, index: int | slice, board: Board | Iterable[Board]) -> None:
        if isinstance(index, slice):  # replacing a run of boards restructures the list, as inserting does
            self._materialise()
            super().__setitem__(index, cast("Iterable[Board]", board))
            return
        board = cast("Board", board)  # the overloads pair an index with a board
        if self._materialised:
            super().__setitem__(index, board)
            return
        if index < 0:
            index += self._count
        self._edits[index] = board

    def _materialise(self) -> None:
        if not self._materialised:
            self._boards = [self[i] for i in range(self._count)]
            self._materialised = True
            self.bulk = None

    def __delitem__(self, index: int | slice) -> None:
        self._materialise()
        super().__delitem__(index)

    def insert(self, index: int, board: Board) -> None:
        self._materialise()
        super().insert(index, board)

    def replace_all(self, boards: list[Board]) -> None:
        self._materialise()
        super().replace_all(boards)

    @property
    def kind(self) -> SetKind:
        return SetKind.MEMORY if self._materialised else self.lazy_kind

    @property
    def header_size(self) -> int:
        return self._header_size

    @property
    def edits(self) -> Mapping[int, Board]:
        """The boards edited since the file was read, by position (kept aside from the records; read only)."""
        return self._edits

    @property
    def edited(self) -> bool:
        return bool(self._edits) or self._materialised

    @property
    def numbered_by_position(self) -> bool:
        """True while board i is numbered :attr:`first_number` + i by its format (one that stores no board
        numbers): no two unedited records share a number, so each is a board with one table, and only
        :meth:`edited_positions` can be tables of another board (:func:`model.tables.set_tables`)."""
        return self._positional and not self._materialised

    @property
    def first_number(self) -> int | None:
        """The number of board 0 where the format numbers boards by position, else None."""
        return self._first_number

    def as_read(self, index: int) -> Board:
        """Board ``index`` as the file holds it, whether or not the user has edited it since."""
        return self._decode(index)

    def edited_positions(self) -> list[int]:
        """The positions of the boards edited since the file was read (kept aside from the records)."""
        return sorted(self._edits)

    def data_start(self, index: int) -> int | None:
        """Where board ``index``'s data starts in the mapped file (None: not known)."""
        return self.record_offset(index)

    def mapped_buffer(self) -> Any:
        """The mapped file the boards are decoded from (None: none)."""
        return self.keepalive.mmap if isinstance(self.keepalive, MappedFile) else None

    def release_pages(self, upto: int) -> None:
        """Give back the mapped pages of the boards before ``upto`` (they stay in the page cache), some
        megabytes at a time: a pass over a file of gigabytes then holds a part of it, not all of it.  A
        board asked for again is read back from the page cache."""
        advise = getattr(self.mapped_buffer(), "madvise", None)
        if advise is None or not hasattr(mmap, "MADV_DONTNEED") or self._materialised or upto >= len(self):
            return
        start = self.data_start(upto)
        if start is None:
            return
        end = start // mmap.PAGESIZE * mmap.PAGESIZE
        if end - self._released >= RELEASE_BYTES:
            try:
                advise(mmap.MADV_DONTNEED, self._released, end - self._released)
            except (OSError, ValueError):
                return
            self._released = end

    def record_offset(self, index: int) -> int | None:
        if self._materialised or self.info.record_size is None:
            return None
        if self._offsets is not None:
            return self._offsets(index)
        return self._header_size + index * self.info.record_size

    def __iter__(self) -> Iterator[Board]:
        for i in range(len(self)):
            yield self[i]
