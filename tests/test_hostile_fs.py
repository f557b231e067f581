"""Saving on hostile file systems: symlinks are followed, write-protected files are not
replaced unless forced, part files a killed save left behind are cleaned, and a file
opened through a link and through its real path is one tab."""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import OPENED_IN_A_WINDOW, REPO
from test_ui_support import main_window, make_boards

from bridgeview.cli.main import main
from bridgeview.formats.atomic import clean_stale_parts, save_atomically, write_protected
from bridgeview.formats.errors import FormatError
from bridgeview.formats.registry import read_file, write_file
from bridgeview.ui import dialogs


def _cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


def _numbers(path: Path) -> list[int | None]:
    return [b.number for b in read_file(path)]


@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path]:
    """``real/t.pbn`` (boards 1-2) and ``t.pbn``, a symlink to it from another directory."""
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "t.pbn"
    write_file(make_boards(2), real)
    link = tmp_path / "t.pbn"
    link.symlink_to(real)
    return real, link


# -- symlinks -------------------------------------------------------------------------------
def test_saving_through_a_symlink_replaces_the_real_file(linked, tmp_path: Path) -> None:
    real, link = linked
    write_file(make_boards(5), link)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert _numbers(real) == [1, 2, 3, 4, 5]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["real", "t.pbn"]  # no part file left anywhere
    assert sorted(p.name for p in real.parent.iterdir()) == ["t.pbn"]


@pytest.mark.parametrize("src_fmt", ["pbn", "zrd"])  # the board-by-board and the bulk path
def test_cli_convert_through_a_symlink(linked, tmp_path: Path, src_fmt: str) -> None:
    real, _ = linked
    src = tmp_path / f"src.{src_fmt}"
    write_file(make_boards(4, dd=True), src)
    link = tmp_path / "out.pbn"
    link.symlink_to(real)
    rc, _out, err = _cli("convert", src, link)
    assert rc == 0, err
    assert link.is_symlink() and _numbers(real) == [1, 2, 3, 4]


def test_gui_save_through_a_symlink_and_one_tab_per_file(qtbot, linked, tmp_path: Path, messages) -> None:
    real, link = linked
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(link)) and w.open_file(str(real))
    assert len(w.views()) == 1, "the link and its target opened in two tabs"
    view = w.current_view()
    view.boards[0] = view.boards[0].touched(number=7)
    assert w.save() and not messages.calls
    assert link.is_symlink() and _numbers(real) == [7, 2]


# -- write-protected targets ----------------------------------------------------------------
@pytest.fixture
def protected(tmp_path: Path) -> Path:
    path = tmp_path / "t.pbn"
    write_file(make_boards(2), path)
    path.chmod(0o444)
    yield path
    path.chmod(0o644)


def test_write_protected_is_seen_for_root_too(protected: Path, tmp_path: Path) -> None:
    assert write_protected(protected)
    assert not write_protected(tmp_path / "absent.pbn")
    link = tmp_path / "link.pbn"
    link.symlink_to(protected)
    assert write_protected(link)


def test_convert_refuses_a_write_protected_target_unless_forced(protected: Path, tmp_path: Path) -> None:
    src = tmp_path / "src.zrd"
    write_file(make_boards(4, dd=True), src)
    before = protected.read_bytes()
    rc, _out, err = _cli("convert", src, protected)
    assert rc == 1 and err.count("\n") == 1
    assert err == f"bridgeview: {protected}: the file is write-protected; not replaced (--force replaces it)\n"
    assert protected.read_bytes() == before
    rc, _out, err = _cli("convert", src, protected, "--force")
    assert rc == 0, err
    assert _numbers(protected) == [1, 2, 3, 4]
    assert stat.S_IMODE(protected.stat().st_mode) == 0o444  # still protected


def test_write_file_and_save_atomically_refuse_too(protected: Path) -> None:
    with pytest.raises(FormatError, match="write-protected"):
        write_file(make_boards(3), protected)
    with pytest.raises(FormatError, match="write-protected"):
        save_atomically(protected, lambda f: f.write(b"x"))
    link = protected.parent / "link.pbn"
    link.symlink_to(protected)
    with pytest.raises(FormatError, match="write-protected") as refused:  # through a link: the file it names
        save_atomically(link, lambda f: f.write(b"x"))
    assert refused.value.path == str(protected) and link.is_symlink()
    assert _numbers(protected) == [1, 2]
    write_file(make_boards(3), protected, force=True)
    assert _numbers(protected) == [1, 2, 3]


def test_solve_refuses_before_solving(protected: Path, tmp_path: Path) -> None:
    src = tmp_path / "src.pbn"
    write_file(make_boards(2), src)
    rc, _out, err = _cli("solve", src, protected)
    assert rc == 1 and "write-protected" in err and "solved" not in err


