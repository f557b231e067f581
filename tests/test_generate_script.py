"""The dealer language: every script of dealer's manual and examples reads and runs; mistakes are
named with their line and column; expressions mean what they mean in dealer."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bridgeview.generate import engine
from bridgeview.generate import script as s
from bridgeview.generate.actions import Report
from bridgeview.generate.evaluate import Deals, EvaluationError, Evaluator
from bridgeview.generate.lexer import ScriptError, tokenize
from bridgeview.generate.parser import parse

FIXTURES = Path(__file__).parent / "fixtures" / "dealer"
EXAMPLES = sorted(FIXTURES.glob("Descr.*"))
#: the manual's examples that are whole scripts dealer runs
MANUAL = [p for p in sorted(FIXTURES.glob("manual-*.dlr")) if "unbalanced" not in p.name and "dpp" not in p.name]

#: the examples written in the text of dealer's manual (input.html), as the manual writes them
MANUAL_INLINE = [
    "condition hcp(north)",
    "condition hcp(south, spades)",
    "condition pt3(north)",
    "condition pt9(south, spades)",
    "condition tens(north) + jacks(north) + queens(north) + kings(north) + aces(north) + c13(north)",
    "condition top2(north) + top3(north) + top4(north) + top5(east, spades)",
    "condition control(north)",
    "condition control(north, spades)",
    "condition hcp(north)>6 and control(north)<3",
    "condition loser(north)",
    "condition loser(north, spades)",
    "condition cccc(north) > 1200",
    "condition quality(north, spades) > 300",
    "condition hearts(west)",
    "condition shape(north, any 4333 + 54xx - any 0xxx)",
    "condition hascard(east, TC)",
    "condition score(vul, x3N, 9) > 0 && imps(620 - 170) == 10",
    "minornorth = clubs(north) > diamonds(north) ? hcp(north,clubs) : hcp(north,diamonds)\ncondition minornorth > 3",
    'action average "points" hcp(north)',
    'action frequency "hcp" (hcp(north), 0, 37)',
    'action frequency "hcp x spades" (hcp(north), 10, 15, spades(north), 3, 6)',
    "action printall",
    "action print(east, west)",
    "action printew",
    "action printpbn",
    "action printcompact",
    "action printcompact(hcp(north))",
    "action printoneline",
    "action printoneline(hcp(north))",
    'action printes("Number of hearts: ", hearts(north), \\n)',
    "vulnerable none\ndealer east\naction printpbn",
    "pointcount 4 3 2 1\ncondition hcp(north) > 10",
    "altcount 0 1 1\ncondition pt0(north) > 2",
    "predeal north SAQ542, HKJ87, D32, CAK",
    "predeal north S2",
    "predeal spades(north) == 1",
]


def run_script(text: str, *, generate: int = 2000, seed: int = 1, produce: int | None = None) -> tuple[str, object]:
    """What the script prints (as ``bridgeview generate`` prints it without -o) and the run's summary."""
    script = parse(text, "test.dlr")
    out: list[str] = []
    report = Report(script, out.append, seed)
    summary = engine.run(script, engine.limits(script, produce, generate), report.feed, seed=seed, jobs=1)
    report.finish(summary.produced)
    return "".join(out), summary


@pytest.mark.parametrize("path", EXAMPLES + MANUAL, ids=lambda p: p.name)
def test_every_example_script_of_dealer_runs(path):
    script = parse(path.read_text(encoding="latin-1"), path.name)
    text, summary = run_script(path.read_text(encoding="latin-1"), generate=3000)
    assert summary.generated > 0
    if script.prints_deals and summary.produced:
        assert text.strip()


@pytest.mark.parametrize("text", MANUAL_INLINE)
def test_every_example_in_the_manuals_text_runs(text):
    _out, summary = run_script(text, generate=500)
    assert summary.generated > 0


def test_the_manuals_unbalanced_example_is_located():
    """The manual's north2d example has a parenthesis too few (dealer says "syntax error"):
    we say where the expression ran out."""
    with pytest.raises(ScriptError) as e:
        parse((FIXTURES / "manual-north2d-unbalanced.dlr").read_text(), "north2d.dlr")
    assert str(e.value) == "line 3, column 1: expected ')', found the end of the script"
    assert e.value.full().startswith("north2d.dlr: line 3, column 1:")


def test_dealer_dpp_syntax_is_named():
    with pytest.raises(ScriptError, match=r"line 1, column 6: unexpected '\{' \(shape\{\.\.\.\} is the dealer.dpp"):
        parse((FIXTURES / "manual-preproc-dpp.dlr").read_text())


def test_operator_order_matches_dealers_own_reference_output():
    """Descr.test_operator_order prints each expression beside the value dealer gives it."""
    out, _summary = run_script((FIXTURES / "Descr.test_operator_order").read_text(), generate=1)
    expected = (FIXTURES / "Refer.test_operator_order").read_text().split("Generated")[0]
    assert out == expected
    for line in out.splitlines():  # and every pair agrees (a==a)
        for pair in line.split(None, 1)[1].split(", "):
            left, right = pair.split("==")
            assert left == right, line


