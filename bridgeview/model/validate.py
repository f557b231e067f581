"""Checking a board set the way a director does before dealing it."""

from __future__ import annotations

from dataclasses import dataclass

from .boardset import BoardSet
from .vulnerability import dealer_for_board, vulnerability_for_board


@dataclass
class Problem:
    message: str
    board: int | None = None  # board number
    index: int | None = None  # 0-based position in the set
    line: int | None = None  # 1-based line in a text file

    def __str__(self) -> str:
        where = []
        if self.line is not None:
            where.append(f"line {self.line}")
        if self.board is not None:
            where.append(f"board {self.board}")
        elif self.index is not None:
            where.append(f"record {self.index + 1}")
        return (", ".join(where) + ": " if where else "") + self.message


def validate(boards: BoardSet, *, check_numbering: bool = True) -> list[Problem]:
    """Every problem in ``boards``: reader problems, illegal deals, auctions and
    play, board numbers out of order or repeated, dealer/vulnerability that
    disagree with the number, duplicate deals."""
    out: list[Problem] = [Problem(msg, index=i, line=line) for i, line, msg in boards.problems]
    seen_deals: dict[tuple, int] = {}
    seen_numbers: dict[tuple, int] = {}
    lines = boards.info.extra.get("board_lines", {}) if boards.info.extra else {}
    for i, b in enumerate(boards):
        line = lines.get(i)
        num = b.number
        room = b.tags.get("Room")  # team files (LIN vugraph, PBN) repeat a board in each room
        for msg in b.problems():
            out.append(Problem(msg, board=num, index=i, line=line))
        if num is not None and check_numbering:
            if (num, room) in seen_numbers:
                msg = f"board number {num} also used by record {seen_numbers[num, room] + 1}"
                out.append(Problem(msg, board=num, index=i, line=line))
            else:
                seen_numbers[num, room] = i
            if b.dealer is not None and b.dealer != dealer_for_board(num):
                out.append(Problem(
                    f"dealer {b.dealer.letter} but board {num} is dealt by {dealer_for_board(num).letter}",
                    board=num, index=i, line=line))
            if b.vulnerability is not None and b.vulnerability != vulnerability_for_board(num):
                out.append(Problem(
                    f"vulnerability {b.vulnerability.text} but board {num} is {vulnerability_for_board(num).text}",
                    board=num, index=i, line=line))
        if b.deal.card_count:
            key = (b.deal.hands, room)
            if key in seen_deals:
                j = seen_deals[key]
                other = boards[j].number
                what = f"board {other}" if other is not None else f"record {j + 1}"
                out.append(Problem(f"same deal as {what}", board=num, index=i, line=line))
            else:
                seen_deals[key] = i
    return out
