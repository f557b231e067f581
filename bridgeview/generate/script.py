"""A parsed dealer script: its settings, its condition and its actions as plain data.

Expressions are small frozen trees; a named expression (``west1c = ...``) is a
:class:`Named` node that points at its tree, so every use evaluates the same
object once a chunk.  Seats are 0-3 = N E S W and suits 0-3 = clubs to spades,
as everywhere in bridgeview and in dealer.  Every node remembers where it was
written (``line``, ``column``; not part of its value) so an error found while
dealing -- a division by zero -- can name the place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: ``Count.table`` values besides 0-9 (``pt0``-``pt9``)
HCP = 10
CONTROLS = 11
#: the count tables by their dealer names, ``pt0``-``pt9`` first
COUNT_NAMES = ("pt0", "pt1", "pt2", "pt3", "pt4", "pt5", "pt6", "pt7", "pt8", "pt9", "hcp", "controls")

#: the ranks a pointcount lists, ace first (dealer's order)
POINTCOUNT_RANKS = "AKQJT98765432"

#: dealer's default alternative counts, by rank deuce .. ace (tens, jacks, queens, kings, aces,
#: top2, top3, top4, top5, c13)
DEFAULT_ALTCOUNTS: tuple[tuple[int, ...], ...] = (
    (0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1),
    (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 6),
)
DEFAULT_POINTCOUNT = (0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4)
CONTROL_COUNT = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2)


@dataclass(frozen=True, slots=True)
class Node:
    """Where an expression was written (1-based), for messages."""

    line: int = field(default=0, compare=False, kw_only=True)
    column: int = field(default=0, compare=False, kw_only=True)

    @property
    def where(self) -> str:
        return f"line {self.line}, column {self.column}"


@dataclass(frozen=True, slots=True)
class Number(Node):
    value: int


@dataclass(frozen=True, slots=True)
class Length(Node):
    """``spades(north)``: cards in one suit."""

    seat: int
    suit: int


@dataclass(frozen=True, slots=True)
class Count(Node):
    """``hcp``, ``pt0``-``pt9`` (``tens`` ... ``c13``) and ``controls``: a value per card, summed over
    the hand or one suit (``suit`` None = the whole hand)."""

    table: int
    seat: int
    suit: int | None


@dataclass(frozen=True, slots=True)
class Losers(Node):
    seat: int
    suit: int | None


@dataclass(frozen=True, slots=True)
class Quality(Node):
    """Suit quality (The Bridge World, October 1982) times 100."""

    seat: int
    suit: int


@dataclass(frozen=True, slots=True)
class Cccc(Node):
    """The CCCC hand evaluation (The Bridge World, October 1982) times 100."""

    seat: int


@dataclass(frozen=True, slots=True)
class Shape(Node):
    """``shape(seat, ...)``: the hand's lengths are one of ``codes`` (see :func:`shape_code`)."""

    seat: int
    codes: frozenset[int]


@dataclass(frozen=True, slots=True)
class HasCard(Node):
    seat: int
    card: int  # 0-51, 13 * suit + rank - 2


@dataclass(frozen=True, slots=True)
class Score(Node):
    """``score(vul, x3N, tricks)``: declarer's score of an undoubled contract."""

    vulnerable: bool
    level: int
    strain: int  # 0-3 clubs-spades, 4 notrump
    tricks: Expr


@dataclass(frozen=True, slots=True)
class Imps(Node):
    value: Expr


@dataclass(frozen=True, slots=True)
class Random(Node):
    """``rnd(n)``: a random whole number from 0 to n - 1."""

    limit: Expr


@dataclass(frozen=True, slots=True)
class Not(Node):
    operand: Expr


@dataclass(frozen=True, slots=True)
class Negate(Node):
    operand: Expr