@pytest.mark.parametrize("answer", [dialogs.Button.Cancel, dialogs.Button.Yes])
def test_the_gui_asks_before_replacing_a_write_protected_file(
    qtbot, protected: Path, tmp_path: Path, messages, answer
) -> None:
    messages.answer = answer
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(protected))
    view = w.current_view()
    view.boards[0] = view.boards[0].touched(number=9)
    saved = w.save()
    assert [(kind, title) for kind, title, _ in messages.calls] == [("question", "Write-protected file")]
    assert "write-protected" in messages.calls[0][2]
    assert saved == (answer == dialogs.Button.Yes)
    assert _numbers(protected) == ([9, 2] if saved else [1, 2])


# -- stale part files -----------------------------------------------------------------------
def test_stale_part_files_of_the_target_are_cleaned(tmp_path: Path) -> None:
    target = tmp_path / "t.pbn"
    stale = tmp_path / ".t.pbn.k2j_9x0a.part"  # what a save killed by kill -9 leaves behind
    others = [tmp_path / ".t.pbn.mine.part", tmp_path / ".u.pbn.k2j_9x0a.part", tmp_path / "t.pbn.k2j_9x0a.part"]
    for p in [stale, *others]:
        p.write_bytes(b"half a file")
    write_file(make_boards(2), target)
    assert not stale.exists()
    assert all(p.exists() for p in others), "a file not of our own naming for this target was removed"
    assert _numbers(target) == [1, 2]


def test_a_part_file_of_a_running_save_is_left_alone(tmp_path: Path) -> None:
    fcntl = pytest.importorskip("fcntl")
    target = tmp_path / "t.pbn"
    busy = tmp_path / ".t.pbn.abcdefgh.part"
    busy.write_bytes(b"being written")
    with open(busy, "rb") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)  # as save_atomically holds it while writing
        assert clean_stale_parts(target) == []
        assert busy.exists()
    assert clean_stale_parts(target) == [busy.name]


def test_a_failed_save_leaves_no_part_file(tmp_path: Path) -> None:
    target = tmp_path / "t.pbn"

    def boom(f) -> None:
        f.write(b"partial")
        raise OSError(28, "No space left on device")

    with pytest.raises(FormatError, match="No space left"):
        save_atomically(target, boom)
    assert list(tmp_path.iterdir()) == []


# -- a mapped file cut short by another program -------------------------------------------
CUT_SHORT = (
    r"""
import os, random, sys, time
from bridgeview.formats.registry import read_file, write_file
from bridgeview.model.board import Board
from bridgeview.model.boardset import CHECK_INTERVAL, BoardSet
from bridgeview.model.deal import Deal

path, how = sys.argv[1], sys.argv[2]
rng = random.Random(1)
write_file(BoardSet([Board.numbered(i + 1, Deal.shuffled(rng)) for i in range(3000)]), path)
if how == "gui":
"""
    + OPENED_IN_A_WINDOW
    + r"""else:
    doc = read_file(path)
    assert doc[1].unreadable is None
if how == "renamed":  # an atomic save by another program: the map keeps the old file
    os.replace(path + ".new", path) if os.path.exists(path + ".new") else None
    write_file(BoardSet([Board.numbered(1, Deal.shuffled(rng))]), path)
    time.sleep(CHECK_INTERVAL)
    assert doc[2500].number == 2501 and doc[2500].unreadable is None
    print("ok")
    sys.exit(0)
with open(path, "r+b") as f:  # another program rewrites the file in place
    f.truncate(100)
time.sleep(CHECK_INTERVAL)
if how == "gui":
    view.select_board(2500)
    w.grab()
board = doc[2500]
assert "cut short on disk" in board.unreadable, board.unreadable
try:
    list(doc.bulk())
except OSError as e:
    assert "cut short" in e.strerror and e.filename == path
else:
    raise AssertionError("bulk reading went on")
print("ok")
"""
)


