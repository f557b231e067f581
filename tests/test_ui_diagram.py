"""The hand diagram and the DD grid: what they show, by their view models (not pixels)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QImage, QPainter

from bridgeview.model.board import Board
from bridgeview.model.cards import Card, Seat, Strain
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal
from bridgeview.model.play import replay
from bridgeview.model.vulnerability import Vulnerability
from bridgeview.ui.diagram.ddgrid import DDGrid
from bridgeview.ui.diagram.export import diagram_image, save_png, save_svg
from bridgeview.ui.diagram.hand_diagram import HandDiagram

PBN = "N:AKQJ.T98.765.432 T987.AKQ.J9.8765 6543.J76.AKQ.AKQ 2.5432.T8432.JT9"


def board(number: int = 7) -> Board:
    return Board.numbered(number, Deal.from_pbn(PBN))


def paint_once(w: HandDiagram) -> None:
    """Paint to an image the widget's size, recording card positions as the screen does."""
    img = QImage(w.size(), QImage.Format.Format_ARGB32)
    p = QPainter(img)
    try:
        w.paint(p, QRectF(0, 0, w.width(), w.height()), record_hits=True)
    finally:
        p.end()


def test_view_model_of_a_full_deal(qtbot):
    w = HandDiagram()
    qtbot.addWidget(w)
    w.set_board(board(7))
    vm = w.view_model()
    assert vm["board"] == 7 and vm["dealer"] == "S" and vm["vulnerable"] == "All"
    assert vm["hands"]["N"] == {"S": "AKQJ", "H": "T98", "D": "765", "C": "432"}
    assert vm["hands"]["W"]["D"] == "T8432"
    assert vm["hcp"] == {"N": 10, "E": 10, "S": 19, "W": 1}
    assert vm["trick"] == [] and vm["tricks"] == {"NS": 0, "EW": 0}


def test_partial_deal_shows_only_cards_present(qtbot):
    w = HandDiagram()
    qtbot.addWidget(w)
    w.set_board(Board(number=1, deal=Deal.from_pbn("N:AK... - Q... -")))
    vm = w.view_model()
    assert vm["hands"]["N"]["S"] == "AK" and vm["hands"]["S"]["S"] == "Q"
    assert vm["hands"]["E"] == {"S": "", "H": "", "D": "", "C": ""}
    assert vm["hcp"]["N"] == 7


def test_play_state_trick_and_greying(qtbot):
    w = HandDiagram()
    qtbot.addWidget(w)
    b = board(1)
    w.set_board(b)
    # East leads (declarer N in spades): E H-A, S H-J... follow with legal cards
    play = [Card.parse(c) for c in ("HA", "HJ", "H2", "H8", "HK", "H6", "H3", "H9")]
    rp = replay(b.deal, play, Seat.NORTH, Strain.SPADES)
    assert rp.problem is None
    remaining, trick, ns, ew, to_play = rp.position(b.deal, 6)
    w.set_play_state(remaining, trick, ns, ew, to_play, played=frozenset(play[:6]))
    vm = w.view_model()
    assert vm["trick"] == ["HK", "H6"] and vm["trick_leader"] == "E" and vm["trick_winner"] is None
    assert vm["tricks"] == {"NS": 0, "EW": 1}
    assert vm["to_play"] == "W"
    assert vm["hands"]["E"]["H"] == "Q" and vm["greyed"] == []
    w.set_play_state(remaining, trick, ns, ew, to_play, played=frozenset(play[:6]), grey_played=True)
    vm = w.view_model()
    assert vm["hands"]["E"]["H"] == "Q"
    assert set(vm["greyed"]) == {"HA", "HK", "HJ", "H6", "H2", "H8"}
    # after four cards the trick is complete with a winner
    remaining, trick, ns, ew, to_play = rp.position(b.deal, 4)
    w.set_play_state(remaining, trick, ns, ew, to_play)
    assert w.view_model()["trick_winner"] == "E"
    w.set_play_state(None, None, 0, 0, None, claim_text="N claims 10", stop_text="play stops")
    vm = w.view_model()
    assert vm["hands"]["E"]["H"] == "AKQ" and vm["claim"] == "N claims 10" and vm["stop"] == "play stops"


