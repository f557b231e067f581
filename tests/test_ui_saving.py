"""Save As from the GUI: round trips, warnings for lossy targets, errors, the threaded path."""

from __future__ import annotations

import pytest
from test_ui_support import main_window, make_boards, make_file

from bridgeview.formats.codec import Cancelled
from bridgeview.formats.registry import read_file, write_file
from bridgeview.model.deal import Deal
from bridgeview.ui import dialogs
from bridgeview.ui.window import saving


@pytest.mark.parametrize(
    ("src", "dst"),
    [("deals", "pbn"), ("deals", "dx"), ("bri", "deals"), ("pbn", "lin"), ("dx", "bri"), ("deals", "zbd")],
)
def test_save_as_round_trip(qtbot, tmp_path, messages, src, dst):
    messages.answer = dialogs.Button.Save  # accept whatever the target cannot hold
    path, boards = make_file(tmp_path, src, n=4)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    out = tmp_path / f"out.{dst}"
    assert w.save_as(str(out), dst), messages.calls
    back = read_file(out)
    assert [b.deal for b in back] == [b.deal for b in boards]
    view = w.current_view()
    assert view.path == str(out) and view.format_name == dst and not view.is_modified()
    assert w.recent_files()[0] == str(out)


def test_lossy_target_asks_first(qtbot, tmp_path, messages):
    path, boards = make_file(tmp_path, "zrd", n=3)  # ZRD holds DD results; .deals does not
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    out = tmp_path / "out.deals"
    messages.answer = dialogs.Button.Cancel
    assert not w.save_as(str(out), "deals")
    assert not out.exists()
    kind, _title, text = messages.calls[-1]
    assert kind == "warning" and "double-dummy" in text
    messages.answer = dialogs.Button.Save
    assert w.save_as(str(out), "deals")
    assert [b.deal for b in read_file(out)] == [b.deal for b in boards]


def test_save_as_into_a_folder_that_is_gone_says_so_before_asking_anything(qtbot, tmp_path, messages):
    """Save As into a folder deleted since it was chosen asked first whether to lose what the format cannot hold
    (and checked a big set in a thread), then said "No such file or directory": it is said at once."""
    path, _ = make_file(tmp_path, "zrd", n=3)  # ZRD holds DD results; .deals does not: a lossy target
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    out = tmp_path / "gone" / "out.deals"
    messages.answer = dialogs.Button.Save
    assert not w.save_as(str(out), "deals")
    assert [(kind, title) for kind, title, _ in messages.calls] == [("error", "Cannot save")]
    assert f"{out}: No such file or directory" in messages.calls[0][2]


def test_board_the_target_cannot_hold_is_an_error(qtbot, tmp_path, messages):
    path, _ = make_file(tmp_path, "deals", n=2)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    view = w.current_view()
    card = view.current_board().deal.cards(0)[0]
    view.move_card(card, 1)  # now not a legal full deal
    out = tmp_path / "out.bri"
    assert not w.save_as(str(out), "bri")
    assert not out.exists()
    assert messages.calls[-1][0] == "error"
    assert view.is_modified()


def test_save_in_own_format_after_edit(qtbot, tmp_path, messages):
    path, boards = make_file(tmp_path, "deals", n=2)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    view = w.current_view()
    card = view.current_board().deal.cards(0)[0]
    view.move_card(card, 1)
    view.move_card(card, 0)  # back where it was, still an edit
    assert view.is_modified()
    assert w.save()
    assert not view.is_modified()
    assert [b.deal for b in read_file(path)] == [b.deal for b in boards]


