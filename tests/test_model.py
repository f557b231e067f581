"""The Qt-free model: cards, deals, the board cycle, auctions, play and scoring."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.model import (
    CARDS,
    Board,
    Call,
    Card,
    Contract,
    DDTable,
    Deal,
    Seat,
    Strain,
    Suit,
    Vulnerability,
    auction_problems,
    board_for,
    dealer_for_board,
    final_contract,
    vulnerability_for_board,
)
from bridgeview.model.play import replay, trick_winner
from bridgeview.model.scoring import duplicate_score

SAMPLE = "N:T2.J965.T7532.63 AKQ874.AQ2.J8.A5 J65.743.AK4.KQ82 93.KT8.Q96.JT974"


def random_deal(draw_perm) -> Deal:
    owners = [0] * 52
    for i, c in enumerate(draw_perm):
        owners[c] = i // 13
    return Deal.from_owners(owners)


deals = st.permutations(range(52)).map(random_deal)


def test_card_names_and_order():
    assert str(CARDS[0]) == "C2" and str(CARDS[51]) == "SA"
    assert Card.parse("sa") == 51 and Card.parse("H10") == Card.of(Suit.HEARTS, 10)
    assert Card.parse("AS") == 51
    assert Card.parse("♥K").suit == Suit.HEARTS
    with pytest.raises(ValueError):
        Card.parse("X9")


def test_deal_from_pbn_round_trip_and_hcp():
    d = Deal.from_pbn(SAMPLE)
    assert d.to_pbn() == SAMPLE
    assert d.is_complete
    assert [d.hcp(s) for s in Seat] == [1, 20, 13, 6]
    assert d.suit_text(Seat.EAST, Suit.SPADES) == "AKQ874"
    assert Deal.from_pbn("E:" + SAMPLE[2:]).hand(Seat.EAST) == d.hand(Seat.NORTH)


def test_partial_deal_and_problems():
    d = Deal.from_pbn("N:AK... - QJ... -")
    assert d.card_count == 4 and not d.is_complete and d.problems() == []
    bad = Deal((d.hands[0], d.hands[0], 0, 0))
    assert "more than one hand" in bad.problems()[0]
    with pytest.raises(ValueError):
        Deal.from_pbn("N:AKX... - - -")
    with pytest.raises(ValueError):
        Deal.from_pbn("N:AK...")


def test_full_deal_with_wrong_lengths_is_reported():
    d = Deal.from_pbn(SAMPLE)
    moved = d.with_card(Card.parse("ST"), Seat.EAST)
    problems = moved.problems()
    assert any("N holds 12" in p for p in problems) and any("E holds 14" in p for p in problems)


@given(deals)
@settings(max_examples=60)
def test_pbn_deal_round_trip(deal):
    for first in Seat:
        assert Deal.from_pbn(deal.to_pbn(first)) == deal
    assert sum(deal.hcp(s) for s in Seat) == 40
    assert Deal.from_owners(deal.owners()) == deal


def test_sixteen_board_cycle_and_reverse_lookup():
    assert [vulnerability_for_board(n).text for n in range(1, 17)] == [
        "None",
        "NS",
        "EW",
        "All",
        "NS",
        "EW",
        "All",
        "None",
        "EW",
        "All",
        "None",
        "NS",
        "All",
        "None",
        "NS",
        "EW",
    ]
    assert [dealer_for_board(n).letter for n in (1, 2, 3, 4, 5, 17)] == list("NESWNN")
    pairs = {(dealer_for_board(n), vulnerability_for_board(n)) for n in range(1, 17)}
    assert len(pairs) == 16
    for n in range(1, 33):
        assert board_for(dealer_for_board(n), vulnerability_for_board(n)) == (n - 1) % 16 + 1
    assert Vulnerability.from_text("Both") == Vulnerability.ALL
    assert Vulnerability.ALL.is_vulnerable(Seat.WEST) and not Vulnerability.NS.is_vulnerable(Seat.EAST)


def calls(text: str) -> list[Call]:
    return [Call.parse(t) for t in text.split()]


def test_final_contract_and_declarer():
    assert final_contract(calls("1H P 2H P 4H P P P"), Seat.SOUTH) == (Contract(4, Strain.HEARTS), Seat.SOUTH)
    # the first of the side to name the strain declares
    c, d = final_contract(calls("1S P 2C X XX P P P"), Seat.NORTH)
    assert str(c) == "2CXX" and d == Seat.SOUTH
    assert final_contract(calls("P P P P"), Seat.EAST) == (Contract.passed_out(), None)
    assert final_contract(calls("1NT P"), Seat.NORTH) is None


def test_auction_rules():
    assert auction_problems(calls("1H P 2H P 4H P P P")) == []
    assert "insufficient" in auction_problems(calls("2H 1S"))[0]
    assert "not a legal double" in auction_problems(calls("1H P X"))[0]
    assert "not a legal redouble" in auction_problems(calls("1H XX"))[0]
    assert "after the auction ended" in auction_problems(calls("P P P P 1C"))[0]


def test_contract_text():
    assert str(Contract.parse("4hx")) == "4HX"
    assert str(Contract.parse("3NT")) == "3NT"
    assert str(Contract.parse("4D")) == "4D"
    assert Contract.parse("Pass").is_passed_out
    with pytest.raises(ValueError):
        Contract.parse("8S")


def test_trick_winner():
    cards = [Card.parse(c) for c in ("HK", "HA", "S2", "H3")]
    assert trick_winner(cards, Seat.NORTH, Strain.NOTRUMP) == Seat.EAST
    assert trick_winner(cards, Seat.NORTH, Strain.SPADES) == Seat.SOUTH
    assert trick_winner([Card.parse("D2"), Card.parse("CA")], Seat.WEST, Strain.HEARTS) == Seat.WEST


def test_replay_counts_tricks_and_stops_on_revoke():
    deal = Deal.from_pbn(SAMPLE)
    # E declares 4S; S leads.  Trick 1: S DA, W D6, N D2, E D8 -> S wins.
    play = [Card.parse(c) for c in ("DA", "D6", "D2", "D8", "DK", "DQ", "D3", "DJ")]
    rp = replay(deal, play, Seat.EAST, Strain.SPADES)
    assert rp.problem is None and rp.ns_tricks == 2 and rp.ew_tricks == 0
    remaining, trick, ns, ew, to_play = rp.position(deal, 5)
    assert remaining.card_count == 47 and trick.cards == [Card.parse("DK")] and to_play == Seat.WEST
    revoke = [Card.parse(c) for c in ("DA", "C4")]  # W still has diamonds
    assert "revokes" in replay(deal, revoke, Seat.EAST, Strain.SPADES).problem
    not_held = [Card.parse("SA")]
    assert "not in S's hand" in replay(deal, not_held, Seat.EAST, Strain.SPADES).problem


@pytest.mark.parametrize(
    "contract,vul,tricks,score",
    [
        ("4H", False, 10, 420),
        ("4H", True, 11, 650),
        ("3NT", False, 9, 400),
        ("1NT", False, 8, 120),
        ("4HX", True, 10, 790),
        ("2CX", False, 8, 180),
        ("1CXX", False, 7, 230),
        ("6S", True, 12, 1430),
        ("7NT", False, 13, 1520),
        ("4S", False, 8, -100),
        ("3NTX", False, 4, -1100),
        ("4SX", True, 7, -800),
        ("3NTXX", True, 6, -1600),
    ],
)
def test_scoring(contract, vul, tricks, score):
    assert duplicate_score(Contract.parse(contract), vul, tricks) == score


def test_ddtable_json_and_makeable():
    t = DDTable.from_rows([[9, 8, 7, 6, 5], [4, 5, 6, 7, 8], [9, 8, 7, 6, 5], [4, 5, 6, 7, None]])
    j = t.to_json()
    assert list(j) == ["N", "E", "S", "W"] and list(j["N"]) == ["NT", "S", "H", "D", "C"]
    assert j["N"]["C"] == 9 and j["W"]["NT"] is None
    assert (Seat.NORTH, Strain.CLUBS, 3) in t.makeable()
    assert not t.is_complete


def test_board_problems_cover_auction_contract_and_play():
    deal = Deal.from_pbn(SAMPLE)
    b = Board.numbered(1, deal, auction=calls("P 1S P 4S P P P"), contract=Contract.parse("3NT"))
    assert any("reaches 4S" in p for p in b.problems())
    b2 = Board.numbered(1, deal, auction=calls("P 1S P 4S P P P"), play=[Card.parse("SA")])
    assert any(p.startswith("play:") for p in b2.problems())
    assert Board.numbered(2).dealer == Seat.EAST


@given(st.permutations(range(52)), st.integers(1, 4), st.integers(0, 3), st.sampled_from([None, *Strain]))
def test_the_one_trick_winner_is_the_highest_trump_else_the_highest_card_of_the_suit_led(cards, n, leader, trump):
    """model.play's table (TRICK_WEIGHTS, which the readers' fast paths look up too) says what the rule says."""
    trick = cards[:n]
    trump_suit = int(trump) if trump is not None and trump != Strain.NOTRUMP else None
    trumps = [i for i, c in enumerate(trick) if c // 13 == trump_suit]
    pool = trumps or [i for i, c in enumerate(trick) if c // 13 == trick[0] // 13]
    best = max(pool, key=lambda i: trick[i] % 13)
    assert trick_winner(trick, leader, trump) == (leader + best) % 4


@given(st.randoms(use_true_random=False), st.sampled_from("NESWnesw"), st.booleans())
def test_a_pbn_deal_reads_alike_however_it_is_spaced(rng, first, lower):
    """Deal.from_pbn, the one PBN deal parser, reads the usual spelling by look-up and any other by splitting:
    both give the same deal, and the same error for a bad rank."""
    deal = Deal.shuffled(rng)
    text = deal.to_pbn().lower() if lower else deal.to_pbn()
    hands = text[2:].split(" ")
    seat = "NESW".index(first.upper())
    usual = first + ":" + " ".join(hands[seat:] + hands[:seat])
    spaced = "  " + usual.replace(" ", "   ") + " "
    assert Deal.from_pbn(usual) == Deal.from_pbn(spaced) == deal
    bad = usual.replace(".", "X.", 1)
    with pytest.raises(ValueError) as one:
        Deal.from_pbn(bad)
    with pytest.raises(ValueError) as other:
        Deal.from_pbn(bad.replace(" ", "  "))
    assert str(one.value) == str(other.value)


_RANK_PIECES = st.sampled_from(["A", "K", "Q", "J", "T", "9", "5", "2", "a", "t", "10", "X", "1", "\t", "-", ""])
_SEPARATORS = st.sampled_from([".", ".", ".", " ", " ", "  ", "\t", "-", ""])
#: a suit's text: a few rank pieces (odd ones among them)
_SUIT_TEXT = st.lists(_RANK_PIECES, max_size=5).map("".join)
#: deal text shaped like the usual spelling (four hands of four dotted suits, one space apart), with odd
#: ranks, and text of any shape
_DEAL_TEXT = st.one_of(
    st.lists(st.lists(_SUIT_TEXT, min_size=4, max_size=4).map(".".join), min_size=4, max_size=4).map(" ".join),
    st.lists(st.one_of(_RANK_PIECES, _SEPARATORS), max_size=60).map("".join),
)


@settings(max_examples=500)
@given(st.sampled_from(["N:", "e:", "S:", "W:", "x:", "N", "N;", ""]), _DEAL_TEXT)
def test_any_deal_text_reads_as_the_general_reading_reads_it(prefix: str, body: str) -> None:
    """Deal.from_pbn's look-up of the usual spelling (a seat, a colon, four hands of four dotted suits one
    space apart) takes only what the general reading takes, to the same deal: any other text, or a suit the
    look-up does not know, reads (or fails, with the same words) as it does with a leading space, which only
    the general reading accepts."""

    def outcome(text: str) -> object:
        try:
            return Deal.from_pbn(text).hands
        except ValueError as e:
            return str(e)

    text = prefix + body
    assert outcome(text) == outcome(" " + text), repr(text)


@settings(max_examples=200)
@given(st.randoms(use_true_random=False), st.sampled_from("NESWnesw"))
def test_a_usual_deal_with_suits_never_met_reads_as_the_general_reading_reads_it(rng, first: str) -> None:
    """The first time a suit is met it is parsed and kept; the deal is the general reading's either way."""
    from bridgeview.model import deal as deal_module

    text = first + ":" + Deal.shuffled(rng).to_pbn()[2:]
    saved = dict(deal_module.HOLDINGS)
    deal_module.HOLDINGS.clear()
    try:
        fresh = Deal.from_pbn(text)
        again = Deal.from_pbn(text)
    finally:
        deal_module.HOLDINGS.clear()
        deal_module.HOLDINGS.update(saved)
    assert fresh == again == Deal.from_pbn(" " + text)


