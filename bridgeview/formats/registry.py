"""The format registry: the one list of the codecs the app ships, and the app asks here.

A codec is one object per format (a subclass of :class:`Codec`) listed in its
module's ``CODECS`` tuple; :data:`SHIPPED` names each, with its module, in the
order the formats are sniffed, and the module is imported when the codec is first needed.
"""

from __future__ import annotations

import importlib
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Protocol

from ..model.text import plural
from ..model.vulnerability import dealer_for_board, vulnerability_for_board
from .errors import FormatError

if TYPE_CHECKING:
    from ..model.board import Board
    from ..model.boardset import FileInfo

SNIFF_BYTES = 4096


class Boards(Protocol):
    """The boards a save check reads: a board set, a list, or only the edited boards of a lazy set."""

    def __len__(self) -> int: ...
    def __iter__(self) -> Iterator[Board]: ...
    def __getitem__(self, index: int) -> Board: ...


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


class Codec:
    """One file format.  Subclasses set the class attributes and override
    :meth:`read`/:meth:`write`; fixed-record formats may add bulk methods."""

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

    def read(self, path: str | os.PathLike[str], options: ReadOptions | None = None) -> Any:
        raise NotImplementedError

    def write(self, doc: Any, out: IO[bytes], options: WriteOptions | None = None) -> None:
        raise NotImplementedError

    def check(self, boards: Boards, options: WriteOptions | None = None) -> SaveReport:
        """What writing ``boards`` would lose; codecs extend this with their own limits."""
        start = options.start_board if options is not None and options.start_board is not None else 1
        return generic_check(self, boards, start=start)

    # -- optional bulk path for fixed-record formats -------------------
    #: True when read_bulk/write_bulk are implemented
    bulk: bool = False

    def read_bulk(self, path: str | os.PathLike[str], chunk: int = 1 << 18) -> Iterator[Any]:
        """Yield :class:`bridgeview.formats.bulk.BulkChunk` s of the file's records."""
        raise NotImplementedError

    def write_bulk(self, chunks: Iterable[Any], out: IO[bytes], options: WriteOptions | None = None) -> int:
        """Write chunks; return the number of records written."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<codec {self.name}>"


def generic_check(codec: Codec, boards: Boards, *, dealer_vul: bool = True, start: int = 1) -> SaveReport:
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
    info = getattr(boards, "info", None)
    for i, b in enumerate(boards):
        rep.errors.extend(record_errors(codec, boards, i, b))
        if b.unreadable:
            continue
        where = f"board {b.number}" if b.number is not None else f"record {i + 1}"
        if not caps.full_deals and not caps.partial_deals:  # a format of results alone (ZDD) drops the deal
            dealt += bool(b.deal.card_count)
        if caps.max_board is not None and b.number is not None and b.number > caps.max_board:
            rep.errors.append(f"{where}: {codec.title} holds board numbers up to {caps.max_board}")
        if dealer_vul and not caps.dealer_vul and not _follows_number(b, start + i):
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
    header = info is not None and any(_meaningful(v) for v in (info.event, info.site, info.date)) and not caps.header
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


def record_errors(codec: Codec, boards: Boards, index: int, board: Board) -> list[str]:
    """Why ``codec`` cannot store the record at ``index`` at all, whatever the rest of the set: it stands in
    for a record that could not be read (writing it would lose the record), or its cards are not a deal the
    format holds."""
    if board.unreadable:
        return [unreadable_error(boards, index, board.unreadable)]
    if not codec.caps.full_deals and not codec.caps.partial_deals:  # a format of results alone drops the deal
        return []
    return deal_errors(codec, board, f"board {board.number}" if board.number is not None else f"record {index + 1}")


def deal_errors(codec: Codec, board: Any, where: str) -> list[str]:
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
    offset = boards.record_offset(index) if hasattr(boards, "record_offset") else None
    record = boards.record_number(index) if hasattr(boards, "record_number") else None
    where = f"record {record or index + 1}" + (f" (offset {offset})" if offset is not None else "")
    return f"{where}: {UNREADABLE}: {why}; fix or delete that board first"


def check_error(doc: Any, target: str | os.PathLike[str], message: str) -> FormatError:
    """The error for a save that ``check`` refuses: located in the target, or in the source file
    when the trouble is a record of the source that could not be read."""
    source = getattr(getattr(doc, "info", None), "path", None)
    return FormatError(message, path=source if source and f": {UNREADABLE}: " in message else str(target))


def _follows_number(board: Board, position: int) -> bool:
    """True when the board's dealer and vulnerability are what its number (else its position) implies."""
    number = board.number if board.number is not None and board.number > 0 else position
    return (board.dealer is None or board.dealer == dealer_for_board(number)) and (
        board.vulnerability is None or board.vulnerability == vulnerability_for_board(number)
    )


