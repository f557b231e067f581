"""Telling how two deals, and two board sets, differ: the words a director needs.

Qt-free; used by ``bridgeview check --against``, ``bridgeview diff`` and the
GUI's Compare With… window.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.board import Board
from ..model.cards import CARDS, DISPLAY_SUITS
from ..model.deal import Deal
from ..model.text import plural

SEAT_NAMES = ("North", "East", "South", "West")
#: At most this many moved cards are named one by one; the rest are counted.
MAX_CARDS_NAMED = 6
#: With more cards than this elsewhere, two deals are told as different deals, not as moved cards.
DIFFERENT_DEAL = 12
_ROTATIONS = {1: "90° clockwise", 2: "180°", 3: "90° anticlockwise"}


def _card_text(card: int) -> str:
    """``♠Q``: suit symbol then rank, as the diagrams show it."""
    c = CARDS[card]
    rank = str(c)[1:]
    return f"{c.suit.symbol}{'10' if rank == 'T' else rank}"


def _display_order(cards: list[int]) -> list[int]:
    """Spades first, then hearts, diamonds, clubs; high cards first within a suit."""
    order = {s: i for i, s in enumerate(DISPLAY_SUITS)}
    return sorted(cards, key=lambda c: (order[CARDS[c].suit], -c))


def rotation(a: Deal, b: Deal) -> int | None:
    """k (1-3) when ``a`` is ``b`` with every hand moved k seats clockwise; None otherwise."""
    for k in (1, 2, 3):
        if all(a.hands[(s + k) % 4] == b.hands[s] for s in range(4)):
            return k
    return None


def deal_difference(a: Deal, b: Deal, *, here: str = "here", there: str = "there") -> str | None:
    """How deal ``a`` differs from ``b`` in one phrase; None when they are the same.

    Whole hands that moved are told as a rotation or a swap; otherwise each card
    that is elsewhere is named (``♠Q is with East here, with West there``).
    """
    if a.hands == b.hands:
        return None
    k = rotation(a, b)
    if k is not None and not a.is_empty:
        return f"hands rotated {_ROTATIONS[k]}"
    if sorted(a.hands) == sorted(b.hands) and len(set(a.hands)) == 4:
        moved = [s for s in range(4) if a.hands[s] != b.hands[s]]
        if len(moved) == 2:
            x, y = moved
            return f"{SEAT_NAMES[x]} and {SEAT_NAMES[y]} swapped"
        where = [f"{SEAT_NAMES[b.hands.index(a.hands[s])]}'s hand is with {SEAT_NAMES[s]}" for s in moved]
        return "hands moved: " + ", ".join(where)
    oa, ob = a.owners(), b.owners()
    cards = _display_order([c for c in range(52) if oa[c] != ob[c]])

    def seat(code: int) -> str:
        return SEAT_NAMES[code] if code < 4 else "no hand"

    named = [
        f"{_card_text(c)} is with {seat(oa[c])} {here}, with {seat(ob[c])} {there}" for c in cards[:MAX_CARDS_NAMED]
    ]
    rest = len(cards) - len(named)
    text = "; ".join(named)
    if rest:
        text += f"; and {plural(rest, 'more card')}"
    return text


@dataclass
class BoardDiff:
    """One board that differs between two sets (``number`` None: an unnumbered record)."""

    number: int | None
    kind: str  # "deal", "only_a", "only_b", "tags"
    message: str
    index_a: int | None = None
    index_b: int | None = None
    tags: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return f"board {self.number}: {self.message}" if self.number is not None else self.message


def moved_cards(a: Deal, b: Deal) -> int:
    """How many cards are in different hands (or in none) in ``a`` and ``b``."""
    oa, ob = a.owners(), b.owners()
    return sum(1 for c in range(52) if oa[c] != ob[c])


def _deal_index(boards) -> dict:
    """Board numbers by deal, the hands in any order (so a rotated copy is found too)."""
    out: dict = {}
    for i in range(len(boards)):
        deal = boards[i].deal
        if deal.card_count:
            out.setdefault(tuple(sorted(deal.hands)), _key(boards, i))
    return out


def _other_deal(da: Deal, db: Deal, a, b, cache: dict, name_a: str, name_b: str) -> str:
    """Words for two boards with unrelated deals: whose deal each one holds, when another board's."""
    if not cache:
        cache["a"], cache["b"] = _deal_index(a), _deal_index(b)
    deals_a, deals_b = cache["a"], cache["b"]
    bits = [f"a different deal ({moved_cards(da, db)} cards elsewhere)"]
    twin = deals_b.get(tuple(sorted(da.hands)))
    if twin is not None:
        how = deal_difference(da, b[_index_of(b, twin)].deal)
        bits.append(f"{name_a}'s deal is board {twin} in {name_b}" + (f", {how}" if how else ""))
    twin = deals_a.get(tuple(sorted(db.hands)))
    if twin is not None:
        how = deal_difference(db, a[_index_of(a, twin)].deal)
        bits.append(f"{name_b}'s deal is board {twin} in {name_a}" + (f", {how}" if how else ""))
    return "; ".join(bits)


