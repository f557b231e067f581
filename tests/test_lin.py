"""BBO LIN: every real file, vugraph rooms and results, handviewer links, round trips, bad input."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from conftest import realdata_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reader_errors import assert_no_internal_error, reported_texts

from bridgeview.check.validate import validate
from bridgeview.formats import registry
from bridgeview.formats.codec import ReadOptions
from bridgeview.formats.errors import FormatError
from bridgeview.formats.lin.codec import LinCodec
from bridgeview.formats.lin.handviewer import handviewer_boards, handviewer_url, parse_handviewer_url
from bridgeview.formats.lin.read import implied_result, parse_md, parse_rs, parse_text
from bridgeview.formats.lin.write import board_to_lin, document_text, rs_text
from bridgeview.model.auction import DOUBLE, PASS, REDOUBLE, Call, Contract, auction_is_complete, final_contract
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.cards import Card, Seat, Strain, suit_mask
from bridgeview.model.deal import Deal
from bridgeview.model.play import replay, trick_winner
from bridgeview.model.vulnerability import Vulnerability

CODEC = LinCodec()


def roundtrip(doc) -> BoardSet:
    out = io.BytesIO()
    CODEC.write(doc, out)
    back = parse_text(out.getvalue().decode("utf-8"))
    assert_no_internal_error(reported_texts(back), "LIN round trip")
    return back


def tokens_of(text: str) -> list[str]:
    return [Card.parse(t) for t in text.split()]


# -- real files -----------------------------------------------------------------
@pytest.mark.parametrize("path", realdata_files("lin", "*.lin"), ids=lambda p: p.name)
def test_real_file_reads_validates_and_round_trips(path: Path) -> None:
    assert registry.detect(path).name == "lin"
    doc = registry.read_file(path)
    assert len(doc) > 0
    assert doc.problems == []
    assert [str(p) for p in validate(doc)] == []
    for b in doc:
        assert b.deal.is_complete
        assert b.number is not None and b.dealer is not None and b.vulnerability is not None
    again = roundtrip(doc)
    assert list(again) == list(doc)
    assert again.info.event == doc.info.event


def test_usbf_vugraph(realdata) -> None:
    doc = registry.read_file(realdata / "lin" / "bridgebots_usbf_sf_14502_vugraph.lin")
    assert len(doc) == 30
    assert doc.info.event == "2010 USBF SF A"
    assert doc.info.extra["lin_vg"][1] == "Segment 4 of 8"
    assert [b.number for b in doc] == [n for n in range(46, 61) for _ in (0, 1)]
    assert [b.tags["Room"] for b in doc[:4]] == ["Open", "Closed", "Open", "Closed"]
    o46, c46 = doc[0], doc[1]
    assert o46.deal == c46.deal
    assert o46.dealer == Seat.EAST and o46.vulnerability == Vulnerability.NONE
    assert (o46.tags["South"], o46.tags["West"], o46.tags["North"], o46.tags["East"]) == (
        "Meckstroth",
        "Levin",
        "Rodwell",
        "Weinstein",
    )
    assert (c46.tags["South"], c46.tags["East"]) == ("Stansby", "Mahmood")
    # mb|3C!|an|jacoby 2N|
    third = o46.auction[2]
    assert str(third) == "3C" and third.alert and third.explanation == "jacoby 2N"
    assert not o46.auction[0].alert
    assert o46.play[:4] == tokens_of("c2 c3 cA cJ")
    assert len(o46.play) == 20 and o46.claim == 10
    assert (str(o46.contract), o46.declarer, o46.result) == ("4H", Seat.EAST, 10)
    assert o46.notes[0] == "caitlin: Hi all"
    # rs|…,4SWx-4,…| is board 53 open
    b53 = next(b for b in doc if b.number == 53 and b.tags["Room"] == "Open")
    assert (str(b53.contract), b53.declarer, b53.result) == ("4SX", Seat.WEST, 6)


def test_dealconvert_deals_match_pbn(realdata) -> None:
    doc = registry.read_file(realdata / "lin" / "dealconvert_test_16boards.lin")
    assert len(doc) == 32
    pbn_text = (realdata / "pbn" / "dealconvert_test_16boards.pbn").read_text(encoding="latin-1")
    deals = [Deal.from_pbn(d) for d in re.findall(r'\[Deal "([^"]+)"\]', pbn_text)]
    assert len(deals) == 16
    for i, b in enumerate(doc):
        assert b.number == i // 2 + 1
        assert b.tags["Room"] == ("Open", "Closed")[i % 2]
        assert b.deal == deals[i // 2]
    assert doc[0].vulnerability == Vulnerability.NONE  # sv|0
    assert doc[2].dealer == Seat.EAST and doc[2].vulnerability == Vulnerability.NS


def test_low_to_high_three_hands_no_final_newline(realdata) -> None:
    path = realdata / "lin" / "pbs_4th_suit_forcing_bbo_dealer.lin"
    assert not path.read_bytes().endswith(b"\n")
    doc = registry.read_file(path)
    assert [b.number for b in doc] == list(range(1, 25))
    b1 = doc[0]  # md|3S368JKH6D5JAC89JK,S5TQH58TJD349C23A,SAH24QKAD68TC567T,|
    assert b1.dealer == Seat.NORTH
    assert b1.deal.suit_text(Seat.SOUTH, 3) == "KJ863"
    assert b1.deal.suit_text(Seat.WEST, 1) == "943"
    assert b1.deal.is_complete  # East completed
    assert b1.tags["South"] == "-"


def test_pbntolin_comments_and_upper_case_vulnerability(realdata) -> None:
    doc = registry.read_file(realdata / "lin" / "pbs_dealer_fourthsuitforcing_pbntolin.lin")
    assert len(doc) == 10
    assert [b.vulnerability for b in doc[:4]] == [
        Vulnerability.NONE,
        Vulnerability.NS,
        Vulnerability.EW,
        Vulnerability.ALL,
    ]
    assert doc.info.extra["lin_comments"][0].startswith("% LIN File created by PbnToLin")
    assert "Room" not in doc[0].tags  # only open rooms
    assert doc.info.extra["board_lines"][0] == 9
    text = document_text(doc)
    assert text.startswith("% LIN File created by PbnToLin")


def test_alert_explanations_without_alert(realdata) -> None:
    doc = registry.read_file(realdata / "lin" / "endplay_example1.lin")
    assert len(doc) == 8
    calls = doc[0].auction
    assert calls[2].same_call(Call.parse("1H")) and not calls[2].alert
    assert calls[2].explanation.startswith("Major suit opening")
    assert calls[3].alert and calls[3].explanation.startswith("Michaels")
    assert len(doc[0].play) == 52 and doc[0].result == implied_result(doc[0]) is not None


def test_bridgebots_sample_one_line(realdata) -> None:
    doc = registry.read_file(realdata / "lin" / "bridgebots_sample.lin")
    (b,) = doc
    assert b.number == 15 and b.dealer == Seat.SOUTH and b.vulnerability == Vulnerability.NS
    assert b.auction[2].explanation == "Unusual No Trump: 2 5card minors"
    assert b.contract_and_declarer() == (Contract(3, Strain.NOTRUMP), Seat.NORTH)
    assert len(b.play) == 52 and b.result == 6


# -- pieces -----------------------------------------------------------------------
def test_parse_md_variants() -> None:
    dealer, deal, given = parse_md("3SKH4579QKAD69C58K,S569QAH3D5TJQAC69,S47H8TD248KC347QA,")
    assert dealer == Seat.NORTH and given == 3 and deal.is_complete
    assert deal.suit_text(Seat.SOUTH, 2) == "AKQ9754"
    _, deal2, _ = parse_md("3SKHAKQ9754D96CK85,SAQ965H3DAQJT5C96,S74H108DK842C3Q47A")
    assert deal2 == deal  # high to low, mixed, and "10"
    dealer, deal3, given = parse_md("sk,s5,s4,s3")
    assert dealer is None and given == 4 and deal3.card_count == 4


@pytest.mark.parametrize(
    "value, message",
    [
        ("1SAKQJT98765432HA,,,", "14 cards"),
        ("1SAKZ,,,", "bad rank"),
        ("1AK,,,", "before any suit"),
        ("1SA,SA,,", "SA in more than one hand"),
        ("7SA,,,", "dealer digit"),
        ("1S2,S3,S4,S5,S6", "at most 4"),
    ],
)
def test_parse_md_errors(value: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_md(value)


def test_rs_entries() -> None:
    assert parse_rs("4SWx-4") == (Contract(4, Strain.SPADES, 1), Seat.WEST, 6)
    assert parse_rs("3NN+3") == (Contract(3, Strain.NOTRUMP), Seat.NORTH, 12)
    assert parse_rs("6CSxx=") == (Contract(6, Strain.CLUBS, 2), Seat.SOUTH, 12)
    assert parse_rs("4H") == (Contract(4, Strain.HEARTS), None, None)
    assert parse_rs("P") == (Contract.passed_out(), None, None)
    assert parse_rs("") is None
    for bad in ("4QE=", "9HE=", "1NW+9"):
        with pytest.raises(ValueError):
            parse_rs(bad)
    for text in ("4SWx-4", "3NN+3", "6CSxx=", "P"):
        assert rs_text(*parse_rs(text)) == text


def full_deal() -> Deal:
    return Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765")


def test_board_to_lin_exact() -> None:
    b = Board.numbered(
        3,
        full_deal(),
        auction=[Call.parse("1S").annotated(alert=True, explanation="5+ spades"), PASS, PASS, PASS],
        play=tokens_of("HA H7 H2 H8"),
        claim=9,
        notes=["nice | hand"],
    )
    b.tags["North"] = "Ann, B"
    text = board_to_lin(b)
    assert text == (
        "pn|,,Ann; B,|st||md|1S765H432DAKQJCT98,S432HAKQJDT98C765,SAKQJHT98D765C432,ST98H765D432CAKQJ|rh||"
        "ah|Board 3|sv|e|nt|nice / hand|mb|1S!|an|5+ spades|mb|p|mb|p|mb|p|pg||pc|HA|pc|H7|pc|H2|pc|H8|pg||"
        "mc|9|pg||"
    )
    back = parse_handviewer_url(text)
    assert back.deal == b.deal and back.auction == b.auction and back.play == b.play and back.claim == 9
    assert back.tags == {"North": "Ann; B"}


def test_handviewer_url_round_trip() -> None:
    b = Board.numbered(7, full_deal(), auction=[Call.parse("1N"), DOUBLE, REDOUBLE, PASS, PASS, PASS])
    b.auction[0] = b.auction[0].annotated(explanation='15+ to 17, "strong" & fine')
    url = handviewer_url(b)
    assert url.startswith("https://www.bridgebase.com/tools/handviewer.html?lin=")
    assert "|" not in url and " " not in url
    back = parse_handviewer_url(url)
    assert back.deal == b.deal and back.auction == b.auction and back.number == 7
    assert back.dealer == b.dealer and back.vulnerability == b.vulnerability
    lin = board_to_lin(b)
    # hv.html, raw pipes, another parameter after lin=, myhands links, raw LIN text
    assert (
        parse_handviewer_url("https://www.bridgebase.com/tools/hv.html?lin=" + lin.replace("&", "%26")).auction
        == b.auction
    )
    other = board_to_lin(Board.numbered(2, full_deal()))
    myhands = "https://www.bridgebase.com/myhands/hands.php?tourney=123&lin=" + other.replace(" ", "+") + "&offset=0"
    assert parse_handviewer_url(myhands).number == 2
    assert parse_handviewer_url("  " + other + "\n").number == 2


def test_pasted_lin_text_gives_every_board() -> None:
    lines = "\n".join(board_to_lin(Board.numbered(n, full_deal())) for n in (4, 5, 6))
    assert [b.number for b in handviewer_boards(lines)] == [4, 5, 6]
    assert parse_handviewer_url(lines).number == 4
    url = handviewer_url(Board.numbered(9, full_deal(), auction=[Call.parse("2C"), PASS, PASS, PASS]))
    (one,) = handviewer_boards(url)
    assert one.number == 9 and str(one.auction[0]) == "2C"


@pytest.mark.parametrize(
    "text",
    [
        "https://www.bridgebase.com/tools/handviewer.html?board=1",
        "hello world",
        "https://www.bridgebase.com/tools/handviewer.html?lin=",
        "pn|a,b,c,d|",
    ],
)
def test_handviewer_url_errors(text: str) -> None:
    with pytest.raises(FormatError):
        parse_handviewer_url(text)
    with pytest.raises(FormatError):
        handviewer_boards(text)


# -- writing -------------------------------------------------------------------------
def test_results_without_auction_use_rs() -> None:
    boards = [Board.numbered(n, full_deal()) for n in (1, 2)]
    boards[1].contract, boards[1].declarer, boards[1].result = Contract(4, Strain.HEARTS, 1), Seat.EAST, 9
    closed = boards[1].copy()
    closed.tags["Room"] = "Closed"
    closed.contract, closed.result = Contract(3, Strain.NOTRUMP), 10
    doc = BoardSet(boards + [closed], FileInfo(event="Club, night"))
    text = document_text(doc)
    assert text.splitlines()[:2] == ["vg|Club; night,,I,1,2,,,,|", "rs|,,4HEx-1,3NE+1|"]
    assert "qx|c2|" in text
    back = parse_text(text)
    assert list(back) == [b.copy(tags={"Room": b.tags.get("Room", "Open")}) for b in doc]
    assert back.info.event == "Club; night"


def test_rs_in_record_order_when_numbers_repeat() -> None:
    a = Board.numbered(1, full_deal(), contract=Contract(2, Strain.CLUBS), declarer=Seat.SOUTH, result=8)
    b = a.copy(contract=Contract(3, Strain.CLUBS), result=7)
    text = document_text(BoardSet([a, b]))
    assert "vg|,,I,,,,,,|" in text and "rs|2CS=,3CS-2|" in text
    assert list(parse_text(text)) == [a, b]


def test_no_number_no_qx_and_start_board() -> None:
    a = Board(dealer=Seat.WEST, vulnerability=Vulnerability.ALL, deal=full_deal())
    b = a.copy(dealer=Seat.EAST)
    a.tags["South"] = "x"
    text = document_text(BoardSet([a, b]))
    assert "qx|" not in text and "ah|" not in text
    assert list(parse_text(text)) == [a, b]
    assert [x.number for x in parse_text(text, ReadOptions(start_board=5))] == [5, 6]


def test_check_reports_losses() -> None:
    b = Board.numbered(1, full_deal(), auction=[Call.parse("1C").annotated(mark="!"), PASS, PASS, PASS])
    b.tags["Annotator"] = "me"
    b.result = 7
    b2 = Board.numbered(2, full_deal(), result=8)
    doc = BoardSet([b, b2], FileInfo(site="Oslo"))
    report = CODEC.check(doc)
    assert report.ok
    text = " / ".join(report.losses)
    assert "punctuation" in text and "Annotator" in text and "site" in text and "without a contract" in text
    partial = BoardSet([Board.numbered(1, Deal.empty().with_card(Card.parse("SA"), Seat.NORTH))])
    assert CODEC.check(partial).ok  # LIN holds partial deals (lesson endings), as BBO writes them


def test_write_keeps_newline_and_extra_keys(tmp_path: Path) -> None:
    text = (
        "pn|a,b,c,d|st||md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|rh||ah|Board 1|sv|o|sk|12|"
        "mb|p|mb|p|mb|p|mb|p|pg||\r\n"
    )
    src = tmp_path / "in.lin"
    src.write_bytes(text.encode())
    doc = registry.read_file(src)
    assert doc[0].tags["LinExtra"] == "sk|12|"
    assert doc[0].auction == [PASS] * 4
    dst = tmp_path / "out.lin"
    registry.write_file(doc, dst)
    data = dst.read_bytes()
    assert data.endswith(b"\r\n") and b"sk|12|" in data
    assert list(registry.read_file(dst)) == list(doc)


# -- bad input ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text, line, message",
    [
        ("md|1SA,,,|sv|o|\nhello world\n", 2, "not a LIN key"),
        ("md|1SA,,,|sv|o|mb|p", 1, "no closing"),
        ("pn|a,b,c,d|st||\nsv|o|", 1, "no deal"),
    ],
)
def test_bad_input_raises_located_error(text: str, line: int, message: str) -> None:
    with pytest.raises(FormatError) as e:
        parse_text(text)
    assert e.value.line == line
    assert message in str(e.value)


@pytest.mark.parametrize(
    "text, index, line, message",
    [
        ("qx|o1|md|1SAKQJT98765432HA,,,|sv|o|", 0, 1, "14 cards"),
        ("qx|o1|sv|o|\nqx|o2|md|1SAKQJT9876543X,,,|", 1, 2, "bad rank"),
        ("pn|a,b,c,d|md|1SA,,,|\nmb|1Z|", 0, 2, "mb|1Z|"),
        ("md|1SA,,,|\n\npc|Z9|", 0, 3, "pc|Z9|"),
    ],
)
def test_one_bad_pair_marks_its_board_and_keeps_the_file(text: str, index: int, line: int, message: str) -> None:
    """A pair that cannot be read makes its board unreadable (as a bad record of a record file), at its line;
    the file opens (here with a good board after it).  A file whose every board is so is no LIN at all: the
    first one's error, located."""
    good = "\nqx|o9|md|1SAKQJT98765432,HAKQJT98765432,DAKQJT98765432,|"
    doc = parse_text(text + good)
    board = doc[index]
    assert board.unreadable is not None and message in board.unreadable
    assert board.problems()[0].startswith("unreadable record: ")
    assert [(i, ln) for i, ln, msg in doc.problems if message in msg] == [(index, line)]
    assert doc[-1].number == 9 and doc[-1].unreadable is None and doc[-1].deal.is_complete
    if index == 0 and text.count("md|") == 1:
        with pytest.raises(FormatError) as e:
            parse_text(text)
        assert e.value.line == line and message in str(e.value)


