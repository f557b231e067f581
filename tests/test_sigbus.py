"""A mapped file cut short on disk while it is read (another program saving it in place: truncate, then write).

Reading a page past the file's new end raised SIGBUS, and the process died: a window with every tab's unsaved
work, a command with "Bus error" (exit 135) and its output's temporary file left behind.  The set's look at the
file's size every 50 ms could not close the race.  ``formats.sigbus`` now reads zeros there and notes the file;
what read them says the file was cut short.  Each case runs in a child process: a regression kills the child,
not the test run, and fails the test.
"""

from __future__ import annotations

import os
import platform
import random
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import OPENED_IN_A_WINDOW, REPO

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or platform.machine() not in ("x86_64", "aarch64"),
    reason="the SIGBUS guard knows Linux's signal structures on x86_64 and aarch64",
)

CUT = "the file was cut short on disk while it was read; open it again"


def _child(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-c", script, *args], env=env, capture_output=True, text=True, timeout=300)


def _killed_by_sigbus(done: subprocess.CompletedProcess[str]) -> bool:
    return done.returncode == -signal.SIGBUS


#: boards in the files made once for the module (a PBN file is read lazily from 8 MiB)
BOARDS = {"zrd": 3_000, "pbn": 40_000}


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from bridgeview.formats.pbn.lazy import LAZY_MIN_BYTES
    from bridgeview.formats.registry import write_file
    from bridgeview.model.board import Board
    from bridgeview.model.boardset import BoardSet
    from bridgeview.model.deal import Deal

    folder = tmp_path_factory.mktemp("made")
    rng = random.Random(7)
    boards = BoardSet([Board.numbered(i + 1, Deal.shuffled(rng)) for i in range(max(BOARDS.values()))])
    files = {}
    for ext, count in BOARDS.items():
        files[ext] = folder / f"set.{ext}"
        write_file(BoardSet(boards[:count]), files[ext])
    assert files["pbn"].stat().st_size >= LAZY_MIN_BYTES
    return files


def _copy(made: dict[str, Path], ext: str, path: Path) -> None:
    shutil.copyfile(made[ext], path)


MAP_AND_CUT = r"""
import os, sys
from bridgeview.formats import mapped
path = sys.argv[1]
buf = mapped.map_file(path)
assert buf[len(buf) - 1] == ord("x")
before = mapped.fault_count()
os.truncate(path, 100)
print(buf[len(buf) - 1], buf[3 * 4096 + 5], mapped.fault_count() - before)
print(mapped.cut_probe(path)(), mapped.cut_short_since(before).filename == path)
"""


def test_a_read_past_the_end_of_a_mapped_file_cut_short_reads_zeros_and_is_noted(tmp_path: Path) -> None:
    path = tmp_path / "big.bin"
    path.write_bytes(b"x" * (2 << 20))
    done = _child(MAP_AND_CUT, str(path))
    assert not _killed_by_sigbus(done), "the read past the new end killed the process"
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "0", "1", "True", "True"]  # (one fault mends the rest of the map)


NOT_OURS = r"""
import mmap, os, sys
from bridgeview.formats import mapped
mine, other = sys.argv[1], sys.argv[2]
buf = mapped.map_file(mine)  # (the guard is installed)
with open(other, "rb") as f:
    raw = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
os.truncate(other, 0)
print("reading", flush=True)
print(raw[len(raw) - 1])
"""


