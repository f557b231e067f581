"""Pavlicek's file checksum: the sum of all little-endian 32-bit words, as 64 bits."""

from __future__ import annotations

import mmap
import os

import numpy as np


def pavlicek_checksum_bytes(data) -> int:
    """Checksum of a bytes-like object (a trailing partial word is zero-padded)."""
    buf = memoryview(data)
    whole = len(buf) // 4 * 4
    total = int(np.frombuffer(buf[:whole], dtype="<u4").sum(dtype=np.uint64)) if whole else 0
    if whole < len(buf):
        total += int.from_bytes(bytes(buf[whole:]).ljust(4, b"\0"), "little")
    return total & 0xFFFFFFFFFFFFFFFF


def pavlicek_checksum(path: str | os.PathLike) -> int:
    """Checksum of a file, through mmap so a 241 MB file costs no copy."""
    size = os.path.getsize(path)
    if size == 0:
        return 0
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as m:
        total = 0
        step = 1 << 26  # 64 MiB, a multiple of 4
        for start in range(0, size, step):
            total += pavlicek_checksum_bytes(m[start : start + step])
        return total & 0xFFFFFFFFFFFFFFFF
