"""The 80-byte ZRJ: byte vectors, round trips of legal auctions and play, bad records, CLI."""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.cli.main import main
from bridgeview.formats.errors import FormatError
from bridgeview.formats.pavlicek import zrj as Z
from bridgeview.formats.registry import detect, get, read_file, write_file
from bridgeview.model.auction import PASS, Call, CallKind, Contract, auction_problems, final_contract
from bridgeview.model.board import Board
from bridgeview.model.cards import Card, Seat, Strain
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal
from bridgeview.model.play import replay, trick_winner
from bridgeview.model.vulnerability import Vulnerability

SUITS_DEAL = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
MARKS = ["", "", "", "!", "?", "*"]


@pytest.fixture(scope="module")
def tmp(tmp_path_factory):
    return tmp_path_factory.mktemp("zrj")


def random_deal(r: random.Random) -> Deal:
    cards = list(range(52))
    r.shuffle(cards)
    return Deal.from_owners([cards.index(c) // 13 for c in range(52)])


def random_auction(r: random.Random, dealer: int) -> list[Call]:
    """A legal, complete auction."""
    initial = r.choice([0, 0, 1, 2, 3, 4])
    if initial == 4:
        return [PASS] * 4
    calls = [PASS] * initial
    rank = r.randrange(0, 25)
    calls.append(Call.bid(rank // 5 + 1, rank % 5))
    bidder, risk, doubler, passes = (dealer + initial) % 4, 0, None, 0
    while passes < 3:
        seat = (dealer + len(calls)) % 4
        options = ["P", "P", "P"]
        if rank < 34:
            options.append("B")
        if risk == 0 and (seat - bidder) % 2:
            options.append("X")
        if risk == 1 and doubler is not None and (seat - doubler) % 2:
            options.append("XX")
        pick = r.choice(options)
        if pick == "P":
            calls.append(PASS)
            passes += 1
            continue
        passes = 0
        if pick == "B":
            rank = r.randrange(rank + 1, min(rank + 4, 34) + 1)
            calls.append(Call.bid(rank // 5 + 1, rank % 5))
            bidder, risk, doubler = seat, 0, None
        elif pick == "X":
            calls.append(Call(CallKind.DOUBLE))
            risk, doubler = 1, seat
        else:
            calls.append(Call(CallKind.REDOUBLE))
            risk = 2
    return calls


def random_play(r: random.Random, deal: Deal, declarer: int, trump: int, length: int) -> list[Card]:
    hands = list(deal.hands)
    leader, play, trick = (declarer + 1) % 4, [], []
    while len(play) < length:
        seat = (leader + len(trick)) % 4
        cards = [c for c in range(52) if hands[seat] >> c & 1]
        if trick:
            follow = [c for c in cards if c // 13 == trick[0] // 13]
            cards = follow or cards
        card = r.choice(cards)
        hands[seat] &= ~(1 << card)
        trick.append(card)
        play.append(Card(card))
        if len(trick) == 4:
            leader, trick = trick_winner(trick, leader, Strain(trump)), []
    return play


def random_board(seed: int) -> Board:
    r = random.Random(seed)
    deal = random_deal(r)
    if r.random() < 0.2:
        board = Board(dealer=Seat(r.randrange(4)), vulnerability=Vulnerability(r.randrange(4)), deal=deal)
    else:
        board = Board.numbered(r.randint(1, 240), deal)
    auction = random_auction(r, board.effective_dealer)
    initial = next(i for i, c in enumerate(auction) if c.kind != CallKind.PASS or i == 3)
    auction = [c if i < initial else c.annotated(mark=r.choice(MARKS)) for i, c in enumerate(auction)]
    assert not auction_problems(auction, board.effective_dealer)
    contract, declarer = final_contract(auction, board.effective_dealer)
    board.auction = auction
    if not contract.is_passed_out:
        board.play = random_play(r, deal, declarer, contract.strain, r.choice([0, 1, 13, 30, 52]))
        board.play_marks = {i: m for i in range(len(board.play)) if (m := r.choice(MARKS))}
        assert replay(deal, board.play, declarer, contract.strain).problem is None
        board.result = r.choice([None, r.randint(0, 13)])
    board.play = board.play or None
    return board


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_roundtrip_legal_auction_and_play(tmp, seed):
    board = random_board(seed)
    path = tmp / "rt.zrj"
    write_file([board], path, "zrj")
    assert detect(path).name == "zrj"
    back = read_file(path)[0]
    contract, declarer = final_contract(board.auction, board.effective_dealer)
    assert back.deal == board.deal
    assert (back.number, back.dealer, back.vulnerability) == (board.number, board.dealer, board.vulnerability)
    assert [(str(c), c.mark) for c in back.auction] == [(str(c), c.mark) for c in board.auction]
    assert (back.contract, back.declarer) == (contract, declarer)
    assert back.result == board.result
    room = 62 - (
        len(board.auction)
        - min(next(i for i, c in enumerate(board.auction + [Call.bid(1, 0)]) if c.kind != CallKind.PASS), 3)
    )
    kept = (board.play or [])[:room]
    assert (back.play or []) == kept
    assert back.play_marks == {i: m for i, m in board.play_marks.items() if i < len(kept)}
    assert not back.problems()


def test_byte_vector(tmp):
    board = Board.numbered(5, SUITS_DEAL, contract=Contract(4, Strain.HEARTS, 1), declarer=Seat.SOUTH, result=10)
    board.auction = [PASS, PASS, Call.parse("4H"), Call.parse("X").annotated(mark="!"), PASS, PASS, PASS]
    board.play = [Card.parse("CA"), Card.parse("S2")]
    board.play_marks = {1: "?"}
    data = Z.plan_board(board, 0).data
    assert data[:13] == bytes([0x6C]) * 13  # the twos: C W(00), D S(11), H E(10), S N(01)
    assert data[13] == 4
    assert data[14] == 40 + 5 * 4 + 2
    assert data[15] == 10 << 4 | 3 << 2 | 2
    assert (data[16], data[17]) == (23, 25)
    assert data[18:23] == bytes([4 << 3 | 2, 0x40 | 6, 5, 5, 5])
    assert data[23:25] == bytes([12 << 2 | 0, 0x80 | 0 << 2 | 3])
    assert data[25:] == bytes(55)


def test_passed_out_and_unknown_contract(tmp):
    path = tmp / "po.zrj"
    boards = [
        Board.numbered(1, SUITS_DEAL, auction=[PASS] * 4),
        Board.numbered(2, SUITS_DEAL, contract=Contract.passed_out()),
        Board.numbered(3, SUITS_DEAL),
    ]
    write_file(boards, path)
    data = path.read_bytes()
    assert data[14] == 0 and data[15] == 3 and data[16:19] == bytes([19, 19, 5])
    back = list(read_file(path))
    assert [str(c) for c in back[0].auction] == ["P"] * 4 and back[0].contract == Contract.passed_out()
    assert [str(c) for c in back[1].auction] == ["P"] * 4
    assert back[2].contract is None and back[2].auction is None and back[2].play is None


def test_board_byte_240_and_up_gives_dealer_and_vulnerability(tmp):
    board = Board(dealer=Seat.WEST, vulnerability=Vulnerability.ALL, deal=SUITS_DEAL)
    data = Z.plan_board(board, 0).data
    assert data[13] == 239 + 4  # board 4: West deals, all vulnerable
    path = tmp / "nb.zrj"
    path.write_bytes(data)
    back = read_file(path)[0]
    assert (back.number, back.dealer, back.vulnerability) == (None, Seat.WEST, Vulnerability.ALL)


def test_play_cut_is_a_loss(tmp):
    r = random.Random(3)
    board = Board.numbered(1, random_deal(r))
    board.auction = [Call.parse(t) for t in "1C 1D 1H 1S 1N 2C 2D 2H 2S 2N 3C P P P".split()]
    contract, declarer = final_contract(board.auction, Seat.NORTH)
    board.play = random_play(r, board.deal, declarer, contract.strain, 52)
    report = get("zrj").check([board])
    assert report.ok and report.losses == ["play of 1 board cut to fit ZRJ"]
    out = io.BytesIO()
    get("zrj").write([board], out)
    assert out.getvalue()[17] == 80 and len(out.getvalue()) == 80


def test_marks_and_explanations_losses():
    board = Board.numbered(1, SUITS_DEAL)
    board.auction = [
        PASS.annotated(mark="!"),
        Call.parse("1C").annotated(mark="!!", explanation="strong"),
        PASS,
        PASS,
        PASS,
    ]
    report = get("zrj").check([board])
    assert len(report.losses) == 2 and any("marks" in x for x in report.losses)


def test_write_errors():
    codec = get("zrj")
    assert "up to 240" in codec.check([Board.numbered(241, SUITS_DEAL)]).errors[0]
    assert "neither a board number nor a dealer" in codec.check([Board(deal=SUITS_DEAL)]).errors[0]
    no_declarer = Board.numbered(1, SUITS_DEAL, contract=Contract(3, Strain.NOTRUMP))
    assert "no declarer" in codec.check([no_declarer]).errors[0]
    with pytest.raises(FormatError, match="no declarer"):
        codec.write([no_declarer], io.BytesIO())


def good_record() -> bytearray:
    board = Board.numbered(1, SUITS_DEAL, auction=[Call.parse(t) for t in "1S P P P".split()], result=7)
    board.play = [Card.parse("HA")]
    return bytearray(Z.plan_board(board, 0).data)


@pytest.mark.parametrize(
    "index,value,byte,message",
    [
        (16, 81, 16, "end offsets"),
        (16, 17, 16, "end offsets"),
        (17, 81, 17, "end offsets"),  # plays end past the record
        (17, 255, 17, "end offsets"),
        (16, 24, 16, "end offsets"),  # calls end after plays end
        (14, 40, 14, "bad contract code 40"),
        (14, 120, 14, "bad contract code"),
        (14, 3, 14, "bad contract code"),
        (18, 0x03, 18, "bad call code"),  # level 0 bid
        (19, 0x0D, 19, "bad call code"),  # a pass with a level
        (22, 0x34, 22, "bad play code"),  # rank 13
        (15, 0xE0, 15, "tricks 14"),
    ],
)
def test_bad_records(tmp, index, value, byte, message):
    rec = good_record()
    rec[index] = value
    path = tmp / "bad.zrj"
    path.write_bytes(bytes(good_record()) + bytes(rec))
    doc = read_file(path, "zrj")
    assert doc[0].contract is not None
    bad = doc[1]  # opens, marked with the reason and the bad byte; deal and number kept
    assert message in bad.unreadable and bad.unreadable.endswith(f"(at offset {80 + byte})")
    assert bad.deal == SUITS_DEAL and bad.number == 1 and bad.auction is None


def test_truncated_and_terminated(tmp):
    path = tmp / "t.zrj"
    path.write_bytes(bytes(good_record()) * 2 + bytes(30))
    assert len(read_file(path, "zrj")) == 2  # 30 zero bytes: a bare end marker
    path.write_bytes(bytes(good_record()) * 2 + b"\x01" * 30)
    doc = read_file(path, "zrj")  # a truncated copy: the whole records open, the tail is a problem
    assert len(doc) == 2 and "ends inside record 3 (offset 160): 30 bytes" in doc.problems[-1][2]
    assert doc.info.extra["broken_tail"] == doc.problems[-1][2]
    path.write_bytes(b"\x01" * 30)
    with pytest.raises(FormatError, match="trailing") as e:
        read_file(path, "zrj")
    assert (e.value.record, e.value.offset) == (1, 0)


# -- the command line ---------------------------------------------------------------------------
def test_cli_zrd_to_zbd_reports_dropped_dd(tmp, capsys):
    r = random.Random(5)
    boards = [Board.numbered(i + 1, random_deal(r), dd=DDTable.unknown().with_value(0, 4, 9)) for i in range(12)]
    src = tmp / "x.zrd"
    write_file(boards, src)
    assert main(["convert", str(src), str(tmp / "y.zbd")]) == 0
    assert "bridgeview: dropped: double-dummy results of 12 boards" in capsys.readouterr().err


def test_cli_partial_zbs_to_zbd_fails(tmp, capsys):
    src = tmp / "p.zbs"
    write_file([Board.numbered(1, SUITS_DEAL), Board.numbered(2, Deal.from_pbn("N:A... - - -"))], src)
    dst = tmp / "p.zbd"
    assert main(["convert", str(src), str(dst)]) == 1
    err = capsys.readouterr().err
    assert "board 2 is not a complete deal" in err and not dst.exists()
    assert not list(tmp.glob(".p.zbd*"))


def test_cli_board_241_to_zrj_fails(tmp, capsys):
    src = tmp / "n.zbd"
    write_file([Board.numbered(1, SUITS_DEAL)], src)
    dst = tmp / "n.zrj"
    assert main(["convert", str(src), str(dst), "--to", "zrj", "--start-board", "241"]) == 1
    assert "board 241" in capsys.readouterr().err and not dst.exists()
    assert main(["convert", str(src), str(dst), "--to", "zrj", "--start-board", "240"]) == 0
    assert read_file(dst)[0].number == 240
