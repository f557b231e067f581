"""``bridgeview generate``: printing as dealer does, a lesson set to every format in one command,
clear errors before any work, progress, and Ctrl+C that keeps what was made."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bridgeview.cli.main import main
from bridgeview.formats.registry import read_file
from bridgeview.model.cards import Seat
from bridgeview.model.vulnerability import vulnerability_for_board

ONE_NT = """# 1NT openings: 15-17 balanced, South deals
dealer south
nt = shape(south, any 4333 + any 4432 + any 5332) && hcp(south) >= 15 && hcp(south) <= 17
condition nt
action printall
"""


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.fixture
def one_nt(tmp_path) -> Path:
    path = tmp_path / "1nt.dlr"
    path.write_text(ONE_NT, encoding="utf-8")
    return path


def test_without_outputs_it_prints_what_the_actions_print(capsys, one_nt):
    rc, out, err = run(capsys, "generate", one_nt, "--seed", "3", "--produce", "5")
    assert rc == 0 and err == ""
    blocks = out.split("\n\n")
    assert [b.splitlines()[0] for b in blocks[:5]] == ["   1.", "   2.", "   3.", "   4.", "   5."]
    assert out.splitlines()[-4].startswith("Generated ") and out.splitlines()[-3] == "Produced 5 hands"
    assert out.splitlines()[-2] == "Initial random seed 3" and out.splitlines()[-1].startswith("Time needed")
    rc, again, _ = run(capsys, "generate", one_nt, "--seed", "3", "--produce", "5")
    assert again.split("Time needed")[0] == out.split("Time needed")[0]


def test_the_default_is_dealers_forty_deals_and_no_seed_line_without_a_seed(capsys, one_nt):
    rc, out, _ = run(capsys, "generate", one_nt)
    assert rc == 0 and "Produced 40 hands" in out and "Initial random seed" not in out


def test_printpbn_makes_a_pbn_file(capsys, tmp_path):
    script = tmp_path / "w.dlr"
    script.write_text("produce 4\ncondition hcp(north) > 12\naction printpbn\n")
    rc, out, _ = run(capsys, "generate", script, "--seed", "1")
    assert rc == 0 and "Generated" not in out  # the output is a clean PBN file
    (tmp_path / "w.pbn").write_text(out)
    boards = read_file(tmp_path / "w.pbn")
    assert [b.number for b in boards] == [1, 2, 3, 4]
    assert all(b.deal.hcp(Seat.NORTH) > 12 and b.deal.is_complete for b in boards)


def test_a_lesson_set_to_records_and_machine_files_in_one_command(capsys, tmp_path, one_nt):
    outs = [tmp_path / f"lesson.{ext}" for ext in ("pbn", "dlm", "dup", "pdf", "html")]
    argv = ["generate", one_nt, "--produce", "8", "--seed", "5", "--first-board", "9"]
    for out in outs:
        argv += ["-o", out]
    rc, out, err = run(capsys, *argv)
    assert rc == 0, err
    assert "produced 8 deals" in out and "lesson.pdf: 8 boards on 2 pages" in out and "lesson.html: 8 boards" in out
    # what the machine files cannot hold is said, file by file
    assert "lesson.dup: dropped: dealer and vulnerability that differ from the board number" in err
    pbn, dlm, dup = (read_file(p) for p in outs[:3])
    deals = [b.deal for b in pbn]
    assert len(deals) == 8 and [b.number for b in pbn] == list(range(9, 17))
    assert [b.deal for b in dlm] == deals == [b.deal for b in dup]
    for board in pbn:
        assert board.dealer == Seat.SOUTH  # the script's dealer
        assert board.vulnerability == vulnerability_for_board(board.number)  # not set by the script
        assert 15 <= board.deal.hcp(Seat.SOUTH) <= 17
    assert pbn.info.event == f"Deals from {one_nt}, seed 5"
    assert outs[3].read_bytes().startswith(b"%PDF") and b"<html" in outs[4].read_bytes()[:200].lower()
    # the same seed makes the same set
    again = tmp_path / "again.pbn"
    rc, _, _ = run(capsys, "generate", one_nt, "--produce", "8", "--seed", "5", "--first-board", "9", "-o", again)
    assert again.read_bytes() == outs[0].read_bytes()


def test_statistics_still_print_beside_the_files(capsys, tmp_path):
    script = tmp_path / "s.dlr"
    script.write_text('produce 50\ncondition hcp(north) > 15\naction printall, average "hcp" hcp(north)\n')
    rc, out, _ = run(capsys, "generate", script, "--seed", "2", "-o", tmp_path / "s.pbn")
    assert rc == 0
    assert out.splitlines()[0].startswith("hcp: ") and "   1." not in out
    assert "produced 50 deals" in out and len(read_file(tmp_path / "s.pbn")) == 50


def test_the_set_to_standard_output_with_the_statistics_apart(capsys, tmp_path):
    """-o - writes the set to standard output (PBN unless --to says otherwise); everything else goes to
    stderr, so the pipe holds the set alone."""
    script = tmp_path / "s.dlr"
    script.write_text('produce 4\ncondition hcp(north) > 12\naction average "hcp" hcp(north)\n')
    rc, out, err = run(capsys, "generate", script, "--seed", "4", "-o", "-")
    assert rc == 0 and out.startswith("% PBN") and out.count("[Deal ") == 4 and "hcp" not in out
    assert "hcp: " in err and "produced 4 deals" in err
    (tmp_path / "piped.pbn").write_text(out)
    assert all(b.deal.hcp(Seat.NORTH) > 12 for b in read_file(tmp_path / "piped.pbn"))
    rc, out, err = run(capsys, "generate", script, "--seed", "4", "-o", "-", "--to", "lin")
    assert rc == 0 and out.count("md|") == 4


def test_hand_record_options_need_a_sheet(capsys, tmp_path, one_nt):
    rc, _, err = run(capsys, "generate", one_nt, "-o", tmp_path / "x.pbn", "--per-page", "2")
    assert rc == 1 and "--per-page set hand records; no output is .pdf or .html" in err


def test_the_script_can_come_from_standard_input(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"produce 2\naction printoneline\n")))
    rc, out, _ = run(capsys, "generate", "-", "--seed", "1")
    assert rc == 0 and len(out.splitlines()) == 2 + 4


@pytest.mark.parametrize(
    "script, extra, message",
    [
        ("condition hcp(norht) > 3\n", [], "s.dlr: line 1, column 15: expected a seat"),
        ("produce 5\n", ["-o", "{tmp}/x.xyz"], "x.xyz"),
        (
            "produce 200\n",
            ["-o", "{tmp}/x.dlm"],
            "x.dlm: Duplimate DLM hold at most 99 boards; this run produces up to 200",
        ),
        ("condition 10 / hcp(north) > 5\n", [], "s.dlr: line 1, column 14: division by zero"),
        (
            "produce 30\n",
            ["-o", "{tmp}/x.dlm", "--first-board", "80"],
            "x.dlm: Duplimate DLM numbers boards up to 99; boards 80 to 109 would not fit",
        ),
    ],
)
def test_errors_are_one_located_line_before_any_work(capsys, tmp_path, script, extra, message):
    path = tmp_path / "s.dlr"
    path.write_text(script)
    rc, out, err = run(capsys, "generate", path, *[e.format(tmp=tmp_path) for e in extra])
    assert rc == 1
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bridgeview: ") and message in lines[0], err
    assert "Traceback" not in err
    assert not (tmp_path / "x.dlm").exists()


def test_a_missing_or_binary_script(capsys, tmp_path):
    rc, _, err = run(capsys, "generate", tmp_path / "nothing.dlr")
    assert rc == 1 and "nothing.dlr" in err and len(err.splitlines()) == 1
    binary = tmp_path / "b.dlr"
    binary.write_bytes(b"\x00\x01generate")
    rc, _, err = run(capsys, "generate", binary)
    assert rc == 1 and "not a text file" in err


def test_a_write_protected_output_is_refused_before_generating(capsys, tmp_path, one_nt):
    target = tmp_path / "kept.pbn"
    target.write_text("keep me")
    target.chmod(0o444)
    rc, _, err = run(capsys, "generate", one_nt, "-o", target, "--produce", "2")
    assert rc == 1 and "write-protected" in err and target.read_text() == "keep me"


def test_progress_on_a_terminal_and_quiet(capsys, monkeypatch, tmp_path):
    from bridgeview.cli import generate

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    script = tmp_path / "p.dlr"
    script.write_text("condition hcp(north) > 20\naction average hcp(north)\n")
    monkeypatch.setattr(generate._Status, "DELAY", 0.0)
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["generate", str(script), "--generate", "300000", "--jobs", "1"]) == 0
    shown = terminal.getvalue()
    assert "deals tried" in shown and " produced" in shown and "left" in shown
    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["generate", str(script), "--generate", "300000", "--jobs", "1", "--quiet"]) == 0
    assert terminal.getvalue() == ""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_stops_and_still_writes_what_was_made(tmp_path, jobs):
    """Ctrl+C on a terminal reaches the whole process group (worker processes too): the command stops,
    writes the deals made so far and says so, without a traceback, and leaves no process behind."""
    script = tmp_path / "long.dlr"
    script.write_text("condition hcp(north) >= 24\n")
    out = tmp_path / "long.pbn"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parent.parent))
    # the command as a terminal starts it, Ctrl+C at its default: a test run started in the background of a
    # non-interactive shell has it ignored, and an ignored signal is inherited (Python then installs no handler)
    terminal = (
        "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execv(sys.argv[1], sys.argv[1:])"
    )
    argv = [sys.executable, "-c", terminal, sys.executable, "-m", "bridgeview", "generate", str(script)]
    argv += ["--produce", "100000000", "--generate", "2000000000", "-o", str(out), "--jobs", jobs, "--quiet"]
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, start_new_session=True
    )
    time.sleep(2.5)
    os.killpg(proc.pid, signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr and "interrupted after" in stderr
    boards = read_file(out)
    assert len(boards) > 0 and all(b.deal.hcp(Seat.NORTH) >= 24 for b in boards)
    assert f"produced {len(boards):,} deal" in stdout
    for _ in range(100):  # nothing of the group is left (a helper process may take a moment to be reaped)
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        raise AssertionError("a process of the command's group is still there")
