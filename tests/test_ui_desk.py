"""The dealing desk in the GUI (issue 11): the Check tab, board-list markers and status bar,
File › Compare With…, the hand records dialog, and the dealing machine (DUP) settings."""

from __future__ import annotations

import random
import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from test_ui_support import main_window

from bridgeview.formats.registry import read_file, write_file
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, DupControl, FileInfo
from bridgeview.model.cards import Card, Seat
from bridgeview.model.deal import Deal
from bridgeview.resources import resource
from bridgeview.ui import dialogs
from bridgeview.ui.desk import menu as desk_menu
from bridgeview.ui.document.board_model import COL_PROBLEM


def a_set(n: int = 16, seed: int = 4) -> BoardSet:
    rng = random.Random(seed)
    return BoardSet([Board.numbered(i + 1, Deal.shuffled(rng)) for i in range(n)], FileInfo())


def rotated(deal: Deal, k: int = 1) -> Deal:
    return Deal(tuple(deal.hands[(s - k) % 4] for s in range(4)))


def opened(qtbot, tmp_path, boards: BoardSet, name: str = "set.pbn"):
    path = tmp_path / name
    write_file(boards, path)
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    return w, w.current_view()


def tooltip(view, row: int):
    return view.model.data(view.model.index(row, COL_PROBLEM), Qt.ItemDataRole.ToolTipRole)


# -- Check tab, markers, status bar ----------------------------------------------------------
def test_a_clean_set_says_ready_to_deal(qtbot, tmp_path, messages):
    w, view = opened(qtbot, tmp_path, a_set())
    assert view.check_panel.list.count() == 0
    assert view.check_panel.summary.text() == "16 boards, ready to deal"
    assert w.status_check.text() == "16 boards, ready to deal"
    assert all(tooltip(view, r) is None for r in range(16))


def test_the_check_tab_lists_problems_marks_boards_and_goes_to_them(qtbot, tmp_path, messages):
    boards = a_set()
    boards[9] = boards[9].copy(deal=rotated(boards[2].deal))
    del boards[13]  # board 14 missing: 15 follows 13
    w, view = opened(qtbot, tmp_path, boards)
    panel = view.check_panel
    texts = [panel.list.item(i).text() for i in range(panel.list.count())]
    assert texts == [
        "board 10: same deal as board 3, hands rotated 90° clockwise",
        "board 15: follows board 13: board 14 is missing from the run",
    ]
    assert w.status_check.text() == "2 problems"
    assert view.model.data(view.model.index(9, COL_PROBLEM)) == "⚠"
    assert "rotated 90° clockwise" in tooltip(view, 9)
    assert "board 14 is missing" in tooltip(view, 13)
    assert tooltip(view, 0) is None
    item = panel.list.item(1)
    panel.list.itemClicked.emit(item)
    assert view.current_index() == 13 and view.current_board().number == 15


def test_every_validate_problem_is_in_the_check_tab(qtbot, tmp_path, messages, realdata):
    from bridgeview.check.validate import validate

    path = realdata / "pbn" / "pbnj_veugen_errors_20.pbn"
    if not path.is_file():
        pytest.skip("no veugen file")
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    panel = w.current_view().check_panel
    texts = [panel.list.item(i).text() for i in range(panel.list.count())]
    for p in validate(read_file(path)):
        assert any(p.message in t for t in texts), p
    marked = {i for i in range(len(w.current_view().boards)) if tooltip(w.current_view(), i)}
    errors = sum(1 for issue in panel.issues if issue.is_error)  # warnings are listed but do not stop dealing
    assert 0 < errors < len(texts) and len(marked) > 0 and w.status_check.text() == f"{errors} problems"


def test_an_edit_is_checked_again_and_undo_clears_it(qtbot, tmp_path, messages):
    boards = a_set()
    w, view = opened(qtbot, tmp_path, boards)
    view.select_board(4)
    spade_ace = int(Card.parse("SA"))
    owner = view.current_board().deal.owner(spade_ace)
    view.move_card(spade_ace, (owner + 1) % 4)  # one hand 12 cards, another 14
    qtbot.waitUntil(lambda: w.status_check.text() != "16 boards, ready to deal", timeout=3000)
    assert "board 5" in view.check_panel.list.item(0).text()
    assert tooltip(view, 4)
    view.undo_stack.undo()
    qtbot.waitUntil(lambda: w.status_check.text() == "16 boards, ready to deal", timeout=3000)
    assert tooltip(view, 4) is None


