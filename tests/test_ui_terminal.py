"""Ctrl+C in the window's terminal (``ui/window/terminal.py``): what the close buttons do, never losing work.

The presses are real signals (``signal.raise_signal``) taken by the handler the window installs, as a terminal's
Ctrl+C would be; the end-to-end checks of the whole process are in ``test_cli_end_to_end.py``.
"""

from __future__ import annotations

import signal

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from test_ui_support import main_window, make_file

from bridgeview.model.cards import Seat
from bridgeview.ui import dialogs
from bridgeview.ui.window.terminal import TerminalCtrlC


@pytest.fixture
def ctrl_c(qapp):
    """Ctrl+C taken over as the window's event loop takes it, and given back afterwards."""
    watcher = TerminalCtrlC.install(qapp)
    assert watcher is not None
    try:
        yield watcher
    finally:
        watcher.restore()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
    assert signal.set_wakeup_fd(-1) == -1  # (and the descriptor given back)


def press() -> None:
    signal.raise_signal(signal.SIGINT)


def edited_window(qtbot, tmp_path):
    path, boards = make_file(tmp_path, "deals", n=3)
    w = main_window(qtbot, tmp_path)
    w.show()
    w.open_file(str(path))
    view = w.current_view()
    view.move_card(boards[0].deal.cards(Seat.NORTH)[0], Seat.WEST)
    assert view.is_modified()
    return w, view


def test_a_press_asks_about_unsaved_work_and_cancel_keeps_the_window(qtbot, tmp_path, messages, ctrl_c):
    w, view = edited_window(qtbot, tmp_path)
    messages.answer = dialogs.Button.Cancel
    press()
    qtbot.waitUntil(lambda: bool(messages.calls), timeout=5000)
    assert [call[:2] for call in messages.calls] == [("question", "Unsaved changes")]
    qtbot.wait(50)
    assert w.isVisible() and view.is_modified()
    assert not ctrl_c.interrupted  # the command goes on: nothing was closed


def test_a_press_closes_the_window_once_the_work_is_discarded(qtbot, tmp_path, messages, ctrl_c):
    w, _ = edited_window(qtbot, tmp_path)
    messages.answer = dialogs.Button.Discard
    press()
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=5000)
    assert [c[1] for c in messages.calls] == ["Unsaved changes"]
    assert ctrl_c.interrupted  # the command ends as interrupted (exit 130)


def test_a_press_closes_a_window_without_edits_at_once(qtbot, tmp_path, messages, ctrl_c):
    w = main_window(qtbot, tmp_path)
    w.show()
    press()
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=5000)
    assert messages.calls == [] and ctrl_c.interrupted


@pytest.mark.real_message_box
def test_a_press_answers_an_open_question_as_escape_does(qtbot, tmp_path, ctrl_c):
    """The unsaved-work question open: a press is its Cancel (Escape), never Save or Discard, and a second press
    cannot open a second question over the first."""
    w = main_window(qtbot, tmp_path)
    w.show()
    QTimer.singleShot(100, press)

    def unstick() -> None:  # (without the fix the box would wait for ever: answer Save, which fails the test)
        box = QApplication.activeModalWidget()
        if box is not None:
            box.done(int(dialogs.Button.Save.value))

    QTimer.singleShot(10000, unstick)
    buttons = dialogs.Button.Save | dialogs.Button.Discard | dialogs.Button.Cancel
    answer = dialogs.message("question", w, "Unsaved changes", "x has unsaved changes. Save them?", buttons)
    assert answer == dialogs.Button.Cancel
    qtbot.wait(50)
    assert w.isVisible() and not ctrl_c.interrupted


