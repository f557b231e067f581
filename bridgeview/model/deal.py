"""A deal: up to 52 cards in four hands, stored as four 52-bit masks.

Masks (N, E, S, W) are the cheapest faithful form: partial deals (endings,
single-suit layouts) are just masks with fewer bits, and the ``.deals`` file
format is literally these four numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .cards import (
    CARDS,
    DISPLAY_SUITS,
    FULL_MASK,
    RANK_CHARS,
    SUIT_LETTERS,
    Card,
    Seat,
    cards_of,
    hcp_of,
    ranks_text,
)

if TYPE_CHECKING:
    from random import Random


@dataclass(frozen=True, slots=True)
class Deal:
    """Four hands as 52-bit masks indexed by :class:`Seat` (N, E, S, W)."""

    hands: tuple[int, int, int, int] = (0, 0, 0, 0)

    # -- construction -------------------------------------------------
    @classmethod
    def empty(cls) -> Deal:
        return cls((0, 0, 0, 0))

    @classmethod
    def from_masks(cls, masks: Iterable[int]) -> Deal:
        """From four hand masks N, E, S, W (a list built hand by hand); ValueError unless exactly four."""
        north, east, south, west = masks
        return cls((north, east, south, west))

    @classmethod
    def from_owners(cls, owners: Iterable[int]) -> Deal:
        """From 52 seat codes indexed by card (0-3 = N E S W, anything else = absent)."""
        hands = [0, 0, 0, 0]
        for card, seat in enumerate(owners):
            if 0 <= seat < 4:
                hands[seat] |= 1 << card
        north, east, south, west = hands  # (unpacked here, not in from_masks: every board read passes here)
        return cls((north, east, south, west))

    @classmethod
    def shuffled(cls, rng: Random) -> Deal:
        """A random full deal from ``rng`` (a ``random.Random``): the sample maker and tests share it."""
        cards = list(range(52))
        rng.shuffle(cards)
        owners = [0] * 52
        for i, c in enumerate(cards):
            owners[c] = i // 13
        return cls.from_owners(owners)

    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """Parse a PBN deal string such as ``N:AKQ.JT9.876.5432 - ...``.

        Hands are dotted S.H.D.C groups given clockwise from the first seat; a
        ``-`` leaves that hand empty.  Raises ValueError on bad syntax.  The one
        PBN deal parser (the PBN reader calls it for every board, so suits it has
        seen are looked up, not parsed again).
        """
        seat = _FIRST_SEAT.get(text[:1])
        written = text[2:].split(" ") if seat is not None and text[1:2] == ":" else ()
        if len(written) == 4:  # the usual spelling, one space between hands: each suit looked up, not parsed
            held = HOLDINGS
            try:  # (subscripts, not ``get``: no method call, no test a suit; a miss is rare and costs a raise)
                one, two, three, four = written
                s, h, d, c = one.split(".")
                m0 = held[s] << 39 | held[h] << 26 | held[d] << 13 | held[c]
                s, h, d, c = two.split(".")
                m1 = held[s] << 39 | held[h] << 26 | held[d] << 13 | held[c]
                s, h, d, c = three.split(".")
                m2 = held[s] << 39 | held[h] << 26 | held[d] << 13 | held[c]
                s, h, d, c = four.split(".")
                m3 = held[s] << 39 | held[h] << 26 | held[d] << 13 | held[c]
            except (KeyError, ValueError):
                pass  # a suit not met before (the general reading below parses it and keeps it), a "-" hand, …
            else:
                deal = _NEW(cls)  # no dataclass __init__ to run: a PBN reader makes one a board
                _SET(
                    deal,
                    "hands",
                    (m0, m1, m2, m3)
                    if seat == 0
                    else (m3, m0, m1, m2)
                    if seat == 1
                    else (m2, m3, m0, m1)
                    if seat == 2
                    else (m1, m2, m3, m0),
                )
                return deal
        text = text.strip()
        if len(text) < 2 or text[1] != ":":
            raise ValueError(f"deal must start with a seat and ':' ({text[:10]!r})")
        first = Seat.from_letter(text[0])
        parts = text[2:].split()
        if len(parts) != 4:
            raise ValueError(f"deal must have 4 hands, found {len(parts)}")
        hands = [0, 0, 0, 0]
        known = HOLDINGS.get
        for offset, part in enumerate(parts):
            if part == "-":
                continue
            suits = part.split(".")
            if len(suits) != 4:
                raise ValueError(f"hand {part!r} must have 4 suits separated by dots")
            mask = 0
            for suit, ranks in zip(DISPLAY_SUITS, suits, strict=True):
                bits = known(ranks)
                mask |= (bits if bits is not None else _suit_bits(ranks, suit, part)) << (13 * suit)
            hands[(first + offset) % 4] = mask
        north, east, south, west = hands  # (unpacked here, not in from_masks: every board read passes here)
        return cls((north, east, south, west))

    # -- queries --------------------------------------------------------
    def hand(self, seat: int) -> int:
        return self.hands[seat]

    def owner(self, card: int) -> Seat | None:
        bit = 1 << int(card)
        for seat in range(4):
            if self.hands[seat] & bit:
                return Seat(seat)
        return None

    def owners(self) -> list[int]:
        """52 seat codes indexed by card, 4 for a card no hand holds."""
        out = [4] * 52
        for seat in range(4):
            m = self.hands[seat]
            for c in range(52):
                if m >> c & 1:
                    out[c] = seat
        return out

    def cards(self, seat: int) -> list[Card]:
        """Cards of ``seat``, spades first, honours first."""
        return cards_of(self.hands[seat])

    def suit_text(self, seat: int, suit: int) -> str:
        return ranks_text(self.hands[seat], suit)

    def length(self, seat: int) -> int:
        return self.hands[seat].bit_count()

    def hcp(self, seat: int) -> int:
        return hcp_of(self.hands[seat])

    @property
    def card_count(self) -> int:
        return sum(h.bit_count() for h in self.hands)

    @property
    def is_complete(self) -> bool:
        """52 distinct cards, 13 in each hand."""
        return self.overlap == 0 and all(h.bit_count() == 13 for h in self.hands)

    @property
    def is_empty(self) -> bool:
        return not any(self.hands)

    @property
    def overlap(self) -> int:
        """Mask of cards held by more than one hand."""
        seen = 0
        dup = 0
        for h in self.hands:
            dup |= seen & h
            seen |= h
        return dup

    def problems(self, *, require_full: bool = False) -> list[str]:
        """Everything wrong with the deal as sentences; empty when legal."""
        out: list[str] = []
        dup = self.overlap
        if dup:
            out.append("cards in more than one hand: " + " ".join(str(c) for c in cards_of(dup)))
        lengths = [h.bit_count() for h in self.hands]
        # more than 48 cards can only be a full deal with a card astray (an ending
        # has at most 12 cards a hand once a trick is played)
        if require_full or sum(lengths) > 48:
            missing = FULL_MASK & ~(self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3])
            if missing:
                out.append("missing cards: " + " ".join(str(c) for c in cards_of(missing)))
            for seat, n in enumerate(lengths):
                if n != 13:
                    out.append(f"{Seat(seat).letter} holds {n} cards, not 13")
        return out

    def to_pbn(self, first: int = Seat.NORTH) -> str:
        """PBN deal string from ``first`` clockwise (an empty hand is ``...``)."""
        parts = []
        for offset in range(4):
            seat = (first + offset) % 4
            parts.append(".".join(ranks_text(self.hands[seat], s) for s in DISPLAY_SUITS))
        return f"{Seat(first).letter}:" + " ".join(parts)

    # -- edits (return new deals) --------------------------------------
    def with_card(self, card: int, seat: int | None) -> Deal:
        """This deal with ``card`` moved to ``seat`` (None removes it)."""
        bit = 1 << int(card)
        hands = [h & ~bit for h in self.hands]
        if seat is not None:
            hands[seat] |= bit
        return Deal.from_masks(hands)

    def without(self, cards: Iterable[int]) -> Deal:
        """This deal with ``cards`` removed from every hand (played cards)."""
        m = 0
        for c in cards:
            m |= 1 << int(c)
        return Deal.from_masks([h & ~m for h in self.hands])

    def __str__(self) -> str:
        return self.to_pbn()


def parse_card(text: str) -> Card:
    """Shorthand for :meth:`Card.parse`."""
    return Card.parse(text)


__all__ = ["Deal", "CARDS", "HOLDINGS", "holding", "parse_card"]


#: the one table of suit holdings read so far: ranks text (``AKT2``, either case) -> its 13-bit mask.  Every
#: reader of hand text looks a suit up here first (a file repeats few of them: a look-up, not a parse, a suit)
HOLDINGS: dict[str, int] = {}
_HOLDINGS_LIMIT = 100_000


def holding(ranks: str) -> int:
    """The 13-bit mask of the rank letters ``ranks`` of one suit (``AKT2``, either case), kept in
    :data:`HOLDINGS`; -1 when a letter is not a rank or a rank is there twice (the caller says which)."""
    bits = 0
    for ch in ranks.upper():
        r = RANK_CHARS.find(ch)
        if r < 0 or bits >> r & 1:
            return -1
        bits |= 1 << r
    if len(HOLDINGS) < _HOLDINGS_LIMIT:
        HOLDINGS[ranks] = bits
    return bits


def _suit_bits(ranks: str, suit: int, hand: str) -> int:
    """The 13-bit mask of ``ranks`` in ``suit``; ValueError naming the bad or repeated card of ``hand``."""
    bits = holding(ranks)
    if bits >= 0:
        return bits
    seen = 0
    for ch in ranks.upper():
        r = RANK_CHARS.find(ch)
        if r < 0:
            raise ValueError(f"bad rank {ch!r} in hand {hand!r}")
        if seen >> r & 1:
            raise ValueError(f"card {SUIT_LETTERS[suit]}{ch} twice in hand {hand!r}")
        seen |= 1 << r
    raise AssertionError(ranks)  # holding() refused it for one of the two reasons above


_FIRST_SEAT = {"N": 0, "E": 1, "S": 2, "W": 3, "n": 0, "e": 1, "s": 2, "w": 3}
_NEW = object.__new__
_SET = object.__setattr__
