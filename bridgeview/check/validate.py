"""Checking a board set the way a director does before dealing it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeGuard

from ..formats.codec import is_lazy_text
from ..formats.errors import FormatError
from ..model.board import Board
from ..model.boardset import BoardSet, LazyBoardSet
from ..model.severity import ERROR, WARNING, severity_of
from ..model.tables import DEAL, DEALER, VULNERABILITY, BoardColumns, deal_hashes, record_name
from ..model.vulnerability import dealer_for_board, vulnerability_for_board

if TYPE_CHECKING:
    import numpy as np

    from ..formats.bulk import BulkChunk


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
            self.kind = kind_of(self.message)

    @property
    def named_kind(self) -> bool:
        """True when the kind was given as words (``board number repeated with a different deal``), not
        derived from the message with its numbers and quotes blanked out (which reads badly on its own)."""
        return self.kind != kind_of(self.message)

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


def kind_of(message: str) -> str:
    """The kind of a problem its message tells: the message with its numbers and quoted values blanked."""
    return _NUMBERS.sub("#", _QUOTED.sub("'…'", str(message)))


#: kinds of the problems validate finds itself (readers' problems are grouped by their wording)
DEALER_KIND = "dealer does not follow the board number"
VULNERABILITY_KIND = "vulnerability does not follow the board number"
NUMBER_KIND = "board number repeated with a different deal"
NUMBER_DEALER_KIND = "board number repeated with a different dealer"
NUMBER_VULNERABILITY_KIND = "board number repeated with a different vulnerability"
SAME_DEAL_KIND = "same deal as another board"

#: Sets larger than this, read lazily from a fixed-record file that holds only
#: deals (and DD), are checked with numpy over bulk chunks instead of board by board.
BULK_THRESHOLD = 50_000
#: At most this many problems of one kind are listed for a bulk-checked file.
BULK_REPORT_LIMIT = 1000


def validate(
    boards: BoardSet, *, check_numbering: bool = True, progress: Callable[[int, int], object] | None = None
) -> list[Problem]:
    """Every problem in ``boards``: reader problems, illegal deals, auctions and
    play, board numbers repeated with another deal, dealer or vulnerability (in any room or table),
    dealer/vulnerability that disagree with the number (warnings: generated files do it on purpose),
    duplicate deals.  ``progress(done, total)`` hears how far it got.

    A board number repeated with the same deal, dealer and vulnerability is another table of that board
    (the other room of a team match, a traveller record of a scoring program: :mod:`model.tables`),
    not a problem."""
    # a lazily read text file knows a board's reader problems once it is decoded (problems_of)
    per_board = boards.problems_of if is_lazy_text(boards) else None
    # (a lazy text set's own problems, of its header, are known at once; its boards' come with them)
    read = [Problem(msg, index=i, line=line) for i, line, msg in boards.problems if i is None or not per_board]
    if _can_check_in_bulk(boards):
        try:
            return read + _validate_bulk(boards, progress)  # reader problems (a truncated copy's tail) first
        except FormatError:
            pass  # a record the bulk decoder rejects: board by board below reports it and checks the rest
    read_here: dict[int, set[str]] = {}
    for i, _line, msg in boards.problems:
        if i is not None:
            read_here.setdefault(i, set()).add(msg)
    out: list[tuple[int, int, Problem]] = []  # (board index, rank of the check, problem): sorted at the end
    columns = BoardColumns()  # repeated numbers and deals are found at the end, from compact columns
    lines = boards.info.extra.get("board_lines", {}) if boards.info.extra else {}
    n = len(boards)
    for i in range(n):
        if i % 1024 == 0:
            if progress is not None:
                progress(i, n)
            if isinstance(boards, LazyBoardSet):
                boards.release_pages(i)  # a pass over a big file holds a part of it at a time
        line = lines.get(i)
        offset, record = boards.record_offset(i), boards.record_number(i)
        try:
            b = boards[i]
        except FormatError as e:  # a record decoded on demand is unreadable: say so and go on
            out.append(
                (
                    i,
                    0,
                    Problem(
                        e.message,
                        board=e.board,
                        index=i,
                        line=e.line or line,
                        offset=e.offset if e.offset is not None else offset,
                        record=e.record or record,
                    ),
                )
            )
            columns.add(None)
            continue
        if per_board:
            for ln, msg in per_board(i):
                read.append(Problem(msg, index=i, line=ln))
                read_here.setdefault(i, set()).add(msg)
        num = b.number
        for msg in b.problems():
            if msg in read_here.get(i, ()):
                continue  # the reader said it already, with its line
            out.append((i, 0, Problem(msg, board=num, index=i, line=line, offset=offset, record=record)))
        if num is not None and check_numbering:
            where = {"board": num, "index": i, "line": line, "offset": offset, "record": record}
            out.extend((i, 2, p) for p in _dealer_and_vulnerability(b, num, where))
        columns.add(b)
    out.extend(_repeat_problems(boards, columns, lines, check_numbering))
    if progress is not None:
        progress(n, n)
    out.sort(key=lambda entry: (entry[0], entry[1]))  # board order; on a board, the order of the checks
    return read + [p for _i, _rank, p in out]


def _repeat_problems(
    boards: BoardSet, columns: BoardColumns, lines: dict[int, int], check_numbering: bool
) -> Iterator[tuple[int, int, Problem]]:
    """A board number repeated with another deal, dealer or vulnerability (rank 1, before the dealer and
    vulnerability warnings), naming both records, and a deal dealt again (rank 3), unless the record is
    another table of the board (the same number: a room or traveller record)."""

    def where(i: int) -> dict[str, Any]:
        return {
            "board": columns.number(i),
            "index": i,
            "line": lines.get(i),
            "offset": boards.record_offset(i),
            "record": boards.record_number(i),
        }

    if check_numbering:
        for c in columns.conflicts():
            yield (
                c.index,
                1,
                Problem(
                    _conflict_message(boards, c.index, c.first, c.what), **where(c.index), kind=_CONFLICT_KINDS[c.what]
                ),
            )
    for i, j in columns.deals_dealt_again():
        num, other = columns.number(i), columns.number(j)
        if other is not None and other == num:
            continue  # another table of the same board
        what = f"board {other}" if other is not None else f"record {j + 1}"
        yield i, 3, Problem(f"same deal as {what}", **where(i), kind=SAME_DEAL_KIND)


_CONFLICT_KINDS = {DEAL: NUMBER_KIND, DEALER: NUMBER_DEALER_KIND, VULNERABILITY: NUMBER_VULNERABILITY_KIND}


def _conflict_message(boards: BoardSet, i: int, j: int, what: str) -> str:
    """Why records ``j`` (the first with the number) and ``i`` cannot both be the board, naming both: the
    deal's difference told card by card, or the dealer or vulnerability of each."""
    a, b = boards[i], boards[j]
    here, there = record_name(boards, i), record_name(boards, j)
    head = f"{there} and {here} have board number {a.number} but"
    if what == DEAL:
        from .compare import DIFFERENT_DEAL, deal_difference, moved_cards

        if sorted(a.deal.hands) != sorted(b.deal.hands) and moved_cards(a.deal, b.deal) > DIFFERENT_DEAL:
            return f"{head} different deals ({moved_cards(a.deal, b.deal)} cards elsewhere)"
        short_here, short_there = (f"in record {k + 1}" for k in (i, j))
        return f"{head} different deals ({deal_difference(a.deal, b.deal, here=short_here, there=short_there)})"
    if what == DEALER:
        da = a.dealer.letter if a.dealer is not None else "?"
        db = b.dealer.letter if b.dealer is not None else "?"
        return f"{head} different dealers ({db} and {da})"
    va = a.vulnerability.text if a.vulnerability is not None else "?"
    vb = b.vulnerability.text if b.vulnerability is not None else "?"
    return f"{head} different vulnerability ({vb} and {va})"