def test_ctrl_c_ignored_stays_ignored(qapp):
    """A window started as a background job (``bridgeview FILE &``: the shell ignores Ctrl+C for it) is not
    closed by a press meant for the job in the foreground."""
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        assert TerminalCtrlC.install(qapp) is None
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_a_press_waits_for_work_that_runs_a_loop_of_its_own(qtbot, tmp_path, messages, ctrl_c):
    """A save or a solve runs an event loop of its own, and shows its progress dialog only after 300 ms: a press
    before that closed the windows from inside the work (the unsaved-work question asked while the file was being
    saved; Discard quit half way through). The press waits for the work to end, then closes the window."""
    from PySide6.QtCore import QEventLoop

    w = main_window(qtbot, tmp_path)
    w.show()
    during: list[bool] = []
    window_loop, work = QEventLoop(), QEventLoop()  # (the application's own loop, as app.exec() runs it)

    def the_work() -> None:  # its loop runs half a second, no dialog up
        QTimer.singleShot(50, press)
        QTimer.singleShot(400, lambda: during.append(w.isVisible()))
        QTimer.singleShot(500, work.quit)
        work.exec()
        window_loop.quit()

    QTimer.singleShot(0, the_work)
    window_loop.exec()
    assert during == [True]
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=5000)  # once the work is done
    assert ctrl_c.interrupted


@pytest.mark.real_message_box
def test_a_press_made_before_a_dialog_came_up_answers_it_then_closes_the_window(qtbot, tmp_path, ctrl_c):
    """A press made with no dialog up means "close": a dialog that comes up before it is acted on (the window's
    start opening one for a file it cannot read) is answered as Escape, and the window then closes. The press was
    spent on the dialog, and the window stayed until a second press."""
    w = main_window(qtbot, tmp_path)
    w.show()

    def unstick() -> None:  # (without the fix the box would wait for ever)
        box = QApplication.activeModalWidget()
        if box is not None:
            box.done(int(dialogs.Button.Ok.value))

    QTimer.singleShot(10000, unstick)
    press()  # (noted only: the loop acts on it once it runs, here in the box's)
    dialogs.message("error", w, "Cannot open file", "Cannot open notes.xyz: not a deal file")
    qtbot.waitUntil(lambda: not w.isVisible(), timeout=5000)
    assert ctrl_c.interrupted


def test_a_press_during_the_hand_records_export_stops_it_and_writes_nothing(
    qtbot, tmp_path, messages, ctrl_c, monkeypatch
):
    """The export works its tables out in steps, letting events in, with the hand records dialog up; its progress
    dialog shows once the work looks long (Qt's estimate; at most 500 ms). A press before that answered the hand
    records dialog as Escape, which closed it, and the export ran on and wrote its PDF. Now Escape (and so the
    press) stops the export: nothing is written, the solving thread takes no other deal, the dialog and the window
    stay. (A press once the progress dialog is up answers that one: its Skip, as ever.)"""
    import time

    from bridgeview.solve import print_tables

    solved: list[object] = []

    def slow_solver(deal):  # (DDS's stand-in: a deal takes a second)
        time.sleep(1.0)
        solved.append(deal)
        return None

    monkeypatch.setattr(print_tables, "_default_solver", slow_solver)
    monkeypatch.setattr(print_tables, "start_shared_child", lambda: None)
    path, _ = make_file(tmp_path, "deals", n=3)  # (2 or 3 to solve: the progress shows at 300 ms at the earliest)
    w = main_window(qtbot, tmp_path)
    w.show()
    assert w.open_file(str(path))
    dialog = w.desk.hand_records(pdf=True)
    qtbot.waitUntil(lambda: QApplication.activeModalWidget() is dialog, timeout=5000)
    out = tmp_path / "records.pdf"
    QTimer.singleShot(20, press)
    started = time.monotonic()
    assert not dialog.save_pdf(str(out))
    assert time.monotonic() - started < 0.9  # (stopped in the first deal)
    assert not out.exists()
    assert "records.pdf was not written" in w.statusBar().currentMessage()
    time.sleep(max(0.0, started + 2.3 - time.monotonic()))  # (a second deal, taken, would be done by now)
    assert len(solved) == 1  # the deal in hand when the press came; no other
    assert dialog.isVisible() and w.isVisible() and not ctrl_c.interrupted
    dialog.reject()  # (the work stopped, Escape closes it as ever)
    assert not dialog.isVisible()
