"""Replays of boards read from every format that stores play: LIN and PBN (real files), ZRJ and .dx (generated)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from PySide6.QtCore import QSettings
from test_replay_state import played_board

from bridgeview.formats.registry import get, read_file, write_file
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.replay_state import ReplayState, result_summary
from bridgeview.ui.boardset.view import DocumentView
from bridgeview.ui.replay import controls as replay_module


@pytest.fixture
def settings(tmp_path, monkeypatch) -> QSettings:
    s = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    monkeypatch.setattr(replay_module, "default_settings", lambda: s)
    return s


_VIEWS: list[DocumentView] = []


@pytest.fixture(autouse=True)
def _shutdown_views():
    """Stop the views' background work (solver threads, timers) after each test."""
    yield
    while _VIEWS:
        _VIEWS.pop().shutdown()


def open_view(qtbot, doc) -> DocumentView:
    view = DocumentView(doc)
    _VIEWS.append(view)
    qtbot.addWidget(view)
    return view


def test_lin_full_play(qtbot, realdata, settings):
    doc = read_file(realdata / "lin" / "bridgebots_sample.lin")
    view = open_view(qtbot, doc)
    c = view.replay
    assert c.state.fmt == "lin" and c.steps == 52 and c.state.stop_text is None
    c.next_trick()
    vm = view.diagram.view_model()
    assert vm["trick"] == ["H4", "H2", "HJ", "HA"] and vm["trick_leader"] == "E" and vm["trick_winner"] == "N"
    assert vm["tricks"] == {"NS": 1, "EW": 0} and vm["to_play"] == "N"
    c.to_end()
    vm = view.diagram.view_model()
    assert vm["tricks"] == {"NS": 6, "EW": 7}
    auction = c.auction_view
    assert auction.column_letters() == ["S", "W", "N", "E"]
    assert auction.cells()[0] == ["Pass", "1♥", "2NT", "Pass"]
    assert auction.tooltip_at(0, 2) == "Unusual No Trump: 2 5card minors"
    assert auction.summary_text() == "3NT by N, 6 tricks, -300 NS"


def test_lin_claim(realdata):
    board = read_file(realdata / "lin" / "endplay_example1.lin")[2]
    rs = ReplayState(board, "lin")
    assert rs.steps == 44 and rs.stop_text is None
    assert rs.position(44).claim_text == "S claims 9 tricks for NS (2 of the last 2)"
    assert rs.position(44).label() == "trick 11, card 4 – NS 7 EW 4"
    assert result_summary(board, rs) == "2♥ by S, 9 tricks, +140 NS"


def test_pbn_play_and_claim(qtbot, realdata, settings):
    doc = read_file(realdata / "pbn" / "endplay_example1_eyc1998.pbn")
    board = doc[0]
    rs = ReplayState(board, "pbn")
    assert rs.steps == 12 and rs.stop_text is None
    assert [str(c) for c in rs.tricks[0].cards] == ["DQ", "D3", "D4", "D2"]  # W leads against 5H by S
    assert rs.position(12).claim_text is not None and "claims 10 tricks" in rs.position(12).claim_text
    assert result_summary(board, rs) == "5♥ by S, 10 tricks, -50 NS"
    view = open_view(qtbot, doc)
    view.replay.to_end()
    assert view.diagram.view_model()["claim"] == rs.claim_text


@pytest.mark.parametrize("name", ["bridgebots_sample.pbn", "endplay_example1_eyc1998.pbn"])
def test_pbn_files_replay_without_problems(realdata, name):
    for board in read_file(realdata / "pbn" / name):
        rs = ReplayState(board, "pbn")
        if board.play:
            assert rs.replay.problem is None and rs.steps == len(board.play)
            for step in range(rs.steps + 1):
                pos = rs.position(step)
                assert pos.remaining.card_count == board.deal.card_count - step


def test_dx_round_trip_replays(tmp_path):
    boards = [played_board(1), played_board(2, number=2, calls="P 1S P 4S P P P", cards=30)]
    path = tmp_path / "played.dx"
    write_file(BoardSet(boards, FileInfo()), path, "dx")
    doc = read_file(path, "dx")
    for original, board in zip(boards, doc, strict=True):
        rs = ReplayState(board, doc.info.format)
        assert [str(c) for c in board.play] == [str(c) for c in original.play]
        assert rs.steps == len(original.play) and rs.replay.problem is None
        assert rs.trick_rows() == ReplayState(original).trick_rows()
    assert ReplayState(doc[1], "dx").stop_text == "play stops after 30 cards (the file records no more)"


