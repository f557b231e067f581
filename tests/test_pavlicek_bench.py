"""The Pavlicek benchmarks run end to end with a tiny N (their numbers are in docs/bench-bulk.md)."""

from __future__ import annotations

import sys

from conftest import REPO

sys.path.insert(0, str(REPO / "bench"))

import bench_bigfile
import bench_bulk


def test_bench_bulk_runs(tmp_path, capsys):
    results = bench_bulk.main(["--n", "300", "--repeat", "1", "--dir", str(tmp_path)])
    assert results["n"] == 300 and results["zbd_ratio"] > 0
    assert "ratio" in capsys.readouterr().out


def test_bench_bigfile_runs(tmp_path, capsys):
    results = bench_bigfile.main(["--n", "40", "--dir", str(tmp_path)])
    assert results["big"]["boards"] == 40 and results["big"]["index"] == 39
    assert results["small"]["boards"] == 16 and results["small"]["board_number"] == 16
    assert "checksum" in capsys.readouterr().out


def test_bench_convert_sizes_runs(tmp_path, capsys):
    """Two shapes at a tiny size, this checkout against itself: the outputs compared, the rows printed."""
    import bench_convert_sizes

    rows = bench_convert_sizes.main(
        ["--sizes", "32", "--shapes", "deals,zrd", "--repeat", "1", "--tree", str(REPO), "--dir", str(tmp_path)]
    )
    assert sorted(r["shape"] for r in rows) == ["deals", "zrd"]
    assert all(r["tree0"]["in_warm"] > 0 for r in rows)
    assert "slice whole" in capsys.readouterr().out
    zrd = next(r for r in rows if r["shape"] == "zrd")
    assert zrd["tree0"]["paired"] > 0  # each round's ratio to the slice beside it, their median
