"""Outputs and inputs that are not plain files, and standard streams the shell closed or filled.

Found by a sweep of the commands under hostile conditions: a FIFO or device named as OUT was replaced by a regular
file (as root, ``render -o /dev/null`` replaced the system's ``/dev/null``); a pipe as input lost its first boards
with exit 0; ``render -o deals.pbn`` replaced the deal file with a picture; a closed stdout or stderr gave
tracebacks, or output lost with exit 0; ``--version`` to a full disk, a traceback.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import REPO

from bridgeview.cli.main import main
from bridgeview.formats import registry
from bridgeview.formats.atomic import save_atomically
from bridgeview.formats.errors import FormatError
from bridgeview.model.boardset import FileChangedError

SAMPLE = REPO / "resources" / "sample.pbn"

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")


def _bridgeview(*args: str, shell: str = "", unbuffered: bool | None = None) -> subprocess.CompletedProcess[str]:
    """The command in a fresh process, its streams as ``shell`` (a redirection such as ``>&-``) leaves them; Python's
    streams unbuffered (``-u``) or not, if said (else as this process's environment has it)."""
    command = f'exec "$@" {shell}'
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if unbuffered is not None:
        env.pop("PYTHONUNBUFFERED", None)
        if unbuffered:
            env["PYTHONUNBUFFERED"] = "1"
    return subprocess.run(
        ["sh", "-c", command, "sh", sys.executable, "-m", "bridgeview", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def _unstick(fifo: Path, after: float = 3.0, until: float = 60.0) -> None:
    """From a daemon thread, after ``after`` seconds and then every second until ``until``, meet whoever waits at
    ``fifo``: a writer (its bytes read and dropped) or a reader (given the end of the file). Code that regressed
    into opening it with nobody at the other end then fails its test instead of hanging the suite."""

    def meet() -> None:
        import time

        time.sleep(after)
        for _ in range(int(until - after)):
            for flags in (os.O_RDONLY, os.O_WRONLY):
                try:
                    fd = os.open(fifo, flags | os.O_NONBLOCK)
                except OSError:  # (no reader for a writer's end: ENXIO)
                    continue
                try:
                    if flags == os.O_RDONLY:
                        while True:
                            try:
                                if not os.read(fd, 1 << 16):
                                    break
                            except BlockingIOError:
                                break
                finally:
                    os.close(fd)
            time.sleep(1.0)

    threading.Thread(target=meet, daemon=True).start()


@needs_fifo
def test_a_fifo_named_as_the_output_is_written_into_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "out.pbn"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    assert main(["convert", str(SAMPLE), str(fifo)]) == 0
    reader.join(30)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)  # still the FIFO (it was replaced by a regular file)
    assert got and got[0].count(b"[Board ") == 16  # and its reader got the set (it waited for ever)


def test_a_link_that_never_ends_is_refused_not_replaced(tmp_path: Path, capsys) -> None:
    loop = tmp_path / "loop.pbn"
    loop.symlink_to(loop.name)
    assert main(["convert", str(SAMPLE), str(loop)]) == 1
    assert capsys.readouterr().err == f"bridgeview: {loop}: Too many levels of symbolic links\n"
    assert loop.is_symlink()
    with pytest.raises(FormatError, match="Too many levels"):
        save_atomically(loop, lambda f: f.write(b"x"))


def test_the_input_cut_short_while_read_is_not_said_of_the_output(tmp_path: Path) -> None:
    """An error of the input raised while the output is written (the mapped input cut short on disk) kept the
    input's name; it was said of the output ("o.pbn: the file was cut short on disk after it was opened")."""
    out = tmp_path / "o.pbn"

    def write(_f) -> None:
        raise FileChangedError(None, "the file was cut short on disk after it was opened", "in.zbd")

    with pytest.raises(FileChangedError) as caught:
        save_atomically(out, write)
    assert caught.value.filename == "in.zbd"
    assert list(tmp_path.iterdir()) == []


@needs_fifo
def test_a_pipe_as_input_is_refused_unless_its_format_is_named(tmp_path: Path) -> None:
    """Detection read the first 4 KiB and opened the file again: a pipe had lost them (7 boards of 16, exit 0)."""
    fifo = tmp_path / "in.pbn"
    os.mkfifo(fifo)
    data = SAMPLE.read_bytes()

    def writer() -> None:
        with open(fifo, "wb") as f:
            f.write(data)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    try:
        with pytest.raises(FormatError, match="not a regular file .*--from FMT"):
            registry.detect(fifo)
        assert registry.read_file(fifo, "pbn").__len__() == 16  # (named, it is read once, whole)
    finally:
        thread.join(5)
        if thread.is_alive():  # (the writer still waits for a reader: met without waiting for one in turn)
            _unstick(fifo, after=0, until=10)
        thread.join(10)


def test_render_writes_only_a_png_file(tmp_path: Path, capsys) -> None:
    """``render deals.pbn -o deals.pbn`` replaced the deal file with a picture; ``-o -`` wrote a file named "-"."""
    deals = tmp_path / "deals.pbn"
    deals.write_bytes(SAMPLE.read_bytes())
    for out in (str(deals), "-"):
        assert main(["render", str(deals), "-o", out]) == 1
        assert "render writes a PNG image: give the output a name ending in .png" in capsys.readouterr().err
    assert deals.read_bytes() == SAMPLE.read_bytes()
    assert not Path("-").exists()


def test_closed_stdout_is_one_line_and_exit_1(tmp_path: Path) -> None:
    binary = ["convert", str(SAMPLE), "-", "--to", "zbd"]  # (written whole: its failure was said twice)
    for args in (["info", str(SAMPLE)], ["dump", str(SAMPLE)], ["convert", str(SAMPLE), "-"], binary, ["--version"]):
        done = _bridgeview(*args, shell=">&-")
        assert (done.returncode, done.stderr) == (1, "bridgeview: standard output: Bad file descriptor\n"), args


def test_closed_stderr_does_not_stop_the_command(tmp_path: Path) -> None:
    out = tmp_path / "out.lin"
    done = _bridgeview("convert", str(SAMPLE), str(out), shell="2>&-")
    assert done.returncode == 0 and out.exists()


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_version_to_a_full_disk_is_one_line() -> None:
    done = _bridgeview("--version", shell=">/dev/full")
    assert (done.returncode, done.stderr) == (1, "bridgeview: standard output: No space left on device\n")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
@pytest.mark.parametrize("unbuffered", [False, True])
def test_standard_output_on_a_full_disk_is_named(unbuffered: bool) -> None:
    """Most commands said only "bridgeview: No space left on device", as if of a file of theirs; ``--help`` wrote
    nothing and exited 0 (argparse drops a failed write of its help)."""
    for args in (["info", str(SAMPLE)], ["dump", str(SAMPLE)], ["formats"], ["--help"], ["convert", "--help"]):
        done = _bridgeview(*args, shell=">/dev/full", unbuffered=unbuffered)
        assert (done.returncode, done.stderr) == (1, "bridgeview: standard output: No space left on device\n"), args


@pytest.mark.parametrize("args", [["--help"], ["info", str(SAMPLE)]])
def test_standard_output_whose_reader_has_gone_is_quiet(args: list[str]) -> None:
    """The help is now written as any output (above): a pipe with no reader (``| head`` gone) stays quiet, exit 0."""
    read, write = os.pipe()
    os.close(read)
    try:
        env = {**os.environ, "PYTHONPATH": str(REPO)}
        done = subprocess.run(
            [sys.executable, "-m", "bridgeview", *args], stdout=write, stderr=subprocess.PIPE, text=True, env=env
        )
    finally:
        os.close(write)
    assert (done.returncode, done.stderr) == (0, "")


def test_dump_of_a_file_cut_short_while_read_fails_and_prints_nothing(tmp_path: Path, monkeypatch, capsys) -> None:
    """A lazily read file cut short on disk once opened: ``dump`` printed every board after the cut as an
    "unreadable" stand-in, with exit 0 and nothing said. Now it says so, names the file, and prints nothing."""
    import time

    from bridgeview.cli import dump
    from bridgeview.formats.registry import write_file
    from bridgeview.model.board import Board
    from bridgeview.model.boardset import BoardSet
    from bridgeview.model.deal import Deal

    path = tmp_path / "set.zbd"
    import random

    rng = random.Random(3)
    write_file(BoardSet([Board.numbered(i + 1, Deal.shuffled(rng)) for i in range(200)]), path, "zbd")
    real = dump.say_ignored_options

    def cut_short_now(doc) -> None:  # (right after the file is opened)
        real(doc)
        os.truncate(path, 13 * 50)
        time.sleep(0.1)  # (past the set's look interval: it looks before reading a page the cut took away)

    monkeypatch.setattr(dump, "say_ignored_options", cut_short_now)
    assert main(["dump", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"bridgeview: {path}: the file was cut short on disk after it was opened")


def test_solve_to_standard_output_is_refused(tmp_path: Path, monkeypatch, capsys) -> None:
    """``solve IN -`` wrote a file named "-" (convert, print and generate write standard output for "-")."""
    monkeypatch.chdir(tmp_path)
    assert main(["solve", str(SAMPLE), "-", "--to", "pbn"]) == 1
    assert capsys.readouterr().err == (
        "bridgeview: -: solve writes a file (its journal and --resume need one): give OUT a file name\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/stdout").exists(), reason="no /dev/stdout here")
def test_dev_stdout_is_standard_output_not_the_file_behind_it(tmp_path: Path, capsys) -> None:
    """``{ echo header; bridgeview convert x.pbn /dev/stdout; } > out`` lost the header: the link was followed to
    ``out``, which was replaced. ``/dev/stdout`` is now written as ``-`` is; ``solve`` refuses it as it refuses ``-``
    (it would have made its journal ``/dev/stdout.solving``)."""
    out = tmp_path / "out.txt"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    script = 'out=$1; shift; { echo header; "$@"; } > "$out"'
    done = subprocess.run(
        [
            "sh",
            "-c",
            script,
            "sh",
            str(out),
            sys.executable,
            "-m",
            "bridgeview",
            "convert",
            str(SAMPLE),
            "/dev/stdout",
            "--to",
            "pbn",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("header\n% PBN 2.1\n") and text.count("[Board ") == 16
    assert main(["solve", str(SAMPLE), "/dev/stdout", "--to", "pbn"]) == 1
    assert "/dev/stdout: solve writes a file" in capsys.readouterr().err


@needs_fifo
def test_solve_into_a_fifo_is_refused_and_makes_no_journal_beside_it(tmp_path: Path, capsys) -> None:
    """``solve IN /dev/null`` made its journal ``/dev/null.solving`` in ``/dev`` (as root; a stopped run left it
    there); beside a FIFO, ``FIFO.solving``. Its output must be a file, as for ``-``."""
    fifo = tmp_path / "out.pbn"
    os.mkfifo(fifo)
    _unstick(fifo, after=10)
    assert main(["solve", str(SAMPLE), str(fifo), "--chunk", "4", "--again"]) == 1
    assert capsys.readouterr().err == (
        f"bridgeview: {fifo}: solve writes a file (its journal and --resume need one), not a device or a FIFO: "
        "give OUT a file name\n"
    )
    assert [p.name for p in tmp_path.iterdir()] == ["out.pbn"]


@needs_fifo
def test_the_window_refuses_to_save_or_export_into_a_fifo(qtbot, tmp_path: Path, messages) -> None:
    """Save As onto a device marked the tab saved under the device's name (closing it then lost the work), and onto
    a FIFO without a reader held the window for ever; so did Export Diagram."""
    from test_ui_support import main_window, make_file

    path, _ = make_file(tmp_path, "pbn", n=2)
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    fifo = tmp_path / "out.pbn"
    os.mkfifo(fifo)
    _unstick(fifo)
    assert not w.save_as(str(fifo), "pbn")
    assert not w.export_diagram("png", str(tmp_path / "out.pbn"))
    assert not w.open_file(str(fifo))  # (the refusal named the command line's --from)
    assert [call[:2] for call in messages.calls] == [
        ("error", "Cannot save"),
        ("error", "Export"),
        ("error", "Cannot open file"),
    ]
    assert all("not a file (a device or a pipe)" in call[2] for call in messages.calls)
    assert "--from" not in messages.calls[-1][2]
    assert w.current_view().path == str(path)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


@needs_fifo
def test_a_binary_format_from_a_pipe_is_read_whole(tmp_path: Path) -> None:
    """``--from zbd <(command)``: a pipe says it is empty, so it was read as no records, exit 0."""
    src = tmp_path / "set.zbd"
    assert main(["convert", str(SAMPLE), str(src)]) == 0
    fifo = tmp_path / "in.zbd"
    os.mkfifo(fifo)
    data = src.read_bytes()

    def writer() -> None:
        with open(fifo, "wb") as f:
            f.write(data)

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    _unstick(fifo)
    try:
        assert len(registry.read_file(fifo, "zbd")) == 16
    finally:
        if thread.is_alive():
            with open(fifo, "rb") as f:
                f.read()
        thread.join(10)


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path: Path) -> None:
    """``bridgeview info FILE | true``: the reader gone before the output is written. Exit 0 as before, but
    Python's last flush of what standard output still held printed "Exception ignored ... BrokenPipeError" and
    made it exit 120 (with Python's default buffering: without ``PYTHONUNBUFFERED``)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = str(REPO)
    for args in ("--version", f'info "{SAMPLE}"', f'validate "{SAMPLE}"'):
        done = subprocess.run(
            ["sh", "-c", f'"{sys.executable}" -m bridgeview {args} | true; sleep 0'],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert done.stderr == "", args


def _feed(fifo: Path, data: bytes) -> threading.Thread:
    """A writer that opens ``fifo`` once, writes ``data`` and goes, as ``cat set > fifo`` does."""

    def write() -> None:
        with open(fifo, "wb") as f:
            f.write(data)

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread


@needs_fifo
def test_a_named_fifo_with_its_format_named_is_read_once(tmp_path: Path, capsys) -> None:
    """``info FIFO --from pbn`` waited for ever: the reader opened the FIFO a second time (for its size and
    checksum, a look at its first bytes), and the writer had gone after the first."""
    fifo = tmp_path / "in.pbn"
    os.mkfifo(fifo)
    _feed(fifo, SAMPLE.read_bytes())
    _unstick(fifo, after=10)
    assert main(["info", str(fifo), "--from", "pbn"]) == 0
    out = capsys.readouterr().out
    assert f"file:          {fifo}\n" in out
    assert f"size:          {SAMPLE.stat().st_size} bytes\n" in out  # (the pipe's own size is 0)
    assert "boards:        16\n" in out


@needs_fifo
def test_a_pipe_converted_to_its_own_format_is_copied_whole(tmp_path: Path) -> None:
    """``convert --from zrd <(cat set.zrd) out.zrd`` wrote an empty file, exit 0: an unchanged binary set is saved by
    copying its file, and the pipe, opened again, was empty. The copy read from the pipe is kept for that, and
    removed with the process: none is left in the temporary folder."""
    import tempfile

    zrd = tmp_path / "set.zrd"
    assert main(["convert", str(SAMPLE), str(zrd), "--to", "zrd"]) == 0
    left_before = {p.name for p in Path(tempfile.gettempdir()).glob("bridgeview-input-*")}
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for out in (tmp_path / "copy.zrd", tmp_path / "copy.zbd"):
        _feed(fifo, zrd.read_bytes())
        _unstick(fifo, after=10)
        assert main(["convert", str(fifo), str(out), "--from", "zrd"]) == 0
    assert (tmp_path / "copy.zrd").read_bytes() == zrd.read_bytes()
    assert (tmp_path / "copy.zbd").stat().st_size == 16 * 13
    left = {p.name for p in Path(tempfile.gettempdir()).glob("bridgeview-input-*")} - left_before
    assert not left


def test_dump_streams_and_a_cut_mid_way_leaves_the_json_open(tmp_path: Path, monkeypatch, capsys) -> None:
    """``dump`` held every board as a dict, and the whole text, before its first byte (147 MB for 200,000 boards;
    ``dump big | head`` waited for all of it). It writes a few hundred boards at a time, the same bytes as before;
    a file cut short on disk half-way stops it with the error, the JSON left open for no reader to take whole."""
    import json
    import random
    import time

    from bridgeview.cli import dump
    from bridgeview.formats.registry import write_file
    from bridgeview.model.board import Board
    from bridgeview.model.boardset import BoardSet
    from bridgeview.model.deal import Deal

    rng = random.Random(5)
    boards = BoardSet([Board.numbered(i + 1, Deal.shuffled(rng)) for i in range(600)])
    path = tmp_path / "set.zbd"
    write_file(boards, path, "zbd")
    assert main(["dump", str(path)]) == 0
    whole = capsys.readouterr().out
    doc = registry.read_file(path)
    expected = {"format": "zbd", "boards": [dump.board_to_json(b) for b in doc]}
    assert whole == json.dumps(expected, ensure_ascii=False, indent=1) + "\n"

    real = dump.board_to_json

    def cut_at_board_300(board):
        if board.number == 300:
            os.truncate(path, 13 * 100)
            time.sleep(0.1)  # (past the set's look interval)
        return real(board)

    monkeypatch.setattr(dump, "board_to_json", cut_at_board_300)
    assert main(["dump", str(path)]) == 1
    out, err = capsys.readouterr()
    assert err.startswith(f"bridgeview: {path}: the file was cut short on disk after it was opened")
    assert out.startswith('{\n "format": "zbd",\n "boards": [\n  {\n   "board": 1,')
    assert out.count('"board": ') == dump._BOARDS_A_WRITE  # (the first write: board 300 is in the second)
    with pytest.raises(json.JSONDecodeError):
        json.loads(out)


def test_a_write_protected_picture_is_replaced_only_when_asked(qtbot, tmp_path: Path, messages, capsys) -> None:
    """``render`` refused a write-protected PNG saying "(--force replaces it)", and had no ``--force``; Export Diagram
    said the same in the window, which has none either. ``render --force`` replaces it; the window asks, as Save
    does."""
    from test_ui_support import main_window, make_file

    from bridgeview.ui import dialogs

    png = tmp_path / "old.png"
    png.write_bytes(b"old")
    png.chmod(0o444)
    assert main(["render", str(SAMPLE), "-o", str(png)]) == 1
    assert "write-protected; not replaced (--force replaces it)" in capsys.readouterr().err
    assert png.read_bytes() == b"old"
    assert main(["render", str(SAMPLE), "-o", str(png), "--force"]) == 0
    assert png.read_bytes().startswith(b"\x89PNG")

    svg = tmp_path / "old.svg"
    svg.write_bytes(b"old")
    svg.chmod(0o444)
    path, _ = make_file(tmp_path, "pbn", n=2)
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(path))
    messages.answer = dialogs.Button.Cancel
    assert not w.export_diagram("svg", str(svg))
    assert svg.read_bytes() == b"old"
    messages.answer = dialogs.Button.Yes
    assert w.export_diagram("svg", str(svg))
    assert b"<svg" in svg.read_bytes()
    assert [call[:2] for call in messages.calls] == [("question", "Write-protected file")] * 2
