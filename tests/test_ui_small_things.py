"""Small things: trick counts as badges, one spelling of the ten, no placeholder tags in Details,
coloured suit symbols in the board list, and exports with the DD table and par."""

from __future__ import annotations

import random

from PySide6.QtCore import QSize
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication
from test_replay_state import played_board
from test_ui_support import main_window

from bridgeview.formats.registry import write_file
from bridgeview.model.auction import Call
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet
from bridgeview.model.cards import Card, Seat, Strain
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal
from bridgeview.ui.boardset.details import board_rows
from bridgeview.ui.card_text import SuitDelegate, rank_label, set_ten_text, suit_runs
from bridgeview.ui.diagram.export import ANALYSIS_HEIGHT, diagram_image
from bridgeview.ui.diagram.hand_diagram import HandDiagram


def test_trick_counts_are_badges_apart_from_the_ranks(qtbot):
    board = played_board(seed=7)
    w = HandDiagram()
    qtbot.addWidget(w)
    w.resize(620, 560)
    w.set_board(board)
    w.set_play_state(board.deal, None, 0, 0, Seat.EAST)
    east = [c for c in range(52) if board.deal.hand(Seat.EAST) >> c & 1]
    w.set_card_annotations({c: (str(i + 1), i == 0) for i, c in enumerate(east)})
    w.show()
    qtbot.waitExposed(w)
    w.repaint()
    qtbot.waitUntil(lambda: len(w.badge_rects()) == len(east))
    badges, cards = w.badge_rects(), w.card_rects()
    assert set(badges) == set(east)
    for c, badge in badges.items():
        card = cards[c]
        assert badge.left() >= card.left() and badge.right() <= card.right() + 1  # inside the card's own slot
        assert badge.height() < card.height()  # small: it does not make the line taller
        for other, rect in cards.items():  # and never over another card's rank
            if other != c and abs(rect.center().y() - card.center().y()) < 1:
                assert not badge.intersects(rect.adjusted(2, 0, -2, 0)), (Card(c), Card(other))


def test_the_ten_is_written_one_way_everywhere(qtbot, tmp_path, messages):
    board = played_board(seed=11)
    path = tmp_path / "tens.pbn"
    write_file(BoardSet([board]), path, "pbn")
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    view = w.current_view()
    tens = [i for i, c in enumerate(board.play) if Card(c).rank_char == "T"]
    assert tens, "the sample play has a ten"
    view.replay.go(tens[0] + 1)
    played = view.replay.trick_table.rows()
    text = " ".join(" ".join(r) for r in played)
    assert "10" in text and "T" not in text.replace("Won", "")  # default "10", as in the diagram
    assert rank_label(int(board.play[tens[0]])) == "10"
    w.act_ten_as_t.setChecked(True)
    text = " ".join(" ".join(r) for r in view.replay.trick_table.rows())
    assert "10" not in text and rank_label(int(board.play[tens[0]])) == "T"
    assert (
        view.diagram.card_menu(int(board.play[tens[0]]))
        .actions()[0]
        .text()
        .endswith(("T to North", "T to East", "T to South", "T to West"))
    )
    assert w.settings.value("view/tenAsT", type=bool)
    w.act_ten_as_t.setChecked(False)
    assert rank_label(int(board.play[tens[0]])) == "10"


def test_placeholder_tags_are_not_shown_in_details():
    board = Board.numbered(1, Deal.shuffled(random.Random(1)))
    board.tags.update({"Event": "?", "Site": "#", "Date": "????.??.??", "North": "Ann", "Scoring": ""})
    rows = dict(board_rows(board, 0, [board]))
    assert rows["North"] == "Ann"
    assert not {"Event", "Site", "Date", "Scoring"} & set(rows)


def test_placeholder_event_site_date_are_not_shown_for_the_file(qtbot, tmp_path):
    path = tmp_path / "p.pbn"
    deal = "N:AKQJ.AKQ.AKQ.AKQ T98.JT9.JT9.JT98 7654.876.876.765 32.5432.5432.432"
    path.write_text(
        '[Event "?"]\n[Site "#"]\n[Date "????.??.??"]\n[Board "1"]\n[Dealer "N"]\n'
        f'[Vulnerable "None"]\n[Deal "{deal}"]\n[North "?"]\n[South "Sue"]\n\n',
        encoding="utf-8",
    )
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    details = w.current_view().details
    keys = [k for k, _ in details.file_rows()]
    assert "format" in keys and not {"event", "site", "date"} & set(keys)
    rows = dict(details.current_board_rows())
    assert rows.get("South") == "Sue" and "North" not in rows and "Event" not in rows
    assert "????" not in details.text.toPlainText()


def test_contract_column_colours_suit_symbols(qtbot, tmp_path):
    runs = suit_runs("4♥X E")
    assert [t for t, _ in runs] == ["4", "♥", "X E"] and runs[1][1] is not None and runs[0][1] is None
    assert suit_runs("3♦ N", four_colour=True)[1][1] != suit_runs("3♦ N")[1][1]
    board = Board.numbered(1, Deal.shuffled(random.Random(2)), auction=[Call.parse(c) for c in "4H P P P".split()])
    path = tmp_path / "h.pbn"
    write_file(BoardSet([board, board.copy(number=2)]), path, "pbn")
    w = main_window(qtbot, tmp_path)
    w.show()
    qtbot.waitExposed(w)
    w.open_file(str(path))
    view = w.current_view()
    from bridgeview.ui.document.board_model import COL_CONTRACT

    assert isinstance(view.board_list.itemDelegateForColumn(COL_CONTRACT), SuitDelegate)
    QApplication.processEvents()
    rect = view.board_list.visualRect(view.model.index(1, COL_CONTRACT))  # an unselected row
    image = view.board_list.viewport().grab(rect).toImage()
    colours = [image.pixelColor(x, y) for x in range(image.width()) for y in range(image.height())]
    reds = sum(1 for c in colours if c.red() > 150 and c.green() < 90 and c.blue() < 90)
    assert reds > 5  # the ♥ is red


def test_export_can_include_the_dd_table_and_par(qtbot, tmp_path, messages):
    table = DDTable.from_rows([[7, 8, 9, 10, 11], [6, 5, 4, 3, 2], [7, 8, 9, 10, 11], [6, 5, 4, 3, 2]])
    board = Board.numbered(3, Deal.shuffled(random.Random(4)), dd=table)
    path = tmp_path / "dd.pbn"
    write_file(BoardSet([board]), path, "pbn")
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    view = w.current_view()
    plain = tmp_path / "plain.png"
    assert w.export_diagram("png", str(plain))
    w.act_export_analysis.setChecked(True)
    with_dd = tmp_path / "dd.png"
    assert w.export_diagram("png", str(with_dd))
    a, b = QImage(str(plain)), QImage(str(with_dd))
    assert b.width() == a.width() and b.height() == a.height() + 2 * ANALYSIS_HEIGHT
    svg = tmp_path / "dd.svg"
    assert w.export_diagram("svg", str(svg))
    text = svg.read_text(encoding="utf-8")
    assert "Double dummy" in text and ">11<" in text.replace(" ", "")
    assert view.dd_grid.table().get(Seat.NORTH, Strain.NOTRUMP) == table.get(Seat.NORTH, Strain.NOTRUMP)
    image = diagram_image(view.diagram, QSize(400, 360), 1.0, analysis=(None, ""))
    assert image.height() == 360 + ANALYSIS_HEIGHT


def teardown_function():
    set_ten_text("10")
