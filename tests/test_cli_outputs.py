"""Several outputs from one read, and the set on standard output (issue 28, items 5 and 7).

``convert IN OUT [OUT…]`` writes every target with its own loss notice and its own refusal (the others are
still written, the exit status is 1, a refused target is never half written); ``-o -`` / ``-`` writes the
set to stdout in the format of ``--to`` (PBN by default) with every notice on stderr, and refuses a binary
format on a terminal.  In-process and in a subprocess, as a shell runs it."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from bridgeview.cli.main import main
from bridgeview.formats.registry import detect, read_file, write_file
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.deal import Deal
from bridgeview.resources import resource

SAMPLE = resource("sample.pbn")  # 16 boards with DD tables, auctions and play


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, out, err


def cli(*argv, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bridgeview", *map(str, argv)], capture_output=True, timeout=300, **kw)


def deals(path, fmt=None) -> list[tuple[int | None, str]]:
    return [(b.number, b.deal.to_pbn()) for b in read_file(path, fmt)]


def a_set(n: int, seed: int = 3) -> BoardSet:
    rng = random.Random(seed)
    return BoardSet([Board.numbered(i + 1, Deal.shuffled(rng)) for i in range(n)], FileInfo(event="Club night"))


def no_part_files(directory) -> bool:
    return not [p for p in os.listdir(directory) if p.endswith(".part")]


# -- several outputs --------------------------------------------------------------------------------------
def test_one_read_every_target_with_its_own_notice(capsys, tmp_path):
    outs = [tmp_path / n for n in ("a.dlm", "a.zrd", "a.lin", "a.pdf", "a.html")]
    rc, out, err = run(capsys, "convert", SAMPLE, *outs)
    assert rc == 0, err
    want = deals(SAMPLE)
    for path in outs[:3]:
        assert deals(path) == want, path
    lines = err.splitlines()
    assert "bridgeview: " + f"{outs[0]}: dropped: auctions of 16 boards" in lines
    assert f"bridgeview: {outs[1]}: dropped: auctions of 16 boards" in lines
    assert not any(f"{outs[1]}: dropped: double-dummy" in line for line in lines)  # ZRD keeps the tables
    assert f"bridgeview: {outs[2]}: dropped: double-dummy results of 16 boards" in lines
    assert all(line.startswith("bridgeview: ") for line in lines)
    assert out.splitlines() == [f"{outs[3]}: 16 boards on 4 pages", f"{outs[4]}: 16 boards on 4 pages"]
    assert outs[3].read_bytes().startswith(b"%PDF") and b"Board 16" in outs[4].read_bytes()


def test_a_target_that_cannot_hold_the_set_does_not_stop_the_others(capsys, tmp_path):
    src = tmp_path / "big.pbn"
    write_file(a_set(100), src)
    refused = tmp_path / "machine.dlm"
    refused.write_bytes(b"the old file")
    good = [tmp_path / "set.pbn", tmp_path / "set.bri"]
    rc, out, err = run(capsys, "convert", src, good[0], refused, good[1])
    assert rc == 1
    lines = err.splitlines()
    assert any(line.startswith(f"bridgeview: {refused}: ") and "99" in line for line in lines), lines
    assert lines[-1] == f"bridgeview: 1 of 3 outputs not written: {refused}"
    assert refused.read_bytes() == b"the old file"  # never half written, never replaced
    assert deals(good[0]) == deals(src) and deals(good[1]) == [(i + 1, d) for i, (_, d) in enumerate(deals(src))]
    assert no_part_files(tmp_path)


def test_a_write_protected_target_is_named_and_the_others_written(capsys, tmp_path):
    protected = tmp_path / "old.dup"
    write_file(a_set(4), protected)
    before = protected.read_bytes()
    protected.chmod(0o444)
    other = tmp_path / "new.dup"
    rc, _, err = run(capsys, "convert", SAMPLE, protected, other)
    assert rc == 1 and protected.read_bytes() == before and other.is_file()
    assert f"bridgeview: {protected}: the file is write-protected; not replaced (--force replaces it)" in err
    rc, _, err = run(capsys, "convert", SAMPLE, protected, other, "--force")
    assert rc == 0 and deals(protected) == deals(SAMPLE)


def test_a_failing_sheet_does_not_stop_the_deal_files(capsys, tmp_path):
    rc, out, err = run(capsys, "convert", SAMPLE, tmp_path / "no" / "dir.html", tmp_path / "a.pbn", "--no-dd")
    assert rc == 1 and deals(tmp_path / "a.pbn") == deals(SAMPLE)
    assert err.splitlines()[0].startswith(f"bridgeview: {tmp_path / 'no' / 'dir.html'}: ")


def test_targets_are_checked_before_anything_is_read_or_written(capsys, tmp_path):
    a = tmp_path / "a.pbn"
    for argv, says in [
        ((a, tmp_path / "b.xyz"), "cannot tell the output format from the extension"),
        ((a, a), "the same file is named twice"),
        ((a, "-", "-"), "standard output (-) can take only one of the outputs"),
        ((a, tmp_path / "b.pbn", "--per-page", "6"), "--per-page set hand records; no output is .pdf or .html"),
        ((a, tmp_path / "b.pbn", "--dup-copies", "2"), "no output is a DUP file"),
        ((a, "--title", "x"), "--title set hand records; no output is .pdf or .html"),
    ]:
        rc, out, err = run(capsys, "convert", SAMPLE, *argv)
        assert rc == 1 and says in err and len(err.splitlines()) == 1, (argv, err)
        assert not list(tmp_path.iterdir()), argv


def test_renumber_and_dup_fields_reach_every_target(capsys, tmp_path):
    src = tmp_path / "gaps.pbn"
    boards = a_set(6)
    write_file(
        BoardSet([b.touched(number=n) for b, n in zip(boards, (1, 2, 4, 5, 7, 8), strict=True)], boards.info), src
    )
    dup, pbn = tmp_path / "m.dup", tmp_path / "m.pbn"
    rc, _, err = run(capsys, "convert", src, dup, pbn, "--renumber", "--dup-copies", "2", "--dup-first", "11")
    assert rc == 0, err
    assert [n for n, _ in deals(dup)] == [n for n, _ in deals(pbn)] == list(range(11, 17))
    control = read_file(dup).info.dup
    assert control.copies == 2 and control.first_board == 11 and control.last_board == 16


def test_to_names_standard_output_and_outputs_of_its_own_format(capsysbinary, tmp_path):
    zrj, pbn = tmp_path / "x.zrj", tmp_path / "y.pbn"
    assert main(["convert", str(SAMPLE), str(zrj), str(pbn), "-", "--to", "zrj16"]) == 0
    out, err = capsysbinary.readouterr()
    assert detect(zrj).name == "zrj16" and detect(pbn).name == "pbn"  # .pbn keeps its own format
    piped = tmp_path / "piped.zrj"
    piped.write_bytes(out)
    assert detect(piped).name == "zrj16" and deals(piped) == deals(zrj)


def test_a_cribbage_game_to_several_outputs(capsys, tmp_path):
    game = resource("sample_game.crib")
    rc, _, err = run(capsys, "convert", game, tmp_path / "a.crib", tmp_path / "b.pbn", tmp_path / "c.html")
    assert rc == 1 and (tmp_path / "a.crib").read_bytes() == game.read_bytes()
    assert f"bridgeview: {tmp_path / 'b.pbn'}: cannot convert a cribbage file to PBN" in err
    assert f"bridgeview: {tmp_path / 'c.html'}: a cribbage game has no hand records" in err
    assert "2 of 3 outputs not written" in err


# -- standard output ----------------------------------------------------------------------------------
def test_pbn_by_default_in_process(capsysbinary, tmp_path):
    assert main(["convert", str(SAMPLE), "-"]) == 0
    out, err = capsysbinary.readouterr()
    assert out == SAMPLE.read_bytes() and err == b""  # unchanged PBN keeps its bytes


def test_piped_to_another_program_and_read_back(tmp_path):
    lin = cli("convert", SAMPLE, "-", "--to", "lin")
    assert lin.returncode == 0, lin.stderr
    assert lin.stderr.decode().splitlines() == [
        "bridgeview: dropped: double-dummy results of 16 boards",
        "bridgeview: dropped: tags LIN has no place for (Round, Scoring) on 16 boards",
        "bridgeview: dropped: the site and date (LIN keeps only the event)",
    ]  # notices on stderr, never in the data
    # the shell's pipe: LIN into the next bridgeview reading standard input's bytes
    piped = tmp_path / "piped.lin"
    back = cli("convert", "/dev/stdin", piped, "--from", "lin", input=lin.stdout)
    assert back.returncode == 0, back.stderr
    assert deals(piped) == deals(SAMPLE)
    binary = cli("convert", SAMPLE, "-", "--to", "zrd")
    zrd = tmp_path / "piped.zrd"
    zrd.write_bytes(binary.stdout)
    assert binary.returncode == 0 and len(binary.stdout) == 16 * 23 and deals(zrd) == deals(SAMPLE)


def test_several_outputs_with_standard_output_put_summaries_on_stderr(tmp_path):
    proc = cli("convert", SAMPLE, "-", tmp_path / "a.html", "--no-dd")
    assert proc.returncode == 0 and proc.stdout == SAMPLE.read_bytes()
    assert f"{tmp_path / 'a.html'}: 16 boards on 4 pages" in proc.stderr.decode()


def test_a_binary_format_is_refused_on_a_terminal(tmp_path):
    import pty

    leader, follower = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "bridgeview", "convert", str(SAMPLE), str(tmp_path / "a.pbn"), "-", "--to", "zbd"],
            stdout=follower,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    finally:
        os.close(follower)
        os.close(leader)
    assert proc.returncode == 1
    assert proc.stderr.decode().strip() == (
        "bridgeview: standard output: ZBD (Pavlicek binary deal) is binary: not written to a terminal "
        "(send standard output to a file or a pipe, or choose a text format with --to)"
    )
    assert not (tmp_path / "a.pbn").exists()  # refused before anything was written


def test_nothing_reaches_the_pipe_unless_the_whole_set_converts(capsysbinary, tmp_path):
    src = tmp_path / "partial.pbn"
    boards = a_set(3)
    hands = boards[2].deal.hands
    write_file(BoardSet([*boards[:2], boards[2].touched(deal=Deal((hands[0], 0, 0, 0)))], boards.info), src)
    assert main(["convert", str(src), "-", "--to", "zbd"]) == 1
    out, err = capsysbinary.readouterr()
    assert out == b""
    assert err.decode().startswith("bridgeview: standard output: board 3 ")


def test_a_reader_that_stops_early_ends_quietly(tmp_path):
    src = tmp_path / "big.pbn"
    write_file(a_set(2000), src)
    proc = subprocess.Popen(
        [sys.executable, "-m", "bridgeview", "convert", str(src), "-"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    head = proc.stdout.read(100)
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert head.startswith(b"% PBN") and proc.returncode == 0 and err == b"", err


@pytest.mark.parametrize("single", [True, False])
def test_every_line_of_a_run_is_a_bridgeview_line(capsys, tmp_path, single):
    outs = [tmp_path / "a.dge"] if single else [tmp_path / "a.dge", tmp_path / "b.bre"]
    rc, _, err = run(capsys, "convert", SAMPLE, *outs)
    assert rc == 0
    prefix = "bridgeview: dropped: " if single else f"bridgeview: {outs[0]}: dropped: "
    assert err.splitlines()[0].startswith(prefix)  # one output: as convert always said it


def test_a_command_that_makes_a_set_writes_it_through_the_same_function(capsys, tmp_path, monkeypatch):
    """What ``generate -o a.pbn -o a.dlm -o a.html`` calls: a set made in memory, every target written."""
    from bridgeview.cli.outputs import exit_status, resolve_targets, write_outputs
    from bridgeview.model.ddtable import DDTable
    from bridgeview.solve import print_tables

    fake = DDTable.from_rows([[9, 8, 7, 10, 9], [3, 4, 5, 2, 3], [9, 8, 7, 10, 9], [3, 4, 5, 2, 3]])
    monkeypatch.setattr(print_tables, "_default_solver", lambda deal: fake)
    boards = a_set(24)
    paths = [str(tmp_path / n) for n in ("a.pbn", "a.dlm", "a.html")]
    outcomes = write_outputs(boards, resolve_targets(paths))
    assert exit_status(outcomes) == 0 and [o.target.name for o in outcomes] == paths
    want = [(b.number, b.deal.to_pbn()) for b in boards]
    assert deals(paths[0]) == want and deals(paths[1]) == want
    assert outcomes[2].summary == f"{paths[2]}: 24 boards on 6 pages"
    html = (tmp_path / "a.html").read_text(encoding="utf-8")
    assert "<title>Club night</title>" in html and html.count('<article class="board"') == 24
    out, err = capsys.readouterr()
    assert out.strip() == outcomes[2].summary
