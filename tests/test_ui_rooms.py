"""Vugraph rooms and players: a Room column, the players' names at their seats, one room at a time."""

from __future__ import annotations

import random

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import QApplication
from test_ui_support import main_window, make_file

from bridgeview.formats.registry import write_file
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet
from bridgeview.model.cards import Seat
from bridgeview.model.deal import Deal

VUGRAPH = "lin/bridgebots_usbf_sf_14502_vugraph.lin"


def header_texts(view) -> list[str]:
    """The board list's headers in the order the user sees them."""
    model, header = view.model, view.board_list.horizontalHeader()
    by_visual = sorted(range(model.columnCount()), key=header.visualIndex)
    return [model.headerData(c, Qt.Orientation.Horizontal) for c in by_visual]


def test_vugraph_has_a_room_column_and_players_at_their_seats(qtbot, tmp_path, realdata):
    w = main_window(qtbot, tmp_path)
    w.show()
    assert w.open_file(str(realdata / VUGRAPH))
    view = w.current_view()
    assert header_texts(view)[:2] == ["Board", "Room"]
    col = view.model.room_column
    rooms = [view.model.data(view.model.index(i, col)) for i in range(4)]
    assert rooms == ["Open", "Closed", "Open", "Closed"]
    vm = view.diagram.view_model()
    assert vm["players"] == {"S": "Meckstroth", "W": "Levin", "N": "Rodwell", "E": "Weinstein"}
    view.select_board(1)  # the closed room has the other four players
    assert view.diagram.view_model()["players"] == {"S": "Stansby", "W": "Hamman", "N": "Martel", "E": "Mahmood"}


def test_one_room_only_and_stepping_skips_the_other(qtbot, tmp_path, realdata):
    w = main_window(qtbot, tmp_path)
    w.show()
    assert w.open_file(str(realdata / VUGRAPH))
    view = w.current_view()
    w.room_menu.menu.aboutToShow.emit()
    closed = next(a for a in w.room_menu.actions if a.data() == "Closed")
    assert closed.isEnabled()
    closed.trigger()
    shown = [i for i in range(len(view.boards)) if not view.board_list.isRowHidden(i)]
    assert len(shown) == len(view.boards) // 2
    assert all(view.boards[i].tags["Room"] == "Closed" for i in shown)
    assert view.current_board().tags["Room"] == "Closed"
    first = view.current_board().number
    w.act_next.trigger()
    assert view.current_board().tags["Room"] == "Closed" and view.current_board().number == first + 1
    view.board_list.setFocus()
    qtbot.keyClick(view.board_list, Qt.Key.Key_Down)
    assert view.current_board().tags["Room"] == "Closed" and view.current_board().number == first + 2
    both = next(a for a in w.room_menu.actions if a.data() is None)
    both.trigger()
    assert not any(view.board_list.isRowHidden(i) for i in range(len(view.boards)))
    # a click on the Room header cycles: open only, closed only, both
    header = view.board_list.horizontalHeader()
    col = view.model.room_column
    seen = []
    for _ in range(3):
        header.sectionClicked.emit(col)
        shown = {view.boards[i].tags["Room"] for i in range(len(view.boards)) if not view.board_list.isRowHidden(i)}
        seen.append((sorted(shown), view.model.headerData(col, Qt.Orientation.Horizontal)))
    assert seen == [(["Open"], "Open ▾"), (["Closed"], "Closed ▾"), (["Closed", "Open"], "Room")]


def test_files_without_rooms_have_no_room_column(qtbot, tmp_path):
    path, _ = make_file(tmp_path, "pbn", n=4)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    view = w.current_view()
    assert "Room" not in header_texts(view)
    assert view.model.room_column is None
    assert view.diagram.view_model()["players"] == {"N": "", "E": "", "S": "", "W": ""}
    w.room_menu.menu.aboutToShow.emit()
    assert not any(a.isEnabled() for a in w.room_menu.actions)


def test_pbn_player_tags_and_placeholders(qtbot, tmp_path):
    board = Board.numbered(1, Deal.shuffled(random.Random(3)))
    board.tags.update({"North": "Ann", "South": "?", "East": "Eve", "West": "", "Room": "Open"})
    other = board.copy(tags={**board.tags, "Room": "Closed", "North": "Zed"})
    path = tmp_path / "match.pbn"
    write_file(BoardSet([board, other]), path, "pbn")
    w = main_window(qtbot, tmp_path)
    w.resize(1280, 800)
    w.show()
    qtbot.waitExposed(w)
    w.open_file(str(path))
    view = w.current_view()
    assert view.model.room_column is not None
    assert view.diagram.view_model()["players"] == {"N": "Ann", "E": "Eve", "S": "", "W": ""}
    # the names are drawn in the hand headers: North's header differs from the same board without names
    from bridgeview.ui.diagram.export import diagram_image

    def north_header(b) -> bytes:
        view.diagram.set_board(b)
        QApplication.processEvents()
        image = diagram_image(view.diagram, QSize(620, 560), 1.0)
        box = view.diagram.hand_box(Seat.NORTH)
        strip = image.copy(int(box.x()), int(box.y()), int(box.width()), int(box.height() * 0.2))
        return bytes(strip.constBits())

    named = view.current_board()
    view.diagram.resize(620, 560)
    assert north_header(named) != north_header(named.copy(tags={}))
    view.diagram.set_board(named.copy(tags={**named.tags, "North": "?"}))
    assert view.diagram.view_model()["players"]["N"] == ""
