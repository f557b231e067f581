"""Telling how two deals, and two board sets, differ: the words a director needs.

Qt-free; used by ``bridgeview check --against``, ``bridgeview diff`` and the
GUI's Compare With… window.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..model.board import Board
from ..model.boardset import Boards
from ..model.cards import CARDS, DISPLAY_SUITS
from ..model.deal import Deal
from ..model.text import plural

SEAT_NAMES = ("North", "East", "South", "West")
#: At most this many moved cards are named one by one; the rest are counted.
MAX_CARDS_NAMED = 6
#: With more cards than this elsewhere, two deals are told as different deals, not as moved cards.
DIFFERENT_DEAL = 12
#: board numbers by deal (its hands sorted)
DealIndex = dict[tuple[int, ...], int]
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
    """One board (or one of its tables) that differs between two sets (``number`` None: an unnumbered record).

    ``table`` names the table when the board has several (``closed room``, ``table 3``); a board paired by its
    deal under another number (a renumbered set) has kind ``renumbered`` and ``number_b``, B's number."""

    number: int | None
    kind: str  # "deal", "renumbered", "only_a", "only_b", "tags"
    message: str
    index_a: int | None = None
    index_b: int | None = None
    tags: list[str] = field(default_factory=list)
    table: str = ""
    number_b: int | None = None

    def __str__(self) -> str:
        if self.kind == "renumbered" or self.number is None:
            return self.message
        return f"board {self.number}{f' ({self.table})' if self.table else ''}: {self.message}"


@dataclass(frozen=True)
class Pair:
    """A table of set A and its twin in set B (None: that side has no twin).  ``number_a``/``number_b`` are the
    boards' numbers (position for an unnumbered record); ``table`` names the table when a board has several;
    ``by_deal``: paired by the deal, the numbers differing (a renumbered copy)."""

    index_a: int | None
    index_b: int | None
    number_a: int | None
    number_b: int | None
    table: str = ""
    by_deal: bool = False

    @property
    def number(self) -> int | None:
        return self.number_a if self.number_a is not None else self.number_b


def _boards_by_number(boards: Boards) -> dict[int, list[int]]:
    """Each board number's records (the tables of the board, or records that contradict it), in file order;
    an unnumbered record is keyed by its position."""
    out: dict[int, list[int]] = {}
    for i in range(len(boards)):
        out.setdefault(_key(boards, i), []).append(i)
    return out


def _table_label(room: str | None, k: int) -> str:
    """``closed room``, else ``table 3``: which of a board's tables a record is."""
    return f"{room.lower()} room" if room else f"table {k + 1}"


def _pair_tables(a: Boards, ia: list[int], b: Boards, ib: list[int], na: int, nb: int, by_deal: bool) -> list[Pair]:
    """The tables of one board in each set paired: every table with the other set's one record of the board
    (hand records against a match: each room must hold the records' deal), else by room when every table on
    both sides names a room of its own, else by their order among the board's records."""
    rooms_a = [a[i].tags.get("Room") for i in ia]
    rooms_b = [b[i].tags.get("Room") for i in ib]
    if len(ib) == 1:
        several = len(ia) > 1
        return [
            Pair(i, ib[0], na, nb, _table_label(r, k) if several else "", by_deal)
            for k, (i, r) in enumerate(zip(ia, rooms_a, strict=True))
        ]
    if len(ia) == 1:
        return [
            Pair(ia[0], j, na, nb, _table_label(r, k), by_deal)
            for k, (j, r) in enumerate(zip(ib, rooms_b, strict=True))
        ]
    out: list[Pair] = []
    if all(rooms_a) and all(rooms_b) and len(set(rooms_a)) == len(ia) and len(set(rooms_b)) == len(ib):
        where_b = dict(zip(rooms_b, ib, strict=True))
        for i, room in zip(ia, rooms_a, strict=True):
            out.append(Pair(i, where_b.pop(room, None), na, nb, _table_label(room, 0), by_deal))
        out.extend(Pair(None, j, na, nb, _table_label(room, 0), by_deal) for room, j in where_b.items())
        return out
    for k in range(max(len(ia), len(ib))):
        room = (rooms_a[k] if k < len(ia) else None) or (rooms_b[k] if k < len(ib) else None)
        out.append(
            Pair(ia[k] if k < len(ia) else None, ib[k] if k < len(ib) else None, na, nb, _table_label(room, k), by_deal)
        )
    return out


