"""Board numbers a file cannot mean: past what any format stores, and gaps of a hundred million.

A number past :data:`MAX_BOARD_NUMBER` (``[Board "9223372036854775808"]``, ``ah|Board
9223372036854775808``, ``qx|o9223372036854775808``) is a problem on its board, which has no
number then, the same in every reader (PBN and LIN, whole or lazy).  A gap in the numbers is one
range ("boards 2-99999999 … are missing"), found in constant memory by ``check`` and the window.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bridgeview.check import check_set
from bridgeview.check.validate import validate
from bridgeview.formats.codec import lazy_text
from bridgeview.formats.lin import lazy as lin_lazy
from bridgeview.formats.pbn import lazy as pbn_lazy
from bridgeview.formats.registry import read_file, write_file
from bridgeview.model.board import MAX_BOARD_NUMBER, board_number_problem

DEAL = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
OTHER = "N:AKQT.AKQ.AKQ.AKQ J987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"
MD = "SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,"
HUGE = "9223372036854775808"
#: address space for a child that checks a set with a gap of 10^8 numbers: a list of them needs ~4 GB
MEMORY_LIMIT = 1536 << 20


def _pbn(*numbers: str) -> str:
    return "\n".join(f'[Board "{n}"]\n[Deal "{DEAL if k == 0 else OTHER}"]\n' for k, n in enumerate(numbers))


def _lin(*titles: str) -> str:
    return "".join(f"md|1{MD}|ah|{t}|\n" for t in titles)


@pytest.fixture(params=["whole", "lazy"])
def reading(request, monkeypatch) -> str:
    """Each case read by the whole-file readers and by the lazy ones."""
    if request.param == "lazy":
        monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 0)
        monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 0)
    return request.param


@pytest.mark.parametrize(
    "name, text",
    [
        ("pbn", _pbn("1", HUGE)),
        ("pbn", _pbn("1", "1000000000")),
        ("pbn", _pbn("1", "0000000000002")),  # leading zeros: a small number all the same
        ("pbn", _pbn("1", "9" * 5000)),
        ("lin", _lin("Board 1", f"Board {HUGE}")),
        ("lin", _lin("Board 1", "Board 1000000000")),
        ("lin", _lin("Board 1", f"Open room, board {HUGE}")),
        ("lin", f"qx|o1|md|1{MD}|\nqx|o{HUGE}|md|1{MD}|\n"),
    ],
)
def test_a_number_past_any_format_is_a_problem_on_its_board(tmp_path: Path, reading: str, name: str, text: str):
    path = tmp_path / f"numbers.{name}"
    path.write_text(text)
    boards = read_file(path)
    assert (lazy_text(boards) == name) == (reading == "lazy")
    numbers = [b.number for b in boards]
    problems = [str(p) for p in validate(boards)]
    if "0000000000002" in text:
        assert numbers == [1, 2] and not any("beyond" in p for p in problems)
        return
    assert numbers == [1, None], "the second board's number is no number a format can store"
    beyond = [p for p in problems if f"is beyond {MAX_BOARD_NUMBER:,}, more than any format stores" in p]
    assert len(beyond) == 1 and "record 2" in beyond[0], problems
    assert len(beyond[0]) < 300, "a number of thousands of digits is quoted short"
    # saved back to its own format, the number stays as the file had it
    out = tmp_path / f"saved.{name}"
    write_file(boards, out, name)
    number = text.split("\n")[2 if name == "pbn" else 1]
    assert number.split("|")[1 if name == "lin" else 0].strip("[]") in out.read_text()


def test_the_largest_number_is_a_number() -> None:
    assert board_number_problem(str(MAX_BOARD_NUMBER)) is None
    assert board_number_problem(str(MAX_BOARD_NUMBER + 1))
    assert board_number_problem("0" * 50 + "7") is None


def _run_limited(script: str, *args: str) -> subprocess.CompletedProcess:
    """``script`` in a child Python with its address space limited (a list of 10^8 numbers fails there)."""
    code = f"import resource; resource.setrlimit(resource.RLIMIT_AS, ({MEMORY_LIMIT}, {MEMORY_LIMIT}))\n" + script
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    return subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=240, env=env, check=False
    )


GAP_LINE = "board 100000000: follows board 1: boards 2-99999999 (99,999,998 boards) are missing from the run"


def test_check_reports_a_huge_gap_as_a_range_in_constant_memory(tmp_path: Path) -> None:
    path = tmp_path / "gap.pbn"
    path.write_text(_pbn("1", "100000000"))
    cli = "import sys\nfrom bridgeview.cli.main import main\nsys.exit(main(sys.argv[1:]))"
    done = _run_limited(cli, "check", str(path))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    assert f"{path}: {GAP_LINE}" in done.stdout + done.stderr


def test_the_check_tab_reports_a_huge_gap_as_a_range_in_constant_memory(tmp_path: Path) -> None:
    path = tmp_path / "gap.pbn"
    path.write_text(_pbn("1", "100000000"))
    script = textwrap.dedent(
        """
        import json, sys
        from PySide6.QtWidgets import QApplication
        app = QApplication([])
        from bridgeview.ui.mainwindow import MainWindow
        window = MainWindow()
        assert window.open_file(sys.argv[1])
        panel = window.current_view().check_panel
        print(json.dumps([panel.list.item(i).text() for i in range(panel.list.count())]))
        """
    )
    done = _run_limited(script, str(path))
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-3000:]
    shown = json.loads(done.stdout.strip().splitlines()[-1])
    assert GAP_LINE in shown


def test_small_gaps_still_say_which_boards(tmp_path: Path) -> None:
    from test_ui_support import make_boards

    boards = make_boards(4)
    for b, n in zip(boards, (1, 3, 6, 40), strict=True):
        b.number = n
    texts = [str(x) for x in check_set(boards) if x.kind == "gap"]
    assert texts == [
        "board 3: follows board 1: board 2 is missing from the run",
        "board 6: follows board 3: boards 4-5 are missing from the run",
        "board 40: follows board 6: boards 7-39 (33 boards) are missing from the run",
    ]