def test_a_fault_the_guard_does_not_own_still_ends_the_process_as_before(tmp_path: Path) -> None:
    """A map made elsewhere (not through ``map_file``) is not mended: its fault goes to the handler before ours,
    here the system's default (and ``faulthandler``'s where it is on)."""
    mine, other = tmp_path / "mine.bin", tmp_path / "other.bin"
    mine.write_bytes(b"x" * (2 << 20))
    other.write_bytes(b"y" * (16 * 4096))
    done = _child(NOT_OURS, str(mine), str(other))
    assert done.stdout.strip() == "reading"
    assert _killed_by_sigbus(done), (done.returncode, done.stderr)
    env = dict(os.environ, PYTHONPATH=str(REPO))
    other.write_bytes(b"y" * (16 * 4096))
    chained = subprocess.run(
        [sys.executable, "-X", "faulthandler", "-c", NOT_OURS, str(mine), str(other)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert _killed_by_sigbus(chained)
    assert "Fatal Python error: Bus error" in chained.stderr


LAZY_SET = (
    r"""
import os, sys
from bridgeview.model import boardset
boardset.CHECK_INTERVAL = 3600  # (the set's look at the size never comes: only the guard can notice)
from bridgeview.formats.registry import read_file
path, how = sys.argv[1], sys.argv[2]
if how == "gui":
"""
    + OPENED_IN_A_WINDOW
    + r"""else:
    doc = read_file(path)
assert isinstance(doc, boardset.LazyBoardSet) and doc[0].unreadable is None
os.truncate(path, 100)  # another program rewrites the file in place
middle = len(doc) // 2  # (a board the window has not read and kept: it keeps those it showed)
if how == "gui":
    view.select_board(middle + 1)
    w.grab()
board = doc[middle]
assert board.unreadable is not None and "cut short on disk while it was read" in board.unreadable, board.unreadable
from bridgeview.formats import mapped
assert mapped.fault_count() == 1
if doc.bulk is not None:  # (a fixed-record file's whole-file pass)
    try:
        list(doc.bulk())
    except OSError as e:
        assert "cut short" in e.strerror and e.filename == path, e
    else:
        raise AssertionError("bulk reading went on")
print("ok")
"""
)


@pytest.mark.parametrize("how", ["model", pytest.param("gui", marks=pytest.mark.slow)])
@pytest.mark.parametrize("ext", ["zrd", "pbn"])
def test_a_lazy_set_whose_file_is_cut_short_between_two_looks_shows_unreadable_boards(
    made: dict[str, Path], tmp_path: Path, how: str, ext: str
) -> None:
    path = tmp_path / f"set.{ext}"
    _copy(made, ext, path)
    done = _child(LAZY_SET, str(path), how)
    assert not _killed_by_sigbus(done), "reading the cut file killed the process"
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("ok")


CUT_AS_MAPPED = r"""
import os, sys
from bridgeview.formats import mapped, records
from bridgeview.formats.pbn import lazy
real = mapped.map_file
def cutting(path):  # the input cut to a third as soon as it is mapped, before the set looks at its size
    buf = real(path)
    os.truncate(path, os.path.getsize(path) // 3)
    return buf
records.map_file = lazy.map_file = cutting
from bridgeview.cli.main import main
raise SystemExit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("ext", ["zrd", "pbn"])
def test_a_conversion_whose_input_is_cut_short_says_so_and_writes_nothing(
    made: dict[str, Path], tmp_path: Path, ext: str
) -> None:
    src = tmp_path / f"in.{ext}"
    _copy(made, ext, src)
    out = tmp_path / "out.zbd"
    out.write_bytes(b"old")
    done = _child(CUT_AS_MAPPED, "convert", str(src), str(out), "--force")
    assert not _killed_by_sigbus(done), "Bus error"
    assert (done.returncode, done.stderr) == (1, f"bridgeview: {src}: {CUT}\n")
    assert out.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in." + ext, "out.zbd"]  # (no part file)


SAVE_READING_A_CUT_MAP = r"""
import os, sys
from bridgeview.formats import mapped
from bridgeview.formats.atomic import save_atomically
src, out = sys.argv[1], sys.argv[2]
buf = mapped.map_file(src)
def write(f):
    os.truncate(src, 0)
    f.write(bytes(buf))  # (zeros where the file was)
try:
    save_atomically(out, write)
except OSError as e:
    print(e.filename, e.strerror)
else:
    print("saved")
"""


def test_a_save_that_read_a_file_cut_short_is_not_kept(tmp_path: Path) -> None:
    src, out = tmp_path / "in.bin", tmp_path / "out.bin"
    src.write_bytes(b"x" * (2 << 20))
    out.write_bytes(b"old")
    done = _child(SAVE_READING_A_CUT_MAP, str(src), str(out))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{src} {CUT}"
    assert out.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.bin", "out.bin"]


SILENT_COMMAND = r"""
import os, sys
from bridgeview.cli import info
from bridgeview.formats import mapped
src = sys.argv[1]
def run(args):  # a command that reads zeros from its cut input and notices nothing
    buf = mapped.map_file(src)
    os.truncate(src, 0)
    print(bytes(buf[-3:]))
    return 0
info.run = run
from bridgeview.cli.main import main
raise SystemExit(main(["info", src]))
"""


def test_a_command_that_read_a_file_cut_short_does_not_end_in_success(tmp_path: Path) -> None:
    src = tmp_path / "in.bin"
    src.write_bytes(b"x" * (2 << 20))
    done = _child(SILENT_COMMAND, str(src))
    assert (done.returncode, done.stderr) == (1, f"bridgeview: {src}: {CUT}\n")


# -- found in review ----------------------------------------------------------------------------------------------

REOPENED = r"""
import os, sys
from bridgeview.model import boardset
boardset.CHECK_INTERVAL = 3600
from bridgeview.formats.registry import read_file
path = sys.argv[1]
whole = open(path, "rb").read()
doc = read_file(path)
middle = len(doc) // 2
assert doc[0].unreadable is None  # (the set's look at the size is done: the guard is what notices the cut)
os.truncate(path, 100)
assert doc[middle].unreadable is not None
from bridgeview.formats import mapped
assert mapped.fault_count() == 1
with open(path, "r+b") as f:  # saved again in place by the other program: the same inode
    f.write(whole)
again = read_file(path)  # (was refused for the rest of the process: "cut short ... open it again")
assert again[middle].unreadable is None and again[middle].deal == read_file(path)[middle].deal
assert again.cut_short is None and doc.cut_short is not None
print("ok")
"""


def test_a_file_cut_short_once_opens_again_once_whole(made: dict[str, Path], tmp_path: Path) -> None:
    path = tmp_path / "set.zrd"
    _copy(made, "zrd", path)
    done = _child(REOPENED, str(path))
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"


SENT_SIGBUS = r"""
import os, signal, sys, time
from bridgeview.formats import mapped
buf = mapped.map_file(sys.argv[1])
os.kill(os.getpid(), signal.SIGBUS)
time.sleep(0.5)
print("still here")
"""


def test_a_sigbus_sent_by_kill_ends_the_process_as_before(tmp_path: Path) -> None:
    """The handler gave a SIGBUS it did not own back to the handler before and returned: a fault comes again, but
    one sent by ``kill`` was swallowed, and the process went on without its guard."""
    path = tmp_path / "x.bin"
    path.write_bytes(b"x" * 8192)
    done = _child(SENT_SIGBUS, str(path))
    assert _killed_by_sigbus(done) and "still here" not in done.stdout


CTRL_C_IN_A_FAULTING_COPY = r"""
import os, signal, sys, time
from bridgeview.formats import mapped
path, size = sys.argv[1], 256 << 20
with open(path, "wb") as f:
    f.truncate(size)  # (sparse)
buf = mapped.map_file(path)
start = time.monotonic(); buf[:]; took = time.monotonic() - start
os.truncate(path, size - (1 << 20))  # the copy faults near its end
def ctrl_c(*_):
    raise KeyboardInterrupt
signal.signal(signal.SIGALRM, ctrl_c)
signal.setitimer(signal.ITIMER_REAL, took / 4)
try:
    buf[:]
    time.sleep(0.5)
except KeyboardInterrupt:
    print("interrupted", mapped.fault_count())
"""


def test_ctrl_c_during_a_copy_that_faults_is_not_lost(tmp_path: Path) -> None:
    """Python runs its signal handlers inside the SIGBUS handler (it is Python): a Ctrl+C pending as the copy faulted
    came as "Exception ignored on calling ctypes callback function ... KeyboardInterrupt", and the command went on."""
    done = _child(CTRL_C_IN_A_FAULTING_COPY, str(tmp_path / "sparse.bin"))
    assert (done.returncode, done.stdout.split(), done.stderr) == (0, ["interrupted", "1"], "")


ANOTHER_THREADS_FAULT = r"""
import os, sys, threading
from bridgeview.formats import mapped
from bridgeview.formats.atomic import save_atomically
other, out = sys.argv[1], sys.argv[2]
buf = mapped.map_file(other)
def another_tab():  # another file, cut short and read by another thread, while this one saves
    os.truncate(other, 0)
    buf[len(buf) - 1]
def write(f):
    thread = threading.Thread(target=another_tab)
    thread.start()
    thread.join()
    f.write(b"mine")
save_atomically(out, write)
print(open(out, "rb").read().decode(), mapped.cut_short_since(None).filename == other)
"""


def test_a_save_is_not_failed_by_another_threads_fault(tmp_path: Path) -> None:
    """The save looked at a count of faults for the whole process: in the window, a save failed when another tab's
    file was cut short meanwhile, naming that file."""
    other = tmp_path / "other.bin"
    other.write_bytes(b"x" * 8192)
    done = _child(ANOTHER_THREADS_FAULT, str(other), str(tmp_path / "out.bin"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["mine", "True"]


def test_an_unchanged_binary_set_copied_byte_for_byte_stops_at_a_cut(tmp_path: Path) -> None:
    """A same-format save of an unread binary set copies its file (``verbatim``), by reading it, not through the
    map: cut short meanwhile, the copy was short, mid-record, exit 0."""
    import io

    from bridgeview.formats import verbatim
    from bridgeview.formats.registry import get, read_file
    from bridgeview.model.boardset import FileChangedError

    path = tmp_path / "set.zrd"
    _write_plain(path, 200)
    doc = read_file(path)
    write = verbatim.original_writer(doc, get("zrd"), None)
    assert write is not None
    os.truncate(path, 23 * 50)
    with pytest.raises(FileChangedError, match="cut short on disk while it was read") as caught:
        write(io.BytesIO())
    assert caught.value.filename == str(path)


def _write_plain(path: Path, boards: int) -> None:
    from bridgeview.formats.registry import write_file
    from bridgeview.model.board import Board
    from bridgeview.model.boardset import BoardSet
    from bridgeview.model.deal import Deal

    rng = random.Random(11)
    write_file(BoardSet([Board.numbered(i + 1, Deal.shuffled(rng)) for i in range(boards)]), path)
