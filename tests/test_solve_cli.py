"""``bridgeview solve IN OUT``: DD tables (and par for PBN) written and read back."""

from __future__ import annotations

import pytest

from bridgeview.cli.main import main
from bridgeview.formats import registry
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal

DEALS = (
    "N:65.A53.JT7.AK762 AK87.QT4.AK98.95 JT9.982.Q532.Q83 Q432.KJ76.64.JT4",
    "N:AQ63.J7.Q42.AKJ7 T942.T5.KT6.9643 J85.4.AJ8753.Q82 K7.AKQ98632.9.T5",
)
#: the tables Deal Convert stored for these deals (realdata/pbn/dealconvert_test_16boards.pbn, boards 1-2)
TABLES = (
    [[6, 5, 4, 3, 6], [6, 8, 9, 10, 7], [6, 5, 4, 3, 6], [6, 8, 9, 10, 7]],
    [[12, 12, 5, 10, 5], [0, 0, 8, 2, 0], [12, 12, 5, 10, 5], [0, 0, 8, 2, 0]],
)


def write_input(path, fmt: str, with_table: bool = False) -> None:
    boards = [Board.numbered(i + 1, Deal.from_pbn(d)) for i, d in enumerate(DEALS)]
    if with_table:
        wrong = DDTable.from_rows(TABLES[0]).with_value(0, 4, 9)
        boards[0] = boards[0].copy(dd=wrong)
    registry.write_file(BoardSet(boards), path, fmt)


def test_deals_to_zrd(tmp_path, capsys):
    src, dst = tmp_path / "in.deals", tmp_path / "out.zrd"
    write_input(src, "deals")
    assert main(["solve", str(src), str(dst), "--jobs", "2"]) == 0
    assert "solved 2 of 2 boards" in capsys.readouterr().err
    back = registry.read_file(dst)
    assert [b.dd for b in back] == [DDTable.from_rows(t) for t in TABLES]


def test_pbn_gets_tables_and_par(tmp_path):
    src, dst = tmp_path / "in.deals", tmp_path / "out.pbn"
    write_input(src, "deals")
    assert main(["solve", str(src), str(dst)]) == 0
    text = dst.read_text(encoding="utf-8", errors="replace")
    assert '[OptimumScore "NS -420"]' in text
    assert '[ParContract "EW 4S"]' in text
    assert '[OptimumScore "NS 800"]' in text  # board 2: EW save in 6H doubled, vulnerable NS
    back = registry.read_file(dst)
    assert [b.dd for b in back] == [DDTable.from_rows(t) for t in TABLES]


@pytest.mark.slow
def test_stored_tables_kept_unless_again(tmp_path, capsys):
    src = tmp_path / "in.zrd"
    write_input(src, "zrd", with_table=True)
    keep, again = tmp_path / "keep.zrd", tmp_path / "again.zrd"
    assert main(["solve", str(src), str(keep)]) == 0
    assert "solved 1 of 2 boards" in capsys.readouterr().err
    assert registry.read_file(keep)[0].dd.get(0, 4) == 9  # stored, even though wrong
    assert main(["solve", "--again", str(src), str(again)]) == 0
    assert "1 stored table differs from DDS" in capsys.readouterr().err
    assert registry.read_file(again)[0].dd == DDTable.from_rows(TABLES[0])


def test_errors(tmp_path, capsys):
    src = tmp_path / "in.deals"
    write_input(src, "deals")
    assert main(["solve", str(src), str(tmp_path / "out.bri")]) == 1
    assert "cannot hold double-dummy results" in capsys.readouterr().err
    assert main(["solve", str(tmp_path / "missing.deals"), str(tmp_path / "out.zrd")]) == 1
    # an ending of unequal hands is reported, not solved
    uneven = tmp_path / "uneven.deals"
    registry.write_file(BoardSet([Board(deal=Deal.from_pbn("N:AKQ... ...AK .AKQ.. ..AKQ."))]), uneven, "deals")
    assert main(["solve", str(uneven), str(tmp_path / "u.pbn")]) == 0
    assert "1 board could not be solved" in capsys.readouterr().err


@pytest.mark.slow
def test_real_dge_file_matches_deal_convert(realdata, tmp_path):
    """Deal Convert's 16 boards: our tables and par scores equal the ones it wrote into its PBN."""
    import re

    out = tmp_path / "solved.pbn"
    assert main(["solve", str(realdata / "dge" / "dealconvert_test_16boards.dge"), str(out)]) == 0
    ours = out.read_text(encoding="utf-8", errors="replace")
    theirs = (realdata / "pbn" / "dealconvert_test_16boards.pbn").read_text(encoding="latin-1")
    score = re.compile(r'OptimumScore "([^"]*)"')
    assert score.findall(ours) == score.findall(theirs)
    solved = [b.dd for b in registry.read_file(out)]
    stored = [b.dd for b in registry.read_file(realdata / "pbn" / "dealconvert_test_16boards.pbn")]
    assert len(solved) == 16 and solved == stored


@pytest.mark.parametrize("boards", [1, 2])
def test_solve_as_a_command_forks_its_dds_children_and_gets_the_known_tables(tmp_path, boards):
    """``bridgeview solve`` as a user runs it, a process of its own, where its DDS children are forked and a
    board can get several DDS threads (tests/test_solver_process.py shows both happen): the tables are still
    the ones Deal Convert stored."""
    import subprocess
    import sys

    src, dst = tmp_path / "in.pbn", tmp_path / "out.pbn"
    registry.write_file(
        BoardSet([Board.numbered(i + 1, Deal.from_pbn(d)) for i, d in enumerate(DEALS[:boards])]), src, "pbn"
    )
    run = subprocess.run(
        [sys.executable, "-m", "bridgeview.cli.main", "solve", str(src), str(dst), "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert f"solved {boards} of" in run.stderr
    assert [b.dd for b in registry.read_file(dst)] == [DDTable.from_rows(t) for t in TABLES[:boards]]