# -- Compare With… ------------------------------------------------------------------------
def test_compare_with_shows_both_sets_and_both_diagrams(qtbot, tmp_path, messages):
    boards = a_set()
    other = BoardSet([b.copy() for b in boards], FileInfo())
    other[4] = other[4].copy(deal=rotated(boards[4].deal, 2))
    del other[10]
    w, view = opened(qtbot, tmp_path, boards)
    path = tmp_path / "machine.pbn"
    write_file(other, path, "pbn")
    dlg = w.desk.compare_with(str(path))
    qtbot.addWidget(dlg)
    assert dlg.summary.text() == "2 of 16 boards differ"
    assert dlg.left.rowCount() == 16 and dlg.right.rowCount() == 15
    turned = "machine.pbn has set.pbn's hands turned 180°"
    assert dlg.left.item(4, 1).text() == "⚠" and dlg.left.item(4, 2).text() == turned
    assert dlg.left.item(0, 1).text() == ""
    # the first differing board is shown on both sides
    assert dlg.diagram_a.board().number == 5 and dlg.diagram_b.board().number == 5
    assert dlg.detail.text() == f"board 5: {turned}"
    dlg.left.setCurrentCell(10, 0)  # board 11: only on the left
    assert dlg.diagram_a.board().number == 11 and dlg.diagram_b.board() is None
    assert dlg.caption_b.text() == "machine.pbn: no board 11"
    assert dlg.detail.text() == "board 11: only in set.pbn"
    dlg.right.setCurrentCell(0, 0)
    assert dlg.left.currentRow() == 0 and dlg.diagram_a.board().number == 1


def test_compare_with_an_unreadable_file_is_a_dialog(qtbot, tmp_path, messages):
    w, view = opened(qtbot, tmp_path, a_set())
    bad = tmp_path / "bad.dup"
    bad.write_bytes(b"x" * 100)
    assert w.desk.compare_with(str(bad)) is None
    assert messages.calls and messages.calls[-1][0] == "error"


