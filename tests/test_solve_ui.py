"""The GUI solver: worker progress, cancel and responsiveness; grid, par, Solve again, replay annotations."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from test_solve import endings

from bridgeview.model.auction import Call
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.cards import Card, Seat, Strain
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal
from bridgeview.ui.analysis import solver as solver_module
from bridgeview.ui.analysis.solver import SolverWorker
from bridgeview.ui.boardset.view import DocumentView

DEALS = (
    "N:65.A53.JT7.AK762 AK87.QT4.AK98.95 JT9.982.Q532.Q83 Q432.KJ76.64.JT4",
    "N:AQ63.J7.Q42.AKJ7 T942.T5.KT6.9643 J85.4.AJ8753.Q82 K7.AKQ98632.9.T5",
    "N:QT5.KQ9863.T7.T8 K764.A7.Q543.AQ9 AJ92.J42.KJ96.72 83.T5.A82.KJ6543",
    "N:Q942.J96.Q94.K73 J6.AK42.AJT83.T2 T53.753.K762.J64 AK87.QT8.5.AQ985",
)
TABLE_1 = DDTable.from_rows([[6, 5, 4, 3, 6], [6, 8, 9, 10, 7], [6, 5, 4, 3, 6], [6, 8, 9, 10, 7]])
TABLE_2 = DDTable.from_rows([[12, 12, 5, 10, 5], [0, 0, 8, 2, 0], [12, 12, 5, 10, 5], [0, 0, 8, 2, 0]])


@pytest.fixture
def worker_of(qtbot):
    made: list[SolverWorker] = []

    def make(deal_for) -> SolverWorker:
        w = SolverWorker(deal_for)
        made.append(w)
        return w

    yield make
    for w in made:
        w.stop()


def test_worker_reports_tables_and_progress(qtbot, worker_of):
    deals = endings(2, 30)
    w = worker_of(lambda i: deals[i])
    got: dict[int, DDTable] = {}
    progress: list[tuple[int, int]] = []
    w.tableReady.connect(lambda i, t: got.__setitem__(i, t))
    w.progress.connect(lambda d, t: progress.append((d, t)))
    with qtbot.waitSignal(w.backgroundFinished, timeout=20_000) as blocker:
        w.solve_background(range(30))
    assert blocker.args == [False]
    assert sorted(got) == list(range(30))
    assert progress[-1] == (30, 30)
    assert [d for d, _ in progress] == sorted(d for d, _ in progress)
    qtbot.waitUntil(lambda: not w.isRunning(), timeout=5000)  # an idle worker holds no thread


def test_worker_cancel_keeps_finished_batch(qtbot, worker_of):
    deals = endings(2, 100)
    gate = threading.Event()

    def deal_for(i: int) -> Deal:
        if i == 0:
            gate.wait(10)
        return deals[i]

    w = worker_of(deal_for)
    got: list[int] = []
    w.tableReady.connect(lambda i, t: got.append(i))
    w.solve_background(range(100))
    qtbot.waitUntil(lambda: w.background_pending() < 100, timeout=5000)  # the first batch is taken
    with qtbot.waitSignal(w.backgroundFinished, timeout=5000) as blocker:
        w.cancel_background()
    assert blocker.args == [True]
    gate.set()
    qtbot.waitUntil(w.is_idle, timeout=10_000)
    qtbot.waitUntil(lambda: len(got) >= solver_module.BACKGROUND_BATCH, timeout=5000)
    QApplication.processEvents()  # the worker is idle: any table beyond the batch is already posted
    assert sorted(got) == list(range(solver_module.BACKGROUND_BATCH))


def test_gui_stays_responsive_while_solving(qtbot, worker_of):
    deals = [Deal.from_pbn(d) for d in DEALS]
    w = worker_of(lambda i: deals[i % 4])
    ticks = []
    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start()
    got: list[int] = []
    w.tableReady.connect(lambda i, t: got.append(i))
    with qtbot.waitSignal(w.backgroundFinished, timeout=60_000):
        w.solve_background(range(8))
    timer.stop()
    assert len(got) == 8
    assert len(ticks) >= 10  # the event loop kept turning while DDS worked


def test_worker_compute_latest_wins(qtbot, worker_of):
    w = worker_of(lambda i: None)
    results = []
    w.resultReady.connect(lambda k, r: results.append((k, r)))
    gate = threading.Event()
    w.compute("a", 1, lambda: gate.wait(5) and "first")
    w.compute("b", 2, lambda: "old")
    w.compute("b", 3, lambda: "new")
    gate.set()
    qtbot.waitUntil(lambda: len(results) == 2, timeout=5000)
    assert results == [(1, "first"), (3, "new")]


# -- in a document view ---------------------------------------------------------------
def shown(view, i: int) -> DDTable | None:
    """Board ``i``'s DD table as the window shows it (stored, or solved here and kept beside the board)."""
    return view.shown_board(view.model.board(i)).dd


