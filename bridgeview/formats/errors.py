"""The one error type readers and writers raise for bad input."""

from __future__ import annotations


class FormatError(Exception):
    """Bad input, located: ``record 17 (offset 2176): bad card code 0x3f``.

    ``record`` is 1-based as users count; ``line`` is a 1-based text line.
    The CLI prints ``bridgeview: PATH: <str(error)>``; the GUI shows the same.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        record: int | None = None,
        offset: int | None = None,
        line: int | None = None,
        board: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.record = record
        self.offset = offset
        self.line = line
        self.board = board

    def where(self) -> str:
        parts = []
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.record is not None:
            rec = f"record {self.record}"
            if self.offset is not None:
                rec += f" (offset {self.offset})"
            parts.append(rec)
        elif self.offset is not None:
            parts.append(f"offset {self.offset}")
        if self.board is not None:
            parts.append(f"board {self.board}")
        return ", ".join(parts)

    def __str__(self) -> str:
        w = self.where()
        return f"{w}: {self.message}" if w else self.message

    def full(self) -> str:
        """``PATH: where: message``, the one line users see."""
        return f"{self.path}: {self}" if self.path else str(self)
