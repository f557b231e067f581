"""How serious a problem is: errors (the deal or auction is wrong) and warnings
(non-standard but harmless, such as ``OptimumScore "NS 4S; 420"``).

Readers report problems as plain strings in ``(index, line, message)`` tuples;
a warning is a :class:`WarningText`, a ``str`` that says so, so every existing
consumer of those tuples keeps working and ``validate`` can tell the two apart.
"""

from __future__ import annotations

ERROR = "error"
WARNING = "warning"


class WarningText(str):
    """A problem message that is only a warning."""

    __slots__ = ()


def warning(message: str) -> WarningText:
    """``message`` marked as a warning."""
    return WarningText(message)


def severity_of(message: str) -> str:
    """``"warning"`` for a message made with :func:`warning`, else ``"error"``."""
    return WARNING if isinstance(message, WarningText) else ERROR
