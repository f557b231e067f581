"""A board: a deal with everything formats say about it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from .cards import Card, Seat
from .ddtable import DDTable
from .deal import Deal
from .vulnerability import Vulnerability, dealer_for_board, vulnerability_for_board

if TYPE_CHECKING:
    from .auction import Call, Contract

#: The highest board number a file can give.  No format stores more than nine digits (LIN's and the
#: numpy readers' fields hold nine; BHG 9999, DUP 999, CDS 255), so a reader reports a larger number
#: as a problem on its board, which then has no number, rather than keep what nothing else could hold.
MAX_BOARD_NUMBER = 999_999_999


def board_number_problem(text: str) -> str | None:
    """Why the digits ``text`` are not a board number a file can give (None when they are)."""
    digits = text.lstrip("0")
    if len(digits) > len(str(MAX_BOARD_NUMBER)) or (digits and int(digits) > MAX_BOARD_NUMBER):
        shown = text if len(text) <= 40 else f"{text[:20]}… (a number of {len(text)} digits)"
        return f"board number {shown} is beyond {MAX_BOARD_NUMBER:,}, more than any format stores"
    return None


#: how :meth:`Board.problems` names the problem of a board that stands in for a record that could not be read
UNREADABLE_RECORD = "unreadable record: "


@dataclass(slots=True)
class Board:
    """One board.

    ``auction`` runs from the dealer; ``play`` is in play order from the
    opening lead; ``play_marks`` maps a play index to its punctuation (ZRJ,
    PBN suffixes).  ``claim`` is the total tricks declarer's side takes after a
    claim.  ``tags`` keeps free-form name/value data a format carries (PBN
    tags we do not model, LIN headers) so saving back loses nothing;
    ``source`` is codec-private data that lets a codec write an unmodified
    board back byte-for-byte (it is dropped by :meth:`touched`).
    ``unreadable`` says why the file's record for this board could not be
    decoded: the board stands in for it (numbered, no cards) so one bad record
    does not stop the rest of the file from opening.
    """

    number: int | None = None
    dealer: Seat | None = None
    vulnerability: Vulnerability | None = None
    deal: Deal = field(default_factory=Deal.empty)
    dd: DDTable | None = None
    auction: list[Call] | None = None
    play: list[Card] | None = None
    play_marks: dict[int, str] = field(default_factory=dict)
    contract: Contract | None = None
    declarer: Seat | None = None
    result: int | None = None
    claim: int | None = None
    tags: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    source: Any = field(default=None, compare=False)  # codec-private; not part of what the board says
    unreadable: str | None = None

    @classmethod
    def numbered(cls, number: int, deal: Deal | None = None, **kw: Any) -> Board:
        """A board whose dealer and vulnerability follow from its number."""
        return cls(
            number=number,
            dealer=dealer_for_board(number),
            vulnerability=vulnerability_for_board(number),
            deal=deal if deal is not None else Deal.empty(),
            **kw,
        )

    def copy(self, **changes: Any) -> Board:
        """A copy with ``changes`` applied; lists and dicts are copied too."""
        b = replace(
            self,
            auction=list(self.auction) if self.auction is not None else None,
            play=list(self.play) if self.play is not None else None,
            play_marks=dict(self.play_marks),
            tags=dict(self.tags),
            notes=list(self.notes),
        )
        for k, v in changes.items():
            setattr(b, k, v)
        return b

    def touched(self, **changes: Any) -> Board:
        """A copy with ``changes`` that no longer claims to be byte-identical to its source."""
        b = self.copy(**changes)
        b.source = None
        if "unreadable" not in changes:
            b.unreadable = None  # edited: it now stands for what the user made, not the bad record
        return b

    # -- derived --------------------------------------------------------
    @property
    def effective_dealer(self) -> Seat:
        if self.dealer is not None:
            return self.dealer
        return dealer_for_board(self.number) if self.number else Seat.NORTH

    @property
    def effective_vulnerability(self) -> Vulnerability:
        if self.vulnerability is not None:
            return self.vulnerability
        return vulnerability_for_board(self.number) if self.number else Vulnerability.NONE

    def contract_and_declarer(self) -> tuple[Contract | None, Seat | None]:
        """Stored contract/declarer, else what the auction reaches."""
        if self.contract is not None:
            return self.contract, self.declarer
        if self.auction:
            from .auction import final_contract  # (the auction's module only once a board has an auction)

            fc = final_contract(self.auction, self.effective_dealer)
            if fc is not None:
                return fc
        return None, self.declarer

    def problems(self) -> list[str]:
        """Everything wrong with this board, as sentences."""
        from .auction import AUCTION_REST, auction_problems, final_contract, unread_auction_problem
        from .play import replay

        out = [f"{UNREADABLE_RECORD}{self.unreadable}"] if self.unreadable else []
        out.extend(self.deal.problems())
        if self.number is not None and self.number < 1:
            out.append(f"board number {self.number} is not positive")
        rest = self.tags.get(AUCTION_REST)
        if rest and rest.split():
            out.append(unread_auction_problem(rest.split()[0], len(self.auction or ())))
        if self.auction:
            out.extend(auction_problems(self.auction, self.effective_dealer))
            fc = final_contract(self.auction, self.effective_dealer)
            if fc is not None and self.contract is not None:
                c, d = fc
                if str(c) != str(self.contract) or (self.declarer is not None and d is not None and d != self.declarer):
                    dtext = f" by {d.letter}" if d is not None else ""
                    said = f" by {self.declarer.letter}" if self.declarer is not None else ""
                    out.append(f"the auction reaches {c}{dtext}, but the contract says {self.contract}{said}")
            elif fc is not None and self.declarer is not None and fc[1] is not None and fc[1] != self.declarer:
                out.append(f"the auction's declarer is {fc[1].letter}, but the declarer says {self.declarer.letter}")
        if self.play:
            contract, declarer = self.contract_and_declarer()
            if declarer is not None and contract is not None and not contract.is_passed_out and self.deal.card_count:
                rp = replay(self.deal, self.play, declarer, contract.strain)
                if rp.problem:
                    out.append("play: " + rp.problem)
        if self.result is not None and not 0 <= self.result <= 13:
            out.append(f"result {self.result} tricks is impossible")
        return out


def read_board(
    number: int | None,
    dealer: Seat | None,
    vulnerability: Vulnerability | None,
    deal: Deal,
    declarer: Seat | None,
    tags: dict[str, str],
    dd: DDTable | None = None,
    contract: Contract | None = None,
    result: int | None = None,
) -> Board:
    """A board as a reader makes one a game: the generated ``__init__`` called by position, a third faster than
    by keyword (0.45 against 0.65 us: a PBN reader makes one a game of a file).  It stands beside the fields so
    that their order and this call change together (mypy checks each argument's type against its field's, and
    ``tests/test_model.py`` holds it to the call by keyword)."""
    return Board(number, dealer, vulnerability, deal, dd, None, None, {}, contract, declarer, result, None, tags)


def board_key(b: Board) -> tuple[object, ...]:
    """Everything the model says about a board, hashable, to notice edits.

    The tags are their names and their values as two tuples (the same test as their items, in order):
    two objects, not one a tag, made for every board read (the collector walks each of them)."""
    tags = b.tags
    return (
        b.number,
        b.dealer,
        b.vulnerability,
        b.deal.hands,
        b.dd,
        tuple(b.auction) if b.auction is not None else None,
        tuple(b.play) if b.play is not None else None,
        tuple(b.play_marks.items()) if b.play_marks else (),
        b.contract,
        b.declarer,
        b.result,
        b.claim,
        (tuple(tags), tuple(tags.values())) if tags else _NO_TAGS,
        tuple(b.notes),
    )


#: the tags part of the fingerprint of a board without tags (one object for all of them: a deal generator's
#: boards have none, and a reader fingerprints every board)
_NO_TAGS: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
