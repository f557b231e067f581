"""How serious a problem is: errors (the deal or auction is wrong) and warnings
(non-standard but harmless, such as ``OptimumScore "NS 4S; 420"``).

Readers report problems in ``(index, line, message)`` tuples (:class:`.problem.Problem`); a message
that is a :class:`ProblemText` says its kind and severity, one that is a :class:`WarningText` (a ``str``
that says so) is a warning, bare text an error, so every consumer of those tuples keeps working and
``validate`` can tell them apart.
"""

from __future__ import annotations

from enum import StrEnum


class Severity(StrEnum):
    """How serious a problem is (equal to its name in lower case, as ``validate`` prints it)."""

    WARNING = "warning"
    ERROR = "error"


ERROR = Severity.ERROR
WARNING = Severity.WARNING


class WarningText(str):
    """A problem message that is only a warning."""

    __slots__ = ()


def warning(message: str) -> WarningText:
    """``message`` marked as a warning."""
    return WarningText(message)


class ProblemText(str):
    """A problem's message (the text users see) that also says what kind of problem it is and how serious."""

    kind: str
    severity: Severity

    def __new__(cls, message: str, kind: str, severity: Severity = Severity.ERROR) -> ProblemText:
        text = super().__new__(cls, message)
        text.kind = kind
        text.severity = severity
        return text

    def __reduce__(self) -> tuple[type[ProblemText], tuple[str, str, Severity]]:
        return (ProblemText, (str(self), self.kind, self.severity))


def severity_of(message: str) -> Severity:
    """How serious a problem's message is: as its :class:`ProblemText` says; a :class:`WarningText` (made with
    :func:`warning`) is a warning, bare text an error."""
    if isinstance(message, ProblemText):
        return message.severity
    return WARNING if isinstance(message, WarningText) else ERROR
