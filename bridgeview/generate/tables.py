"""Look-up tables over one suit's holding (a 13-bit rank mask, the deuce lowest): 8192 entries each.

Every function of a hand that dealer computes suit by suit -- points, losers,
suit quality, the CCCC evaluation -- is a table here, so evaluating it for a
hundred thousand deals is four gathers and three additions.  The rules are
dealer's own (``dealer.c``'s ``analyze`` and ``c4.c``), quirks included, and the
tests compare them with dealer's answers deal by deal.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

HOLDINGS = 1 << 13
ACE, KING, QUEEN, JACK, TEN, NINE, EIGHT = 12, 11, 10, 9, 8, 7, 6


def _has(holding: int, rank: int) -> bool:
    return bool(holding >> rank & 1)


@cache
def count_table(values: tuple[int, ...]) -> np.ndarray:
    """The sum of ``values[rank]`` (deuce first) over the ranks held, for every holding (int32)."""
    import numpy as np

    table = np.zeros(HOLDINGS, dtype=np.int32)
    for rank, value in enumerate(values):
        if value:
            table[(np.arange(HOLDINGS) >> rank) & 1 == 1] += value
    return table


def losers_of(holding: int) -> int:
    """dealer's losers in a suit: a void none; a singleton none if the ace, else one; a doubleton
    none with AK, one with the ace or the king, else two (so Qx is two); longer suits three less one
    for each of the ace, king and queen."""
    length = holding.bit_count()
    controls = 2 * _has(holding, ACE) + _has(holding, KING)
    if length == 0:
        return 0
    if length == 1:
        return (1, 1, 0)[controls]
    if length == 2:
        return (2, 1, 1, 0)[controls]
    return 3 - _has(holding, ACE) - _has(holding, KING) - _has(holding, QUEEN)


def quality_of(holding: int) -> int:
    """Suit quality times 100 (The Bridge World, October 1982), as dealer's ``c4.c`` computes it."""
    length = holding.bit_count()
    ace, king, queen, jack = (_has(holding, r) for r in (ACE, KING, QUEEN, JACK))
    ten, nine, eight = (_has(holding, r) for r in (TEN, NINE, EIGHT))
    factor = length * 10
    quality = factor * (4 * ace + 3 * king + 2 * queen + jack)
    higher = ace + king + queen + jack
    if length > 6:
        replace = 3 - 2 * queen - jack
        replace = min(replace, length - 6)
        quality += replace * factor
    else:
        if ten:
            quality += factor if higher > 1 or jack else factor // 2
        if nine and (higher == 2 or ten or eight):
            quality += factor // 2
    return quality


def cccc_part_of(holding: int) -> int:
    """One suit's share of the CCCC evaluation times 100 (its honours and its quality; the shape
    points are added over the whole hand, see :func:`shape_points_of`)."""
    length = holding.bit_count()
    value = 0
    higher = 0
    if _has(holding, ACE):
        value += 300
        higher += 1
    if _has(holding, KING):
        value += 200 - (150 if length == 1 else 0)
        higher += 1
    if _has(holding, QUEEN):
        value += 100 - (75 if length == 1 else 0) - (25 if length == 2 else 0) - (25 if higher == 0 else 0)
        higher += 1
    if _has(holding, JACK):
        value += 50 if higher == 2 else 25 if higher == 1 else 0
        higher += 1
    if _has(holding, TEN):
        if higher == 2 or (higher == 1 and _has(holding, NINE)):
            value += 25
    return value + quality_of(holding)


def shape_points_of(holding: int) -> int:
    """CCCC's shape points of a suit times 100: 300 for a void, 200 a singleton, 100 a doubleton."""
    return max(0, 3 - holding.bit_count()) * 100


@cache
def suit_table(name: str) -> np.ndarray:
    """``losers``, ``quality``, ``cccc`` (the suit's part) or ``shape`` (CCCC's shape points) for
    every holding (int32)."""
    import numpy as np

    function = {"losers": losers_of, "quality": quality_of, "cccc": cccc_part_of, "shape": shape_points_of}[name]
    return np.array([function(h) for h in range(HOLDINGS)], dtype=np.int32)
