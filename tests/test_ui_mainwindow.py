"""The main window: opening files of every format, navigation, edits with undo, recent files, drops."""

from __future__ import annotations

import pytest
from conftest import realdata_files
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from test_ui_support import UI_FORMATS, main_window, make_boards, make_file, settings

from bridgeview.model.board import Board
from bridgeview.model.boardset import FileInfo, LazyBoardSet
from bridgeview.model.cards import DISPLAY_SUITS, Card, Seat, Suit
from bridgeview.model.deal import Deal
from bridgeview.model.vulnerability import Vulnerability
from bridgeview.ui import dialogs
from bridgeview.ui.boardset.view import DocumentView
from bridgeview.ui.plaintext import tooltip_text


def hands_of(deal: Deal) -> dict:
    return {Seat(s).letter: {Suit(su).letter: deal.suit_text(s, su) for su in DISPLAY_SUITS} for s in range(4)}


@pytest.mark.parametrize("fmt", UI_FORMATS)
def test_open_each_format_shows_first_board(qtbot, tmp_path, messages, fmt):
    path, boards = make_file(tmp_path, fmt, n=4)
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(path)), messages.calls
    view = w.current_view()
    assert isinstance(view, DocumentView)
    assert view.model.rowCount() == 4
    vm = view.diagram.view_model()
    assert vm["hands"] == hands_of(boards[0].deal)
    assert vm["board"] == 1
    if boards[0].dd is not None:
        assert view.dd_grid.table() == boards[0].dd
    assert "4 boards" in w.status_format.text()
    labels = dict(view.details.file_rows())
    assert labels["boards"] == "4" and "checksum" in labels
    assert ("record", "1 of 4") in view.details.current_board_rows()
    assert not messages.calls


@pytest.mark.parametrize(
    "path",
    realdata_files("bri") + realdata_files("dup") + realdata_files("lin") + realdata_files("pbn", "dealconvert*"),
    ids=lambda p: p.name,
)
def test_open_real_files(qtbot, tmp_path, messages, path):
    w = main_window(qtbot, tmp_path)
    try:
        from bridgeview.formats.registry import detect

        detect(path)
    except Exception:
        pytest.skip("no codec for this file yet")
    assert w.open_file(str(path)), messages.calls
    view = w.current_view()
    assert view.current_board() is not None
    assert view.diagram.view_model()["board"] == view.current_board().number


def test_keyboard_navigation_and_goto(qtbot, tmp_path, messages, monkeypatch):
    path, _ = make_file(tmp_path, "deals", n=60)
    w = main_window(qtbot, tmp_path)
    w.show()
    w.open_file(str(path))
    view = w.current_view()
    view.board_list.setFocus()
    seen = []
    view.currentBoardChanged.connect(seen.append)
    qtbot.keyClick(view.board_list, Qt.Key.Key_Down)
    assert view.current_index() == 1 and seen == [1]
    qtbot.keyClick(view.board_list, Qt.Key.Key_PageDown)
    assert view.current_index() > 2
    qtbot.keyClick(view.board_list, Qt.Key.Key_PageUp)
    qtbot.keyClick(view.board_list, Qt.Key.Key_Up)
    assert view.current_index() == 0
    monkeypatch.setattr(dialogs, "get_int", lambda *a: 42)
    w.act_goto.trigger()
    assert view.current_index() == 41 and view.current_board().number == 42
    assert view.diagram.view_model()["board"] == 42
    assert "board 42" in w.status_board.text()
    monkeypatch.setattr(dialogs, "get_int", lambda *a: 999)
    assert not w.go_to_board()
    assert messages.calls and "no board 999" in messages.calls[-1][2]
    w.act_next.trigger()
    assert view.current_index() == 42
    w.act_last.trigger()
    assert view.current_index() == 59
    w.act_first.trigger()
    assert view.current_index() == 0


