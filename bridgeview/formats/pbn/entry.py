"""A PBN tag with its section, and the fast reader for simple games.

Entries from the fast path know only where they are in the game's text;
line numbers are counted when a problem needs them.
"""

from __future__ import annotations

import re
from sys import intern

from .lex import PROBLEM_LIMIT, holds_commentary


class Entry:
    """One tag with its section's tokens (``words``) and the line of each token.

    Entries from the fast path know only offsets into the game text; their
    lines are counted when a problem needs them.
    """

    __slots__ = ("name", "value", "_line", "words", "_wlines", "inherited", "_text", "_pos", "_first", "_span")

    def __init__(
        self,
        name: str,
        value: str,
        line: int | None,
        words: list[str] | None = None,
        wlines: list[int] | None = None,
        inherited: bool = False,
        text: str = "",
        first: int = 0,
    ) -> None:
        self.name = name
        self.value = value
        self._line = line
        self.words: list[str] = words if words is not None else []
        self._wlines = wlines if wlines is not None else ([] if words is None else None)
        self.inherited = inherited
        self._text = text  # a simple game's text: where the entry is, is worked out only if asked
        self._first = first
        self._pos = -1 if text else 0
        self._span = (0, 0)

    def _locate(self) -> None:
        k = self._text.find("[" + self.name + " ")
        self._pos = max(k, 0)
        t = _SIMPLE_TAG.match(self._text, self._pos)
        self._span = t.span(3) if t is not None else (self._pos, self._pos)

    @property
    def line(self) -> int:
        if self._line is None:
            if self._pos < 0:
                self._locate()
            self._line = self._first + 1 + self._text.count("\n", 0, self._pos)
        return self._line

    @property
    def wlines(self) -> list[int]:
        if self._wlines is None:
            if self._pos < 0:
                self._locate()
            a, b = self._span
            line = self._first + 1 + self._text.count("\n", 0, a)
            out = []
            last = a
            for m in _WORD.finditer(self._text, a, b):
                line += self._text.count("\n", last, m.start())
                last = m.start()
                out.append(line)
            self._wlines = out
        return self._wlines

    @wlines.setter
    def wlines(self, value: list[int]) -> None:
        self._wlines = value


_WORD = re.compile(r"\S+")
_SIMPLE_GAME = re.compile(r'\s*+(?:\[[A-Za-z0-9_]++ "[^"\\]*+"\][^\[\]"]*+)*+')  # possessive: no backtracking stack
_SIMPLE_TAG = re.compile(r'\[([A-Za-z0-9_]+) "([^"\\]*)"\]([^\[\]"]*)')


def simple_entries(text: str, first_line: int) -> tuple[list[Entry], int] | None:
    """Entries of a game with no commentary, escapes or quoted strings, read with
    two regular-expression passes, and how many repeats of a tag were left out;
    None when the game needs the tokenizer (which also reports a stray ``}``).

    A repeated tag is reported and dropped (the first counts): past the first
    PROBLEM_LIMIT repeats they are only counted, so a game of a million
    ``[Board "1"]`` lines does not cost a million entries."""
    if holds_commentary(text) or not _SIMPLE_GAME.fullmatch(text):
        return None
    out: list[Entry] = []
    seen: set[str] = set()
    repeats = 0
    # finditer, not findall: no second list of a million tuples; names interned (one "Board", not a million)
    for m in _SIMPLE_TAG.finditer(text):
        name = m.group(1)
        if name in seen and name != "Note":
            repeats += 1
            if repeats > PROBLEM_LIMIT:
                continue
        else:
            seen.add(name)
        e = Entry(intern(name), m.group(2), None, m.group(3).split(), None, False, text, first_line)
        e._pos, e._span = m.start(), m.span(3)  # where it is, so a repeat is reported at its own line
        out.append(e)
    return out, max(0, repeats - PROBLEM_LIMIT)


def section_text(e: Entry) -> str:
    """Section tokens back as text, one source line a line."""
    lines: list[list[str]] = []
    last = None
    for tok, line in zip(e.words, e.wlines, strict=True):
        if line != last or not lines:
            lines.append([])
            last = line
        lines[-1].append(tok)
    return "\n".join(" ".join(words) for words in lines)
