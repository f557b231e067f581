"""Edit › Generate Random Deals with a dealer script: examples, the script checked as typed, a live
count of deals tried and produced, Stop, and the new set in a tab, modified until saved."""

from __future__ import annotations

import numpy as np
import pytest
from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QLabel, QPlainTextEdit, QPushButton
from test_ui_editing import action, new_window

from bridgeview.generate import engine
from bridgeview.generate.boards import board_set
from bridgeview.generate.examples import EXAMPLES
from bridgeview.generate.parser import parse
from bridgeview.model.cards import Seat
from bridgeview.ui.editor.editor import GenerateDialog

ONE_NT = "15-17 balanced (1NT openings)"


def child(dlg, cls, name):
    widget = dlg.findChild(cls, name)
    assert widget is not None, name
    return widget


def drive(monkeypatch, qtbot, steps):
    """Open the dialog through Edit › Generate Random Deals and let ``steps(dlg)`` use it; returns what
    the dialog saw."""
    seen = {}

    def fake_exec(dlg):
        seen["dialog"] = dlg
        steps(dlg)
        return dlg.result()

    monkeypatch.setattr(GenerateDialog, "exec", fake_exec)
    return seen


def test_a_lesson_set_from_an_example(qtbot, tmp_path, messages, monkeypatch):
    w = new_window(qtbot, tmp_path)

    def steps(dlg):
        ok = dlg.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        assert ok.isDefault() or ok.autoDefault()
        assert child(dlg, QPlainTextEdit, "generate_script").toPlainText() == ""  # plain random deals by default
        examples = child(dlg, QComboBox, "generate_example")
        index = examples.findText(ONE_NT)
        examples.setCurrentIndex(index)
        examples.activated.emit(index)
        assert child(dlg, QPlainTextEdit, "generate_script").toPlainText() == EXAMPLES[ONE_NT]
        dlg.count.setValue(6)
        dlg.first.setValue(3)
        dlg.seeded.setChecked(True)
        dlg.seed.setText("77")
        qtbot.mouseClick(ok, qtbot_button())
        qtbot.waitUntil(lambda: dlg.result() == QDialog.DialogCode.Accepted, timeout=30_000)
        assert "6 of 6 produced" in child(dlg, QLabel, "generate_status").text()

    drive(monkeypatch, qtbot, steps)
    tabs = w.tabs.count()
    action(w, "action_generate").trigger()
    assert w.tabs.count() == tabs + 1
    view = w.current_view()
    boards = list(view.boards)
    assert [b.number for b in boards] == [3, 4, 5, 6, 7, 8]
    for board in boards:
        assert board.dealer == Seat.SOUTH and 15 <= board.deal.hcp(Seat.SOUTH) <= 17 and board.deal.is_complete
    assert view.is_modified() and view.title().endswith("*")  # modified until saved
    assert w.tabs.tabText(w.tabs.currentIndex()).startswith("Deals to order")
    assert "seed 77" in w.tabs.tabToolTip(w.tabs.currentIndex())
    # the same script and seed on the command line's engine make the same deals
    script = parse(EXAMPLES[ONE_NT], ONE_NT)
    made = []
    engine.run(script, engine.limits(script, 6), lambda b: made.append(b.hands), seed=77)
    expected = board_set(np.concatenate(made, axis=2), script, first=3, seed=77)
    assert [b.deal for b in boards] == [b.deal for b in expected]


def qtbot_button():
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def test_a_mistake_is_shown_as_it_is_typed_and_stops_ok(qtbot, tmp_path, messages, monkeypatch):
    w = new_window(qtbot, tmp_path)

    def steps(dlg):
        editor = child(dlg, QPlainTextEdit, "generate_script")
        editor.setPlainText("produce 3\ncondition hcp(north) > 10 &&\n   hpc(south) < 5\n")
        status = child(dlg, QLabel, "generate_status")
        qtbot.waitUntil(lambda: "line 3, column 4" in status.text(), timeout=5000)
        assert "unknown name 'hpc'" in status.text()
        dlg.accept()  # OK
        assert dlg.result() != QDialog.DialogCode.Accepted
        cursor = editor.textCursor()
        assert (cursor.blockNumber(), cursor.positionInBlock()) == (2, 3)  # at the mistake
        editor.setPlainText("condition hcp(north) > 10\n")
        qtbot.waitUntil(lambda: "reads well" in status.text(), timeout=5000)

    drive(monkeypatch, qtbot, steps)
    tabs = w.tabs.count()
    action(w, "action_generate").trigger()
    assert w.tabs.count() == tabs  # nothing opened
    assert messages.calls and "line 3, column 4: unknown name 'hpc'" in messages.calls[-1][2]


