"""A problem a reader survives is an object (kind, severity, place, message) that is still the triple."""

from __future__ import annotations

import pickle

from bridgeview.formats.pbn.codec import parse_pbn_text
from bridgeview.model.problem import UNSPECIFIED, Place, Problem, Severity, error, kind_of, warning
from bridgeview.model.severity import severity_of


def test_a_problem_is_the_triple_consumers_unpack_with_its_kind_severity_and_place() -> None:
    p = Problem(3, 12, warning("pbn.bad-score", "Score 'x' must be 'NS <points>' or 'EW <points>'"))
    board, line, message = p
    assert (board, line) == (3, 12) and message == "Score 'x' must be 'NS <points>' or 'EW <points>'"
    assert p == (3, 12, "Score 'x' must be 'NS <points>' or 'EW <points>'")  # equal to the bare triple
    assert (p.kind, p.severity, p.place) == ("pbn.bad-score", Severity.WARNING, Place(3, 12))
    assert p.severity == "warning" and f"{p.severity}" == "warning"  # printed as before


def test_bare_text_is_an_unspecified_error_and_problems_survive_pickling() -> None:
    bare = Problem(None, None, "the file is empty (0 bytes)")
    assert (bare.kind, bare.severity, bare.place) == (UNSPECIFIED, Severity.ERROR, Place(None, None))
    text = error("pbn.stray-character", "stray '}'")
    again = pickle.loads(pickle.dumps(Problem(0, 5, text)))  # a worker process hands problems back
    assert again.kind == "pbn.stray-character" and kind_of(again.message) == "pbn.stray-character"
    assert severity_of(again.message) == Severity.ERROR and again.message == "stray '}'"


def test_the_pbn_reader_gives_every_problem_a_kind() -> None:
    text = '[Board "x"]\n[Dealer "Q"]\n[Deal "Q:A... - - -"]\n[Contract "4SR"]\n[Auction "N"]\n1S } ZZ\n'
    problems = parse_pbn_text(text).problems
    assert [(p.line, p.kind, p.severity) for p in problems] == [
        (6, "pbn.stray-character", Severity.ERROR),
        (1, "pbn.bad-board-number", Severity.ERROR),
        (2, "pbn.bad-dealer", Severity.ERROR),
        (3, "pbn.bad-deal", Severity.ERROR),
        (4, "pbn.contract-r-for-redoubled", Severity.WARNING),
        (6, "pbn.unreadable-call", Severity.ERROR),
    ]
