"""Handviewer links in every documented form: n=/s=/e=/w= parameters, names, dealer, vulnerability,
board, auction (with explanations or as a bare contract), play, and lin= links wrapped in other URLs."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.formats.errors import FormatError
from bridgeview.formats.lin.handviewer import (
    auction_pairs,
    boards_from_link,
    handviewer_boards,
    handviewer_url,
    link_to_lin,
    params_of,
    parse_handviewer_url,
    unwrap_lin_link,
)
from bridgeview.model.board import Board
from bridgeview.model.cards import Seat, Suit
from bridgeview.model.deal import Deal
from bridgeview.model.vulnerability import Vulnerability
from bridgeview.ui.editor.clipboard import boards_from_text

HV = "https://www.bridgebase.com/tools/handviewer.html?"
N = "skqt53hk7da6ck832"
E = "sj84hqj96dq953ct7"
S = "sa96ha832dk874caq"
W = "s72ht54djt2cj9654"


def test_four_hands_dealer_vul_board_and_names() -> None:
    url = HV + f"n={N}&e={E}&s={S}&w={W}&d=e&v=b&b=7&nn=Alice&sn=Bob&en=Carl&wn=Dora"
    b = parse_handviewer_url(url)
    assert b.number == 7
    assert b.dealer == Seat.EAST
    assert b.vulnerability == Vulnerability.ALL
    assert b.deal.is_complete and b.deal.card_count == 52
    assert b.deal.suit_text(Seat.NORTH, Suit.SPADES) == "KQT53"
    assert {k: b.tags[k] for k in ("North", "South", "East", "West")} == {
        "North": "Alice",
        "South": "Bob",
        "East": "Carl",
        "West": "Dora",
    }


def test_three_hands_give_the_fourth_and_ten_may_be_spelt_10() -> None:
    url = HV + "n=skq10 53hk7da6ck832&e=" + E + "&s=" + S + "&d=n&v=-"
    b = parse_handviewer_url(url)
    assert b.deal.card_count == 52
    assert b.deal.suit_text(Seat.WEST, Suit.CLUBS) == "J9654"
    assert b.vulnerability == Vulnerability.NONE


@pytest.mark.parametrize(
    ("v", "vul"), [("n", "NS"), ("e", "EW"), ("b", "All"), ("o", "None"), ("-", "None"), ("0", "None")]
)
def test_every_vulnerability_letter(v: str, vul: str) -> None:
    b = parse_handviewer_url(HV + f"n={N}&s={S}&e={E}&w={W}&v={v}")
    assert b.effective_vulnerability.text == vul


def test_auction_with_explanations_annotations_and_play() -> None:
    url = HV + (f"n={N}&s={S}&e={E}&w={W}&d=n&a=1n(15-17)p2c(Stayman){{ok}}p2sp4sppp&p=d2dad4d7s5sasjs7")
    b = parse_handviewer_url(url)
    assert [str(c) for c in b.auction] == ["1NT", "P", "2C", "P", "2S", "P", "4S", "P", "P", "P"]
    assert b.auction[0].explanation == "15-17" and b.auction[0].alert
    assert b.auction[2].explanation == "Stayman"
    assert b.auction[1].explanation is None
    assert [str(c) for c in b.play] == ["D2", "DA", "D4", "D7", "S5", "SA", "SJ", "S7"]
    contract, declarer = b.contract_and_declarer()
    assert str(contract) == "4S" and declarer == Seat.NORTH


def test_doubles_and_redoubles_in_every_spelling() -> None:
    assert [v for _, v in auction_pairs("1sxrdp xxpp", "n")] == ["1S", "d", "r", "d", "p", "r", "p", "p"]
    b = parse_handviewer_url(HV + f"n={N}&s={S}&e={E}&w={W}&d=s&a=1hx2sxxppp")
    assert [str(c) for c in b.auction] == ["1H", "X", "2S", "XX", "P", "P", "P"]


def test_bare_contract_form() -> None:
    b = parse_handviewer_url(HV + f"n={N}&s={S}&e={E}&w={W}&d=w&a=-3nxe")
    assert [str(c) for c in b.auction] == ["P", "P", "3NT", "X", "P", "P", "P"]
    contract, declarer = b.contract_and_declarer()
    assert str(contract) == "3NTX" and declarer == Seat.EAST


def test_form_encoded_names_and_title() -> None:
    b = parse_handviewer_url(HV + f"s={S}&n={N}&e={E}&sn=Zia+Mahmood&t=Hand+of+the+day")
    assert b.tags["South"] == "Zia Mahmood"
    assert b.tags["Title"] == "Hand of the day"


def test_hv_html_and_upper_case_names() -> None:
    b = parse_handviewer_url("https://www.bridgebase.com/tools/hv.html?N=" + N.upper() + "&S=" + S + "&B=3")
    assert b.number == 3 and b.deal.hand(Seat.NORTH).bit_count() == 13


def _lin_link(board: Board) -> str:
    return handviewer_url(board).replace("handviewer.html", "hv.html")


def test_lin_link_wrapped_in_other_urls() -> None:
    board = Board.numbered(12, parse_handviewer_url(HV + f"n={N}&s={S}&e={E}&w={W}").deal)
    inner = _lin_link(board)
    wrapped = [
        "https://www.bridgebase.com/myhands/redirect.php?url=" + quote(inner, safe=""),
        "https://l.facebook.com/l.php?u=" + quote(inner, safe="") + "&h=AT0abc",
        "https://www.google.com/url?q=" + quote(quote(inner, safe=""), safe="") + "&sa=D",
    ]
    for url in wrapped:
        assert unwrap_lin_link(url) is not None, url
        (b,) = handviewer_boards(url)
        assert b.number == 12 and b.deal == board.deal, url


def test_parameter_link_wrapped_in_a_redirect() -> None:
    inner = HV + f"n={N}&s={S}&e={E}&w={W}&b=5"
    (b,) = boards_from_link("https://l.facebook.com/l.php?u=" + quote(inner, safe=""))
    assert b.number == 5 and b.deal.card_count == 52


def test_pasted_link_without_scheme_opens() -> None:
    doc = boards_from_text(f"www.bridgebase.com/tools/handviewer.html?n={N}&s={S}&e={E}&w={W}&b=9")
    assert doc[0].number == 9 and doc.info.format == "lin"


@pytest.mark.parametrize(
    ("url", "words"),
    [
        (HV + "board=1", "no hand"),
        (HV + "b=4&d=n", "no hand"),
        (HV + f"n={N}&d=q", "dealer"),
        (HV + f"n={N}&v=z", "vulnerability"),
        (HV + f"n={N}&b=x1", "board number"),
        (HV + f"n={N}&a=1sp9", "auction"),
        (HV + f"n={N}&a=1s(oops", "unclosed"),
        (HV + f"n={N}&p=s2zz", "play"),
        (HV + "n=kq5", "suit letter"),
        (HV + "n=sakqjt98765432h2", "cards"),
    ],
)
def test_bad_links_get_a_one_line_reason(url: str, words: str) -> None:
    with pytest.raises(FormatError) as err:
        parse_handviewer_url(url)
    text = str(err.value)
    assert words in text and "\n" not in text


def test_params_of_keeps_short_names_only() -> None:
    assert params_of("https://x/hv.html?lin=pn|a|&n=sa&sn=A+B") == {"n": "sa", "sn": "A B"}


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 36), st.sampled_from("nesw"))
def test_parameter_link_round_trip(rng, number: int, dealer: str) -> None:
    deal = Deal.shuffled(rng)
    hands = {}
    for seat in Seat:
        parts = []
        for suit, letter in zip((Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS), "shdc", strict=True):
            ranks = deal.suit_text(seat, suit)
            parts.append(letter + ranks.lower())
        hands[seat.letter.lower()] = "".join(parts)
    url = HV + "&".join(f"{k}={v}" for k, v in hands.items()) + f"&b={number}&d={dealer}"
    b = parse_handviewer_url(url)
    assert b.deal == deal and b.number == number and b.dealer == Seat("nesw".index(dealer))
    assert link_to_lin(url).startswith("st||md|")


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(["n", "e", "s", "w", "d", "v", "b", "a", "p", "t", "nn", "sn"]),
        st.text(alphabet="shdcakqjt1098765432nxrp-(){}%+ ,|", max_size=30),
        min_size=1,
    )
)
def test_any_parameters_give_boards_or_a_one_line_format_error(params) -> None:
    url = HV + "&".join(f"{k}={v}" for k, v in params.items())
    try:
        doc = handviewer_boards(url)
    except FormatError as e:
        assert "\n" not in str(e)
    else:
        assert len(doc) >= 1
