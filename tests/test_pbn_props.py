"""Property tests: generated boards survive PBN generation and parsing; the
reader survives anything; and the speed benchmark runs."""

from __future__ import annotations

import importlib.util
import random

import pytest
from conftest import REPO
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reader_errors import assert_no_internal_error, reported_texts

from bridgeview.formats.pbn.codec import board_to_pbn_text, document_text, parse_pbn_text
from bridgeview.formats.pbn.write import ROSTER
from bridgeview.model.auction import DOUBLE, PASS, REDOUBLE, Call, auction_is_complete, final_contract
from bridgeview.model.board import Board, board_key
from bridgeview.model.boardset import BoardSet
from bridgeview.model.cards import CARDS, Seat, suit_mask
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal
from bridgeview.model.play import replay, trick_winner
from bridgeview.model.vulnerability import Vulnerability

SAFE_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs", "Zl", "Zp")), max_size=20)
TAG_VALUE = SAFE_TEXT.filter(lambda s: not s.startswith("#"))
NOTE_TEXT = SAFE_TEXT.filter(lambda s: "}" not in s and not s.startswith("%"))
TAG_NAME = st.from_regex(r"X[A-Za-z0-9_]{0,8}", fullmatch=True)
CALL_MARKS = st.sampled_from(["", "", "", "!", "?", "!!", "?!", "$3", "! $12"])


def random_auction(rng: random.Random, dealer: int) -> list[Call]:
    calls: list[Call] = []
    rank, risk, last_bidder, seat = -1, 0, None, dealer
    while not auction_is_complete(calls):
        r = rng.random()
        if r < 0.35 and rank < 34 and len(calls) < 24:
            rank = rng.randint(rank + 1, min(34, rank + 4))
            calls.append(Call.bid(rank // 5 + 1, rank % 5))
            risk, last_bidder = 0, seat
        elif r < 0.42 and rank >= 0 and risk == 0 and (last_bidder - seat) % 2:
            calls.append(DOUBLE)
            risk = 1
        elif r < 0.45 and risk == 1 and (last_bidder - seat) % 2 == 0:
            calls.append(REDOUBLE)
            risk = 2
        else:
            calls.append(PASS)
        seat = (seat + 1) % 4
    return calls


def random_play(rng: random.Random, deal: Deal, declarer: int, trump, count: int) -> list:
    hands = list(deal.hands)
    leader = (declarer + 1) % 4
    play: list = []
    trick: list[int] = []
    while len(play) < count:
        seat = (leader + len(trick)) % 4
        hand = hands[seat]
        if trick and hand & suit_mask(trick[0] // 13):
            hand &= suit_mask(trick[0] // 13)
        card = rng.choice([c for c in range(52) if hand >> c & 1])
        hands[seat] &= ~(1 << card)
        trick.append(card)
        play.append(CARDS[card])
        if len(trick) == 4:
            leader = trick_winner(trick, leader, trump)
            trick = []
    return play


@st.composite
def boards(draw) -> Board:
    rng = random.Random(draw(st.integers(0, 2**32)))
    owners = [i // 13 for i in range(52)]
    rng.shuffle(owners)
    partial = draw(st.booleans()) and draw(st.booleans())
    if partial:
        owners = [o if rng.random() < 0.5 else 4 for o in owners]
    deal = Deal.from_owners(owners)
    number = draw(st.one_of(st.none(), st.integers(1, 200)))
    if number is not None:
        b = Board.numbered(number, deal)
    else:
        b = Board(deal=deal, dealer=Seat(rng.randrange(4)), vulnerability=Vulnerability(rng.randrange(4)))
    if draw(st.booleans()):
        calls = random_auction(rng, b.effective_dealer)
        note = 0
        for i in range(len(calls)):
            mark = draw(CALL_MARKS)
            if mark:
                calls[i] = calls[i].annotated(mark=mark)
            if rng.random() < 0.1:
                note += 1
                calls[i] = calls[i].annotated(note=note, explanation=draw(NOTE_TEXT.map(str.lstrip)))
        b.auction = calls
        fc = final_contract(calls, b.effective_dealer)
        if fc is not None and not fc[0].is_passed_out:
            b.contract, b.declarer = fc
            if not partial and draw(st.booleans()):
                b.play = random_play(rng, deal, fc[1], fc[0].strain, draw(st.integers(0, 52)))
                b.play_marks = {i: draw(CALL_MARKS.filter(bool)) for i in range(len(b.play)) if rng.random() < 0.1}
            if draw(st.booleans()):
                b.result = rng.randint(0, 13)
                if b.play and draw(st.booleans()):
                    b.claim = b.result
        elif fc is not None:
            b.contract = fc[0]
    if draw(st.booleans()):
        b.dd = DDTable.from_rows([[rng.choice([None, *range(14)]) for _ in range(5)] for _ in range(4)])
        if b.dd.is_empty:
            b.dd = None
    b.tags = draw(st.dictionaries(TAG_NAME, TAG_VALUE, max_size=3))
    b.notes = draw(st.lists(NOTE_TEXT, max_size=2))
    return b


def model(b: Board) -> tuple:
    """The board's model; the ``?`` roster tags PBN export adds for unknown values are not news."""
    key = list(board_key(b))
    key[12] = {k: v for k, v in b.tags.items() if not (k in ROSTER and v == "?")}
    return tuple(key)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_generated_board_round_trips(board):
    text = board_to_pbn_text(board)
    doc = parse_pbn_text(text)
    assert_no_internal_error(reported_texts(doc), text)
    assert len(doc) == 1
    again = doc[0]
    assert model(again) == model(board), text
    if again.play:
        rp = replay(again.deal, again.play, again.declarer, again.contract.strain)
        assert rp.problem is None and rp.played == len(board.play)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(boards(), min_size=1, max_size=4), st.sampled_from(["\n", "\r\n"]))
def test_generated_file_round_trips_and_rewrites_identically(bs, newline):
    from bridgeview.formats.codec import WriteOptions

    text, _enc, _nl = document_text(BoardSet(bs), WriteOptions(newline=newline))
    doc = parse_pbn_text(text)
    assert_no_internal_error(reported_texts(doc), text)
    assert [model(b) for b in doc] == [model(b) for b in bs]
    assert document_text(doc)[0] == text


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(boards(), min_size=1, max_size=3))
def test_fast_reader_agrees_with_the_tokenizer_on_generated_files(bs):
    from unittest import mock

    from bridgeview.formats.pbn import read as pbn_read

    text = document_text(BoardSet(bs))[0]
    fast = parse_pbn_text(text)
    with mock.patch.object(pbn_read, "read_fast", lambda *args: None):  # the fast path has its own tests
        fast = parse_pbn_text(text)
        with mock.patch.object(pbn_read, "simple_entries", lambda *args: None):
            slow = parse_pbn_text(text)
    assert [board_key(b) for b in fast] == [board_key(b) for b in slow]
    assert fast.problems == slow.problems
    assert_no_internal_error(reported_texts(fast), text)


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('[]{}";%#*+-=$!?\\ \n\r\tABCDHSNTWEXP0123456789:.')), max_size=200))
def test_parser_survives_any_text(text):
    doc = parse_pbn_text(text)
    assert_no_internal_error(reported_texts(doc), repr(text))
    assert document_text(doc)[0] == text  # and writes it back unchanged


