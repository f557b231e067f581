"""What the lazy text readers (PBN, LIN) share: the encoding scan, a board's line, the edited boards.

A big text file is mapped (:func:`mapped.map_file`), scanned once with numpy for where its boards
start, and its boards are decoded on demand by the format's own reader; what does not depend on
the format is here, so that neither family's lazy reader goes through the other's.
"""

from __future__ import annotations

import codecs
import mmap
from collections.abc import Iterable, Iterator
from typing import Protocol

from ..model.board import Board
from ..model.boardset import FileInfo, LazyBoardSet, ReadProblem, Selection
from .mapped import release
from .textcheck import EIGHT_BIT

#: bytes decoded at a time by :func:`text_encoding`
SCAN_CHUNK = 1 << 24


class LinesOfBoards(Protocol):
    """A lazily read text set that tells the line each board is reported at."""

    @property
    def is_lazy(self) -> bool: ...
    def __len__(self) -> int: ...
    def line_of(self, index: int) -> int: ...


def text_encoding(buf: mmap.mmap | bytes, start: int) -> str:
    """UTF-8 or 8-bit text (Windows-1252), as :func:`textcheck.decode_text` decides for text
    that is not all ASCII, without decoding the whole file into one string."""
    n = len(buf)
    dec = codecs.getincrementaldecoder("utf-8")()
    try:
        for a in range(start, n, SCAN_CHUNK):
            dec.decode(buf[a : a + SCAN_CHUNK], final=a + SCAN_CHUNK >= n)
            release(buf, start, a)
        dec.decode(b"", final=True)
    except UnicodeDecodeError:
        return EIGHT_BIT
    return "utf-8"


class LazyLines:
    """``info.extra["board_lines"]`` of a lazy set: a board's line, found by decoding it."""

    def __init__(self, doc: LinesOfBoards) -> None:
        self._doc = doc

    def get(self, i: int, default: int | None = None) -> int | None:
        doc = self._doc
        if not doc.is_lazy or not 0 <= i < len(doc):
            return default
        return doc.line_of(i)

    def __getitem__(self, i: int) -> int:
        value = self.get(i)
        if value is None:
            raise KeyError(i)
        return value


class EditedBoards(Selection):
    """The edited boards of a lazy set, for a text codec's check (PBN, LIN): the rest is written as read.
    ``also``: untouched boards the check must see all the same (a LIN board that cannot be read, which the check
    refuses).  A :class:`~model.boardset.BoardSource` of kind ``SELECTION``."""

    def __init__(self, doc: LazyBoardSet, also: Iterable[int] = ()) -> None:
        self._doc = doc.uncounted  # (taking a board here moves no progress bar)
        self._indices = sorted({*doc.edits, *also})
        self.info: FileInfo = doc.info
        self.problems: list[ReadProblem] = [p for p in doc.problems if p[0] is None]  # the file's own, not a board's

    def __len__(self) -> int:
        return len(self._indices)

    def __getitem__(self, k: int) -> Board:
        return self._doc[self._indices[k]]

    def __iter__(self) -> Iterator[Board]:
        return (self._doc[i] for i in self._indices)

    def record_offset(self, k: int) -> int | None:
        return self._doc.record_offset(self._indices[k])

    def record_number(self, k: int) -> int:
        """The record's number in the file (a save error names the record of the file)."""
        return self._indices[k] + 1
