"""``bridgeview render``: PNGs of the right size, steps, and one-line errors."""

from __future__ import annotations

from PySide6.QtGui import QImage
from test_ui_support import make_file

from bridgeview.cli.main import main
from bridgeview.resources import resource

SAMPLE = str(resource("sample.pbn"))


def size_of(path) -> tuple[int, int]:
    img = QImage(str(path))
    assert not img.isNull()
    return img.width(), img.height()


def test_render_diagram_default_and_given_size(qapp, tmp_path):
    out = tmp_path / "a.png"
    path, _ = make_file(tmp_path, "zrd", n=3)
    assert main(["render", str(path), "--board", "2", "-o", str(out)]) == 0
    assert size_of(out) == (900, 560)
    assert main(["render", str(path), "--board", "3", "--width", "640", "--height", "480", "-o", str(out)]) == 0
    assert size_of(out) == (640, 480)


def test_render_window(qapp, tmp_path):
    out = tmp_path / "w.png"
    path, _ = make_file(tmp_path, "deals", n=3)
    assert (
        main(["render", str(path), "--board", "2", "--window", "--width", "1024", "--height", "700", "-o", str(out)])
        == 0
    )
    assert size_of(out) == (1024, 700)


def test_render_step_of_sample(qapp, tmp_path):
    out = tmp_path / "s.png"
    assert main(["render", SAMPLE, "--board", "3", "--step", "6", "-o", str(out)]) == 0
    assert size_of(out) == (900, 560)
    assert main(["render", SAMPLE, "--board", "1", "--step", "5", "--window", "-o", str(out)]) == 0
    assert size_of(out) == (1280, 800)


def test_render_errors_are_one_line(qapp, tmp_path, capsys):
    path, _ = make_file(tmp_path, "deals", n=3)
    out = tmp_path / "e.png"
    assert main(["render", str(path), "--board", "99", "-o", str(out)]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "no board 99" in err
    assert main(["render", str(path), "--board", "1", "--step", "3", "-o", str(out)]) == 1
    assert "no play" in capsys.readouterr().err
    assert main(["render", str(path), "--width", "5", "-o", str(out)]) == 1
    assert not out.exists()


def test_render_cribbage(qapp, tmp_path):
    import test_cribbage_support as support

    files = [tmp_path / "game.crib"]
    files[0].write_bytes(support.sample_text())
    out = tmp_path / "c.png"
    assert main(["render", str(files[0]), "--deal", "1", "--step", "0", "-o", str(out)]) == 0
    assert out.exists()


def test_render_as_a_command_solves_a_board_without_a_table_while_qt_starts(tmp_path):
    """``bridgeview render`` as a user runs it, a process of its own, where the DDS child for a board without
    a DD table is forked before Qt is imported and solves the deal while Qt starts: the picture is the one of
    the same board with its table in the file, grid and par line included."""
    import os
    import subprocess
    import sys

    import pytest

    pytest.importorskip("endplay")
    from bridgeview.formats.registry import read_file, write_file
    from bridgeview.model.boardset import BoardSet
    from bridgeview.solve.dds import solve_table

    board = read_file(SAMPLE)[0]
    bare, solved = tmp_path / "bare.pbn", tmp_path / "solved.pbn"
    write_file(BoardSet([board.copy(dd=None)]), bare, "pbn")
    write_file(BoardSet([board.copy(dd=solve_table(board.deal))]), solved, "pbn")
    assert read_file(bare)[0].dd is None
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    pictures = []
    for path in (bare, solved):
        out = tmp_path / f"{path.stem}.png"
        run = subprocess.run(
            [sys.executable, "-m", "bridgeview.cli.main", "render", str(path), "-o", str(out)],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
        assert run.returncode == 0, run.stderr
        pictures.append(out.read_bytes())
    assert pictures[0] == pictures[1]


def test_render_finds_a_board_by_number_without_qt(tmp_path):
    """``--board N`` is found by the board set's numbers (the board list's model asks the same function)."""
    from bridgeview.model.board import Board
    from bridgeview.model.boardset import BoardSet, find_number
    from bridgeview.model.deal import Deal

    deal = Deal.from_pbn("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432")
    from_five = BoardSet([Board.numbered(n, deal) for n in (5, 6, 7)])
    assert [find_number(from_five, n) for n in (5, 7, 4, 8, 1)] == [0, 2, None, None, None]
    gaps = BoardSet([Board.numbered(n, deal) for n in (1, 3, 9, 2)])
    assert [find_number(gaps, n) for n in (1, 2, 3, 9, 4)] == [0, 3, 1, 2, None]
    assert find_number(BoardSet([]), 1) is None
    asked = []
    assert find_number(gaps, 9, lambda i: asked.append(i) or gaps[i]) == 2 and asked