def test_a_reader_bug_fails_the_properties(monkeypatch):
    """The reader keeps a game it failed on and says why; these properties must see that as a failure."""
    from bridgeview.formats.pbn import read as pbn_read

    text = board_to_pbn_text(Board.numbered(1, Deal.from_owners([i // 13 for i in range(52)])))
    text += '[Auction "N"]\n1NT Pass Pass Pass\n'
    assert_no_internal_error(reported_texts(parse_pbn_text(text)))

    def broken(*_args):
        raise AttributeError("'NoneType' object has no attribute 'seat'")

    monkeypatch.setattr(pbn_read.GameReader, "read_auction", broken)
    monkeypatch.setattr(pbn_read, "read_fast", lambda *_args: None)  # the careful reader reads every game
    with pytest.raises(AssertionError, match="unexpected exception"):
        assert_no_internal_error(reported_texts(parse_pbn_text(text)))


def test_bench_runs_with_a_tiny_board_count():
    pytest.importorskip("endplay.parsers.pbn")
    spec = importlib.util.spec_from_file_location("bench_pbn", REPO / "bench" / "bench_pbn.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = bench.run(40, echo=False, repeat=1)
    assert result["counts"] == (40, 40)
    assert result["problems"] == 0
    assert result["ours_s"] > 0 and result["endplay_s"] > 0
    rich = result["annotated"]
    assert rich["counts"] == (40, 40) and rich["problems"] == 0
    assert rich["comments"] == 40 and rich["notes"] > 0  # the annotated file really holds notes and comments
    assert result["fast_path"] == rich["fast_path"] == 40  # and the fast path reads them all
    deals = result["deals"]
    assert deals["counts"] == (40, 40) and deals["problems"] == 0 and deals["fast_path"] == 40
    assert deals["by_position"] == 39  # every game after the first is read by position
    foreign = result["foreign"]  # as other programs write it: every game on the fast path too
    assert foreign["counts"] == (40, 40) and foreign["problems"] == 0 and foreign["fast_path"] == 40
    assert foreign["comments"] > 40  # the ; comments, % lines and {} comments were really there
    for shaped in (result, rich, foreign):  # games after the first of each shape are read by their skeleton
        assert shaped["by_shape"] >= 34, shaped["by_shape"]
    if "real" in result:  # ../shared/realdata present: every file endplay reads is raced, on the fast path
        assert result["real"]["all"]["fast_path"] == 40 and result["real"]["all"]["counts"] == (40, 40)
