"""AuctionView: the W N E S bidding table, its annotations and the result line."""

from __future__ import annotations

from PySide6.QtCore import Qt

from bridgeview.model.auction import Call, Contract
from bridgeview.model.board import Board
from bridgeview.model.cards import Seat
from bridgeview.model.deal import Deal
from bridgeview.ui.replay.auction_view import RED, AuctionView, board_notes, call_text, column_of, column_seats

DEAL = Deal.from_owners([c % 4 for c in range(52)])


def calls(text: str) -> list[Call]:
    return [Call.parse(t) for t in text.split()]


def test_columns_start_at_the_dealer(qtbot):
    view = AuctionView()
    qtbot.addWidget(view)
    board = Board.numbered(2, DEAL, auction=calls("1H X XX P P P"), result=7)
    view.set_board(board)
    assert view.column_letters() == ["E", "S", "W", "N"]
    assert view.cells() == [["1♥", "X", "XX", "Pass"], ["Pass", "Pass", "", ""]]
    assert view.summary_text() == "1♥XX by E, 7 tricks, +520 EW"
    assert view.heading.text() == "Board 2 · Dealer E · Vul NS"
    assert view.table.item(0, 0).foreground().color() == RED
    assert view.table.item(0, 1).foreground().color() != RED
    assert view.table.horizontalHeaderItem(1).foreground().color() == RED  # South: NS vulnerable
    assert view.table.horizontalHeaderItem(0).foreground().color() != RED
    assert [s.letter for s in column_seats(Seat.SOUTH, True)] == ["S", "W", "N", "E"]


def test_fixed_w_n_e_s_columns_option(qtbot):
    view = AuctionView()
    qtbot.addWidget(view)
    view.set_board(Board.numbered(2, DEAL, auction=calls("1H X XX P P P"), result=7))
    view.dealer_first_action.trigger()  # the context-menu option
    assert not view.dealer_first and view.column_letters() == ["W", "N", "E", "S"]
    assert view.cells() == [["", "", "1♥", "X"], ["XX", "Pass", "Pass", "Pass"]]
    assert view.table.item(0, 2).foreground().color() == RED
    assert view.table.horizontalHeaderItem(column_of(Seat.NORTH)).foreground().color() == RED  # NS vulnerable
    assert [column_of(s) for s in Seat] == [1, 2, 3, 0]
    view.set_dealer_first(True)
    assert view.dealer_first_action.isChecked() and view.column_letters() == ["E", "S", "W", "N"]


def test_west_dealer_fills_the_first_column(qtbot):
    view = AuctionView(dealer_first=False)
    qtbot.addWidget(view)
    view.set_board(Board.numbered(4, DEAL, auction=calls("P 1N P 3N P P P")))
    assert view.cells() == [["Pass", "1NT", "Pass", "3NT"], ["Pass", "Pass", "Pass", ""]]
    assert view.summary_text() == "3NT by N"


def test_alerts_explanations_and_notes(qtbot):
    view = AuctionView(dealer_first=False)
    qtbot.addWidget(view)
    strong = Call.parse("2C").annotated(alert=True, explanation="strong, artificial")
    weak = Call.parse("2S").annotated(note=1)
    good = Call.parse("4S").annotated(mark="!")
    board = Board.numbered(1, DEAL, auction=[strong, Call.parse("P"), weak, Call.parse("P"), good] + calls("P P P"))
    board.notes = ["1:Weak two, 6-10"]
    view.set_board(board)
    assert view.cells()[0] == ["", "2♣*", "Pass", "2♠¹"]
    assert view.cells()[1] == ["Pass", "4♠!", "Pass", "Pass"]
    assert view.tooltip_at(0, 1) == "Alerted\nstrong, artificial"
    assert view.tooltip_at(0, 3) == "Note 1: Weak two, 6-10"
    assert view.tooltip_at(1, 1) == "Marked !"
    assert view.tooltip_at(0, 2) == ""
    assert view.table.item(0, 1).font().bold()
    assert view.notes_text() == "2♣ (N): strong, artificial\n1. Weak two, 6-10"
    assert view.summary_text() == "4♠ by S"


def test_note_tags_and_missing_notes():
    board = Board(tags={"Note:2": "Transfer", "Event": "x", "Note:x": "y"}, notes=["not a note", "3: Stayman"])
    assert board_notes(board) == {2: "Transfer", 3: "Stayman"}
    assert call_text(Call.parse("XX").annotated(mark="*")) == "XX*"
    assert call_text(Call.parse("1N").annotated(alert=True, note=12)) == "1NT*¹²"


def test_missing_note_text_and_illegal_auction(qtbot):
    view = AuctionView(dealer_first=False)
    qtbot.addWidget(view)
    board = Board.numbered(1, DEAL, auction=[Call.parse("1H").annotated(note=4), Call.parse("1C")])
    view.set_board(board)
    assert view.tooltip_at(0, 1) == "Note 4 (not in the file)"
    assert "insufficient" in view.notes_text() and not view.notes_label.isHidden()
    assert view.summary_text() == "No contract"


def test_passed_out_no_auction_and_clear(qtbot):
    view = AuctionView()
    qtbot.addWidget(view)
    view.set_board(Board.numbered(3, DEAL, auction=calls("P P P P")))
    assert view.cells() == [["Pass", "Pass", "Pass", "Pass"]] and view.column_letters() == ["S", "W", "N", "E"]
    assert view.summary_text() == "Passed out"
    view.set_board(Board.numbered(3, DEAL, contract=Contract.parse("4H"), declarer=Seat.SOUTH, result=10))
    assert view.cells() == []
    assert view.summary_text() == "No auction recorded · 4♥ by S, 10 tricks, +420 NS"
    view.set_board(Board.numbered(3, DEAL))
    assert view.summary_text() == "No auction recorded"
    view.set_board(None)
    assert view.cells() == [] and view.summary_text() == "" and view.board() is None
    assert view.table.editTriggers() == view.table.EditTrigger.NoEditTriggers
    assert view.table.focusPolicy() == Qt.FocusPolicy.NoFocus


def test_numbered_note_carried_by_the_call(qtbot):
    view = AuctionView(dealer_first=False)
    qtbot.addWidget(view)
    multi = Call.parse("2D").annotated(note=1, explanation="Multi")
    view.set_board(Board.numbered(1, DEAL, auction=[multi] + calls("P P P"), tags={"Note:2": "lead was slow"}))
    assert view.cells()[0][1] == "2♦¹" and view.tooltip_at(0, 1) == "Multi"
    assert view.notes_text() == "1. Multi\n2. lead was slow"


def test_bbo_suit_escapes_are_shown_as_symbols(qtbot):
    view = AuctionView()
    qtbot.addWidget(view)
    transfer = Call.parse("2D").annotated(alert=True, explanation="Jacoby transfer -- 5+ !H; 2-5 !c")
    view.set_board(Board.numbered(1, DEAL, auction=[Call.parse("1N"), Call.parse("P"), transfer] + calls("P 2H P P P")))
    assert view.tooltip_at(0, 2) == "Alerted\nJacoby transfer -- 5+ ♥; 2-5 ♣"
    assert view.notes_text() == "2♦ (S): Jacoby transfer -- 5+ ♥; 2-5 ♣"
    assert view.board().auction[2].explanation.endswith("!c")  # the board keeps the file's text
