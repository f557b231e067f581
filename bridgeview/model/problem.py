"""Problems a reader survives, as objects: what kind, how serious, where, and the line users read.

Every reader reports what it could survive (a bad value, a stray character, an unreadable call) and
goes on.  Users see one line of text a problem (``message``: the status bar, the Details pane,
``bridgeview validate``); programs and tests ask what *kind* of problem it is (a stable code such as
``"pbn.stray-character"``), how serious it is (:class:`Severity`) and where it is (:class:`Place`),
instead of matching the text.

A board set's ``problems`` list holds :class:`Problem` values.  A Problem *is* the
``(board index, line, message)`` triple every consumer unpacks (a named tuple), so those consumers and
the formats that still report bare triples keep working; its kind and severity ride on its message,
a :class:`ProblemText` (a ``str`` that knows them), which is what lets a reader hand ``(line, message)``
pairs through its fast and careful paths unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .severity import ProblemText, Severity, severity_of

__all__ = ["Place", "Problem", "ProblemText", "Severity", "error", "kind_of", "severity_of", "warning"]

#: the kind of a problem reported as bare text (a format not converted yet)
UNSPECIFIED = "unspecified"


def error(kind: str, message: str) -> ProblemText:
    """An error (the deal, auction or a value is wrong) of ``kind``."""
    return ProblemText(message, kind, Severity.ERROR)


def warning(kind: str, message: str) -> ProblemText:
    """A warning (not standard, but read without doubt) of ``kind``."""
    return ProblemText(message, kind, Severity.WARNING)


def kind_of(message: str) -> str:
    """The kind of a problem's message (:data:`UNSPECIFIED` for bare text)."""
    return message.kind if isinstance(message, ProblemText) else UNSPECIFIED


@dataclass(frozen=True, slots=True)
class Place:
    """Where a problem is: the board (its index in the set; None for the file as a whole) and the 1-based
    line (None when the format has no lines, or it is not known)."""

    board: int | None
    line: int | None


class Problem(NamedTuple):
    """One problem a reader survived: the ``(board, line, message)`` triple, with its kind and severity."""

    board: int | None
    line: int | None
    message: str

    @property
    def kind(self) -> str:
        return kind_of(self.message)

    @property
    def severity(self) -> Severity:
        return severity_of(self.message)

    @property
    def place(self) -> Place:
        return Place(self.board, self.line)
