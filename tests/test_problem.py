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


def test_the_lin_reader_gives_every_problem_a_kind(tmp_path) -> None:
    """LIN's problems are objects too: each with its kind, severity and place (the board and its line)."""
    from bridgeview.formats import read_file

    hands = "SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,"
    text = (
        f"qx|o1|ah|Board 2|md|1{hands}|\n"  # qx and the title disagree
        f"qx|o3|md|2{hands}|sv|q|mb|1N|mb|p|mb|p|mb|p|pc|SA|pc|SA|\n"  # a vulnerability, a card played twice
        f"qx|o4|md|3{hands}|mc|15|\n"  # a claim past 13
        f"qx|o5|md|4{hands}|mb|1N|mb|p|mb|p|mb|p|pc|NT2|\n"  # a card that cannot be read
    )
    path = tmp_path / "kinds.lin"
    path.write_text(text, encoding="utf-8")
    found = [(p.board, p.line, p.kind, p.severity) for p in read_file(path).problems]
    assert found == [
        (0, 1, "lin.board-numbers-differ", Severity.ERROR),
        (1, 2, "lin.bad-vulnerability", Severity.ERROR),
        (1, 2, "lin.card-played-twice", Severity.ERROR),
        (2, 3, "lin.bad-claim", Severity.ERROR),
        (3, 4, "lin.unreadable-board", Severity.ERROR),
    ]


def test_no_reader_leaves_a_problem_of_a_real_file_without_a_kind(realdata) -> None:
    """Every problem any reader finds in the real files of other programs has a kind: none is bare text."""
    from bridgeview.formats import read_file
    from bridgeview.formats.errors import FormatError

    seen = 0
    for path in sorted(p for p in realdata.rglob("*") if p.is_file() and p.name != "SOURCES.md"):
        try:
            doc = read_file(path)
        except FormatError:
            continue  # a file no reader takes says so in one error, not problems
        problems = getattr(doc, "problems", [])
        seen += len(problems)
        bare = [(path.name, p) for p in problems if Problem(*p).kind == UNSPECIFIED]
        assert not bare, bare
    assert seen  # the real files have problems to look at


def test_the_record_formats_give_their_problems_kinds(tmp_path) -> None:
    """The problems of the other readers have kinds too: an empty file, a DLM whose checksum is wrong or not a
    number, an RZD whose header miscounts its boards."""
    from bridgeview.formats import read_file, write_file
    from bridgeview.resources import resource

    sample = read_file(resource("sample.pbn"))
    empty = tmp_path / "empty.pbn"
    empty.write_bytes(b"")
    write_file(sample, tmp_path / "set.dlm", "dlm")
    dlm = (tmp_path / "set.dlm").read_text(encoding="utf-8")
    (tmp_path / "wrong.dlm").write_text(dlm.replace("Checksum=17", "Checksum=5"), encoding="utf-8")
    (tmp_path / "word.dlm").write_text(dlm.replace("Checksum=17", "Checksum=x"), encoding="utf-8")
    write_file(sample, tmp_path / "set.rzd", "rzd")
    rzd = bytearray((tmp_path / "set.rzd").read_bytes())
    rzd[0] = 15  # the header says 15 boards; the file holds 16
    (tmp_path / "count.rzd").write_bytes(bytes(rzd))
    kinds = {
        name: [(p.kind, p.severity) for p in read_file(tmp_path / name).problems]
        for name in ("empty.pbn", "wrong.dlm", "word.dlm", "count.rzd")
    }
    assert kinds == {
        "empty.pbn": [("file.empty", Severity.ERROR)],
        "wrong.dlm": [("dlm.wrong-checksum", Severity.ERROR)],
        "word.dlm": [("dlm.bad-checksum", Severity.ERROR)],
        "count.rzd": [("rzd.board-count", Severity.ERROR)],
    }