def pair_sets(a: Boards, b: Boards) -> list[Pair]:
    """Every table of ``a`` and of ``b``, paired: boards by number, their tables by room or order
    (:func:`_pair_tables`); boards whose numbers the other set lacks by their deal, hands in any seats (the
    same deals numbered 17-32 and turned pair with 1-16).  In board-number order, unpaired ones included."""
    na, nb = _boards_by_number(a), _boards_by_number(b)
    pairs: list[Pair] = []
    for num in sorted(set(na) & set(nb)):
        pairs.extend(_pair_tables(a, na[num], b, nb[num], num, num, False))
    only_a = [n for n in sorted(na) if n not in nb]
    only_b = [n for n in sorted(nb) if n not in na]
    deals_b: dict[tuple[int, ...], list[int]] = {}
    for n in only_b:
        deal = b[nb[n][0]].deal
        if deal.card_count:
            deals_b.setdefault(tuple(sorted(deal.hands)), []).append(n)
    matched_b: set[int] = set()
    for n in only_a:
        deal = a[na[n][0]].deal
        twins = deals_b.get(tuple(sorted(deal.hands)), []) if deal.card_count else []
        if twins:
            m = twins.pop(0)
            matched_b.add(m)
            pairs.extend(_pair_tables(a, na[n], b, nb[m], n, m, True))
        else:
            pairs.extend(
                Pair(i, None, n, None, f"table {k + 1}" if len(na[n]) > 1 else "") for k, i in enumerate(na[n])
            )
    for m in only_b:
        if m not in matched_b:
            pairs.extend(
                Pair(None, j, None, m, f"table {k + 1}" if len(nb[m]) > 1 else "") for k, j in enumerate(nb[m])
            )
    pairs.sort(key=lambda p: (p.number if p.number is not None else 0, p.index_a if p.index_a is not None else -1))
    return pairs


def moved_cards(a: Deal, b: Deal) -> int:
    """How many cards are in different hands (or in none) in ``a`` and ``b``."""
    oa, ob = a.owners(), b.owners()
    return sum(1 for c in range(52) if oa[c] != ob[c])


def _deal_index(boards: Boards) -> DealIndex:
    """Board numbers by deal, the hands in any order (so a rotated copy is found too)."""
    out: DealIndex = {}
    for i in range(len(boards)):
        deal = boards[i].deal
        if deal.card_count:
            out.setdefault(tuple(sorted(deal.hands)), _key(boards, i))
    return out


def _other_deal(da: Deal, db: Deal, a: Boards, b: Boards, cache: dict[str, DealIndex], name_a: str, name_b: str) -> str:
    """Words for two boards with unrelated deals: whose deal each one holds, when another board's (its hands
    turned round told naming the files)."""
    if not cache:
        cache["a"], cache["b"] = _deal_index(a), _deal_index(b)
    deals_a, deals_b = cache["a"], cache["b"]
    bits = [f"a different deal ({moved_cards(da, db)} cards elsewhere)"]
    for deal, index, other, name, other_name in ((da, deals_b, b, name_a, name_b), (db, deals_a, a, name_b, name_a)):
        twin = index.get(tuple(sorted(deal.hands)))
        if twin is None:
            continue
        twin_deal = other[_index_of(other, twin)].deal
        k = rotation(deal, twin_deal)
        if k is not None:
            bits.append(f"{name}'s deal is {other_name}'s board {twin} with its hands turned {_ROTATIONS[k]}")
            continue
        how = deal_difference(deal, twin_deal)
        bits.append(f"{name}'s deal is board {twin} in {other_name}" + (f", {how}" if how else ""))
    return "; ".join(bits)


def _index_of(boards: Boards, number: int) -> int:
    return next(i for i in range(len(boards)) if _key(boards, i) == number)