def test_a_bad_pair_names_its_record_line_and_file_and_the_rest_opens(tmp_path: Path) -> None:
    p = tmp_path / "bad.lin"
    p.write_text("qx|o1|md|1SA,,,|\nqx|o7|md|1SA,SA,,|\n")
    doc = registry.read_file(p)
    assert len(doc) == 2 and doc[0].deal.card_count == 1 and doc[1].number == 7
    assert doc[1].unreadable is not None and "more than one hand" in doc[1].unreadable
    with pytest.raises(FormatError) as e:  # saving refuses the stand-in, naming the source's record
        registry.write_file(doc, tmp_path / "out.lin")
    assert e.value.path == str(p) and "record 2: cannot be read: md|1SA,SA,,|" in e.value.message


_FULL = "md|{d}SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,|"
_BAD_CARD = "qx|o8|" + _FULL.format(d=3) + "mb|1N|mb|p|mb|p|mb|p|pc|NT2|\n"


@pytest.mark.parametrize(
    "before, record",
    [
        ("qx|o1|ah|Board 1|sv|o|\n", 2),  # a game without cards, left out of a format of deals
        ("qx|o5|" + _FULL.format(d=1) + "\n" + "qx|c5|" + _FULL.format(d=1) + "\n", 3),  # two tables, written once
    ],
)
def test_a_refused_save_names_the_record_of_the_file_when_boards_are_left_out(
    tmp_path: Path, before: str, record: int
) -> None:
    """Leaving out games without cards or other tables of a board does not renumber the records a refusal names."""
    from bridgeview.formats.convert import convert_file

    p = tmp_path / "bad.lin"
    p.write_text(before + _BAD_CARD)
    with pytest.raises(FormatError) as e:
        convert_file(p, tmp_path / "out.cds")
    assert e.value.path == str(p) and e.value.message.startswith(f"record {record}: cannot be read: pc|NT2|")


