"""ReplayState: step arithmetic, positions, claims, cut-short and illegal plays (Qt-free)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.model.auction import Call, Contract
from bridgeview.model.board import Board
from bridgeview.model.cards import Card, Seat, Strain, suit_mask
from bridgeview.model.deal import Deal
from bridgeview.model.play import trick_winner
from bridgeview.model.replay_state import ReplayState, result_summary, result_tricks


def random_deal(seed: int) -> Deal:
    cards = list(range(52))
    random.Random(seed).shuffle(cards)
    return Deal.from_owners([cards.index(c) // 13 for c in range(52)])


def legal_play(deal: Deal, declarer: Seat, trump: Strain | None, cards: int = 52) -> list[Card]:
    """A legal play: every seat plays its lowest card of the suit led (else its lowest card)."""
    hands = list(deal.hands)
    out: list[Card] = []
    leader = declarer.next
    while len(out) < cards:
        trick: list[int] = []
        for i in range(4):
            seat = (leader + i) % 4
            hand = hands[seat]
            if trick and hand & suit_mask(trick[0] // 13):
                hand &= suit_mask(trick[0] // 13)
            card = (hand & -hand).bit_length() - 1
            hands[seat] &= ~(1 << card)
            trick.append(card)
        leader = trick_winner(trick, leader, trump)
        out.extend(Card(c) for c in trick)
    return out[:cards]


def auction(text: str) -> list[Call]:
    return [Call.parse(t) for t in text.split()]


def played_board(seed: int = 1, calls: str = "1N P P P", number: int = 1, cards: int = 52, **kw) -> Board:
    deal = random_deal(seed)
    board = Board.numbered(number, deal, auction=auction(calls), **kw)
    contract, declarer = board.contract_and_declarer()
    board.play = legal_play(deal, declarer, contract.strain, cards)
    return board


def test_full_play_positions_and_navigation():
    board = played_board()
    rs = ReplayState(board)
    assert rs.steps == 52 and rs.has_play and len(rs.tricks) == 13
    assert rs.stop_text is None and rs.claim_text is None
    start = rs.position(0)
    assert start.remaining == board.deal and start.trick is None and start.to_play == Seat.EAST
    assert start.label() == "start – NS 0 EW 0" and not start.at_end
    one = rs.position(1)
    assert one.trick.cards == [board.play[0]] and one.trick.leader == Seat.EAST and one.trick.winner is None
    assert one.played == {int(board.play[0])} and one.to_play == Seat.SOUTH
    assert one.remaining.card_count == 51 and one.label() == "trick 1, card 1 – NS 0 EW 0"
    four = rs.position(4)
    assert four.trick.winner == rs.tricks[0].winner and four.to_play == rs.tricks[0].winner
    assert four.ns_tricks + four.ew_tricks == 1 and four.trick_number == 1 and four.card_in_trick == 4
    for step in range(53):
        pos = rs.position(step)
        assert len(pos.played) == step and pos.remaining.card_count == 52 - step
        assert pos.ns_tricks + pos.ew_tricks == step // 4
    end = rs.position(52)
    assert end.at_end and end.ns_tricks == rs.replay.ns_tricks and end.label().startswith("trick 13, card 4")
    assert [rs.next_trick(s) for s in (0, 1, 3, 4, 5, 48, 50, 52)] == [4, 4, 4, 8, 8, 52, 52, 52]
    assert [rs.prev_trick(s) for s in (0, 1, 4, 5, 8, 52)] == [0, 0, 0, 4, 4, 48]
    assert rs.next_card(51) == 52 and rs.next_card(52) == 52 and rs.prev_card(0) == 0 and rs.prev_card(7) == 6
    assert rs.start() == 0 and rs.end() == 52 and rs.clamp(99) == 52 and rs.clamp(-3) == 0
    rows = rs.trick_rows()
    assert rows[0][0] == 1 and rows[0][1] == Seat.EAST and len(rows[0][2]) == 4 and rows[12][3] is not None


def test_full_play_result_from_the_play():
    board = played_board()
    rs = ReplayState(board)
    tricks = rs.replay.ns_tricks  # declarer is North (1NT opened by the dealer)
    assert result_tricks(board, rs) == tricks
    assert result_summary(board).startswith(f"1NT by N, {tricks} trick")


def test_claim_is_shown_at_the_end_only():
    board = played_board(cards=36, claim=9)
    rs = ReplayState(board)
    assert rs.steps == 36 and rs.stop_text is None
    won = rs.replay.ns_tricks
    tail = f" ({9 - won} of the last 4)" if 0 <= 9 - won <= 4 else ""
    assert rs.claim_text == f"N claims 9 tricks for NS{tail}"
    assert rs.position(35).claim_text is None
    end = rs.position(36)
    assert end.claim_text == rs.claim_text and end.to_play is None and end.stop_text is None
    assert result_tricks(board, rs) == 9


def test_claim_before_any_card():
    board = played_board(cards=0, claim=13)
    rs = ReplayState(board)
    assert rs.steps == 0 and not rs.has_play and rs.claim_text == "N claims 13 tricks for NS"
    assert rs.position(0).claim_text == rs.claim_text


def test_zrj_limit_is_explained():
    board = played_board(calls="1C 1D 1H 1S 1N 2C 2D 2H 2S 2N 3C X P P P", cards=47)  # 15 calls + 47 cards = 62
    assert ReplayState(board, "zrj").stop_text == "play stops after 47 cards (ZRJ holds no more)"
    assert ReplayState(board).stop_text == "play stops after 47 cards (the file records no more)"
    rs = ReplayState(board, "zrj")
    assert rs.position(46).stop_text is None and rs.position(47).stop_text == rs.stop_text
    assert result_summary(board, rs) == "3♣X by N"


def test_forced_last_trick_is_played_out():
    full = played_board(calls="1C 1D 1H 1S 1N 2C 2D 2H 2S 2N 3C P P P", cards=52)
    board = played_board(calls="1C 1D 1H 1S 1N 2C 2D 2H 2S 2N 3C P P P", cards=48)  # 14 calls + 48 cards = 62
    rs = ReplayState(board, "zrj")
    assert rs.steps == 52 and rs.forced == 4 and rs.replay.problem is None
    assert rs.trick_rows() == ReplayState(full).trick_rows()
    assert rs.stop_text == "ZRJ holds 48 cards; the last trick is forced and played out"
    assert ReplayState(board).stop_text == "the file records 48 cards; the last trick is forced and played out"
    assert rs.position(51).stop_text is None and rs.position(52).stop_text == rs.stop_text
    assert result_tricks(board, rs) == result_tricks(full)
    # a claim, or an illegal card among the 48, leaves the play as recorded
    claimed = played_board(cards=48, claim=9)
    assert ReplayState(claimed).steps == 48
    bad = played_board(cards=48)
    bad.play = bad.play[:-1] + [bad.play[0]]
    assert ReplayState(bad).steps == 47 and ReplayState(bad).forced == 0


def test_nobody_is_to_play_after_the_last_card():
    rs = ReplayState(played_board())
    assert rs.position(51).to_play is not None and rs.position(52).to_play is None
    forced = ReplayState(played_board(calls="1C 1D 1H 1S 1N 2C 2D 2H 2S 2N 3C P P P", cards=48), "zrj")
    assert forced.position(52).to_play is None and forced.position(52).remaining.card_count == 0


def test_one_card_stop_reads_well():
    board = played_board()
    board.play = [board.play[0], board.play[0]]
    assert ReplayState(board).stop_text.startswith("play stops after 1 card: card 2 ")


def test_short_play_without_claim():
    board = played_board(cards=23)
    rs = ReplayState(board, "pbn")
    assert rs.steps == 23 and rs.stop_text == "play stops after 23 cards (the file records no more)"
    assert rs.next_trick(20) == 23 and rs.next_trick(22) == 23 and rs.prev_trick(23) == 20
    assert rs.position(23).card_in_trick == 3 and rs.position(23).trick_number == 6


def test_card_not_in_hand_stops_the_replay():
    board = played_board()
    play = list(board.play)
    play[5], play[9] = play[9], play[5]  # card 6 comes from another hand
    board.play = play
    rs = ReplayState(board)
    assert rs.steps == 5
    assert rs.stop_text.startswith("play stops after 5 cards: card 6 (")
    assert "is not in" in rs.stop_text
    assert rs.position(99).step == 5 and rs.position(5).stop_text == rs.stop_text
    assert any("card 6" in p for p in board.problems())


def test_revoke_stops_the_replay():
    deal = Deal.from_pbn("N:AKQJ.T98.765.432 T987.AKQ.J.T9865 65432.J765.432.A -")
    deal = deal  # W holds nothing: a partial deal; W never plays in this test
    board = Board.numbered(1, deal, contract=Contract.parse("1NT"), declarer=Seat.WEST)
    # N leads a spade, E (holding spades) plays a heart: a revoke
    board.play = [Card.parse("SA"), Card.parse("HA")]
    rs = ReplayState(board)
    assert rs.steps == 1 and "revokes" in rs.stop_text
    assert rs.position(1).trick.cards == [Card.parse("SA")]


def test_no_play_and_no_declarer():
    board = Board.numbered(3, random_deal(2))
    rs = ReplayState(board)
    assert rs.steps == 0 and rs.stop_text is None and rs.position(0).remaining == board.deal
    board.play = [Card.parse("SA")]
    rs = ReplayState(board)
    assert rs.steps == 0 and "no declarer" in rs.stop_text


def test_passed_out_board():
    board = Board.numbered(1, random_deal(3), auction=auction("P P P P"))
    assert result_summary(board) == "Passed out"
    board.play = [Card.parse("SA")]
    assert "passed out" in ReplayState(board).stop_text


@pytest.mark.parametrize(
    ("number", "contract", "declarer", "result", "text"),
    [
        (2, "4HX", Seat.SOUTH, 10, "4♥X by S, 10 tricks, +790 NS"),
        (1, "4H", Seat.SOUTH, 9, "4♥ by S, 9 tricks, -50 NS"),
        (1, "3NT", Seat.WEST, 9, "3NT by W, 9 tricks, +400 EW"),
        (3, "1C", Seat.EAST, None, "1♣ by E"),
        (1, "7SXX", Seat.NORTH, 1, "7♠XX by N, 1 trick, -6400 NS"),
    ],
)
def test_result_summary(number, contract, declarer, result, text):
    board = Board.numbered(number, random_deal(4), contract=Contract.parse(contract), declarer=declarer, result=result)
    assert result_summary(board) == text


def test_summary_without_contract_or_declarer():
    assert result_summary(Board.numbered(1, random_deal(5))) == "No contract"
    assert result_summary(Board.numbered(1, random_deal(5), contract=Contract.parse("2D"))) == "2♦"
    unfinished = Board.numbered(1, random_deal(5), auction=auction("1H P"))
    assert result_summary(unfinished) == "No contract"


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), cards=st.integers(0, 52), strain=st.sampled_from(["C", "D", "H", "S", "N"]))
def test_step_arithmetic_properties(seed, cards, strain):
    board = played_board(seed, calls=f"1{strain} P P P", cards=cards)
    rs = ReplayState(board)
    if cards == 48:  # the forced last trick is played out
        cards = 52
    assert rs.steps == cards and rs.replay.problem is None
    ends = {s for s in range(1, cards + 1) if s % 4 == 0} | {cards}
    for step in range(cards + 1):
        nxt, prv = rs.next_trick(step), rs.prev_trick(step)
        assert (nxt > step or step == cards) and nxt in ends
        assert (prv < step or step == 0) and prv % 4 == 0
        assert rs.prev_card(rs.next_card(step)) == (step if step < cards else cards - 1 if cards else 0)
        pos = rs.position(step)
        assert pos.ns_tricks + pos.ew_tricks == step // 4
        assert pos.remaining.card_count + len(pos.played) == 52
        if pos.trick is not None:
            assert len(pos.trick.cards) == (step - 1) % 4 + 1
