"""Files written by other programs (issue 13): each test builds a small file of the kind
a trial on real files from other projects turned up, and checks what a user sees."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_lin import boards as generated_board

from bridgeview.cli.main import main
from bridgeview.formats.lin.read import parse_text as parse_lin
from bridgeview.formats.lin.write import board_to_lin
from bridgeview.formats.registry import all_codecs, read_file, write_file
from bridgeview.model.auction import Contract
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet
from bridgeview.model.cards import Seat
from bridgeview.model.deal import Deal
from bridgeview.model.problem import Place, Severity

DEAL = "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"
MD = "SAKQJHT98D765C432,S432HAKQJDT98C765,ST98H765D432CAKQJ"  # S, W, N hands of DEAL's deal
MD2 = "S765H432DAKQJCT98,S432HAKQJDT98C765,SAKQJHT98D765C432"  # another deal


def pbn(tmp_path: Path, body: str, name: str = "t.pbn") -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


def game(number: int = 1, dealer: str = "N", extra: str = "", deal: str = DEAL) -> str:
    return f'[Board "{number}"]\n[Dealer "{dealer}"]\n[Vulnerable "None"]\n[Deal "{deal}"]\n{extra}'


def save_bytes(doc, fmt: str, tmp_path: Path) -> bytes:
    out = tmp_path / f"again.{fmt}"
    write_file(doc, out, fmt)
    return out.read_bytes()


# -- 1: tokens that are not calls keep every later call in its seat ----------------------
def test_unknown_call_token_stops_the_auction_and_no_call_changes_seat(tmp_path, capsys):
    path = pbn(tmp_path, game(extra='[Auction "N"]\nAC 4S AC Pass\n'))
    doc = read_file(path)
    b = doc[0]
    assert b.auction == []  # never "North 4S"
    assert [(p.kind, p.place.board) for p in doc.problems] == [("pbn.unreadable-call", 0)]
    assert "'AC' is not a call; the auction is read up to it (0 calls)" in b.problems()  # the GUI marks it
    assert main(["validate", str(path)]) == 1
    assert capsys.readouterr().out.count("is not a call") == 1  # said once, with its line
    # PBN keeps the file as it was, unchanged or edited
    assert save_bytes(doc, "pbn", tmp_path) == path.read_bytes()
    edited = b.touched(number=2)
    doc[0] = edited
    assert "AC 4S AC Pass" in save_bytes(doc, "pbn", tmp_path).decode()
    # conversion says what it drops
    assert main(["convert", str(path), str(tmp_path / "out.lin")]) == 0
    err = capsys.readouterr().err
    assert "the auction from a token that is not a call on 1 board" in err
    assert "mb|" not in (tmp_path / "out.lin").read_text()


def test_calls_before_an_unknown_token_keep_their_seats(tmp_path):
    path = pbn(tmp_path, game(dealer="E", extra='[Auction "E"]\n1H Pass ZZ 4S\n'))
    b = read_file(path)[0]
    assert [str(c) for c in b.auction] == ["1H", "P"]
    assert b.dealer == Seat.EAST


# -- 3 and 8: LIN lesson files -------------------------------------------------------------
LESSON = (
    f"pn|Ann,Bob,Cy,Di|st||md|3{MD}|rh||ah|Board 1|sv|o|mb|1nppp|pg||\n"
    "cr|255|cb|30 |jasno czerwony|\n"
    f"pn|Ann,Bob,Cy,Di|st||md|4{MD2}|rh||ah|Board 2|sv|n|mb|p|mb|1S|nt|hello|mb|p|pg||\n"
)


def test_lesson_colour_lines_are_kept_and_the_boards_around_them_read(tmp_path):
    path = tmp_path / "lesson.lin"
    path.write_text(LESSON)
    doc = read_file(path)
    assert [b.number for b in doc] == [1, 2]
    assert any("jasno czerwony" in msg and "kept" in msg for _, _, msg in doc.problems)
    assert save_bytes(doc, "lin", tmp_path) == path.read_bytes()
    doc[0] = doc[0].touched(number=1)  # regenerated, still with the colour segment
    again = save_bytes(doc, "lin", tmp_path).decode()
    assert "cb|30 |jasno czerwony|" in again
    assert [b.number for b in read_file(tmp_path / "again.lin")] == [1, 2]


def test_packed_calls_in_one_mb_are_read(tmp_path):
    path = tmp_path / "lesson.lin"
    path.write_text(LESSON)
    b = read_file(path)[0]
    assert [str(c) for c in b.auction] == ["1NT", "P", "P", "P"]
    assert b.contract_and_declarer() == (Contract.parse("1NT"), Seat.NORTH)


# -- 5 (LIN part): unchanged LIN files are saved byte for byte -------------------------------
def test_unchanged_lin_file_resaves_byte_identical_and_edits_are_regenerated(tmp_path):
    text = (
        f"qx|o1|md|3{MD}|sv|o|nt|before the auction|mb|1S|nt|after 1S|mb|p|mb|p|mb|p|pc|C2|nt|after the lead|pc|CA|\r\n"
    )
    path = tmp_path / "vugraph.lin"
    path.write_bytes(text.encode())
    doc = read_file(path)
    assert save_bytes(doc, "lin", tmp_path) == text.encode()
    doc[0] = doc[0].touched(result=7)
    assert save_bytes(doc, "lin", tmp_path) != text.encode()


# -- 6: pn before qx --------------------------------------------------------------------------
@pytest.mark.parametrize("pn_first", [True, False])
def test_player_names_belong_to_the_board_that_follows_them(tmp_path, pn_first):
    rooms = [("o1", "A1,B1,C1,D1", MD), ("c1", "A2,B2,C2,D2", MD), ("o2", "A3,B3,C3,D3", MD2)]
    parts = []
    for qx, names, md in rooms:
        if pn_first:
            parts.append(f"pn|{names}|qx|{qx}|md|3{md}|sv|o|mb|p|mb|p|mb|p|mb|p|pg||\n")
        else:
            parts.append(f"qx|{qx}|pn|{names}|md|3{md}|sv|o|mb|p|mb|p|mb|p|mb|p|pg||\n")
    path = tmp_path / "match.lin"
    path.write_text("".join(parts))
    doc = read_file(path)
    assert [b.tags.get("South") for b in doc] == ["A1", "A2", "A3"]
    assert [b.tags.get("East") for b in doc] == ["D1", "D2", "D3"]


# -- 11: R for redoubled, and the Declarer tag ----------------------------------------------
def test_contract_with_r_is_redoubled_with_a_warning_and_the_declarer_is_kept(tmp_path):
    path = pbn(tmp_path, game(extra='[Declarer "E"]\n[Contract "4SR"]\n[Result "10"]\n'))
    doc = read_file(path)
    b = doc[0]
    assert b.contract == Contract.parse("4SXX")
    assert b.contract_and_declarer() == (Contract.parse("4SXX"), Seat.EAST)
    assert [(p.kind, p.severity) for p in doc.problems] == [("pbn.contract-r-for-redoubled", Severity.WARNING)]
    assert save_bytes(doc, "pbn", tmp_path) == path.read_bytes()


def test_a_declarer_the_auction_contradicts_is_reported(tmp_path):
    path = pbn(tmp_path, game(extra='[Declarer "E"]\n[Auction "N"]\n1S Pass Pass Pass\n'))
    assert main(["validate", str(path)]) == 1


# -- 12: [Dealer"N"] --------------------------------------------------------------------------
def test_tag_without_a_space_is_read_with_a_warning(tmp_path):
    path = pbn(tmp_path, f'[Board "3"]\n[Dealer"S"]\n[Vulnerable "EW"]\n[Deal "{DEAL}"]\n')
    doc = read_file(path)
    assert doc[0].dealer == Seat.SOUTH
    assert [(p.kind, p.place, p.severity) for p in doc.problems] == [
        ("pbn.no-space-before-value", Place(0, 2), Severity.WARNING)
    ]
    assert "no space between the tag name Dealer" in doc.problems[0].message  # what users read, as before


# -- 13: OptimumResultTable header -----------------------------------------------------------
def test_optimum_result_table_header_is_written_with_one_backslash(tmp_path):
    rows = "".join(f"{s} {t} 7\n" for s in "NSEW" for t in ("NT", "S", "H", "D", "C"))
    for header in ("Declarer;Denomination\\2R;Result\\2R", "Declarer;Denomination\\\\2R;Result\\\\2R"):
        path = pbn(tmp_path, game(extra=f'[OptimumResultTable "{header}"]\n{rows}'))
        doc = read_file(path)
        assert doc[0].dd is not None and not doc[0].dd.is_empty
        doc[0] = doc[0].touched(number=2)
        text = save_bytes(doc, "pbn", tmp_path).decode()
        assert '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]' in text


def test_dump_shows_the_unread_auction(tmp_path, capsys):
    path = pbn(tmp_path, game(extra='[Auction "N"]\nAC 4S AC Pass\n'))
    assert main(["dump", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["boards"][0]["auction"] == []
    assert data["boards"][0]["auction_unread"] == "AC 4S AC Pass"


# -- 4: traveller files ---------------------------------------------------------------------
def traveller(tmp_path: Path, second_deal: str = DEAL) -> Path:
    tables = [("N", "4S", "10"), ("S", "3NT", "9"), ("E", "5DX", "8")]
    games = []
    for n, (declarer, contract, result) in enumerate(tables):
        deal = second_deal if n == 2 else DEAL
        games.append(
            game(1, deal=deal, extra=f'[Declarer "{declarer}"]\n[Contract "{contract}"]\n[Result "{result}"]\n')
        )
    return pbn(tmp_path, "\n".join(games), "traveller.pbn")


def test_a_traveller_file_is_clean(tmp_path, capsys):
    path = traveller(tmp_path)
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.strip() == f"{path}: 3 boards, no problems"


def test_a_repeated_board_number_with_another_deal_is_still_an_error(tmp_path, capsys):
    path = traveller(tmp_path, second_deal="N:T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "record 1 and record 3 have board number 1 but different deals (" in out  # both records named
    assert out.count("board number") == 1


# -- 10: severity and grouping ----------------------------------------------------------------
def generated(tmp_path: Path, count: int = 12) -> Path:
    """A generated file: every board dealt by North at love, whatever its number."""
    rng = random.Random(13)
    games = [game(n, deal=Deal.shuffled(rng).to_pbn()) for n in range(1, count + 1)]
    return pbn(tmp_path, "\n".join(games), "generated.pbn")


def test_warnings_are_grouped_by_kind_and_exit_0(tmp_path, capsys):
    path = generated(tmp_path)
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    dealer = [line for line in out if "dealer" in line]
    assert dealer == [
        f"{path}: 9 warnings: dealer does not follow the board number: "
        "board 2, board 3, board 4, board 6, board 7, … (--all lists every one)"
    ]
    assert out[-1] == f"{path}: 12 boards, 18 warnings, no errors"


def test_all_lists_every_problem_and_strict_fails_on_warnings(tmp_path, capsys):
    path = generated(tmp_path)
    assert main(["validate", "--all", "--strict", str(path)]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert len(lines) == 18 and all(line.startswith(f"{path}: warning: line ") for line in lines)
    assert captured.err.strip() == f"{path}: 18 problems in 12 boards"


def test_optimum_score_in_another_form_is_a_warning(tmp_path, capsys):
    path = pbn(tmp_path, game(extra='[OptimumScore "NS 4S; 420"]\n'))
    assert main(["validate", str(path)]) == 0
    assert "warning: line 5, record 1: OptimumScore" in capsys.readouterr().out
    assert main(["validate", "--strict", str(path)]) == 1


def test_errors_exit_1_among_warnings(tmp_path, capsys):
    path = pbn(tmp_path, game(2, extra='[Auction "N"]\n1S 1H\n'))
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "warning: line 1, board 2: dealer N but board 2 is dealt by E" in out
    assert "insufficient" in out and "warning: line 1, board 2: call 2" not in out


# -- 5: unchanged binary files are saved byte for byte --------------------------------------------
def deals_set(count: int = 4, first: int = 1) -> BoardSet:
    rng = random.Random(5)
    return BoardSet([Board.numbered(first + i, Deal.shuffled(rng)) for i in range(count)])


BINARY = [c.name for c in all_codecs() if c.binary and c.kind == "bridge" and c.can_write]


@pytest.mark.parametrize("fmt", BINARY)
def test_every_binary_format_saves_an_unchanged_file_byte_identical(tmp_path, fmt):
    path = tmp_path / f"src.{fmt}"
    write_file(deals_set(), path, fmt)
    data = path.read_bytes()
    doc = read_file(path, fmt)
    assert save_bytes(doc, fmt, tmp_path) == data
    doc[1] = doc[1].touched(deal=doc[0].deal)  # an edited set is written from the model
    write_file(doc, tmp_path / f"edited.{fmt}", fmt)
    assert read_file(tmp_path / f"edited.{fmt}", fmt)[1].deal == doc[0].deal


def test_dup_control_fields_are_kept_exactly_as_read(tmp_path, capsys):
    path = tmp_path / "set.dup"
    write_file(deals_set(2), path, "dup")
    data = bytearray(path.read_bytes())
    control = 78 + 68
    data[control : control + 10] = b"YN1  1 02 "  # last board written "02 " by another program
    path.write_bytes(bytes(data))
    doc = read_file(path)
    assert save_bytes(doc, "dup", tmp_path) == bytes(data)
    assert main(["convert", str(path), str(tmp_path / "copy.dup")]) == 0
    assert (tmp_path / "copy.dup").read_bytes() == bytes(data)
    doc[1] = doc[1].touched(deal=deals_set(3)[2].deal)  # edited: the control bytes still say the same
    again = save_bytes(doc, "dup", tmp_path)
    assert again[control : control + 10] == b"YN1  1 02 "
    assert again[:control] == bytes(data[:control])


def test_bri_filler_of_another_writer_is_kept(tmp_path):
    path = tmp_path / "set.bri"
    write_file(deals_set(3), path, "bri")
    data = bytearray(path.read_bytes())
    for r in range(3):
        data[r * 128 + 78 : (r + 1) * 128] = b"\0" * 50  # NULs where bridgeview writes spaces
    path.write_bytes(bytes(data))
    assert save_bytes(read_file(path), "bri", tmp_path) == bytes(data)


# -- 12: bare 78-byte BRI records -------------------------------------------------------------------
def test_bare_bri_records_are_read_with_a_warning(tmp_path, capsys):
    padded = tmp_path / "padded.bri"
    source = deals_set(3)
    write_file(source, padded, "bri")
    data = padded.read_bytes()
    bare = tmp_path / "bare.bri"
    bare.write_bytes(b"".join(data[r * 128 : r * 128 + 78] for r in range(3)))
    doc = read_file(bare)
    assert doc.info.format == "bri"
    assert [b.deal for b in doc] == [b.deal for b in source]
    assert main(["validate", str(bare)]) == 0
    assert "warning: bare 78-byte BRI records" in capsys.readouterr().out
    assert save_bytes(doc, "bri", tmp_path) == bare.read_bytes()
    doc[0] = doc[0].touched(deal=source[1].deal)
    assert len(save_bytes(doc, "bri", tmp_path)) == 3 * 128  # rewritten records get the padding


# -- 14: --start-board on DUP input --------------------------------------------------------------------
@pytest.mark.parametrize("command", ["dump", "validate", "convert"])
def test_start_board_on_dup_input_is_said_to_be_ignored(tmp_path, capsys, command):
    path = tmp_path / "set.dup"
    write_file(deals_set(2, first=5), path, "dup")
    args = [command, str(path), "--start-board", "20"]
    if command == "convert":
        args.insert(2, str(tmp_path / "out.pbn"))
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "bridgeview: the start board 20 is ignored: this DUP file numbers its boards from 5 itself" in err


# -- 2: strict sniffing of ZBS and BRE -----------------------------------------------------------
def ber_bytes(deals: int, base: int, seed: int) -> bytes:
    """A BER-like file: one byte a card naming its hand (``base`` + 0-3), 52 bytes a deal."""
    rng = random.Random(seed)
    out = bytearray()
    for _ in range(deals):
        cards = [base + i // 13 for i in range(52)]
        rng.shuffle(cards)
        out += bytes(cards)
    return bytes(out)


def bhg_bytes(deals: int, seed: int = 2) -> bytes:
    """A BHG-like file: an empty first line, then each deal as 52 letters, one a card."""
    rng = random.Random(seed)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    lines = [""]
    for _ in range(deals):
        cards = list(letters)
        rng.shuffle(cards)
        lines.append("".join("".join(sorted(cards[13 * h : 13 * h + 13])) for h in range(4)))
    return ("\r\n".join(lines) + "\r\n").encode()


@pytest.mark.parametrize(
    ("data", "name", "fmt"),
    [
        (ber_bytes(16, 0, 8), "binary_ber", None),  # passed the old ZBS sniff: groups, a null word, then more data
        (ber_bytes(16, 0x31, 3), "text_ber", "ber"),
        (bhg_bytes(2), "two_board_bhg", "bhg"),  # three lines: the old BRE sniff took the card lines for site and date
        (bhg_bytes(16), "bhg", "bhg"),
    ],
)
def test_files_of_other_formats_are_not_taken_for_zbs_or_bre(tmp_path, capsys, data, name, fmt):
    """Each opens as what it is (BER, BHG), or as nothing, never as ZBS or BRE."""
    path = tmp_path / name
    path.write_bytes(data)
    if fmt is None:
        assert main(["info", str(path)]) == 1
        assert capsys.readouterr().err.strip() == f"bridgeview: {path}: cannot tell what format this file is"
    else:
        assert read_file(path).info.format == fmt


def test_real_zbs_and_bre_files_are_still_recognised(tmp_path):
    source = deals_set(3)
    for fmt in ("zbs", "bre"):
        path = tmp_path / f"set.{fmt}"
        write_file(source, path, fmt)
        plain = tmp_path / f"set_{fmt}"  # no extension: content alone
        plain.write_bytes(path.read_bytes())
        assert read_file(plain).info.format == fmt


def test_traveller_tab_lists_every_tables_result(tmp_path, qtbot):
    from bridgeview.ui.boardset.view import DocumentView

    path = traveller(tmp_path)
    view = DocumentView(read_file(path), str(path))
    qtbot.addWidget(view)
    view.show()
    tab = view.traveller
    tabs = view.side_tabs
    assert tabs.tabText(tabs.indexOf(tab)) == "Traveller (3)"
    rows = [[tab.table.item(r, c).text() for c in range(6)] for r in range(tab.table.rowCount())]
    assert rows == [
        ["1", "4♠", "N", "10", "=", "+420"],
        ["2", "3NT", "S", "9", "=", "+400"],
        ["3", "5♦X", "E", "8", "-3", "+500"],
    ]
    tab._open(2, 0)
    assert view.current_index() == 2
    view.solver.shutdown()


def test_traveller_tab_of_a_board_played_once(tmp_path, qtbot):
    from bridgeview.ui.boardset.view import DocumentView

    view = DocumentView(read_file(generated(tmp_path, 2)))
    qtbot.addWidget(view)
    tabs = view.side_tabs
    assert tabs.tabText(tabs.indexOf(view.traveller)) == "Traveller"
    assert view.traveller.table.rowCount() == 1
    view.solver.shutdown()


# -- 7: LIN commentary keeps its place -------------------------------------------------------------
def test_lin_commentary_stays_at_its_place_in_the_auction_and_play(tmp_path):
    text = (
        f"qx|o1|md|3{MD}|sv|o|nt|before the auction|mb|1S|nt|after 1S|mb|p|mb|p|mb|p|pg||"
        "pc|C2|nt|after the lead|pc|CA|\n"
    )
    path = tmp_path / "vugraph.lin"
    path.write_text(text)
    doc = read_file(path)
    assert doc[0].notes == ["before the auction", "after 1S", "after the lead"]
    doc[0] = doc[0].touched(result=7)  # edited: written from the model, not copied
    again = save_bytes(doc, "lin", tmp_path).decode()
    assert "nt|before the auction|mb|1S|nt|after 1S|mb|p|" in again
    assert "pc|C2|nt|after the lead|pc|CA|" in again
    back = read_file(tmp_path / "again.lin")[0]
    assert back.notes == doc[0].notes
    # a note added in the app: the places no longer fit the notes, so every note goes at the start
    doc[0] = back.touched(notes=[*back.notes, "added"])
    again = save_bytes(doc, "lin", tmp_path).decode()
    assert "nt|before the auction|nt|after 1S|nt|after the lead|nt|added|" in again


def test_a_group_on_one_board_number_names_records(tmp_path, capsys):
    rng = random.Random(4)
    path = pbn(tmp_path, "\n".join(game(1, deal=Deal.shuffled(rng).to_pbn()) for _ in range(6)))
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert (
        f"{path}: 5 errors: board number repeated with a different deal: "
        "record 2, record 3, record 4, record 5, record 6 (--all lists every one)"
    ) in out


def test_board_list_marks_each_tables_result_and_follows_edits(tmp_path, qtbot):
    from bridgeview.ui.boardset.view import DocumentView
    from bridgeview.ui.document.board_model import COL_BOARD

    path = traveller(tmp_path)
    view = DocumentView(read_file(path), str(path))
    qtbot.addWidget(view)
    model = view.model

    def column() -> list[str]:
        return [model.data(model.index(r, COL_BOARD)) for r in range(model.rowCount())]

    assert column() == ["1 (1/3)", "1 (2/3)", "1 (3/3)"]
    model.set_board(2, model.board(2).touched(number=2))  # renumbered: no longer a result of board 1
    assert column() == ["1 (1/2)", "1 (2/2)", "2"]
    assert view.side_tabs.tabText(view.side_tabs.indexOf(view.traveller)) == "Traveller (2)"
    view.solver.shutdown()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(generated_board(), st.data())
def test_lin_notes_keep_their_places_through_a_round_trip(board, data):
    calls, cards = len(board.auction or ()), len(board.play or ())
    places = sorted(
        (calls, data.draw(st.integers(1, cards)))
        if cards and data.draw(st.booleans())
        else (data.draw(st.integers(0, calls)), 0)
        for _ in board.notes
    )
    if any(a or c for a, c in places):
        board.tags["LinNoteAt"] = ";".join(f"{a},{c}" for a, c in places)
    text = board_to_lin(board)
    back = parse_lin(text)[0]
    assert back.notes == board.notes
    assert back.tags.get("LinNoteAt") == board.tags.get("LinNoteAt")
    assert board_to_lin(back) == text


def test_replay_shows_lin_commentary_at_its_step(tmp_path, qtbot):
    from bridgeview.ui.boardset.view import DocumentView

    path = tmp_path / "vugraph.lin"
    path.write_text(
        f"qx|o1|md|3{MD}|sv|o|nt|before the auction|mb|1S|nt|after 1S|mb|p|mb|p|mb|p|pg||"
        "pc|CT|nt|after the lead|pc|C2|\n"
    )  # East leads, South follows
    view = DocumentView(read_file(path), str(path))
    qtbot.addWidget(view)
    view.show()
    label = view.commentary
    assert label.text() == "Comment: before the auction\nComment: after 1S"
    view.replay.go(1)
    assert label.text() == "Comment: after the lead" and label.isVisible()
    height = label.height()
    view.replay.go(2)
    assert label.text() == "" and label.isVisible() and label.height() == height  # its place stays (issue 25)
    view.solver.shutdown()
