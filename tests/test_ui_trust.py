"""Trust (issue 25): the window never claims an edit the user did not make, never defaults a prompt to
overwriting, never writes a format the user did not ask for, and keeps every edited board consistent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox
from test_ui_editing import DEALS, action, find, new_window, type_line

from bridgeview.formats.registry import get, read_file, write_file
from bridgeview.model.auction import Call
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.cards import Card, Seat
from bridgeview.model.ddtable import DDTable
from bridgeview.ui import dialogs
from bridgeview.ui.analysis import solver as solver_module
from bridgeview.ui.window.saving import filter_for

Button = dialogs.Button
TABLE = DDTable.from_rows([[7, 6, 5, 4, 3]] * 4)


@pytest.fixture
def quick_solver(monkeypatch):
    """The background solve starts at once (the app waits 1.5 s after opening a file)."""
    pytest.importorskip("endplay")
    monkeypatch.setattr(solver_module, "AUTO_DELAY_MS", 10)
    monkeypatch.setattr(solver_module, "SETTLE_MS", 10)
    monkeypatch.setattr(solver_module, "DD_TIMEOUT", 600.0)  # a loaded machine is slow, not a slow deal


def pbn_file(tmp_path: Path, n: int = 2, name: str = "plain.pbn", **kw) -> Path:
    path = tmp_path / name
    write_file(BoardSet([Board.numbered(i + 1, DEALS[i], **kw) for i in range(n)], FileInfo()), str(path), "pbn")
    return path


def shown(view, i: int) -> DDTable | None:
    return view.shown_board(view.model.board(i)).dd


def solved_everything(view) -> bool:
    return all(shown(view, i) is not None and shown(view, i).is_complete for i in range(len(view.boards)))


# -- 2. viewing is not editing ----------------------------------------------------------------
def test_tables_solved_for_display_do_not_make_the_file_modified(qtbot, tmp_path, messages, quick_solver):
    path = pbn_file(tmp_path)
    before = path.read_bytes()
    w = new_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    view = w.current_view()
    qtbot.waitUntil(lambda: solved_everything(view), timeout=120_000)
    qtbot.waitUntil(lambda: "Par" in view.dd_grid.par_text(), timeout=60_000)  # shown, with par
    assert view.dd_grid.table() == shown(view, 0)
    assert not view.is_modified() and w.tabs.tabText(0) == "plain.pbn" and "*" not in w.windowTitle()
    assert all(view.boards[i].dd is None for i in range(2))  # the boards are as the file has them
    assert w.close_tab(0) and messages.calls == []  # closing asks nothing ...
    assert path.read_bytes() == before  # ... and writes nothing


def test_add_solved_tables_is_one_undoable_edit_that_save_keeps(qtbot, tmp_path, messages, quick_solver):
    path = pbn_file(tmp_path)
    w = new_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    view = w.current_view()
    add = action(w, "action_add_solved_tables")
    assert add in w.tools_menu.actions()  # Analysis › Add Solved Tables to the File
    qtbot.waitUntil(lambda: solved_everything(view), timeout=120_000)
    tables = [shown(view, i) for i in range(2)]
    add.trigger()
    assert [view.boards[i].dd for i in range(2)] == tables and view.is_modified()
    assert view.undo_stack.count() == 1 and "solved tables" in view.undo_stack.undoText()
    assert "Added solved double-dummy tables to 2 boards" in w.statusBar().currentMessage()
    action(w, "action_undo").trigger()
    assert [view.boards[i].dd for i in range(2)] == [None, None] and not view.is_modified()
    assert [shown(view, i) for i in range(2)] == tables  # still shown
    action(w, "action_redo").trigger()
    action(w, "action_save").trigger()
    assert [b.dd for b in read_file(path)] == tables and not view.is_modified()
    add.trigger()  # nothing left to add: no empty undo step
    assert view.undo_stack.count() == 1 and "No solved table to add" in w.statusBar().currentMessage()


def test_close_and_quit_prompts_default_to_cancel(qtbot, tmp_path, monkeypatch):
    asked: list[tuple[str, Button]] = []

    def answer(kind, parent, title, text, buttons=Button.Ok, default=Button.NoButton, *rest, **kw):
        asked.append((title, default))
        return Button.Cancel

    monkeypatch.setattr(dialogs, "message", answer)
    w = new_window(qtbot, tmp_path)
    assert w.open_file(str(pbn_file(tmp_path)))
    view = w.current_view()
    view.solver.shutdown()
    view.move_card(DEALS[0].cards(Seat.NORTH)[0], Seat.EAST)
    assert not w.close_tab(0)
    assert not w.close()
    assert asked == [("Unsaved changes", Button.Cancel)] * 2  # Enter keeps the file and the edits
    view.undo_stack.setClean()


@pytest.mark.real_message_box
def test_a_message_box_without_a_default_makes_cancel_the_default(qtbot, monkeypatch):
    defaults: list[Button] = []

    def fake_exec(box) -> int:
        defaults.append(box.standardButton(box.defaultButton()))
        return int(Button.Cancel.value)

    monkeypatch.setattr(QMessageBox, "exec", fake_exec)
    dialogs.message("question", None, "Q", "?", Button.Save | Button.Discard | Button.Cancel)
    dialogs.message("question", None, "Q", "?", Button.Yes | Button.No)
    dialogs.message("question", None, "Q", "?", Button.Save | Button.Cancel, Button.Save)
    assert defaults == [Button.Cancel, Button.No, Button.Save]


# -- 3. generated sets are work ---------------------------------------------------------------
def test_generated_and_pasted_sets_are_modified_until_saved(qtbot, tmp_path, messages):
    w = new_window(qtbot, tmp_path)
    action(w, "action_new").trigger()
    assert not w.current_view().is_modified()  # one empty board: nothing to lose yet
    assert w.close_tab(w.tabs.currentIndex()) and messages.calls == []
    w.editor.generate(4)
    view = w.current_view()
    view.solver.shutdown()
    assert view.is_modified() and w.tabs.tabText(w.tabs.currentIndex()) == "Random deals *"
    messages.answer = Button.Cancel
    assert not w.close_tab(w.tabs.currentIndex())
    assert messages.calls[-1][1:] == ("Unsaved changes", "Random deals has never been saved. Save it?")
    assert w.save_as(str(tmp_path / "random.pbn")) and not view.is_modified()
    assert w.paste_boards(f'[Board "1"]\n[Deal "{DEALS[0].to_pbn()}"]\n')
    pasted = w.current_view()
    pasted.solver.shutdown()
    assert pasted.is_modified() and w.tabs.tabText(w.tabs.currentIndex()).endswith("*")
    pasted.document.core.changed_outside_undo = False


def test_the_generate_dialog_deals_on_enter(qtbot, tmp_path, messages):
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QDialogButtonBox

    w = new_window(qtbot, tmp_path)
    seen: list[bool] = []

    def look() -> None:
        dlg = QApplication.activeModalWidget()
        ok = dlg.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        seen.append(ok.isDefault())
        dlg.count.setValue(3)
        qtbot.keyClick(dlg.count, Qt.Key.Key_Return)  # Enter in a field presses the default button

    QTimer.singleShot(0, look)
    action(w, "action_generate").trigger()
    assert seen == [True]
    view = w.current_view()
    view.solver.shutdown()
    assert len(view.boards) == 3
    view.document.core.changed_outside_undo = False


# -- 4. Save As writes what you asked for --------------------------------------------------------
def test_save_as_of_a_new_set_offers_pbn_at_home_and_a_typed_extension_wins(qtbot, tmp_path, messages, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    asked: list[tuple[str, str]] = []
    answers: list[tuple[str, str]] = []

    def fake(parent, title, directory, filters, selected="", *rest, **kw):
        asked.append((directory, selected))
        return answers.pop(0)

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(fake))
    lin, pbn = get("lin"), get("pbn")
    w = new_window(qtbot, tmp_path)
    w.editor.generate(2)
    w.current_view().solver.shutdown()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    answers.append((str(elsewhere / "typed.pbn"), filter_for(lin)))  # LIN left selected, .pbn typed
    assert w.save_as()
    assert asked[-1] == (os.path.join(str(home), "boards"), filter_for(pbn))  # home, PBN
    assert (elsewhere / "typed.pbn").is_file() and not (elsewhere / "typed.pbn.lin").exists()
    assert read_file(elsewhere / "typed.pbn", "pbn")[0].deal == w.current_view().boards[0].deal
    assert w.current_view().format_name == "pbn"
    answers.append((str(elsewhere / "again"), filter_for(lin)))  # no extension: the filter decides
    assert w.save_as()
    assert asked[-1][0] == os.path.join(str(elsewhere), "typed")  # the folder of the tab's file
    assert (elsewhere / "again.lin").is_file() and w.current_view().format_name == "lin"
    w.editor.generate(1)
    w.current_view().solver.shutdown()
    answers.append(("", ""))
    assert not w.save_as()
    assert asked[-1] == (os.path.join(str(elsewhere), "boards"), filter_for(pbn))  # the last folder used
    w.current_view().document.core.changed_outside_undo = False
    assert w.paste_boards("pn|a,b,c,d|md|3SAKQJHT98D765C432,ST987HAKQDJ9C8765,S6543HJ76DAKQCAKQ,|pg||")
    w.current_view().solver.shutdown()
    answers.append(("", ""))
    assert not w.save_as()
    assert asked[-1][1] == filter_for(pbn)  # pasted LIN text is a new set too: PBN holds everything
    w.current_view().document.core.changed_outside_undo = False


# -- 5. loss warnings only for what the file had --------------------------------------------------
@pytest.mark.parametrize("fmt", ["dup", "bri", "dlm", "lin"])
def test_saving_tables_the_app_solved_into_a_format_without_them_warns_of_nothing(
    qtbot, tmp_path, messages, quick_solver, fmt
):
    w = new_window(qtbot, tmp_path)
    assert w.open_file(str(pbn_file(tmp_path)))
    view = w.current_view()
    qtbot.waitUntil(lambda: solved_everything(view), timeout=120_000)
    out = tmp_path / f"out.{get(fmt).extensions[0]}"
    assert w.save_as(str(out), fmt)
    assert not [c for c in messages.calls if "double-dummy" in c[2]], messages.calls
    assert [b.deal for b in read_file(out, fmt)] == [b.deal for b in view.boards]


def test_tables_the_file_had_are_still_named_as_lost(qtbot, tmp_path, messages):
    w = new_window(qtbot, tmp_path)
    assert w.open_file(str(pbn_file(tmp_path, dd=TABLE)))
    messages.answer = Button.Save
    assert w.save_as(str(tmp_path / "out.dup"), "dup")
    assert "double-dummy results of 2 boards" in messages.calls[-1][2]


# -- 6. edits keep the board consistent ------------------------------------------------------------
PLAYED = Board.numbered(
    1,
    DEALS[0],
    auction=[Call.parse(c) for c in "1N P P P".split()],
    tags={"Ability": "N:87654 E:65432", "Minimax": "3NN", "OptimumScore": "NS 400"},
)


def _played_board() -> Board:
    """Board 1 in 1NT by North with the whole play recorded (each player's lowest legal card) and a result."""
    from bridgeview.model.editing import play_state, with_play

    board = PLAYED.copy()
    while (st := play_state(board)).to_play is not None:
        legal = [c for c in range(52) if st.legal >> c & 1]
        board = with_play(board, [*(board.play or []), Card(legal[0])])
    return board


def test_rotating_a_played_board_drops_the_play_and_result_that_no_longer_fit_in_one_step(qtbot, tmp_path, messages):
    board = _played_board()
    assert len(board.play) == 52 and board.result is not None
    path = tmp_path / "played.pbn"
    write_file(BoardSet([board], FileInfo()), str(path), "pbn")
    w = new_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    view = w.current_view()
    view.solver.shutdown()
    w.editor.act_editor.trigger()
    action(w, "action_rotate").trigger()
    b = view.current_board()
    assert b.play is None and b.result is None and b.claim is None  # the first card is no longer North's
    assert not {"Ability", "Minimax", "OptimumScore"} & set(b.tags)
    assert "made" not in " ".join(str(v) for v in view.diagram.view_model().values())
    status = find(w, type(w.editor.panel.deal_status), "deal_status").text()
    assert "no longer fits" in status and "52 cards" in status and "the result" in status
    assert view.undo_stack.count() == 1
    action(w, "action_undo").trigger()
    assert view.current_board().play == board.play and view.current_board().result == board.result


def test_renumbering_says_boards_with_an_auction_keep_their_dealer(qtbot, tmp_path, messages):
    from PySide6.QtCore import QTimer

    boards = [Board.numbered(i + 1, DEALS[i], auction=[Call.parse("P")] if i == 1 else None) for i in range(3)]
    path = tmp_path / "set.pbn"
    write_file(BoardSet(boards, FileInfo()), str(path), "pbn")
    w = new_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    view = w.current_view()
    view.solver.shutdown()
    seen: list[str] = []

    def answer() -> None:
        dlg = QApplication.activeModalWidget()
        if not hasattr(dlg, "auction_note"):
            dlg.reject()
            return
        seen.append(dlg.auction_note.text())
        assert dlg.keep_auction_dealers.isChecked() and dlg.keep_auction_dealers.isVisibleTo(dlg)
        dlg.first.setValue(5)
        dlg.accept()

    QTimer.singleShot(0, answer)
    action(w, "action_renumber").trigger()
    assert seen and seen[0].startswith("1 board has an auction")
    got = [view.model.board(i) for i in range(3)]
    assert [b.number for b in got] == [5, 6, 7]
    assert got[1].effective_dealer == Seat.EAST  # board 2's dealer: its auction starts with East still
    assert got[0].effective_dealer == Seat.NORTH and got[2].effective_dealer == Seat.SOUTH  # 5 and 7 follow
    view.undo_stack.setClean()


def test_typed_call_card_and_claim_are_cleared_on_another_board_or_tab(qtbot, tmp_path, messages):
    w = new_window(qtbot, tmp_path)
    assert w.open_file(str(pbn_file(tmp_path, n=3)))
    view = w.current_view()
    view.solver.shutdown()
    w.editor.act_editor.trigger()
    panel = w.editor.panel

    def type_everything() -> None:
        panel.call_entry.setText("3N")
        panel.call_alert.setText("strong")
        panel.alert_flag.setChecked(True)
        panel.play_entry.setText("SA")
        panel.claim_tricks.setValue(9)

    def cleared() -> bool:
        return (
            panel.call_entry.text() == ""
            and panel.call_alert.text() == ""
            and not panel.alert_flag.isChecked()
            and panel.play_entry.text() == ""
            and panel.claim_tricks.value() == 0
        )

    type_everything()
    view.select_board(1)
    assert cleared()
    type_everything()
    view.move_card(DEALS[1].cards(Seat.NORTH)[0], Seat.EAST)  # an edit re-shows this board: typing stays
    assert panel.call_entry.text() == "3N"
    action(w, "action_new").trigger()
    assert cleared()
    view.undo_stack.setClean()


# -- 7. the editor at 800x600 ------------------------------------------------------------------------
def _editor_at(qtbot, tmp_path, width: int, height: int):
    from bridgeview.resources import resource

    w = new_window(qtbot, tmp_path)
    w.resize(width, height)
    assert w.open_file(str(resource("sample.pbn")))
    w.current_view().solver.shutdown()
    qtbot.wait(20)
    action(w, "action_editor").trigger()  # F8
    qtbot.waitUntil(lambda: w.editor.dock.width() >= 300 or width > 1000, timeout=5000)
    qtbot.wait(20)
    return w


def test_the_editor_opened_on_a_small_window_gets_the_room_it_needs(qtbot, tmp_path, messages):
    from PySide6.QtWidgets import QLineEdit, QPushButton, QScrollArea

    from bridgeview.ui.boardset.panels import BOARD_LIST, SIDE_PANEL

    w = _editor_at(qtbot, tmp_path, 800, 600)
    view = w.current_view()
    assert not view.panels.panel_shown(BOARD_LIST) and not view.panels.panel_shown(SIDE_PANEL)
    assert w.statusBar().currentMessage() == "Panels hidden (F6, F7)"
    assert min(find(w, QLineEdit, f"hand_{s}").width() for s in "NESW") >= 150
    viewport = w.editor.panel.findChild(QScrollArea).viewport()
    room = viewport.rect()
    for name in [f"{level}{s}" for level in range(1, 8) for s in "CDHSN"] + ["P", "X", "XX"]:
        button = find(w.editor.panel, QPushButton, f"call_{name}")
        corner = button.mapTo(viewport, button.rect().bottomRight())
        assert room.contains(corner) and button.width() >= 40, name  # the whole bidding box, no scrolling
    assert view.diagram.width() >= 380
    view.panels.show_panel(SIDE_PANEL, True)  # F7 brings the panel back
    assert view.panels.panel_shown(SIDE_PANEL)


def test_the_editor_on_a_laptop_screen_leaves_the_panels_alone(qtbot, tmp_path, messages):
    from bridgeview.ui.boardset.panels import BOARD_LIST, SIDE_PANEL

    w = _editor_at(qtbot, tmp_path, 1366, 768)
    view = w.current_view()
    assert view.panels.panel_shown(BOARD_LIST) and view.panels.panel_shown(SIDE_PANEL)
    assert "hidden (F" not in w.statusBar().currentMessage()


# -- 8. every side tab in sight; the problem count opens the Check tab --------------------------------
def _opened_at_1366(qtbot, tmp_path, path: Path):
    """A 1366x768 window showing ``path`` (not solving: these tests look at the layout)."""
    w = new_window(qtbot, tmp_path)
    w.resize(1366, 768)
    assert w.open_file(str(path))
    view = w.current_view()
    view.solver.shutdown()
    qtbot.wait(50)
    return w, view


def test_every_side_tab_shows_at_1366x768_and_the_problem_count_opens_the_check_tab(qtbot, tmp_path, messages):
    from PySide6.QtWidgets import QLabel

    from bridgeview.ui.boardset.panels import SIDE_PANEL

    boards = [Board.numbered(n, DEALS[0] if n in (1, 3) else DEALS[n - 1]) for n in (1, 2, 3)]  # 3 repeats 1
    path = tmp_path / "set.pbn"
    write_file(BoardSet(boards, FileInfo()), str(path), "pbn")
    w, view = _opened_at_1366(qtbot, tmp_path, path)
    bar = view.side_tabs.tabBar()
    names = [bar.tabText(i) for i in range(bar.count())]
    assert names == ["Details", "Auction", "Play", "Traveller", "Check"]
    assert all(bar.tabRect(i).right() < bar.width() for i in range(bar.count())), [bar.tabRect(i) for i in range(5)]
    label = find(w, QLabel, "status_check")
    assert label.text() == "1 problem"
    view.panels.show_panel(SIDE_PANEL, False)  # F7: the panel is out of the way
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QMouseEvent

    press = QMouseEvent(
        QEvent.Type.MouseButtonPress,
        QPointF(5, 5),
        label.mapToGlobal(QPointF(5, 5)),
        Qt.MouseButton.LeftButton,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(label, press)
    assert press.isAccepted()  # else a real click's release goes elsewhere (a test click never shows it)
    qtbot.mouseClick(label, Qt.MouseButton.LeftButton)
    assert view.panels.panel_shown(SIDE_PANEL) and view.side_tabs.currentWidget() is view.check_panel


# -- 9. the diagram holds still while a vugraph is stepped --------------------------------------------
def test_stepping_a_vugraph_never_resizes_the_diagram(qtbot, tmp_path, messages, realdata):
    path = realdata / "lin" / "bridgebots_usbf_sf_14502_vugraph.lin"
    if not path.is_file():
        pytest.skip("no vugraph file")
    w, view = _opened_at_1366(qtbot, tmp_path, path)
    sizes = set()
    commented = 0
    for i in range(4):
        view.select_board(i)
        for step in range(len(view.current_board().play or ()) + 1):
            view.replay.go(step)
            QApplication.processEvents()
            sizes.add((view.diagram.width(), view.diagram.height()))
            commented += bool(view.commentary.text())
    assert commented >= 3  # the file does comment on these boards
    assert len(sizes) == 1, sizes
    bar = view.side_tabs.tabBar()  # the Traveller tab counts each board's tables ("Traveller (2)")
    assert bar.tabText(3) == "Traveller (2)" and bar.tabRect(4).right() < bar.width()  # Check still in sight

    bar.setTabText(3, "Traveller (88)")  # the side panel is made wide enough for any board's count
    assert sum(bar.tabSizeHint(i).width() for i in range(5)) <= view.panels.side_width()


def test_a_layout_kept_from_another_file_still_shows_every_side_tab(qtbot, tmp_path, messages, realdata):
    """Closing a tab keeps its layout for the next file; a vugraph (a wider Traveller tab) opened after a
    plain file widens its side panel so that the Check tab stays in sight."""
    from bridgeview.ui.boardset.panels import SIDE_PANEL

    path = realdata / "lin" / "bridgebots_usbf_sf_14502_vugraph.lin"
    if not path.is_file():
        pytest.skip("no vugraph file")
    w = new_window(qtbot, tmp_path)
    w.resize(1366, 768)
    assert w.open_file(str(pbn_file(tmp_path)))
    w.current_view().solver.shutdown()
    qtbot.wait(50)
    plain = w.current_view().splitter.sizes()[SIDE_PANEL]
    assert w.close_tab(0)
    assert w.open_file(str(path))
    view = w.current_view()
    view.solver.shutdown()
    assert view.panels.side_width() > plain  # the vugraph's tabs need more than the plain file's panel
    qtbot.waitUntil(lambda: view.splitter.sizes()[SIDE_PANEL] >= view.panels.side_width(), timeout=5000)
    bar = view.side_tabs.tabBar()
    assert bar.tabRect(bar.count() - 1).right() < bar.width()


def test_a_file_without_commentary_gives_it_no_room(qtbot, tmp_path, messages):
    w = new_window(qtbot, tmp_path)
    assert w.open_file(str(pbn_file(tmp_path)))
    view = w.current_view()
    view.solver.shutdown()
    assert not view.commentary.isVisible()


# -- 13. small things --------------------------------------------------------------------------------
LONG_NAMES = {"North": "Christopher Wellington-Smythe", "East": "Bartholomew Fotheringay", "South": "Al", "West": "Jo"}


@pytest.mark.parametrize("size", [(240, 216), (320, 260), (420, 340), (560, 460), (760, 600)])
def test_the_to_play_pill_never_hides_the_hcp_label(qtbot, size):
    """The "to play" pill sits on the panel's edge: a hand's header (name, player, "12 HCP") is the same
    whether it is to play or not."""
    from bridgeview.ui.diagram.hand_diagram import HandDiagram

    d = HandDiagram()
    qtbot.addWidget(d)
    d.resize(*size)
    d.set_board(Board.numbered(1, DEALS[0], tags=dict(LONG_NAMES)))
    d.show()
    d.set_play_state(DEALS[0], None, 0, 0, None)
    d.grab()
    idle = d.view_model()["headers"]
    for seat in Seat:
        d.set_play_state(DEALS[0], None, 0, 0, seat)
        d.grab()  # paints
        header = d.view_model()["headers"][seat.letter]
        assert header == {**idle[seat.letter], "pill": True}, (size, seat, header)
        assert header["hcp"] == f"{DEALS[0].hcp(seat)} HCP"


def test_trick_count_badges_explain_themselves(qtbot):
    from bridgeview.ui.diagram.hand_diagram import HandDiagram

    d = HandDiagram()
    qtbot.addWidget(d)
    d.resize(620, 560)
    d.set_board(Board.numbered(1, DEALS[0]))
    d.show()
    d.set_play_state(DEALS[0], None, 0, 0, Seat.EAST)
    east = DEALS[0].cards(Seat.EAST)
    d.set_card_annotations({east[0]: ("9", False), east[1]: ("8", True)})
    d.grab()
    badges = d.badge_rects()
    assert set(badges) == {east[0], east[1]}
    first = d.tooltip_at(badges[east[0]].center())
    name = lambda c: "♠♥♦♣"[3 - c // 13] + ("10" if c % 13 == 8 else "23456789TJQKA"[c % 13])  # noqa: E731
    assert first == f"{name(east[0])} played now: declarer's side takes 9 tricks in all"
    assert d.tooltip_at(badges[east[1]].center()).endswith("8 tricks in all (it costs a trick)")
    assert d.tooltip_at(QPointF(1, 1)) == ""


def test_details_never_breaks_a_tag_name(qtbot, tmp_path, messages):
    tags = {"OptimumScore": "NS 400", "ParContract": "NS 3N", "Minimax": "3NS400", "Event": "Pairs"}
    tags["Annotator"] = "a remark long enough to fill the panel: " + "and on " * 30  # squeezes the names
    w = new_window(qtbot, tmp_path)
    w.resize(800, 600)
    assert w.open_file(str(pbn_file(tmp_path, tags=tags)))
    view = w.current_view()
    view.solver.shutdown()
    qtbot.wait(50)
    doc = view.details.text.document()
    keys = {}
    block = doc.begin()
    while block.isValid():
        if block.text() in tags:
            keys[block.text()] = block.layout().lineCount()
        block = block.next()
    assert keys == dict.fromkeys(tags, 1), keys


def test_a_new_set_says_its_board_count_plainly(qtbot, tmp_path, messages):
    from PySide6.QtWidgets import QLabel

    w = new_window(qtbot, tmp_path)
    action(w, "action_new").trigger()
    labels = [lab.text() for lab in w.statusBar().findChildren(QLabel)]
    assert "1 board" in labels and not any(t.startswith("·") or t.startswith(" ·") for t in labels)


def test_the_editor_writes_10_and_suit_symbols(qtbot, tmp_path, messages):
    from PySide6.QtWidgets import QLabel, QLineEdit

    w = new_window(qtbot, tmp_path)
    action(w, "action_new").trigger()
    type_line(qtbot, find(w, QLineEdit, "hand_N"), "AKQT.AKQ.AKQ.AKQ")
    type_line(qtbot, find(w, QLineEdit, "hand_E"), "T.J98765432..")
    assert find(w, QLabel, "deal_status").text().startswith("in two hands: ♠10")
    assert find(w, QLineEdit, "hand_N").placeholderText() == "AKQ.J109.876.5432"
    w.current_view().model.set_board(0, Board.numbered(1, DEALS[0]))
    w.current_view().select_board(0)
    w.current_view()._show(0)
    north = find(w, QLineEdit, "hand_N").text()
    assert "T" not in north and ("10" in north) == bool(DEALS[0].hands[0] & (1 << 8 | 1 << 21 | 1 << 34 | 1 << 47))


def _board_words(pdf: Path) -> list[tuple[float, float, float, float, str]]:
    """The words of page 1 between the title line and the page number, as (x0, y0, x1, y1, word)."""
    import re
    import subprocess

    out = subprocess.run(
        ["pdftotext", "-bbox", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    page = re.search(r'<page width="([\d.]+)" height="([\d.]+)"', out)
    assert page is not None
    height = float(page.group(2))
    words = [
        (float(a), float(b), float(c), float(d), w)
        for a, b, c, d, w in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', out
        )
    ]
    return [w for w in words if 34 + 26 < w[1] < height - 34 - 18]


@pytest.mark.skipif(__import__("shutil").which("pdftotext") is None, reason="pdftotext (poppler) not installed")
@pytest.mark.parametrize(("per_page", "landscape"), [(1, True), (2, False), (1, False)])
def test_one_and_two_boards_a_page_fill_the_width(tmp_path, per_page, landscape):
    from bridgeview.cli.main import main
    from bridgeview.resources import resource

    out = tmp_path / "records.pdf"
    args = ["print", str(resource("sample.pbn")), "-o", str(out), "--per-page", str(per_page)]
    assert main(args + (["--landscape"] if landscape else [])) == 0
    words = _board_words(out)
    printable = (842 if landscape else 595) - 2 * 34
    span = max(w[2] for w in words) - min(w[0] for w in words)
    assert span > 0.8 * printable, (span, printable)
    assert any(w[4] == "Makeable" for w in words) and any(w[4] == "Par" for w in words)


@pytest.mark.skipif(__import__("shutil").which("pdftotext") is None, reason="pdftotext (poppler) not installed")
@pytest.mark.parametrize("event", ["", "?"])
def test_hand_records_without_an_event_are_headed_by_the_file_name(tmp_path, capsys, event, qtbot, messages):
    import subprocess

    from bridgeview.cli.main import main

    path = pbn_file(tmp_path, name="Tuesday pairs.pbn", tags={"Event": event} if event else {})
    out = tmp_path / "records.pdf"
    assert main(["print", str(path), "-o", str(out), "--no-dd"]) == 0
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert text.splitlines()[0] == "Tuesday pairs" and "Hand records" not in text
    w = new_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    w.current_view().solver.shutdown()
    dialog = w.desk.hand_records()
    qtbot.addWidget(dialog)
    assert dialog.title.text() == "Tuesday pairs"


# -- 11, 12. the command line ----------------------------------------------------------------------------
def _bridgeview(*args: str, env: dict | None = None, cwd: Path | None = None):
    import subprocess
    import sys

    base = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    return subprocess.run(
        [sys.executable, "-m", "bridgeview", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**base, **(env or {})},
        cwd=cwd,
    )


def test_a_mistyped_command_is_a_usage_error_not_a_window(tmp_path):
    path = pbn_file(tmp_path)
    done = _bridgeview("chek", str(path), env={"QT_QPA_PLATFORM": "offscreen"})
    assert (done.returncode, done.stderr) == (2, "bridgeview: unknown command 'chek' (did you mean 'check'?)\n")
    assert done.stdout == ""
    done = _bridgeview("frobnicate", env={"QT_QPA_PLATFORM": "offscreen"})
    assert done.returncode == 2 and done.stderr.startswith("bridgeview: unknown command 'frobnicate' (commands: ")
    done = _bridgeview("missing.pbn", env={"QT_QPA_PLATFORM": "offscreen"}, cwd=tmp_path)
    assert (done.returncode, done.stderr) == (2, "bridgeview: missing.pbn: no such file\n")


def test_without_a_display_the_window_says_so_in_one_line(tmp_path):
    import sys

    if sys.platform in ("darwin", "win32"):
        pytest.skip("there is always a display")
    done = _bridgeview(str(pbn_file(tmp_path)))
    assert done.returncode == 1
    assert done.stderr == (
        "bridgeview: no display to open a window on; the command-line tools work without one: bridgeview --help\n"
    )
    assert _bridgeview("info", str(pbn_file(tmp_path))).returncode == 0  # the tools work without one


# -- 10. the Compare window fits the screen and marks the cards that differ -------------------------------
def test_compare_fits_the_screen_and_marks_the_cards_in_other_hands(qtbot, tmp_path, messages):

    a = pbn_file(tmp_path, n=3, name="records.pbn")
    boards = list(read_file(a))
    deal = boards[1].deal
    card = deal.cards(Seat.EAST)[0]
    swap = deal.cards(Seat.WEST)[0]
    boards[1] = boards[1].touched(deal=deal.with_card(card, Seat.WEST).with_card(swap, Seat.EAST))
    b = tmp_path / "machine.pbn"
    write_file(BoardSet(boards, FileInfo()), str(b), "pbn")
    w = new_window(qtbot, tmp_path)
    assert w.open_file(str(a))
    w.current_view().solver.shutdown()
    dialog = w.desk.compare_with(str(b))
    qtbot.addWidget(dialog)
    room = w.screen().availableGeometry()
    assert dialog.width() <= room.width() and dialog.height() <= room.height() - 40, (dialog.size(), room)
    dialog.show_number(2)
    names = sorted(str(c) for c in (card, swap))
    assert sorted(dialog.diagram_a.view_model()["marked"]) == names
    assert sorted(dialog.diagram_b.view_model()["marked"]) == names
    dialog.show_number(1)
    assert dialog.diagram_a.view_model()["marked"] == [] == dialog.diagram_b.view_model()["marked"]
