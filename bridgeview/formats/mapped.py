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


#: where pages that were cut away are now read as zeros: (device, inode) -> the path the file was mapped as
_cut: dict[tuple[int, int], str] = {}
#: how many times a mapped file was found cut short while it was read, in this process
_faults = 0


def was_cut(device: int, inode: int) -> bool:
    """Whether a mapped page of this file was read after the file was cut short: what was read there is
    zeros, not the file (see the module's docstring)."""
    return (device, inode) in _cut


def fault_count() -> int:
    """A counter to compare with :func:`cut_short_since` after reading mapped files."""
    return _faults


def cut_short_since(count: int) -> FileChangedError | None:
    """The error to give when a mapped file was cut short while read since :func:`fault_count` was ``count``
    (what was read from it then is zeros); None when none was."""
    if _faults == count or not _cut:
        return None
    path = next(reversed(_cut.values()))
    return FileChangedError(None, CUT_WHILE_READ, path)


def _guard(buf: mmap.mmap, path: str, st: os.stat_result) -> None:
    """Have :mod:`.sigbus` turn a read past the end of ``buf``'s file, once cut short, into zeros and a note
    (Linux on 64-bit x86 and ARM, whose signal structures it knows); elsewhere such a read still kills."""
    if not _SIGBUS_GUARDED:
        return
    from . import sigbus

    sigbus.watch(buf, len(buf), lambda: _note_cut(st.st_dev, st.st_ino, path))


def _note_cut(device: int, inode: int, path: str) -> None:
    """Called (from the signal handler) when a read of the file's map went past the file's new end."""
    global _faults
    _faults += 1
    _cut[(device, inode)] = path


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