@pytest.mark.parametrize(
    "text, where, message",
    [
        ("condition hpc(north) > 3", "line 1, column 11", "unknown name 'hpc'"),
        ("condition hcp(North) > 3", "line 1, column 15", "lower case: north"),
        ("produce 10\n\n  condition hcp(north) >", "line 3, column 25", "expected an expression, found the end"),
        ("x = 3\nx = 4", "line 2, column 1", "'x' is defined twice"),
        ("condition shape(north, 4442)", "line 1, column 24", "the shape 4442 has 14 cards, not 13"),
        ("condition shape(north, 9xx5)", "line 1, column 24", "more than 13 cards"),
        ("predeal north SAK\npredeal south SA", "line 2, column 15", "SA is predealt twice"),
        ("predeal north SAKQJT98765432, HA", "line 1, column 31", "more than 13 cards predealt to north"),
        ("condition tricks(north, spades) > 9", "line 1, column 11", "'tricks' (double-dummy tricks) is not supported"),
        ("action evalcontract", "line 1, column 8", "'evalcontract' is not supported"),
        ("/* never closed", "line 1, column 1", "never closed with */"),
        ("condition 3 # x", "line 1, column 13", "'#' starts a comment only at the beginning of a line"),
        ("produce 0", "line 1, column 1", "produce needs a number of deals from 1"),
        ("condition hascard(north, SA)", "line 1, column 26", "rank first in hascard: AS, not SA"),
        ("action frequency (hcp(north), 5, 3)", "line 1, column 31", "the highest value to count (3) is below"),
        ("pointcount 1 2 3 4 5 6 7 8 9 10 11 12 13 14", "line 1, column 42", "this is a 14th"),
        ('action printes("abc', "line 1, column 16", 'a string started with " is never closed'),
        ("condition 1 @ 2", "line 1, column 13", "unexpected character '@'"),
        ("altcount 10 1", "line 1, column 10", "altcount numbers the counts 0 to 9"),
        ("predeal spades(north) == 14", "line 1, column 9", "a suit has 0 to 13 cards, not 14"),
        ("predeal spades(north) == 1, spades(north) == 2", "line 1, column 29", "given a length twice"),
        ("dealer northeast", "line 1, column 8", "expected a seat"),
        ("vulnerable both", "line 1, column 12", "expected none, NS, EW or all"),
        ("condition 5xxx", "line 1, column 11", "belongs in shape(seat, ...)"),
        ('action printes "x"', "line 1, column 16", "expected '(' and what to print"),
        ("condition hcp(north) > 3 )", "line 1, column 26", "unexpected ')'"),
    ],
)
def test_mistakes_are_named_with_line_and_column(text, where, message):
    with pytest.raises(ScriptError) as e:
        parse(text)
    assert str(e.value).startswith(where + ": "), str(e.value)
    assert message in str(e.value)


def test_comments_and_line_counting():
    text = "# a comment\n/* a comment\nover lines */ produce 3 // to the end\n  # indented comment\n"
    text += "condition spades(north) >= 0\n"
    script = parse(text)
    assert script.produce == 3
    with pytest.raises(ScriptError, match="^line 6, column 1: unknown name 'oops'"):
        parse(text + "oops\n")


def test_words_follow_dealers_scanner():
    """The longest match wins; among equal ones keywords, then holdings, cards, contracts, patterns,
    numbers and names, as in dealer's scan.l."""
    kinds = [
        (t.kind, t.text)
        for t in tokenize("SAK AS x3N xxxx 4333 10000 Stayman north S spades hearts(")
        if t.kind != "END"
    ]
    assert kinds == [
        ("HOLDING", "SAK"),
        ("CARD", "AS"),
        ("CONTRACT", "x3N"),
        ("PATTERN", "xxxx"),
        ("PATTERN", "4333"),
        ("NUMBER", "10000"),
        ("NAME", "Stayman"),
        ("SEAT", "north"),
        ("HOLDING", "S"),
        ("SUIT", "spades"),
        ("SUIT", "hearts"),
        ("(", "("),
    ]


def test_settings_are_read_as_dealer_reads_them():
    script = parse(
        "generate 500\ngenerate 900\nproduce 7\nproduce 9\ndealer west\nvulnerable EW\n"
        "pointcount 6 4 2 1\naltcount 9 3 2 1\nx = hcp(north)\ncondition x > 1\ncondition x > 2\naction printall"
    )
    assert (script.generate, script.produce) == (500, 7)  # dealer keeps the first
    assert (script.dealer, script.vulnerable) == (3, 2)
    assert script.pointcount == (0,) * 9 + (1, 2, 4, 6)  # ace first in the script; deuce first here
    assert script.altcounts[9] == (0,) * 10 + (1, 2, 3)
    assert isinstance(script.condition, s.Binary) and script.condition.right == s.Number(2)  # the last wins
    assert script.names == ("x",)


