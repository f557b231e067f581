"""A script's expressions computed for a whole chunk of deals at once.

Values are numpy arrays with one element a deal: int32 as dealer's C ints, or
booleans from comparisons (used as 0 and 1).  Division and remainder truncate
towards zero as in C.  Each function of a hand is looked up suit by suit
(:mod:`.tables`) and kept for the chunk, so ``hcp(north)`` written five times is
computed once; a named expression is computed once however often it is used
(except one that draws random numbers with ``rnd``, which dealer evaluates anew
at each use).

dealer evaluates ``&&``, ``||`` and ``?:`` lazily, so a division by zero in a part
it skips does not stop it.  Here every part is computed for every deal (a zero
divisor gives 0), and :meth:`Evaluator.check` then follows the same paths dealer
would take, deal by deal: only a division by zero dealer would really have met
is an error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import script as s
from .dealing import RandomStream, popcount
from .lexer import ScriptError
from .tables import count_table, suit_table

if TYPE_CHECKING:
    import numpy as np

#: dealer's IMP table: the largest score difference worth 0, 1, 2, ... IMPs
IMP_STEPS = (10, 40, 80, 120, 160, 210, 260, 310, 360, 410, 490, 590) + (
    740,
    890,
    1090,
    1190,
    1490,
    1740,
    1990,
    2240,
    2490,
    2990,
    3490,
    3990,
)

_LEAVES = (s.Length, s.Count, s.Losers, s.Quality, s.Cccc, s.Shape, s.HasCard)


class EvaluationError(ScriptError):
    """A script that fails while deals are made: a division by zero dealer would have met."""


class Deals:
    """The deals of one chunk, as ``(4, 4, k)`` holdings, and what has been computed from them."""

    def __init__(self, hands: np.ndarray, stream: RandomStream | None = None) -> None:
        self.hands = hands
        self.count = int(hands.shape[2])
        self.stream = stream
        self.cache: dict[object, tuple[object, np.ndarray]] = {}
        self.zero_divisors: dict[int, np.ndarray] = {}  # id(Binary node) -> deals whose divisor is 0

    def lengths(self, seat: int) -> np.ndarray:
        """``(4, k)`` suit lengths of ``seat``."""
        key = ("lengths", seat)
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = (key, popcount(self.hands[seat]))
        return found[1]


class Evaluator:
    """Computes one script's condition and expressions on chunks of deals."""

    def __init__(self, script: s.Script) -> None:
        self.script = script
        self._shape_tables: dict[frozenset[int], np.ndarray] = {}
        self._random_nodes: dict[int, bool] = {}
        self._dividing: dict[int, bool] = {}

    # -- the condition ---------------------------------------------------------------------------
    def condition(self, deals: Deals) -> np.ndarray:
        """Booleans: the deals that meet the script's condition (all when it has none)."""
        import numpy as np

        cond = self.script.condition
        if cond is None:
            return np.ones(deals.count, dtype=bool)
        value = self.value(cond, deals)
        self.check(cond, deals, None)
        return truth(value, deals.count)

    def integers(self, expr: s.Expr, deals: Deals) -> np.ndarray:
        """int64 values of ``expr`` for every deal (for the actions), checked for division by zero."""
        import numpy as np

        value = self.value(expr, deals)
        self.check(expr, deals, None)
        return np.broadcast_to(np.asarray(value, dtype=np.int64), (deals.count,))

    # -- values ----------------------------------------------------------------------------------
    def value(self, node: s.Expr, deals: Deals) -> np.ndarray:
        """``node``'s value for every deal (int32 or bool, or a 0-d array for a constant)."""
        # a hand function by what it is (hcp(north) written twice is one entry), anything else by identity;
        # the entry keeps its node alive, so no other node can take its id while the chunk lasts
        key: object = node if isinstance(node, _LEAVES) else id(node)
        found = deals.cache.get(key)
        if found is not None:
            return found[1]
        value = self._compute(node, deals)
        if not self._draws_random(node):
            deals.cache[key] = (node, value)
        return value

    def _compute(self, node: s.Expr, deals: Deals) -> np.ndarray:
        import numpy as np

        hands = deals.hands
        result: np.ndarray
        if isinstance(node, s.Number):
            result = np.asarray(node.value, dtype=np.int32)
        elif isinstance(node, s.Named):
            result = self.value(node.expr, deals)
        elif isinstance(node, s.Length):
            result = deals.lengths(node.seat)[node.suit].astype(np.int32)
        elif isinstance(node, s.Count):
            result = self._by_suit(count_table(self.script.count_table(node.table)), hands[node.seat], node.suit)
        elif isinstance(node, s.Losers):
            result = self._by_suit(suit_table("losers"), hands[node.seat], node.suit)
        elif isinstance(node, s.Quality):
            result = suit_table("quality")[hands[node.seat, node.suit]]
        elif isinstance(node, s.Cccc):
            parts = self._by_suit(suit_table("cccc"), hands[node.seat], None)
            shape = self._by_suit(suit_table("shape"), hands[node.seat], None)
            result = np.where(shape == 0, parts - 50, parts + shape - 100).astype(np.int32)
        elif isinstance(node, s.Shape):
            lengths = deals.lengths(node.seat).astype(np.intp)
            code = (lengths[3] * 14 + lengths[2]) * 14 + lengths[1]
            result = self._shape_table(node.codes)[code]
        elif isinstance(node, s.HasCard):
            suit, rank = divmod(node.card, 13)
            result = ((hands[node.seat, suit] >> np.uint16(rank)) & np.uint16(1)).astype(bool)
        elif isinstance(node, s.Not):
            result = np.logical_not(self.value(node.operand, deals))
        elif isinstance(node, s.Negate):
            result = np.negative(as_int(self.value(node.operand, deals)))
        elif isinstance(node, s.Binary):
            result = self._binary(node, deals)
        elif isinstance(node, s.Choice):
            test = truth(self.value(node.test, deals), deals.count)
            if_true, if_false = as_int(self.value(node.if_true, deals)), as_int(self.value(node.if_false, deals))
            result = np.where(test, if_true, if_false)
        elif isinstance(node, s.Score):
            result = score(node.vulnerable, node.level, node.strain, as_int(self.value(node.tricks, deals)))
        elif isinstance(node, s.Imps):
            result = imps(as_int(self.value(node.value, deals)))
        else:
            assert isinstance(node, s.Random)
            result = self._random(as_int(self.value(node.limit, deals)), deals)
        return result

    @staticmethod
    def _by_suit(table: np.ndarray, holdings: np.ndarray, suit: int | None) -> np.ndarray:
        """``table`` looked up for one suit, or summed over the four."""
        if suit is not None:
            one: np.ndarray = table[holdings[suit]]
            return one
        total: np.ndarray = table[holdings[0]]
        for k in (1, 2, 3):
            total = total + table[holdings[k]]
        return total

    def _shape_table(self, codes: frozenset[int]) -> np.ndarray:
        import numpy as np

        table = self._shape_tables.get(codes)
        if table is None:
            table = np.zeros(s.SHAPE_CODES, dtype=bool)
            table[list(codes)] = True
            self._shape_tables[codes] = table
        return table

    def _binary(self, node: s.Binary, deals: Deals) -> np.ndarray:
        import numpy as np

        left = self.value(node.left, deals)
        right = self.value(node.right, deals)
        op = node.op
        result: np.ndarray
        if op == "&&":
            result = np.logical_and(left, right)
        elif op == "||":
            result = np.logical_or(left, right)
        elif op in _COMPARE:
            result = _COMPARE[op](as_int(left), as_int(right))
        else:
            a, b = as_int(left), as_int(right)
            if op == "+":
                result = a + b
            elif op == "-":
                result = a - b
            elif op == "*":
                result = a * b
            else:
                result = self._divide(node, a, b, deals)
        return result

    @staticmethod
    def _divide(node: s.Binary, a: np.ndarray, b: np.ndarray, deals: Deals) -> np.ndarray:
        """C's ``/`` (towards zero) and ``%`` (the sign of the dividend); a zero divisor gives 0 and is
        remembered for :meth:`Evaluator.check`."""
        import numpy as np

        zero = b == 0
        if zero.any():
            deals.zero_divisors[id(node)] = np.broadcast_to(zero, (deals.count,))
            b = np.where(zero, 1, b)
        result: np.ndarray
        if node.op == "%":
            result = np.fmod(a, b).astype(np.int32)
        else:
            quotient = np.floor_divide(a, b)
            # floor division is one too low when the signs differ and the division is not exact
            result = (quotient + ((quotient * b != a) & ((a < 0) != (b < 0)))).astype(np.int32)
        return result

    def _random(self, limit: np.ndarray, deals: Deals) -> np.ndarray:
        """``rnd(n)``: uniform in 0..n-1 (0 where n is 0 or less), exactly: Lemire's method, redrawing
        the rare rejected words."""
        import numpy as np

        if deals.stream is None:
            raise AssertionError("rnd() needs the chunk's random stream")  # pragma: no cover
        limit = np.broadcast_to(np.maximum(limit, 0).astype(np.uint64), (deals.count,))
        out = np.zeros(deals.count, dtype=np.int32)
        todo = np.flatnonzero(limit > 0)
        while todo.size:
            words = deals.stream.words(todo.size).astype(np.uint64)
            product = words * limit[todo]
            low = product & np.uint64(0xFFFFFFFF)
            good = low >= (np.uint64(1 << 32) % limit[todo])
            out[todo[good]] = (product[good] >> np.uint64(32)).astype(np.int32)
            todo = todo[~good]
        return out

    def _draws_random(self, node: s.Expr) -> bool:
        """Whether ``node`` uses ``rnd`` (then it is not kept: dealer draws anew at each use)."""
        known = self._random_nodes.get(id(node))
        if known is None:
            known = self._random_nodes[id(node)] = any(isinstance(n, s.Random) for n in walk(node))
        return known

    # -- division by zero ------------------------------------------------------------------------
    def check(self, node: s.Expr, deals: Deals, active: np.ndarray | None) -> None:
        """EvaluationError for a division by zero in a deal where dealer would have computed it
        (``active`` None: every deal)."""

        if not deals.zero_divisors or not self._divides(node):
            return
        children: list[tuple[s.Expr, np.ndarray | None]]
        if isinstance(node, s.Binary) and node.op in ("&&", "||"):
            left = truth(self.value(node.left, deals), deals.count)
            taken = left if node.op == "&&" else ~left
            children = [(node.left, active), (node.right, taken if active is None else active & taken)]
        elif isinstance(node, s.Choice):
            test = truth(self.value(node.test, deals), deals.count)
            both = (test, ~test) if active is None else (active & test, active & ~test)
            children = [(node.test, active), (node.if_true, both[0]), (node.if_false, both[1])]
        else:
            children = [(child, active) for child in _children(node)]
        for child, child_active in children:
            self.check(child, deals, child_active)
        if isinstance(node, s.Binary):
            zero = deals.zero_divisors.get(id(node))
            if zero is not None:
                met = zero if active is None else zero & active
                if met.any():
                    raise EvaluationError(
                        f"division by zero (the right side of '{node.op}' is 0 in a deal that reaches it)",
                        node.line,
                        node.column,
                    )

    def _divides(self, node: s.Expr) -> bool:
        known = self._dividing.get(id(node))
        if known is None:
            known = self._dividing[id(node)] = any(isinstance(n, s.Binary) and n.op in ("/", "%") for n in walk(node))
        return known


