"""SwiftBridge ``.deals`` (four u64 masks a deal) and ``.dx`` (number, deal, auction, play)."""

from __future__ import annotations

import io
import random
import re
import struct
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.cli.main import main
from bridgeview.formats import records
from bridgeview.formats.codec import ReadOptions
from bridgeview.formats.errors import FormatError
from bridgeview.formats.registry import detect, get, read_file, write_file
from bridgeview.formats.swiftbridge import call_byte, call_of_byte
from bridgeview.model.auction import PASS, Call, CallKind, Contract, auction_problems, final_contract
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.cards import CARDS, Card, Seat, Strain, suit_mask
from bridgeview.model.deal import Deal
from bridgeview.model.play import declarer_tricks, replay, trick_winner
from bridgeview.model.vulnerability import Vulnerability

FIXTURES = Path(__file__).parent / "fixtures"
SAMPLE = Deal.from_pbn("N:T2.J965.T7532.63 AKQ874.AQ2.J8.A5 J65.743.AK4.KQ82 93.KT8.Q96.JT974")
#: N all spades, E all hearts, S all diamonds, W all clubs: 7S by North takes every trick.
SUITS_DEAL = Deal((suit_mask(3), suit_mask(2), suit_mask(1), suit_mask(0)))


def write_bytes(fmt: str, doc) -> bytes:
    out = io.BytesIO()
    get(fmt).write(doc, out)
    return out.getvalue()


def read_bytes(tmp_path: Path, fmt: str, data: bytes, options: ReadOptions | None = None):
    path = tmp_path / f"t.{fmt}"
    path.write_bytes(data)
    return read_file(path, fmt, options)


def masks(deal: Deal) -> bytes:
    return struct.pack("<4Q", *deal.hands)