def test_annotations_and_four_colour(qtbot):
    w = HandDiagram()
    qtbot.addWidget(w)
    w.set_board(board())
    w.set_card_annotations({Card.parse("SA"): ("9", False), Card.parse("S2"): ("8", True)})
    assert w.view_model()["annotations"] == {"SA": ("9", False), "S2": ("8", True)}
    assert w.suit_colour(1) == w.suit_colour(2)
    w.set_four_colour(True)
    assert w.view_model()["four_colour"] and w.suit_colour(1) != w.suit_colour(2)
    assert w.suit_colour(0) != w.suit_colour(3)


def test_click_and_move_card(qtbot):
    w = HandDiagram()
    qtbot.addWidget(w)
    w.resize(620, 560)
    w.set_board(board())
    w.set_editable(True)
    paint_once(w)
    north_spades = [h for h in w._hits if h.card == Card.parse("SA")]
    assert north_spades
    centre = north_spades[0].rect.center()
    assert w.card_at(centre) == Card.parse("SA")
    with qtbot.waitSignal(w.cardClicked) as sig:
        qtbot.mouseClick(w, Qt.MouseButton.LeftButton, pos=QPoint(int(centre.x()), int(centre.y())))
    assert sig.args == [Card.parse("SA")]
    menu = w.card_menu(Card.parse("SA"))
    acts = [a for a in menu.actions() if a.text().endswith("West")]
    assert [a.isEnabled() for a in menu.actions()] == [False, True, True, True]
    with qtbot.waitSignal(w.cardMoveRequested) as sig:
        acts[0].trigger()
    assert sig.args == [int(Card.parse("SA")), int(Seat.WEST)]
    assert w.card_at(QPointF(-5, -5)) is None


def test_paints_at_many_sizes_and_exports(qtbot, tmp_path):
    w = HandDiagram()
    qtbot.addWidget(w)
    w.set_board(board())
    for size in (QSize(320, 290), QSize(1600, 1200), QSize(2000, 300)):
        img = diagram_image(w, size, 1.0)
        assert img.width() == size.width() and not img.isNull()
    w.set_board(None)
    assert w.view_model()["board"] is None
    diagram_image(w, QSize(400, 400), 1.0)
    w.set_board(board())
    save_png(w, str(tmp_path / "d.png"), QSize(500, 450))
    assert QImage(str(tmp_path / "d.png")).width() == 1000  # 2x for sharpness
    save_svg(w, str(tmp_path / "d.svg"), QSize(500, 450))
    svg = (tmp_path / "d.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and "♠" in svg


def test_ddgrid_shows_table_highlights_and_unknown(qtbot):
    g = DDGrid()
    qtbot.addWidget(g)
    rows = [[7, 8, 9, 10, 11], [6, 5, 4, 3, 2], [7, 8, 9, 10, 11], [6, 5, 4, 3, None]]
    t = DDTable.from_rows(rows)
    g.set_table(t, "from the file")
    assert g.table() == t
    assert g.cell_text(Seat.NORTH, Strain.NOTRUMP) == "11"
    assert g.cell_text(Seat.SOUTH, Strain.CLUBS) == "7"
    assert g.is_highlighted(Seat.NORTH, Strain.CLUBS) and not g.is_highlighted(Seat.EAST, Strain.CLUBS)
    assert g.cell_text(Seat.WEST, Strain.NOTRUMP) == "—"
    assert g.note.text() == "from the file"
    g.set_par("Par: 4S by N, +620")
    assert g.par_text() == "Par: 4S by N, +620"
    g.set_table(None)
    assert g.table() is None and g.cell_text(Seat.NORTH, Strain.NOTRUMP) == "—"
    assert "No double-dummy" in g.note.text()


def test_vulnerability_drawn_from_board(qtbot):
    w = HandDiagram()
    qtbot.addWidget(w)
    b = board(1)
    b.vulnerability = Vulnerability.EW
    b.dealer = Seat.WEST
    w.set_board(b)
    vm = w.view_model()
    assert vm["vulnerable"] == "EW" and vm["dealer"] == "W"
