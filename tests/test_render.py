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
    """``bridgeview render`` in a process of its own starts the DDS child for a board without a DD table
    before it imports Qt (forked, it solves the deal while Qt starts): the picture is the one of the same
    board with its table in the file, grid and par line included."""
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
