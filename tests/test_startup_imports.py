"""Command-line commands that need no GUI or solver do not pay for them at start-up.

``bridgeview info small.pbn`` must not import Qt (PySide6/shiboken6, ~0.3 s),
DDS (endplay, which drags in matplotlib) or numpy (~0.1 s: the codecs build their
lookup tables on first use and import numpy inside the functions that need it, and a
small file's checksum is summed in plain Python); the check runs the command in a
fresh process, as a user's shell does, and lists what it imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import REPO

HEAVY = ("PySide6", "shiboken6", "endplay", "matplotlib", "numpy", "bridgeview.ui", "bridgeview.solve")


def _imports(tmp_path, *argv: str) -> tuple[set[str], subprocess.CompletedProcess]:
    listing = tmp_path / "modules.json"
    code = (
        "import json, sys\n"
        "from bridgeview.cli.main import main\n"
        "code = main(sys.argv[2:])\n"
        "open(sys.argv[1], 'w').write(json.dumps(sorted(sys.modules)))\n"
        "sys.exit(code)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run(
        [sys.executable, "-c", code, str(listing), *argv], env=env, capture_output=True, text=True, timeout=120
    )
    return set(json.loads(listing.read_text())), proc


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if m.split(".")[0] in HEAVY or m.startswith(HEAVY))


def test_info_on_a_small_pbn_imports_no_qt_dds_or_numpy(tmp_path):
    text = (REPO / "resources" / "sample.pbn").read_text(encoding="utf-8")
    small = tmp_path / "small.pbn"
    small.write_text(text[: text.index("[Event", text.index("[Event") + 1)], encoding="utf-8")  # board 1
    modules, proc = _imports(tmp_path, "info", str(small))
    assert proc.returncode == 0 and "boards:        1" in proc.stdout, proc.stderr
    assert "bridgeview.formats.pbn.codec" in modules and "bridgeview.cli.info" in modules  # the listing is real
    assert "bridgeview.app.describe" in modules
    # the .pbn extension names one module: the other formats' are not imported (issue 29); that every codec
    # module imports without numpy is checked by ``formats`` below, which lists them all
    assert (
        not {"bridgeview.formats.duplimate.bri", "bridgeview.formats.pavlicek.zbd", "bridgeview.formats.lin.codec"}
        & modules
    )
    assert "checksum:      37C311B570" in proc.stdout  # summed without numpy, as numpy sums it
    assert _heavy(modules) == []
    assert "importlib.metadata" not in modules  # the version is looked up only for --version (issue 29)


def test_info_on_a_thousand_board_pbn_imports_no_numpy(tmp_path):
    """A 1,000-board PBN (260 KB) has its checksum summed in plain Python too (issue 29)."""
    from bridgeview.formats.registry import read_file, write_file
    from bridgeview.model.board import Board
    from bridgeview.model.boardset import BoardSet

    deal = read_file(REPO / "resources" / "sample.pbn")[0].deal
    write_file(BoardSet([Board.numbered(n, deal) for n in range(1, 1001)]), tmp_path / "k.pbn")
    assert 200_000 < (tmp_path / "k.pbn").stat().st_size < 1 << 20
    modules, proc = _imports(tmp_path, "info", str(tmp_path / "k.pbn"))
    assert proc.returncode == 0 and "boards:        1000" in proc.stdout, proc.stderr
    assert _heavy(modules) == []


def test_a_binary_file_still_gets_numpy(tmp_path):
    """The check above is not vacuous: reading a ZBD file does import numpy (its decoder needs it)."""
    from bridgeview.formats.registry import read_file, write_file

    write_file(read_file(REPO / "resources" / "sample.pbn"), tmp_path / "small.zbd")
    modules, proc = _imports(tmp_path, "info", str(tmp_path / "small.zbd"))
    assert proc.returncode == 0 and "format:        zbd" in proc.stdout, proc.stderr
    assert "numpy" in modules


def test_every_command_still_lists_without_qt(tmp_path):
    """``formats`` lists every codec without Qt, and as a command of its own: its module (``formats_table``)
    is found by the command's name, not by building every command's parser (issue 29)."""
    modules, proc = _imports(tmp_path, "formats")
    assert proc.returncode == 0 and "pbn" in proc.stdout, proc.stderr
    assert {
        "bridgeview.formats.duplimate.bri",
        "bridgeview.formats.pavlicek.zbd",
        "bridgeview.formats.lin.codec",
    } <= modules
    assert "bridgeview.cli.formats_table" in modules
    assert not {"bridgeview.cli.convert", "bridgeview.cli.solve", "bridgeview.cli.render"} & modules
    assert _heavy(modules) == []


def test_print_paints_its_pdf_without_widgets_or_other_commands(tmp_path):
    """``print`` imports its own command alone (its module is ``print_cmd``) and paints the PDF with QtGui in a
    QGuiApplication: no QtWidgets (issue 29: what it does beyond a bare Qt process)."""
    text = (REPO / "resources" / "sample.pbn").read_text(encoding="utf-8")
    small = tmp_path / "small.pbn"
    small.write_text(text[: text.index("[Event", text.index("[Event") + 1)], encoding="utf-8")
    # (print paints offscreen by itself: no display needed)
    modules, proc = _imports(tmp_path, "print", str(small), "--no-dd", "-o", str(tmp_path / "out.pdf"))
    assert proc.returncode == 0 and (tmp_path / "out.pdf").read_bytes().startswith(b"%PDF"), proc.stderr
    assert {"bridgeview.cli.print_cmd", "bridgeview.ui.printing.hand_records", "PySide6.QtGui"} <= modules
    assert not {"bridgeview.cli.convert", "bridgeview.cli.render", "bridgeview.cli.solve"} & modules
    assert "PySide6.QtWidgets" not in modules


def test_a_command_imports_no_other_command(tmp_path):
    """``bridgeview convert`` builds its own sub-command's parser only: the checks, the hand-record outputs and the
    other commands are not imported (issue 29: a tenth of converting a small file); its errors read as before."""
    from bridgeview.formats.registry import read_file, write_file

    write_file(read_file(REPO / "resources" / "sample.pbn"), tmp_path / "small.zrd")
    modules, proc = _imports(tmp_path, "convert", str(tmp_path / "small.zrd"), str(tmp_path / "small.zbd"))
    assert proc.returncode == 0 and (tmp_path / "small.zbd").exists(), proc.stderr
    assert "bridgeview.cli.convert" in modules
    assert not {"bridgeview.cli.check", "bridgeview.cli.solve", "bridgeview.cli.render", "bridgeview.check"} & modules
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    usage = subprocess.run(
        [sys.executable, "-m", "bridgeview", "convert", str(tmp_path / "small.zrd")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (
        usage.returncode == 2 and "bridgeview convert: error: the following arguments are required: OUT" in usage.stderr
    )


def test_the_command_line_is_built_without_numpy():
    """--help, --version and usage errors answer without numpy: only a command that reads boards needs it."""
    code = (
        "import sys\nfrom bridgeview.cli.main import build_parser\nbuild_parser()\n"
        "assert {'bridgeview.cli.render', 'bridgeview.cli.print_cmd', 'bridgeview.cli.solve'} <= set(sys.modules)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'PySide6', 'endplay')))"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
    version = subprocess.run(
        [sys.executable, "-m", "bridgeview.cli.main", "--version"], env=env, capture_output=True, text=True, timeout=120
    )
    assert version.stdout == "bridgeview 0.1.0\n"


def test_command_line_timeout_default_is_the_solvers():
    from bridgeview.cli.common import DD_TIMEOUT
    from bridgeview.solve.timed import DEFAULT_TIMEOUT

    assert DD_TIMEOUT == DEFAULT_TIMEOUT


#: the start of a window process that notes its modules (``seen["start"]``) at the first paint of the hand
#: diagram, as bench/bench_startup.py times it: what is imported later (the DD grid's par line, 200 ms after the
#: board shows) is not in it however loaded the machine
_AT_FIRST_PAINT = (
    "import json, sys, time\n"
    "from PySide6.QtCore import QEvent, QObject\n"
    "seen = {}\n"
    "class FirstPaint(QObject):\n"
    "    def eventFilter(self, obj, event):\n"
    "        if 'start' not in seen and event.type() == QEvent.Type.Paint and type(obj).__name__ == 'HandDiagram':\n"
    "            seen['start'] = sorted(sys.modules)\n"
    "        return False\n"
    "probe = FirstPaint()\n"
    "def wait_for(app, done, seconds=120):\n"
    "    end = time.monotonic() + seconds\n"
    "    while not done() and time.monotonic() < end:\n"
    "        app.processEvents()\n"
    "        time.sleep(0.01)\n"
)


def test_the_window_shows_the_sample_without_numpy_or_the_solver_machinery(tmp_path):
    """What the first paint does not need is imported when it is used (issue 29): numpy (Save As of a big
    file, binary formats), multiprocessing (the DDS child, started after the window shows) and the LIN reader
    (a board with notes)."""
    code = _AT_FIRST_PAINT + (
        "from bridgeview.ui.app import application\n"
        "app = application([sys.argv[0]])\n"
        "app.installEventFilter(probe)\n"
        "from bridgeview.ui.mainwindow import MainWindow, sample_path\n"
        "window = MainWindow()\n"
        "window.show()\n"
        "window.open_file(str(sample_path()))\n"
        "wait_for(app, lambda: 'start' in seen)\n"
        "print(json.dumps(seen['start']))\n"
        "window.close()\n"
    )
    proc = _window_process(tmp_path, code)
    assert proc.returncode == 0, proc.stderr
    modules = set(json.loads(proc.stdout.splitlines()[-1]))
    assert "bridgeview.ui.boardset.view" in modules and "bridgeview.formats.pbn.codec" in modules  # the listing is real
    assert not {"numpy", "multiprocessing", "bridgeview.formats.lin.read", "endplay", "importlib.metadata"} & modules


def _window_seen(tmp_path, code: str) -> dict:
    """What a window process (``code``) printed as JSON on its last line."""
    proc = _window_process(tmp_path, code)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])


def _window_process(tmp_path, code: str) -> subprocess.CompletedProcess:
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        XDG_CONFIG_HOME=str(tmp_path),
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    )
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=180)


def test_the_window_starts_without_the_commands_or_the_writing_machinery(tmp_path):
    """``bridgeview`` with no arguments goes straight to the window (issue 29): no sub-command modules, no
    parser; the window shows its first board without Save As's writing machinery, the diagram export (QtSvg)
    or the solved-tables merge, and each still works when used."""
    code = _AT_FIRST_PAINT + (
        "from bridgeview.ui import app as ui_app\n"
        "def run_gui(files):\n"
        "    app = ui_app.application([sys.argv[0]])\n"
        "    app.installEventFilter(probe)\n"
        "    from bridgeview.ui.mainwindow import MainWindow, sample_path\n"
        "    window = MainWindow()\n"
        "    window.show()\n"
        "    window.open_file(str(sample_path()))\n"
        "    wait_for(app, lambda: 'start' in seen)\n"
        "    view = window.current_view()\n"
        "    wait_for(app, lambda: 'Par' in view.dd_grid.par_text())\n"
        "    seen['par'] = view.dd_grid.par_text()\n"
        "    seen['after par'] = sorted(sys.modules)\n"
        f"    seen['svg'] = window.export_diagram('svg', {str(tmp_path / 'board.svg')!r})\n"
        "    from bridgeview.formats.registry import get\n"
        f"    seen['saved'] = window.save_to(view, {str(tmp_path / 'copy.pbn')!r}, get('pbn'))\n"
        "    seen['end'] = sorted(sys.modules)\n"
        "    window.close()\n"
        "    return 0\n"
        "ui_app.run_gui = run_gui\n"
        "from bridgeview.cli.main import main\n"
        "main([])\n"
        "print(json.dumps(seen))\n"
    )
    seen = _window_seen(tmp_path, code)
    start = set(seen["start"])
    assert "bridgeview.ui.boardset.view" in start  # the listing is real
    deferred = {
        "bridgeview.cli.convert",
        "bridgeview.cli.solve",
        "bridgeview.formats.convert",
        "bridgeview.ui.diagram.export",
        "PySide6.QtSvg",
        "bridgeview.ui.analysis.solved_tables",
    }
    assert not deferred & start
    # the par line of a stored table is worked out in the window's process without DDS (solve.par_rules): neither
    # endplay's dealer and matplotlib (0.6 s of CPU in the window's first second) nor DDS's binding (27 ms)
    assert seen["par"].startswith("Par ")
    after_par = set(seen["after par"])
    assert "bridgeview.solve.par_rules" in after_par
    assert not {m for m in after_par if m.split(".")[0] in ("endplay", "matplotlib")}
    # and what was deferred works when used
    assert seen["svg"] and (tmp_path / "board.svg").read_text(encoding="utf-8").lstrip().startswith("<?xml")
    assert seen["saved"] and (tmp_path / "copy.pbn").stat().st_size > 0
    assert (tmp_path / "copy.pbn").read_text(encoding="utf-8").count("[Board ") == 16
    used = {
        "bridgeview.ui.diagram.export",
        "PySide6.QtSvg",
        "bridgeview.formats.convert",
        "bridgeview.ui.analysis.solved_tables",
    }
    assert used <= set(seen["end"])


def test_a_command_runs_numpy_with_one_blas_thread(tmp_path):
    """numpy's OpenBLAS would start a thread a core that spins after numpy's import (bridgeview does no
    linear algebra): a command asks for one, and a value the user set stays."""
    code = (
        "import os, sys\n"
        "from bridgeview.cli.main import main\n"
        "code = main(sys.argv[1:])\n"
        "import numpy\n"
        "tasks = len(os.listdir('/proc/self/task')) if os.path.isdir('/proc/self/task') else 1\n"
        "print(os.environ['OPENBLAS_NUM_THREADS'], tasks)\n"
        "sys.exit(code)\n"
    )
    src = tmp_path / "small.pbn"
    src.write_text((REPO / "resources" / "sample.pbn").read_text(encoding="utf-8"), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    for user, want in ((None, "1"), ("3", "3")):
        env.pop("OPENBLAS_NUM_THREADS", None)
        if user is not None:
            env["OPENBLAS_NUM_THREADS"] = user
        argv = ["convert", str(src), str(tmp_path / "out.zrd")]
        proc = subprocess.run([sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        value, threads = proc.stdout.split()
        assert value == want
        if user is None:
            assert threads == "1"  # numpy imported by the conversion, and no OpenBLAS thread beside this one


def test_a_zrd_to_zbd_copy_imports_no_board_model_or_text_converters(tmp_path):
    """Copying deal records imports what it uses: not the board model (a copy makes no board), the auction and
    play model, the board-tables model, the problems a reader notes, the chunked text converter or any text
    format (issue 29 item 4: start-up is most of a copy's time)."""
    from bridgeview.formats.registry import write_file
    from bridgeview.model.board import Board
    from bridgeview.model.boardset import BoardSet
    from bridgeview.model.deal import Deal

    src = tmp_path / "in.zrd"
    write_file(
        BoardSet(
            [Board.numbered(1, Deal.from_pbn("N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"))]
        ),
        src,
    )
    modules, proc = _imports(tmp_path, "convert", str(src), str(tmp_path / "out.zbd"))
    assert proc.returncode == 0, proc.stderr
    assert "bridgeview.formats.pavlicek.zbd" in modules and "numpy" in modules  # the listing is real
    unwanted = {
        "bridgeview.model.board",
        "bridgeview.model.deal",
        "bridgeview.model.ddtable",
        "bridgeview.model.problem",
        "bridgeview.model.auction",
        "bridgeview.model.play",
        "bridgeview.model.tables",
        "bridgeview.formats.chunked",
        "bridgeview.formats.pbn.codec",
        "bridgeview.formats.lin.codec",
    }
    assert not unwanted & modules, sorted(unwanted & modules)


def test_the_editing_dock_is_built_after_the_first_paint(tmp_path):
    """The editing dock's panel and the undo history's list start hidden, so they are built after the window's
    first paint (issue 29: some 20 ms of the first paint); once the window has shown and its events have been
    processed, every field an end-to-end check finds by objectName is there, the dock still closed."""
    code = _AT_FIRST_PAINT + (
        "from PySide6.QtWidgets import QMainWindow, QWidget\n"
        "NAMES = ('hand_N', 'call_undo', 'call_1C', 'tag_Event', 'play_entry', 'undo_view')\n"
        "def names(window):  # Qt's own lookup: the window's would build the parts it asks for\n"
        "    return sorted(n for n in NAMES if QMainWindow.findChild(window, QWidget, n) is not None)\n"
        "class AtPaint(QObject):\n"
        "    def eventFilter(self, obj, event):\n"
        "        painted = event.type() == QEvent.Type.Paint and type(obj).__name__ == 'HandDiagram'\n"
        "        if painted and 'names' not in seen:\n"
        "            seen['names'] = names(obj.window())\n"
        "            seen['panel module'] = 'bridgeview.ui.editor.edit_panel' in sys.modules\n"
        "        return False\n"
        "at_paint = AtPaint()\n"
        "from bridgeview.ui.app import application\n"
        "app = application([sys.argv[0]])\n"
        "app.installEventFilter(at_paint)\n"
        "from bridgeview.ui.mainwindow import MainWindow, sample_path\n"
        "window = MainWindow()\n"
        "window.show()\n"
        "window.open_file(str(sample_path()))\n"
        "wait_for(app, lambda: 'names' in seen)\n"
        "wait_for(app, lambda: len(names(window)) == len(NAMES), 30)\n"
        "seen['after'] = names(window)\n"
        "seen['dock shown'] = window.findChild(QWidget, 'editor_dock').isVisible()\n"
        "seen['panel board'] = window.editor.panel.hand_edits[0].text()\n"
        "print(json.dumps(seen))\n"
        "window.close()\n"
    )
    seen = _window_seen(tmp_path, code)
    assert seen["names"] == [] and not seen["panel module"]  # not built for the first paint
    assert seen["after"] == sorted(("hand_N", "call_undo", "call_1C", "tag_Event", "play_entry", "undo_view"))
    assert not seen["dock shown"]  # built, not opened: the window looks as before
    assert seen["panel board"] == "KQJ65.102.QJ6.AQ2"  # and it follows the current board (board 1's North)


def test_render_of_a_board_with_its_table_loads_no_dds(tmp_path):
    """The par line under a stored table is worked out without DDS (solve.par_rules): ``render`` of such a
    board loads neither endplay nor DDS's binding (27 ms)."""
    out = tmp_path / "board.png"
    modules, proc = _imports(tmp_path, "render", str(REPO / "resources" / "sample.pbn"), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert out.stat().st_size > 0 and "bridgeview.solve.par_rules" in modules
    assert not {m for m in modules if m.split(".")[0] == "endplay"}


@pytest.mark.slow
def test_solve_of_a_session_imports_no_numpy(tmp_path):
    """``solve`` of a run of one chunk (a session's boards) solves at once, without the journal's numpy arrays:
    numpy's import was a quarter of a one-board solve (issue 29 item 5); a run of several chunks still keeps its
    journal, with numpy."""
    text = (REPO / "resources" / "sample.pbn").read_text(encoding="utf-8")
    small = tmp_path / "small.pbn"
    small.write_text(text[: text.index("[Event", text.index("[Event") + 1)], encoding="utf-8")  # board 1
    out = tmp_path / "solved.pbn"
    modules, proc = _imports(tmp_path, "solve", str(small), str(out), "--again")
    assert proc.returncode == 0, proc.stderr
    assert "bridgeview.solve.timed" in modules and "bridgeview.cli.solve" in modules  # the listing is real
    assert "numpy" not in modules
    solved = out.read_text(encoding="utf-8")
    assert '[ParContract "EW 3NT+2"]' in solved and "[OptimumResultTable" in solved
    modules, proc = _imports(
        tmp_path, "solve", str(REPO / "resources" / "sample.pbn"), str(out), "--force", "--again", "--chunk", "8"
    )
    assert proc.returncode == 0, proc.stderr
    assert "numpy" in modules
