"""Peak memory of a piece of work, measured the same way whatever ran before it in the process.

``tracemalloc`` counts a block freed onto one of CPython's free lists (tuples of each size keep up to
2000, floats, dicts, frames…) as still allocated where it was first made: a pass that refills free
lists an earlier test emptied, or a full collection partway through that empties them, moves its
peak by hundreds of kilobytes.  A test comparing the peaks of a small and a big run (a cost a
board) saw that as a cost that grew with the file and failed on a worker whose earlier tests left
the lists otherwise.  :func:`traced_peak` starts every measurement from empty free lists (a full
collection clears them) and with the collector's counts at zero, so the same work gives the same
peak.
"""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def traced_peak(work: Callable[[], T]) -> tuple[int, T]:
    """The most memory ``work()`` held at once (bytes, beyond what was held before it) and its result."""
    gc.collect()  # empties the free lists and sets the collector's counts to zero
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        result = work()
        return tracemalloc.get_traced_memory()[1] - base, result
    finally:
        tracemalloc.stop()