def board_tags(board: Board, info: FileInfo | None) -> dict[str, str]:
    """The board's tags worth reporting as lost: not placeholders, and not an Event/Site/Date
    that only repeats the file's header (PBN copies it onto every board; the header has its own line)."""
    header = {k: getattr(info, k.lower(), None) for k in ("Event", "Site", "Date")} if info is not None else {}
    return {
        k: v for k, v in board.tags.items() if _meaningful(v) and header.get(k) != v and k != "Auction:rest"
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


def _meaningful(value: str | None) -> bool:
    """False for empty values and PBN's placeholders for "unknown" (``?``, ``#``, ``????.??.??``)."""
    return bool(value) and bool(str(value).strip("?.#- "))


# -- the registry -------------------------------------------------------
#: Every codec the app ships, in the one order in which they are sniffed (a tie in :func:`detect` goes to the
#: earlier), listed (``bridgeview formats``, the Save As filters) and looked up by extension: the module that
#: defines and registers it (under ``bridgeview.formats``), its name and its extensions.  A module is
#: imported when one of its codecs is first needed: a command that names its formats, or whose files'
#: extensions do, imports only their modules (``convert a.zrd b.zbd`` the Pavlicek one, not the PBN, LIN and
#: cribbage readers: a third of its start-up); every module when all codecs are (detecting a file by content,
#: listing the formats).  tests/test_registry.py checks this list against the modules' own ``CODECS``.
SHIPPED: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("exchange", "ber", ("ber",)),
    ("exchange", "bhg", ("bhg",)),
    ("exchange", "cds", ("cds",)),
    ("exchange", "csv", ("csv",)),
    ("exchange", "rzd", ("rzd",)),
    ("swiftbridge", "deals", ("deals",)),
    ("swiftbridge", "dx", ("dx",)),
    ("duplimate.dlm", "dlm", ("dlm",)),
    ("duplimate.bri", "bri", ("bri",)),
    ("duplimate.bri", "dge", ("dge",)),
    ("duplimate.bri", "bre", ("bre",)),
    ("duplimate.bri", "dup", ("dup",)),
    ("halscrib", "halscrib", ("crib", "hal", "cb64")),
    ("lin.read", "lin", ("lin",)),
    ("pavlicek.zbd", "zbd", ("zbd",)),
    ("pavlicek.zbd", "zdd", ("zdd",)),
    ("pavlicek.zbd", "zrd", ("zrd",)),
    ("pavlicek.zbs", "zbs", ("zbs",)),
    ("pavlicek.zrj", "zrj", ("zrj",)),
    ("pavlicek.zrj", "zrj16", ("zrj",)),
    ("pbn.codec", "pbn", ("pbn",)),
)

_CODECS: dict[str, Codec] = {}
_LOADED = False
#: the format modules imported so far (their codecs registered)
_IMPORTED: set[str] = set()
#: each shipped codec's place in :data:`SHIPPED`
_PLACE = {name: i for i, (_module, name, _extensions) in enumerate(SHIPPED)}


def register(codec: Codec) -> Codec:
    """Add a codec from outside the shipped list (a test's, a plug-in's): it comes before the shipped ones."""
    if not codec.name:
        raise ValueError("a codec needs a name")
    _CODECS[codec.name] = codec
    return codec