def _dealer_and_vulnerability(b: Board, num: int, where: dict[str, Any]) -> list[Problem]:
    """A dealer or vulnerability the board's number contradicts."""
    out: list[Problem] = []
    if b.dealer is not None and b.dealer != dealer_for_board(num):
        out.append(
            Problem(
                f"dealer {b.dealer.letter} but board {num} is dealt by {dealer_for_board(num).letter}",
                **where,
                severity=WARNING,
                kind=DEALER_KIND,
            )
        )
    if b.vulnerability is not None and b.vulnerability != vulnerability_for_board(num):
        out.append(
            Problem(
                f"vulnerability {b.vulnerability.text} but board {num} is {vulnerability_for_board(num).text}",
                **where,
                severity=WARNING,
                kind=VULNERABILITY_KIND,
            )
        )
    return out


def _can_check_in_bulk(boards: BoardSet) -> TypeGuard[LazyBoardSet]:
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


def _chunk_hashes(chunk: BulkChunk) -> tuple[Any, Any]:
    """Hashes of a chunk's deals and which rows have no cards: from the ZBD bytes when the
    chunk has them (a record's 13 bytes say where every card is), else from the hand masks."""
    import numpy as np

    raw = chunk.zbd
    if raw is not None:
        n = raw.shape[0]
        words = np.zeros((n, 16), dtype=np.uint8)
        words[:, :13] = raw
        return deal_hashes(words.view("<u8")), np.zeros(n, dtype=bool)
    masks = chunk.hand_masks()
    return deal_hashes(masks), ~masks.any(axis=1)


