"""The one error type readers and writers raise for bad input."""

from __future__ import annotations

import re

#: an error message longer than this is cut in the middle: it may quote a 5,000-character token
MESSAGE_LIMIT = 300


def clip_message(message: str) -> str:
    """``message`` cut to about :data:`MESSAGE_LIMIT` characters, keeping its start and end."""
    if len(message) <= MESSAGE_LIMIT:
        return message
    return message[: MESSAGE_LIMIT - 80] + " … " + message[-60:]


_DIGITS = re.compile(r"Exceeds the limit \(\d+ digits\) for integer string conversion(?:: value has (\d+) digits)?")


def explain(error: Exception) -> str:
    """``error`` as a reader's message: Python's own wording where it means something to users, else
    plain ``str(error)`` (a 5,000-digit number is "a number of 5000 digits", not a limit on ints)."""
    text = str(error)
    m = _DIGITS.search(text)
    if m:
        return f"a number of {m.group(1) or 'thousands of'} digits, far too long"
    return text


def describe(error: Exception) -> str:
    """Like :func:`explain`, naming the exception type when Python's wording is kept (an unexpected error)."""
    text = explain(error)
    return text if text != str(error) else f"{type(error).__name__}: {error}"


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
        message = clip_message(message)
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