def test_shapes_combine_left_to_right():
    codes = parse("condition shape(north, any 4333 + 54xx - any 0xxx)").condition.codes
    assert s.shape_code(3, 3, 4) in codes  # any 4333
    assert s.shape_code(5, 4, 2) in codes  # 5422
    assert s.shape_code(5, 4, 0) not in codes  # 5440: 54xx, but taken out again (a void)
    # a comma or nothing between shapes adds, like +; later shapes act on everything before them
    codes = parse("condition shape(north, 54xx - any 0xxx, 7xx0 5xxx)").condition.codes
    assert s.shape_code(7, 3, 3) in codes
    assert s.shape_code(5, 4, 0) in codes  # taken out, then added back by 5xxx
    assert len(parse("condition shape(north, any 4432)").condition.codes) == 12


def _deals(*hands_by_seat: str) -> Deals:
    """Deals from PBN hands (``AKQ.JT9.876.5432``) given seat by seat, one deal per string in each."""
    rows = []
    for deal in zip(*hands_by_seat, strict=True):
        seats = []
        for hand in deal:
            suits = hand.split(".")
            seats.append([sum(1 << "23456789TJQKA".index(c) for c in suits[3 - suit]) for suit in range(4)])
        rows.append(seats)
    return Deals(np.array(rows, dtype=np.uint16).transpose(1, 2, 0))


def _values(expr_text: str, deals: Deals) -> list[int]:
    script = parse(f"action average {expr_text}")
    return Evaluator(script).integers(script.actions[0].expr, deals).tolist()


def test_c_arithmetic():
    d = _deals(["AKQJ.AKQ.AK.A432"], ["T98.J98.QJ.KQJT9"], ["765.T76.T98.8765"], ["432.5432.765432."])
    assert _values("7 / -2", d) == [-3]
    assert _values("-7 / 2", d) == [-3]
    assert _values("-7 % 3", d) == [-1]
    assert _values("7 % -3", d) == [1]
    assert _values("-hcp(north)", d) == [-30]
    assert _values("1 ? 3 : 1 ? 2 : 1", d) == [3]
    assert _values("!0 * 2", d) == [2]
    assert _values("2 == 2 != 0", d) == [1]


def test_hand_functions():
    d = _deals(["AKQJ.AKQ.AK.A432"], ["T98.J98.QJ.KQJT9"], ["765.T76.T98.8765"], ["432.5432.765432."])
    assert _values("hcp(north)", d) == [30]
    assert _values("hcp(west)", d) == [0]
    assert _values("clubs(west)", d) == [0]
    assert _values("loser(north)", d) == [0 + 0 + 0 + 2]
    assert _values("loser(east, diamonds)", d) == [2]  # QJ doubleton: two losers (dealer counts only A and K)
    assert _values("loser(west, clubs)", d) == [0]  # a void
    assert _values("control(north)", d) == [2 * 4 + 3]
    assert _values("hascard(east, TC)", d) == [1]
    assert _values("hascard(east, AC)", d) == [0]
    assert _values("shape(west, any 0346)", d) == [1]
    assert _values("top3(north, spades)", d) == [3]


def test_division_by_zero_is_an_error_only_where_dealer_meets_it():
    d = _deals(
        ["AKQJ.AKQ.AK.A432", "T98.J98.QJ.KQJT9"],
        ["T98.J98.QJ.KQJT9", "AKQJ.AKQ.AK.A432"],
        ["765.T76.T98.8765", "765.T76.T98.8765"],
        ["432.5432.765432.", "432.5432.765432."],
    )
    # hcp(south) is 0 in both deals, but dealer divides only where hcp(north) > 20: deal 1
    script = parse("condition hcp(north) > 40 && 10 / hcp(south) > 1")
    assert Evaluator(script).condition(d).tolist() == [False, False]
    script = parse("condition hcp(north) > 20 && 10 / hcp(south) > 1")
    with pytest.raises(EvaluationError, match=r"^line 1, column 33: division by zero"):
        Evaluator(script).condition(d)
    script = parse("condition hcp(north) > 40 ? 10 % hcp(south) : 1")
    assert Evaluator(script).condition(d).tolist() == [True, True]


def test_rnd_is_drawn_anew_at_each_use_of_a_name():
    """dealer evaluates a name's expression at each use, so r and r differ; other names are computed once."""
    out, _summary = run_script('r = rnd(1000000)\naction printes(r, " ", r, \\n)', generate=50, produce=50)
    pairs = [line.split() for line in out.splitlines()]
    assert len(pairs) == 50 and sum(a != b for a, b in pairs) > 45


def test_rnd_is_uniform_and_within_its_range():
    out, _ = run_script("action printes(rnd(6), \\n)", generate=60000, produce=60000)
    counts = np.bincount([int(v) for v in out.split()], minlength=7)
    assert counts[6] == 0
    expected = 10000
    assert all(abs(c - expected) < 5 * (expected * 5 / 6) ** 0.5 for c in counts[:6]), counts