@dataclass(frozen=True, slots=True)
class Binary(Node):
    """``op`` is one of ``&& || == != < <= > >= + - * / %``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Choice(Node):
    """``test ? if_true : if_false``."""

    test: Expr
    if_true: Expr
    if_false: Expr


@dataclass(frozen=True, slots=True)
class Named(Node):
    """A use of a named expression; every use points at the same tree."""

    name: str
    expr: Expr


Expr = (
    Number
    | Length
    | Count
    | Losers
    | Quality
    | Cccc
    | Shape
    | HasCard
    | Score
    | Imps
    | Random
    | Not
    | Negate
    | Binary
    | Choice
    | Named
)


def shape_code(spades: int, hearts: int, diamonds: int) -> int:
    """One number for a hand pattern (clubs are the rest of 13): the index into a shape table."""
    return (spades * 14 + hearts) * 14 + diamonds


SHAPE_CODES = 14 * 14 * 14


# -- actions ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class PrintAll:
    """The four hands side by side, numbered (dealer's default action)."""


@dataclass(frozen=True, slots=True)
class PrintEW:
    """West and East side by side."""


@dataclass(frozen=True, slots=True)
class PrintPBN:
    """A PBN game per deal."""


@dataclass(frozen=True, slots=True)
class PrintCompact:
    """Four lines a deal (``n AKQ.JT9...``), then the expression's value if given."""

    expr: Expr | None = None


@dataclass(frozen=True, slots=True)
class PrintOneLine:
    """One line a deal, then the expression's value if given."""

    expr: Expr | None = None


@dataclass(frozen=True, slots=True)
class PrintES:
    """``printes(...)``: values and strings, as written (``\\n`` ends a line)."""

    items: tuple[Expr | str, ...]


@dataclass(frozen=True, slots=True)
class PrintHands:
    """``print(east, west)``: at the end, each seat's hands on a page of its own, four across."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Average:
    label: str | None
    expr: Expr


@dataclass(frozen=True, slots=True)
class Frequency:
    label: str | None
    expr: Expr
    low: int
    high: int


@dataclass(frozen=True, slots=True)
class Frequency2D:
    label: str | None
    expr: Expr
    low: int
    high: int
    expr2: Expr
    low2: int
    high2: int


Action = (
    PrintAll
    | PrintEW
    | PrintPBN
    | PrintCompact
    | PrintOneLine
    | PrintES
    | PrintHands
    | Average
    | Frequency
    | Frequency2D
)

#: actions that print something for every deal produced (dealer then makes 40 deals by default)
PER_DEAL = (PrintAll, PrintEW, PrintPBN, PrintCompact, PrintOneLine, PrintES, PrintHands)


@dataclass(frozen=True)
class Script:
    """Everything a script says.  ``actions`` None means the script has no ``action`` line
    (dealer then prints every deal with ``printall``)."""

    name: str = "-"
    generate: int | None = None
    produce: int | None = None
    dealer: int | None = None
    vulnerable: int | None = None  # 0-3 = None, NS, EW, All
    predeal: tuple[int, int, int, int] = (0, 0, 0, 0)  # 52-bit hand masks (bridgeview's card numbering)
    lengths: tuple[tuple[int, int, int], ...] = ()  # (seat, suit, cards) from ``spades(north) == 1`` predeals
    pointcount: tuple[int, ...] = DEFAULT_POINTCOUNT  # by rank, deuce first
    altcounts: tuple[tuple[int, ...], ...] = DEFAULT_ALTCOUNTS
    condition: Expr | None = None
    actions: tuple[Action, ...] | None = None
    #: the named expressions in the order written (for the window's summary and tests)
    names: tuple[str, ...] = ()

    @property
    def effective_actions(self) -> tuple[Action, ...]:
        return (PrintAll(),) if self.actions is None else self.actions

    @property
    def prints_deals(self) -> bool:
        """Whether some action prints each deal (dealer's default is then 40 deals, not all of them)."""
        return any(isinstance(a, PER_DEAL) for a in self.effective_actions)

    def count_table(self, table: int) -> tuple[int, ...]:
        """Values by rank (deuce first) of a :class:`Count` table."""
        if table == HCP:
            return self.pointcount
        if table == CONTROLS:
            return CONTROL_COUNT
        return self.altcounts[table]