def _index_of(boards, number: int) -> int:
    return next(i for i in range(len(boards)) if _key(boards, i) == number)


def _key(boards, i: int) -> int:
    n = boards[i].number
    return n if n is not None else i + 1


def tag_differences(a: Board, b: Board) -> list[str]:
    """Fields and tags (PBN, LIN) that differ between two boards with the same deal, as ``Name: x / y``."""
    out = []
    if a.dealer is not None and b.dealer is not None and a.dealer != b.dealer:
        out.append(f"Dealer: {a.dealer.letter} / {b.dealer.letter}")
    if a.vulnerability is not None and b.vulnerability is not None and a.vulnerability != b.vulnerability:
        out.append(f"Vulnerable: {a.vulnerability.text} / {b.vulnerability.text}")
    ca, _ = a.contract_and_declarer()
    cb, _ = b.contract_and_declarer()
    if ca is not None and cb is not None and str(ca) != str(cb):
        out.append(f"Contract: {ca} / {cb}")
    for name in sorted(set(a.tags) | set(b.tags)):
        va, vb = a.tags.get(name), b.tags.get(name)
        if va is not None and vb is not None and va != vb:
            out.append(f"{name}: {va} / {vb}")
    return out


def compare_sets(
    a,
    b,
    *,
    name_a: str = "A",
    name_b: str = "B",
    tags: bool = True,
    here: str | None = None,
    there: str | None = None,
) -> list[BoardDiff]:
    """Every board that differs between sets ``a`` and ``b``, matched by board number.

    Unnumbered boards are matched by position.  With ``tags``, boards with the same
    deal whose tags differ are listed too (kind ``tags``).  A moved card is "with East
    in A, with West in B" unless ``here``/``there`` name the sides otherwise."""
    here = here if here is not None else f"in {name_a}"
    there = there if there is not None else f"in {name_b}"
    out: list[BoardDiff] = []
    cache: dict[str, dict] = {}  # deal indexes, built on the first unrelated pair
    na = {_key(a, i): i for i in reversed(range(len(a)))}
    nb = {_key(b, i): i for i in reversed(range(len(b)))}
    for num in sorted(set(na) | set(nb)):
        ia, ib = na.get(num), nb.get(num)
        if ib is None:
            out.append(BoardDiff(num, "only_a", f"only in {name_a}", index_a=ia))
            continue
        if ia is None:
            out.append(BoardDiff(num, "only_b", f"only in {name_b}", index_b=ib))
            continue
        ba, bb = a[ia], b[ib]
        what = deal_difference(ba.deal, bb.deal, here=here, there=there)
        if (
            what is not None
            and sorted(ba.deal.hands) != sorted(bb.deal.hands)
            and moved_cards(ba.deal, bb.deal) > DIFFERENT_DEAL
        ):  # not the same hands moved round
            what = _other_deal(ba.deal, bb.deal, a, b, cache, name_a, name_b)
        if what is not None:
            out.append(BoardDiff(num, "deal", what, ia, ib))
        elif tags:
            diffs = tag_differences(ba, bb)
            if diffs:
                out.append(BoardDiff(num, "tags", "same deal; " + "; ".join(diffs), ia, ib, diffs))
    return out


__all__ = ["BoardDiff", "SEAT_NAMES", "compare_sets", "deal_difference", "rotation", "tag_differences"]
