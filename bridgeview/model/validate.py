"""Checking a board set the way a director does before dealing it."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..formats.errors import FormatError
from .boardset import BoardSet, LazyBoardSet
from .severity import ERROR, WARNING, severity_of
from .vulnerability import dealer_for_board, vulnerability_for_board


@dataclass
class Problem:
    message: str
    board: int | None = None  # board number
    index: int | None = None  # 0-based position in the set
    line: int | None = None  # 1-based line in a text file
    offset: int | None = None  # byte offset of the record in a fixed-record file
    record: int | None = None  # its 1-based record number, when not index + 1 (ZBS groups)
    #: "error" (the deal, auction or play is wrong) or "warning" (non-standard but harmless);
    #: None takes it from the message (readers mark warnings with ``severity.warning``)
    severity: str | None = None
    #: what kind of problem this is, to group repeats of it; None: the message without its numbers
    kind: str | None = None

    def __post_init__(self) -> None:
        if self.severity is None:
            self.severity = severity_of(self.message)
        if self.kind is None:
            self.kind = _NUMBERS.sub("#", _QUOTED.sub("'…'", str(self.message)))

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    def location(self) -> str:
        """Where the problem is, for listing the boards a group of problems is on."""
        if self.board is not None:
            return f"board {self.board}"
        if self.index is not None:
            return f"record {self.record or self.index + 1}"
        return f"line {self.line}" if self.line is not None else "the file"

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.offset is not None and self.index is not None:
            where.append(f"record {self.record or self.index + 1} (offset {self.offset})")
        if self.board is not None:
            where.append(f"board {self.board}")
        elif self.index is not None and self.offset is None:
            where.append(f"record {self.index + 1}")
        return (", ".join(where) + ": " if where else "") + self.message


_NUMBERS = re.compile(r"\d+")
_QUOTED = re.compile(r"'[^']*'")
#: kinds of the problems validate finds itself (readers' problems are grouped by their wording)
DEALER_KIND = "dealer does not follow the board number"
VULNERABILITY_KIND = "vulnerability does not follow the board number"
NUMBER_KIND = "board number repeated with a different deal"
SAME_DEAL_KIND = "same deal as another board"

#: Sets larger than this, read lazily from a fixed-record file that holds only
#: deals (and DD), are checked with numpy over bulk chunks instead of board by board.
BULK_THRESHOLD = 50_000
#: At most this many problems of one kind are listed for a bulk-checked file.
BULK_REPORT_LIMIT = 1000


def validate(boards: BoardSet, *, check_numbering: bool = True) -> list[Problem]:
    """Every problem in ``boards``: reader problems, illegal deals, auctions and
    play, board numbers repeated with another deal, dealer/vulnerability that
    disagree with the number (warnings: generated files do it on purpose), duplicate deals.

    A board number repeated with the same deal is another table's result of that board
    (traveller files from scoring programs), not a problem."""
    out: list[Problem] = [Problem(msg, index=i, line=line) for i, line, msg in boards.problems]
    if _can_check_in_bulk(boards):
        try:
            return out + _validate_bulk(boards)  # reader problems (a truncated copy's tail) first
        except FormatError:
            pass  # a record the bulk decoder rejects: board by board below reports it and checks the rest
    read_here: dict[int, set[str]] = {}
    for i, _line, msg in boards.problems:
        if i is not None:
            read_here.setdefault(i, set()).add(msg)
    seen_deals: dict[tuple, tuple[int, int | None]] = {}  # deal and room -> first index, its number
    seen_numbers: dict[tuple, tuple[int, tuple]] = {}  # number and room -> first index, its hands
    lines = boards.info.extra.get("board_lines", {}) if boards.info.extra else {}
    for i in range(len(boards)):
        line = lines.get(i)
        offset, record = boards.record_offset(i), boards.record_number(i)
        try:
            b = boards[i]
        except FormatError as e:  # a record decoded on demand is unreadable: say so and go on
            out.append(Problem(e.message, board=e.board, index=i, line=e.line or line,
                               offset=e.offset if e.offset is not None else offset, record=e.record or record))
            continue
        num = b.number
        room = b.tags.get("Room")  # team files (LIN vugraph, PBN) repeat a board in each room
        for msg in b.problems():
            if msg in read_here.get(i, ()):
                continue  # the reader said it already, with its line
            out.append(Problem(msg, board=num, index=i, line=line, offset=offset, record=record))
        if num is not None and check_numbering:
            if (num, room) in seen_numbers:
                j, hands = seen_numbers[num, room]
                if hands != b.deal.hands:
                    msg = f"board number {num} also used by record {j + 1}, with a different deal"
                    out.append(Problem(msg, board=num, index=i, line=line, offset=offset, record=record,
                                       kind=NUMBER_KIND))
            else:
                seen_numbers[num, room] = (i, b.deal.hands)
            if b.dealer is not None and b.dealer != dealer_for_board(num):
                out.append(Problem(
                    f"dealer {b.dealer.letter} but board {num} is dealt by {dealer_for_board(num).letter}",
                    board=num, index=i, line=line, offset=offset, record=record, severity=WARNING,
                    kind=DEALER_KIND))
            if b.vulnerability is not None and b.vulnerability != vulnerability_for_board(num):
                out.append(Problem(
                    f"vulnerability {b.vulnerability.text} but board {num} is {vulnerability_for_board(num).text}",
                    board=num, index=i, line=line, offset=offset, record=record, severity=WARNING,
                    kind=VULNERABILITY_KIND))
        if b.deal.card_count:
            key = (b.deal.hands, room)
            if key in seen_deals:
                j, other = seen_deals[key]
                if other is not None and other == num:
                    continue  # another table's result of the same board (a traveller record)
                what = f"board {other}" if other is not None else f"record {j + 1}"
                out.append(Problem(f"same deal as {what}", board=num, index=i, line=line, offset=offset, record=record,
                                   kind=SAME_DEAL_KIND))
            else:
                seen_deals[key] = (i, num)
    return out


def _can_check_in_bulk(boards: BoardSet) -> bool:
    """Bulk chunks carry deals and DD only, so they suffice for formats that hold nothing else."""
    if not (isinstance(boards, LazyBoardSet) and boards.is_lazy and not boards.edited and boards.bulk):
        return False
    if len(boards) < BULK_THRESHOLD:
        return False
    from ..formats.registry import get

    try:
        caps = get(boards.info.format).caps if boards.info.format else None
    except Exception:
        return False
    return caps is not None and not (caps.auction or caps.play or caps.notes)


def _validate_bulk(boards: LazyBoardSet) -> list[Problem]:
    """Deal legality and duplicate deals with numpy, a chunk at a time (ten million
    deals in seconds, not the half hour a board-by-board pass would take)."""
    import numpy as np

    from ..formats.bulk import ABSENT, complete_rows

    out: list[Problem] = []
    masks_parts = []
    done = 0
    for chunk in boards.bulk():
        owners = chunk.owners
        full = (owners != ABSENT).all(axis=1)
        bad = np.nonzero(full & ~complete_rows(owners))[0]
        for idx in bad[: max(0, BULK_REPORT_LIMIT - len(out))]:
            i = done + int(idx)
            b = boards[i]
            for msg in b.problems():
                out.append(Problem(msg, board=b.number, index=i, offset=boards.record_offset(i),
                                   record=boards.record_number(i)))
        masks_parts.append(chunk.hand_masks())
        done += len(chunk)
    if not masks_parts:
        return out
    masks = np.ascontiguousarray(np.concatenate(masks_parts))
    keys = masks.view([("n", "<u8"), ("e", "<u8"), ("s", "<u8"), ("w", "<u8")]).ravel()
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    same = np.nonzero(sorted_keys[1:] == sorted_keys[:-1])[0]
    nonempty = masks.any(axis=1)
    reported = 0
    first_of: dict[int, int] = {}
    for k in same:
        a, b = int(order[k]), int(order[k + 1])
        if not nonempty[b]:
            continue
        first = first_of.setdefault(a, a)
        first_of[b] = first
        if reported >= BULK_REPORT_LIMIT:
            continue
        other = boards[first].number
        what = f"board {other}" if other is not None else f"record {first + 1}"
        number = boards[b].number
        out.append(Problem(f"same deal as {what}", board=number, index=b, offset=boards.record_offset(b),
                           record=boards.record_number(b), kind=SAME_DEAL_KIND))
        reported += 1
    out.sort(key=lambda p: p.index if p.index is not None else -1)
    return out
