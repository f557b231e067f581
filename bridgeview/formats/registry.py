"""The format registry: the one list of the codecs the app ships, and the app asks here.

A codec is one object per format (a subclass of :class:`Codec`) listed in its
module's ``CODECS`` tuple; :data:`SHIPPED` names each, with its module, in the
order the formats are sniffed, and the module is imported when the codec is first needed.
"""

from __future__ import annotations

import importlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ..model.boardset import BoardSet, LazyBoardSet
from . import mapped
from .atomic import check_target, save_atomically
from .codec import AnyCodec, Boards, BridgeCodec, Content, ReadOptions, WriteOptions, check_error
from .errors import FormatError

if TYPE_CHECKING:
    from ..model.cribbage import CribbageRecord

SNIFF_BYTES = 4096


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
    ("lin.codec", "lin", ("lin",)),
    ("pavlicek.zbd", "zbd", ("zbd",)),
    ("pavlicek.zbd", "zdd", ("zdd",)),
    ("pavlicek.zbd", "zrd", ("zrd",)),
    ("pavlicek.zbs", "zbs", ("zbs",)),
    ("pavlicek.zrj", "zrj", ("zrj",)),
    ("pavlicek.zrj", "zrj16", ("zrj",)),
    ("pbn.codec", "pbn", ("pbn",)),
)

_CODECS: dict[str, AnyCodec] = {}
_LOADED = False
#: the format modules imported so far (their codecs registered)
_IMPORTED: set[str] = set()
#: how many codecs there were when they were last put in order
_ORDERED = 0
#: each shipped codec's place in :data:`SHIPPED`
_PLACE = {name: i for i, (_module, name, _extensions) in enumerate(SHIPPED)}


def register(codec: AnyCodec) -> AnyCodec:
    """Add a codec from outside the shipped list (a test's, a plug-in's): it comes before the shipped ones."""
    if not codec.name:
        raise ValueError("a codec needs a name")
    _CODECS[codec.name] = codec
    return codec


def _import(modules: Iterable[str]) -> None:
    """Import the format ``modules`` and register their codecs, keeping every codec in its place: those
    registered from outside first, then the shipped ones in the order of :data:`SHIPPED`."""
    global _ORDERED
    added = len(_CODECS) != _ORDERED  # a codec registered from outside since (or put in by a test)
    for name in dict.fromkeys(modules):
        if name in _IMPORTED:
            continue
        module = importlib.import_module(f"{__package__}.{name}")
        _IMPORTED.add(name)
        added = True
        for codec in module.CODECS:
            _CODECS[codec.name] = codec
    if not added:  # (every look-up of a conversion comes here: nothing to put in order again)
        return
    order = sorted(_CODECS.values(), key=lambda c: _PLACE.get(c.name, -1))
    _CODECS.clear()
    _CODECS.update((c.name, c) for c in order)
    _ORDERED = len(_CODECS)


def _load() -> None:
    """Every shipped codec registered."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        _import(module for module, _name, _extensions in SHIPPED)


#: the modules :func:`_load_for` imports for a key (a conversion looks a few up half a dozen times)
_MODULES_FOR: dict[str, set[str]] = {}


def _load_for(key: str) -> None:
    """Import what finding the codec named ``key``, or the codecs of extension ``key``, needs: the one
    module the list names; every module when it names none or several."""
    if _LOADED:
        return
    modules = _MODULES_FOR.get(key)
    if modules is None:
        if len(_MODULES_FOR) > 256:  # (keys are names and extensions asked for: a session asks few)
            _MODULES_FOR.clear()
        modules = _MODULES_FOR[key] = {m for m, name, extensions in SHIPPED if key == name or key in extensions}
    if len(modules) == 1:
        _import(modules)
    else:
        _load()


def all_codecs() -> list[AnyCodec]:
    _load()
    return list(_CODECS.values())


def get(name: str) -> AnyCodec:
    key = name.lower().lstrip(".")
    _load_for(key)
    if key in _CODECS:
        return _CODECS[key]
    matches = [c for c in _CODECS.values() if key in c.extensions]
    if len(matches) == 1:
        return matches[0]
    _load()
    raise FormatError(f"unknown format {name!r} (known: {', '.join(sorted(_CODECS))})")


def by_extension(path: str | os.PathLike[str]) -> list[AnyCodec]:
    ext = Path(path).suffix.lower().lstrip(".")
    _load_for(ext)
    return [c for c in _CODECS.values() if ext in c.extensions]


def detect(path: str | os.PathLike[str]) -> AnyCodec:
    """The codec for ``path``: by content among its extension's codecs, else by content alone.

    A pipe or a device (``<(command)``, a FIFO, ``/dev/stdin``) is refused: its first bytes, read here, are gone
    when the reader opens it again (a PBN lost its first boards, and a FIFO whose writer had gone waited for
    ever); with the format named (``--from``) it is read once."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode) and not os.path.isdir(path):
            raise FormatError(
                "not a regular file (a pipe or a device): its format cannot be told without reading it twice; "
                "name the format (--from FMT) or save it to a file first",
                path=str(path),
            )
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


