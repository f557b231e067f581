"""Checks of tags the model does not hold, the way Tis Veugen's PBN verifier
makes them: score strings, scoring methods, tables, rubber histories."""

from __future__ import annotations

import re
from collections.abc import Callable

from ...model.problem import warning
from ...model.vulnerability import Vulnerability
from .entry import Entry

#: the tags the model holds (the readers take their values into the board); every other tag stays in ``Board.tags``
MODELLED = frozenset(
    (
        "Board",
        "Dealer",
        "Vulnerable",
        "Deal",
        "Declarer",
        "Contract",
        "Result",
        "Auction",
        "Play",
        "Note",
        "OptimumResultTable",
        "DoubleDummyTricks",
    )
)
#: the score tags whose values :func:`check_tag` checks
SCORE_TAGS = frozenset(("Score", "OptimumScore", "ScoreIMP", "ScoreMP"))

_SCORE = re.compile(r"(?:NS|EW)\s+[+-]?\d+(?:\.\d+)?(?:\s+(?:NS|EW)\s+[+-]?\d+(?:\.\d+)?)?")
_COLUMN = re.compile(r"[+-]?[A-Za-z0-9_]+(?:\\\d+[LR]?)?")
_SCORING_METHOD = re.compile(r"[A-Za-z0-9_-]+")


def check_tag(e: Entry, problem: Callable[[int | None, str], None]) -> Vulnerability | None:
    """Check one tag we do not model, each problem a warning to ``problem``; return the vulnerability a
    ScoreRubberHistory implies."""
    name, value = e.name, e.value
    if name.endswith("Table"):
        check_table(e, problem)
    elif name in SCORE_TAGS and value not in ("", "?"):
        if not _SCORE.fullmatch(value.strip()):
            problem(e.line, warning("pbn.bad-score", f"{name} {value!r} must be 'NS <points>' or 'EW <points>'"))
    elif name == "Scoring" and value not in ("", "?"):
        for part in value.split(";"):
            if not _SCORING_METHOD.fullmatch(part.strip()):
                problem(e.line, warning("pbn.bad-scoring", f"Scoring {value!r} has a bad method {part.strip()!r}"))
                break
    elif name == "ScoreRubberHistory":
        return check_rubber(e, problem)
    return None


def is_checked(name: str) -> bool:
    """Whether :func:`check_tag` looks at a tag of this name (a score, the scoring, a table, a rubber history)."""
    return name in SCORE_TAGS or name == "Scoring" or name == "ScoreRubberHistory" or name.endswith("Table")


def check_table(e: Entry, problem: Callable[[int | None, str], None]) -> None:
    """Column specs, forbidden characters, the entry count and the +/- sort marks of a table section."""
    if e.value in ("", "?"):
        return
    columns = e.value.split(";")
    for col in columns:
        if not _COLUMN.fullmatch(col):
            problem(
                e.line,
                warning("pbn.bad-table-column", f"{e.name} column '{col}' is not 'Name' or 'Name\\<width>[L|R]'"),
            )
            return
    for tok, line in zip(e.words, e.wlines, strict=True):
        if tok[0] != '"' and any(ch in tok for ch in "%[]{}"):
            problem(
                line,
                warning("pbn.forbidden-in-table", f"{e.name} entry {tok!r} holds a character PBN forbids in tables"),
            )
    n, width = len(e.words), len(columns)
    if n % width:
        short = _short_row(e.wlines, width)
        where = f": this row has {short[1]}" if short is not None else " (an entry is missing)"
        problem(
            short[0] if short is not None else e.line,
            warning(
                "pbn.table-entry-count",
                f"{e.name} has {n} {'entry' if n == 1 else 'entries'}, not a multiple of its {width} columns{where}",
            ),
        )
        return
    for k, col in enumerate(columns):
        if col[0] in "+-":
            _check_order(e, col, e.words[k::width], e.wlines[k::width], problem)


def _short_row(wlines: list[int], width: int) -> tuple[int, int] | None:
    """(line, entries) of the first line whose entry count does not fit the columns, when rows are one a line."""
    counts: dict[int, int] = {}
    for line in wlines:
        counts[line] = counts.get(line, 0) + 1
    return next(((line, c) for line, c in counts.items() if c % width), None)


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _check_order(
    e: Entry, col: str, values: list[str], lines: list[int], problem: Callable[[int | None, str], None]
) -> None:
    """A column marked '+' runs from high to low down the table, '-' from low to high (as Veugen's
    correct files use the marks: '-Rank' 1, 2, 3 and '+Percentage' 72.49, 70.38); ties and
    entries that are not numbers ('-' for a shared rank) are skipped."""
    last: tuple[float, str] | None = None
    for text, line in zip(values, lines, strict=True):
        v = _number(text)
        if v is None:
            continue
        if last is not None and (v > last[0] if col[0] == "+" else v < last[0]):
            order = "high to low" if col[0] == "+" else "low to high"
            message = f"{e.name} column '{col}' is marked to run {order}, but {last[1]} is followed by {text}"
            problem(line, warning("pbn.table-order", message))
            return
        last = (v, text)


def check_rubber(e: Entry, problem: Callable[[int | None, str], None]) -> Vulnerability | None:
    """The vulnerability a rubber score history implies: a side with a game (100 below) is vulnerable."""
    m = re.fullmatch(r"NS\s+(.*?)\s+EW\s+(.*)", e.value.strip())
    if m is None:
        problem(e.line, warning("pbn.bad-rubber-history", f"ScoreRubberHistory {e.value!r} must be 'NS ... EW ...'"))
        return None
    vul = []
    for part in (m.group(1), m.group(2)):
        below = part.split("/", 1)[1].split() if "/" in part else []
        try:
            vul.append(any(int(x) >= 100 for x in below))
        except ValueError:
            problem(e.line, warning("pbn.bad-rubber-history", f"ScoreRubberHistory {e.value!r} holds a non-number"))
            return None
    return Vulnerability(int(vul[0]) + 2 * int(vul[1]))
