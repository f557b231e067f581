"""Shuffling many deals at once: fair, exact, and without a Python loop per deal.

**The shuffle.**  The cards that are not predealt are dealt one after another.
A card goes to a seat with probability (cards that seat still needs) / (cards
still to deal): a uniform whole number ``r`` below the cards still to deal is
compared with the running totals of the seats' needs.  Every deal with the
predealt cards in place is then equally likely (the chance of any one deal is
the product of those fractions, the same for all).  The loop runs over the 52
cards, not over the deals: each step is a handful of numpy operations on
arrays of tens of thousands of deals.

**The random numbers.**  Each ``r`` must be exactly uniform: no modulo bias.
Several steps share one 32-bit random word ``u``: with ``m1 * m2 * ... <= 2**23``
the digits ``r1 = u * m1 >> 32``, then ``r2 = (u * m1 mod 2**32) * m2 >> 32`` and so
on are the mixed-radix digits of ``u * M >> 32`` (``M`` the product), which is
exactly uniform below ``M`` when ``u * M mod 2**32`` is not below ``2**32 mod M``
(Lemire's method).  A deal whose words fail that test (about 1 in 600) is
thrown away whole -- it was never dealt, so it is not counted -- and the rest
stay exactly uniform.  Eleven words (44 bytes) make a deal.  The words come from
the operating system's secure generator (``os.urandom``) unless a seed is
given; a seed makes a repeatable stream (numpy's PCG64, one stream a chunk,
``SeedSequence(seed, spawn_key=(chunk,))``), the same on every machine and for
any number of processes.

**Predeal.**  Predealt cards are simply not dealt.  A suit length
(``spades(north) == 1``) is dealt exactly: the seat with the least likely
lengths gets its hand first, each constrained suit dealt on its own with the
seat's quota, the rest of its hand from the other suits; the other seats share
what is left.  Lengths asked of a second seat are then checked, and a deal
that misses them is thrown away (not counted), which keeps every deal that
meets all the lengths equally likely.

Hands are 64-bit *slot masks*: suit ``s`` in bits ``16 s`` to ``16 s + 12`` (the
deuce lowest), so a suit's holding is a shift and a mask away.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from math import comb, prod
from typing import TYPE_CHECKING

from .lexer import ScriptError
from .script import Script

if TYPE_CHECKING:
    import numpy as np

#: the largest product of step sizes that share a 32-bit random word
WORD_LIMIT = 1 << 23
SUIT_BITS = 0x1FFF


def slot_of(card: int) -> int:
    """Slot (bit) of a card 0-51 (``13 * suit + rank - 2``) in a slot mask."""
    return 16 * (card // 13) + card % 13


def slots_of_mask(mask: int) -> int:
    """A 52-bit hand mask (bridgeview's card numbering) as a slot mask."""
    return sum(((mask >> (13 * suit)) & SUIT_BITS) << (16 * suit) for suit in range(4))


def word_groups(steps: int) -> list[list[int]]:
    """The step sizes ``steps, steps - 1, ..., 2`` grouped so each group's product fits one word."""
    groups: list[list[int]] = []
    current: list[int] = []
    product = 1
    for m in range(steps, 1, -1):
        if product * m > WORD_LIMIT:
            groups.append(current)
            current, product = [], 1
        current.append(m)
        product *= m
    if current:
        groups.append(current)
    return groups


class RandomStream:
    """The random 32-bit words of one chunk: from ``os.urandom``, or from the seed's stream for the chunk."""

    def __init__(self, seed: int | None, chunk: int) -> None:
        self._generator = None
        if seed is not None:
            import numpy as np

            self._generator = np.random.PCG64(np.random.SeedSequence(seed, spawn_key=(chunk,)))

    def words(self, count: int) -> np.ndarray:
        """``count`` uniform uint32 words."""
        import numpy as np

        if self._generator is None:
            return np.frombuffer(os.urandom(4 * count), dtype="<u4").astype(np.uint32, copy=False)
        raw = self._generator.random_raw((count + 1) // 2)
        return raw.astype("<u8", copy=False).view("<u4")[:count].astype(np.uint32, copy=False)


@dataclass(frozen=True)
class _Group:
    """Cards dealt together among some seats with fixed needs (all the free cards, or one suit of a
    constrained seat)."""

    slots: tuple[int, ...]
    seats: tuple[int, ...]
    needs: tuple[int, ...]


@dataclass
class Plan:
    """How a script's deals are dealt: computed once, used for every chunk."""

    predeal: tuple[int, int, int, int]  # slot masks
    free: tuple[int, ...]  # slots of the cards that are dealt
    needs: tuple[int, int, int, int]  # cards each seat still needs
    #: with suit lengths: the seat dealt first, its groups, and the lengths checked afterwards
    first_seat: int | None = None
    first_groups: tuple[_Group, ...] = ()
    checked: tuple[tuple[int, int, int], ...] = ()  # (seat, suit, cards)
    words_per_deal: int = field(default=0)
    _scratch: dict[tuple[int, int], np.ndarray] = field(default_factory=dict, repr=False, compare=False)

    def scratch(self, categories: int, n: int) -> np.ndarray:
        """The shuffle's ``(categories, 64, n)`` rows, kept from chunk to chunk: the loop writes the same
        rows (the free cards' slots) every time and the others stay zero, so the 12 MB are neither
        allocated nor faulted in again for each chunk."""
        import numpy as np

        rows = self._scratch.get((categories, n))
        if rows is None:
            self._scratch.clear()
            rows = self._scratch[(categories, n)] = np.zeros((categories, 64, n), dtype=bool)
        return rows


def make_plan(script: Script) -> Plan:
    """The plan for ``script``'s predeal; ScriptError when its suit lengths cannot be met."""
    predeal = tuple(slots_of_mask(m) for m in script.predeal)
    taken = predeal[0] | predeal[1] | predeal[2] | predeal[3]
    free = tuple(slot_of(c) for c in range(52) if not (taken >> slot_of(c)) & 1)
    needs = tuple(13 - m.bit_count() for m in script.predeal)
    plan = Plan((predeal[0], predeal[1], predeal[2], predeal[3]), free, (needs[0], needs[1], needs[2], needs[3]))
    if script.lengths:
        _plan_lengths(plan, script.lengths)
    plan.words_per_deal = _words_per_deal(plan)
    return plan


def _suit_of_slot(slot: int) -> int:
    return slot // 16


def _plan_lengths(plan: Plan, lengths: tuple[tuple[int, int, int], ...]) -> None:
    """Choose the seat dealt first (the least likely lengths) and check that the lengths can be met."""
    by_seat: dict[int, dict[int, int]] = {}
    for seat, suit, n in lengths:
        predealt = ((plan.predeal[seat] >> (16 * suit)) & SUIT_BITS).bit_count()
        if n < predealt:
            raise ScriptError(f"{_SEAT[seat]} is predealt {predealt} {_SUIT[suit]}, more than the {n} asked for")
        by_seat.setdefault(seat, {})[suit] = n - predealt
    for suit in range(4):
        asked = sum(n for seat, s_, n in lengths if s_ == suit)
        if asked > 13:
            raise ScriptError(f"the predeal asks for {asked} {_SUIT[suit]}; there are 13")
    best: tuple[float, int, tuple[_Group, ...]] | None = None
    for seat, quotas in by_seat.items():
        groups, chance = _seat_groups(plan, seat, quotas)
        if best is None or chance < best[0]:
            best = (chance, seat, groups)
    assert best is not None
    chance, seat, groups = best
    if chance == 0:
        raise ScriptError(f"no deal gives {_SEAT[seat]} the suit lengths the predeal asks for")
    plan.first_seat = seat
    plan.first_groups = groups
    plan.checked = tuple(x for x in lengths if x[0] != seat)


def _seat_groups(plan: Plan, seat: int, quotas: dict[int, int]) -> tuple[tuple[_Group, ...], float]:
    """The groups that deal ``seat`` exactly its suit quotas, and the chance a random deal would."""
    groups: list[_Group] = []
    chance = 1.0
    need = plan.needs[seat]
    rest = [slot for slot in plan.free if _suit_of_slot(slot) not in quotas]
    for suit, quota in sorted(quotas.items()):
        slots = tuple(slot for slot in plan.free if _suit_of_slot(slot) == suit)
        if quota > len(slots):
            return (), 0.0
        groups.append(_Group(slots, (seat, -1), (quota, len(slots) - quota)))
        need -= quota
    if need < 0 or need > len(rest):
        return (), 0.0
    groups.append(_Group(tuple(rest), (seat, -1), (need, len(rest) - need)))
    ways = prod(comb(len(g.slots), g.needs[0]) for g in groups)
    chance = ways / comb(len(plan.free), plan.needs[seat])
    return tuple(groups), chance


def _words_per_deal(plan: Plan) -> int:
    if plan.first_seat is None:
        return len(word_groups(len(plan.free))) if _dealt_seats(plan.needs) > 1 else 0
    words = sum(len(word_groups(len(g.slots))) for g in plan.first_groups)
    others = [n for s, n in enumerate(plan.needs) if s != plan.first_seat]
    if sum(1 for n in others if n) > 1:
        words += len(word_groups(sum(others)))
    return words


def _dealt_seats(needs: tuple[int, ...]) -> int:
    return sum(1 for n in needs if n)


_SEAT = ("north", "east", "south", "west")
_SUIT = ("clubs", "diamonds", "hearts", "spades")


# -- the shuffle ----------------------------------------------------------------------------------
def deal(plan: Plan, stream: RandomStream, n: int) -> np.ndarray:
    """Up to ``n`` random deals as holdings: a ``(4, 4, k)`` uint16 array ``[seat N E S W][suit C D H S]``
    of 13-bit rank masks (the deuce lowest).  ``k`` is ``n`` less the deals whose random words were
    rejected (and, with suit lengths, that missed them)."""
    hands, kept = deal_all(plan, stream, n)
    return hands if kept is None else hands[:, :, kept]


def deal_all(plan: Plan, stream: RandomStream, n: int) -> tuple[np.ndarray, np.ndarray | None]:
    """``n`` deals, with the booleans of those to keep (None: all): the others' random words were
    rejected or they missed a suit length.  They are still complete deals, so the engine evaluates
    all ``n`` and leaves those out afterwards, which is cheaper than copying the kept ones first."""
    import numpy as np

    words = stream.words(plan.words_per_deal * n).reshape(plan.words_per_deal, n) if plan.words_per_deal else None
    if plan.first_seat is None:
        hands, ok = _deal_free(plan, words, n)
    else:
        hands, ok = _deal_lengths(plan, words, n)
    for seat in range(4):
        for suit in range(4):
            predealt = (plan.predeal[seat] >> (16 * suit)) & SUIT_BITS
            if predealt:
                hands[seat, suit] |= np.uint16(predealt)
    for seat, suit, cards in plan.checked:
        passed = popcount(hands[seat, suit]) == cards
        ok = passed if ok is None else ok & passed
    if ok is not None and ok.all():
        ok = None
    return hands, ok


def _free_holdings(slots: tuple[int, ...] | list[int]) -> list[int]:
    """Per suit, the 13-bit mask of the given slots."""
    out = [0, 0, 0, 0]
    for slot in slots:
        out[slot // 16] |= 1 << (slot % 16)
    return out


def _deal_free(plan: Plan, words: np.ndarray | None, n: int) -> tuple[np.ndarray, np.ndarray | None]:
    """Deal every free card among the seats that need cards."""
    import numpy as np

    hands = np.zeros((4, 4, n), dtype=np.uint16)
    seats = [s for s in range(4) if plan.needs[s]]
    everything = _free_holdings(plan.free)
    if len(seats) == 1:
        for suit in range(4):
            hands[seats[0], suit] = everything[suit]
        return hands, None
    if not seats:
        return hands, None
    assert words is not None
    rows = plan.scratch(len(seats) - 1, n)
    ok = _assign(len(plan.free), [plan.needs[s] for s in seats], words, n, rows, list(plan.free))
    _split_cumulative(hands, seats, holdings_of_rows(rows), everything)
    return hands, ok


def _split_cumulative(hands: np.ndarray, seats: list[int], cumulative: np.ndarray, everything: list[int]) -> None:
    """Seats' holdings from cumulative ones (the first seat, the first two, ...); the last seat gets
    the rest of ``everything`` (per suit)."""
    import numpy as np

    for k, seat in enumerate(seats[:-1]):
        hands[seat] = cumulative[k] if k == 0 else cumulative[k] & ~cumulative[k - 1]
    rest = np.array(everything, dtype=np.uint16)[:, None]
    hands[seats[-1]] = rest & ~cumulative[-1]


def _deal_lengths(plan: Plan, words: np.ndarray | None, n: int) -> tuple[np.ndarray, np.ndarray | None]:
    """Deal the first seat its exact suit lengths, then the rest of the cards among the others."""
    import numpy as np

    assert plan.first_seat is not None
    hands = np.zeros((4, 4, n), dtype=np.uint16)
    ok: np.ndarray | None = None
    row = 0
    first = hands[plan.first_seat]
    for group in plan.first_groups:
        whole = _free_holdings(group.slots)
        if group.needs[1] == 0:
            first |= np.array(whole, dtype=np.uint16)[:, None]
            continue
        if group.needs[0] == 0:
            continue
        assert words is not None
        count = len(word_groups(len(group.slots)))
        rows = np.zeros((1, 64, n), dtype=bool)
        group_ok = _assign(len(group.slots), list(group.needs), words[row : row + count], n, rows, list(group.slots))
        row += count
        first |= holdings_of_rows(rows)[0]
        if group_ok is not None:
            ok = group_ok if ok is None else ok & group_ok
    others = [s for s in range(4) if s != plan.first_seat and plan.needs[s]]
    rest = np.array(_free_holdings(plan.free), dtype=np.uint16)[:, None] & ~first
    if len(others) == 1:
        hands[others[0]] = rest
    elif others:
        assert words is not None
        m = sum(plan.needs[s] for s in others)
        positions = slot_positions(rest, m)
        rows = np.zeros((len(others) - 1, 64, n), dtype=bool)
        position_rows = np.zeros((len(others) - 1, m, n), dtype=bool)
        rest_ok = _assign(m, [plan.needs[s] for s in others], words[row:], n, position_rows, list(range(m)))
        deals = np.broadcast_to(np.arange(n), (m, n))
        for k in range(len(others) - 1):
            rows[k][positions.T, deals] = position_rows[k]
        if rest_ok is not None:
            ok = rest_ok if ok is None else ok & rest_ok
        cumulative = holdings_of_rows(rows)
        for k, seat in enumerate(others[:-1]):
            hands[seat] = cumulative[k] if k == 0 else cumulative[k] & ~cumulative[k - 1]
        hands[others[-1]] = rest & ~cumulative[-1]
    return hands, ok


def slot_positions(holdings: np.ndarray, count: int) -> np.ndarray:
    """``(n, count)`` slots of the cards in each deal's ``(4, n)`` holdings (every deal has ``count``
    of them), lowest first."""
    import numpy as np

    per_deal = np.ascontiguousarray(holdings.T, dtype="<u2").view(np.uint8)  # (n, 8) bytes
    bits = np.unpackbits(per_deal, axis=1, bitorder="little")
    _rows, cols = np.nonzero(bits)
    positions: np.ndarray = cols.reshape(-1, count)
    return positions


def _assign(
    m: int, needs: list[int], words: np.ndarray, n: int, outs: np.ndarray, rows: list[int]
) -> np.ndarray | None:
    """The shuffle's loop: position ``p`` (of ``m``) goes to the first category whose running need
    is above a uniform digit below the positions left; ``outs[k, rows[p]]`` is set when it goes to
    one of the categories ``0..k``.  Returns the deals whose random words passed Lemire's test
    (None: all)."""
    import numpy as np

    thresholds = []
    running = 0
    for need in needs[:-1]:
        running += need
        thresholds.append(np.full(n, running, dtype=np.uint8))
    ok: np.ndarray | None = None
    low = np.empty(n, dtype=np.uint64)
    digit = np.empty(n, dtype=np.uint8)
    mask32 = np.uint64(0xFFFFFFFF)
    shift32 = np.uint64(32)
    position = 0
    for word_index, group in enumerate(word_groups(m)):
        np.copyto(low, words[word_index], casting="unsafe")
        product = 1
        for size in group:
            product *= size
            np.multiply(low, np.uint64(size), out=low)
            np.right_shift(low, shift32, out=digit, casting="unsafe")  # the digit, below 52: a byte
            np.bitwise_and(low, mask32, out=low)
            row = rows[position]
            for k, threshold in enumerate(thresholds):
                below = np.less(digit, threshold, out=outs[k, row])
                np.subtract(threshold, below.view(np.uint8), out=threshold)
            position += 1
        bad = (1 << 32) % product
        if bad:
            passed = low >= np.uint64(bad)
            ok = passed if ok is None else ok & passed
    if position < m:  # the last card: to the one category that still needs it
        row = rows[position]
        for k, threshold in enumerate(thresholds):
            np.greater(threshold, 0, out=outs[k, row])
    return ok


def holdings_of_rows(rows: np.ndarray) -> np.ndarray:
    """``(c, 64, n)`` booleans (a row a slot) to ``(c, 4, n)`` uint16 holdings.

    Eight rows make a byte: each row is viewed as uint64 words holding eight deals' 0/1 bytes, so
    the shifts run eight deals at a time (x86 has no byte-wide shifts; numpy's uint8 shift is slow)."""
    import numpy as np

    c, _, n = rows.shape
    lanes = rows.view(np.uint8).reshape(c, 8, 8, n)
    if n % 8:
        lanes = np.concatenate([lanes, np.zeros((c, 8, 8, 8 - n % 8), dtype=np.uint8)], axis=3)
    words = lanes.view(np.uint64)  # (c, byte, bit, deals / 8)
    packed = words[:, :, 0].copy()
    shifted = np.empty_like(packed)
    for bit in range(1, 8):
        np.left_shift(words[:, :, bit], np.uint64(bit), out=shifted)
        packed |= shifted
    as_bytes = packed.view(np.uint8)[:, :, :n]  # (c, 8, n): byte b of each deal
    holdings = as_bytes[:, 1::2].astype(np.uint16)
    holdings <<= np.uint16(8)
    holdings |= as_bytes[:, 0::2]
    return holdings


def popcount(values: np.ndarray) -> np.ndarray:
    """Bits set in each element (numpy before 2.0 has no bitwise_count)."""
    import numpy as np

    if hasattr(np, "bitwise_count"):
        counted: np.ndarray = np.bitwise_count(values)
        return counted
    as_bytes = np.ascontiguousarray(values).view(np.uint8).reshape(*values.shape, values.itemsize)
    counts: np.ndarray = np.unpackbits(as_bytes, axis=-1).sum(axis=-1, dtype=np.uint8)
    return counts


def to_card_masks(hands: np.ndarray) -> np.ndarray:
    """``(4, 4, k)`` holdings to ``(k, 4)`` 52-bit hand masks (N E S W) in bridgeview's card numbering."""
    import numpy as np

    out = np.zeros((hands.shape[2], 4), dtype=np.uint64)
    for suit in range(4):
        out |= hands[:, suit].T.astype(np.uint64) << np.uint64(13 * suit)
    return out