def _import(modules: Iterable[str]) -> None:
    """Import the format ``modules`` and register their codecs, keeping every codec in its place: those
    registered from outside first, then the shipped ones in the order of :data:`SHIPPED`."""
    for name in dict.fromkeys(modules):
        if name in _IMPORTED:
            continue
        module = importlib.import_module(f"{__package__}.{name}")
        _IMPORTED.add(name)
        for codec in module.CODECS:
            _CODECS[codec.name] = codec
    order = sorted(_CODECS.values(), key=lambda c: _PLACE.get(c.name, -1))
    _CODECS.clear()
    _CODECS.update((c.name, c) for c in order)


def _load() -> None:
    """Every shipped codec registered."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        _import(module for module, _name, _extensions in SHIPPED)


def _load_for(key: str) -> None:
    """Import what finding the codec named ``key``, or the codecs of extension ``key``, needs: the one
    module the list names; every module when it names none or several."""
    if _LOADED:
        return
    modules = {module for module, name, extensions in SHIPPED if key == name or key in extensions}
    if len(modules) == 1:
        _import(modules)
    else:
        _load()


def all_codecs() -> list[Codec]:
    _load()
    return list(_CODECS.values())


def get(name: str) -> Codec:
    key = name.lower().lstrip(".")
    _load_for(key)
    if key in _CODECS:
        return _CODECS[key]
    matches = [c for c in _CODECS.values() if key in c.extensions]
    if len(matches) == 1:
        return matches[0]
    _load()
    raise FormatError(f"unknown format {name!r} (known: {', '.join(sorted(_CODECS))})")


def by_extension(path: str | os.PathLike[str]) -> list[Codec]:
    ext = Path(path).suffix.lower().lstrip(".")
    _load_for(ext)
    return [c for c in _CODECS.values() if ext in c.extensions]


def detect(path: str | os.PathLike[str]) -> Codec:
    """The codec for ``path``: by content among its extension's codecs, else by content alone."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as f:
            head = f.read(SNIFF_BYTES)
    except OSError as e:
        raise FormatError(e.strerror or str(e), path=str(path)) from None
    candidates = by_extension(path)
    if len(candidates) == 1 and candidates[0].sniff(head, size) > 0:
        return candidates[0]
    _load()  # by content: every codec
    # among the extension's codecs first; then every codec by content, but a file
    # whose extension names another format must be recognised with confidence
    sure = 50 if candidates else 1
    for pool, threshold in ((candidates, 1), (list(_CODECS.values()), sure)):
        best = max(pool, key=lambda c: c.sniff(head, size), default=None)
        if best is not None and best.sniff(head, size) >= threshold:
            return best
    if candidates:
        return candidates[0]
    raise FormatError("cannot tell what format this file is", path=str(path))


def read_file(path: str | os.PathLike[str], fmt: str | None = None, options: ReadOptions | None = None) -> Any:
    """Read ``path`` with the named codec or the detected one."""
    codec = get(fmt) if fmt else detect(path)
    if not os.path.exists(path):
        raise FormatError("no such file", path=str(path))
    try:
        doc = codec.read(path, options or ReadOptions())
    except FormatError as e:
        if _empty(path) and "empty" not in e.message:  # a format that needs a header: say the plain reason
            raise FormatError(f"{EMPTY_FILE}; {codec.title} files are never empty", path=str(path)) from None
        if e.path is None:
            e.path = str(path)
        raise
    except (OSError, MemoryError) as e:
        raise FormatError(getattr(e, "strerror", None) or str(e), path=str(path)) from None
    info = getattr(doc, "info", None)
    if info is not None:
        info.format = codec.name
        info.path = str(path)
        from . import verbatim

        verbatim.remember(doc, codec, path)
    if hasattr(doc, "watch"):  # a memory-mapped set: notice the file being cut short under it
        doc.watch(str(path))
    problems = getattr(doc, "problems", None)
    if isinstance(problems, list) and not len(doc) and _empty(path):  # opens, but not without a word
        problems.insert(0, (None, None, EMPTY_FILE))
    return doc


#: the reader's problem for a file of 0 bytes (it opens as an empty set, to which boards can be added)
EMPTY_FILE = "the file is empty (0 bytes)"


def _empty(path: str | os.PathLike[str]) -> bool:
    try:
        return os.path.getsize(path) == 0
    except OSError:
        return False