def test_save_as_dialog_picks_codec_from_filter(qtbot, tmp_path, messages, monkeypatch):
    path, boards = make_file(tmp_path, "deals", n=2)
    w = main_window(qtbot, tmp_path)
    w.open_file(str(path))
    dx = next(c for c in saving.writable_codecs() if c.name == "dx")
    monkeypatch.setattr(dialogs, "get_save_file", lambda *a: (str(tmp_path / "chosen"), saving.filter_for(dx)))
    assert w.save_as()
    assert (tmp_path / "chosen.dx").exists()
    assert [b.deal for b in read_file(tmp_path / "chosen.dx")] == [b.deal for b in boards]
    monkeypatch.setattr(dialogs, "get_save_file", lambda *a: ("", ""))
    assert not w.save_as()


def test_threaded_save_with_progress(qtbot, tmp_path, messages):
    path, boards = make_file(tmp_path, "zrd", n=50)
    w = main_window(qtbot, tmp_path)
    w.thread_threshold = 10
    w.open_file(str(path))
    out = tmp_path / "copy.zrd"
    assert w.save_as(str(out), "zrd"), messages.calls  # the bulk path, nothing lost, nothing asked
    assert not messages.calls
    assert [(b.deal, b.dd) for b in read_file(out)] == [(b.deal, b.dd) for b in boards]
    messages.answer = dialogs.Button.Save
    assert w.save_as(str(tmp_path / "big.zbd"), "zbd")
    assert "double-dummy results of 50 boards" in messages.calls[-1][2]
    assert [b.deal for b in read_file(tmp_path / "big.zbd")] == [b.deal for b in boards]
    # an edited lazy set goes through check + write with progress in the thread too
    view = w.current_view()
    view.move_card(view.current_board().deal.cards(0)[0], 0)
    out2 = tmp_path / "big.deals"
    messages.answer = dialogs.Button.Save
    assert w.save_as(str(out2), "deals")
    assert len(read_file(out2)) == 50


def test_the_progress_dialog_shows_after_300_ms_before_any_report(qtbot):
    """Work that reports nothing for a while (a save's check of a big set) shows its dialog after 300 ms: Qt
    starts the dialog's timer only at a first value, so it showed at the first report or after Qt's default 4 s,
    and a Ctrl+C in the window's terminal waited that long for a dialog to answer."""
    import time

    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QProgressDialog

    seen: list[bool] = []

    def look() -> None:
        seen.append(any(isinstance(w, QProgressDialog) and w.isVisible() for w in QApplication.topLevelWidgets()))

    QTimer.singleShot(900, look)
    assert saving.run_with_progress(None, "x", lambda progress: time.sleep(1.2) or 7) == 7
    assert seen == [True]


def test_run_with_progress_reports_cancel_and_errors(qtbot):
    assert saving.run_with_progress(None, "x", lambda progress: progress(1, 2) and 7) == 7

    def cancels(progress):
        raise Cancelled()

    with pytest.raises(Cancelled):
        saving.run_with_progress(None, "x", cancels)

    def fails(progress):
        raise ValueError("boom")

    with pytest.raises(ValueError):
        saving.run_with_progress(None, "x", fails)


def test_progressed_sequence_cancels():
    boards = make_boards(3000)
    seq = saving._Progressed(boards, lambda done, total: done < 2048)
    assert len(seq) == 3000 and seq[0] is boards[0] and seq.info is boards.info
    with pytest.raises(Cancelled):
        list(seq)


def test_with_extension_and_filters():
    codec = next(c for c in saving.writable_codecs() if c.name == "deals")
    assert saving.with_extension("/x/a", codec) == "/x/a.deals"
    assert saving.with_extension("/x/a.deals", codec) == "/x/a.deals"
    assert saving.codec_from_filter("", "/x/a.deals") is codec
    assert saving.codec_from_filter(saving.filter_for(codec), "/x/a") is codec
    assert saving.codec_from_filter("", "/x/a.unknown") is None


def test_write_file_helper_matches_gui(tmp_path):
    boards = make_boards(2)
    write_file(boards, tmp_path / "a.deals", "deals")
    assert read_file(tmp_path / "a.deals")[0].deal == boards[0].deal
    assert isinstance(boards[0].deal, Deal)
