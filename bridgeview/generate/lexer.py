"""Words of the dealer language, each with the line and column it starts at.

The rules follow dealer's own scanner (``scan.l``): the longest match wins and,
between matches of one length, keywords come first, then holdings (``SAQ542``),
cards (``AS``), contracts (``x3N``), patterns (``4333``, ``5xxx``), numbers and
names.  So ``SAK`` is a holding, ``AS`` a card, ``xxxx`` a pattern and ``Stayman``
a name, as in dealer.  Comments: ``#`` at the start of a line, ``//`` to the end of
the line, ``/* ... */`` anywhere.  Words are lower case (``NS`` and ``EW`` also
upper case); a string is everything between double quotes (no escapes, as in
dealer), and ``\\n`` outside a string is a string holding a line end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..formats.errors import FormatError


class ScriptError(FormatError):
    """A mistake in a script, located by line and column: ``line 3, column 7: unknown name 'hpc'``."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None, path: str | None = None):
        super().__init__(message, path=path, line=line)
        self.column = column

    def __reduce__(self) -> tuple[type[ScriptError], tuple[str, int | None, int | None, str | None]]:
        # raised in a worker process, it crosses to the parent with its place
        return (type(self), (self.message, self.line, self.column, self.path))

    def where(self) -> str:
        if self.line is None:
            return ""
        return f"line {self.line}, column {self.column}" if self.column else f"line {self.line}"


#: keyword -> (kind, value)
KEYWORDS: dict[str, tuple[str, int]] = {
    "and": ("&&", 0),
    "or": ("||", 0),
    "not": ("!", 0),
    "north": ("SEAT", 0),
    "east": ("SEAT", 1),
    "south": ("SEAT", 2),
    "west": ("SEAT", 3),
    "club": ("SUIT", 0),
    "clubs": ("SUIT", 0),
    "diamond": ("SUIT", 1),
    "diamonds": ("SUIT", 1),
    "heart": ("SUIT", 2),
    "hearts": ("SUIT", 2),
    "spade": ("SUIT", 3),
    "spades": ("SUIT", 3),
    "none": ("VULNERABLE", 0),
    "ns": ("VULNERABLE", 1),
    "NS": ("VULNERABLE", 1),
    "ew": ("VULNERABLE", 2),
    "EW": ("VULNERABLE", 2),
    "all": ("VULNERABLE", 3),
    "nv": ("VUL", 0),
    "vul": ("VUL", 1),
    "notrump": ("NOTRUMP", 0),
    "notrumps": ("NOTRUMP", 0),
    "hcp": ("COUNT", 10),
    "hcps": ("COUNT", 10),
    "control": ("COUNT", 11),
    "controls": ("COUNT", 11),
    "tens": ("COUNT", 0),
    "ten": ("COUNT", 0),
    "jacks": ("COUNT", 1),
    "jack": ("COUNT", 1),
    "queens": ("COUNT", 2),
    "queen": ("COUNT", 2),
    "kings": ("COUNT", 3),
    "king": ("COUNT", 3),
    "aces": ("COUNT", 4),
    "ace": ("COUNT", 4),
    "top2": ("COUNT", 5),
    "top3": ("COUNT", 6),
    "top4": ("COUNT", 7),
    "top5": ("COUNT", 8),
    "c13": ("COUNT", 9),
    **{f"pt{i}": ("COUNT", i) for i in range(10)},
}
#: keywords that are their own kind (commands, functions, actions)
for _keyword in (
    "generate produce dealer vulnerable predeal pointcount altcount condition action "
    "print printall printpbn printew printcompact printoneline printes evalcontract average frequency "
    "loser losers quality cccc trick tricks score imp imps hascard shape any rnd"
).split():
    KEYWORDS[_keyword] = (_keyword.rstrip("s") if _keyword in ("losers", "tricks", "imps") else _keyword, 0)
del _keyword


@dataclass(frozen=True, slots=True)
class Token:
    """``kind`` is an operator (``&&``, ``(``), a keyword's kind (``SEAT``, ``COUNT``, ``shape``) or one of
    NUMBER, PATTERN (``4333``/``5xxx``), HOLDING, CARD, CONTRACT, STRING, NAME, END."""

    kind: str
    text: str
    line: int
    column: int
    value: int = 0

    @property
    def where(self) -> str:
        return f"line {self.line}, column {self.column}"