def test_a_board_that_cannot_be_read_is_no_other_table_of_its_number(tmp_path: Path) -> None:
    """Board 8 again with the same cards, but a card that cannot be read: not left out as another table of
    board 8 (the reader cannot say what it holds), but refused, as the converter that goes in chunks does."""
    from bridgeview.formats.convert import convert_file

    p = tmp_path / "bad.lin"
    p.write_text("qx|o8|" + _FULL.format(d=3) + "\n" + _BAD_CARD)
    with pytest.raises(FormatError, match="record 2: cannot be read: pc"):
        convert_file(p, tmp_path / "out.zbd")
    p.write_text("qx|o8|" + _FULL.format(d=3) + "\n" + _BAD_CARD.replace("pc|NT2|", "pc|D5|"))
    assert convert_file(p, tmp_path / "out.zbd").notices == ["1 board from 2 tables"]


def test_recoverable_problems_carry_lines() -> None:
    lin = board_to_lin(Board.numbered(1, full_deal(), auction=[Call.parse("1S"), PASS, PASS, PASS]))
    text = lin + "\npc|HA|pc|HA|mc|22|\nsv|q|\n"
    doc = parse_text(text.replace("|sv|e|", "|").replace("md|", "qx|o2|md|", 1))
    msgs = {(line, msg.split(" ")[0]) for _, line, msg in doc.problems}
    assert (2, "card") in msgs and (2, "claim") in msgs and (3, "vulnerability") in msgs
    assert any("qx says board 2" in m for _, _, m in doc.problems)
    partial = parse_text("md|1SA,,,|pc|SK|")
    assert [m for _, _, m in partial.problems] == ["card SK is not in the deal"]  # a partial deal is no problem


