"""The dealing desk's checks (issue 11): ``check`` and ``diff`` on sets with one planted fault each,
``--against`` and ``diff`` on rotated, swapped, single-card and missing-board differences, and the real files."""

from __future__ import annotations

import random

import pytest
from conftest import realdata_files
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.check import check_set, compare_sets, deal_difference, problems_by_index, summary
from bridgeview.check.compare import _card_text
from bridgeview.cli.main import main
from bridgeview.formats.registry import read_file, write_file
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, DupControl, FileInfo
from bridgeview.model.cards import Card, Seat
from bridgeview.model.deal import Deal
from bridgeview.model.vulnerability import Vulnerability


def clean_set(n: int = 16, first: int = 1, seed: int = 11) -> BoardSet:
    rng = random.Random(seed)
    return BoardSet([Board.numbered(first + i, Deal.shuffled(rng)) for i in range(n)], FileInfo())


def rotated(deal: Deal, k: int) -> Deal:
    """Every hand moved ``k`` seats clockwise."""
    return Deal(tuple(deal.hands[(s - k) % 4] for s in range(4)))


def swapped(deal: Deal, x: int, y: int) -> Deal:
    hands = list(deal.hands)
    hands[x], hands[y] = hands[y], hands[x]
    return Deal(tuple(hands))


