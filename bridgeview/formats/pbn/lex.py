"""PBN's one tokenizer: a file split into games, a game into tags, sections, comments, ``%`` lines.

The split keeps every byte: the preamble, each game's raw text (with the blank
lines after it) and any trailer join back to the file exactly, which is what
lets an unmodified board be written back byte-for-byte.

A game's tokens go to a consumer, a :class:`GameVisitor` (python-chess's ``read_game(...,
Visitor=...)`` pattern): :func:`visit` tells it each tag, section words, comment, ``%`` line and
problem in the game's order.  The careful reader (:class:`.read.GameReader`) builds a Board that way;
:class:`TagCollector` keeps the tags only (a file's header: no Board, no section); a game no one asks
for is never tokenized (the lazy reader indexes games, :mod:`.lazy`).  The fast path (:mod:`.fast`)
reads the usual game with regular expressions, and takes commentary out of it with
:func:`lift_commentary`, the tokenizer's own comment rules over the whole text: what it cannot take
falls to the careful visitor, and the tests read every game both ways.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from ...model.problem import error, warning

# token kinds
TAG = 0  # (TAG, (name, value), line)
DATA = 1  # (DATA, [words], line); a quoted string is one word, quotes included
COMMENT = 3  # (COMMENT, text without delimiters, line); same_line_data set separately
PERCENT = 4  # (PERCENT, whole line, line)
BAD = 5  # (BAD, message, line)

#: a token: (kind, value, line); the value's type follows the kind (see above)
Token = tuple[int, Any, int]
#: a repeated tag past the first PROBLEM_LIMIT repeats, left out with its section (one shared token, so a
#: game of a million ``[Board "1"]`` lines costs a pointer a line)
SKIPPED = 6
_SKIPPED_TOKEN = (SKIPPED, None, 0)
#: problems kept one by one per game (and per file); past this they are counted
PROBLEM_LIMIT = 100

# quoted values as possessive runs: linear time and no backtracking stack on a megabyte quote
_TAG_LINE = re.compile(r'\[([A-Za-z0-9_]+)(\s*)"((?:[^"\\]++|\\.)*+)"\s*\]\s*')
_TAG_AT = re.compile(r'\[\s*([A-Za-z0-9_]+)(\s*)"((?:[^"\\]++|\\.)*+)"\s*\]')
_SLOW = re.compile(r'\s*(?:(\[)|(\{)|(;.*)|("(?:[^"\\]++|\\.)*+"?)|([^\s\[\]{};"]+)|(\S))')
#: the problem for ``[Dealer"N"]``: read (nothing is ambiguous) but not PBN
_NO_SPACE = "no space between the tag name {} and its value; read anyway"
_BLANKS = re.compile(r"\n(?:[ \t\r\f\v]*\n)+")
_SPECIAL = re.compile(r'[\[\]{};"]')
_NONBLANK = re.compile(r"\S")


def detect_newline(text: str) -> str:
    """The file's line ending: CRLF when its first line ends so, else LF."""
    i = text.find("\n")
    return "\r\n" if i > 0 and text[i - 1] == "\r" else "\n"


def unescape(value: str) -> str:
    """A tag value with PBN's ``\\"`` and ``\\\\`` escapes resolved."""
    if "\\" not in value:
        return value
    return re.sub(r'\\(["\\])', r"\1", value)


def escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


@dataclass(slots=True)
class Game:
    """One game's raw text and where it starts (0-based line index)."""

    raw: str
    first_line: int  # 0-based index of the game's first line in the file
    content_end: int  # length of the raw text without the blank lines after it

    @property
    def lines(self) -> list[str]:
        """Content lines without line ends."""
        lines = self.raw[: self.content_end].split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        return [ln[:-1] if ln.endswith("\r") else ln for ln in lines]


@dataclass(slots=True)
class Layout:
    preamble: str
    games: list[Game]
    trailer: str


