"""Par from a double-dummy table, worked out here: no DDS needed.

Par of a complete table used to be DDS's ``DealerParBin``: loading DDS for it cost 27 ms of every
``render`` and ``print`` of a board whose table the file holds, and of the window's first par line. This
module gives the same answer in pure Python (microseconds): ``tests/test_par_rules.py`` compares it with DDS's
``DealerPar`` on 20,000 seeded random and realistic tables and 300 hypothesis tables, each with a random dealer
and vulnerability (a review compared some 31 million, exhaustive families among them, and found no difference).

It follows the logic of DDS's ``DealerPar.cpp`` (Bo Haglund and Soren Hein, Apache License 2.0: see
``resources/licenses/DDS-Apache-2.0.txt``), written again in Python; the rules are Soren Hein's "dealer par":

* the side that can make the highest contract has the **primacy** (when both can make the same one, the
  side whose player able to make it comes first from the dealer round); if neither side makes seven
  tricks anywhere the deal is passed out;
* its candidate contracts are, in each strain, the highest it makes, from the highest contract down to the
  one that scores most (the lowest of equals);
* against each candidate the other side's cheapest doubled sacrifice is found, in every strain (in the
  candidate's strain the sacrificers may have to bid a level higher, when a player of the primacy side
  able to make it bids before them);
* the primacy side bids its best candidate that no sacrifice pays against, lowered to the least level
  that still keeps the sacrifices out and keeps its game or slam bonus; if the best sacrifice pays more
  than that, the par is the sacrifice (every strain and seat that goes down as few).

Contract numbers run 1 (1C) to 35 (7NT): ``5 * (level - 1) + strain + 1`` with the strain C D H S NT
= 0..4, as :class:`~bridgeview.model.cards.Strain` numbers them.  Arithmetic on them mirrors DDS's C,
integer division truncating toward zero included, so the odd corners agree as well as the usual ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..model.cards import Seat, Strain
from ..model.vulnerability import Vulnerability

_NO_SACRIFICE = 9999
_SEATS = "NESW"


@dataclass(frozen=True)
class ParContract:
    """One par contract: ``seats`` is N/E/S/W or NS/EW (either partner)."""

    level: int
    strain: Strain
    seats: str
    doubled: bool
    overtricks: int  # positive: made with overtricks; negative: tricks down (a sacrifice)

    def __str__(self) -> str:
        text = f"{self.seats} {self.level}{self.strain.letter}{'X' if self.doubled else ''}"
        if self.overtricks:
            text += f"{self.overtricks:+d}"
        return text


def contract_score(number: int, vulnerable: bool) -> int:
    """What contract ``number`` (1..35) scores undoubled when it makes exactly."""
    level, strain = (number - 1) // 5 + 1, (number - 1) % 5
    per_trick = 20 if strain < Strain.HEARTS else 30
    points = per_trick * level + (10 if strain == Strain.NOTRUMP else 0)
    score = points + (50 if points < 100 else (500 if vulnerable else 300))
    if level == 6:
        score += 750 if vulnerable else 500
    elif level == 7:
        score += 1500 if vulnerable else 1000
    return score


def doubled_penalty(down: int, vulnerable: bool) -> int:
    """What the defenders score when a doubled contract goes ``down`` tricks down."""
    if down <= 0:
        return 0
    if vulnerable:
        return 200 + 300 * (down - 1)
    return 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)


def _floor(number: int) -> int:
    """The lowest contract of ``number``'s strain that scores the same kind of bonus: 1 of the strain for a
    part score, the strain's game for a game, the contract itself for a slam."""
    level, strain = (number - 1) // 5 + 1, (number - 1) % 5
    if level >= 6:
        return number
    game = 3 if strain == Strain.NOTRUMP else (4 if strain >= Strain.HEARTS else 5)
    least = game if level >= game else 1
    return 5 * (least - 1) + strain + 1


def _down_target(number: int, vul_declarer: bool, vul_sacrificer: bool) -> int:
    """The most tricks a doubled sacrifice may go down and still cost less than ``number`` making."""
    score = contract_score(number, vul_declarer)
    down = 0
    while doubled_penalty(down + 1, vul_sacrificer) < score:
        down += 1
    return down