def write_protected(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` (through any symlinks) is an existing file its owner marked read-only
    (no write bit) or that we may not write: a rename would replace it all the same."""
    real = os.path.realpath(path)
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return False
    return not mode & 0o222 or not os.access(real, os.W_OK)


def check_target(path: str | os.PathLike[str], force: bool = False) -> None:
    """Refuse (FormatError) to replace a write-protected ``path`` unless ``force``; call it before
    long work too, so a conversion or a solve does not run only to be refused at the end."""
    if not force and write_protected(path):
        raise FormatError("the file is write-protected; not replaced (--force replaces it)", path=str(path))


#: how our temporary files are named: ``.NAME.`` + mkstemp's eight characters + ``.part``
_PART_SUFFIX = ".part"


def _part_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(name)}\.[a-z0-9_]{{8}}{re.escape(_PART_SUFFIX)}")


def _lock(fd: int) -> bool:
    """Take an exclusive lock on ``fd`` without waiting; True when taken (or locks are unavailable)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: an open file cannot be deleted there anyway
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def clean_stale_parts(target: Path) -> list[str]:
    """Delete temporary files a killed save to ``target`` left behind (``.NAME.XXXXXXXX.part``).

    A save holds a lock on its temporary file until the file is renamed, so a part file we can
    lock belongs to no running save.  Returns the names removed."""
    directory = target.parent if str(target.parent) else Path(".")
    pattern = _part_pattern(target.name)
    removed: list[str] = []
    try:
        names = [n for n in os.listdir(directory) if pattern.fullmatch(n)]
    except OSError:
        return removed
    for name in names:
        part = directory / name
        try:
            fd = os.open(part, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if _lock(fd) and os.path.isfile(part):
                os.unlink(part)
                removed.append(name)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


def save_atomically(path: str | os.PathLike[str], write: Callable[[IO[bytes]], object], *, force: bool = False) -> None:
    """Call ``write(fileobj)`` on a temporary file beside ``path``, then rename it
    over ``path``; on any failure the target is untouched and the temporary removed.

    A symlink is followed: the file it points to is replaced and the link stays a link.
    A write-protected target is refused unless ``force``.  Part files a killed earlier
    save to the same target left behind are removed first."""
    target = Path(os.path.realpath(path))
    check_target(target, force)
    directory = target.parent
    clean_stale_parts(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=_PART_SUFFIX, dir=directory)
    except OSError as e:  # name the target, not the temporary file the user never asked for
        raise FormatError(e.strerror or str(e), path=str(path)) from None
    try:
        _lock(fd)  # held until the rename: another save's clean-up leaves this file alone
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
            if target.exists():
                try:
                    os.chmod(tmp, target.stat().st_mode & 0o7777)
                except OSError:
                    pass
            else:
                os.chmod(tmp, 0o644)
            os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(e, OSError) and not isinstance(e, BrokenPipeError):
            raise FormatError(e.strerror or str(e), path=str(path)) from None
        raise


def write_file(
    doc: Any,
    path: str | os.PathLike[str],
    fmt: str | None = None,
    options: WriteOptions | None = None,
    *,
    force: bool = False,
) -> Codec:
    """Write ``doc`` to ``path`` atomically; the codec is named or chosen by extension.

    Raises FormatError when the codec's check reports errors (nothing is written), or when
    ``path`` is write-protected and not ``force``.
    """
    codec = get(fmt) if fmt else _codec_for_output(path)
    if not codec.can_write:
        raise FormatError(f"{codec.title} files can be read but not written", path=str(path))
    opts = options or WriteOptions()
    check_target(path, force)
    if codec.kind == "bridge":
        report = codec.check(doc, opts)
        if report.errors:
            raise check_error(doc, path, report.errors[0])
    from . import verbatim

    save_atomically(
        path, verbatim.original_writer(doc, codec, opts) or (lambda f: codec.write(doc, f, opts)), force=force
    )
    return codec


def _codec_for_output(path: str | os.PathLike[str]) -> Codec:
    cands = by_extension(path)
    if not cands:
        raise FormatError("cannot tell the output format from the extension; use --to", path=str(path))
    return cands[0]


def codec_for_output(path: str | os.PathLike[str], fmt: str | None = None) -> Codec:
    return get(fmt) if fmt else _codec_for_output(path)
