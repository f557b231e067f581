"""Conversion between any two formats, vectorised between fixed-record ones.

Shared by ``bridgeview convert`` and the GUI's Save As, so both say the same
things about what a target format cannot hold.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Any, TypeGuard, overload

from ..model.boardset import BoardSet, BoardSource, FileInfo, ReadProblem, Selection, SetKind, is_board_source, lazy_set
from ..model.text import plural
from .atomic import check_target, save_atomically
from .codec import (
    FAST_TARGETS,
    AnyCodec,
    BridgeCodec,
    Cancelled,
    ChunkedConversion,
    ConvertResult,
    LazyTextSet,
    ProgressFn,
    ReadOptions,
    TablesFound,
    WriteOptions,
    check_error,
    converts_in_chunks,
    empty_games_loss,
    is_lazy_text,
    lazy_text,
    record_errors,
)
from .errors import FormatError
from .registry import codec_for_output, detect, get, read_file
from .verbatim import original_writer

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from ..model.board import Board
    from ..model.cribbage import CribbageRecord
    from ..model.tables import Conflict
    from .bulk import BulkChunk


def convert_file(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    *,
    from_fmt: str | None = None,
    to_fmt: str | None = None,
    start_board: int | None = None,
    progress: ProgressFn | None = None,
    force: bool = False,
) -> ConvertResult:
    """Convert ``src`` to ``dst``; raise FormatError (writing nothing) if a board
    cannot be stored in the target, or if ``dst`` is write-protected and not ``force``."""
    check_target(dst, force)
    src_codec = get(from_fmt) if from_fmt else detect(src)
    dst_codec = codec_for_output(dst, to_fmt)
    if not dst_codec.can_write:
        raise FormatError(f"{dst_codec.title} files can be read but not written", path=str(dst))
    if src_codec.kind != dst_codec.kind:
        raise FormatError(f"cannot convert a {src_codec.kind} file to {dst_codec.title}", path=str(dst))
    wopts = WriteOptions(start_board=start_board)
    ropts = ReadOptions(start_board=start_board)
    if src_codec.bulk and dst_codec.bulk and start_board is None and src_codec.name != dst_codec.name:
        return _convert_bulk(src, dst, src_codec, dst_codec, wopts, progress, force)
    doc = _read_for(src, src_codec, dst_codec, ropts, wopts)
    result = write_document(doc, dst, dst_codec, wopts, progress, count_boards=True, force=force)
    result.notices.extend(ignored_options(doc))
    return result


#: text files from this size on (bytes) are read lazily when they go to a format the chunked converter writes
#: (ZRD, ZBD): the chunked pass is the fastest way there at every size measured, from 1,000 boards
#: (bench/bench_convert_sizes.py, docs/bench-converters.md); below it, and for any other target, the codec's
#: own choice (a whole read under 8 MiB).  Tests set it high to compare the two paths.
CHUNKS_FROM_BYTES = 0


def _read_for(
    src: str | os.PathLike[str], src_codec: AnyCodec, dst_codec: AnyCodec, ropts: ReadOptions, wopts: WriteOptions
) -> BoardSet | CribbageRecord:
    """``src`` read for a conversion to ``dst_codec``: lazily, whatever its size, when it can then go in chunks
    (a PBN or LIN file to ZRD or ZBD); else as the codec reads it."""
    name = src_codec.name
    if (
        converts_in_chunks(src_codec)
        and dst_codec.name in FAST_TARGETS
        and os.path.isfile(src)  # (else the reader says what is wrong with it)
        and os.path.getsize(src) >= CHUNKS_FROM_BYTES
    ):
        doc = read_file(src, name, ReadOptions(start_board=ropts.start_board, lazy=True))
        if (
            not is_board_source(doc)
            or not isinstance(dst_codec, BridgeCodec)
            or lazy_text(doc) is None
            or chunked_text(doc, dst_codec, wopts) is not None
        ):
            return doc
        # the lazy set cannot go in chunks (``#`` values, say): board by board, a set read whole is faster
    return read_file(src, name, ropts)


def ignored_options(doc: BoardSource | CribbageRecord) -> list[str]:
    """Sentences saying which read options the file overrode (``--start-board`` on a DUP file)."""
    info = doc.info if is_board_source(doc) else None
    note = info.extra.get("start_board_ignored") if info is not None and info.extra else None
    return [note] if note else []


def without_empty_games(doc: BoardSource, codec: BridgeCodec, *, chunked: bool = True) -> tuple[BoardSource, int]:
    """``doc`` without its games that hold no cards (a PBN game with only a ``[Scoring]`` tag), and how
    many were left out, when ``codec`` stores only deals; such games are skipped with a notice rather
    than failing the whole save.  A set where no game has cards is left as it is (the check refuses it).
    ``chunked=False``: the chunked converter, which leaves them out itself, gave way or is not used."""
    if codec.kind != "bridge" or not codec.caps.deals_required:
        return doc, 0
    if doc.kind.lazy and not doc.edited:
        if _lazy_text(doc):
            return _lazy_without_empty_games(doc, codec, chunked=chunked)
        return doc, 0  # fixed records: every record is a deal (or, in ZDD, none is)
    keep = [i for i, b in enumerate(doc) if b.deal.card_count or b.unreadable]  # unreadable: the check refuses it
    dropped = len(doc) - len(keep)
    if not dropped or not keep:
        return doc, 0
    return BoardsView(doc, keep), dropped  # messages still name the records of the file


def one_table_each(doc: BoardSource, codec: AnyCodec) -> bool:
    """True when ``codec`` may write ``doc``'s records as they come: the format holds tables, or no board of
    ``doc`` has two (a lazy set numbered by position, unedited, cannot; any other set is looked at)."""
    if codec.caps.tables or (doc.numbered_by_position and not doc.edited):
        return True
    from ..model.tables import set_tables  # (most sets are answered above: the module is not imported)

    tables = set_tables(doc)
    return not tables.repeated and not tables.conflicts


def _lazy_text(doc: BoardSource) -> TypeGuard[LazyTextSet]:
    """A big PBN or LIN file read lazily: its games are decoded on demand and may hold no cards."""
    return is_lazy_text(doc)


def chunked_text(doc: BoardSource, codec: BridgeCodec, options: WriteOptions | None) -> ChunkedConversion | None:
    """How ``doc`` goes to ``codec`` in chunks, deals parsed together (a big PBN or LIN file read lazily, to ZRD
    or ZBD: what its codec, a :class:`~.codec.ConvertsInChunks`, offers), or None."""
    name = lazy_text(doc)
    source = get(name) if name is not None else None
    return source.chunked(doc, codec, options) if converts_in_chunks(source) else None


def _lazy_without_empty_games(doc: BoardSource, codec: BridgeCodec, *, chunked: bool = True) -> tuple[BoardSource, int]:
    """:func:`without_empty_games` for a lazily read text file: one streaming pass notes the games
    without cards (their positions only), and the boards left are a lazy view, never a list of them.
    ``chunked=False``: the chunked converter gave way (a board has several tables), so they are looked for here."""
    if chunked and chunked_text(doc, codec, None) is not None:
        return doc, 0  # the chunked converter leaves them out itself, as it goes
    empty = [i for i, b in enumerate(doc) if not b.deal.card_count and not b.unreadable]
    if not empty or len(empty) == len(doc):
        return doc, 0
    return WithoutGames(doc, empty), len(empty)


class BoardsView(Selection):
    """Some records of a board set, read through to the set on demand (the boards of a million-game file are
    not held); a :class:`~model.boardset.BoardSource` of kind ``SELECTION``."""

    def __init__(self, doc: BoardSource, kept: Sequence[int] | NDArray[Any]) -> None:
        self.doc = doc
        self.info: FileInfo = doc.info
        self.problems: list[ReadProblem] = list(doc.problems)
        self._kept = kept

    def __len__(self) -> int:
        return len(self._kept)

    @overload
    def __getitem__(self, i: int) -> Board: ...
    @overload
    def __getitem__(self, i: slice) -> list[Board]: ...
    def __getitem__(self, i: int | slice) -> Board | list[Board]:
        if isinstance(i, slice):  # writers take their boards a chunk at a time
            return [self.doc[int(k)] for k in self._kept[i]]
        return self.doc[int(self._kept[i])]

    def __iter__(self) -> Iterator[Board]:
        return (self.doc[int(i)] for i in self._kept)

    def record_offset(self, i: int) -> int | None:
        return self.doc.record_offset(int(self._kept[i]))

    def record_number(self, i: int) -> int | None:
        """The record's number in the file read (messages name the source's records)."""
        found = self.doc.record_number(int(self._kept[i]))
        return found if found is not None else int(self._kept[i]) + 1


class WithoutGames(BoardsView):
    """A lazy board set with some games left out."""

    def __init__(self, doc: BoardSource, left_out: list[int]) -> None:
        import numpy as np

        keep = np.ones(len(doc), dtype=bool)
        keep[np.asarray(left_out, dtype=np.int64)] = False
        super().__init__(doc, np.flatnonzero(keep))


def distinct_boards(
    doc: BoardSource, codec: BridgeCodec, options: WriteOptions | None = None
) -> tuple[BoardSource, str | None, list[str]]:
    """``doc`` as ``codec`` will hold it: each board once when the format holds deals, not tables (the
    other room of a team match, a traveller's other tables: :mod:`model.tables`).  Returns the boards,
    the notice that says so (``15 boards from 30 tables``, None when every board has one table) and the
    errors that refuse the save: a board number that holds different deals (one deal a number is written,
    and which one is not for us to guess).  A record the format cannot store at all is named before such
    a board, as a converter going through the file meets it (the chunked one does)."""
    if codec.kind != "bridge" or codec.caps.tables:
        return doc, None, []
    if doc.numbered_by_position and not doc.edited:
        return doc, None, []  # (through a progress wrapper) a lazy set numbered by position: a board each
    from ..model.tables import DEAL, set_tables

    tables = set_tables(doc)
    errors = [_conflict_error(doc, c, codec) for c in tables.conflicts if c.what == DEAL]
    if not errors and not tables.repeated:
        return doc, None, []
    view = _records_view(doc, _with_unreadable(doc, tables.board_records()))
    if errors:
        unstorable = (e for i in range(len(view)) for e in record_errors(codec, view, i, view[i]))
        return doc, None, [*itertools.islice(unstorable, 1), *errors]
    return view, tables.summary(), []


def _with_unreadable(doc: BoardSource, kept: NDArray[Any]) -> NDArray[Any]:
    """The records ``kept`` (the first table of each board), and any other that cannot be read: the reader
    could not tell what it holds, so it is no table of an earlier board but a record the check refuses (as the
    chunked converter, which meets it on its way, does)."""
    import numpy as np

    left_out = np.setdiff1d(np.arange(len(doc)), kept, assume_unique=True)
    unread = [i for i in left_out.tolist() if doc[i].unreadable]
    return np.union1d(kept, unread) if unread else kept


def _records_view(doc: BoardSource, kept: NDArray[Any]) -> BoardsView:
    """The records ``kept`` of ``doc``, read through to it: messages still name the records of the file (a set
    read whole too: the third record is record 3, not the second of those kept)."""
    return BoardsView(doc, kept)


def _conflict_error(doc: BoardSource, conflict: Conflict, codec: BridgeCodec) -> str:
    """The save error for a board number whose records hold different deals."""
    from ..model.tables import record_name

    first, other = (record_name(doc, i) for i in (conflict.first, conflict.index))
    number = doc[conflict.index].number
    return (
        f"board {number} holds different deals in {first} and {other}; {codec.title} writes each board once "
        f"(fix the deal, or number the deals apart: bridgeview convert --renumber)"
    )


def tables_loss(notice: str) -> str:
    """A save report's words for the tables a format of deals does not keep (``notice``: ``15 boards from 30
    tables``)."""
    return f"the other tables of each board: {notice}"


def read_losses(doc: BoardSource | CribbageRecord) -> list[str]:
    """What a save cannot keep because reading could not take it: a truncated copy's broken last record."""
    info = doc.info if is_board_source(doc) else None
    tail = info.extra.get("broken_tail") if info is not None else None
    return [f"the unreadable end of the file ({tail})"] if tail else []


