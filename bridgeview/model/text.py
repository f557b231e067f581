"""Wording shared by every layer's messages."""

from __future__ import annotations


def plural(n: int, word: str, spec: str = "") -> str:
    """``n`` and ``word``, with an ``s`` unless there is exactly one ("1 board", "0 boards", "2 boards");
    ``spec`` formats the number (``","`` for "12,000 boards").  The one place the rule is written, so
    every message counts the same way."""
    return f"{n:{spec}} {word}{'s' if n != 1 else ''}"


def duration(seconds: float) -> str:
    """``42 s``, ``7 min 05 s``, ``3 h 02 min``, ``12 d 4 h``: a time left as a person reads it."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    if s < 86400:
        return f"{s // 3600} h {s % 3600 // 60:02d} min"
    return f"{s // 86400} d {s % 86400 // 3600} h"
