"""Checks of tags the model does not hold, the way Tis Veugen's PBN verifier
makes them: score strings, scoring methods, tables, rubber histories."""

from __future__ import annotations

import re
from collections.abc import Callable

from ..model.vulnerability import Vulnerability
from .pbn_entry import Entry

_SCORE = re.compile(r"(?:NS|EW)\s+[+-]?\d+(?:\.\d+)?(?:\s+(?:NS|EW)\s+[+-]?\d+(?:\.\d+)?)?")
_COLUMN = re.compile(r"[+-]?[A-Za-z0-9_]+(?:\\\d+[LR]?)?")
_SCORING_METHOD = re.compile(r"[A-Za-z0-9_-]+")


def check_tag(e: Entry, problem: Callable[[int | None, str], None]) -> Vulnerability | None:
    """Check one tag we do not model; return the vulnerability a ScoreRubberHistory implies."""
    name, value = e.name, e.value
    if name.endswith("Table"):
        check_table(e, problem)
    elif name in ("Score", "OptimumScore", "ScoreIMP", "ScoreMP") and value not in ("", "?"):
        if not _SCORE.fullmatch(value.strip()):
            problem(e.line, f"{name} {value!r} must be 'NS <points>' or 'EW <points>'")
    elif name == "Scoring" and value not in ("", "?"):
        for part in value.split(";"):
            if not _SCORING_METHOD.fullmatch(part.strip()):
                problem(e.line, f"Scoring {value!r} has a bad method {part.strip()!r}")
                break
    elif name == "ScoreRubberHistory":
        return check_rubber(e, problem)
    return None


def check_table(e: Entry, problem: Callable[[int | None, str], None]) -> None:
    """Column specs, forbidden characters and the entry count of a table section."""
    if e.value in ("", "?"):
        return
    columns = e.value.split(";")
    for col in columns:
        if not _COLUMN.fullmatch(col):
            problem(e.line, f"{e.name} column {col!r} is not 'Name' or 'Name\\<width>[L|R]'")
            return
    for tok, line in zip(e.words, e.wlines, strict=True):
        if tok[0] != '"' and any(ch in tok for ch in "%[]{}"):
            problem(line, f"{e.name} entry {tok!r} holds a character PBN forbids in tables")
    n = len(e.words)
    if n % len(columns):
        problem(e.line, f"{e.name} has {n} entries, not a multiple of its {len(columns)} columns "
                "(an entry is missing)")


def check_rubber(e: Entry, problem: Callable[[int | None, str], None]) -> Vulnerability | None:
    """The vulnerability a rubber score history implies: a side with a game (100 below) is vulnerable."""
    m = re.fullmatch(r"NS\s+(.*?)\s+EW\s+(.*)", e.value.strip())
    if m is None:
        problem(e.line, f"ScoreRubberHistory {e.value!r} must be 'NS ... EW ...'")
        return None
    vul = []
    for part in (m.group(1), m.group(2)):
        below = part.split("/", 1)[1].split() if "/" in part else []
        try:
            vul.append(any(int(x) >= 100 for x in below))
        except ValueError:
            problem(e.line, f"ScoreRubberHistory {e.value!r} holds a non-number")
            return None
    return Vulnerability(int(vul[0]) + 2 * int(vul[1]))

