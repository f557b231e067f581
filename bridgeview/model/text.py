"""Wording shared by every layer's messages."""

from __future__ import annotations


def plural(n: int, word: str, spec: str = "") -> str:
    """``n`` and ``word``, with an ``s`` unless there is exactly one ("1 board", "0 boards", "2 boards");
    ``spec`` formats the number (``","`` for "12,000 boards").  The one place the rule is written, so
    every message counts the same way."""
    return f"{n:{spec}} {word}{'s' if n != 1 else ''}"