#: by contract number (0 unused): its score making exactly, non-vulnerable and vulnerable; the lowest contract
#: it may be lowered to; the most tricks a sacrifice may go down against it, by (declarer, sacrificer) vulnerable
_SCORE = tuple((0, 0) if n == 0 else (contract_score(n, False), contract_score(n, True)) for n in range(36))
_FLOOR = tuple(0 if n == 0 else _floor(n) for n in range(36))
_TARGET = tuple(
    {(a, b): 0 if n == 0 else _down_target(n, a, b) for a in (False, True) for b in (False, True)} for n in range(36)
)


def _trunc_div(a: int, b: int) -> int:
    """C's integer division (toward zero), which the rules' arithmetic assumes."""
    q = abs(a) // b
    return q if a >= 0 else -q


def _contract(level_number: int, strain: int, seats: str, overtricks: int) -> ParContract:
    return ParContract(
        level=(level_number - 1) // 5 + 1,
        strain=Strain(strain),
        seats=seats,
        doubled=overtricks < 0,
        overtricks=overtricks,
    )


def dealer_par(
    tricks: Sequence[Sequence[int]], vulnerability: Vulnerability, dealer: Seat
) -> tuple[int, list[ParContract]]:
    """Par score for NS and the par contracts (NT first, then S H D C), from a complete table
    (``tricks[seat][strain]``, seats N E S W, strains C D H S NT); ``(0, [])`` when passed out."""
    vul_by_side = (
        vulnerability in (Vulnerability.NS, Vulnerability.ALL),
        vulnerability in (Vulnerability.EW, Vulnerability.ALL),
    )
    par = _Par(tricks, int(dealer))
    side = par.primacy()
    if side is None:
        return 0, []
    score, contracts = par.outcome(side, vul_by_side[side], vul_by_side[1 - side])
    contracts.sort(key=lambda c: _BIN_ORDER[c.strain])
    return (score if side == 0 else -score), contracts


#: the order DDS lists par contracts in: NT, then S H D C
_BIN_ORDER = {Strain.NOTRUMP: 0, Strain.SPADES: 1, Strain.HEARTS: 2, Strain.DIAMONDS: 3, Strain.CLUBS: 4}