_OPERATORS = ("&&", "||", "==", "!=", "<=", ">=", "!", "<", ">", "+", "-", "*", "/", "%", "?", ":", "(", ")", ",", "=")

#: (kind, pattern) in dealer's order of preference for matches of equal length
_WORD_RULES = (
    ("HOLDING", re.compile(r"[CDHS]A?K?Q?J?T?9?8?7?6?5?4?3?2?")),
    ("CARD", re.compile(r"[2-9TJQKA][CDHS]")),
    ("CONTRACT", re.compile(r"x[1-7][CDHSN]")),
    ("PATTERN", re.compile(r"[0-9x]{4}")),
    ("NUMBER", re.compile(r"[0-9]+")),
    ("NAME", re.compile(r"[a-zA-Z][a-zA-Z0-9_]*")),
)
_WORD_START = re.compile(r"[0-9A-Za-z]")


def tokenize(text: str) -> list[Token]:
    """The script's tokens, ending with an END token; ScriptError at the first character that
    starts no token (with its line and column)."""
    tokens: list[Token] = []
    line, line_start, i, n = 1, 0, 0, len(text)
    at_line_start = True  # only blanks so far on this line: a '#' starts a comment

    def here(pos: int) -> tuple[int, int]:
        return line, pos - line_start + 1

    while i < n:
        ch = text[i]
        if ch == "\n":
            line, line_start, i, at_line_start = line + 1, i + 1, i + 1, True
            continue
        if ch in " \t\r\f\v":
            i += 1
            continue
        if ch == "#" and at_line_start or text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        at_line_start = False
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ScriptError("a comment started with /* is never closed with */", *here(i))
            line, line_start = _past(text, i, end, line, line_start)
            i = end + 2
            continue
        ln, col = here(i)
        if ch == '"':
            end = text.find('"', i + 1)
            if end < 0:
                raise ScriptError('a string started with " is never closed', ln, col)
            tokens.append(Token("STRING", text[i + 1 : end], ln, col))
            line, line_start = _past(text, i, end, line, line_start)
            i = end + 1
            continue
        if text.startswith("\\n", i):
            tokens.append(Token("STRING", "\n", ln, col))
            i += 2
            continue
        if _WORD_START.match(ch):
            token = _word(text, i, ln, col)
            tokens.append(token)
            i += len(token.text)
            continue
        for op in _OPERATORS:
            if text.startswith(op, i):
                tokens.append(Token(op, op, ln, col))
                i += len(op)
                break
        else:
            if ch == "#":
                raise ScriptError("'#' starts a comment only at the beginning of a line (use // here)", ln, col)
            if ch == "{":
                raise ScriptError("unexpected '{' (shape{...} is the dealer.dpp preprocessor's, not dealer's)", ln, col)
            raise ScriptError(f"unexpected character {ch!r}", ln, col)
    tokens.append(Token("END", "", *here(n)))
    return tokens


def _past(text: str, start: int, end: int, line: int, line_start: int) -> tuple[int, int]:
    """(line, offset of its start) after stepping over ``text[start:end]`` (a comment or string may hold
    line ends)."""
    last = text.rfind("\n", start, end)
    if last < 0:
        return line, line_start
    return line + text.count("\n", start, end), last + 1


def _word(text: str, i: int, line: int, column: int) -> Token:
    """The longest word at ``i`` by dealer's rules (keywords first among equally long matches)."""
    best_kind, best = "", ""
    for kind, pattern in _WORD_RULES:
        m = pattern.match(text, i)
        if m is None:
            continue
        word = m.group()
        if kind == "NAME" and word in KEYWORDS and len(word) >= len(best):
            kw_kind, value = KEYWORDS[word]
            return Token(kw_kind, word, line, column, value)
        if len(word) > len(best):
            best_kind, best = kind, word
    value = int(best) if best_kind == "NUMBER" or (best_kind == "PATTERN" and "x" not in best) else 0
    return Token(best_kind, best, line, column, value)
