"""Review additions: the Analysis menu, handviewer links and pasting, headers that never overlap,
boards without cards, contracts and commentary with suit symbols."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent, QFont, QFontMetricsF, QGuiApplication, QKeySequence
from test_ui_support import main_window, make_file

from bridgeview.formats.errors import FormatError
from bridgeview.model.auction import Call
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal
from bridgeview.ui import dialogs
from bridgeview.ui.boardset.details import board_rows, suit_symbols
from bridgeview.ui.diagram.ddgrid import DDGrid, contracts_html
from bridgeview.ui.diagram.hand_diagram import HandDiagram, header_layout
from bridgeview.ui.editor.clipboard import boards_from_text, link_for

PBN = "N:AKQJ.T98.765.432 T987.AKQ.J9.8765 6543.J76.AKQ.AKQ 2.5432.T8432.JT9"


def test_analysis_menu_holds_the_current_tabs_solver_actions(qtbot, tmp_path, messages):
    w = main_window(qtbot, tmp_path)
    texts = [a.text() for a in w.tools_menu.actions()]
    assert len(texts) == 1 and not w.tools_menu.actions()[0].isEnabled()  # no tab: a placeholder
    p1, _ = make_file(tmp_path, "deals", n=2)
    sub = tmp_path / "b"
    sub.mkdir()
    p2, _ = make_file(sub, "deals", n=3, seed=9)
    w.open_file(str(p1))
    first = w.current_view()
    assert w.tools_menu.actions() == w.solver_actions()
    solver = first.solver
    assert {solver.solve_all_action, solver.solve_again_action, solver.cancel_action} <= set(w.tools_menu.actions())
    w.open_file(str(p2))
    assert w.current_view().solver.solve_all_action in w.tools_menu.actions()
    assert solver.solve_all_action not in w.tools_menu.actions()
    w.close_tab(w.tabs.currentIndex())
    assert solver.solve_all_action in w.tools_menu.actions()
    assert "&Analysis" in [m.title() for m in w.menuBar().findChildren(type(w.tools_menu))]


def test_copy_link_and_paste_it_back(qtbot, tmp_path, messages):
    p1, boards = make_file(tmp_path, "deals", n=2)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(p1))
    url = w.copy_link()
    assert url.startswith("https://www.bridgebase.com/tools/handviewer.html?lin=")
    assert QGuiApplication.clipboard().text() == url
    assert w.act_paste.shortcut() == QKeySequence(QKeySequence.StandardKey.Paste)
    w.act_paste.trigger()  # Edit > Paste opens the clipboard's link in a new tab
    assert w.tabs.count() == 2 and not messages.calls
    view = w.current_view()
    assert view.path is None and w.tabs.tabText(1) == "Pasted board *"  # work until saved (issue 25)
    assert view.current_board().deal == boards[0].deal and view.current_board().number == 1
    assert view.format_name == "lin"


def test_paste_lin_and_pbn_text_and_garbage(qtbot, tmp_path, messages):
    w = main_window(qtbot, tmp_path)
    lin = "pn|a,b,c,d|md|3SAKQJHT98D765C432,ST987HAKQDJ9C8765,S6543HJ76DAKQCAKQ,|ah|Board 5|sv|n|pg||"
    assert w.paste_boards(lin)
    assert w.current_view().current_board().deal == Deal.from_pbn("S:" + PBN[2:])  # LIN lists South first
    pbn = f'[Board "3"]\n[Dealer "S"]\n[Vulnerable "EW"]\n[Deal "{PBN}"]\n\n[Board "4"]\n[Deal "{PBN}"]\n'
    assert w.paste_boards(pbn)
    assert len(w.current_view().boards) == 2 and w.tabs.tabText(w.tabs.currentIndex()) == "Pasted boards *"
    assert not w.paste_boards("hello world")
    assert messages.calls and messages.calls[-1][0] == "error" and "no board" in messages.calls[-1][2]
    assert not w.paste_boards("https://example.com/page")
    assert w.tabs.count() == 2


def test_boards_from_text_errors_are_format_errors():
    for text in ("", "   ", "just words", "https://www.bridgebase.com/tools/handviewer.html?x=1"):
        with pytest.raises(FormatError):
            boards_from_text(text)
    board = Board.numbered(9, Deal.from_pbn(PBN), auction=[Call.parse(c) for c in "1S P 4S P P P".split()])
    back = boards_from_text(link_for(board))[0]
    assert (
        back.deal == board.deal
        and back.number == 9
        and [str(c) for c in back.auction] == ["1S", "P", "4S", "P", "P", "P"]
    )


def test_dropping_a_link_opens_its_board(qtbot, tmp_path, messages):
    w = main_window(qtbot, tmp_path)
    mime = QMimeData()
    mime.setText(link_for(Board.numbered(2, Deal.from_pbn(PBN))))
    event = QDropEvent(
        QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    w.dropEvent(event)
    assert w.tabs.count() == 1 and w.current_view().current_board().number == 2


@pytest.mark.parametrize("room", [14.0, 18.0, 22.0, 26.0, 31.0])
@pytest.mark.parametrize("px", [3.0, 6.0, 12.0])
def test_to_play_pill_never_overlaps_the_hcp(qapp, room, px):
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(6, round(2.3 * px)))
    measure = QFontMetricsF(font).horizontalAdvance
    name_w, pill_text_w = 9.0 * 3 / px + 6.0, 9.0
    lay = header_layout(name_w, measure, pill_text_w, 17, True, room * px, px)
    hcp_w = measure(lay.hcp_text) / px if lay.hcp_text else 0.0
    if lay.pill is None:  # too narrow for a pill: the HCP stays, the hand's frame marks the player to play
        assert lay.hcp_text or name_w + 1.0 + measure("17") / px > room
    else:
        px0, pw = lay.pill
        assert px0 + pw + (hcp_w + 0.5 if lay.hcp_text else 0.0) <= room or not lay.hcp_text
        if lay.hcp_text:
            assert px0 + pw < room - hcp_w
    wide = header_layout(6.0, measure, 6.0, 17, True, 60 * px, px)
    assert wide.pill_text and wide.hcp_text == "17 HCP"
    assert header_layout(6.0, measure, 6.0, 17, False, room * px, px) == type(wide)(None, False, "17 HCP")


def test_board_without_cards_says_so(qtbot):
    d = HandDiagram()
    qtbot.addWidget(d)
    dd = DDTable.from_rows([[7, 8, 9, 10, 11]] * 4)
    d.set_board(Board.numbered(3, Deal.empty(), dd=dd))
    assert "double-dummy results" in d.view_model()["note"]
    d.set_board(Board.numbered(3, Deal.empty()))
    assert d.view_model()["note"] == "No cards for this board."
    d.set_board(Board.numbered(3, Deal.from_pbn(PBN)))
    assert d.view_model()["note"] is None
    d.resize(500, 450)
    d.grab()  # paints without four empty hands


def test_zdd_board_disables_solve_again(qtbot, tmp_path, messages):
    from bridgeview.formats.registry import write_file

    boards = BoardSet([Board.numbered(n, Deal.empty(), dd=DDTable.from_rows([[n % 14] * 5] * 4)) for n in (1, 2)])
    path = tmp_path / "x.zdd"
    write_file(boards, path, "zdd")
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(path)), messages.calls
    view = w.current_view()
    assert view.diagram.view_model()["note"] and view.dd_grid.table() is not None
    assert not view.solver.solve_again_action.isEnabled()


def test_contracts_with_suit_symbols():
    b = Board.numbered(4, Deal.from_pbn(PBN), auction=[Call.parse(c) for c in "1H X 4H X P P P".split()])
    rows = dict(board_rows(b, 0, [b]))
    assert rows["contract"] == "4♥X by W"  # board 4: West deals and opens
    assert suit_symbols("safety play @H to 7 if he had the @H5; \\S4 !d") == "safety play ♥ to 7 if he had the ♥5; ♠4 ♦"
    assert suit_symbols("mail me@Site.com, @Hamman") == "mail me@Site.com, @Hamman"
    assert contracts_html("Makes: EW 1NT 4S 3H") == (
        "Makes: EW 1NT 4<span style='color:#1b1b1b'>♠</span> 3<span style='color:#c8102e'>♥</span>"
    )


def test_par_line_keeps_plain_text_and_follows_four_colour(qtbot):
    g = DDGrid()
    qtbot.addWidget(g)
    g.set_par("Par EW 420: EW 4S\nMakes: EW 1NT 4S 3H 2D")
    assert g.par_text() == "Par EW 420: EW 4S\nMakes: EW 1NT 4S 3H 2D"
    assert "♦" in g.par.text() and "#c8102e'>♦" in g.par.text()
    g.set_four_colour(True)
    assert "#e07000'>♦" in g.par.text()


def test_save_as_refuses_the_other_kind_of_format(qtbot, tmp_path, messages):
    import test_cribbage_support as support

    crib = tmp_path / "game.crib"
    crib.write_bytes(support.sample_text())
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(crib)), messages.calls
    assert not w.save_as(str(tmp_path / "game.pbn"), "pbn")
    assert "would lose every deal" in messages.calls[-1][2] and not (tmp_path / "game.pbn").exists()
    assert not w.save_as(str(tmp_path / "game.x"), "no-such-format")
    p1, _ = make_file(tmp_path, "pbn", n=2)
    w.open_file(str(p1))
    assert not w.save_as(str(tmp_path / "boards.crib"), "halscrib")
    assert "not bridge boards" in messages.calls[-1][2] and not (tmp_path / "boards.crib").exists()


def test_board_column_fits_big_numbers(qtbot):
    from bridgeview.ui.boardset.view import COLUMN_WIDTHS, DocumentView

    small = DocumentView(BoardSet([Board.numbered(1, Deal.from_pbn(PBN))]))
    big = DocumentView(BoardSet([Board.numbered(n, Deal.from_pbn(PBN)) for n in (9_999_999, 10_485_760)]))
    for v in (small, big):
        qtbot.addWidget(v)
        v.solver.shutdown()
    assert small.board_list.columnWidth(0) == COLUMN_WIDTHS[0]
    fm = big.board_list.fontMetrics()
    assert big.board_list.columnWidth(0) >= fm.horizontalAdvance("10485760") + 12


def test_failed_save_leaves_the_file_untouched(qtbot, tmp_path, messages, monkeypatch):
    path, _ = make_file(tmp_path, "deals", n=3)
    before = path.read_bytes()
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    view = w.current_view()
    board = view.current_board()
    card = next(c for c in range(52) if board.deal.owner(c) == 0)
    view.move_card(card, 1)
    from bridgeview.formats.registry import get

    codec = get("deals")

    def broken(doc, out, options=None):
        out.write(b"half a file")
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(type(codec), "write", lambda self, doc, out, options=None: broken(doc, out, options))
    assert not w.save()
    assert path.read_bytes() == before
    assert messages.calls[-1][0] == "error" and "No space left" in messages.calls[-1][2]
    assert view.is_modified() and [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_closing_the_window_asks_for_each_modified_tab(qtbot, tmp_path, messages):
    p1, _ = make_file(tmp_path, "deals", n=2)
    sub = tmp_path / "b"
    sub.mkdir()
    p2, _ = make_file(sub, "deals", n=2, seed=9)
    w = main_window(qtbot, tmp_path)
    w.show()
    w.open_files([str(p1), str(p2)])
    for view in w.views():
        view.move_card(next(c for c in range(52) if view.current_board().deal.owner(c) == 0), 1)
    messages.answer = dialogs.Button.Cancel
    assert not w.close() and w.isVisible()
    assert [c[1] for c in messages.calls] == ["Unsaved changes"]
    messages.answer = dialogs.Button.Discard
    messages.calls.clear()
    assert w.close()
    assert len(messages.calls) == 2 and all("unsaved changes" in c[2] for c in messages.calls)
    assert path_unchanged(p1) and path_unchanged(p2)


def path_unchanged(path) -> bool:
    from bridgeview.formats.registry import read_file

    return len(read_file(path)) == 2 and read_file(path)[0].deal.is_complete


@pytest.mark.parametrize("size", [(420, 380), (620, 560), (900, 700)])
def test_long_annotated_suit_stays_inside_its_hand(qtbot, size):
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from bridgeview.model.cards import Card, Seat

    d = HandDiagram()
    qtbot.addWidget(d)
    d.resize(*size)
    deal = Deal.from_pbn("N:AKJ.AK.AKQJ.AKQJ - T98765.Q.T98.T98 Q.JT98765432.7.7")  # West: ten hearts
    d.set_board(Board.numbered(1, deal))
    d.set_play_state(deal, None, 0, 0, Seat.WEST)
    west = [c for c in deal.cards(Seat.WEST)]
    d.set_card_annotations({c: ("11", False) if i < 6 else ("10", True) for i, c in enumerate(west)})
    img = QImage(d.size(), QImage.Format.Format_ARGB32)
    p = QPainter(img)
    d.paint(p, QRectF(0, 0, d.width(), d.height()), record_hits=True)
    p.end()
    box = d.hand_box(Seat.WEST)
    rects = d.card_rects()
    assert box is not None and set(rects) >= set(int(c) for c in west)
    for c in west:
        r = rects[int(c)]
        assert box.left() <= r.center().x() <= box.right(), str(Card(c))
        assert r.right() <= box.right() + 1, (str(Card(c)), r.right(), box.right())


def test_grouped_annotations_keep_the_figure_on_the_last_of_a_run():
    from bridgeview.ui.diagram.hand_diagram import grouped_annotations

    a, b = ("11", False), ("10", True)
    assert grouped_annotations([a, a, a, b, None, b, b]) == [None, None, a, b, None, None, b]