def forget_read_losses(doc: BoardSource | CribbageRecord) -> None:
    """After a save the document is the file just written, whose end is whole."""
    if not is_board_source(doc):
        return
    tail = doc.info.extra.pop("broken_tail", None)
    if tail:
        doc.problems[:] = [p for p in doc.problems if p[2] != tail]


class CountedBoards:
    """A view of a board set that reports how far a codec's check or writer has got.

    Board ``i`` taken counts as step ``base + i + 1`` of ``total``; a False from the
    progress function cancels.  Everything else is the set's own (a
    :class:`~model.boardset.BoardSource`, its :attr:`uncounted` the set itself)."""

    EVERY = 64  # boards between reports

    def __init__(self, boards: BoardSource, progress: ProgressFn, base: int, total: int) -> None:
        self._boards = boards
        self._progress = progress
        self._base = base
        self._total = total

    def _report(self, done: int) -> None:
        if self._progress(self._base + done, self._total) is False:
            raise Cancelled()

    def report_progress(self, done: int) -> None:
        """A writer that takes the boards its own way (in chunks) tells how far it has got."""
        self._report(done)

    @property
    def info(self) -> FileInfo:
        return self._boards.info

    @property
    def problems(self) -> list[ReadProblem]:
        return self._boards.problems

    @property
    def kind(self) -> SetKind:
        return self._boards.kind

    @property
    def edited(self) -> bool:
        return self._boards.edited

    @property
    def numbered_by_position(self) -> bool:
        return self._boards.numbered_by_position

    def record_offset(self, index: int) -> int | None:
        return self._boards.record_offset(index)

    def record_number(self, index: int) -> int | None:
        return self._boards.record_number(index)

    def __len__(self) -> int:
        return len(self._boards)

    def __getitem__(self, index: int) -> Board:
        if isinstance(index, int) and index % self.EVERY == 0:
            self._report(index if index >= 0 else len(self._boards) + index)
        return self._boards[index]

    def __iter__(self) -> Iterator[Board]:
        for i, board in enumerate(self._boards):
            if i % self.EVERY == 0:
                self._report(i)
            yield board

    @property
    def uncounted(self) -> BoardSource:
        """The set itself, for a writer's extra pass over it that should not move the progress bar."""
        return self._boards.uncounted

    def __getattr__(self, name: str) -> Any:
        """What a lazy set offers its own format's writer beyond a :class:`BoardSource` (its index, its mapped
        file, its edits), passed through: the writer takes the set through this view so that it can report
        progress (:func:`~.codec.progress_of`)."""
        return getattr(self._boards, name)