def test_the_count_is_live_and_stop_keeps_what_was_made(qtbot, tmp_path, messages, monkeypatch):
    w = new_window(qtbot, tmp_path)

    def steps(dlg):
        child(dlg, QPlainTextEdit, "generate_script").setPlainText("condition hcp(north) >= 21\n")
        dlg.count.setValue(10_000)
        stop = child(dlg, QPushButton, "generate_stop")
        status = child(dlg, QLabel, "generate_status")
        assert not stop.isEnabled()
        dlg.accept()
        assert not dlg.seed.isEnabled()  # a fair shuffle: no seed
        assert stop.isEnabled() and not dlg.count.isEnabled()  # running, and the GUI thread is free
        qtbot.waitUntil(lambda: "tried" in status.text() and not status.text().startswith("0 deals"), timeout=30_000)
        qtbot.mouseClick(stop, qtbot_button())
        qtbot.waitUntil(lambda: "Stopped after" in status.text(), timeout=30_000)
        ok = dlg.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        made = dlg.script.made
        assert made is not None and 0 < len(made.boards) < 10_000
        assert ok.text() == f"Open {len(made.boards):,} Deals" and ok.isEnabled()
        assert dlg.count.isEnabled() and not dlg.seed.isEnabled()  # the fields as they were
        dlg.accept()  # opens what was made, without running again
        assert dlg.result() == QDialog.DialogCode.Accepted

    seen = drive(monkeypatch, qtbot, steps)
    action(w, "action_generate").trigger()
    view = w.current_view()
    assert len(view.boards) == len(seen["dialog"].script.made.boards)
    assert all(b.deal.hcp(Seat.NORTH) >= 21 for b in view.boards) and view.is_modified()


def test_closing_the_dialog_during_a_run_stops_it(qtbot, tmp_path, messages, monkeypatch):
    w = new_window(qtbot, tmp_path)

    def steps(dlg):
        child(dlg, QPlainTextEdit, "generate_script").setPlainText("condition hcp(north) >= 30\n")
        dlg.count.setValue(10)
        dlg.accept()
        job = dlg.script.job
        assert job is not None and job.isRunning()
        dlg.reject()  # Cancel, or Escape
        assert not job.isRunning()

    drive(monkeypatch, qtbot, steps)
    tabs = w.tabs.count()
    action(w, "action_generate").trigger()
    assert w.tabs.count() == tabs


@pytest.mark.parametrize("title", list(EXAMPLES))
def test_every_example_makes_deals(title):
    script = parse(EXAMPLES[title], title)
    summary = engine.run(script, engine.limits(script, 5), lambda b: None, seed=3, jobs=1)
    assert summary.produced == 5


def test_enter_in_a_field_deals_and_in_the_script_is_a_new_line(qtbot, tmp_path, messages, monkeypatch):
    """OK stays the default button beside Open Script… and Stop: Enter in Boards makes the deals."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QFileDialog

    w = new_window(qtbot, tmp_path)
    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: asked.append(a) or ("", ""))

    def steps(dlg):
        dlg.show()
        editor = child(dlg, QPlainTextEdit, "generate_script")
        editor.setFocus()
        qtbot.keyClicks(editor, "condition hcp(north) > 10")
        qtbot.keyClick(editor, Qt.Key.Key_Return)
        qtbot.keyClicks(editor, "produce 3")
        assert editor.toPlainText() == "condition hcp(north) > 10\nproduce 3" and dlg.script.job is None
        dlg.count.setValue(3)
        dlg.count.setFocus()
        qtbot.keyClick(dlg.count, Qt.Key.Key_Return)
        assert not asked  # Enter is OK's, not Open Script…'s
        qtbot.waitUntil(lambda: dlg.result() == QDialog.DialogCode.Accepted, timeout=30_000)

    drive(monkeypatch, qtbot, steps)
    action(w, "action_generate").trigger()
    assert len(w.current_view().boards) == 3
