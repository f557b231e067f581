"""Pavlicek's file checksum: the sum of all little-endian 32-bit words, as 64 bits."""

from __future__ import annotations

import array
import os
import struct
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from io import RawIOBase

    import numpy as np
    from typing_extensions import Buffer


#: bytes read at a time: small enough to stay in cache and keep the process small
#: (a 241 MB file costs no more memory than a tiny one), large enough to amortise the calls
CHUNK = 1 << 20  # a multiple of 8
MASK64 = (1 << 64) - 1
#: files up to this size are summed without numpy when it is not imported yet: importing it
#: (about 0.1 s) costs more than summing a megabyte's words in plain Python (a 1,000-board PBN is 260 KB)
SMALL = 1 << 20


def sum_words(buf: np.ndarray) -> int:
    """Exact sum of the little-endian 32-bit words of ``buf`` (length a multiple of 8).

    Summing native 64-bit words needs no widening cast: with ``hi`` the sum of
    the upper halves, the wrapped 64-bit total minus ``hi << 32`` is the sum of the
    lower halves, exactly, as long as that sum stays below 2**64 (for
    chunks up to 2**32 words)."""
    import numpy as np

    words = buf.view("<u8")
    hi = int(np.add.reduce(words >> np.uint64(32), dtype=np.uint64))
    wrapped = int(np.add.reduce(words, dtype=np.uint64))
    lo = (wrapped - (hi << 32)) & MASK64
    return lo + hi


def tail_sum(tail: bytes) -> int:
    """Sum of up to 7 trailing bytes as zero-padded 32-bit words."""
    padded = tail.ljust((len(tail) + 3) // 4 * 4, b"\0")
    return sum(int.from_bytes(padded[i : i + 4], "little") for i in range(0, len(padded), 4))


def pavlicek_checksum_bytes(data: Buffer) -> int:
    """Checksum of a bytes-like object (a trailing partial word is zero-padded)."""
    import numpy as np

    buf = np.frombuffer(memoryview(data).cast("B"), dtype=np.uint8)
    total = 0
    whole = len(buf) // 8 * 8
    for start in range(0, whole, CHUNK):
        total += sum_words(buf[start : min(start + CHUNK, whole)])
    total += tail_sum(bytes(buf[whole:]))
    return total & MASK64


def _fill(f: RawIOBase, view: memoryview) -> int:
    """Read until ``view`` is full or the file ends (a raw read may return less)."""
    got = 0
    while got < len(view):
        n = f.readinto(view[got:])
        if not n:
            break
        got += n
    return got


def _small_sum(data: bytes) -> int:
    """The checksum of up to a megabyte in plain Python (a trailing partial word is zero-padded)."""
    padded = data.ljust((len(data) + 3) // 4 * 4, b"\0")
    words = array.array("I")
    if words.itemsize != 4:  # pragma: no cover - no platform Python runs on today
        unpacked: tuple[int, ...] = struct.unpack(f"<{len(padded) // 4}I", padded)
        return sum(unpacked) & MASK64
    words.frombytes(padded)
    if sys.byteorder != "little":  # pragma: no cover - the words are little-endian in the file
        words.byteswap()
    return sum(words) & MASK64


def pavlicek_checksum(path: str | os.PathLike[str]) -> int:
    """Checksum of a file, read through one reused 1 MiB buffer: a 241 MB file
    takes tens of milliseconds from the page cache and keeps nothing resident.
    A small file (``bridgeview info small.pbn``) is summed in plain Python, without importing numpy."""
    if os.path.getsize(path) <= SMALL and "numpy" not in sys.modules:
        with open(path, "rb") as f:
            data = f.read(SMALL + 1)
        if len(data) <= SMALL:  # it may have grown since
            return _small_sum(data)
    import numpy as np

    buf = np.empty(CHUNK, dtype=np.uint8)
    view = buf.data  # the buffer's memoryview
    total = 0
    with open(path, "rb", buffering=0) as f:
        while True:
            got = _fill(f, view)
            whole = got // 8 * 8
            if whole:
                total += sum_words(buf[:whole])
            if got < CHUNK:
                total += tail_sum(bytes(buf[whole:got]))
                break
    return total & MASK64