def write_document(
    doc: BoardSource | CribbageRecord,
    dst: str | os.PathLike[str],
    codec: AnyCodec,
    options: WriteOptions | None = None,
    progress: ProgressFn | None = None,
    *,
    count_boards: bool = False,
    force: bool = False,
) -> ConvertResult:
    """Check and write an open document (the GUI's Save As comes here too).

    With ``count_boards`` the progress function hears how far the check (the first
    half) and the writer (the second half) have got, board by board; callers that
    wrap the document themselves (the GUI) leave it off."""
    options = options or WriteOptions()
    result = ConvertResult(codec)
    if not is_board_source(doc) or not isinstance(codec, BridgeCodec):
        if not isinstance(doc, BoardSource) and not isinstance(codec, BridgeCodec):  # a cribbage game (narrowed)
            game, cribbage = doc, codec
            save_atomically(dst, lambda f: cribbage.write(game, f, options), force=force)
            return result
        kind = "bridge" if is_board_source(doc) else "cribbage"
        raise FormatError(f"cannot convert a {kind} file to {codec.title}", path=str(dst))
    doc, dropped = without_empty_games(doc, codec)
    checked: BoardSource = doc
    written: BoardSource = doc
    unchanged = original_writer(doc, codec, options)
    if unchanged is not None:  # an unchanged binary file back to its own format: the bytes as read
        save_atomically(dst, unchanged, force=force)
        result.records = len(doc)
        if progress:
            progress(result.records, result.records)
        return result
    if codec.kind == "bridge":
        chunked = chunked_text(doc, codec, options)
        if chunked is not None and _lazy_text(
            doc
        ):  # a big PBN or LIN file to ZRD/ZBD: in chunks, deals parsed together
            try:
                return chunked.convert(doc, dst, codec, options, progress)
            except TablesFound:  # a board number came again: the tables are sorted out board by board below,
                doc, dropped = without_empty_games(doc, codec, chunked=False)  # without the games it skipped
        lazy = lazy_set(doc)
        if lazy is not None and codec.bulk and lazy.bulk and not lazy.edited and one_table_each(doc, codec):
            result = write_bulk_chunks(lazy.bulk(), len(doc), dst, codec, options, progress, force)
            result.losses[:0] = read_losses(doc)
            return result
        doc, notice, errors = distinct_boards(doc, codec)
        if errors:
            raise check_error(doc, dst, errors[0])
        if notice:
            result.notices.append(notice)
        checked, written = doc, doc
        if progress and count_boards:
            n = len(doc)
            checked = CountedBoards(doc, progress, 0, 2 * n)
            written = CountedBoards(doc, progress, n, 2 * n)
        report = codec.check(checked, options)
        if report.errors:
            raise check_error(doc, dst, report.errors[0])
        result.losses = read_losses(doc) + ([empty_games_loss(dropped)] if dropped else []) + report.losses
        result.records = len(doc)
    save_atomically(dst, lambda f: codec.write(written, f, options), force=force)
    if progress:
        total = 2 * result.records if count_boards else result.records
        progress(total, total)
    return result