def _validate_bulk(boards: LazyBoardSet, progress: Callable[[int, int], object] | None = None) -> list[Problem]:
    """Deal legality and duplicate deals with numpy, a chunk at a time (ten million
    deals in seconds, not the half hour a board-by-board pass would take).  Duplicates
    are found by sorting 64-bit hashes of the deals: equal neighbours give the few hash
    values that repeat, and one pass finds the records that have them."""
    import numpy as np

    from ..formats.bulk import ABSENT, complete_rows

    out: list[Problem] = []
    hash_parts = []
    empty_parts = []
    done = 0
    total = len(boards)
    for chunk in boards.bulk() if boards.bulk is not None else ():
        if chunk.zbd is not None:  # every card has a hand: count them from the bytes
            bad = np.nonzero(~chunk.complete())[0]
        else:
            owners = chunk.owners
            full = (owners != ABSENT).all(axis=1)
            bad = np.nonzero(full & ~complete_rows(owners))[0]
        for idx in bad[: max(0, BULK_REPORT_LIMIT - len(out))]:
            i = done + int(idx)
            b = boards[i]
            for msg in b.problems():
                out.append(
                    Problem(
                        msg, board=b.number, index=i, offset=boards.record_offset(i), record=boards.record_number(i)
                    )
                )
        h, empty = _chunk_hashes(chunk)
        hash_parts.append(h)
        empty_parts.append(empty)
        done += len(chunk)
        boards.release_pages(done)
        if progress is not None:
            progress(done, total)
    if not hash_parts:
        return out
    keys = np.concatenate(hash_parts)
    del hash_parts
    out += _repeated_deals(boards, keys, np.concatenate(empty_parts))
    out.sort(key=lambda p: p.index if p.index is not None else -1)
    return out


def _repeated_deals(boards: LazyBoardSet, keys: np.ndarray, empty: np.ndarray) -> list[Problem]:
    """The "same deal as" problem of each record whose deal an earlier record has, found from the deals' 64-bit
    hashes (``keys``, one a record; ``empty`` marks the records without cards): sorting gives the few
    hash values that repeat, one pass finds the records that have them, and their hands are compared
    (equal hashes of different deals are a collision, not a duplicate)."""
    import numpy as np

    ordered = np.sort(keys)
    repeated = np.unique(ordered[1:][ordered[1:] == ordered[:-1]])
    del ordered
    out: list[Problem] = []
    if not repeated.shape[0]:
        return out
    members: list[Any] = []
    step = 1 << 20
    for a in range(0, keys.shape[0], step):  # the records whose hash repeats, a slice at a time
        part = keys[a : a + step]
        pos = np.minimum(np.searchsorted(repeated, part), repeated.shape[0] - 1)
        members.append(np.flatnonzero(repeated[pos] == part) + a)
    idx = np.concatenate(members)
    idx = idx[~empty[idx]]
    order = np.argsort(keys[idx], kind="stable")  # grouped by hash, each group in file order
    idx = idx[order]
    group_keys = keys[idx]
    reported = 0
    first = -1
    for j, i in enumerate(idx.tolist()):
        if j == 0 or group_keys[j] != group_keys[j - 1]:
            first = i
            first_hands = None
            continue
        if reported >= BULK_REPORT_LIMIT:
            break
        if first_hands is None:
            first_board = boards[first]
            first_hands = first_board.deal.hands
        b = boards[i]
        if b.deal.hands != first_hands:  # a hash collision, not a duplicate
            continue
        other = first_board.number
        what = f"board {other}" if other is not None else f"record {first + 1}"
        out.append(
            Problem(
                f"same deal as {what}",
                board=b.number,
                index=i,
                offset=boards.record_offset(i),
                record=boards.record_number(i),
                kind=SAME_DEAL_KIND,
            )
        )
        reported += 1
    return out