def make_view(qtbot, boards, monkeypatch, delay: int = 0) -> DocumentView:
    monkeypatch.setattr(solver_module, "AUTO_DELAY_MS", delay)
    view = DocumentView(BoardSet(boards, FileInfo(format="pbn")))
    qtbot.addWidget(view)
    view.resize(1200, 700)
    view.show()
    return view


@pytest.mark.slow
def test_view_solves_current_board_then_the_rest(qtbot, monkeypatch):
    boards = [Board.numbered(1, Deal.from_pbn(DEALS[0])), Board.numbered(2, Deal.from_pbn(DEALS[1]))]
    view = make_view(qtbot, boards, monkeypatch, delay=200)
    grid = view.dd_grid
    assert "Solving" in grid.note.text()
    qtbot.waitUntil(lambda: grid.table() is not None and grid.table().is_complete, timeout=20_000)
    assert grid.table() == TABLE_1
    assert grid.cell_text(Seat.EAST, Strain.SPADES) == "10"
    qtbot.waitUntil(lambda: "Par" in grid.par_text(), timeout=10_000)
    assert grid.par_text().splitlines() == ["Par EW 420: EW 4S", "Makes: EW 1NT 4S 3H 2D"]
    qtbot.waitUntil(lambda: shown(view, 1) is not None, timeout=20_000)  # the rest, in the background
    assert shown(view, 1) == TABLE_2
    assert view.boards[1].dd is None and view.undo_stack.count() == 0  # solved for display: the board is as read
    qtbot.waitUntil(lambda: not view.solver.bar.is_running(), timeout=5000)
    view.select_board(1)
    assert grid.table() == TABLE_2
    view.solver.shutdown()


def test_solve_again_marks_disagreement(qtbot, monkeypatch):
    wrong = TABLE_1.with_value(Seat.NORTH, Strain.NOTRUMP, 9)
    boards = [Board.numbered(1, Deal.from_pbn(DEALS[0]), dd=wrong)]
    view = make_view(qtbot, boards, monkeypatch)
    grid = view.dd_grid
    assert grid.cell_text(Seat.NORTH, Strain.NOTRUMP) == "9"  # stored results are shown as stored
    view.solver.solve_again_action.trigger()
    qtbot.waitUntil(lambda: "differs" in grid.note.text(), timeout=20_000)
    assert grid.note.text() == "stored table differs from DDS in 1 cell"
    assert grid.cell_text(Seat.NORTH, Strain.NOTRUMP) == "9"
    item = grid.grid.item(0, 0)  # N, NT
    assert item.toolTip() == "stored 9, DDS 6"
    assert view.boards[0].dd == wrong  # the stored table is not overwritten
    view.solver.shutdown()


@pytest.mark.slow
def test_cancel_button_stops_the_background(qtbot, monkeypatch):
    boards = [Board.numbered(i + 1, Deal.from_pbn(DEALS[i % 4])) for i in range(40)]
    view = make_view(qtbot, boards, monkeypatch, delay=100_000)
    view.solver.solve_all()
    assert view.solver.bar.is_running()
    view.solver.bar.cancel.click()
    qtbot.waitUntil(lambda: not view.solver.bar.is_running(), timeout=5000)
    qtbot.waitUntil(view.solver.worker.is_idle, timeout=30_000)
    assert sum(shown(view, i) is not None for i in range(40)) <= 1 + 2 * solver_module.BACKGROUND_BATCH
    view.solver.shutdown()


def test_replay_shows_tricks_per_card(qtbot, monkeypatch):
    deal = Deal.from_pbn(DEALS[0])
    board = Board.numbered(
        1, deal, auction=[Call.parse(c) for c in "1N P P P".split()], play=[Card.parse("SA"), Card.parse("S9")]
    )
    view = make_view(qtbot, [board], monkeypatch, delay=100_000)
    replay = view.replay
    if replay is None or not hasattr(replay, "positionChanged"):
        pytest.skip("no replay controller")
    diagram = view.diagram

    def annotations() -> dict:
        return diagram.view_model()["annotations"]

    qtbot.waitUntil(lambda: len(annotations()) == 13, timeout=20_000)  # East's opening leads
    ann = annotations()
    assert min(int(v[0]) for v in ann.values()) == 6
    assert {c for c, v in ann.items() if v[1]} == {"D8", "D9"}
    replay.next_card()  # SA led; South to play, must follow in spades
    qtbot.waitUntil(lambda: set(annotations()) == {"ST", "S9", "SJ"}, timeout=20_000)
    replay.next_card()
    qtbot.waitUntil(lambda: set(annotations()) == {"SQ", "S4", "S3", "S2"}, timeout=20_000)  # West follows
    view.solver.shutdown()


