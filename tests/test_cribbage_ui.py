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
from bridgeview.ui.cribbage.view import CribbageView, render_cribbage


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
    rec = decode_record(
        decode_base64(
            pack(
                header_bits()
                + deal_bits(
                    **{
                        "h0": "S5 H5 CT DK",
                        "h1": "D4 S6 H7 C8",
                        "d0": "C2 C3",
                        "d1": "S9 HQ",
                        "starter": "SJ",
                        "plays": [
                            (0, "CT"),
                            (1, "D4"),
                            (0, "H5"),
                            (1, "S6"),
                            (0, "S5"),
                            (1, "H7"),
                            (0, "DK"),
                            (1, "C8"),
                        ],
                        "s0": 1,
                        "s1": 9,
                        "dealer": 1,
                        "last": False,
                    }
                )
            )
        )
    )
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
    assert (
        main(["render", str(SAMPLE), "--deal", "2", "--step", "3", "--width", "640", "--height", "480", "-o", str(out)])
        == 0
    )
    assert QImage(str(out)).size().width() == 640
    assert main(["render", str(SAMPLE), "--deal", "40", "-o", str(out)]) == 1
    assert "deal 40 is not in this game record" in capsys.readouterr().err


def test_the_step_controls_match_the_bridge_replay(qtbot, one_deal_view: CribbageView) -> None:
    from bridgeview.ui.replay.controls import DEFAULT_INTERVAL_MS, SPEEDS

    view = one_deal_view
    assert list(view.buttons) == ["start", "prev_deal", "prev", "next", "next_deal", "end"]
    assert all(not b.icon().isNull() for b in view.buttons.values()) and not view.movie_button.icon().isNull()
    assert [view.speed.itemData(i) for i in range(view.speed.count())] == [ms for _, ms in SPEEDS]
    assert view.timer.interval() == DEFAULT_INTERVAL_MS == view.speed.currentData()
    view.speed.setCurrentIndex(0)
    assert view.timer.interval() == SPEEDS[0][1]
    view.buttons["next"].click()
    view.buttons["next"].click()
    assert view.view_model()["kind"] == "starter"
    view.buttons["end"].click()
    assert view.view_model()["position"] == len(view.steps) - 1
    view.buttons["start"].click()
    assert view.view_model()["position"] == 0


def test_the_show_breakdown_is_a_table(qtbot) -> None:
    deal = {
        "h0": "S5 H5 D5 CJ",
        "h1": "D4 S6 H7 C8",
        "d0": "C2 C3",
        "d1": "S9 HQ",
        "starter": "C5",
        "plays": [(0, "CJ"), (1, "D4"), (0, "S5"), (1, "S6"), (0, "H5"), (1, "H7"), (0, "D5"), (1, "C8")],
        "s0": 1,
        "s1": 4,
        "dealer": 1,
        "last": False,
    }
    view = CribbageView(decode_record(decode_base64(pack(header_bits() + deal_bits(**deal)))))
    qtbot.addWidget(view)
    view.go(12)
    assert view.view_model()["kind"] == "show"
    html_text = view.breakdown.toHtml()
    assert "<table" in html_text and "#c8102e" in html_text  # red suits in the breakdown
    text = view.breakdown_text()
    assert "fifteens 16, pairs 12, nobs 1 = 29" in text and "nobs" in text and text.count("fifteen") == 9


def test_open_and_save_as_from_the_main_window(qtbot, tmp_path: Path, monkeypatch) -> None:
    from test_ui_support import main_window

    from bridgeview.ui import dialogs

    src = tmp_path / "game.crib"
    src.write_bytes(SAMPLE.read_bytes())
    messages: list[tuple] = []
    monkeypatch.setattr(dialogs, "message", lambda *a, **k: messages.append(a))
    asked: list[tuple] = []

    def save_file(parent, title, directory, filters, selected=""):
        asked.append((title, directory, filters))
        return str(tmp_path / "copy"), filters.split(";;")[0]

    monkeypatch.setattr(dialogs, "get_save_file", save_file)
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(src)) and messages == []
    assert isinstance(w.tabs.currentWidget(), CribbageView)
    assert w.save_as()
    assert asked == [("Save game as", str(tmp_path / "game"), "HALSCRIB Base64 cribbage game (*.crib *.hal *.cb64)")]
    assert (tmp_path / "copy.crib").read_bytes() == src.read_bytes()  # unchanged: byte for byte
    assert w.tabs.tabText(0) == "copy.crib" and w.tabs.currentWidget().path == str(tmp_path / "copy.crib")
    bad = tmp_path / "bad.crib"
    bad.write_bytes(
        pack(
            header_bits()
            + deal_bits(
                **{
                    "h0": "S5 H5 CT DK",
                    "h1": "D4 S6 H7 S5",
                    "d0": "C2 C3",
                    "d1": "S9 HQ",
                    "starter": "SJ",
                    "plays": [],
                    "s0": 0,
                    "s1": 2,
                    "dealer": 1,
                    "last": True,
                }
            )
        )
    )
    assert not w.open_file(str(bad))
    assert "deal 1: duplicate card 5\u2660" in messages[-1][3]


def test_save_writes_a_game_in_place_and_the_title_names_it(qtbot, tmp_path: Path, monkeypatch) -> None:
    from test_ui_support import main_window

    from bridgeview.ui import dialogs

    src = tmp_path / "game.crib"
    src.write_bytes(SAMPLE.read_bytes())
    asked: list = []
    monkeypatch.setattr(dialogs, "get_save_file", lambda *a, **k: asked.append(a) or ("", ""))
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(src))
    assert w.windowTitle().startswith("game.crib")
    src.write_bytes(b"")  # Save must write the game back, not ask where
    assert w.save() and asked == []
    assert src.read_bytes() == SAMPLE.read_bytes()
