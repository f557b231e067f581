"""The replay in the window: controller, bar, keyboard, movie, options, and the diagram it drives."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings, Qt
from test_replay_state import played_board

from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.replay_state import ReplayState
from bridgeview.ui.boardset.view import DocumentView
from bridgeview.ui.replay import controls as replay_module
from bridgeview.ui.replay.auction_view import RED
from bridgeview.ui.replay.controls import SETTING_GREY, SETTING_INTERVAL, ReplayBar, ReplayController


@pytest.fixture
def settings(tmp_path, monkeypatch) -> QSettings:
    """Settings in a temporary ini file, also used by views built during the test."""
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


def make_view(qtbot, boards, fmt: str | None = None) -> DocumentView:
    view = DocumentView(BoardSet(boards, FileInfo(format=fmt)))
    _VIEWS.append(view)
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    qtbot.waitExposed(view)
    return view


def test_controller_moves_and_signals(qtbot, settings):
    c = ReplayController(settings=settings)
    seen = []
    c.positionChanged.connect(lambda pos: seen.append(pos.step if pos is not None else None))
    c.set_board(played_board())
    assert c.steps == 52 and c.step == 0 and seen == [0]
    c.next_card()
    c.next_trick()
    c.next_trick()
    c.prev_card()
    c.prev_trick()
    c.to_end()
    c.to_start()
    c.go(30)
    assert seen == [0, 1, 4, 8, 7, 4, 52, 0, 30]
    c.go(30)  # no move, no signal
    assert len(seen) == 9
    c.set_board(None)
    assert c.steps == 0 and c.position() is None and seen[-1] is None
    c.next_card()
    assert c.step == 0


def test_view_shows_each_step_on_the_diagram(qtbot, settings):
    board = played_board()
    view = make_view(qtbot, [board])
    c = view.replay
    rs = ReplayState(board)
    vm = view.diagram.view_model()
    assert vm["trick"] == [] and vm["to_play"] == "E" and vm["tricks"] == {"NS": 0, "EW": 0}
    for step in range(1, 53):
        c.next_card()
        vm = view.diagram.view_model()
        pos = rs.position(step)
        assert vm["trick"] == [str(card) for card in pos.trick.cards]
        assert vm["trick_leader"] == pos.trick.leader.letter
        assert vm["trick_winner"] == (pos.trick.winner.letter if pos.trick.winner is not None else None)
        assert vm["tricks"] == {"NS": pos.ns_tricks, "EW": pos.ew_tricks}
        assert sum(len(r) for h in vm["hands"].values() for r in h.values()) == 52 - step
        assert c.bar.label_text() == f"{pos.label()}  ({step}/52)"
        assert c.bar.slider.value() == step
    assert vm["claim"] is None and vm["stop"] is None


def test_keyboard_on_the_diagram_and_arrows_in_the_board_list(qtbot, settings):
    view = make_view(qtbot, [played_board(1), played_board(2, number=2, calls="P 1S P 4S P P P")])
    c = view.replay
    view.activateWindow()
    view.diagram.setFocus()
    qtbot.waitUntil(view.diagram.hasFocus)
    keys = [
        (Qt.Key.Key_Right, 1),
        (Qt.Key.Key_Right, 2),
        (Qt.Key.Key_Left, 1),
        (Qt.Key.Key_Down, 4),
        (Qt.Key.Key_Down, 8),
        (Qt.Key.Key_Up, 4),
        (Qt.Key.Key_End, 52),
        (Qt.Key.Key_Up, 48),
        (Qt.Key.Key_Home, 0),
    ]
    for key, step in keys:
        qtbot.keyClick(view.diagram, key)
        assert c.step == step, key
    c.go(9)
    view.board_list.setFocus()
    qtbot.waitUntil(view.board_list.hasFocus)
    qtbot.keyClick(view.board_list, Qt.Key.Key_Down)
    assert view.current_index() == 1 and c.step == 0  # a new board starts at the full deal
    assert c.state.declarer.letter == "S"  # board 2: dealer E passes, S opens 1S
    qtbot.keyClick(view.board_list, Qt.Key.Key_Up)
    assert view.current_index() == 0 and c.step == 0


def test_bar_buttons_and_slider(qtbot, settings):
    view = make_view(qtbot, [played_board()])
    c, bar = view.replay, view.replay.bar
    assert isinstance(bar, ReplayBar)
    assert [
        bar.actions_by_name[n].text() for n in ("start", "prev_trick", "prev_card", "next_card", "next_trick", "end")
    ] == ["⏮", "◀◀", "◀", "▶", "▶▶", "⏭"]
    bar.actions_by_name["next_trick"].trigger()
    bar.actions_by_name["next_card"].trigger()
    assert c.step == 5
    bar.actions_by_name["end"].trigger()
    assert c.step == 52
    bar.actions_by_name["prev_trick"].trigger()
    bar.actions_by_name["prev_card"].trigger()
    assert c.step == 47
    bar.actions_by_name["start"].trigger()
    assert c.step == 0
    bar.slider.setValue(17)
    assert c.step == 17 and view.diagram.view_model()["tricks"]["NS"] + view.diagram.view_model()["tricks"]["EW"] == 4
    tabs = [view.side_tabs.tabText(i) for i in range(view.side_tabs.count())]
    assert tabs[tabs.index("Auction") : tabs.index("Auction") + 2] == ["Auction", "Play"]  # Check may follow
    assert c.auction_view.cells()[0] == ["1NT", "Pass", "Pass", "Pass"]
    assert c.auction_view.column_letters() == ["N", "E", "S", "W"]
    c.auction_view.dealer_first_action.trigger()  # W N E S instead; remembered
    assert c.auction_view.cells()[0] == ["", "1NT", "Pass", "Pass"]
    assert settings.value(replay_module.SETTING_DEALER_FIRST, type=bool) is False


def test_movie_runs_to_the_end_and_stops(qtbot, settings):
    view = make_view(qtbot, [played_board(cards=12)])
    c, bar = view.replay, view.replay.bar
    c.timer.setInterval(5)
    c.to_end()
    bar.movie_action.trigger()  # at the end, the movie starts again from the start
    assert c.playing and bar.movie_action.isChecked() and c.step == 0
    qtbot.waitUntil(lambda: not c.playing, timeout=3000)
    assert c.step == 12 and not bar.movie_action.isChecked()
    bar.movie_action.trigger()
    assert c.playing
    bar.movie_action.trigger()
    assert not c.playing
    c.play()
    view.select_board(0)
    c.set_board(c.state.board)  # a board change stops the movie
    assert not c.playing and c.step == 0


def test_speed_and_grey_options_are_remembered(qtbot, settings):
    view = make_view(qtbot, [played_board()])
    c, bar = view.replay, view.replay.bar
    bar.speed.setCurrentIndex(0)
    assert c.timer.interval() == 250 and int(settings.value(SETTING_INTERVAL)) == 250
    c.go(6)
    assert view.diagram.view_model()["greyed"] == []
    bar.grey.setChecked(True)
    vm = view.diagram.view_model()
    assert len(vm["greyed"]) == 6 and sum(len(r) for h in vm["hands"].values() for r in h.values()) == 46
    assert settings.value(SETTING_GREY, type=bool) is True
    again = ReplayController(settings=settings)
    assert again.grey_played and again.timer.interval() == 250
    other = ReplayBar(again)
    qtbot.addWidget(other)
    assert other.grey.isChecked() and other.speed.currentText() == "0.25 s"


def test_claim_and_stop_reach_the_diagram(qtbot, settings):
    claimed = played_board(cards=36, claim=9)
    short = played_board(2, calls="1C 1D 1H 1S 1N 2C 2D 2H 2S 2N 3C X P P P", cards=47)
    view = make_view(qtbot, [claimed, short], fmt="zrj")
    c = view.replay
    c.to_end()
    vm = view.diagram.view_model()
    assert vm["claim"].startswith("N claims 9 tricks") and vm["stop"] is None and vm["to_play"] is None
    assert c.bar.info.text() == vm["claim"]
    c.prev_card()
    assert view.diagram.view_model()["claim"] is None
    view.select_board(1)
    c.to_end()
    assert view.diagram.view_model()["stop"] == "play stops after 47 cards (ZRJ holds no more)"


def test_illegal_play_is_marked_not_crashed_on(qtbot, settings):
    board = played_board()
    play = list(board.play)
    play[5], play[9] = play[9], play[5]
    board.play = play
    view = make_view(qtbot, [board])
    c = view.replay
    assert c.steps == 5
    c.to_end()
    vm = view.diagram.view_model()
    assert vm["stop"].startswith("play stops after 5 cards: card 6") and len(vm["trick"]) == 1
    c.next_card()
    assert c.step == 5


def test_board_without_play(qtbot, settings):
    board = played_board(cards=0)
    view = make_view(qtbot, [board])
    c = view.replay
    assert c.steps == 0 and c.bar.label_text() == "No play recorded"
    assert not c.bar.actions_by_name["next_card"].isEnabled() and not c.bar.slider.isEnabled()
    vm = view.diagram.view_model()
    assert vm["trick"] == [] and vm["stop"] is None
    assert sum(len(r) for h in vm["hands"].values() for r in h.values()) == 52
    c.play()
    assert not c.playing
    c.bar.movie_action.setEnabled(True)
    c.bar.movie_action.trigger()  # cannot start: the toggle springs back
    assert not c.playing and not c.bar.movie_action.isChecked()


def test_edit_of_the_current_board_keeps_the_step(qtbot, settings):
    view = make_view(qtbot, [played_board()])
    c = view.replay
    c.go(10)
    view.set_board_header(5, None, None)
    assert view.current_board().number == 5 and c.step == 10
    c.timer.setInterval(60_000)
    c.play()
    view.undo_stack.undo()  # leave the view unmodified: destroying a modified view is not this test's business
    assert view.current_board().number == 1 and c.step == 10 and view.undo_stack.isClean()
    assert c.playing  # a re-shown board does not stop the movie
    c.next_card()
    view.select_board(0)
    assert c.playing and c.step == 11
    view.shutdown()
    assert not c.playing


def test_trick_table_follows_the_replay_and_jumps(qtbot, settings):
    board = played_board()
    view = make_view(qtbot, [board])
    c, table = view.replay, view.replay.trick_table
    rs = ReplayState(board)
    assert table.rows() == []
    c.go(6)
    rows = table.rows()
    assert len(rows) == 2 and rows[0][0] == "1" and rows[1][5] == ""
    first = rs.tricks[0]
    lead_column = 1 + (int(first.leader) + 1) % 4
    assert table.item(0, lead_column).font().underline()
    winner_column = 1 + (int(first.winner) + 1) % 4
    assert table.item(0, winner_column).font().bold() and rows[0][5] == first.winner.letter
    assert sum(1 for text in rows[1][1:5] if text) == 2  # two cards of trick 2 so far
    assert table.selectionModel().selectedRows()[0].row() == 1
    c.to_end()
    assert len(table.rows()) == 13
    rect = table.visualRect(table.model().index(2, 0))
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert c.step == 12 and len(table.rows()) == 3
    hearts = [table.item(r, col) for r in range(3) for col in range(1, 5) if table.item(r, col).text()[0] == "♥"]
    assert all(item.foreground().color() == RED for item in hearts)


def test_claim_without_play_is_shown(qtbot, settings):
    view = make_view(qtbot, [played_board(cards=0, claim=13)])
    vm = view.diagram.view_model()
    assert vm["claim"] == "N claims 13 tricks for NS" and vm["trick"] == []
    assert view.replay.bar.info.text() == vm["claim"] and view.replay.bar.label_text() == "No play recorded"