def _children(node: s.Expr) -> list[s.Expr]:
    if isinstance(node, s.Named):
        return [node.expr]
    if isinstance(node, (s.Not, s.Negate)):
        return [node.operand]
    if isinstance(node, s.Binary):
        return [node.left, node.right]
    if isinstance(node, s.Choice):
        return [node.test, node.if_true, node.if_false]
    if isinstance(node, s.Score):
        return [node.tricks]
    if isinstance(node, s.Imps):
        return [node.value]
    if isinstance(node, s.Random):
        return [node.limit]
    return []


def walk(node: s.Expr) -> list[s.Expr]:
    """``node`` and every node under it (through named expressions)."""
    out = [node]
    for child in _children(node):
        out.extend(walk(child))
    return out


def seats_used(node: s.Expr | None) -> set[int]:
    """The seats an expression looks at."""
    if node is None:
        return set()
    return {n.seat for n in walk(node) if hasattr(n, "seat")}


def as_int(value: np.ndarray) -> np.ndarray:
    import numpy as np

    return value.astype(np.int32) if value.dtype == bool else value


def truth(value: np.ndarray, count: int) -> np.ndarray:
    """Booleans for every deal from a value (non-zero is true, as in C)."""
    import numpy as np

    result = value if value.dtype == bool else value != 0
    return np.broadcast_to(result, (count,))


