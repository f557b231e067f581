"""The editor's Qt-free rules: typed hands, legal calls and cards, and edits that leave nothing stale."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridgeview.model.auction import Call, Contract
from bridgeview.model.board import Board
from bridgeview.model.cards import Card, Seat
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal
from bridgeview.model.editing import (
    auctions_in,
    check_hands,
    fitting_play,
    hand_text,
    is_legal_call,
    legal_calls,
    parse_hand,
    play_state,
    random_deals,
    renumbered,
    result_of,
    rotate_deal,
    swap_hands,
    with_auction,
    with_deal,
    with_play,
)
from bridgeview.model.vulnerability import Vulnerability

DEAL = Deal.from_pbn("N:AKQJ.AKQ.AKQ.AKQ T98.JT98.JT9.JT9 765.765.8765.876 432.432.432.5432")


def calls(text: str) -> list[Call]:
    return [Call.parse(t) for t in text.split()]


def test_parse_hand_is_forgiving():
    assert parse_hand("akq.jt9.876.5432") == parse_hand("AKQ.JT9.876.5432")
    assert parse_hand("A1098.-.KQ.") == parse_hand("AT98..KQ.")
    assert parse_hand("") == 0 and parse_hand("-") == 0
    assert hand_text(parse_hand("a10")) == "AT..."
    with pytest.raises(ValueError, match="not a card rank"):
        parse_hand("AKX.2.3.4")
    with pytest.raises(ValueError, match="twice"):
        parse_hand("AKA...")
    with pytest.raises(ValueError, match="5 suits"):
        parse_hand("A.K.Q.J.T")


def test_check_hands_names_duplicates_counts_and_fills_the_fourth():
    texts = ["AKQJ.AKQ.AKQ.AKQ", "T98.JT98.JT9.JT9", "765.765.8765.876", ""]
    check = check_hands(texts)
    assert check.filled == Seat.WEST and check.deal == DEAL and not check.problems()
    dup = check_hands(["AKQJ.AKQ.AKQ.AKQ", "A98.JT98.JT9.JT9", "", ""])
    assert dup.deal is None and "in two hands: SA" in dup.problems()
    over = check_hands(["AKQJT98765432.A..", "", "", ""])
    assert over.counts[0] == 14 and any("more than 13" in p for p in over.problems())
    bad = check_hands(["AKZ...", "", "", ""])
    assert bad.deal is None and bad.problems()[0].startswith("N:")
    partial = check_hands(["AKQ...", "", "", ""])  # an ending is fine and is not filled
    assert partial.deal is not None and partial.filled is None


@given(st.integers(0, 2**32), st.integers(-5, 5))
def test_rotate_and_swap_keep_the_pack(seed, steps):
    deal = Deal.shuffled(random.Random(seed))
    turned = rotate_deal(deal, steps)
    assert turned.is_complete and rotate_deal(turned, -steps) == deal
    assert rotate_deal(deal, 1).hands[Seat.EAST] == deal.hands[Seat.NORTH]
    swapped = swap_hands(deal, 0, 3)
    assert swapped.hands[3] == deal.hands[0] and swap_hands(swapped, 0, 3) == deal


def test_random_deals_seeded_repeat_and_fair_ones_differ():
    assert random_deals(3, seed=42) == random_deals(3, seed=42)
    assert all(d.is_complete for d in random_deals(4))
    assert random_deals(2) != random_deals(2)


def test_legal_calls():
    assert [str(c) for c in legal_calls([], Seat.NORTH)][:3] == ["P", "1C", "1D"]
    after = legal_calls(calls("1H"), Seat.NORTH)
    assert not any(str(c) in ("1C", "1H", "XX") for c in after) and any(str(c) == "X" for c in after)
    assert not is_legal_call(calls("1H P"), Call.parse("X"))  # partner's bid cannot be doubled
    assert is_legal_call(calls("1H P P"), Call.parse("X"))
    assert is_legal_call(calls("1H X"), Call.parse("XX")) and not is_legal_call(calls("1H X P"), Call.parse("XX"))
    assert legal_calls(calls("1H P P P"), Seat.NORTH) == []  # a call after the end is refused
    assert legal_calls(calls("P P P P"), Seat.NORTH) == []
    assert [str(c) for c in legal_calls(calls("7N X XX"), Seat.NORTH)] == ["P"]


def test_auction_sets_contract_and_drops_play_that_no_longer_fits():
    b = Board.numbered(1, DEAL)
    b = with_auction(b, calls("1S P P P"))
    assert str(b.contract) == "1S" and b.declarer == Seat.NORTH
    b = with_play(b, [Card.parse("HT")])
    assert b.play == [Card.parse("HT")]
    same = with_auction(b, calls("1S P 2S P P P"))  # same strain and declarer: play stays
    assert same.play and str(same.contract) == "2S"
    other = with_auction(b, calls("1S P P X P P P"))
    assert other.play == [Card.parse("HT")] and str(other.contract) == "1SX"
    gone = with_auction(b, calls("1S P 1N P P P"))
    assert gone.play is None and gone.declarer == Seat.SOUTH
    unfinished = with_auction(b, calls("1S P"))
    assert unfinished.contract is None and unfinished.play is None


def test_play_state_follows_suit_and_winner_leads():
    b = with_auction(Board.numbered(1, DEAL), calls("1S P P P"))
    st0 = play_state(b)
    assert st0.to_play == Seat.EAST and st0.legal == DEAL.hands[Seat.EAST]
    b = with_play(b, [Card.parse("HJ")])
    st1 = play_state(b)
    assert st1.to_play == Seat.SOUTH
    hearts = {str(c) for c in Deal((st1.legal, 0, 0, 0)).cards(0)}
    assert hearts == {"H7", "H6", "H5"}  # South must follow hearts
    b = with_play(b, [Card.parse(c) for c in ("HJ", "H5", "H4", "HA")])
    assert play_state(b).to_play == Seat.NORTH  # North won with the ace and leads


def test_result_from_full_play_and_claim():
    b = with_auction(Board.numbered(1, DEAL), calls("1S P P P"))
    play = []
    for _ in range(52):
        st = play_state(with_play(b, play))
        play.append(min(Deal((st.legal, 0, 0, 0)).cards(0)))
    done = with_play(b, play)
    assert done.result == result_of(done) is not None and play_state(done).to_play is None
    claimed = with_play(b, play[:8], 11)
    assert claimed.result == 11 and play_state(claimed).to_play is None
    assert with_play(claimed, play[:8]).result is None


def test_new_deal_drops_dd_and_par():
    table = DDTable.from_rows([[7] * 5] * 4)
    b = Board.numbered(3, DEAL, dd=table, tags={"OptimumScore": "NS 100", "ParContract": "NS 2S", "Event": "x"})
    new = with_deal(b, swap_hands(DEAL, 0, 1))
    assert new.dd is None and set(new.tags) == {"Event"} and b.dd is table


def test_new_deal_drops_every_tag_analysing_the_old_one():
    tags = {
        "Ability": "N:87654 E:65432 S:87654 W:65432",
        "Minimax": "3NS",
        "OptimumResultTable": "Declarer;Denomination\\2R;Result\\2R",
        "OptimumScore": "NS 400",
        "ParContract": "NS 3N",
        "DoubleDummyTricks": "a98a98a98a98a98a98a98",
        "Event": "x",
        "ScoreTable": "Rank\\2R;Score\\5R",
    }
    new = with_deal(Board.numbered(1, DEAL, tags=tags), rotate_deal(DEAL))
    assert set(new.tags) == {"Event", "ScoreTable"}


def _played(board: Board, cards: int = 52) -> Board:
    play: list[Card] = []
    for _ in range(cards):
        st = play_state(with_play(board, play))
        play.append(min(Deal((st.legal, 0, 0, 0)).cards(0)))
    return with_play(board, play)


def test_a_new_deal_keeps_the_play_that_still_fits_and_drops_the_rest_with_claim_and_result():
    b = _played(with_auction(Board.numbered(1, DEAL), calls("1S P P P")))
    assert b.result is not None and fitting_play(b) == 52
    turned = with_deal(b, rotate_deal(DEAL))  # East's first card is no longer East's
    assert turned.play is None and turned.result is None and turned.claim is None
    claimed = with_play(b, b.play[:8], 11)
    assert claimed.result == 11
    swapped = with_deal(claimed, swap_hands(DEAL, Seat.EAST, Seat.WEST))
    assert swapped.play is None and swapped.claim is None and swapped.result is None
    # a card nobody played moves between the hands that are still to play it: the play up to then stays
    last = b.play[-1]
    owner = DEAL.owner(last)
    other = Seat((owner + 2) % 4)
    moved = with_deal(b, DEAL.with_card(last, other).with_card(b.play[-3], owner))
    assert moved.play == b.play[: fitting_play(moved)] and len(moved.play) < 52 and moved.result is None
    untouched = with_deal(b.copy(result=9, play=b.play[:4]), DEAL)  # the same deal: nothing to drop
    assert untouched.play == b.play[:4] and untouched.result == 9


def test_renumber_keeps_the_dealer_of_boards_with_an_auction_when_asked():
    boards = [Board.numbered(n, DEAL, auction=calls("P") if n == 2 else None) for n in (1, 2, 3)]
    assert auctions_in(boards) == 1
    follows = renumbered(boards, 6)
    assert follows[1].dealer == Seat.SOUTH  # board 7's dealer: the auction would start with another player
    kept = renumbered(boards, 6, keep_auction_dealers=True)
    assert kept[1].dealer == Seat.EAST and kept[1].vulnerability == Vulnerability.ALL  # board 7's vulnerability
    assert kept[0].dealer == Seat.EAST and kept[2].dealer == Seat.WEST  # no auction: they follow


def test_hands_and_cards_are_written_as_the_window_writes_them():
    assert hand_text(parse_hand("AKT.-.-.-")) == "AKT..."
    assert hand_text(parse_hand("AKT.-.-.-"), "10") == "AK10..."
    assert parse_hand(hand_text(parse_hand("QT9.T.T.T"), "10")) == parse_hand("QT9.T.T.T")
    dup = check_hands([".-.-.K", ".-.-.K", "", ""], fill=False)
    assert "in two hands: ♣K" in dup.problems(lambda c: "♣K" if str(c) == "CK" else str(c))


def test_renumber_rederives_or_keeps_dealer_and_vulnerability():
    boards = [Board.numbered(n, DEAL) for n in (1, 2, 3)]
    again = renumbered(boards, 6)
    assert [b.number for b in again] == [6, 7, 8]
    assert again[0].dealer == Seat.EAST and again[0].vulnerability == Vulnerability.EW
    kept = renumbered(boards, 6, rederive=False)
    assert kept[0].dealer == Seat.NORTH and kept[0].vulnerability == Vulnerability.NONE


def test_contract_parse_roundtrip_used_by_the_tag_editor():
    assert str(Contract.parse("4hx")) == "4HX"


@given(st.integers(0, 2**32), st.integers(0, 3), st.booleans())
def test_typed_hand_round_trip(seed, seat, casual):
    """Any hand, written as PBN text (or as people type it: lower case, 10, '-' voids), reads back the same."""
    hand = Deal.shuffled(random.Random(seed)).hands[seat] & random.Random(seed + 1).getrandbits(52)
    text = hand_text(hand)
    if casual:
        text = ".".join(part.lower().replace("t", "10") or "-" for part in text.split("."))
    assert parse_hand(text) == hand
    assert check_hands([text, "", "", ""]).masks[0] == hand
