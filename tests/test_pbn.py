"""PBN codec: byte-exact write-back, the model of every PBN feature, and generation."""

from __future__ import annotations

import io
import json

import pytest
from conftest import realdata_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgeview.cli.main import main
from bridgeview.formats import registry
from bridgeview.formats.codec import WriteOptions
from bridgeview.formats.errors import FormatError
from bridgeview.formats.pbn.codec import PbnCodec, board_to_pbn_text, document_text, parse_pbn_text
from bridgeview.formats.registry import read_file, write_file
from bridgeview.model.auction import Call, Contract
from bridgeview.model.board import Board, board_key
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.cards import Card, Seat, Strain
from bridgeview.model.deal import Deal
from bridgeview.model.play import replay
from bridgeview.model.problem import Place
from bridgeview.model.vulnerability import Vulnerability

PBN_FILES = realdata_files("pbn", "*.pbn")
CODEC = PbnCodec()


def write_bytes(doc, options: WriteOptions | None = None) -> bytes:
    buf = io.BytesIO()
    CODEC.write(doc, buf, options)
    return buf.getvalue()


def model(b: Board) -> tuple:
    """What a board says, tags compared as a dict (a generated board puts them in export order)."""
    key = list(board_key(b))
    key[12] = dict(b.tags)
    return tuple(key)


# -- real files -----------------------------------------------------------
@pytest.mark.parametrize("path", PBN_FILES, ids=lambda p: p.name)
def test_real_file_saved_unchanged_is_identical(path, tmp_path):
    doc = read_file(path)
    assert doc.info.format == "pbn"
    assert write_bytes(doc) == path.read_bytes()
    out = tmp_path / path.name
    write_file(doc, out)
    assert out.read_bytes() == path.read_bytes()


@pytest.mark.parametrize("path", PBN_FILES, ids=lambda p: p.name)
def test_fast_reader_agrees_with_the_tokenizer(path, monkeypatch):
    """Simple games take the regular-expression path; forcing every game through the tokenizer gives the same."""
    from bridgeview.formats.pbn import read as pbn_read

    text = path.read_bytes().decode(read_file(path).info.extra["encoding"])
    fast = parse_pbn_text(text)
    monkeypatch.setattr(pbn_read, "simple_entries", lambda *args: None)
    monkeypatch.setattr(pbn_read, "read_fast", lambda *args: None)
    slow = parse_pbn_text(text)
    assert [board_key(b) for b in fast] == [board_key(b) for b in slow]
    assert fast.problems == slow.problems
    assert fast.info.extra["board_lines"] == slow.info.extra["board_lines"]


GAME = '[Board "1"]\n[Dealer "N"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n'


@pytest.mark.parametrize(
    "text",
    [
        GAME + '[Auction "N"]\n1S {a comment} Pass\n2S AP\n{after}\n',
        "{before the tags}\r\n" + GAME.replace("\n", "\r\n") + '{two\r\nlines} [Event "x"]\r\n',
        GAME + '{holds [Hidden "#"] ; and % and \\ and "quotes"}\n',
        GAME + "{nested {braces} here}\n",
        GAME + "{not closed\n",
        GAME + "} stray\n",
        GAME + '[ScoreTable "Rank;Score"]\n1 {c} 500\n',
        GAME + '[Auction "N"]\n1S =1= Pass\n2S AP\n[Note "1:{in a note}"]\n{x}\n',
    ],
)
def test_fast_reader_comments_agree_with_the_tokenizer(text, monkeypatch):
    from bridgeview.formats.pbn import read as pbn_read

    fast = parse_pbn_text(text)
    monkeypatch.setattr(pbn_read, "simple_entries", lambda *args: None)
    monkeypatch.setattr(pbn_read, "read_fast", lambda *args: None)
    slow = parse_pbn_text(text)
    assert [board_key(b) for b in fast] == [board_key(b) for b in slow]
    assert fast.problems == slow.problems
    assert fast.info.extra["board_lines"] == slow.info.extra["board_lines"]


def test_stray_closing_brace_in_a_simple_game_is_reported():
    doc = parse_pbn_text(GAME + '[Auction "N"]\n1S Pass } 2S AP\n')
    assert [(p.place, p.kind) for p in doc.problems] == [(Place(0, 5), "pbn.stray-character")]
    assert doc.problems[0].message == "stray '}'"
    assert [str(c) for c in doc[0].auction][:3] == ["1S", "P", "2S"]


