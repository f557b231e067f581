"""The cribbage movie widget and ``bridgeview render`` for game records (pytest-qt)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from test_cribbage_support import SAMPLE, deal_bits, header_bits, one_deal_text, pack, simulate

from bridgeview.cli.main import main
from bridgeview.formats.errors import FormatError
from bridgeview.formats.halscrib import decode_base64, decode_record
from bridgeview.ui.cribbage_view import CribbageView, render_cribbage


@pytest.fixture
def one_deal_view(qtbot) -> CribbageView:
    view = CribbageView(decode_record(decode_base64(one_deal_text())))
    qtbot.addWidget(view)
    view.resize(1000, 700)
    view.show()
    view.setFocus()
    return view


def test_the_first_step_shows_the_dealt_cards(one_deal_view: CribbageView) -> None:
    vm = one_deal_view.view_model()
    assert vm["players"] == ["Ann", "HAL"] and vm["date"] == "2024-03-17T20:15:42"
    assert vm["deal"] == 1 and vm["step"] == 0 and vm["kind"] == "deal" and vm["steps"] == 15
    assert vm["hands"] == [["S5", "H5", "CT", "DK", "C2", "C3"], ["D4", "S6", "H7", "C8", "S9", "HQ"]]
    assert vm["crib"] == [] and vm["starter"] is None and vm["dealer"] == 1
    assert "Ann" in one_deal_view.header.text() and "a test game" in one_deal_view.header.text()


def test_keyboard_stepping(qtbot, one_deal_view: CribbageView) -> None:
    view = one_deal_view
    qtbot.keyClick(view, Qt.Key.Key_Right)
    vm = view.view_model()
    assert vm["kind"] == "discard" and vm["crib"] == ["C2", "C3", "S9", "HQ"] and not vm["crib_shown"]
    qtbot.keyClick(view, Qt.Key.Key_Right)
    vm = view.view_model()
    assert vm["starter"] == "SJ" and vm["scores"] == [0, 2] and "his heels" in vm["caption"]
    for _ in range(4):
        qtbot.keyClick(view, Qt.Key.Key_Right)
    vm = view.view_model()
    assert vm["pile"] == ["CT", "D4", "H5", "S6"] and vm["count"] == 25 and vm["scores"] == [0, 5]
    assert "run of 3" in vm["caption"] and "run of 3" in view.breakdown_text()
    qtbot.keyClick(view, Qt.Key.Key_Left)
    assert view.view_model()["count"] == 19
    qtbot.keyClick(view.table, Qt.Key.Key_End)  # keys reach the view from the table too
    vm = view.view_model()
    assert vm["kind"] == "show" and vm["crib_shown"] and vm["caption"].startswith("HAL's crib")
    assert "fifteen" in view.breakdown_text()
    qtbot.keyClick(view, Qt.Key.Key_Home)
    assert view.view_model()["position"] == 0


def test_clicking_the_table_steps(qtbot, one_deal_view: CribbageView) -> None:
    qtbot.mouseClick(one_deal_view.table, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(one_deal_view.table, Qt.MouseButton.LeftButton)
    assert one_deal_view.view_model()["kind"] == "starter"
    qtbot.mouseClick(one_deal_view.table, Qt.MouseButton.RightButton)
    assert one_deal_view.view_model()["kind"] == "discard"


def test_deals_games_and_the_slider(qtbot) -> None:
    rec = simulate(13)
    view = CribbageView(rec)
    qtbot.addWidget(view)
    view.show()
    qtbot.keyClick(view, Qt.Key.Key_Down)
    assert view.view_model()["deal"] == 2 and view.view_model()["step"] == 0
    qtbot.keyClick(view, Qt.Key.Key_PageDown)
    qtbot.keyClick(view, Qt.Key.Key_Right)
    qtbot.keyClick(view, Qt.Key.Key_Up)  # back to the start of this deal, then to the one before
    assert view.view_model()["deal"] == 3 and view.view_model()["step"] == 0
    qtbot.keyClick(view, Qt.Key.Key_Up)
    assert view.view_model()["deal"] == 2
    view.slider.setValue(len(view.steps) - 1)
    vm = view.view_model()
    assert vm["kind"] == "game" and vm["game"] == 2 and vm["winner"] is not None
    ends = [s for s in view.steps if s.kind == "game"]
    assert len(ends) == 2 and ends[0].game == 1 and "Game 1 over" in ends[0].caption
    view.deal_box.activated.emit(4)
    assert view.view_model()["deal"] == 5
    assert view.deal_box.currentText().startswith("Game ")


def test_the_movie_plays_and_stops_at_the_end(qtbot, one_deal_view: CribbageView) -> None:
    view = one_deal_view
    view.timer.setInterval(5)
    qtbot.keyClick(view, Qt.Key.Key_Space)
    assert view.playing and view.movie_button.isChecked()
    qtbot.waitUntil(lambda: not view.playing, timeout=3000)
    assert view.view_model()["position"] == len(view.steps) - 1 and not view.movie_button.isChecked()


def test_a_wrong_score_is_flagged_in_the_movie(qtbot) -> None:
    rec = decode_record(decode_base64(pack(header_bits() + deal_bits(**{
        "h0": "S5 H5 CT DK", "h1": "D4 S6 H7 C8", "d0": "C2 C3", "d1": "S9 HQ", "starter": "SJ",
        "plays": [(0, "CT"), (1, "D4"), (0, "H5"), (1, "S6"), (0, "S5"), (1, "H7"), (0, "DK"), (1, "C8")],
        "s0": 1, "s1": 9, "dealer": 1, "last": False}))))
    view = CribbageView(rec)
    qtbot.addWidget(view)
    view.go(11)
    vm = view.view_model()
    assert vm["kind"] == "pegged" and vm["scores"] == [1, 9] and "the rules give 1-6" in vm["problem"]
    assert "\u26a0" in view.breakdown_text()


def test_render_cribbage_writes_a_png(qtbot, tmp_path: Path) -> None:
    rec = decode_record(decode_base64(SAMPLE.read_bytes()))
    out = tmp_path / "deal.png"
    render_cribbage(rec, 0, 5, out, 800, 560)
    img = QImage(str(out))
    assert (img.width(), img.height()) == (800, 560)
    with pytest.raises(FormatError, match="deal 99 is not in this game record"):
        render_cribbage(rec, 98, 0, out)
    with pytest.raises(FormatError, match="has steps 0 to"):
        render_cribbage(rec, 0, 500, out)


def test_render_command(qtbot, tmp_path: Path, capsys) -> None:
    out = tmp_path / "crib.png"
    assert main(["render", str(SAMPLE), "--deal", "2", "--step", "3", "--width", "640", "--height", "480",
                 "-o", str(out)]) == 0
    assert QImage(str(out)).size().width() == 640
    assert main(["render", str(SAMPLE), "--deal", "40", "-o", str(out)]) == 1
    assert "deal 40 is not in this game record" in capsys.readouterr().err
