"""Is a set fit to deal?  Everything a director checks before the machine deals it.

:func:`check_set` runs ``validate`` (reader problems, illegal deals, numbers,
dealer/vulnerability, auctions, exact duplicates) and adds what a dealing
machine cares about: boards that are not full deals, the same deal with its
hands rotated, gaps in the numbering, numbers the machine cannot take, and DUP
control fields that disagree with the boards.  Qt-free; the ``check`` command,
the GUI's Check panel and the board list's markers all use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..formats.errors import FormatError
from ..model.board import Board
from ..model.boardset import BoardSet
from ..model.severity import ERROR
from ..model.tables import Tables, set_tables
from ..model.text import plural
from .compare import BoardDiff, deal_difference
from .validate import Problem, validate

#: The dealing machine's limits: Duplimate (DUP) takes boards 1-999.
MACHINE_FIRST, MACHINE_LAST = 1, 999
#: Above this many boards only ``validate`` runs (a 10-million-deal library is not dealt on a machine).
EXTRA_CHECK_LIMIT = 200_000


@dataclass
class Issue:
    """One problem: ``board`` is its number, ``index`` its 0-based position (None: the whole set).
    ``severity`` is validate's (a warning is non-standard but harmless and does not stop dealing)."""

    message: str
    board: int | None = None
    index: int | None = None
    kind: str = "validate"
    where: str = ""  # "line 12" and the like, from validate
    severity: str = ERROR

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def __str__(self) -> str:
        if self.board is not None:
            head = f"board {self.board}"
        elif self.index is not None:
            head = f"record {self.index + 1}"
        else:
            head = "set"
        text = f"{head}: {self.message}" + (f" ({self.where})" if self.where else "")
        return text if self.is_error else f"warning: {text}"


def _where(p: Problem) -> str:
    bits = []
    if p.line is not None:
        bits.append(f"line {p.line}")
    if p.offset is not None and p.index is not None:
        bits.append(f"record {p.record or p.index + 1}, offset {p.offset}")
    return ", ".join(bits)


def _board(boards: BoardSet, i: int) -> Board | None:
    try:
        return boards[i]
    except FormatError:  # an unreadable record: validate has said so
        return None


def check_set(boards: BoardSet, *, machine: bool = True) -> list[Issue]:
    """Every problem that stops ``boards`` being dealt, in board order (set-wide ones last), with
    validate's warnings (which do not).  The set's own checks look at each board once: the other tables
    of a board (rooms, a traveller's records) are validate's to compare (:mod:`model.tables`).

    ``machine`` adds the dealing machine's number range (DUP, 1-999)."""
    issues = [Issue(p.message, p.board, p.index, "validate", _where(p), p.severity or ERROR) for p in validate(boards)]
    n = len(boards)
    if n > EXTRA_CHECK_LIMIT:
        return issues
    seen: dict[tuple[int, ...], int] = {}
    numbers: dict[int, int] = {}
    last: tuple[int, int] | None = None  # the number and position of the board before, for the order
    for i in _board_records(boards):
        b = _board(boards, i)
        if b is None:
            continue
        deal = b.deal
        count = deal.card_count
        if not deal.is_complete and not deal.overlap and count <= 48:  # validate speaks of > 48 itself
            lengths = ", ".join(f"{s} {deal.length(k)}" for k, s in enumerate("NESW"))
            text = "no cards: not a deal" if not count else f"not a full deal: {count} cards ({lengths})"
            issues.append(Issue(text, b.number, i, "partial"))
        if deal.is_complete:
            key = tuple(sorted(deal.hands))
            j = seen.get(key)
            if j is None:
                seen[key] = i
            else:
                first = boards[j]
                how = deal_difference(deal, first.deal)
                if how is not None:  # an exact repeat is validate's "same deal as"
                    what = f"board {first.number}" if first.number is not None else f"record {j + 1}"
                    issues.append(Issue(f"same deal as {what}, {how}", b.number, i, "duplicate"))
        if b.number is not None:
            if b.number not in numbers and last is not None and b.number < last[0]:
                issues.append(
                    Issue(
                        f"comes after board {last[0]}: a dealing machine's file holds the boards in number order",
                        b.number,
                        i,
                        "order",
                    )
                )
            numbers.setdefault(b.number, i)
            last = (b.number, i) if last is None or b.number > last[0] else last
            if machine and not MACHINE_FIRST <= b.number <= MACHINE_LAST:
                issues.append(
                    Issue(
                        f"the dealing machine takes boards {MACHINE_FIRST}-{MACHINE_LAST}, not {b.number}",
                        b.number,
                        i,
                        "range",
                    )
                )
    issues.extend(_gaps(numbers))
    issues.extend(_dup_control(boards, numbers))
    order = {id(x): k for k, x in enumerate(issues)}
    issues.sort(key=lambda x: (x.index is None, x.index if x.index is not None else 0, order[id(x)]))
    return issues