def read_file(path: str | os.PathLike[str], fmt: str | None = None, options: ReadOptions | None = None) -> Content:
    """Read ``path`` with the named codec or the detected one.  A pipe or a device, which can be read only once
    (:func:`detect` refuses it), is copied to a temporary file first (:func:`_spooled`)."""
    codec = get(fmt) if fmt else detect(path)
    if not os.path.exists(path):
        raise FormatError("no such file", path=str(path))
    if _is_stream(path):
        return _read_spooled(path, codec, options)
    return _read(path, codec, options)


def _is_stream(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is something read once (a FIFO, ``<(command)``'s pipe, a device), not a file."""
    try:
        return not stat.S_ISREG(os.stat(path).st_mode) and not os.path.isdir(path)
    except OSError:
        return False


def _read_spooled(path: str | os.PathLike[str], codec: AnyCodec, options: ReadOptions | None) -> Content:
    """Read a pipe or a device through a copy in a temporary file, named as the input in what is said.  Readers
    open a file more than once (to look at its first bytes, then to read it; ``info`` for its checksum; a save
    of an unchanged binary set copies its file again): a named FIFO whose writer had gone then waited for ever,
    and a conversion from ``<(command)`` to its own format wrote an empty file, exit 0.  The copy is deleted at
    once and read through ``/proc/self/fd`` (gone with the process, however it ends); where there is no such
    folder it is deleted when the process exits.  :func:`readable_path` names it."""
    import tempfile

    try:
        source = open(path, "rb")
    except OSError as e:
        raise FormatError(e.strerror or str(e), path=str(path)) from None
    with source:
        try:
            fd, name = tempfile.mkstemp(prefix="bridgeview-input-", suffix=Path(path).suffix)
        except OSError as e:
            raise FormatError(f"{e.strerror or e} (its copy in {tempfile.gettempdir()})", path=str(path)) from None
        copy = f"/proc/self/fd/{fd}"
        if os.path.exists(copy):
            os.unlink(name)  # (at once: the descriptor keeps it, and a killed command leaves nothing behind)
        else:
            import atexit

            copy = name
            atexit.register(_remove, name)
        try:
            _copy_into(source, fd, path, os.path.dirname(name))
        except BaseException:
            os.close(fd)
            _remove(name)
            raise
        if copy == name:
            os.close(fd)
    try:
        doc = _read(copy, codec, options)
    except FormatError as e:
        if e.path == copy:
            e.path = str(path)
        raise
    if isinstance(doc, BoardSet):
        doc.info.path = str(path)
        doc.info.extra[_READ_FROM] = copy
    return doc


def _copy_into(source: IO[bytes], fd: int, path: str | os.PathLike[str], folder: str) -> None:
    """``source`` (the pipe ``path``) copied into the file open at ``fd`` (in ``folder``); the failures named:
    reading is the input's, writing its copy's (a full temporary folder is not the input's fault)."""
    with open(fd, "wb", closefd=False) as out:
        while True:
            try:
                piece = source.read(1 << 20)
            except OSError as e:
                raise FormatError(e.strerror or str(e), path=str(path)) from None
            if not piece:
                return
            try:
                out.write(piece)
                out.flush()
            except OSError as e:
                raise FormatError(f"{e.strerror or e} (its copy in {folder})", path=str(path)) from None


#: ``info.extra``'s key for where a set read from a pipe can be read again (:func:`readable_path`)
_READ_FROM = "registry.read_from"


def readable_path(doc: object, path: str | os.PathLike[str]) -> str:
    """Where the bytes ``doc`` (a set, or what a view shows of one) was read from ``path`` can be read again:
    ``path`` itself, or, for a pipe or a device, the copy :func:`read_file` made of it (a second open of a FIFO
    waits for a writer that is gone)."""
    extra = getattr(getattr(doc, "info", None), "extra", None)
    copy = extra.get(_READ_FROM) if isinstance(extra, dict) else None
    return copy if isinstance(copy, str) else str(path)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _read(path: str | os.PathLike[str], codec: AnyCodec, options: ReadOptions | None) -> Content:
    """:func:`read_file` of a file."""
    faults = mapped.fault_count()
    try:
        doc = codec.read(path, options or ReadOptions())
        cut = mapped.cut_short_since(faults)  # (what the reader took for the file's end or its errors is zeros)
        if cut is not None:
            raise cut
    except FormatError as e:
        cut = mapped.cut_short_since(faults)
        if cut is not None:
            raise FormatError(cut.message, path=str(path)) from None
        if _empty(path) and "empty" not in e.message:  # a format that needs a header: say the plain reason
            raise FormatError(f"{EMPTY_FILE}; {codec.title} files are never empty", path=str(path)) from None
        if e.path is None:
            e.path = str(path)
        raise
    except MemoryError as e:
        raise FormatError(str(e) or "out of memory", path=str(path)) from None
    except OSError as e:
        raise FormatError(e.strerror or str(e), path=str(path)) from None
    if not isinstance(doc, BoardSet):  # a cribbage game
        return doc
    doc.info.format = codec.name
    doc.info.path = str(path)
    from . import verbatim

    verbatim.remember(doc, codec, path)
    if isinstance(doc, LazyBoardSet):  # a memory-mapped set: notice the file being cut short under it
        doc.watch(str(path), mapped.cut_probe(path))
    if not len(doc) and _empty(path):  # opens, but not without a word
        from ..model.problem import Problem, error  # (an empty file's note: most reads never make a problem)

        doc.problems.insert(0, Problem(None, None, error("file.empty", EMPTY_FILE)))
    return doc


#: the reader's problem for a file of 0 bytes (it opens as an empty set, to which boards can be added)
EMPTY_FILE = "the file is empty (0 bytes)"


def _empty(path: str | os.PathLike[str]) -> bool:
    try:
        return os.path.getsize(path) == 0
    except OSError:
        return False


def write_file(
    doc: Boards | CribbageRecord,
    path: str | os.PathLike[str],
    fmt: str | None = None,
    options: WriteOptions | None = None,
    *,
    force: bool = False,
) -> AnyCodec:
    """Write ``doc`` to ``path`` atomically; the codec is named or chosen by extension.

    Raises FormatError when the codec's check reports errors (nothing is written), or when
    ``path`` is write-protected and not ``force``.
    """
    codec = get(fmt) if fmt else _codec_for_output(path)
    if not codec.can_write:
        raise FormatError(f"{codec.title} files can be read but not written", path=str(path))
    opts = options or WriteOptions()
    check_target(path, force)
    from ..model.cribbage import CribbageRecord
    from . import verbatim

    if isinstance(codec, BridgeCodec) and not isinstance(doc, CribbageRecord):
        report = codec.check(doc, opts)
        if report.errors:
            raise check_error(doc, path, report.errors[0])
        bridge = codec
        save_atomically(
            path, verbatim.original_writer(doc, codec, opts) or (lambda f: bridge.write(doc, f, opts)), force=force
        )
    elif not isinstance(codec, BridgeCodec) and isinstance(doc, CribbageRecord):
        cribbage = codec
        save_atomically(path, lambda f: cribbage.write(doc, f, opts), force=force)
    else:
        what = "a cribbage game" if isinstance(doc, CribbageRecord) else "bridge boards"
        raise FormatError(f"{codec.title} files cannot hold {what}", path=str(path))
    return codec


def _codec_for_output(path: str | os.PathLike[str]) -> AnyCodec:
    cands = by_extension(path)
    if not cands:
        raise FormatError("cannot tell the output format from the extension; use --to", path=str(path))
    return cands[0]


def codec_for_output(path: str | os.PathLike[str], fmt: str | None = None) -> AnyCodec:
    return get(fmt) if fmt else _codec_for_output(path)