@pytest.mark.parametrize("how", ["model", "gui", "renamed"])
@pytest.mark.slow
def test_a_mapped_file_cut_short_on_disk_does_not_kill_the_app(tmp_path: Path, how: str) -> None:
    """Reading a page of a memory-mapped file that another program truncated raises SIGBUS, which
    no Python handler survives: the set notices the file shrank and marks the boards instead.
    Run in a child process, so a regression fails this test instead of killing the test run."""
    import subprocess

    from conftest import REPO

    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    proc = subprocess.run(
        [sys.executable, "-c", CUT_SHORT, str(tmp_path / "t.zrd"), how],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, f"exit {proc.returncode}: {proc.stderr[-2000:]}"
    assert proc.stdout.strip().endswith("ok")


@pytest.fixture
def unwritable_folder(tmp_path: Path):
    """A folder no file can be made in, for root too: marked immutable (``chattr +i``); skipped where that
    cannot be done (not root, a file system without the flag)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
        pytest.skip("cannot mark a folder immutable here")
    try:
        yield folder
    finally:
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True)


def test_an_output_in_a_folder_that_cannot_be_written_is_refused_before_the_work(
    unwritable_folder: Path, tmp_path: Path, monkeypatch, capsys
) -> None:
    """``solve`` of a session into a folder it may not write in solved every deal and only then failed; the folder
    is tried first, as a write-protected file is."""
    from bridgeview.solve import timed

    def solving(*args, **kwargs):
        raise AssertionError("solved before the output was checked")

    monkeypatch.setattr(timed, "solve_within", solving)
    src = tmp_path / "in.pbn"
    src.write_text((REPO / "resources" / "sample.pbn").read_text(encoding="utf-8"), encoding="utf-8")
    out = unwritable_folder / "out.pbn"
    assert main(["solve", str(src), str(out), "--again"]) == 1
    assert capsys.readouterr().err.strip() == f"bridgeview: {out}: Operation not permitted"
    assert main(["convert", str(src), str(unwritable_folder / "x.lin")]) == 1
    assert list(unwritable_folder.iterdir()) == []


@pytest.fixture
def full_disk(tmp_path: Path):
    """A folder on a file system of two pages (a tmpfs: root only, else skipped) holding ``old.png`` and
    ``old.svg`` of 100 bytes each: no picture of the app fits in what is left."""
    folder = tmp_path / "full"
    folder.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", str(folder)]
    if os.geteuid() != 0 or shutil.which("mount") is None or subprocess.run(mount, capture_output=True).returncode:
        pytest.skip("needs root, to mount a small tmpfs")
    try:
        for name in ("old.png", "old.svg"):
            (folder / name).write_bytes(b"x" * 100)
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def _untouched(folder: Path) -> None:
    assert sorted(p.name for p in folder.iterdir()) == ["old.png", "old.svg"]  # (no part file left either)
    assert all((folder / name).read_bytes() == b"x" * 100 for name in ("old.png", "old.svg"))


def test_render_onto_a_full_disk_leaves_the_old_picture(full_disk: Path, tmp_path: Path, qapp) -> None:
    """Qt's own save wrote into the file as it encoded: a truncated PNG replaced the old one, with libpng's
    "Write Error" on the terminal. Now the picture is whole or not there, and the error is one line."""
    src = tmp_path / "s.pbn"
    write_file(make_boards(1, 3), src, "pbn")
    rc, _, err = _cli("render", src, "-o", full_disk / "old.png")
    assert rc == 1
    _untouched(full_disk)
    assert err == f"bridgeview: {full_disk / 'old.png'}: No space left on device\n"


@pytest.mark.parametrize("kind", ["png", "svg"])
def test_exporting_the_diagram_onto_a_full_disk_says_so_and_leaves_the_old_file(
    qtbot, full_disk: Path, tmp_path: Path, messages, kind: str
) -> None:
    """File › Export Diagram: the SVG export said nothing when its file was there before (it asked only whether
    the file existed), and both left a truncated file in place of the old one."""
    src = tmp_path / "s.pbn"
    write_file(make_boards(1, 3), src, "pbn")
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(src))
    target = full_disk / f"old.{kind}"
    assert not w.export_diagram(kind, str(target))
    _untouched(full_disk)
    assert [call[:2] for call in messages.calls] == [("error", "Export")]
    assert f"{target}: No space left on device" in messages.calls[0][2]
    assert w.export_diagram(kind, str(tmp_path / f"new.{kind}"))  # (and where there is room, it is written)
    assert (tmp_path / f"new.{kind}").stat().st_size > 1000


def test_solve_onto_a_full_disk_leaves_no_journal(full_disk: Path, tmp_path: Path) -> None:
    """A run in chunks whose journal cannot be started says so naming it, and leaves nothing behind (an empty
    journal would make the next run refuse to start)."""
    src = tmp_path / "s.pbn"
    write_file(make_boards(3, 3), src, "pbn")
    rc, _, err = _cli("solve", src, full_disk / "out.pbn", "--chunk", 1, "--again")
    assert rc == 1
    _untouched(full_disk)
    assert err == (
        f"bridgeview: {full_disk / 'out.pbn.solving'}: cannot start the journal: No space left on device; "
        "nothing was kept\n"
    )


def test_a_picture_that_cannot_be_encoded_writes_nothing(qapp, tmp_path: Path) -> None:
    """(A null picture: the one thing Qt's PNG encoder refuses.) The error names the file, and nothing is made."""
    from PySide6.QtGui import QImage

    from bridgeview.ui.imagefile import write_png

    with pytest.raises(FormatError, match="could not be encoded as PNG") as caught:
        write_png(QImage(), tmp_path / "x.png")
    assert caught.value.full().startswith(str(tmp_path / "x.png"))
    assert list(tmp_path.iterdir()) == []