def test_undo_redo_card_move_marks_modified(qtbot, tmp_path, messages):
    path, boards = make_file(tmp_path, "deals", n=3)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    view = w.current_view()
    b0 = boards[0]
    card = b0.deal.cards(Seat.NORTH)[0]
    view.move_card(card, Seat.WEST)
    vm = view.diagram.view_model()
    assert str(card)[1] not in vm["hands"]["N"][str(card)[0]]
    assert str(card)[1] in vm["hands"]["W"][str(card)[0]]
    assert view.is_modified() and w.tabs.tabText(0).endswith("*")
    assert view.current_board().source is None
    assert "⚠" == view.model.data(view.model.index(0, 9))  # 14 and 12 cards now
    assert w.act_undo.isEnabled()
    w.act_undo.trigger()
    assert view.diagram.view_model()["hands"] == hands_of(b0.deal)
    assert not view.is_modified() and not w.tabs.tabText(0).endswith("*")
    w.act_redo.trigger()
    assert view.current_board().deal.owner(card) == Seat.WEST
    # closing asks; Cancel keeps the tab, Discard closes it
    messages.answer = dialogs.Button.Cancel
    assert not w.close_tab(0) and w.tabs.count() == 1
    messages.answer = dialogs.Button.Discard
    assert w.close_tab(0) and w.tabs.count() == 0


def test_card_move_from_diagram_signal(qtbot, tmp_path, messages):
    path, boards = make_file(tmp_path, "deals", n=2)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    view = w.current_view()
    card = boards[0].deal.cards(Seat.EAST)[0]
    view.diagram.cardMoveRequested.emit(int(card), int(Seat.SOUTH))
    assert view.current_board().deal.owner(card) == Seat.SOUTH
    assert view.undo_stack.count() == 1 and "Move" in view.undo_stack.undoText()


def test_edit_board_header_undoable(qtbot, tmp_path, messages, monkeypatch):
    path, _ = make_file(tmp_path, "deals", n=2)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    view = w.current_view()
    monkeypatch.setattr(dialogs, "edit_board_header", lambda *a: (9, Seat.EAST, Vulnerability.ALL))
    assert w.edit_header()
    vm = view.diagram.view_model()
    assert (vm["board"], vm["dealer"], vm["vulnerable"]) == (9, "E", "All")
    assert view.model.data(view.model.index(0, 0)) == "9"
    w.act_undo.trigger()
    assert view.diagram.view_model()["board"] == 1


def test_header_dialog_values(qtbot):
    from bridgeview.ui.dialogs import BoardHeaderDialog

    d = BoardHeaderDialog(None, 3, Seat.SOUTH, Vulnerability.EW)
    qtbot.addWidget(d)
    assert d.values() == (3, Seat.SOUTH, Vulnerability.EW)
    d.number.setValue(6)
    d.follow.setChecked(True)
    assert d.values() == (6, Seat.EAST, Vulnerability.EW)
    d.number.setValue(7)
    assert d.values() == (7, Seat.SOUTH, Vulnerability.ALL)


def test_broken_file_error_dialog(qtbot, tmp_path, messages):
    bad = tmp_path / "broken.zrd"
    bad.write_bytes(b"\x01\x02\x03")
    w = main_window(qtbot, tmp_path)
    assert not w.open_file(str(bad))
    assert messages.calls and messages.calls[0][0] == "error"
    assert "broken.zrd" in messages.calls[0][2]
    assert w.tabs.count() == 0
    assert not w.open_file(str(tmp_path / "missing.pbn"))
    assert len(messages.calls) == 2


def test_drop_files_opens_them(qtbot, tmp_path, messages):
    p1, _ = make_file(tmp_path, "deals", n=2)
    sub = tmp_path / "b"
    sub.mkdir()
    p2, _ = make_file(sub, "deals", n=3, seed=9)
    w = main_window(qtbot, tmp_path)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p1)), QUrl.fromLocalFile(str(p2))])
    event = QDropEvent(
        QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    w.dropEvent(event)
    assert w.tabs.count() == 2
    assert [len(v.boards) for v in w.views()] == [2, 3]
    w.open_file(str(p1))  # already open: its tab is shown, not a second one
    assert w.tabs.count() == 2 and w.tabs.currentIndex() == 0


def test_recent_files_persist(qtbot, tmp_path, messages):
    p1, _ = make_file(tmp_path, "deals", n=2)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(p1))
    w.close()
    from bridgeview.ui.mainwindow import MainWindow

    w2 = MainWindow(settings(tmp_path))
    qtbot.addWidget(w2)
    assert w2.recent_files() == [str(p1)]
    w2._fill_recent_menu()
    acts = [a for a in w2.recent_menu.actions() if tooltip_text(a.toolTip()) == str(p1)]
    assert acts
    acts[0].trigger()
    assert w2.tabs.count() == 1 and w2.current_view().path == str(p1)


