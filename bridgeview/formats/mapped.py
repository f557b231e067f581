"""Files read through a memory map: :func:`map_file`, the one place a file is mapped, and :func:`release`.

Big files are never read into memory: the fixed-record codecs (:mod:`.records`) and the lazy
text readers (PBN, LIN) map them read-only and read the pages they need; a pass over a file of
gigabytes gives the pages it has read back as it goes (:func:`release`).

A mapped file another program cuts short (saving it in place: truncate, then write) makes the
next read of a page past its new end kill the process with SIGBUS: a window lost every tab's
unsaved work, a command ended in "Bus error" with no word of which file, leaving its output's
temporary file.  Where the process can say so (Linux), a handler puts zeros in place of the
pages that are gone and notes the file (:func:`cut_short_since`, :func:`was_cut`); the readers
then take what they read as the file changed under them, and a save reading it is not kept.
"""

from __future__ import annotations

import mmap
import os
import stat
import sys
import threading
from collections.abc import Callable
from typing import Any

from ..model.boardset import CUT_WHILE_READ, FileChangedError


def map_file(path: str | os.PathLike[str]) -> Any:
    """The file's bytes as a read-only mmap (``b""`` for an empty file); the file itself is closed again (the
    map keeps its data).  A pipe or a device
    (``--from zbd <(command)``), which cannot be mapped and says it is empty, is read whole: it read as no
    records at all, exit 0.  Raises ``OSError`` (or ``ValueError`` for what cannot be mapped)."""
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            return f.read()
        if st.st_size == 0:
            return b""
        buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    _guard(buf, os.fspath(path), st)
    return buf


class _Mapping:
    """One map of a file, and whether a read of it went past the file's end once the file was cut short (what
    was read there, and from it since, is zeros).  Its own: the same file mapped again (opened again once
    saved in place) is a new map, and reads as the file."""

    __slots__ = ("path", "cut")

    def __init__(self, path: str) -> None:
        self.path = path
        self.cut = False


#: the newest map of each file: (device, inode) -> its mapping (see :func:`cut_probe`)
_newest: dict[tuple[int, int], _Mapping] = {}
#: the maps found cut short, in order, for the messages
_cut: list[_Mapping] = []
#: faults mended, by the thread that made them: a read happens in the thread that asked for it, so a save
#: looks at its own thread's (another tab's file cut short meanwhile is not this save's trouble)
_faults: dict[int, int] = {}


def cut_probe(path: str | os.PathLike[str]) -> Callable[[], bool] | None:
    """For the newest map of the file at ``path``: a function telling whether a read of that map went past the
    file's end since the file was cut short (see the module's docstring); None when it is not mapped."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    mapping = _newest.get((st.st_dev, st.st_ino))
    if mapping is None:
        return None
    return lambda: mapping.cut


def fault_count() -> int:
    """A counter of this thread's reads past a cut file's end, to compare with :func:`cut_short_since`."""
    return _faults.get(threading.get_ident(), 0)


def cut_short_since(count: int | None) -> FileChangedError | None:
    """The error to give when, since :func:`fault_count` was ``count``, this thread read a mapped file that was cut
    short (what it read there is zeros); with ``count`` None, when any thread ever did.  None when none did."""
    if not _cut:
        return None
    if count is not None and _faults.get(threading.get_ident(), 0) == count:
        return None
    return FileChangedError(None, CUT_WHILE_READ, _cut[-1].path)


def _guard(buf: mmap.mmap, path: str, st: os.stat_result) -> None:
    """Have :mod:`.sigbus` turn a read past the end of ``buf``'s file, once cut short, into zeros and a note
    (Linux on 64-bit x86 and ARM, whose signal structures it knows); elsewhere such a read still kills."""
    if not _SIGBUS_GUARDED:
        return
    from . import sigbus

    mapping = _newest[(st.st_dev, st.st_ino)] = _Mapping(path)
    sigbus.watch(buf, len(buf), lambda: _note_cut(mapping))


def _note_cut(mapping: _Mapping) -> None:
    """Called (from the signal handler, in the thread that read) when a read of a map went past its file's end."""
    thread = threading.get_ident()
    _faults[thread] = _faults.get(thread, 0) + 1
    if not mapping.cut:
        mapping.cut = True
        _cut.append(mapping)


_SIGBUS_GUARDED = sys.platform == "linux" and os.uname().machine in ("x86_64", "aarch64")


#: maps smaller than this keep their pages (the size from which the viewer reads a text file lazily): giving
#: back a small file's pages saves no memory worth having, and costs system calls and the page faults of the
#: next pass over them (a conversion of 1,000 boards indexes the file, then reads it: 70 us of 3.7 ms)
RELEASE_FROM = 8 << 20


def release(buf: mmap.mmap | bytes | None, a: int, b: int) -> None:
    """Give back the mapped pages of ``buf[a:b]`` (they stay in the page cache): a scan of a
    file of gigabytes then holds a chunk of it at a time, not all of it.  A small map keeps them."""
    if buf is None or len(buf) < RELEASE_FROM:
        return
    advise = getattr(buf, "madvise", None)
    if advise is None or not hasattr(mmap, "MADV_DONTNEED"):
        return
    a = a // mmap.PAGESIZE * mmap.PAGESIZE
    b = b // mmap.PAGESIZE * mmap.PAGESIZE
    if b > a:
        try:
            advise(mmap.MADV_DONTNEED, a, b - a)
        except (OSError, ValueError):
            pass
