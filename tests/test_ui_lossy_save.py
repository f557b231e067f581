"""After a lossy save the tabs show each file as it is: Save As opens the new file beside the untouched
original; a lossy save over the tab's own file re-opens it in place."""

from __future__ import annotations

from test_replay_state import played_board
from test_ui_support import main_window

from bridgeview.formats.registry import read_file, write_file
from bridgeview.model.auction import Call
from bridgeview.model.boardset import BoardSet
from bridgeview.ui import dialogs


def test_lossy_save_as_opens_the_new_file_beside_the_original(qtbot, tmp_path, messages):
    src = tmp_path / "match.pbn"
    write_file(BoardSet([played_board(seed=2), played_board(seed=3, number=2)]), src, "pbn")
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(src))
    original = w.current_view()
    messages.answer = dialogs.Button.Save
    out = tmp_path / "match.bri"
    assert w.save_as(str(out), "bri")
    assert "Saving will lose" in messages.calls[-1][2]
    # the original tab is untouched: its own file, format and everything it showed
    assert w.tabs.count() == 2
    assert original.path == str(src) and original.format_name == "pbn"
    assert w.tabs.tabText(w.tabs.indexOf(original)) == "match.pbn"
    assert original.current_board().auction and original.current_board().play
    # the new tab shows the BRI file as it holds the boards: deals only
    new = w.current_view()
    assert new is not original
    assert new.path == str(out) and new.format_name == "bri" and not new.is_modified()
    assert w.tabs.tabText(w.tabs.currentIndex()) == "match.bri"
    assert new.current_board().deal == original.current_board().deal
    assert not new.current_board().auction and not new.current_board().play
    assert new.replay.steps == 0
    assert "opened beside match.pbn" in w.statusBar().currentMessage()
    # saving again over the open BRI refreshes that tab instead of opening a third
    w.tabs.setCurrentWidget(original)
    assert w.save_as(str(out), "bri")
    assert w.tabs.count() == 2


def test_lossless_save_as_keeps_relabelling_the_tab(qtbot, tmp_path, messages):
    src = tmp_path / "a.pbn"
    write_file(BoardSet([played_board(seed=4)]), src, "pbn")
    w = main_window(qtbot, tmp_path)
    w.open_file(str(src))
    view = w.current_view()
    out = tmp_path / "a.lin"
    assert w.save_as(str(out), "lin")
    assert not messages.calls and w.tabs.count() == 1 and view.path == str(out)


def test_lossy_save_over_its_own_file_reopens_in_place(qtbot, tmp_path, messages):
    src = tmp_path / "deals.bri"
    board = played_board(seed=5)
    write_file(BoardSet([board.copy(auction=None, play=None)]), src, "bri")
    w = main_window(qtbot, tmp_path)
    w.open_file(str(src))
    view = w.current_view()
    edited = view.current_board().touched(auction=[Call.parse(c) for c in "1S P P P".split()])
    view.model.set_board(0, edited)  # as an edit that BRI cannot hold would
    messages.answer = dialogs.Button.Save
    assert w.save_as(str(src), "bri")
    assert w.tabs.count() == 1
    fresh = w.current_view()
    assert fresh is not view and fresh.path == str(src)
    assert not fresh.current_board().auction
    assert [b.deal for b in read_file(src)] == [board.deal]
    assert "re-opened" in w.statusBar().currentMessage()
