"""Files read through a memory map: :func:`map_file`, the one place a file is mapped, and :func:`release`.

Big files are never read into memory: the fixed-record codecs (:mod:`.records`) and the lazy
text readers (PBN, LIN) map them read-only and read the pages they need; a pass over a file of
gigabytes gives the pages it has read back as it goes (:func:`release`).
"""

from __future__ import annotations

import mmap
import os
import stat
from typing import Any


def map_file(path: str | os.PathLike[str]) -> Any:
    """The file's bytes as a read-only mmap (``b""`` for an empty file); the file itself is closed again
    (the map keeps its data).  A pipe or a device (``--from zbd <(command)``), which cannot be mapped and says
    it is empty, is read whole: it read as no records at all, exit 0.  Raises ``OSError`` (or ``ValueError``
    for what cannot be mapped)."""
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            return f.read()
        if st.st_size == 0:
            return b""
        return mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)


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