def _key(boards: Boards, i: int) -> int:
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
    a: Boards,
    b: Boards,
    *,
    name_a: str = "A",
    name_b: str = "B",
    tags: bool = True,
    here: str | None = None,
    there: str | None = None,
    pairs: list[Pair] | None = None,
) -> list[BoardDiff]:
    """Every table that differs between sets ``a`` and ``b``, paired by :func:`pair_sets` (or ``pairs``).

    With ``tags``, tables with the same deal whose tags differ are listed too (kind ``tags``).  A moved card is
    "with East in A, with West in B" unless ``here``/``there`` name the sides otherwise; hands turned round are
    told naming the file they describe ("B has A's hands turned 90° clockwise"), whichever side is A."""
    here = here if here is not None else f"in {name_a}"
    there = there if there is not None else f"in {name_b}"
    out: list[BoardDiff] = []
    cache: dict[str, DealIndex] = {}  # deal indexes, built on the first unrelated pair
    pairs = pair_sets(a, b) if pairs is None else pairs
    only: dict[tuple[str, int | None], list[Pair]] = {}
    for p in pairs:
        if p.index_a is None or p.index_b is None:
            only.setdefault(("only_a" if p.index_b is None else "only_b", p.number), []).append(p)
            continue
        ba, bb = a[p.index_a], b[p.index_b]
        what = _deal_words(ba.deal, bb.deal, a, b, cache, name_a, name_b, here, there)
        if p.by_deal:
            moved = f"board {p.number_b} in {name_b} is board {p.number_a} in {name_a}"
            table = f" ({p.table})" if p.table else ""
            k = rotation(bb.deal, ba.deal)
            if k is not None and what is not None:
                what = f"its hands turned {_ROTATIONS[k]}"  # "its": the board named first, in B
            message = moved + table + (f", {what}" if what else "")
            out.append(
                BoardDiff(p.number_a, "renumbered", message, p.index_a, p.index_b, table=p.table, number_b=p.number_b)
            )
        elif what is not None:
            out.append(BoardDiff(p.number_a, "deal", what, p.index_a, p.index_b, table=p.table))
        elif tags:
            diffs = tag_differences(ba, bb)
            if diffs:
                text = "same deal; " + "; ".join(diffs)
                out.append(BoardDiff(p.number_a, "tags", text, p.index_a, p.index_b, diffs, table=p.table))
    for (kind, number), group in only.items():
        name = name_a if kind == "only_a" else name_b
        side_has = [p for p in pairs if p.number == number and p.index_a is not None and p.index_b is not None]
        if side_has:  # the board is on both sides, this table on one only
            for p in group:
                out.append(BoardDiff(number, kind, f"only in {name}", p.index_a, p.index_b, table=p.table))
            continue
        tables = f" ({plural(len(group), 'table')})" if len(group) > 1 else ""
        first = group[0]
        out.append(BoardDiff(number, kind, f"only in {name}{tables}", first.index_a, first.index_b))
    out.sort(key=lambda d: (d.number if d.number is not None else 0, d.index_a if d.index_a is not None else -1))
    return out


def _deal_words(
    da: Deal,
    db: Deal,
    a: Boards,
    b: Boards,
    cache: dict[str, DealIndex],
    name_a: str,
    name_b: str,
    here: str,
    there: str,
) -> str | None:
    """How B's deal differs from A's, in one phrase (None: the same): hands turned round (naming the file
    they describe), hands swapped, cards moved, or a different deal (whose deal each one is, when another's)."""
    if da.hands == db.hands:
        return None
    k = rotation(db, da)
    if k is not None and not da.is_empty:
        return f"{name_b} has {name_a}'s hands turned {_ROTATIONS[k]}"
    what = deal_difference(da, db, here=here, there=there)
    if sorted(da.hands) != sorted(db.hands) and moved_cards(da, db) > DIFFERENT_DEAL:  # not the same hands moved
        what = _other_deal(da, db, a, b, cache, name_a, name_b)
    return what


def diff_summary(pairs: list[Pair], diffs: list[BoardDiff]) -> str:
    """``same deals on all 15 boards (30 tables)`` or ``3 of 30 tables differ`` (``… of 16 boards …`` when every
    board has one table), and how many differ in their tags only."""
    boards = len({(p.number_a, p.number_b) for p in pairs})
    several = len(pairs) > boards
    differ = {(d.index_a, d.index_b) for d in diffs if d.kind in ("deal", "renumbered")}
    bad = [p for p in pairs if p.index_a is None or p.index_b is None or (p.index_a, p.index_b) in differ]
    if bad:
        if several:
            return f"{len(bad)} of {plural(len(pairs), 'table')} differ"
        return f"{len({(p.number_a, p.number_b) for p in bad})} of {plural(boards, 'board')} differ"
    text = f"same deals on all {plural(boards, 'board')}" + (f" ({plural(len(pairs), 'table')})" if several else "")
    tags = len(diffs)
    return text + (f" ({tags} with different tags)" if tags else "")


__all__ = [
    "BoardDiff",
    "Pair",
    "SEAT_NAMES",
    "compare_sets",
    "deal_difference",
    "diff_summary",
    "pair_sets",
    "rotation",
    "tag_differences",
]
