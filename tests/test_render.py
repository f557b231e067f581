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
