"""A time limit on double-dummy solving (issue 13, item 9): a deal DDS takes minutes over
(the DDS test deal "Thomas 2") never makes render, solve or the GUI wait for it."""

from __future__ import annotations

import threading
import time
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from bridgeview.cli.main import main
from bridgeview.formats.registry import read_file
from bridgeview.model.board import Board
from bridgeview.model.deal import Deal

pytest.importorskip("endplay")

THOMAS_2 = "S:AQT8642.KJ9753.. KJ9753..AQT8642. ..KJ9753.AQT8642 .AQT8642..KJ9753"
EASY = "N:65.A53.JT7.AK762 AK87.QT4.AK98.95 JT9.982.Q532.Q83 Q432.KJ76.64.JT4"
#: long enough for an ordinary deal on a busy machine (DDS solves EASY in milliseconds; starting the
#: child process has its own allowance, timed.START_TIMEOUT), far too short for Thomas 2 (over a minute).
#: Every second of it is a second of DDS on a core in each test here, twice in the solve test.
LIMIT = 3


def pbn_file(tmp_path: Path, deals: list[str]) -> Path:
    path = tmp_path / "hard.pbn"
    path.write_text("\n".join(f'[Board "{n}"]\n[Deal "{d}"]\n' for n, d in enumerate(deals, 1)))
    return path


@pytest.mark.slow
def test_render_draws_without_the_table_and_says_so(tmp_path, capsys, qapp):
    path = pbn_file(tmp_path, [THOMAS_2])
    start = time.monotonic()
    assert main(["render", str(path), "--dd-timeout", str(LIMIT), "-o", str(tmp_path / "t.png")]) == 0
    assert time.monotonic() - start < LIMIT + 40
    err = capsys.readouterr().err
    assert f"board 1: the double-dummy solver took longer than {LIMIT} s; drawn without its table" in err
    assert (tmp_path / "t.png").stat().st_size > 1000


@pytest.mark.slow
def test_solve_goes_on_past_a_slow_deal(tmp_path, capsys):
    path = pbn_file(tmp_path, [EASY, THOMAS_2])
    out = tmp_path / "solved.pbn"
    assert main(["solve", str(path), str(out), "--dd-timeout", str(LIMIT)]) == 0
    err = capsys.readouterr().err
    assert f"board 2: DDS took longer than {LIMIT} s; left without a table (slow)" in err
    assert "solved 1 of 2 boards" in err
    doc = read_file(out)
    assert doc[0].dd is not None and doc[0].dd.is_complete
    assert doc[1].dd is None


def test_dd_timeout_must_be_a_positive_number(tmp_path, capsys):
    path = pbn_file(tmp_path, [EASY])
    with pytest.raises(SystemExit) as e:  # a usage error, as argparse reports them
        main(["render", str(path), "--dd-timeout", "0", "-o", str(tmp_path / "x.png")])
    assert e.value.code == 2
    assert "above 0" in capsys.readouterr().err


@pytest.mark.slow
def test_gui_gives_up_on_the_current_board_and_says_so(qtbot, monkeypatch):
    from bridgeview.model.boardset import BoardSet, FileInfo
    from bridgeview.ui.analysis import solver as solver_module
    from bridgeview.ui.boardset.view import DocumentView

    monkeypatch.setattr(solver_module, "DD_TIMEOUT", float(LIMIT))
    monkeypatch.setattr(solver_module, "AUTO_DELAY_MS", 60_000)
    doc = BoardSet([Board.numbered(1, Deal.from_pbn(THOMAS_2))], FileInfo(format="pbn"))
    view = DocumentView(doc)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: "longer than" in view.dd_grid.note.text(), timeout=(LIMIT + 40) * 1000)
    assert view.dd_grid.note.text() == (
        f"No double-dummy table: DDS took longer than {LIMIT} s on this deal and was stopped."
    )
    view.select_board(0)  # shown again: not asked again
    assert "longer than" in view.dd_grid.note.text()
    view.solver.shutdown()


@pytest.mark.slow
def test_quitting_does_not_wait_for_a_slow_deal(qtbot, monkeypatch):
    from bridgeview.model.boardset import BoardSet, FileInfo
    from bridgeview.ui.analysis import solver as solver_module
    from bridgeview.ui.boardset.view import DocumentView

    monkeypatch.setattr(solver_module, "DD_TIMEOUT", 600.0)
    monkeypatch.setattr(solver_module, "AUTO_DELAY_MS", 60_000)
    asked = threading.Event()
    send = Connection.send

    def send_and_tell(self, obj):  # the parent's request to the DDS child: its hands and a job count
        send(self, obj)
        if isinstance(obj, tuple):
            asked.set()

    monkeypatch.setattr(Connection, "send", send_and_tell)
    doc = BoardSet([Board.numbered(1, Deal.from_pbn(THOMAS_2))], FileInfo(format="pbn"))
    view = DocumentView(doc)
    qtbot.addWidget(view)
    view.show()
    qtbot.waitUntil(lambda: not view.solver.worker.is_idle(), timeout=5000)
    assert asked.wait(60)  # the child is started and has the deal: DDS is on it
    start = time.monotonic()
    view.solver.worker.stop()
    assert time.monotonic() - start < 10
    assert not view.solver.worker.isRunning()