def split_games(text: str) -> Layout:
    """Split a PBN text into preamble, games and trailer.

    The preamble is the leading run of ``%`` and blank lines.  A game starts at
    its first non-blank line (a ``%`` line or comment before it belongs to it)
    and ends at a blank line after some content; the blank lines that follow
    stay with it.  Text after the last game with no content is the trailer.
    """
    blocks: list[tuple[int, int, int]] = []  # (start, end of content, end with the blank lines)
    pos = 0
    for m in _BLANKS.finditer(text):
        if m.start() + 1 > pos:
            blocks.append((pos, m.start() + 1, m.end()))
        elif blocks:  # blank lines right after blank lines (only at the very start)
            blocks[-1] = (blocks[-1][0], blocks[-1][1], m.end())
        else:
            blocks.append((pos, pos, m.end()))
        pos = m.end()
    if pos < len(text):
        blocks.append((pos, len(text), len(text)))
    games: list[Game] = []
    preamble_end: int | None = None
    pending: int | None = None  # start of comment-only blocks waiting for their game
    line_at = 0  # 0-based line number of ``counted``
    counted = 0
    for start, cend, end in blocks:
        # a block that starts with a tag is a game (the usual case, known without copying the block)
        if not text.startswith("[", start, cend) and _no_game(text[start:cend]):
            if preamble_end is None and not games:
                continue  # still in the preamble
            if pending is None:
                pending = start
            continue
        if preamble_end is None:
            k = start
            while text.startswith("%", k):  # leading % lines of the first game are preamble
                nl = text.find("\n", k, cend)
                if nl < 0:
                    break
                k = nl + 1
            preamble_end = start = k
        gstart = pending if pending is not None else start
        pending = None
        line_at += text.count("\n", counted, gstart)
        counted = gstart
        games.append(Game(text[gstart:end], line_at, cend - gstart))
    if preamble_end is None:
        return Layout(text, [], "")
    trailer = text[pending:] if pending is not None else ""
    return Layout(text[:preamble_end], games, trailer)


def _no_game(body: str) -> bool:
    """A block of blank, comment-only (``%``) lines: no game, it waits for the next one (or is preamble)."""
    return not body.strip() or body.lstrip().startswith("%") and all_percent(body)


def holds_commentary(text: str) -> bool:
    """Whether ``text`` holds a character of PBN's commentary: a ``{}`` comment's brace, a ``;`` comment or a
    ``%`` line (the readers' quick test before the rules of :func:`lift_commentary`)."""
    return "{" in text or "}" in text or ";" in text or "%" in text


def all_percent(body: str) -> bool:
    return all(not ln.strip() or ln.startswith("%") for ln in body.split("\n"))


def iter_lines(game: Game) -> Iterator[str]:
    """:attr:`Game.lines` one at a time: a game of a million short lines is not held twice as a list."""
    text, end, pos = game.raw, game.content_end, 0
    while pos < end:
        nl = text.find("\n", pos, end)
        if nl < 0:
            line, pos = text[pos:end], end
        else:
            line, pos = text[pos:nl], nl + 1
        yield line[:-1] if line.endswith("\r") else line


def tokenize(game: Game) -> list[Token]:
    """Tokens of a game as ``(kind, value, line)`` with 1-based file lines.

    Comments record whether data sat on the same line (``(COMMENT, (text,
    shares_line), line)``) so table sections can complain about them.
    """
    out: list[Token] = []
    append = out.append
    bad = [0]  # BAD tokens seen: past PROBLEM_LIMIT they are counted, not kept
    seen: set[str] = set()  # tag names so far, and how often one came again
    repeats = 0
    brace: list[str] | None = None
    brace_line = 0
    lineno = game.first_line
    # a normal game as one list (quicker); a huge one a line at a time (a million short lines twice over)
    for line in game.lines if game.content_end < 1 << 16 else iter_lines(game):
        lineno += 1
        if brace is not None:
            k = line.find("}")
            if k < 0:
                brace.append(line)
                continue
            brace.append(line[:k])
            append((COMMENT, ("\n".join(brace), False), brace_line))
            brace = None
            line = line[k + 1 :]
        elif line.startswith("%"):
            append((PERCENT, line, lineno))
            continue
        if not line:
            continue
        c0 = line[0]
        if c0 == "[" and line.endswith('"]'):
            k = line.find(' "')
            if k > 1:
                name, value = line[1:k], line[k + 2 : -2]
                if '"' not in value and "\\" not in value and name.isalnum():
                    if name in seen and name != "Note":
                        repeats += 1
                        if repeats > PROBLEM_LIMIT:
                            append(_SKIPPED_TOKEN)
                            continue
                    seen.add(name)
                    append((TAG, (name, value), lineno))
                    continue
        if c0 == "[" and line.endswith("]") and "{" not in line and ";" not in line:
            m = _TAG_LINE.fullmatch(line)
            if m is not None:
                seen.add(m.group(1))
                append((TAG, (m.group(1), m.group(3)), lineno))
                if not m.group(2):
                    append((BAD, warning("pbn.no-space-before-value", _NO_SPACE.format(m.group(1))), lineno))
                continue
        elif _SPECIAL.search(line) is None:
            words = line.split()
            if words:
                append((DATA, words, lineno))
            continue
        brace, brace_line = _slow_line(line, lineno, out, bad)
    if bad[0] > PROBLEM_LIMIT:
        append((BAD, error("pbn.more-problems", f"… and {bad[0] - PROBLEM_LIMIT:,} more problems like these"), lineno))
    if brace is not None:
        append(
            (BAD, error("pbn.comment-not-closed", "a { comment is not closed before the end of the game"), brace_line)
        )
        append((COMMENT, ("\n".join(brace), False), brace_line))
    return out


