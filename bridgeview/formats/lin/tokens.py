"""LIN text split into ``key|value|`` pairs fast, with line numbers counted only when asked.

Almost every LIN file is nothing but pairs: then one ``str.split("|")`` gives
every key (with the white space before it) and every value, and the few
distinct key texts are checked and lower-cased once each through a dictionary.
Only a text with ``%`` comment lines, text between bars that is not a key, or
a missing closing bar goes through :func:`_careful`, the step-by-step scanner
that knows those.  Either way a pair's line is worked out from the offsets of
the pairs only when a board's line or a problem asks for it.
"""

from __future__ import annotations

import re

from ..errors import FormatError

_WS = " \t\r\n\f\v"
_KEY = re.compile(r"[A-Za-z]{2}")
#: a key as the fast path takes it: white space between pairs, then two letters
_PLAIN_KEY = re.compile(r"[ \t\r\n\f\v]*[A-Za-z]{2}")


class Tokens:
    """The pairs of one LIN text as parallel lists: ``keys`` (lower case; "" for a text between
    bars that is not a key) and ``values``; :meth:`line` gives the line a pair starts on."""

    __slots__ = (
        "keys",
        "values",
        "comments",
        "_text",
        "_raw",
        "_starts",
        "_line_base",
        "_at",
        "_at_off",
        "_nl_off",
        "_nl_line",
    )

    def __init__(
        self,
        text: str,
        keys: list[str],
        values: list[str],
        comments: list[str],
        raw: list[str] | None = None,
        starts: list[int] | None = None,
        line_base: int = 0,
    ) -> None:
        self.keys = keys
        self.values = values
        self.comments = comments
        self._text = text
        self._raw = raw  # fast path: each key with the white space before it (pair i spans raw[i]|values[i]|)
        self._starts = starts  # careful path: where each pair's key starts
        self._line_base = line_base
        self._at = 0  # a pair whose raw start offset is known: walking from it keeps lookups in order cheap
        self._at_off = 0
        self._nl_off = 0  # an offset whose line is known, for the same reason
        self._nl_line = 1

    def __len__(self) -> int:
        return len(self.keys)

    def offset(self, i: int) -> int:
        """Where pair ``i``'s key starts in the text (past the white space before it)."""
        if self._starts is not None:
            return self._starts[i]
        raw, values = self._raw, self.values
        assert raw is not None
        at, off = self._at, self._at_off
        if i >= at:
            off += sum(map(len, raw[at:i])) + sum(map(len, values[at:i])) + 2 * (i - at)
        else:
            off -= sum(map(len, raw[i:at])) + sum(map(len, values[i:at])) + 2 * (at - i)
        self._at, self._at_off = i, off
        return off + len(raw[i]) - 2  # past the white space before the two letters

    def line(self, i: int) -> int:
        """The line pair ``i`` starts on (1 for the first line of the text, plus the base)."""
        if not self.keys:
            return 1 + self._line_base
        off = self.offset(min(i, len(self.keys) - 1))
        text, at, line = self._text, self._nl_off, self._nl_line
        if off >= at:
            line += text.count("\n", at, off)
        else:
            line -= text.count("\n", off, at)
        self._nl_off, self._nl_line = off, line
        return line + self._line_base


def scan(text: str, line_base: int = 0) -> Tokens:
    """Split LIN text into pairs; ``%`` lines between pairs are comments (kept apart).

    FormatError (with the line) for text that is not pairs: no bar after it, or a value without
    its closing bar.  ``line_base`` is added to every line (a board cut from a bigger file)."""
    parts = text.split("|")
    if len(parts) % 2 and not parts[-1].strip(_WS):
        raw = parts[0:-1:2]
        kinds = {}
        for k in set(raw):
            if not _PLAIN_KEY.fullmatch(k):
                break
            kinds[k] = k[-2:].lower()
        else:
            keys = list(map(kinds.__getitem__, raw))
            return Tokens(text, keys, parts[1::2], [], raw=raw, line_base=line_base)
    return _careful(text, line_base)


def _careful(text: str, line_base: int) -> Tokens:
    """The step-by-step scan for texts with comment lines, stray text or a missing bar."""
    keys: list[str] = []
    values: list[str] = []
    starts: list[int] = []
    comments: list[str] = []
    pos, n = 0, len(text)
    while True:
        while pos < n and text[pos] in _WS:
            pos += 1
        if pos >= n:
            break
        if text[pos] == "%":
            end = text.find("\n", pos)
            end = n if end < 0 else end
            comments.append(text[pos:end].rstrip("\r"))
            pos = end
            continue
        bar = text.find("|", pos)
        if bar < 0:
            line = line_base + 1 + text.count("\n", 0, pos)
            raise FormatError(f"text {snippet(text[pos:])!r} is not a LIN key|value| pair", line=line)
        key = text[pos:bar].strip()
        if not _KEY.fullmatch(key):
            # text between bars that is not a key (BBO lesson colour tables: ``cb|30 |jasno czerwony|``):
            # kept as a keyless pair so the boards around it are read and it is written back
            keys.append("")
            values.append(text[pos:bar])
            starts.append(pos)
            pos = bar + 1
            continue
        end = text.find("|", bar + 1)
        if end < 0:
            line = line_base + 1 + text.count("\n", 0, pos)
            raise FormatError(f"the value of {key!r} has no closing '|'", line=line)
        keys.append(key.lower())
        values.append(text[bar + 1 : end])
        starts.append(pos)
        pos = end + 1
    return Tokens(text, keys, values, comments, starts=starts, line_base=line_base)


def snippet(text: str, size: int = 24) -> str:
    """The start of ``text``'s first line, for a message."""
    text = text.strip().splitlines()[0] if text.strip() else ""
    return text if len(text) <= size else text[:size] + "…"