def gap_text(prev: int, num: int) -> str:
    """The boards missing between ``prev`` and ``num`` as one range, told from the two ends (a gap
    from 1 to 100,000,000 is a line of text, not a list of its numbers)."""
    count = num - prev - 1
    if count == 1:
        return f"board {prev + 1} is missing from the run"
    text = f"boards {prev + 1}-{num - 1}"
    if count > 20:
        text += f" ({plural(count, 'board', ',')})"
    return text + " are missing from the run"


def _board_records(boards: BoardSet) -> list[int] | range:
    """The first record of each board (a board's other tables hold its deal again)."""
    try:
        records = set_tables(boards).board_records()
        return records if isinstance(records, range) else records.tolist()
    except FormatError:  # an unreadable record: validate has said so; look at every record
        return range(len(boards))


def _gaps(numbers: dict[int, int]) -> list[Issue]:
    """A board that follows a gap in the run of numbers says which are missing."""
    out = []
    ordered = sorted(numbers)
    for prev, num in zip(ordered, ordered[1:], strict=False):
        if num > prev + 1:
            out.append(Issue(f"follows board {prev}: {gap_text(prev, num)}", num, numbers[num], "gap"))
    return out


def _dup_control(boards: BoardSet, numbers: dict[int, int]) -> list[Issue]:
    """The DUP control fields (first board, last board, copies) against the boards themselves."""
    dup = boards.info.dup if boards.info is not None else None
    if dup is None or not numbers:
        return []
    out = []
    first, last = min(numbers), max(numbers)
    if dup.first_board != first:
        out.append(
            Issue(
                f"the DUP control fields say the first board is {dup.first_board}, but the set starts at board {first}",
                kind="dup",
            )
        )
    read_problem = any("last board" in msg for _i, _l, msg in boards.problems)  # the reader said so already
    if dup.last_board is not None and dup.last_board != last and not read_problem:
        out.append(
            Issue(
                f"the DUP control fields say the last board is {dup.last_board}, but the set ends at board {last}",
                kind="dup",
            )
        )
    if dup.copies == 0:
        out.append(
            Issue(
                "the DUP control fields ask for 0 copies of each board (Dealer4 ignores the field; "
                "a machine that reads it deals nothing)",
                kind="dup",
            )
        )
    return out


def summary(issues: Sequence[Issue | BoardDiff | str], count: int, tables: Tables | None = None) -> str:
    """``16 boards, ready to deal``, ``15 boards (30 tables), ready to deal (2 warnings)`` or ``3 problems in 16
    boards``; ``issues`` are :class:`Issue` s (or their lines: every one an error)."""
    boards = plural(count, "board", ",") if tables is None or not tables.repeated else _tables_text(tables)
    errors = sum(1 for x in issues if not isinstance(x, Issue) or x.is_error)
    if errors:
        return f"{plural(errors, 'problem')} in {boards}"
    warnings = len(issues) - errors
    return f"{boards}, ready to deal" + (f" ({plural(warnings, 'warning')})" if warnings else "")


def _tables_text(tables: Tables) -> str:
    return f"{plural(len(tables), 'board', ',')} ({plural(tables.count, 'table', ',')})"


def count_tables(boards: BoardSet) -> Tables | None:
    """The set's boards and tables for a summary; None for a set too big to check whole."""
    if len(boards) > EXTRA_CHECK_LIMIT:
        return None
    try:
        return set_tables(boards)
    except FormatError:
        return None


def problems_by_index(issues: list[Issue]) -> dict[int, list[str]]:
    """The messages of each record, for the board list's markers and tooltips."""
    out: dict[int, list[str]] = {}
    for x in issues:
        if x.index is not None:
            out.setdefault(x.index, []).append(x.message)
    return out
