"""Calls, contracts, and the rules of the auction."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum
from typing import Any

from .cards import Seat, Strain
from .text import plural


def _bid_strain(strain: int | None) -> Strain:
    """The strain of a bid or contract; a pass, double or passed-out contract has none."""
    if strain is None:
        raise TypeError("a bid needs a strain")
    return Strain(strain)


class CallKind(IntEnum):
    BID = 0
    PASS = 1
    DOUBLE = 2
    REDOUBLE = 3


@dataclass(frozen=True, slots=True)
class Call:
    """One call, with the annotations formats attach to it.

    ``mark`` is punctuation a format stores with the call (``!``, ``?``,
    ``!!``, ``$3`` in PBN; ZRJ's two high bits as ``!``/``?``/``*``);
    ``alert`` and ``explanation`` come from LIN ``!``/``an`` and PBN notes;
    ``note`` is a PBN ``=n=`` note number.  Annotations never affect equality
    of the call itself: compare with :meth:`same_call`.
    """

    kind: CallKind
    level: int = 0
    strain: Strain | None = None
    alert: bool = False
    explanation: str | None = None
    mark: str = ""
    note: int | None = field(default=None)

    @classmethod
    def bid(cls, level: int, strain: int) -> Call:
        if not 1 <= level <= 7:
            raise ValueError(f"bid level out of range: {level}")
        return cls(CallKind.BID, level, Strain(strain))

    @classmethod
    def parse(cls, text: str) -> Call:
        """Parse ``1H``, ``3NT``, ``1N``, ``P``/``Pass``, ``X``/``Dbl``, ``XX``/``Rdbl``."""
        t = text.strip().upper()
        if t in ("P", "PASS", "AP"):
            return PASS
        if t in ("X", "D", "DBL", "DOUBLE"):
            return DOUBLE
        if t in ("XX", "R", "RDBL", "REDOUBLE"):
            return REDOUBLE
        if len(t) >= 2 and t[0].isdigit():
            level = int(t[0])
            return cls.bid(level, Strain.from_text(t[1:]))
        raise ValueError(f"not a call: {text!r}")

    def plain(self) -> Call:
        """The call without annotations."""
        return Call(self.kind, self.level, self.strain)

    def annotated(self, **changes: Any) -> Call:
        return replace(self, **changes)

    def same_call(self, other: Call) -> bool:
        return (self.kind, self.level, self.strain) == (other.kind, other.level, other.strain)

    @property
    def bid_strain(self) -> Strain:
        """The strain of a bid; TypeError for a pass, double or redouble, which have none."""
        return _bid_strain(self.strain)

    @property
    def rank(self) -> int:
        """Bids ordered 1C=0 .. 7NT=34; -1 for non-bids."""
        if self.kind != CallKind.BID:
            return -1
        strain = self.strain
        if strain is None:
            raise TypeError("a bid needs a strain")
        return 5 * (self.level - 1) + int(strain)

    def __str__(self) -> str:
        if self.kind == CallKind.PASS:
            return "P"
        if self.kind == CallKind.DOUBLE:
            return "X"
        if self.kind == CallKind.REDOUBLE:
            return "XX"
        return f"{self.level}{_bid_strain(self.strain).letter}"

    def symbol_text(self) -> str:
        """``1♥``, ``3NT``, ``Pass``, ``X``, ``XX`` for display."""
        if self.kind == CallKind.PASS:
            return "Pass"
        if self.kind != CallKind.BID:
            return str(self)
        return f"{self.level}{_bid_strain(self.strain).symbol}"


PASS = Call(CallKind.PASS)
DOUBLE = Call(CallKind.DOUBLE)
REDOUBLE = Call(CallKind.REDOUBLE)


@dataclass(frozen=True, slots=True)
class Contract:
    """A contract; ``level`` 0 means the board was passed out."""

    level: int
    strain: Strain | None = None
    risk: int = 0  # 0 undoubled, 1 doubled, 2 redoubled

    @classmethod
    def passed_out(cls) -> Contract:
        return cls(0)

    @property
    def is_passed_out(self) -> bool:
        return self.level == 0

    @property
    def bid_strain(self) -> Strain:
        """The strain of a contract that was bid; TypeError for a passed-out board, which has none."""
        return _bid_strain(self.strain)

    @classmethod
    def parse(cls, text: str) -> Contract:
        """Parse ``4HX``, ``3NT``, ``6SXX``, ``Pass``; case-insensitive."""
        t = text.strip().upper().replace(" ", "")
        if t in ("PASS", "P", "AP", "PASSED", "PO"):
            return cls.passed_out()
        risk = 0
        if t.endswith("XX"):
            risk, t = 2, t[:-2]
        elif t.endswith("X"):
            risk, t = 1, t[:-1]
        if len(t) < 2 or not t[0].isdigit() or not 1 <= int(t[0]) <= 7:
            raise ValueError(f"not a contract: {text!r}")
        return cls(int(t[0]), Strain.from_text(t[1:]), risk)

    def __str__(self) -> str:
        if self.is_passed_out:
            return "Pass"
        return f"{self.level}{_bid_strain(self.strain).letter}" + ("", "X", "XX")[self.risk]

    def symbol_text(self) -> str:
        if self.is_passed_out:
            return "Passed out"
        return f"{self.level}{_bid_strain(self.strain).symbol}" + ("", "X", "XX")[self.risk]


def auction_problems(calls: list[Call], dealer: int = Seat.NORTH) -> list[str]:
    """Every rule the auction breaks, as sentences; empty when legal.

    An auction may be unfinished (the file may stop early); that is not an error.
    """
    out: list[str] = []
    last_bid: Call | None = None
    last_bidder: int | None = None
    risk = 0
    risk_by: int | None = None
    passes = 0
    seat = int(dealer)
    for i, call in enumerate(calls):
        who = Seat(seat).letter
        ended = (passes >= 3 and last_bid is not None) or (passes >= 4)
        if ended:
            out.append(f"call {i + 1} ({call}) by {who} comes after the auction ended")
            break
        if call.kind == CallKind.PASS:
            passes += 1
        elif call.kind == CallKind.BID:
            if last_bid is not None and call.rank <= last_bid.rank:
                out.append(f"call {i + 1} ({call}) by {who} is insufficient after {last_bid}")
            last_bid, last_bidder, risk, risk_by, passes = call, seat, 0, None, 0
        elif call.kind == CallKind.DOUBLE:
            if last_bid is None or risk != 0 or (last_bidder is not None and (last_bidder - seat) % 2 == 0):
                out.append(f"call {i + 1} (X) by {who} is not a legal double")
            risk, risk_by, passes = 1, seat, 0
        else:
            if risk != 1 or (risk_by is not None and (risk_by - seat) % 2 == 0):
                out.append(f"call {i + 1} (XX) by {who} is not a legal redouble")
            risk, risk_by, passes = 2, seat, 0
        seat = (seat + 1) % 4
    return out


#: ``Board.tags`` key of the auction words from the first one that is not a call (PBN writes them back)
AUCTION_REST = "Auction:rest"


def unread_auction_problem(token: str, calls: int) -> str:
    """The problem of an auction read only up to ``token``, which is not a call (the same
    sentence from the reader, with its line, and from the board, for the GUI)."""
    return f"{token!r} is not a call; the auction is read up to it ({plural(calls, 'call')})"


def auction_is_complete(calls: list[Call]) -> bool:
    passes = 0
    any_bid = False
    for c in calls:
        if c.kind == CallKind.PASS:
            passes += 1
        else:
            passes = 0
            any_bid = any_bid or c.kind == CallKind.BID
    return passes >= 4 or (any_bid and passes >= 3)


def final_contract(calls: list[Call], dealer: int = Seat.NORTH) -> tuple[Contract, Seat | None] | None:
    """The contract and declarer a completed auction reaches; None if unfinished."""
    if not auction_is_complete(calls):
        return None
    last_bid_index = None
    risk = 0
    for i, c in enumerate(calls):
        if c.kind == CallKind.BID:
            last_bid_index, risk = i, 0
        elif c.kind == CallKind.DOUBLE:
            risk = 1
        elif c.kind == CallKind.REDOUBLE:
            risk = 2
    if last_bid_index is None:
        return Contract.passed_out(), None
    bid = calls[last_bid_index]
    side = (int(dealer) + last_bid_index) % 2
    for i, c in enumerate(calls):
        seat = (int(dealer) + i) % 4
        if c.kind == CallKind.BID and c.strain == bid.strain and seat % 2 == side:
            return Contract(bid.level, bid.strain, risk), Seat(seat)
    raise AssertionError("unreachable")