@pytest.mark.parametrize("path", PBN_FILES, ids=lambda p: p.name)
def test_real_file_touched_boards_keep_their_model(path):
    doc = read_file(path)
    for i in range(len(doc)):
        doc[i] = doc[i].touched()
    again = parse_pbn_text(write_bytes(doc).decode(doc.info.extra["encoding"]))
    assert len(again) == len(doc)
    for a, b in zip(doc, again, strict=True):
        assert model(a) == model(b)


def test_edited_board_is_regenerated_and_the_rest_stay_byte_exact(realdata):
    path = realdata / "pbn" / "endplay_example1_eyc1998.pbn"
    doc = read_file(path)
    original = path.read_text()
    doc[1].result = 9  # an in-place edit is noticed too (no touched() needed)
    text = write_bytes(doc).decode()
    first_game = original.split("\n\n")[0]
    assert text.startswith(first_game + "\n\n")
    assert '[Result "9"]' in text and text.count('[Result "10"]') == 1
    assert parse_pbn_text(text)[1].result == 9


def test_dump_of_a_real_file(realdata, capsys):
    assert main(["dump", str(realdata / "pbn" / "endplay_example1_eyc1998.pbn")]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "pbn"
    assert data["event"] == "16th European Youth Team Championships"
    first = data["boards"][0]
    assert first["deal"] == "N:T32.AKQ7.T3.AQJT A9864.83.AK4.987 J.JT9542.72.K653 KQ75.6.QJ9865.42"
    assert first["auction"] == ["1C", "1S", "2H", "4S", "5H", "P", "P", "P"]
    assert first["play"][:4] == ["DQ", "D3", "D4", "D2"]
    assert (first["contract"], first["declarer"], first["result"]) == ("5H", "S", 10)


def test_sniff_and_detect(realdata, tmp_path):
    assert CODEC.sniff(b"% PBN 2.1\n% EXPORT\n") == 100
    assert CODEC.sniff(b'[Event "x"]\n[Board "1"]\n') > 50
    assert CODEC.sniff(b"\x00\x01\x02") == 0
    assert registry.detect(realdata / "pbn" / "zdenecek_psbridge_bigdeal12.pbn").name == "pbn"
    other = tmp_path / "deal.txt"
    other.write_text('{ comment }\n[Deal "N:AKQJT98765432... - - -"]\n')
    assert registry.detect(other).name == "pbn"


def test_binary_input_is_a_format_error(tmp_path):
    p = tmp_path / "bad.pbn"
    p.write_bytes(b'[Board "1"]\n[Deal \x00\x00\x00')
    with pytest.raises(FormatError) as err:
        read_file(p, "pbn")
    assert err.value.line == 2 and "binary" in str(err.value)


# -- encodings and line ends ----------------------------------------------
def test_latin1_file_is_detected_and_written_back_in_latin1(realdata):
    doc = read_file(realdata / "pbn" / "zdenecek_bridgecomposer_latin1.pbn")
    assert doc.info.extra["encoding"] == "cp1252"  # 8-bit text: Windows-1252, Latin-1's letters where they are
    assert '%HRTitleEvent "2. párový turnaj BKP 19. 10. 2022"' in doc.info.extra["preamble"]
    doc[0] = doc[0].touched(tags={**doc[0].tags, "West": "Dvořák"})  # ř is not Latin-1
    assert any("cannot hold" in loss for loss in CODEC.check(doc).losses)
    data = write_bytes(doc)
    assert "párový".encode("latin-1") in data
    assert b'[West "Dvo?\xe1k"]' in data


def test_utf8_file_keeps_utf8(realdata):
    doc = read_file(realdata / "pbn" / "endplay_sample_optimumresulttable.pbn")
    assert doc.info.extra["encoding"] == "utf-8"
    calls = [c for c in doc[0].auction if c.note == 2]
    assert calls[0].explanation == "♠"


def test_latin1_byte_in_a_tag_value(realdata):
    doc = read_file(realdata / "pbn" / "pbnj_veugen_correct_21.pbn")
    assert doc.info.extra["encoding"] == "cp1252"
    assert doc[1].tags["Site"] == "Hotel Des Indes\xa0- The Hague, Netherlands, NLD"


def test_crlf_is_kept_for_generated_boards(realdata):
    doc = read_file(realdata / "pbn" / "dealconvert_test_16boards.pbn")
    assert doc.info.extra["newline"] == "\r\n"
    doc[3] = doc[3].touched(number=3)
    data = write_bytes(doc)
    assert b"\n" not in data.replace(b"\r\n", b"")
    assert parse_pbn_text(data.decode())[3].number == 3


def test_write_options_override_encoding_and_newline(realdata):
    doc = read_file(realdata / "pbn" / "zdenecek_bridgecomposer_latin1.pbn")
    data = write_bytes(doc, WriteOptions(encoding="utf-8", newline="\r\n"))
    text = data.decode("utf-8")
    assert "párový" in text and "\n" not in text.replace("\r\n", "")
    assert [model(b) for b in parse_pbn_text(text)] == [model(b) for b in doc]


def test_utf8_bom_is_kept(tmp_path):
    p = tmp_path / "bom.pbn"
    data = '\ufeff[Board "1"]\n[Deal "N:AKQJT98765432... - - -"]\n'.encode()
    p.write_bytes(data)
    doc = read_file(p)
    assert doc[0].number == 1
    assert write_bytes(doc) == data


def test_every_byte_decodes_and_the_five_that_are_no_character_are_told():
    """8-bit text is Windows-1252: every byte reads, and the five it leaves undefined read as U+FFFD."""
    data = bytes(range(256)) + b'\n[Board "2"]\n'
    from bridgeview.formats.textcheck import decode_text

    decoded = decode_text(data)
    text, encoding = decoded.text, decoded.encoding
    assert encoding == "cp1252" and len(text) == len(data)
    assert [i for i, ch in enumerate(text) if ch == "\ufffd"] == [0x81, 0x8D, 0x8F, 0x90, 0x9D]
    assert decode_text(data).undecodable == [0x81, 0x8D, 0x8F, 0x90, 0x9D]
    assert text[0x80] == "€" and text[0xE9] == "é"


# -- preamble, comments, directives, unknown tags -----------------------------
def test_preamble_and_directives_are_file_info(realdata):
    doc = read_file(realdata / "pbn" / "zdenecek_bridgecomposer_latin1.pbn")
    pre = doc.info.extra["preamble"]
    assert pre.startswith("% PBN 2.1\n% EXPORT\n") and "%Creator: BridgeComposer Version 5.57" in pre
    assert [b.number for b in doc] == list(range(16, 31))


def test_commentary_is_kept_and_written_for_touched_boards(realdata):
    doc = read_file(realdata / "pbn" / "endplay_example4_comments_rpbridge.pbn")
    b = doc[0]
    assert b.notes == [" this is a\ncomment ", " this is also a comment", " this is also a comment "]
    assert b.tags["Date"] == "2012.08.??"
    text = board_to_pbn_text(b.touched())
    assert "{ this is a\ncomment }" in text
    assert parse_pbn_text(text)[0].notes == b.notes


def test_unknown_tags_stay_in_order(realdata):
    doc = read_file(realdata / "pbn" / "zdenecek_bigdeal11_deepfinesse.pbn")
    b = doc[0]
    assert list(b.tags) == ["Generator", "Ability", "Minimax"]
    assert b.tags["Ability"] == "N:7AA55 E:53377 S:7AA56 W:53377" and b.tags["Minimax"] == "4HS420"
    text = board_to_pbn_text(b.touched())
    assert text.index("[Generator") < text.index("[Ability") < text.index("[Minimax")


def test_score_tags_stay_tags(realdata):
    doc = read_file(realdata / "pbn" / "dealconvert_test_16boards.pbn")
    assert "OptimumScore" in doc[0].tags
    doc = read_file(realdata / "pbn" / "endplay_sample_optimumresulttable.pbn")
    assert doc[0].tags["Score"] == "NS 500" and doc[0].tags["OptimumScore"] == "NS +400"
    assert doc[0].tags["ScoreIMP"] == "NS -2 EW 2"


def test_par_contract_tag_round_trips():
    text = '[Board "1"]\n[Deal "N:AKQJT98765432... - - -"]\n[ParContract "NS 4S"]\n'
    b = parse_pbn_text(text)[0]
    assert b.tags["ParContract"] == "NS 4S"
    assert '[ParContract "NS 4S"]' in board_to_pbn_text(b.touched())


def test_unknown_table_sections_are_kept(realdata):
    doc = read_file(realdata / "pbn" / "pbnj_veugen_correct_21.pbn")
    b = doc[1]
    assert b.tags["OptimumPlayTable"] == "S\\8R;H\\8R;D\\8R;C\\8R"
    assert b.tags["OptimumPlayTable:section"].startswith("KQ86 - QJ K\nT - - -")
    again = parse_pbn_text(board_to_pbn_text(b.touched()))[0]
    assert again.tags["OptimumPlayTable:section"] == b.tags["OptimumPlayTable:section"]


# -- identification -----------------------------------------------------------
def test_event_site_date_go_to_tags_and_file_info(realdata):
    doc = read_file(realdata / "pbn" / "endplay_example1_eyc1998.pbn")
    assert (doc.info.event, doc.info.site, doc.info.date) == (
        "16th European Youth Team Championships",
        "Vienna, Austria AUT",
        "1998.07.16",
    )
    assert doc[1].tags["Event"] == doc.info.event


def test_hash_copies_the_previous_board(realdata):
    doc = read_file(realdata / "pbn" / "endplay_sample_optimumresulttable.pbn")
    assert [b.tags["Event"] for b in doc] == ["TestingPBN", "TestingPBN"]
    assert doc[1].tags["Date"] == "2021.08.23"
    assert doc[1].contract == Contract.passed_out()


def test_editing_a_board_that_a_hash_copies_does_not_change_the_next(realdata):
    doc = read_file(realdata / "pbn" / "endplay_sample_optimumresulttable.pbn")  # board 2: [Event "#"]
    doc[0] = doc[0].touched(tags={**doc[0].tags, "Event": "Changed"})
    text = write_bytes(doc).decode()
    again = parse_pbn_text(text)
    assert [b.tags["Event"] for b in again] == ["Changed", "TestingPBN"]
    assert '[Event "#"]' not in text  # the second board is written out with its own values


@pytest.mark.parametrize("change", ["delete first", "reverse", "delete the ## game"])
def test_hash_boards_keep_their_values_when_boards_move(realdata, change):
    doc = read_file(realdata / "pbn" / "pbnj_veugen_correct_20.pbn")  # '#' and '##' defaults from game 1 on
    boards = list(doc)
    if change == "delete first":
        boards = boards[1:]
    elif change == "reverse":
        boards = boards[::-1]
    else:
        boards = boards[:0] + boards[1:15] + boards[16:]
    out = BoardSet(boards, doc.info)
    again = parse_pbn_text(write_bytes(out).decode(doc.info.extra["encoding"]))
    assert all(p.kind != "pbn.nothing-to-inherit" for p in again.problems)
    assert [model(b) for b in again] == [model(b) for b in boards]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(order=st.permutations(range(46)), keep=st.integers(1, 46), edit=st.integers(0, 45))
def test_hash_boards_survive_any_reordering_deletion_and_edit(realdata, order, keep, edit):
    doc = read_file(realdata / "pbn" / "pbnj_veugen_correct_20.pbn")
    boards = [doc[i] for i in order[:keep]]
    e = edit % keep
    boards[e] = boards[e].touched(tags={**boards[e].tags, "Event": "Edited", "West": "Someone"})
    again = parse_pbn_text(write_bytes(BoardSet(boards, doc.info)).decode(doc.info.extra["encoding"]))
    assert [model(b) for b in again] == [model(b) for b in boards]


def test_copying_a_hash_board_as_pbn_writes_its_values(realdata):
    doc = read_file(realdata / "pbn" / "endplay_sample_optimumresulttable.pbn")
    text = board_to_pbn_text(doc[1])
    assert '"#"' not in text and '[Event "TestingPBN"]' in text
    assert model(parse_pbn_text(text)[0]) == model(doc[1])


def test_double_hash_sets_a_default_until_a_single_hash(realdata):
    doc = read_file(realdata / "pbn" / "pbnj_veugen_correct_20.pbn")
    assert doc[0].tags["Event"] == "Autumn regional" and doc[10].tags["Event"] == "Autumn regional"
    hidden = [doc[i].tags.get("Hidden") for i in range(16)]
    assert hidden[:6] == [None, "WNE", "WNE", "NES", "NES", "NES"]
    assert hidden[12:16] == ["SWN", "SWN", "SWN", None]


def test_deal_from_any_first_seat_and_unknown_hands():
    a = parse_pbn_text('[Deal "W:AJ9754.J62.K62.6 32..A954.AQJ9875 KQ86.KQT843.QJ.K T.A975.T873.T432"]')[0]
    b = parse_pbn_text('[Deal "N:32..A954.AQJ9875 KQ86.KQT843.QJ.K T.A975.T873.T432 AJ9754.J62.K62.6"]')[0]
    assert a.deal == b.deal and a.deal.is_complete
    partial = parse_pbn_text('[Deal "S:J86.AJT7.K842.63 - - -"]')[0]
    assert partial.deal.hands[Seat.SOUTH] and partial.deal.card_count == 13
    text = board_to_pbn_text(partial.touched())
    assert '[Deal "N:- - J86.AJT7.K842.63 -"]' in text


def test_board_without_board_tag(realdata):
    doc = read_file(realdata / "pbn" / "pbnj_veugen_correct_20.pbn")
    assert doc[25].number is None and doc[25].deal.is_complete
    assert doc[25].dealer == Seat.NORTH and doc[25].vulnerability == Vulnerability.NONE


def test_vulnerable_dash_means_none(realdata):
    doc = read_file(realdata / "pbn" / "endplay_sample_optimumresulttable.pbn")
    assert doc[0].vulnerability == Vulnerability.NONE


# -- auction ------------------------------------------------------------------
def test_auction_ap_expands_to_passes(realdata):
    b = read_file(realdata / "pbn" / "endplay_example4_comments_rpbridge.pbn")[0]
    assert [str(c) for c in b.auction] == ["1NT", "X", "XX", "4H", "X", "4S", "4NT", "X", "5C", "P", "P", "P"]


def test_auction_notes_nags_and_suffixes(realdata):
    doc = read_file(realdata / "pbn" / "pbnj_veugen_correct_20.pbn")
    calls = doc[15].auction
    assert (str(calls[2]), calls[2].note, calls[2].explanation) == ("3H", 1, "non-forcing 6-9 points, 6-card")
    assert calls[4].explanation == "two colors: clubs and diamonds"
    nags = doc[23].auction
    assert (nags[0].mark, nags[2].mark, nags[5].mark) == ("$13", "$31", "$22")
    b = read_file(realdata / "pbn" / "bridgebots_sample.pbn")[2]
    assert (str(b.auction[1]), b.auction[1].mark) == ("2NT", "!")
    text = board_to_pbn_text(doc[15].touched())
    assert "3H =1=" in text and '[Note "1:non-forcing 6-9 points, 6-card"]' in text


def test_auction_suffix_glued_to_the_call():
    text = '[Dealer "N"]\n[Auction "N"]\n1S! 2H?? X $4\nAP\n'
    b = parse_pbn_text(text)[0]
    assert [(str(c), c.mark) for c in b.auction[:3]] == [("1S", "!"), ("2H", "??"), ("X", "$4")]
    again = parse_pbn_text(board_to_pbn_text(b.touched()))[0]
    assert again.auction == b.auction


def test_auction_leading_dashes_before_the_dealer(realdata):
    b = read_file(realdata / "pbn" / "pbnj_veugen_correct_20.pbn")[34]
    assert b.dealer == Seat.EAST
    assert [str(c) for c in b.auction[:4]] == ["1H", "X", "P", "2S"]


def test_auction_plus_means_unfinished(realdata):
    b = read_file(realdata / "pbn" / "pbnj_veugen_correct_20.pbn")[29]
    assert [str(c) for c in b.auction][-3:] == ["6S", "P", "P"]


def test_explanation_without_note_number_gets_one():
    b = Board.numbered(1, Deal.empty(), auction=[Call.parse("1C").annotated(explanation="strong"), Call.parse("P")])
    text = board_to_pbn_text(b)
    assert "1C =1= Pass" in text and '[Note "1:strong"]' in text
    assert parse_pbn_text(text)[0].auction[0].explanation == "strong"


# -- play -----------------------------------------------------------------------
def test_play_columns_become_play_order(realdata):
    b = read_file(realdata / "pbn" / "endplay_example1_eyc1998.pbn")[0]
    # [Play "W"]: DQ D3 D4 D2 / SK S2 S4 SJ: W leads DQ, N D3, E D4, S D2; W wins, leads SK
    assert [str(c) for c in b.play] == ["DQ", "D3", "D4", "D2", "SK", "S2", "S4", "SJ", "DJ", "DT", "DK", "D7"]
    b2 = read_file(realdata / "pbn" / "endplay_example1_eyc1998.pbn")[1]
    # [Play "E"], columns E S W N: N wins trick 2 with CA, so trick 3 (H3 H2 H6 HA) is led by N
    assert [str(c) for c in b2.play[4:8]] == ["C9", "C3", "C2", "CA"]
    assert [str(c) for c in b2.play[8:12]] == ["HA", "H3", "H2", "H6"]
    rp = replay(b2.deal, b2.play, b2.declarer, b2.contract.strain)
    assert rp.problem is None


def test_every_real_play_replays_legally(realdata):
    for name in (
        "endplay_example1_eyc1998.pbn",
        "bridgebots_sample.pbn",
        "pbnj_veugen_correct_20.pbn",
        "pbnj_veugen_correct_21.pbn",
        "endplay_sample_optimumresulttable.pbn",
    ):
        for b in read_file(realdata / "pbn" / name):
            if b.play and b.contract is not None:
                rp = replay(b.deal, b.play, b.declarer, b.contract.strain)
                assert rp.problem is None, (name, b.number, rp.problem)


def test_claim_with_result_gives_board_claim(realdata):
    doc = read_file(realdata / "pbn" / "endplay_example1_eyc1998.pbn")
    assert (doc[0].claim, doc[0].result, len(doc[0].play)) == (10, 10, 12)
    text = board_to_pbn_text(doc[0].touched())
    assert "\n*\n" in text


def test_dash_for_unplayed_cards_in_the_last_trick(realdata):
    b = read_file(realdata / "pbn" / "bridgebots_sample.pbn")[0]
    assert len(b.play) == 29 and str(b.play[-1]) == "S6" and b.claim == 9


def test_play_marks_and_nags(realdata):
    b = read_file(realdata / "pbn" / "pbnj_veugen_correct_20.pbn")[23]
    assert b.play_marks == {0: "$200", 3: "$14"}
    again = parse_pbn_text(board_to_pbn_text(b.touched()))[0]
    assert again.play_marks == b.play_marks and again.play == b.play


def test_play_section_plus_mid_trick(realdata):
    b = read_file(realdata / "pbn" / "pbnj_veugen_correct_20.pbn")[26]
    # trick 4 is led by N (SA), then E S3, S C3, and W is still to play ('+')
    assert [str(c) for c in b.play[12:]] == ["SA", "S3", "C3"]


def test_end_position_contract_names_only_trumps(realdata):
    b = read_file(realdata / "pbn" / "pbnj_veugen_correct_20.pbn")[30]
    assert b.contract is None and b.tags["Contract"] == "H"
    assert b.declarer == Seat.SOUTH and len(b.play) == 20


# -- double-dummy tables ------------------------------------------------------------
def test_optimum_result_table(realdata):
    b = read_file(realdata / "pbn" / "pbnj_veugen_correct_21.pbn")[0]
    assert b.dd.is_complete
    assert b.dd.get(Seat.NORTH, Strain.CLUBS) == 9 and b.dd.get(Seat.WEST, Strain.NOTRUMP) == 7
    again = parse_pbn_text(board_to_pbn_text(b.touched()))[0]
    assert again.dd == b.dd


def test_double_dummy_tricks_digit_order(realdata):
    # Bridge Composer: declarers N S E W, strains NT S H D C; checked against its OptimumResultTable
    b = read_file(realdata / "pbn" / "zdenecek_bridgecomposer_latin1.pbn")[0]
    assert b.tags.get("DoubleDummyTricks") is None
    assert b.dd.get(Seat.SOUTH, Strain.DIAMONDS) == 8 and b.dd.get(Seat.EAST, Strain.HEARTS) == 8
    doc = read_file(realdata / "pbn" / "endplay_sample_optimumresulttable.pbn")
    assert doc.problems == []  # the hex string agrees with the table
    assert doc[0].dd.is_complete and doc[0].dd.get(Seat.SOUTH, Strain.HEARTS) == 7


def test_psbridge_hidden_dd_lines(realdata):
    doc = read_file(realdata / "pbn" / "zdenecek_psbridge_bigdeal12.pbn")
    b = doc[0]  # %%!R 75974684697597468469: E N W S, each NT S H D C (solved double dummy)
    assert b.dd.to_json()["N"] == {"NT": 6, "S": 8, "H": 4, "D": 6, "C": 9}
    assert b.dd.to_json()["E"] == {"NT": 7, "S": 5, "H": 9, "D": 7, "C": 4}
    assert all(x.dd is not None and x.dd.is_complete for x in doc)


def test_dd_sources_that_disagree_are_reported():
    text = (
        '[Deal "N:AKQJT98765432... - - -"]\n[DoubleDummyTricks "746b5747b55862758627"]\n'
        '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]\nN NT 8\n'
    )
    doc = parse_pbn_text(text)
    assert [(p.place, p.kind, p.severity) for p in doc.problems] == [(Place(0, 2), "pbn.dd-tables-disagree", "error")]


# -- public API and generation --------------------------------------------------------
def test_board_to_pbn_text_of_a_foreign_board():
    deal = parse_pbn_text('[Deal "N:AKQJ.AKQ.AKQ.AKQ 5432.5432.5432.5 T987.T987.T98.T9 6.J6.J76.J8765432"]')[0].deal
    b = Board.numbered(5, deal, contract=Contract.parse("3NTX"), declarer=Seat.NORTH, result=9)
    text = board_to_pbn_text(b)
    assert text.startswith('[Event "?"]\n')
    assert '[Board "5"]\n' in text and '[Dealer "N"]\n' in text and '[Vulnerable "NS"]\n' in text
    assert '[Contract "3NTX"]' in text
    again = parse_pbn_text(text)[0]
    got = (again.number, again.deal, again.contract, again.declarer, again.result)
    assert got == (5, deal, b.contract, Seat.NORTH, 9)


def test_foreign_document_gets_a_pbn_header():
    doc = BoardSet([Board.numbered(1, Deal.empty()), Board.numbered(2, Deal.empty())], FileInfo(event="Club"))
    text, encoding, newline = document_text(doc)
    assert text.startswith('% PBN 2.1\n% EXPORT\n[Event "Club"]')
    assert (encoding, newline) == ("utf-8", "\n")
    assert "\n\n[Event" in text
    assert [b.number for b in parse_pbn_text(text)] == [1, 2]


def test_passed_out_board():
    b = Board.numbered(2, Deal.empty(), contract=Contract.passed_out())
    text = board_to_pbn_text(b)
    assert '[Contract "Pass"]' in text and '[Declarer ""]' in text
    assert parse_pbn_text(text)[0].contract == Contract.passed_out()


def test_codec_registration():
    codec = registry.get("pbn")
    assert codec.extensions == ("pbn",) and not codec.binary
    caps = codec.caps
    assert caps.partial_deals and caps.dd and caps.auction and caps.play and caps.header and caps.notes


def test_play_without_declarer_is_a_loss():
    b = Board(deal=Deal.empty(), play=[Card.parse("SA")])
    assert any("no declarer" in loss for loss in CODEC.check([b]).losses)


def test_editing_the_file_event_updates_every_board(realdata):
    doc = read_file(realdata / "pbn" / "endplay_example1_eyc1998.pbn")
    doc.info.event = "Renamed"
    again = parse_pbn_text(write_bytes(doc).decode())
    assert [b.tags["Event"] for b in again] == ["Renamed", "Renamed"]
    assert again.info.site == "Vienna, Austria AUT"


def test_generated_text_stays_one_game():
    b = Board.numbered(1, Deal.empty(), notes=["first\n\nsecond"], tags={"Xnote": "a\nb"})
    text = board_to_pbn_text(b)
    doc = parse_pbn_text(text + "\n" + text)
    assert len(doc) == 2
    assert doc[0].notes == ["first\nsecond"] and doc[0].tags["Xnote"] == "a b"


def test_alert_without_explanation_is_a_loss():
    b = Board.numbered(1, Deal.empty(), auction=[Call.parse("1C").annotated(alert=True), Call.parse("P")])
    assert any("alerts without an explanation" in loss for loss in CODEC.check([b]).losses)


def test_read_options_encoding_forces_a_decoding(realdata):
    from bridgeview.formats.codec import ReadOptions

    path = realdata / "pbn" / "zdenecek_bridgecomposer_latin1.pbn"
    doc = read_file(path, "pbn", ReadOptions(encoding="cp1250"))
    assert doc.info.extra["encoding"] == "cp1250"
    assert "párový" in doc.info.extra["preamble"]
    assert write_bytes(doc) == path.read_bytes()
    with pytest.raises(FormatError):
        read_file(path, "pbn", ReadOptions(encoding="ascii"))


@pytest.mark.parametrize(
    ("deal", "message"),
    [
        ("N:QQ... - - -", "card SQ twice in hand 'QQ...'"),
        ("N:AKX... - - -", "bad rank 'X' in hand 'AKX...'"),
        ("N:A... - -", "deal must have 4 hands, found 3"),
        ("Q:A... - - -", "not a seat: 'Q'"),
        ("N:A.. - - -", "hand 'A..' must have 4 suits separated by dots"),
    ],
)
def test_the_reader_and_the_model_parse_deals_alike(deal: str, message: str) -> None:
    """One PBN deal parser: a bad Deal tag is reported in the words Deal.from_pbn raises (paste uses it too)."""
    with pytest.raises(ValueError, match="^" + message.replace(".", r"\.").replace("(", r"\(") + "$"):
        Deal.from_pbn(deal)
    doc = parse_pbn_text(f'[Board "1"]\n[Deal "{deal}"]\n')
    assert [(p.kind, p.message) for p in doc.problems] == [("pbn.bad-deal", f"deal: {message}")]
    assert doc[0].tags["Deal"] == deal
    good = "N:AKQJT98765432... .AKQJT98765432.. ..akqjt98765432. ...AKQJT98765432"
    assert parse_pbn_text(f'[Board "1"]\n[Deal "{good}"]\n')[0].deal == Deal.from_pbn(good.upper())


def test_tables_in_orders_met_in_turn_are_each_read_by_their_own_order() -> None:
    """The reader remembers the order of the last table not in ours (a program writes one order): a table after
    it whose declarers, or only whose strains, are in another order is read by its own rows, not the last's."""
    from bridgeview.formats.pbn import dd as pbn_dd

    first = ["N NT 7", "N S 8", "W NT 6", "W S 5"]
    strains_swapped = ["N S 7", "N NT 8", "W S 6", "W NT 5"]
    seats_swapped = ["W NT 7", "W S 8", "N NT 6", "N S 5"]
    for rows in (first, strains_swapped, first, seats_swapped, strains_swapped, [], first):
        got, problem = pbn_dd.parse_result_table(pbn_dd.ORT_HEADER, " ".join(rows).split())
        want: list[list[int | None]] = [[None] * 5 for _ in range(4)]
        for row in rows:
            seat, strain, tricks = row.split()
            want["NESW".index(seat)][int(Strain.from_text(strain))] = int(tricks)
        assert problem is None and got is not None
        assert [list(r) for r in got.tricks] == want, rows


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(st.integers(0, 13), min_size=5, max_size=5), min_size=4, max_size=4),
    st.one_of(st.just(frozenset()), st.frozensets(st.integers(0, 19), max_size=4)),
    st.sampled_from(
        ["as written", "shuffled", "two strains of a seat swapped", "lower case", "a cell twice", "a bad count"]
    ),
    st.randoms(use_true_random=False),
)
def test_result_tables_in_our_order_read_as_tables_in_any_order(rows, unknown, change: str, rnd) -> None:
    """A table in the order we write (taken by position) reads as the general reader reads any table; with
    ``unknown`` cells left out, rows in another order, bad rows."""
    from bridgeview.formats.pbn import dd as pbn_dd
    from bridgeview.model.ddtable import DDTable

    dd = DDTable.from_rows(
        [[None if 5 * r + c in unknown else v for c, v in enumerate(row)] for r, row in enumerate(rows)]
    )
    lines = pbn_dd.result_table_rows(dd)
    if change == "shuffled":
        rnd.shuffle(lines)
    elif change == "two strains of a seat swapped" and len(lines) > 1:
        lines[0], lines[1] = lines[1], lines[0]
    elif change == "lower case" and lines:
        lines[0] = lines[0].lower()
    elif change == "a cell twice" and lines:
        lines.append(lines[0].rsplit(" ", 1)[0] + " 3")
    elif change == "a bad count" and lines:
        lines[-1] = lines[-1].rsplit(" ", 1)[0] + " 14"
    tokens = " ".join(lines).split()
    got, problem = pbn_dd.parse_result_table(pbn_dd.ORT_HEADER, tokens)
    cells: dict[tuple[str, str], str] = {}
    for k in range(0, len(tokens), 3):  # the general rule: each row sets its cell, a later row wins
        seat, strain, tricks = tokens[k : k + 3]
        if seat not in ("N", "E", "S", "W") or int(tricks) > 13:  # a strain may be in any case, a seat not
            assert got is None and problem
            return
        cells[seat, strain.upper()] = tricks
    want = [[None] * 5 for _ in range(4)]
    for (seat, strain), v in cells.items():
        want["NESW".index(seat)][int(Strain.from_text(strain))] = int(v)
    assert problem is None and got == DDTable(tuple(map(tuple, want)))