def test_zrj_round_trip_stops_at_the_record_limit(tmp_path):
    assert get("zrj").caps.play
    long = played_board(2, calls="1C 1D 1H 1S 1N 2C 2D 2H 2S 2N 3C P P P", cards=52, result=9)
    short = played_board(3, number=3, calls="1N P 3N P P P", cards=52, result=8)
    path = tmp_path / "played.zrj"
    write_file(BoardSet([long, short], FileInfo()), path, "zrj")
    doc = read_file(path, "zrj")
    assert doc.info.format == "zrj"
    cut = ReplayState(doc[0], doc.info.format)
    assert len(doc[0].play) == 62 - 14 and cut.replay.problem is None
    # the 49th-52nd cards are forced, so the replay plays them out and says so
    assert cut.steps == 52 and cut.trick_rows() == ReplayState(long).trick_rows()
    assert cut.stop_text == "ZRJ holds 48 cards; the last trick is forced and played out"
    assert cut.position(52).stop_text == cut.stop_text
    full = ReplayState(doc[1], doc.info.format)
    assert full.steps == 52 and full.stop_text is None
    assert full.trick_rows() == ReplayState(short).trick_rows()


@pytest.mark.slow
def test_render_step_shows_the_position(tmp_path, realdata):
    lin = realdata / "lin" / "endplay_example1.lin"
    out = tmp_path / "step.png"
    cmd = [sys.executable, "-m", "bridgeview", "render", str(lin), "--board", "3", "--step", "44", "-o", str(out)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    cmd[cmd.index("44")] = "45"
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and "the play has only 44 cards" in proc.stderr


def test_render_helper_matches_the_replay(qtbot, realdata):
    from bridgeview.ui.diagram.hand_diagram import HandDiagram
    from bridgeview.ui.diagram.render_widget import show_step

    board = read_file(realdata / "lin" / "endplay_example1.lin")[2]
    diagram = HandDiagram()
    qtbot.addWidget(diagram)
    diagram.set_board(board)
    assert show_step(diagram, board, 44, "lin") == 44
    vm = diagram.view_model()
    pos = ReplayState(board, "lin").position(44)
    assert vm["trick"] == [str(c) for c in pos.trick.cards] and vm["tricks"] == {"NS": 7, "EW": 4}
    assert vm["claim"] == "S claims 9 tricks for NS (2 of the last 2)"


def test_main_window_keys_replay_on_the_diagram_and_move_boards_in_the_list(qtbot, realdata, settings, tmp_path):
    from PySide6.QtCore import Qt

    from bridgeview.ui.mainwindow import MainWindow

    window = MainWindow(QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitExposed(window)
    assert window.open_file(str(realdata / "lin" / "endplay_example1.lin"))
    view = window.current_view()
    c = view.replay
    assert c.state.fmt == "lin" and c.steps == 52
    view.diagram.setFocus()
    qtbot.waitUntil(view.diagram.hasFocus)
    for key in (Qt.Key.Key_Right, Qt.Key.Key_Down, Qt.Key.Key_Right):
        qtbot.keyClick(view.diagram, key)
    assert c.step == 5 and view.current_index() == 0
    qtbot.keyClick(view.diagram, Qt.Key.Key_End)
    assert c.step == 52 and view.current_index() == 0
    view.board_list.setFocus()
    qtbot.waitUntil(view.board_list.hasFocus)
    qtbot.keyClick(view.board_list, Qt.Key.Key_Down)
    qtbot.keyClick(view.board_list, Qt.Key.Key_Down)
    assert view.current_index() == 2 and c.step == 0 and c.steps == 44
    assert c.auction_view.summary_text() == "2♥ by S, 9 tricks, +140 NS"
    view.shutdown()


def test_replay_options_live_in_the_main_windows_settings(qtbot, realdata, settings, tmp_path):
    """The window's settings (render's scratch file, a test's file) hold the replay options, not the user's."""
    from bridgeview.ui.mainwindow import MainWindow

    settings.setValue(replay_module.SETTING_GREY, True)  # what the app-wide settings say
    own = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    own.setValue(replay_module.SETTING_INTERVAL, 500)
    window = MainWindow(own)
    qtbot.addWidget(window)
    assert window.open_file(str(realdata / "lin" / "endplay_example1.lin"))
    view = window.current_view()
    c = view.replay
    assert c.settings is own and not c.grey_played and c.timer.interval() == 500
    c.bar.grey.setChecked(True)
    assert own.value(replay_module.SETTING_GREY, type=bool) is True
    view.shutdown()
