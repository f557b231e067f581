"""The dealer language's grammar: a script is a list of statements, an expression is C-like.

Statements (dealer's ``defs.y``): ``generate N``, ``produce N``, ``dealer SEAT``,
``vulnerable none|NS|EW|all``, ``predeal SEAT HOLDING, ...`` or ``predeal
spades(north) == 1``, ``pointcount N ...``, ``altcount K N ...``, ``condition
EXPR`` (the word may be left out), ``NAME = EXPR`` and ``action ACTION, ...``.
Operators bind as in C, loosest first: ``?:`` (right to left), ``||``/``or``,
``&&``/``and``, ``== !=``, ``< <= > >=``, ``+ -``, ``* / %``, then ``!``/``not``
and a minus sign.  Everything dealer does not define, and what bridgeview does
not support (``tricks``, ``evalcontract``), is a :class:`ScriptError` with the line
and column: a script never silently means something else.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from ..model.cards import RANK_CHARS, SUIT_LETTERS
from . import script as s
from .lexer import KEYWORDS, ScriptError, Token, tokenize

#: the largest ``generate``/``produce`` (dealer keeps them in a C int)
MAX_COUNT = 2_000_000_000
_SEATS = ("north", "east", "south", "west")
_SUITS = ("clubs", "diamonds", "hearts", "spades")

#: binary operators by how tightly they bind (loosest first), all left to right
_LEVELS: tuple[tuple[str, ...], ...] = (
    ("||",),
    ("&&",),
    ("==", "!="),
    ("<", "<=", ">", ">="),
    ("+", "-"),
    ("*", "/", "%"),
)

_DESCRIBE = {
    "END": "the end of the script",
    "NUMBER": "a number",
    "PATTERN": "a pattern",
    "HOLDING": "a holding",
    "CARD": "a card",
    "CONTRACT": "a contract",
    "STRING": "a string",
    "NAME": "a name",
    "SEAT": "a seat",
    "SUIT": "a suit",
    "COUNT": "a function",
    "VULNERABLE": "a vulnerability",
}


def describe(token: Token) -> str:
    """How a message names what it found: ``'hpc'``, ``the end of the script``."""
    if token.kind == "END":
        return "the end of the script"
    if token.kind == "STRING":
        return "a string" if token.text != "\n" else "\\n"
    return repr(token.text)


def parse(text: str, name: str = "-") -> s.Script:
    """The script in ``text`` (``name`` is its file name, which ``printpbn`` prints); ScriptError
    for the first mistake, with its line and column."""
    try:
        return _Parser(tokenize(text), name).script()
    except ScriptError as e:
        if name != "-":
            e.path = name
        raise


class _Parser:
    def __init__(self, tokens: list[Token], name: str) -> None:
        self.tokens = tokens
        self.pos = 0
        self.name = name
        self.names: dict[str, s.Named] = {}
        self.settings: dict[str, object] = {}
        self.predeal = [0, 0, 0, 0]
        self.lengths: dict[tuple[int, int], int] = {}
        self.pointcount: tuple[int, ...] = s.DEFAULT_POINTCOUNT
        self.altcounts = list(s.DEFAULT_ALTCOUNTS)
        self.condition: s.Expr | None = None
        self.actions: tuple[s.Action, ...] | None = None

    # -- tokens ------------------------------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.tokens[self.pos]

    def peek(self, ahead: int = 1) -> Token:
        return self.tokens[min(self.pos + ahead, len(self.tokens) - 1)]

    def take(self) -> Token:
        t = self.tokens[self.pos]
        if t.kind != "END":
            self.pos += 1
        return t

    def error(self, message: str, token: Token | None = None) -> ScriptError:
        t = token or self.tok
        return ScriptError(message, t.line, t.column)

    def expect(self, kind: str, what: str) -> Token:
        if self.tok.kind != kind:
            raise self.error(f"expected {what}, found {describe(self.tok)}")
        return self.take()

    def seat(self) -> int:
        t = self.tok
        if t.kind != "SEAT":
            raise self.error(f"expected a seat (north, east, south or west), found {describe(t)}{_hint(t)}")
        return self.take().value

    def suit(self) -> int:
        t = self.tok
        if t.kind != "SUIT":
            raise self.error(f"expected a suit (clubs, diamonds, hearts or spades), found {describe(t)}{_hint(t)}")
        return self.take().value

    def number(self, what: str = "a number") -> int:
        """A whole number, with an optional minus sign (dealer's ``number``)."""
        sign = 1
        if self.tok.kind == "-" and self.peek().kind in ("NUMBER", "PATTERN"):
            self.take()
            sign = -1
        t = self.tok
        if t.kind == "NUMBER" or (t.kind == "PATTERN" and "x" not in t.text):
            self.take()
            return sign * int(t.text)
        raise self.error(f"expected {what}, found {describe(t)}")

    # -- statements --------------------------------------------------------------------------------
    def script(self) -> s.Script:
        while self.tok.kind != "END":
            self.statement()
        g = self.settings.get
        return s.Script(
            name=self.name,
            generate=_int_or_none(g("generate")),
            produce=_int_or_none(g("produce")),
            dealer=_int_or_none(g("dealer")),
            vulnerable=_int_or_none(g("vulnerable")),
            predeal=(self.predeal[0], self.predeal[1], self.predeal[2], self.predeal[3]),
            lengths=tuple((seat, suit, n) for (seat, suit), n in self.lengths.items()),
            pointcount=self.pointcount,
            altcounts=tuple(self.altcounts),
            condition=self.condition,
            actions=self.actions,
            names=tuple(self.names),
        )

    def statement(self) -> None:
        t = self.tok
        kind = t.kind
        if kind in ("generate", "produce"):
            self.take()
            n = self.number(f"the number of deals to {kind}")
            if not 1 <= n <= MAX_COUNT:
                raise self.error(f"{kind} needs a number of deals from 1 to {MAX_COUNT:,}, not {n}", t)
            self.settings.setdefault(kind, n)  # dealer keeps the first
        elif kind == "dealer":
            self.take()
            self.settings["dealer"] = self.seat()
        elif kind == "vulnerable":
            self.take()
            v = self.tok
            if v.kind != "VULNERABLE":
                raise self.error(f"expected none, NS, EW or all after 'vulnerable', found {describe(v)}")
            self.take()
            self.settings["vulnerable"] = v.value
        elif kind == "predeal":
            self.take()
            self.predeals()
        elif kind == "pointcount":
            self.take()
            self.pointcount = self.count_values(t)
        elif kind == "altcount":
            self.take()
            k = self.tok
            index = self.number("the number of the count (0-9)")
            if not 0 <= index <= 9:
                raise self.error(f"altcount numbers the counts 0 to 9 (pt0-pt9), not {index}", k)
            self.altcounts[index] = self.count_values(t)
        elif kind == "condition":
            self.take()
            self.condition = self.expression()
        elif kind == "action":
            self.take()
            self.actions = self.action_list()
        elif kind == "NAME" and self.peek().kind == "=":
            self.define()
        elif kind in ("evalcontract",):
            raise self.error(f"'{t.text}' is not supported by bridgeview's generate")
        elif self.starts_expression(t):
            self.condition = self.expression()  # dealer: a bare expression is the condition
        else:
            raise self.error(
                f"unexpected {describe(t)}{_hint(t)}: expected a statement (generate, produce, "
                "dealer, vulnerable, predeal, pointcount, altcount, condition, action or NAME = ...)"
            )

    def define(self) -> None:
        t = self.take()
        self.take()  # '='
        if t.text in self.names:
            raise self.error(f"'{t.text}' is defined twice (dealer allows one definition)", t)
        expr = self.expression()
        self.names[t.text] = s.Named(t.text, expr, line=t.line, column=t.column)

    def count_values(self, start: Token) -> tuple[int, ...]:
        """The values of a ``pointcount``/``altcount``: ace first, up to 13, the rest 0."""
        values: list[int] = []
        while self.tok.kind in ("NUMBER", "PATTERN") or (self.tok.kind == "-" and self.peek().kind == "NUMBER"):
            if self.tok.kind == "PATTERN" and "x" in self.tok.text:
                break
            if len(values) == 13:
                raise self.error(f"{start.text} gives values to 13 ranks (A K Q J T 9 ... 2); this is a 14th")
            values.append(self.number())
        by_rank = [0] * 13
        for i, v in enumerate(values):
            by_rank[12 - i] = v
        return tuple(by_rank)

    def predeals(self) -> None:
        """``predeal south SAQ542, HKJ87, D32, CAK`` (several seats may follow one ``predeal``), or
        ``predeal spades(north) == 1``."""
        count = 0
        while True:
            t = self.tok
            if t.kind == "SEAT":
                self.take()
                self.holdings(t.value)
            elif t.kind == "SUIT" and self.peek().kind == "(":
                self.suit_length()
            else:
                break
            count += 1
            if self.tok.kind == "," and self.peek().kind in ("SEAT", "SUIT"):
                self.take()
        if not count:
            raise self.error(
                f"expected a seat and its cards (south SAQ542, HKJ87) or spades(north) == 1 after "
                f"'predeal', found {describe(self.tok)}"
            )

    def holdings(self, seat: int) -> None:
        while True:
            h = self.tok
            if h.kind != "HOLDING":
                raise self.error(
                    f"expected a holding such as SAQ542 (the suit letter, then the cards from the "
                    f"ace down), found {describe(h)}"
                )
            self.take()
            suit = SUIT_LETTERS.index(h.text[0])
            for ch in h.text[1:]:
                card = 13 * suit + RANK_CHARS.index(ch)
                bit = 1 << card
                held = [x for x in range(4) if self.predeal[x] & bit]
                if held:
                    raise self.error(f"{h.text[0]}{ch} is predealt twice", h)
                if self.predeal[seat].bit_count() == 13:
                    raise self.error(f"more than 13 cards predealt to {_SEATS[seat]}", h)
                self.predeal[seat] |= bit
            if self.tok.kind == "," and self.peek().kind == "HOLDING":
                self.take()
                continue
            break

    def suit_length(self) -> None:
        t = self.tok
        suit = self.suit()
        self.expect("(", "'('")
        seat = self.seat()
        self.expect(")", "')'")
        self.expect("==", "'==' (a predeal gives a suit an exact length)")
        n = self.number("the number of cards")
        if not 0 <= n <= 13:
            raise self.error(f"a suit has 0 to 13 cards, not {n}", t)
        if (seat, suit) in self.lengths:
            raise self.error(f"{_SEATS[seat]}'s {_SUITS[suit]} are given a length twice", t)
        self.lengths[(seat, suit)] = n

    # -- actions -----------------------------------------------------------------------------------
    def action_list(self) -> tuple[s.Action, ...]:
        actions: list[s.Action] = []
        while self.tok.kind in _ACTIONS:
            actions.append(_ACTIONS[self.tok.kind](self))
            if self.tok.kind != ",":
                break
            self.take()  # dealer allows a comma after the last action
        if self.tok.kind in ("evalcontract",):
            raise self.error(f"'{self.tok.text}' is not supported by bridgeview's generate")
        return tuple(actions)

    def optional_string(self) -> str | None:
        if self.tok.kind == "STRING":
            return self.take().text
        return None

    def act_print(self) -> s.Action:
        self.take()
        self.expect("(", "'(' and the seats to print")
        seats = [self.seat()]
        while self.tok.kind == ",":
            self.take()
            seats.append(self.seat())
        self.expect(")", "')'")
        return s.PrintHands(tuple(sorted(set(seats))))

    def act_simple(self) -> s.Action:
        kind = self.take().kind
        if kind == "printall":
            return s.PrintAll()
        return s.PrintEW() if kind == "printew" else s.PrintPBN()

    def act_compact(self) -> s.Action:
        kind = self.take().kind
        expr = None
        if self.tok.kind == "(":
            self.take()
            expr = self.expression()
            self.expect(")", "')'")
        return s.PrintCompact(expr) if kind == "printcompact" else s.PrintOneLine(expr)

    def act_printes(self) -> s.Action:
        self.take()
        self.expect("(", "'(' and what to print")
        items: list[s.Expr | str] = []
        while True:
            if self.tok.kind == "STRING":
                items.append(self.take().text)
            else:
                items.append(self.expression())
            if self.tok.kind != ",":
                break
            self.take()
        self.expect(")", "')'")
        return s.PrintES(tuple(items))

    def act_average(self) -> s.Action:
        self.take()
        label = self.optional_string()
        return s.Average(label, self.expression())

    def act_frequency(self) -> s.Action:
        self.take()
        label = self.optional_string()
        self.expect("(", "'(' (frequency \"label\" (expression, low, high))")
        expr = self.expression()
        low, high = self.bounds()
        if self.tok.kind == ",":
            self.take()
            expr2 = self.expression()
            low2, high2 = self.bounds()
            self.expect(")", "')'")
            return s.Frequency2D(label, expr, low, high, expr2, low2, high2)
        self.expect(")", "')' or a second expression and its bounds")
        return s.Frequency(label, expr, low, high)

    def bounds(self) -> tuple[int, int]:
        self.expect(",", "',' and the lowest value to count")
        t = self.tok
        low = self.number("the lowest value to count")
        self.expect(",", "',' and the highest value to count")
        high = self.number("the highest value to count")
        if high < low:
            raise self.error(f"the highest value to count ({high}) is below the lowest ({low})", t)
        if high - low > 100_000:
            raise self.error(f"a frequency counts at most 100,001 values, not {high - low + 1:,}", t)
        return low, high

    # -- expressions -------------------------------------------------------------------------------
    def starts_expression(self, t: Token) -> bool:
        return t.kind in _PRIMARY or t.kind in ("NUMBER", "PATTERN", "NAME", "(", "!", "-")

    def expression(self) -> s.Expr:
        """``a ? b : c`` (right to left, the loosest), else a binary expression."""
        test = self.binary(0)
        if self.tok.kind != "?":
            return test
        q = self.take()
        if_true = self.expression()
        self.expect(":", "':' (a ? b : c)")
        if_false = self.expression()
        return s.Choice(test, if_true, if_false, line=q.line, column=q.column)

    def binary(self, level: int) -> s.Expr:
        if level == len(_LEVELS):
            return self.unary()
        left = self.binary(level + 1)
        while self.tok.kind in _LEVELS[level]:
            op = self.take()
            right = self.binary(level + 1)
            left = s.Binary(op.kind, left, right, line=op.line, column=op.column)
        return left

    def unary(self) -> s.Expr:
        t = self.tok
        if t.kind == "!":
            self.take()
            return s.Not(self.unary(), line=t.line, column=t.column)
        if t.kind == "-":
            self.take()
            if self.tok.kind in ("NUMBER", "PATTERN") and "x" not in self.tok.text:
                n = self.take()
                return s.Number(-int(n.text), line=t.line, column=t.column)
            return s.Negate(self.unary(), line=t.line, column=t.column)
        return self.primary()

    def primary(self) -> s.Expr:
        t = self.tok
        if t.kind in ("NUMBER", "PATTERN"):
            if "x" in t.text:
                raise self.error(f"the pattern {t.text} belongs in shape(seat, ...), not in an expression")
            self.take()
            return s.Number(int(t.text), line=t.line, column=t.column)
        if t.kind == "(":
            self.take()
            inner = self.expression()
            self.expect(")", "')'")
            return inner
        if t.kind == "NAME":
            self.take()
            named = self.names.get(t.text)
            if named is None:
                raise self.error(_unknown_name(t.text), t)
            return named
        parse_function = _PRIMARY.get(t.kind)
        if parse_function is None:
            raise self.error(f"expected an expression, found {describe(t)}{_hint(t)}")
        return parse_function(self)

    def call_seat_suit(self, optional_suit: bool) -> tuple[int, int | None]:
        self.take()
        self.expect("(", "'('")
        seat = self.seat()
        suit = None
        if self.tok.kind == "," or not optional_suit:
            self.expect(",", "',' and a suit")
            suit = self.suit()
        self.expect(")", "')'")
        return seat, suit

    def f_length(self) -> s.Expr:
        t = self.take()
        self.expect("(", f"'(' ({t.text}(north))")
        seat = self.seat()
        self.expect(")", "')'")
        return s.Length(seat, t.value, line=t.line, column=t.column)

    def f_count(self) -> s.Expr:
        t = self.tok
        seat, suit = self.call_seat_suit(optional_suit=True)
        return s.Count(t.value, seat, suit, line=t.line, column=t.column)

    def f_loser(self) -> s.Expr:
        t = self.tok
        seat, suit = self.call_seat_suit(optional_suit=True)
        return s.Losers(seat, suit, line=t.line, column=t.column)

    def f_quality(self) -> s.Expr:
        t = self.tok
        seat, suit = self.call_seat_suit(optional_suit=False)
        assert suit is not None
        return s.Quality(seat, suit, line=t.line, column=t.column)

    def f_cccc(self) -> s.Expr:
        t = self.take()
        self.expect("(", "'('")
        seat = self.seat()
        self.expect(")", "')'")
        return s.Cccc(seat, line=t.line, column=t.column)

    def f_hascard(self) -> s.Expr:
        t = self.take()
        self.expect("(", "'('")
        seat = self.seat()
        self.expect(",", "',' and a card")
        c = self.tok
        if c.kind == "HOLDING" and len(c.text) == 2:
            raise self.error(f"cards are written rank first in hascard: {c.text[1]}{c.text[0]}, not {c.text}")
        if c.kind != "CARD":
            raise self.error(f"expected a card such as AS or TC (rank, then suit), found {describe(c)}")
        self.take()
        self.expect(")", "')'")
        card = 13 * SUIT_LETTERS.index(c.text[1]) + RANK_CHARS.index(c.text[0])
        return s.HasCard(seat, card, line=t.line, column=t.column)

    def f_shape(self) -> s.Expr:
        t = self.take()
        self.expect("(", "'('")
        seat = self.seat()
        self.expect(",", "',' and the shapes (shape(north, any 4333 + 5xxx))")
        codes = self.shape_element()
        while True:
            op = self.tok.kind
            if op in ("+", "-", ","):
                self.take()
            elif self.tok.kind not in ("any", "PATTERN", "NUMBER"):
                break
            element = self.shape_element()
            codes = codes - element if op == "-" else codes | element
        self.expect(")", "')' or another shape")
        return s.Shape(seat, frozenset(codes), line=t.line, column=t.column)

    def shape_element(self) -> set[int]:
        any_order = False
        if self.tok.kind == "any":
            self.take()
            any_order = True
        t = self.tok
        if t.kind not in ("PATTERN", "NUMBER") or len(t.text) != 4:
            raise self.error(
                f"expected a shape of four digits or x (spades, hearts, diamonds, clubs: 4333, 5xxx), "
                f"found {describe(t)}"
            )
        self.take()
        return _shape_codes(t.text, any_order, lambda message: self.error(message, t))

    def f_score(self) -> s.Expr:
        t = self.take()
        self.expect("(", "'('")
        v = self.tok
        if v.kind != "VUL":
            raise self.error(f"expected vul or nv, found {describe(v)}")
        self.take()
        self.expect(",", "',' and a contract (x3N)")
        c = self.expect("CONTRACT", "a contract such as x3N or x4S")
        self.expect(",", "',' and the tricks taken")
        tricks = self.expression()
        self.expect(")", "')'")
        strain = "CDHSN".index(c.text[2])
        return s.Score(bool(v.value), int(c.text[1]), strain, tricks, line=t.line, column=t.column)

    def f_imps(self) -> s.Expr:
        t, value = self.call_of_expression()
        return s.Imps(value, line=t.line, column=t.column)

    def f_rnd(self) -> s.Expr:
        t, limit = self.call_of_expression()
        return s.Random(limit, line=t.line, column=t.column)

    def call_of_expression(self) -> tuple[Token, s.Expr]:
        """``word(EXPR)``: the word's token and the expression."""
        t = self.take()
        self.expect("(", "'('")
        inner = self.expression()
        self.expect(")", "')'")
        return t, inner

    def f_unsupported(self) -> s.Expr:
        t = self.tok
        raise self.error(f"'{t.text}' (double-dummy tricks) is not supported by bridgeview's generate")


_PRIMARY: dict[str, Callable[[_Parser], s.Expr]] = {
    "SUIT": _Parser.f_length,
    "COUNT": _Parser.f_count,
    "loser": _Parser.f_loser,
    "quality": _Parser.f_quality,
    "cccc": _Parser.f_cccc,
    "hascard": _Parser.f_hascard,
    "shape": _Parser.f_shape,
    "score": _Parser.f_score,
    "imp": _Parser.f_imps,
    "rnd": _Parser.f_rnd,
    "trick": _Parser.f_unsupported,
}

_ACTIONS: dict[str, Callable[[_Parser], s.Action]] = {
    "printall": _Parser.act_simple,
    "printew": _Parser.act_simple,
    "printpbn": _Parser.act_simple,
    "printcompact": _Parser.act_compact,
    "printoneline": _Parser.act_compact,
    "printes": _Parser.act_printes,
    "print": _Parser.act_print,
    "average": _Parser.act_average,
    "frequency": _Parser.act_frequency,
}


def _shape_codes(text: str, any_order: bool, error: Callable[[str], ScriptError]) -> set[int]:
    """The shape codes a pattern stands for: digits are lengths in S H D C order, ``x`` any length,
    ``any`` the same lengths in any suits.  A pattern without ``x`` must add up to 13."""
    fixed = [int(ch) for ch in text if ch != "x"]
    if "x" not in text and sum(fixed) != 13:
        raise error(f"the shape {text} has {sum(fixed)} cards, not 13")
    if sum(fixed) > 13:
        raise error(f"the shape {text} has more than 13 cards")
    codes: set[int] = set()
    orders = set(itertools.permutations(text)) if any_order else {tuple(text)}
    for order in orders:
        for lengths in _PATTERNS:
            if all(ch == "x" or int(ch) == n for ch, n in zip(order, lengths, strict=True)):
                codes.add(s.shape_code(lengths[0], lengths[1], lengths[2]))
    return codes


#: every hand pattern (spades, hearts, diamonds, clubs), 560 of them
_PATTERNS = [p for p in itertools.product(range(14), repeat=4) if sum(p) == 13]


def _int_or_none(value: object) -> int | None:
    return value if isinstance(value, int) else None


def _hint(t: Token) -> str:
    """A word the user probably meant, for a name that is a keyword in another case (``North``)."""
    if t.kind == "NAME" and t.text.lower() in KEYWORDS and t.text.lower() != t.text:
        return f" (dealer's words are lower case: {t.text.lower()})"
    return ""


def _unknown_name(name: str) -> str:
    if name.lower() in KEYWORDS:
        return f"unknown name '{name}' (dealer's words are lower case: {name.lower()})"
    return f"unknown name '{name}' (not a function of the dealer language, and not defined above this line)"