def test_endings_are_solved_and_uneven_ones_explained(qtbot, monkeypatch):
    uneven = Board(number=1, deal=Deal.from_pbn("N:AKQ... ...AK .AKQ.. ..AKQ."))
    ending = Board(number=2, deal=Deal.from_pbn("N:AKQ... ...AKQ .AKQ.. ..AKQ."))
    view = make_view(qtbot, [uneven, ending], monkeypatch, delay=100_000)
    grid = view.dd_grid
    assert grid.note.text() == "Not solvable double dummy: the hands hold different numbers of cards."
    view.select_board(1)
    qtbot.waitUntil(lambda: shown(view, 1) is not None, timeout=20_000)
    assert grid.cell_text(Seat.NORTH, Strain.SPADES) == "3"
    assert grid.cell_text(Seat.NORTH, Strain.NOTRUMP) == "0"
    assert "Par" not in grid.par_text()  # an ending has no par
    view.solver.shutdown()


def test_big_files_solve_only_what_is_viewed(qtbot, monkeypatch):
    monkeypatch.setattr(solver_module, "AUTO_SOLVE_LIMIT", 3)
    boards = [Board.numbered(i + 1, Deal.from_pbn(DEALS[i % 4])) for i in range(5)]
    view = make_view(qtbot, boards, monkeypatch, delay=0)
    assert not view.solver.auto
    qtbot.waitUntil(lambda: shown(view, 0) is not None, timeout=20_000)
    view.select_board(2)
    qtbot.waitUntil(lambda: shown(view, 2) is not None, timeout=20_000)
    qtbot.waitUntil(view.solver.worker.is_idle, timeout=20_000)
    QApplication.processEvents()  # what the idle worker solved is posted: deliver it before looking
    # board 5 holds board 1's deal: the table solved for that deal serves both
    assert [shown(view, i) is not None for i in range(5)] == [True, False, True, False, True]
    view.solver.shutdown()


@pytest.mark.parametrize("fmt", ["pbn", "zrd", "zdd", "zrj16"])
@pytest.mark.slow
def test_save_as_after_solving_keeps_the_tables(qtbot, monkeypatch, tmp_path, fmt):
    """Tables the GUI solved go into every format that holds DD results (Save As from the window)."""
    from PySide6.QtCore import QSettings

    from bridgeview.formats.registry import read_file, write_file
    from bridgeview.ui import dialogs
    from bridgeview.ui.mainwindow import MainWindow

    monkeypatch.setattr(solver_module, "AUTO_DELAY_MS", 50)
    monkeypatch.setattr(solver_module, "SETTLE_MS", 10)
    monkeypatch.setattr(dialogs, "message", lambda *a, **k: dialogs.Button.Save)  # accept the loss warnings
    src = tmp_path / "in.pbn"
    write_file(
        BoardSet([Board.numbered(i + 1, Deal.from_pbn(d)) for i, d in enumerate(DEALS[:2])], FileInfo()), src, "pbn"
    )
    window = MainWindow(QSettings(str(tmp_path / "w.ini"), QSettings.Format.IniFormat))
    qtbot.addWidget(window)
    assert window.open_file(str(src))
    view = window.current_view()
    qtbot.waitUntil(
        lambda: all(shown(view, i) is not None and shown(view, i).is_complete for i in range(2)), timeout=30_000
    )
    assert not view.is_modified()  # Save As to another file writes them all the same
    out = tmp_path / f"out.{'zrj' if fmt == 'zrj16' else fmt}"
    assert window.save_as(str(out), fmt)
    back = read_file(out, fmt)
    if fmt == "zrj16":  # one hand's makes per board: the target hand's row
        for board, table in zip(back, (TABLE_1, TABLE_2), strict=True):
            assert board.dd is not None and not board.dd.is_empty
            assert all(
                v is None or v == table.tricks[s][st]
                for s, row in enumerate(board.dd.tricks)
                for st, v in enumerate(row)
            )
    else:
        assert [b.dd for b in back] == [TABLE_1, TABLE_2]
    view.shutdown()


def test_a_view_on_screen_asks_dds_only_after_its_diagram_is_first_painted(qtbot, monkeypatch):
    """The current board's requests to DDS (its table) wait for the diagram's first paint: the window shows its
    first board before DDS's work starts (issue 29). The par line of a stored table needs no DDS: it is there at
    once, before any paint."""
    monkeypatch.setattr(solver_module, "SETTLE_MS", 10)
    stored = Board.numbered(1, Deal.from_pbn(DEALS[0])).touched(dd=TABLE_1)
    unsolved = Board.numbered(2, Deal.from_pbn(DEALS[1]))
    view = make_view(qtbot, [stored, unsolved], monkeypatch, delay=600_000)  # no solving of the whole set
    asked: list[str] = []
    monkeypatch.setattr(view.solver.worker, "compute", lambda kind, key, fn: asked.append(kind))
    monkeypatch.setattr(view.solver.worker, "solve_now", lambda i, deal: asked.append(f"table {i}"))
    view.diagram.setUpdatesEnabled(False)  # on screen, not painted yet
    assert view.dd_grid.par_text().startswith("Par ")  # worked out here, at once
    view.select_board(1)
    qtbot.wait(100)  # the settle timer (10 ms) has run out ten times: still held for the paint
    assert asked == []
    view.diagram.setUpdatesEnabled(True)
    view.diagram.update()
    qtbot.waitUntil(lambda: asked == ["table 1"], timeout=5000)
    view.solver.shutdown()