class _Par:
    """One table's par, worked out from the side with the primacy (0 NS, 1 EW)."""

    def __init__(self, tricks: Sequence[Sequence[int]], dealer: int) -> None:
        self.tricks = tricks
        self.dealer = dealer
        #: each side's highest contract in each strain (0 or less: it makes nothing there)
        self.highest = [[5 * (self.best(side, st) - 7) + st + 1 for st in range(5)] for side in (0, 1)]

    def best(self, side: int, strain: int) -> int:
        return max(self.tricks[side][strain], self.tricks[side + 2][strain])

    def seats(self, side: int, strain: int) -> str:
        """Who of the side takes most tricks in ``strain``: one seat or both."""
        high = self.best(side, strain)
        return "".join(_SEATS[s] for s in (side, side + 2) if self.tricks[s][strain] == high)

    def bidding_order(self) -> range:
        """Seats from the dealer round (take them modulo 4; their parity is their side)."""
        return range(self.dealer, self.dealer + 4)

    def primacy(self) -> int | None:
        """The side that can make the highest contract; the one whose player able to make it speaks first
        when both can; None when nobody makes seven tricks anywhere."""
        top = [max((n for n in self.highest[side] if n > 0), default=0) for side in (0, 1)]
        if top[0] != top[1]:
            return 0 if top[0] > top[1] else 1
        if top[0] == 0:
            return None
        strain = (top[0] - 1) % 5
        need = self.best(0, strain)
        return next(p % 2 for p in self.bidding_order() if self.tricks[p % 4][strain] == need)

    def sacrifices(self, side: int, number: int, strain: int) -> list[int]:
        """Tricks down of the other side's cheapest sacrifice over contract ``number`` in each strain."""
        downs = []
        for sac in range(5):
            theirs = self.highest[1 - side][sac]
            down = self.outbid(side, number, strain)[0] if sac == strain else _trunc_div(number - theirs + 4, 5)
            downs.append(_NO_SACRIFICE if theirs + 5 * down > 35 else down)
        return downs

    def outbid(self, side: int, number: int, strain: int) -> tuple[int, list[tuple[int, int]]]:
        """A sacrifice in the contract's own strain: tricks down of the cheapest (a level higher for an
        opponent after a player able to make the contract), and each opponent's (seat, contract number)
        going down that many."""
        need = (number + 34) // 5
        down, higher = _NO_SACRIFICE, 0
        by_seat: list[tuple[int, int, int]] = []
        for p in self.bidding_order():
            short = need - self.tricks[p % 4][strain]
            if p % 2 == side:
                higher = higher or int(short == 0)
            else:
                down = min(down, short + higher)
                by_seat.append((short + higher, p % 4, number + 5 * higher))
        return down, [(seat, at) for d, seat, at in by_seat if d == down]

    def outcome(self, side: int, vul: bool, vul_other: bool) -> tuple[int, list[ParContract]]:
        """The primacy side's score and the par contracts."""
        highest = self.highest[side]
        scores = {st: _SCORE[highest[st]][vul] for st in range(5) if highest[st] > 0}
        dearest_score = max(scores.values())
        dearest = min(highest[st] for st, sc in scores.items() if sc == dearest_score)
        # candidates: the highest contract of each strain, from the highest down to the dearest
        candidates = sorted((st for st in range(5) if highest[st] >= dearest), key=lambda st: -highest[st])
        best_plus, best_down = 0, 0
        sacrificed: tuple[int, list[int]] | None = None  # the first candidate a sacrifice pays against
        bids: list[tuple[int, int]] = []  # (strain, tricks the cheapest sacrifice falls short by: <= -1)
        for strain in candidates:
            downs = self.sacrifices(side, highest[strain], strain)
            target = _TARGET[highest[strain]][vul, vul_other]
            if min(downs) <= target:
                best_down = max(best_down, min(downs))
                # a lower candidate never draws a dearer sacrifice, nor is it worth bidding
                sacrificed = sacrificed or (strain, downs)
            else:
                best_plus = max(best_plus, scores[strain])
                bids.append((strain, target - min(downs)))
        penalty = doubled_penalty(best_down, vul_other)
        if sacrificed is None or best_plus > penalty:
            return best_plus, [self.bid(side, st, gap) for st, gap in bids if scores[st] == best_plus]
        strain, downs = sacrificed
        if min(downs) != best_down:  # DDS names no contract then (a lower candidate drew a dearer one)
            return penalty, []
        return penalty, [self.sacrifice(side, strain, sac, best_down) for sac in range(5) if downs[sac] == best_down]

    def bid(self, side: int, strain: int, gap: int) -> ParContract:
        """The primacy side's contract in ``strain``: lowered as far as the sacrifices stay out and the
        game or slam bonus stays in, the tricks made above it shown as overtricks."""
        number, plus = self.highest[side][strain], 0
        if gap < -1:
            lowered = max(number + 5 * (gap + 1), _FLOOR[number])
            number, plus = lowered, (number - lowered) // 5
        return _contract(number, strain, self.seats(side, strain), plus)

    def sacrifice(self, side: int, strain: int, sac: int, down: int) -> ParContract:
        """The other side's sacrifice in ``sac`` over the primacy side's contract in ``strain``: in its own
        strain by the one opponent going down least (the lower contract of two), or by both alike."""
        other = 1 - side
        if sac != strain:
            return _contract(self.highest[other][sac] + 5 * down, sac, self.seats(other, sac), -down)
        _, hits = self.outbid(side, self.highest[side][strain], strain)
        if len(hits) == 2 and hits[0][1] == hits[1][1]:
            return _contract(hits[0][1], strain, self.seats(other, strain), -down)
        seat, at = min(hits, key=lambda h: h[1])
        return _contract(at, strain, _SEATS[seat], -down)