def test_four_colour_setting(qtbot, tmp_path, messages):
    p1, _ = make_file(tmp_path, "deals", n=2)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(p1))
    w.act_four_colour.setChecked(True)
    assert w.current_view().diagram.view_model()["four_colour"]
    header = w.current_view().dd_grid.grid.horizontalHeaderItem(4)  # clubs
    assert header.foreground().color().name() == "#11803a"
    assert w.settings.value("view/fourColour", type=bool)


def test_export_and_copy(qtbot, tmp_path, messages, monkeypatch):
    p1, boards = make_file(tmp_path, "deals", n=2)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(p1))
    assert w.export_diagram("png", str(tmp_path / "x.png"))
    assert w.export_diagram("svg", str(tmp_path / "x.svg"))
    assert (tmp_path / "x.png").stat().st_size > 1000 and "<svg" in (tmp_path / "x.svg").read_text()
    monkeypatch.setattr(dialogs, "get_save_file", lambda *a: (str(tmp_path / "y"), ""))
    assert w.export_diagram("png")
    assert (tmp_path / "y.png").exists()
    text = w.copy_pbn()
    from PySide6.QtGui import QGuiApplication

    assert QGuiApplication.clipboard().text() == text
    assert boards[0].deal.to_pbn()[2:] in text.replace("\r", "") or "[Deal" in text


def test_huge_lazy_set_is_cheap(qtbot, tmp_path, messages):
    decoded: list[int] = []
    deal = make_boards(1)[0].deal

    def decode(i: int) -> Board:
        decoded.append(i)
        return Board.numbered(i + 1, deal)

    n = 10_485_760
    boards = LazyBoardSet(n, decode, FileInfo(format="zrd", record_size=23))
    view = DocumentView(boards, None)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.wait(10)
    assert view.model.rowCount() == n
    assert len(set(decoded)) < 200
    decoded.clear()
    assert view.go_to_number(10_000_000)
    qtbot.wait(10)
    assert view.current_index() == 9_999_999
    assert view.diagram.view_model()["board"] == 10_000_000
    assert len(set(decoded)) < 200
    assert ("record offset", "229999977 (0xDB58569)") in view.details.current_board_rows()


def test_cribbage_document_opens_in_its_view(qtbot, tmp_path, messages):
    import test_cribbage_support as support

    files = [tmp_path / "game.crib"]
    files[0].write_bytes(support.sample_text())
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(files[0])), messages.calls
    assert type(w.tabs.currentWidget()).__name__ == "CribbageView"
    assert "HALSCRIB" in w.status_format.text()
    out = tmp_path / "copy.crib"
    assert w.save_as(str(out), "halscrib"), messages.calls
    from bridgeview.formats.registry import read_file

    assert read_file(out).deals == read_file(files[0]).deals


def test_card_parse_used_in_tests_is_sane():
    assert str(Card.parse("SA")) == "SA"


def test_window_layout_is_remembered(qtbot, tmp_path, messages):
    p1, _ = make_file(tmp_path, "deals", n=2)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(p1))
    w.current_view().splitter.setSizes([300, 600, 300])
    w.close()
    s = settings(tmp_path)
    for key in ("layout/geometry", "layout/windowState", "layout/documentSplitter"):
        assert s.value(key) is not None, key
    from bridgeview.ui.mainwindow import MainWindow

    w2 = MainWindow(settings(tmp_path))
    qtbot.addWidget(w2)
    w2.open_file(str(p1))
    sizes = w2.current_view().splitter.sizes()
    assert len(sizes) == 3 and all(x > 0 for x in sizes)


def test_arrow_keys_reach_the_list_from_the_diagram(qtbot, tmp_path, messages):
    path, _ = make_file(tmp_path, "deals", n=5)
    w = main_window(qtbot, tmp_path)
    w.show()
    w.open_file(str(path))
    view = w.current_view()
    view.diagram.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    view.diagram.setFocus()
    qtbot.keyClick(view.diagram, Qt.Key.Key_Down)
    assert view.current_index() == 1


def test_reader_warnings_appear_in_details(qtbot, tmp_path, messages):
    boards = make_boards(2)
    boards.problems.append((1, 7, "odd tag ignored"))
    from bridgeview.ui.boardset.details import DetailsPanel

    path, _ = make_file(tmp_path, "deals", n=2)
    boards.info.format = "deals"
    panel = DetailsPanel(boards, str(path))
    qtbot.addWidget(panel)
    assert ("warning", "line 7: odd tag ignored") in panel.file_rows()