@settings(max_examples=100, deadline=None)
@given(
    st.one_of(st.none(), st.integers(1, 999)),
    st.one_of(st.none(), st.sampled_from(list(Seat))),
    st.one_of(st.none(), st.sampled_from(list(Vulnerability))),
    st.randoms(use_true_random=False),
    st.one_of(st.none(), st.sampled_from(list(Seat))),
    st.dictionaries(st.sampled_from(["Event", "Site", "Ability"]), st.text(max_size=3)),
    st.booleans(),
    st.one_of(st.none(), st.sampled_from(["3NT", "4SX", "Pass"])),
    st.one_of(st.none(), st.integers(0, 13)),
)
def test_a_board_a_reader_makes_by_position_is_the_board_made_by_keyword(
    number, dealer, vulnerability, rnd, declarer, tags, with_dd, contract, result
) -> None:
    """``read_board`` calls the generated ``__init__`` by position (a reader makes one a game): every field
    lands where the keywords put it, and a board's lists and dicts are its own."""
    from bridgeview.model.board import read_board

    deal = Deal.shuffled(rnd)
    dd = DDTable(tuple(tuple(rnd.randint(0, 13) for _ in range(5)) for _ in range(4))) if with_dd else None
    made = Contract.parse(contract) if contract is not None else None
    got = read_board(number, dealer, vulnerability, deal, declarer, dict(tags), dd, made, result)
    want = Board(
        number=number,
        dealer=dealer,
        vulnerability=vulnerability,
        deal=deal,
        dd=dd,
        contract=made,
        declarer=declarer,
        result=result,
        tags=dict(tags),
    )
    assert got == want
    assert [getattr(got, f) for f in Board.__slots__] == [getattr(want, f) for f in Board.__slots__]
    other = read_board(number, dealer, vulnerability, deal, declarer, {})
    assert other.play_marks is not got.play_marks and other.notes is not got.notes