partial_deals = st.lists(st.integers(0, 4), min_size=52, max_size=52).map(Deal.from_owners)
full_deals = st.permutations(range(52)).map(lambda p: Deal.from_owners([c // 13 for c in p]))


# -- .deals ------------------------------------------------------------------
def test_deals_layout_is_deal_hands():
    data = write_bytes("deals", BoardSet([Board.numbered(1, SAMPLE)]))
    assert data == masks(SAMPLE)
    assert len(data) == 32
    # bit 0 = club two, bit 51 = spade ace
    one = Deal.from_pbn("N:A... ... ... ...2")
    assert write_bytes("deals", BoardSet([Board(deal=one)])) == struct.pack("<4Q", 1 << 51, 0, 0, 1)


def test_deals_read_numbers_and_options(tmp_path):
    data = masks(SAMPLE) + masks(Deal.empty()) + masks(SUITS_DEAL)
    doc = read_bytes(tmp_path, "deals", data)
    assert doc.is_lazy and len(doc) == 3
    assert [b.deal for b in doc] == [SAMPLE, Deal.empty(), SUITS_DEAL]
    assert [b.number for b in doc] == [1, 2, 3]
    assert (doc[1].dealer, doc[1].vulnerability) == (Seat.EAST, Vulnerability.NS)
    assert [b.number for b in read_bytes(tmp_path, "deals", data, ReadOptions(start_board=7))] == [7, 8, 9]
    assert write_bytes("deals", doc) == data
    assert doc.record_offset(2) == 64


@settings(max_examples=30, deadline=None)
@given(st.lists(partial_deals, max_size=6))
def test_deals_round_trip_partial(tmp_path_factory, deals):
    path = tmp_path_factory.mktemp("deals") / "x.deals"
    write_file(BoardSet([Board.numbered(i + 1, d) for i, d in enumerate(deals)]), path)
    back = read_file(path)
    assert [b.deal for b in back] == deals
    codec = get("deals")
    chunks = list(codec.read_bulk(path))
    owners = np.concatenate([c.owners for c in chunks]) if chunks else np.zeros((0, 52))
    assert [Deal.from_owners(r.tolist()) for r in owners] == deals
    out = io.BytesIO()
    assert codec.write_bulk(iter(chunks), out) == len(deals)
    assert out.getvalue() == path.read_bytes()


def test_deals_bad_input(tmp_path):
    good = masks(SAMPLE)
    cut = read_bytes(tmp_path, "deals", good + good[:31])  # a truncated copy opens its whole records
    assert len(cut) == 1 and "ends inside record 2 (offset 32): 31 of 32 bytes" in cut.problems[0][2]
    del cut
    (tmp_path / "short").mkdir()
    with pytest.raises(FormatError, match="ends inside record 1") as e:
        read_bytes(tmp_path / "short", "deals", good[:31])
    assert (e.value.record, e.value.offset) == (1, 0)
    # a bad record opens as an unreadable board, located; the bulk reader (convert) stops at it
    high = good + struct.pack("<4Q", 0, 0, 1 << 52, 0)
    bad = read_bytes(tmp_path, "deals", high)[1]
    assert re.search("S's mask .* bits above 51", bad.unreadable) and bad.unreadable.endswith("(at offset 48)")
    both = good + struct.pack("<4Q", 1, 1, 0, 0)
    bad = read_bytes(tmp_path, "deals", both)[1]
    assert "cards in more than one hand: C2" in bad.unreadable and bad.unreadable.endswith("(at offset 32)")
    with pytest.raises(FormatError, match="cards in more than one hand: C2") as e:
        list(get("deals").read_bulk(tmp_path / "t.deals"))
    assert (e.value.record, e.value.offset, e.value.path) == (2, 32, str(tmp_path / "t.deals"))
    with pytest.raises(FormatError, match="bits above 51") as e:  # nothing readable: not a .deals file
        read_bytes(tmp_path, "deals", high[32:])
    assert (e.value.record, e.value.offset) == (1, 16)


def test_deals_lazy_and_bulk_errors_agree(tmp_path, monkeypatch):
    monkeypatch.setattr(records, "EAGER_LIMIT", 0)
    data = masks(SAMPLE) + struct.pack("<4Q", 0, 1 << 63, 0, 0)
    doc = read_bytes(tmp_path, "deals", data)
    assert doc[0].deal == SAMPLE
    with pytest.raises(FormatError) as bulk:
        list(get("deals").read_bulk(tmp_path / "t.deals"))
    assert (bulk.value.record, bulk.value.offset) == (2, 40)
    assert doc[1].unreadable == f"{bulk.value.message} (at offset 40)"


def test_deals_check_overlap_is_an_error():
    bad = Deal((1, 1, 0, 0))
    rep = get("deals").check(BoardSet([Board.numbered(1, bad)]))
    assert rep.errors and "more than one hand" in rep.errors[0]


def test_deals_sniff(tmp_path):
    p = tmp_path / "x.bin"
    p.write_bytes(masks(SAMPLE) * 3)
    assert detect(p).name == "deals"
    assert get("deals").sniff((FIXTURES / "dealer4_sample.bri").read_bytes(), 256) == 0


# -- .dx calls ------------------------------------------------------------------
def test_call_bytes():
    assert call_byte(Call.parse("4H")) == 132  # the spec's worked value
    assert [call_byte(Call.parse(t)) for t in ("P", "X", "XX", "1C", "7NT")] == [1, 2, 4, 33, 240]
    for b in range(256):
        call = call_of_byte(b)
        if call is not None:
            assert call_byte(call) == b
    valid = sum(call_of_byte(b) is not None for b in range(256))
    assert valid == 3 + 35
    assert call_of_byte(0xFF) is None and call_of_byte(8) is None and call_of_byte(0) is None


def _dx_record(number: int, deal: Deal, calls: list[int], cards: list[int]) -> bytes:
    return bytes([number]) + masks(deal) + bytes(calls) + b"\xff" + bytes(cards) + b"\xff"


def _seven_spades_play() -> list[int]:
    """Every trick: E leads a heart (N ruffs) or N leads a spade; N wins all 13."""
    spades, hearts, diamonds, clubs = (sorted(range(13 * s, 13 * s + 13), reverse=True) for s in (3, 2, 1, 0))
    play = []
    for t in range(13):
        if t == 0:
            play += [hearts[0], diamonds[0], clubs[0], spades[0]]  # E leads, N ruffs
        else:
            play += [spades[t], hearts[t], diamonds[t], clubs[t]]  # N leads trumps
    return play


def test_dx_read_hand_made(tmp_path):
    auction = [call_byte(Call.parse(t)) for t in ("7S", "P", "P", "P")]
    data = _dx_record(1, SUITS_DEAL, auction, _seven_spades_play()) + _dx_record(2, SAMPLE, [], [])
    doc = read_bytes(tmp_path, "dx", data)
    b1, b2 = doc
    assert (b1.number, b1.dealer, b1.deal) == (1, Seat.NORTH, SUITS_DEAL)
    assert [str(c) for c in b1.auction] == ["7S", "P", "P", "P"]
    assert (str(b1.contract), b1.declarer, b1.result) == ("7S", Seat.NORTH, 13)
    assert len(b1.play) == 52 and b1.play[0] == Card.parse("HA")
    assert not b1.problems()
    assert (b2.number, b2.dealer, b2.auction, b2.play, b2.contract, b2.result) == (2, Seat.EAST, None, None, None, None)
    assert write_bytes("dx", doc) == data


def test_dx_partial_play_and_passed_out(tmp_path):
    passes = [1, 1, 1, 1]
    doc = read_bytes(tmp_path, "dx", _dx_record(5, SAMPLE, passes, []) + _dx_record(6, SUITS_DEAL, [], [38, 1]))
    assert str(doc[0].contract) == "Pass" and doc[0].declarer is None
    assert doc[1].contract is None and doc[1].result is None and [str(c) for c in doc[1].play] == ["HA", "C3"]


def test_dx_number_zero_means_unnumbered(tmp_path):
    data = _dx_record(0, SAMPLE, [], [])
    doc = read_bytes(tmp_path, "dx", data)
    assert doc[0].number is None and doc[0].effective_dealer == Seat.NORTH
    assert write_bytes("dx", doc) == data
    assert read_bytes(tmp_path, "dx", data * 2, ReadOptions(start_board=9))[1].number == 10


def test_dx_bad_input(tmp_path):
    good = _dx_record(1, SAMPLE, [33, 1, 1, 1], [51])

    def bad(data: bytes, match: str, record: int, offset: int) -> None:
        with pytest.raises(FormatError, match=match) as e:
            read_bytes(tmp_path, "dx", data)
        assert (e.value.record, e.value.offset) == (record, offset), str(e.value)

    rec2 = len(good)
    bad(good + good[:20], "ends inside the deal", 2, rec2 + 1)
    bad(good + good[:35], "ends inside the auction", 2, rec2 + 35)
    bad(good + good[:-1], "ends inside the play", 2, rec2 + len(good) - 1)
    bad(good[:33] + bytes([33, 3]) + good[35:], "byte 0x03 is not a call", 1, 34)
    bad(good[:33] + bytes([8]) + good[34:], "byte 0x08 is not a call", 1, 33)
    bad(good[:-2] + bytes([52, 0xFF]), "byte 0x34 is not a card", 1, len(good) - 2)
    bad(good[:33] + bytes([0xFF]) + bytes(range(52)) + bytes([7, 0xFF]), "more than 52 cards", 1, 33 + 1 + 52)
    over = bytes([1]) + struct.pack("<4Q", 1 << 60, 0, 0, 0) + b"\xff\xff"
    bad(over, "bits above 51", 1, 1)


def test_dx_check():
    b = Board.numbered(300, SAMPLE)
    rep = get("dx").check(BoardSet([b]))
    assert any("board 300" in e and "255" in e for e in rep.errors)
    with pytest.raises(FormatError, match="0-255"):
        write_bytes("dx", BoardSet([Board.numbered(256, SAMPLE)]))
    b = Board.numbered(3, SAMPLE, auction=[Call.parse("1H").annotated(alert=True)], contract=None)
    b2 = Board.numbered(4, SAMPLE, contract=Contract.parse("3NT"), declarer=Seat.WEST, result=9)
    b3 = Board(number=5, dealer=Seat.SOUTH, deal=SAMPLE)
    losses = " / ".join(get("dx").check(BoardSet([b, b2, b3])).losses)
    assert "alerts" in losses and "contracts" in losses and "results" in losses and "dealer" in losses


# -- .dx round trips ------------------------------------------------------------
def legal_auction(rnd: random.Random, dealer: int) -> list[Call]:
    """A random legal, completed auction."""
    if rnd.random() < 0.1:
        return [PASS] * 4
    calls = [PASS] * rnd.randint(0, 3)
    rank = -1
    for _ in range(rnd.randint(1, 4)):
        if rank >= 34:
            break
        rank = rnd.randint(rank + 1, min(34, rank + 8))
        calls.append(Call.bid(rank // 5 + 1, Strain(rank % 5)))
        if rnd.random() < 0.3:
            calls.append(Call(CallKind.DOUBLE))
            if rnd.random() < 0.3:
                calls.append(Call(CallKind.REDOUBLE))
        calls += [PASS] * rnd.randint(0, 2)
    while not final_contract(calls, dealer):
        calls.append(PASS)
    assert not auction_problems(calls, dealer), calls
    return calls


def legal_play(rnd: random.Random, deal: Deal, declarer: int, trump: Strain, count: int) -> list[Card]:
    hands = list(deal.hands)
    seat = (declarer + 1) % 4
    trick: list[int] = []
    leader = seat
    play: list[Card] = []
    for _ in range(count):
        mine = [c for c in range(52) if hands[seat] >> c & 1]
        if trick:
            follow = [c for c in mine if c // 13 == trick[0] // 13]
            mine = follow or mine
        card = rnd.choice(mine)
        hands[seat] &= ~(1 << card)
        trick.append(card)
        play.append(CARDS[card])
        if len(trick) == 4:
            leader = trick_winner(trick, leader, trump)
            seat, trick = leader, []
        else:
            seat = (seat + 1) % 4
    return play


@settings(max_examples=30, deadline=None)
@given(full_deals, st.integers(0, 255), st.randoms(use_true_random=False), st.integers(0, 52))
def test_dx_round_trip_auction_and_play(tmp_path_factory, deal, number, rnd, count):
    board = Board.numbered(number, deal) if number else Board(deal=deal)
    board.auction = legal_auction(rnd, board.effective_dealer)
    contract, declarer = final_contract(board.auction, board.effective_dealer)
    if declarer is not None:
        board.play = legal_play(rnd, deal, declarer, contract.strain, count) or None
    doc = BoardSet([board, Board.numbered(7, Deal.from_owners([rnd.randint(0, 4) for _ in range(52)]))], FileInfo())
    path = tmp_path_factory.mktemp("dx") / "x.dx"
    write_file(doc, path)
    back = read_file(path)
    assert len(back) == 2
    b = back[0]
    assert (b.number, b.deal) == (board.number, deal)
    assert [str(c) for c in b.auction] == [str(c) for c in board.auction]
    assert b.play == board.play
    assert (str(b.contract), b.declarer) == (str(contract), declarer)
    if declarer is not None and count == 52:
        rp = replay(deal, board.play, declarer, contract.strain)
        assert b.result == declarer_tricks(rp, declarer)
    else:
        assert b.result is None
    assert not b.problems()
    assert back[1].deal == doc[1].deal and back[1].auction is None


def test_cli_dup_to_deals_to_dx(tmp_path, capsys):
    deals = tmp_path / "x.deals"
    dx = tmp_path / "x.dx"
    assert main(["convert", str(FIXTURES / "dealer4_sample.dup"), str(deals)]) == 0
    assert len(deals.read_bytes()) == 64
    assert main(["convert", str(deals), str(dx)]) == 0
    assert dx.read_bytes() == _dx_record(1, SAMPLE, [], []) + dx.read_bytes()[35:]
    assert [b.deal for b in read_file(dx)][0] == SAMPLE
    assert main(["convert", str(dx), str(tmp_path / "y.bri")]) == 0
    assert (tmp_path / "y.bri").read_bytes() == (FIXTURES / "dealer4_sample.bri").read_bytes()
    assert main(["dump", str(dx)]) == 0
    assert '"board": 2' in capsys.readouterr().out