def test_compare_with_asks_for_the_file(qtbot, tmp_path, messages, monkeypatch):
    """The contract: File › Compare With… is the QAction ``action_compare``, asking through getOpenFileName."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QFileDialog

    w, view = opened(qtbot, tmp_path, a_set())
    asked: list[str] = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: asked.append(a[1]) or ("", ""))
    action = w.findChild(QAction, "action_compare")
    assert action is w.desk.act_compare and action in w.menuBar().actions()[0].menu().actions()
    assert action.isEnabled()
    action.trigger()
    assert asked == ["Compare with"] and w.desk.compare_dialog is None
    other = tmp_path / "other.pbn"
    write_file(a_set(), other)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(other), ""))
    action.trigger()
    assert w.desk.compare_dialog.isVisible() and "Same deals" in w.desk.compare_dialog.summary.text()


# -- hand records --------------------------------------------------------------------------
def test_hand_records_dialog_writes_the_pdf(qtbot, tmp_path, messages, monkeypatch):
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(resource("sample.pbn")))
    dlg = w.desk.hand_records(pdf=True)
    qtbot.addWidget(dlg)
    assert dlg.title.text() == "bridgeview sample boards · bridgeview sample · 2024.06.07"
    dlg.title.setText("Monday pairs")
    dlg.per_page.setCurrentText("9")
    out = tmp_path / "records"
    monkeypatch.setattr(dialogs, "get_save_file", lambda *a: (str(out), ""))
    assert dlg.save_pdf()
    pdf = tmp_path / "records.pdf"
    assert pdf.is_file() and len(re.findall(rb"/Type\s*/Page(?![s\w])", pdf.read_bytes())) == 2
    assert "2 pages" in w.statusBar().currentMessage()


def test_hand_records_print_preview_paints_every_page(qtbot, tmp_path, messages):
    """The real preview dialog paints after Python collected everything it can: a printer held by
    a local of ``preview()`` was freed under the open dialog, and its first paint killed the app."""
    import gc

    from PySide6.QtPrintSupport import QPrinter, QPrintPreviewDialog, QPrintPreviewWidget
    from PySide6.QtWidgets import QPushButton

    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(resource("sample.pbn")))
    w.show()
    action = w.findChild(QAction, "action_print")
    assert action is w.desk.act_print
    action.trigger()
    dlg = w.desk.hand_records_dialog
    qtbot.addWidget(dlg)
    dlg.per_page.setCurrentText("6")
    button = dlg.findChild(QPushButton, "print_preview")
    assert button is dlg.print_button and button.isDefault()
    for _ in range(2):  # a second preview replaces the first: neither may lose its printer
        button.click()
        gc.collect()
        preview = dlg.findChildren(QPrintPreviewDialog)[-1]
        assert preview.isVisible()
        preview.grab()  # paints the pages on the printer now
        qtbot.wait(50)
        pages = preview.findChild(QPrintPreviewWidget)
        assert pages.pageCount() == 3  # 16 boards, 6 a page
        preview.close()
        qtbot.wait(10)
    printer = QPrinter()
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    assert dlg.preview_dialog.painter.paint(printer) == 3


def test_hand_records_that_cannot_be_written_are_a_dialog(qtbot, tmp_path, messages):
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(resource("sample.pbn")))
    dlg = w.desk.hand_records(pdf=True)
    qtbot.addWidget(dlg)
    assert not dlg.save_pdf(str(tmp_path / "missing" / "x.pdf"))
    assert messages.calls[-1][0] == "error" and "Cannot write" in messages.calls[-1][2]


# -- dealing machine settings --------------------------------------------------------------
def test_dup_settings_are_shown_edited_kept_on_save_and_undone(qtbot, tmp_path, messages):
    boards = a_set(8)
    boards.info.dup = DupControl(random=True, backwards=False, first_board=1, copies=0, last_board=8)
    w, view = opened(qtbot, tmp_path, boards, "set.dup")
    assert "0 copies" in w.status_check.text() or w.status_check.text() == "1 problem"
    dlg = w.desk.dup_settings()
    qtbot.addWidget(dlg)
    assert dlg.random.isChecked() and not dlg.backwards.isChecked() and dlg.copies.value() == 0
    assert dlg.last.text().startswith("8 ")
    dlg.copies.setValue(2)
    dlg.backwards.setChecked(True)
    dlg.first.setValue(17)
    assert dlg.last.text().startswith("24 ")
    dlg.accept()
    assert view.boards.info.dup == DupControl(True, True, 17, 2, 24)
    assert [view.model.board(i).number for i in range(8)] == list(range(17, 25))
    assert view.model.board(0).effective_dealer == Seat.NORTH  # 17 is dealt by North, vulnerability follows
    assert view.is_modified()
    qtbot.waitUntil(lambda: w.status_check.text() == "8 boards, ready to deal", timeout=3000)
    out = tmp_path / "saved.dup"
    assert w.save_as(str(out), "dup")
    back = read_file(out)
    assert back.info.dup == DupControl(True, True, 17, 2, 24) and back[0].number == 17
    view.undo_stack.undo()
    assert view.boards.info.dup.copies == 0 and view.model.board(0).number == 1


def test_dup_settings_close_gaps_in_the_numbering(qtbot, tmp_path, messages):
    boards = a_set(6)
    del boards[2]  # 1 2 4 5 6: DUP cannot hold it
    w, view = opened(qtbot, tmp_path, boards)
    assert not w.save_as(str(tmp_path / "x.dup"), "dup")
    assert "board 4 follows board 2" in messages.calls[-1][2] and "Dealing Machine Settings" in messages.calls[-1][2]
    dlg = w.desk.dup_settings()
    qtbot.addWidget(dlg)
    dlg.accept()
    assert [view.model.board(i).number for i in range(5)] == [1, 2, 3, 4, 5]
    assert w.save_as(str(tmp_path / "x.dup"), "dup")
    assert [b.number for b in read_file(tmp_path / "x.dup")] == [1, 2, 3, 4, 5]


def test_huge_sets_are_not_compared_or_printed_in_a_window(qtbot, tmp_path, messages, monkeypatch):
    w, view = opened(qtbot, tmp_path, a_set(4))
    other = tmp_path / "other.pbn"
    write_file(a_set(4), other)
    monkeypatch.setattr(desk_menu, "COMPARE_LIMIT", 3)
    monkeypatch.setattr(desk_menu, "PRINT_LIMIT", 3)
    assert w.desk.compare_with(str(other)) is None and "bridgeview diff" in messages.calls[-1][2]
    assert w.desk.hand_records() is None and "too many to print" in messages.calls[-1][2]