def _hex20_as_specified(text: str, seats: tuple[Seat, ...]) -> list[list[int | None]] | None:
    """A 20-hex-digit table as PBN writers mean it, read the plain way: surrounding space ignored, twenty
    ASCII hex digits, ``seats`` in that order each NT S H D C, a digit past 13 unknown."""
    import re

    text = text.strip()
    if not re.fullmatch(r"[0-9A-Fa-f]{20}", text):
        return None
    strains = [Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS]
    rows: list[list[int | None]] = [[None] * 5 for _ in range(4)]
    for k, ch in enumerate(text):
        value = int(ch, 16)
        rows[seats[k // 5]][strains[k % 5]] = value if value <= 13 else None
    return rows


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text("0123456789abcdefABCDEF", min_size=18, max_size=22),
        st.text("0123456789abcdefABCDEFG \t\n٣g", min_size=19, max_size=23),
        st.builds(
            lambda pad, digits, tail: pad + digits + tail,
            st.sampled_from(["", " ", "\t", " \n"]),
            st.text("0123456789abcdefABCDEF", min_size=20, max_size=20),
            st.sampled_from(["", " ", "\r", "x"]),
        ),
    ),
    st.sampled_from(["psbridge", "bc"]),
)
def test_a_hex_table_reads_as_specified(text: str, order: str) -> None:
    """PSBridge's ``%%!R`` line and Bridge Composer's ``DoubleDummyTricks``: twenty hex digits (space around
    them allowed), anything else no table."""
    from bridgeview.formats.pbn import dd

    seats = dd.PSBRIDGE_SEATS if order == "psbridge" else dd.BC_SEATS
    table = dd.parse_hex20(text, seats)
    expected = _hex20_as_specified(text, seats)
    assert (None if table is None else [list(row) for row in table.tricks]) == expected