def _make_compare() -> dict[str, Callable[[np.ndarray, np.ndarray], np.ndarray]]:
    import operator

    return {
        "==": operator.eq,
        "!=": operator.ne,
        "<": operator.lt,
        "<=": operator.le,
        ">": operator.gt,
        ">=": operator.ge,
    }


_COMPARE = _make_compare()


def score(vulnerable: bool, level: int, strain: int, tricks: np.ndarray) -> np.ndarray:
    """dealer's ``score``: declarer's score of an undoubled contract taking ``tricks`` tricks."""
    import numpy as np

    vul = int(vulnerable)
    needed = 6 + level
    per_trick = 30 if strain >= 2 else 20
    made = per_trick * (tricks - 6) + (10 if strain == 4 else 0) + 50
    game = (strain == 4 and level >= 3) or (strain in (2, 3) and level >= 4) or (strain in (0, 1) and level >= 5)
    if game:
        made = made + 250 + 200 * vul
    if level == 6:
        made = made + 500 + 250 * vul
    if level == 7:
        made = made + 1000 + 500 * vul
    down = -50 * (1 + vul) * (needed - tricks)
    return np.where(tricks < needed, down, made).astype(np.int32)


def imps(difference: np.ndarray) -> np.ndarray:
    """dealer's ``imps``: the IMPs of a score difference, with its sign."""
    import numpy as np

    steps = np.searchsorted(np.array(IMP_STEPS), np.abs(difference), side="left")
    result: np.ndarray = np.where(difference < 0, -steps, steps).astype(np.int32)
    return result