def _bad(out: list[Token], bad: list[int] | None, message: str, lineno: int) -> None:
    """Add a BAD token, unless ``bad`` (a one-item counter) has passed PROBLEM_LIMIT: then count it."""
    if bad is not None:
        bad[0] += 1
        if bad[0] > PROBLEM_LIMIT:
            return
    out.append((BAD, message, lineno))


def _clip(text: str, limit: int = 60) -> str:
    """Quoted bad text, cut short: a problem message quotes, it does not copy a megabyte line."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _slow_line(line: str, lineno: int, out: list[Token], bad: list[int] | None = None) -> tuple[list[str] | None, int]:
    """Tokenise one line with comments, quoted strings or brackets; return an
    open ``{`` comment's text so far, if the line leaves one open."""
    pos = 0
    n = len(line)
    had_data = False
    while pos < n:
        m = _SLOW.match(line, pos)
        if m is None:  # only whitespace left
            break
        if m.group(1):
            start = m.start(1)
            t = _TAG_AT.match(line, start)
            if t is None:
                _bad(out, bad, error("pbn.malformed-tag", f"malformed tag: {_clip(line[start:].strip())}"), lineno)
                return None, lineno
            out.append((TAG, (t.group(1), t.group(3)), lineno))
            if not t.group(2):
                out.append((BAD, warning("pbn.no-space-before-value", _NO_SPACE.format(t.group(1))), lineno))
            pos = t.end()
            had_data = False
            continue
        if m.group(2):
            start = m.end(2)
            k = line.find("}", start)
            if k < 0:
                return [line[start:]], lineno
            more = had_data or _NONBLANK.search(line, k + 1) is not None  # not line[k + 1:]: O(n) a comment
            out.append((COMMENT, (line[start:k], more), lineno))
            pos = k + 1
            continue
        if m.group(3) is not None and m.group(3):
            out.append((COMMENT, (m.group(3)[1:], had_data), lineno))
            break
        if m.group(4):
            s = m.group(4)
            if len(s) < 2 or not s.endswith('"') or s.endswith('\\"') and not s.endswith('\\\\"'):
                _bad(out, bad, error("pbn.quote-not-closed", f"a quoted string is not closed: {_clip(s)}"), lineno)
                break
            out.append((DATA, [s], lineno))
            had_data = True
        elif m.group(5):
            out.append((DATA, [m.group(5)], lineno))
            had_data = True
        elif m.group(6):  # a run of one stray character (a million '}') is one problem
            ch = m.group(6)
            run = re.compile(rf"[ \t{re.escape(ch)}]*").match(line, m.end())
            end = m.end() + len(run.group().rstrip(" \t")) if run else m.end()
            count = line.count(ch, m.start(6), end)
            stray = f"stray {ch!r}" + (f" ({count:,} times)" if count > 1 else "")
            _bad(out, bad, error("pbn.stray-character", stray), lineno)
            pos = end
            continue
        pos = m.end()
    return None, lineno


class GameVisitor(Protocol):
    """A consumer of one game's tokens, told them in the game's order by :func:`visit`."""

    def tag(self, name: str, value: str, line: int) -> None:
        """A tag, its value as written (escapes not resolved)."""

    def words(self, words: list[str], line: int) -> None:
        """Section tokens of one line (a quoted string is one token, quotes included)."""

    def comment(self, text: str, shares_line: bool, line: int) -> None:
        """A ``{}`` or ``;`` comment without its delimiters; ``shares_line``: data on its line."""

    def percent(self, text: str, line: int) -> None:
        """A ``%`` line, whole."""

    def problem(self, line: int | None, message: str) -> None:
        """Something the tokenizer could not read (its message says what kind)."""

    def skipped(self) -> None:
        """A repeated tag past :data:`PROBLEM_LIMIT` repeats, left out with its section."""


def visit(game: Game, visitor: GameVisitor) -> None:
    """Tell ``visitor`` the tokens of ``game``, in order."""
    tag, words, comment, percent, problem = (
        visitor.tag,
        visitor.words,
        visitor.comment,
        visitor.percent,
        visitor.problem,
    )
    for kind, value, line in tokenize(game):
        if kind == TAG:
            tag(value[0], value[1], line)
        elif kind == DATA:
            words(value, line)
        elif kind == COMMENT:
            comment(value[0], value[1], line)
        elif kind == PERCENT:
            percent(value, line)
        elif kind == BAD:
            problem(line, value)
        elif kind == SKIPPED:
            visitor.skipped()


class TagCollector:
    """A :class:`GameVisitor` that keeps a game's tag values only (the first of a name, escapes resolved, a
    ``##`` default's value without its mark): a file's header without building a Board."""

    def __init__(self) -> None:
        self.tags: dict[str, str] = {}

    def tag(self, name: str, value: str, line: int) -> None:
        if name not in self.tags:
            value = unescape(value)
            self.tags[name] = value[2:] if value.startswith("##") and value != "##" else value

    def words(self, words: list[str], line: int) -> None:
        pass

    def comment(self, text: str, shares_line: bool, line: int) -> None:
        pass

    def percent(self, text: str, line: int) -> None:
        pass

    def problem(self, line: int | None, message: str) -> None:
        pass

    def skipped(self) -> None:
        pass


def game_tags(game: Game) -> dict[str, str]:
    """The tag values of one game (:class:`TagCollector`)."""
    collector = TagCollector()
    visit(game, collector)
    return collector.tags


#: what the tokenizer takes as commentary, found left to right as :func:`tokenize` finds it, over a whole
#: game: a quoted value (kept: a brace or semicolon in it is text), a ``{}`` comment (over lines too), a
#: ``;`` comment (to the end of its line) and a ``%`` line (from the start of a line)
_COMMENTARY = re.compile(r'"(?:[^"\\\n]|\\.)*+"|\{[^}]*+\}|;[^\n]*+|(?:^|(?<=\n))%[^\n]*+')


def lift_commentary(raw: str, starts: list[int], line_start: bool = True) -> tuple[str, list[str], str | None]:
    """A game's text with its commentary blanked out (every character but a line break made a space, so
    offsets and line numbers stay), its commentary in order as the careful reader keeps it in
    ``Board.notes`` (``{}`` and ``;`` comments without their delimiters, ``%`` lines whole, line ends
    without their ``\\r``), and the first PSBridge ``%%!R`` table's value (no note).  Where each ``{}`` and
    ``;`` comment starts goes to ``starts`` (the careful reader reports one in a table's section).
    ``line_start``: ``raw`` starts a line (False for a tag's section: a ``%`` right after the tag is a word).

    These are :func:`tokenize`'s rules over the whole text at once: the fast path's way to read a commented
    game (``tests/test_pbn_fast.py`` reads every game of varied files both ways)."""
    pieces: list[str] = []
    comments: list[str] = []
    psbridge: str | None = None
    last = 0
    for m in _COMMENTARY.finditer(raw):
        found = m.group()
        kind = found[0]
        if kind == '"':
            continue
        start, end = m.span()
        if kind == "%" and start == 0 and not line_start:
            continue
        if kind == "{":
            note = found[1:-1].replace("\r\n", "\n")
        else:
            note = found[1:] if kind == ";" else found
            if note[-1:] == "\r":
                note = note[:-1]
            if kind == "%" and note.startswith("%%!R "):
                if psbridge is None:
                    psbridge = note[5:].strip()
                note = ""
        if kind != "%":
            starts.append(start)
        if kind != "%" or note:
            comments.append(note)
        pieces.append(raw[last:start])
        pieces.append(" " * len(found) if "\n" not in found else "\n".join(" " * len(p) for p in found.split("\n")))
        last = end
    if not pieces:
        return raw, comments, psbridge
    pieces.append(raw[last:])
    return "".join(pieces), comments, psbridge