def moved(deal: Deal, card: str, seat: Seat) -> Deal:
    """``card`` exchanged with a card of ``seat``'s so both hands keep 13 cards."""
    c = int(Card.parse(card))
    owner = deal.owner(c)
    other = next(x for x in range(52) if deal.owner(x) == seat and x // 13 != c // 13)
    return deal.with_card(c, seat).with_card(other, owner)


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, out, err


# -- check: one planted fault each ----------------------------------------------------------
def test_a_clean_set_is_ready_to_deal():
    boards = clean_set()
    assert check_set(boards) == []
    assert summary([], len(boards)) == "16 boards, ready to deal"


def test_a_deal_with_a_card_astray_is_not_fit_to_deal():
    boards = clean_set()
    deal = boards[6].deal
    spade_ace = int(Card.parse("SA"))
    boards[6] = boards[6].copy(deal=deal.with_card(spade_ace, None))
    owner = deal.owner(spade_ace).letter
    assert [str(x) for x in check_set(boards)] == [
        "board 7: missing cards: SA",
        f"board 7: {owner} holds 12 cards, not 13",
    ]


def test_an_ending_is_not_fit_to_deal():
    boards = clean_set()
    ending = boards[6].deal.without([c for c in range(52) if c % 13 == 0])  # the four twos gone
    boards[6] = boards[6].copy(deal=ending)
    lengths = ", ".join(f"{s} {ending.length(k)}" for k, s in enumerate("NESW"))
    assert [str(x) for x in check_set(boards)] == [f"board 7: not a full deal: 48 cards ({lengths})"]


def test_a_board_with_no_cards_is_not_a_deal():
    boards = clean_set()
    boards[2] = boards[2].copy(deal=Deal.empty())
    assert [str(x) for x in check_set(boards)] == ["board 3: no cards: not a deal"]


def test_the_same_deal_twice_is_found():
    boards = clean_set()
    boards[9] = boards[9].copy(deal=boards[2].deal)
    assert [(x.board, x.message) for x in check_set(boards)] == [(10, "same deal as board 3")]


@pytest.mark.parametrize(
    ("k", "words"),
    [(1, "hands rotated 90° clockwise"), (2, "hands rotated 180°"), (3, "hands rotated 90° anticlockwise")],
)
def test_the_same_deal_rotated_to_other_seats_is_found(k, words):
    boards = clean_set()
    boards[11] = boards[11].copy(deal=rotated(boards[4].deal, k))
    assert [str(x) for x in check_set(boards)] == [f"board 12: same deal as board 5, {words}"]


def test_a_repeated_board_number_is_found():
    boards = clean_set()
    boards[5] = boards[5].copy(number=5, dealer=None, vulnerability=None)
    issues = [str(x) for x in check_set(boards)]
    assert issues == [
        "board 5: record 5 and record 6 have board number 5 but different deals (38 cards elsewhere)",
        "board 7: follows board 5: board 6 is missing from the run",
    ]


def test_a_number_missing_from_the_run_is_found():
    boards = clean_set()
    del boards[6:8]
    assert [str(x) for x in check_set(boards)] == ["board 9: follows board 6: boards 7-8 are missing from the run"]


def test_a_number_the_machine_cannot_take_is_found():
    boards = clean_set(3, first=998)
    issues = [str(x) for x in check_set(boards)]
    assert issues == ["board 1000: the dealing machine takes boards 1-999, not 1000"]


def test_dealer_or_vulnerability_that_does_not_follow_from_the_number_is_found():
    boards = clean_set()
    boards[0] = boards[0].copy(dealer=Seat.EAST)
    boards[1] = boards[1].copy(vulnerability=Vulnerability.ALL)
    issues = [str(x) for x in check_set(boards)]
    assert issues == [  # validate's warnings: said, but they do not stop the set being dealt
        "warning: board 1: dealer E but board 1 is dealt by N",
        "warning: board 2: vulnerability All but board 2 is NS",
    ]


def test_dealer_left_to_the_number_is_no_problem():
    boards = clean_set()
    boards[0] = boards[0].copy(dealer=None, vulnerability=None)
    assert check_set(boards) == []


@pytest.mark.parametrize(
    ("dup", "words"),
    [
        (DupControl(first_board=3, copies=1, last_board=16), "say the first board is 3, but the set starts at board 1"),
        (DupControl(first_board=1, copies=1, last_board=20), "say the last board is 20, but the set ends at board 16"),
        (DupControl(first_board=1, copies=0, last_board=16), "ask for 0 copies"),
    ],
)
def test_dup_control_fields_that_disagree_with_the_boards_are_found(dup, words):
    boards = clean_set()
    boards.info.dup = dup
    issues = check_set(boards)
    assert len(issues) == 1 and issues[0].board is None and words in issues[0].message
    assert str(issues[0]).startswith("set: ")


def test_dup_control_fields_read_from_a_file(tmp_path):
    boards = clean_set()
    boards.info.dup = DupControl(random=True, first_board=1, copies=0)
    path = tmp_path / "zero.dup"
    write_file(boards, path, "dup")
    issues = check_set(read_file(path))
    assert [x.kind for x in issues] == ["dup"] and "0 copies" in issues[0].message


def test_problems_by_index_feeds_the_board_list():
    boards = clean_set()
    boards[3] = boards[3].copy(deal=Deal.empty())
    assert problems_by_index(check_set(boards)) == {3: ["no cards: not a deal"]}


# -- describing differences -------------------------------------------------------------
def test_deal_differences_in_words():
    d = Deal.shuffled(random.Random(3))
    assert deal_difference(d, d) is None
    assert deal_difference(rotated(d, 1), d) == "hands rotated 90° clockwise"
    assert deal_difference(swapped(d, Seat.NORTH, Seat.SOUTH), d) == "North and South swapped"
    assert deal_difference(swapped(d, Seat.EAST, Seat.WEST), d) == "East and West swapped"
    three = Deal((d.hands[1], d.hands[2], d.hands[0], d.hands[3]))
    assert deal_difference(three, d).startswith("hands moved: ")


def test_a_single_moved_card_is_named():
    d = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
    e = d.with_card(int(Card.parse("SQ")), Seat.EAST).with_card(int(Card.parse("CA")), Seat.NORTH)
    text = deal_difference(e, d)
    assert text == "♠Q is with East here, with North there; ♣A is with North here, with East there"


def test_many_moved_cards_are_counted_not_listed():
    a, b = Deal.shuffled(random.Random(1)), Deal.shuffled(random.Random(2))
    text = deal_difference(a, b)
    assert text.count(" is with ") == 6 and text.endswith("more cards")


# -- check --against and diff on the command line --------------------------------------
@pytest.fixture
def pair(tmp_path):
    """A 20-board PBN and a DUP copy with board 5 rotated, 9 swapped, 12 with ♠Q moved, 17 missing."""
    a = clean_set(20)
    b = BoardSet([x.copy() for x in a], FileInfo())
    b[4] = b[4].copy(deal=rotated(a[4].deal, 1))
    b[8] = b[8].copy(deal=swapped(a[8].deal, Seat.NORTH, Seat.SOUTH))
    spade_q = int(Card.parse("SQ"))
    other = Seat.WEST if a[11].deal.owner(spade_q) != Seat.WEST else Seat.EAST
    b[11] = b[11].copy(deal=moved(a[11].deal, "SQ", other))
    pa, pb = tmp_path / "hands.pbn", tmp_path / "machine.pbn"
    write_file(a, pa, "pbn")
    del b[16]
    write_file(b, pb, "pbn")
    return pa, pb, a[11].deal.owner(spade_q), other


def test_check_against_tells_each_difference_precisely(capsys, pair):
    pa, pb, owner, other = pair
    rc, out, err = run(capsys, "check", pb, "--against", pa)
    assert rc == 1
    lines = [line.split(": ", 1)[1] for line in out.splitlines()]
    assert f"board 5: {pa} has {pb}'s hands turned 90° anticlockwise" in lines  # the file named: no guessing
    assert "board 9: North and South swapped" in lines
    names = ("North", "East", "South", "West")
    assert any(
        line.startswith(f"board 12: ♠Q is with {names[other]} here, with {names[owner]} there") for line in lines
    )
    assert f"board 17: only in {pa}" in lines
    assert "board 18: follows board 16: board 17 is missing from the run" in out  # the machine file's own gap
    assert "problems in 19 boards" in err


def test_check_against_the_same_deals_exits_0(capsys, tmp_path):
    a = clean_set()
    pa, pd = tmp_path / "a.pbn", tmp_path / "a.dup"
    write_file(a, pa, "pbn")
    write_file(a, pd, "dup")
    rc, out, err = run(capsys, "check", pd, "--against", pa)
    assert rc == 0 and out.strip().endswith(f"16 boards, ready to deal, same deals as {pa}")


def test_check_exits_1_and_prints_one_line_a_problem(capsys, tmp_path):
    a = clean_set()
    a[6] = a[6].copy(deal=rotated(a[1].deal, 2))
    p = tmp_path / "set.pbn"
    write_file(a, p, "pbn")
    rc, out, err = run(capsys, "check", p)
    assert rc == 1
    assert out.splitlines() == [f"{p}: board 7: same deal as board 2, hands rotated 180°"]
    assert err.strip() == f"{p}: 1 problem in 16 boards"


def test_check_of_an_unreadable_file_is_one_line(capsys, tmp_path):
    p = tmp_path / "bad.dup"
    p.write_bytes(b"x" * 100)
    rc, out, err = run(capsys, "check", p)
    assert rc == 1 and len(err.splitlines()) == 1 and err.startswith("bridgeview: ")


def test_diff_reports_every_kind_and_exits_1(capsys, pair):
    pa, pb, owner, other = pair
    rc, out, err = run(capsys, "diff", pa, pb)
    assert rc == 1
    lines = out.splitlines()
    assert f"board 5: {pb} has {pa}'s hands turned 90° clockwise" in lines  # the file it describes named
    assert "board 9: North and South swapped" in lines
    assert any(line.startswith("board 12: ♠Q is with ") and f"in {pa}" in line for line in lines)
    assert f"board 17: only in {pa}" in lines
    assert "4 of 20 boards differ" in err


def test_diff_of_identical_deals_exits_0_and_lists_differing_tags(capsys, tmp_path):
    a = clean_set(4)
    b = BoardSet([x.copy() for x in a], FileInfo())
    b[1] = b[1].copy(tags={"Declarer": "N", "Event": "Club night"})
    a[1] = a[1].copy(tags={"Event": "Monday pairs"})
    pa, pb = tmp_path / "a.pbn", tmp_path / "b.pbn"
    write_file(a, pa, "pbn")
    write_file(b, pb, "pbn")
    rc, out, err = run(capsys, "diff", pa, pb)
    assert rc == 0
    assert "board 2: same deal; Event: Monday pairs / Club night" in out
    rc, out, _ = run(capsys, "diff", pa, pb, "--no-tags")
    assert rc == 0 and out.strip() == "same deals on all 4 boards"


def test_compare_sets_matches_by_number_not_position():
    a = clean_set(4)
    b = BoardSet(list(reversed([x.copy() for x in a])), FileInfo())
    assert compare_sets(a, b) == []


# -- the real files ------------------------------------------------------------------------
@pytest.mark.parametrize("ext", ["bri", "dge", "dup", "pbn", "lin"])
def test_the_real_16_board_sets_hold_the_same_deals(capsys, realdata, ext):
    path = realdata / ext / f"dealconvert_test_16boards.{ext}"
    if not path.is_file():
        pytest.skip(f"no {path.name}")
    rc, out, err = run(capsys, "diff", path, realdata / "pbn" / "dealconvert_test_16boards.pbn", "--no-tags")
    assert rc == 0, out + err


def test_the_real_dup_file_asks_for_0_copies(capsys, realdata):
    path = realdata / "dup" / "dealconvert_test_16boards.dup"
    if not path.is_file():
        pytest.skip("no dup file")
    rc, out, err = run(capsys, "check", path, "--against", realdata / "pbn" / "dealconvert_test_16boards.pbn")
    assert rc == 1 and len(out.splitlines()) == 1 and "0 copies" in out


@pytest.mark.parametrize("path", realdata_files("pbn", "*.pbn") + realdata_files("lin", "*.lin"), ids=lambda p: p.name)
def test_check_runs_on_every_real_file_without_a_traceback(capsys, path):
    rc, out, err = run(capsys, "check", path)
    assert rc in (0, 1)
    assert err.strip().endswith("ready to deal") or "problem" in err or out.strip().endswith("ready to deal")


def test_the_veugen_error_file_has_every_validate_problem_and_more(realdata):
    from bridgeview.check.validate import validate

    path = realdata / "pbn" / "pbnj_veugen_errors_20.pbn"
    if not path.is_file():
        pytest.skip("no veugen file")
    boards = read_file(path)
    issues = check_set(boards)
    found = len(validate(boards))  # 31 since repeats of a board with its own deal are traveller records
    assert found >= 31
    assert sum(1 for x in issues if x.kind == "validate") == found and len(issues) > found


# -- converting to DUP: the machine's settings on the command line --------------------------
def gapped(tmp_path):
    boards = clean_set(10)
    del boards[3]
    del boards[6]  # numbers 1 2 3 5 6 7 9 10
    path = tmp_path / "gaps.pbn"
    write_file(boards, path, "pbn")
    return path


def test_converting_a_gapped_set_to_dup_says_which_boards_break_the_run(capsys, tmp_path):
    src, dst = gapped(tmp_path), tmp_path / "out.dup"
    rc, out, err = run(capsys, "convert", src, dst)
    assert rc == 1 and len(err.splitlines()) == 1 and not dst.exists()
    assert "board 5 follows board 3, board 9 follows board 7" in err
    assert "--renumber" in err


def test_renumber_and_dup_fields_on_the_command_line(capsys, tmp_path):
    src, dst = gapped(tmp_path), tmp_path / "out.dup"
    rc, out, err = run(
        capsys, "convert", src, dst, "--renumber", "--dup-copies", "3", "--dup-random", "no", "--dup-backwards", "yes"
    )
    assert rc == 0, err
    back = read_file(dst)
    assert back.info.dup == DupControl(random=False, backwards=True, first_board=1, copies=3, last_board=8)
    assert [b.number for b in back] == list(range(1, 9))
    original = read_file(src)
    assert [b.deal for b in back] == [b.deal for b in original]
    rc, out, err = run(capsys, "convert", dst, tmp_path / "again.dup", "--dup-first", "101")
    again = read_file(tmp_path / "again.dup")
    assert rc == 0 and again.info.dup == DupControl(False, True, 101, 3, 108) and again[0].number == 101
    assert check_set(again) == []


def test_dup_options_need_a_dup_target_and_sane_copies(capsys, tmp_path):
    src = gapped(tmp_path)
    rc, out, err = run(capsys, "convert", src, tmp_path / "x.pbn", "--dup-copies", "2")
    assert rc == 1 and "DUP" in err and len(err.splitlines()) == 1
    rc, out, err = run(capsys, "convert", src, tmp_path / "x.dup", "--renumber", "--dup-copies", "100")
    assert rc == 1 and "0-99" in err and not (tmp_path / "x.dup").exists()


def test_an_unrelated_deal_is_told_as_a_different_deal_and_found_elsewhere():
    a = clean_set(6)
    b = BoardSet([x.copy() for x in a], FileInfo())
    b[4] = b[4].copy(deal=rotated(a[1].deal, 2))  # board 5 holds board 2's deal, turned round
    diffs = compare_sets(a, b, name_a="wall", name_b="machine")
    assert len(diffs) == 1 and diffs[0].number == 5
    assert diffs[0].message.startswith("a different deal (")
    assert "machine's deal is wall's board 2 with its hands turned 180°" in diffs[0].message


def test_a_ten_is_named_10():
    d = Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")
    ten = int(Card.parse("HT"))
    other = int(Card.parse("D7"))
    e = d.with_card(ten, Seat.EAST).with_card(other, Seat.NORTH)
    assert deal_difference(e, d).startswith("♥10 is with East here, with North there")


def test_the_check_package_stays_below_solve_ui_and_cli():
    import subprocess
    import sys

    code = (
        "import sys, bridgeview.check; print(sorted(m for m in sys.modules if m.startswith("
        "('bridgeview.solve', 'bridgeview.ui', 'bridgeview.cli', 'PySide6'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- properties ------------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), k=st.integers(1, 3))
def test_any_rotation_is_named_as_one(seed, k):
    d = Deal.shuffled(random.Random(seed))
    words = {1: "hands rotated 90° clockwise", 2: "hands rotated 180°", 3: "hands rotated 90° anticlockwise"}
    assert deal_difference(rotated(d, k), d) == words[k]
    assert deal_difference(d, rotated(d, k)) == words[4 - k]  # seen from the other side, turned back


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_an_exchange_of_two_cards_names_exactly_those_two(seed, pick):
    d = Deal.shuffled(random.Random(seed))
    rng = random.Random(pick)
    x = rng.randrange(52)
    y = rng.choice([c for c in range(52) if d.owner(c) != d.owner(x)])
    e = d.with_card(x, d.owner(y)).with_card(y, d.owner(x))
    text = deal_difference(e, d)
    assert text.count(" is with ") == 2 and "more card" not in text
    names = ("North", "East", "South", "West")
    assert f"{_card_text(x)} is with {names[d.owner(y)]} here, with {names[d.owner(x)]} there" in text