# -- generated boards -------------------------------------------------------------------
NAME = (
    st.text(st.characters(whitelist_categories=("L", "N"), whitelist_characters=" -_~."), min_size=1, max_size=12)
    .map(str.strip)
    .filter(bool)
)
TEXT = (
    st.text(
        st.characters(whitelist_categories=("L", "N", "P", "S", "Zs"), blacklist_characters="|\r\n"),
        min_size=1,
        max_size=30,
    )
    .map(str.strip)
    .filter(bool)
)


@st.composite
def auctions(draw) -> list[Call]:
    calls: list[Call] = []
    last_rank = -1
    risk = 0
    last_bid_side: int | None = None
    while len(calls) < 24 and not (calls and auction_is_complete(calls)):
        side = len(calls) % 2
        options = ["pass", "bid"] if last_rank < 34 else ["pass"]
        if last_bid_side is not None and last_bid_side != side and risk == 0:
            options.append("double")
        if last_bid_side is not None and last_bid_side == side and risk == 1:
            options.append("redouble")
        kind = draw(st.sampled_from(options))
        if kind == "pass":
            call = PASS
        elif kind == "bid":
            last_rank = draw(st.integers(last_rank + 1, min(34, last_rank + 6)))
            call = Call.bid(last_rank // 5 + 1, last_rank % 5)
            risk, last_bid_side = 0, side
        elif kind == "double":
            call, risk = DOUBLE, 1
        else:
            call, risk = REDOUBLE, 2
        if draw(st.booleans()):
            call = call.annotated(alert=draw(st.booleans()), explanation=draw(st.none() | TEXT))
        calls.append(call)
    return calls


@st.composite
def boards(draw) -> Board:
    perm = draw(st.permutations(range(52)))
    deal = Deal.from_owners([perm.index(c) // 13 for c in range(52)])
    number = draw(st.none() | st.integers(1, 99))
    b = Board(
        number=number,
        dealer=draw(st.sampled_from(list(Seat))),
        vulnerability=draw(st.sampled_from(list(Vulnerability))),
        deal=deal,
    )
    if draw(st.booleans()):
        b.auction = draw(auctions())
        fc = final_contract(b.auction, b.dealer)
        if fc is not None and not fc[0].is_passed_out and draw(st.booleans()):
            contract, declarer = fc
            hands = list(deal.hands)
            leader = (declarer + 1) % 4
            trick: list[int] = []
            b.play = []
            for _ in range(draw(st.integers(0, 52))):
                seat = (leader + len(trick)) % 4
                legal = hands[seat]
                if trick and hands[seat] & suit_mask(trick[0] // 13):
                    legal &= suit_mask(trick[0] // 13)
                card = draw(st.sampled_from([c for c in range(52) if legal >> c & 1]))
                hands[seat] &= ~(1 << card)
                b.play.append(Card(card))
                trick.append(card)
                if len(trick) == 4:
                    leader = trick_winner(trick, leader, contract.strain)
                    trick = []
            assert replay(deal, b.play, declarer, contract.strain).problem is None
            b.play = b.play or None
            if draw(st.booleans()):
                b.claim = draw(st.integers(0, 13))
    b.notes = draw(st.lists(TEXT, max_size=2))
    for tag in ("South", "West", "North", "East"):
        if draw(st.booleans()):
            b.tags[tag] = draw(NAME)
    b.result = implied_result(b)
    return b


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(boards(), min_size=1, max_size=3))
def test_generated_boards_round_trip(items: list[Board]) -> None:
    back = roundtrip(BoardSet(items))
    assert list(back) == items
    for b in items:
        one = parse_handviewer_url(handviewer_url(b))
        assert one == b


def test_complete_play_gives_result() -> None:
    b = Board.numbered(1, full_deal(), auction=[Call.parse("1C"), PASS, PASS, PASS])
    b.play = tokens_of("D4 DA D8 D7")
    assert b.problems() == [] and implied_result(b) is None
    assert parse_text(board_to_lin(b))[0].play == b.play


# -- PBN → LIN → PBN --------------------------------------------------------------------
@pytest.mark.parametrize("path", realdata_files("pbn", "*.pbn"), ids=lambda p: p.name)
def test_pbn_to_lin_to_pbn(tmp_path: Path, path: Path) -> None:
    pbn = registry.get("pbn")
    src = registry.read_file(path, "pbn")
    complete = BoardSet([b for b in src if b.deal.is_complete], src.info)  # LIN holds whole deals only
    if not len(complete):
        pytest.skip("no complete deal in this file")
    lin_path = tmp_path / "mid.lin"
    registry.write_file(complete, lin_path, "lin")
    mid = registry.read_file(lin_path)
    assert mid.problems == []
    out = tmp_path / "out.pbn"
    registry.write_file(mid, out, pbn.name)
    back = registry.read_file(out, "pbn")
    assert len(back) == len(complete)
    for a, b in zip(complete, back, strict=True):
        assert b.deal == a.deal
        assert (b.number, b.dealer, b.vulnerability) == (a.number, a.dealer, a.vulnerability)
        assert [c.plain() for c in b.auction or []] == [c.plain() for c in a.auction or []]
        assert [(c.alert, c.explanation) for c in b.auction or []] == [
            (c.alert, c.explanation) for c in a.auction or []
        ]
        assert list(b.play or []) == list(a.play or [])
        assert (b.claim, b.result) == (a.claim, a.result)
        assert b.contract_and_declarer() == a.contract_and_declarer()


def test_claim_and_alerts_survive_pbn_lin_pbn(tmp_path: Path) -> None:
    pbn = registry.get("pbn")
    b = Board.numbered(
        1, full_deal(), auction=[Call.parse("1C").annotated(alert=True, explanation="16+"), PASS, PASS, PASS]
    )
    b.play = tokens_of("D4 DA D8 D7")
    b.claim = b.result = 12
    first = tmp_path / "a.pbn"
    registry.write_file(BoardSet([b]), first, pbn.name)
    mid = tmp_path / "b.lin"
    registry.write_file(registry.read_file(first, "pbn"), mid, "lin")
    lin_board = registry.read_file(mid)[0]
    assert (lin_board.claim, lin_board.result, lin_board.play) == (12, 12, b.play)
    last = tmp_path / "c.pbn"
    registry.write_file(registry.read_file(mid), last, pbn.name)
    (back,) = registry.read_file(last, "pbn")
    assert back.deal == b.deal and back.play == b.play and back.claim == 12
    assert [c.plain() for c in back.auction] == [c.plain() for c in b.auction]


def test_pairs_tourney_header_and_rs_layout() -> None:
    deal = "md|3SAKQJHAKQJDAKQJCA,S2345H2345D2345C2,S6789H6789D6789C3,|rh||"
    text = "vg|Club pairs,BBO,P,1,3,,,,|\nrs|4HN+1,,4HS=,,3NS+3,|\npw|a,b,c,d|\nbn|1,2,3|\npg||\n" + "".join(
        f"qx|o{n}|pn|a,b,c,d|st||{deal}ah|Board {n}|sv|o|pg||\n" for n in (1, 2, 3)
    )
    doc = parse_text(text)
    assert [str(b.contract) + b.declarer.letter + str(b.result) for b in doc] == ["4HN11", "4HS10", "3NTS12"]
    assert all("Room" not in b.tags for b in doc)
    assert doc.info.event == "Club pairs"
    assert doc.info.extra["lin_header"] == [("pw", "a,b,c,d"), ("bn", "1,2,3")]
    out = document_text(doc)
    assert out.splitlines()[:4] == [
        "vg|Club pairs,BBO,P,1,3,,,,|",
        "rs|4HN+1,,4HS=,,3NS+3,|",
        "pw|a,b,c,d|",
        "bn|1,2,3|",
    ]
    assert list(parse_text(out)) == list(doc)


def test_characters_the_files_encoding_cannot_hold_are_named_as_lost(tmp_path) -> None:
    """LIN writes in the file's encoding with '?' for what it cannot hold: the save report says so, not silence."""
    board = "qx|o1|pn|Sam,Émile,Nora,Ed|md|3ST94HK84D872C7543,SAHAQJ973DT43CKT9,SKQJ65HT2DQJ6CAQ2,|sv|o|pg||\n"
    source = tmp_path / "club.lin"
    source.write_bytes(board.encode("cp1252"))  # not UTF-8: read, and written back, as cp1252
    doc = registry.read_file(source)
    assert doc.info.extra["encoding"] == "cp1252" and doc[0].tags["West"] == "Émile"
    assert not any("cannot hold" in loss for loss in CODEC.check(doc).losses)  # É fits cp1252
    doc[0] = doc[0].touched(tags={**doc[0].tags, "West": "Ωmega"})
    losses = CODEC.check(doc).losses
    assert any("cp1252 cannot hold (Ω;" in loss for loss in losses), losses
    target = tmp_path / "saved.lin"
    registry.write_file(doc, target)
    assert b"?mega" in target.read_bytes()  # what the loss warns of
