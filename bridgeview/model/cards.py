"""Cards, suits, strains and seats: the vocabulary every other module speaks.

A card is a small integer 0..51, ``13 * suit + (rank - 2)`` with clubs = 0 and
spades = 3, so bit ``c`` of a 52-bit mask is card ``c`` (the ``.deals`` layout:
bit 0 = club two, bit 51 = spade ace).  Plain ints keep million-deal work cheap;
:class:`Card` adds names without costing more than an int.
"""

from __future__ import annotations

from enum import IntEnum

RANK_CHARS = "23456789TJQKA"
SUIT_LETTERS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
STRAIN_LETTERS = ("C", "D", "H", "S", "NT")
STRAIN_SYMBOLS = ("♣", "♦", "♥", "♠", "NT")
SEAT_LETTERS = "NESW"


class Suit(IntEnum):
    """Suits in ascending rank; display order is the reverse (S H D C)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @classmethod
    def from_letter(cls, text: str) -> Suit:
        index = SUIT_LETTERS.find(text.upper()) if len(text) == 1 else -1
        if index < 0:
            index = SUIT_SYMBOLS.find(text) if len(text) == 1 else -1
        if index < 0:
            raise ValueError(f"not a suit: {text!r}")
        return cls(index)


#: Suits in the order bridge players read them.
DISPLAY_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


class Strain(IntEnum):
    """Denominations of a contract, CDHS as in :class:`Suit`, then notrump."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3
    NOTRUMP = 4

    @property
    def letter(self) -> str:
        return STRAIN_LETTERS[self]

    @property
    def symbol(self) -> str:
        return STRAIN_SYMBOLS[self]

    @classmethod
    def from_text(cls, text: str) -> Strain:
        t = text.upper()
        if t in ("N", "NT", "SA"):
            return cls.NOTRUMP
        if len(t) == 1 and t in SUIT_LETTERS:
            return cls(SUIT_LETTERS.index(t))
        if len(text) == 1 and text in SUIT_SYMBOLS:
            return cls(SUIT_SYMBOLS.index(text))
        raise ValueError(f"not a strain: {text!r}")


#: Strains in the order DD tables are shown: NT first, then S H D C.
DISPLAY_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)


class Seat(IntEnum):
    """Compass seats in playing order, starting with North."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def letter(self) -> str:
        return SEAT_LETTERS[self]

    @property
    def next(self) -> Seat:
        return Seat((self + 1) % 4)

    @property
    def is_ns(self) -> bool:
        return self in (Seat.NORTH, Seat.SOUTH)

    def __add__(self, other: int) -> Seat:
        return Seat((int(self) + int(other)) % 4)

    @classmethod
    def from_letter(cls, text: str) -> Seat:
        t = text.strip().upper()[:1]
        if not t or t not in SEAT_LETTERS:
            raise ValueError(f"not a seat: {text!r}")
        return cls(SEAT_LETTERS.index(t))


class Card(int):
    """A card 0..51 that prints as ``SA``/``HT`` and knows its suit and rank."""

    __slots__ = ()

    def __new__(cls, value: int) -> Card:
        if not 0 <= value < 52:
            raise ValueError(f"card index out of range: {value}")
        return int.__new__(cls, value)

    @classmethod
    def of(cls, suit: int, rank: int) -> Card:
        """The card of ``suit`` and ``rank`` (2..14, ace = 14)."""
        return CARDS[13 * int(suit) + rank - 2]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``SA``, ``s10``, ``♠A`` or ``AS``; raise ValueError otherwise."""
        t = text.strip()
        if len(t) == 3 and t[1:] == "10":
            t = t[0] + "T"
        if len(t) != 2:
            raise ValueError(f"not a card: {text!r}")
        a, b = t[0], t[1].upper()
        try:
            suit = Suit.from_letter(a)
            rank_char = b
        except ValueError:
            suit = Suit.from_letter(t[1])
            rank_char = a.upper()
        r = RANK_CHARS.find(rank_char)
        if r < 0:
            raise ValueError(f"not a card: {text!r}")
        return CARDS[13 * suit + r]

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        """2..14 (ace = 14)."""
        return self % 13 + 2

    @property
    def rank_char(self) -> str:
        return RANK_CHARS[self % 13]

    def __str__(self) -> str:
        return SUIT_LETTERS[self // 13] + RANK_CHARS[self % 13]

    def __repr__(self) -> str:
        return f"Card({self})"

    @property
    def hcp(self) -> int:
        return max(0, self % 13 - 8)


CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
FULL_MASK = (1 << 52) - 1


def suit_mask(suit: int) -> int:
    """The 13-bit block of ``suit`` within a 52-bit hand mask."""
    return 0x1FFF << (13 * int(suit))


def cards_of(mask: int) -> list[Card]:
    """The cards of a 52-bit mask, highest suit and rank first (SA ... C2)."""
    return [CARDS[i] for i in range(51, -1, -1) if mask >> i & 1]


def ranks_text(mask: int, suit: int) -> str:
    """Ranks of ``suit`` held in ``mask``, high to low (``AKT2``)."""
    bits = (mask >> (13 * int(suit))) & 0x1FFF
    return "".join(RANK_CHARS[r] for r in range(12, -1, -1) if bits >> r & 1)


def hcp_of(mask: int) -> int:
    """High-card points (A4 K3 Q2 J1) in a 52-bit hand mask."""
    total = 0
    for suit in range(4):
        bits = (mask >> (13 * suit)) & 0x1FFF
        total += (bits >> 9 & 1) + 2 * (bits >> 10 & 1) + 3 * (bits >> 11 & 1) + 4 * (bits >> 12 & 1)
    return total