def _convert_bulk(
    src: str | os.PathLike[str],
    dst: str | os.PathLike[str],
    src_codec: AnyCodec,
    dst_codec: AnyCodec,
    options: WriteOptions,
    progress: ProgressFn | None,
    force: bool = False,
) -> ConvertResult:
    doc = read_file(src, src_codec.name)
    if not is_board_source(doc) or not one_table_each(
        doc, dst_codec
    ):  # a board twice (a format that stores numbers): written once
        return write_document(doc, dst, dst_codec, options, progress, count_boards=True, force=force)
    total = len(doc)
    lazy = lazy_set(doc)
    chunks = (
        lazy.bulk() if lazy is not None and lazy.bulk else src_codec.read_bulk(src)
    )  # the records as opened: not mapped twice
    result = write_bulk_chunks(chunks, total, dst, dst_codec, options, progress, force)
    result.losses[:0] = read_losses(doc)
    return result


def write_bulk_chunks(
    chunks: Iterable[BulkChunk],
    total: int,
    dst: str | os.PathLike[str],
    codec: AnyCodec,
    options: WriteOptions,
    progress: ProgressFn | None,
    force: bool = False,
) -> ConvertResult:
    import numpy as np

    from .bulk import steady_heap

    result = ConvertResult(codec)
    caps = codec.caps
    dd_dropped = 0
    numbers_lost = False
    start = options.start_board if options.start_board is not None else 1

    def checked() -> Iterator[BulkChunk]:
        nonlocal dd_dropped, numbers_lost
        done = 0
        for chunk in chunks:
            if caps.full_deals and not caps.partial_deals:
                bad = ~chunk.complete()
                if bad.any():
                    i = int(np.argmax(bad))
                    num = int(chunk.numbers[i]) if chunk.numbers is not None else done + i + 1
                    raise FormatError(
                        f"board {num} is not a complete deal; {codec.title} stores only full deals", path=str(dst)
                    )
            if caps.max_board is not None and chunk.numbers is not None and (chunk.numbers > caps.max_board).any():
                i = int(np.argmax(chunk.numbers > caps.max_board))
                raise FormatError(
                    f"board {int(chunk.numbers[i])}: {codec.title} holds board numbers up to {caps.max_board}",
                    path=str(dst),
                )
            known = chunk.known_dd_rows() if not caps.dd else None
            if known is not None:
                dd_dropped += int(known.sum())
            if chunk.numbers is not None and not caps.board_numbers:
                expect = np.arange(start + done, start + done + len(chunk))
                numbers_lost = numbers_lost or bool((chunk.numbers != expect).any())
            done += len(chunk)
            if progress and progress(done, total) is False:
                raise Cancelled()
            yield chunk

    def write(f: IO[bytes]) -> None:
        steady_heap()
        result.records = codec.write_bulk(checked(), f, options)

    if caps.max_records is not None and total > caps.max_records:
        raise FormatError(f"{codec.title} holds at most {caps.max_records} boards; this set has {total}", path=str(dst))
    save_atomically(dst, write, force=force)
    from .records import BulkCount

    if isinstance(result.records, BulkCount):  # what the codec's own bulk writer dropped
        result.losses.extend(result.records.losses)
    if dd_dropped:
        result.losses.append(f"double-dummy results of {plural(dd_dropped, 'board')}")
    if numbers_lost:
        result.losses.append(f"board numbers (boards will be numbered from {start} when read back)")
    return result
