"""Benchmark: opening a 10,485,760-deal ZRD (241 MB) costs what opening 16 deals costs.

Creates the big ZRD (vectorised, fixed seed) and a 16-deal ZRD in a temporary
directory, then, each in a fresh Python process, measures ``read_file`` +
``len`` + decoding one board (board 10,000,001 of the big file, i.e. index
10,000,000; the last board of the small one) and the growth of the resident
set (VmRSS from /proc).  Also times the file checksum that ``bridgeview info``
computes by reading the whole file, and the whole ``info`` command in-process.
A kept ``--dir`` that already holds the big file skips generating it.  Usage::

    python bench/bench_bigfile.py [--n 10485760] [--dir DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bulk import machine, write_zrd

BIG_N = 10_485_760
TARGET_INDEX = 10_000_000


def rss_kib() -> int:
    """Current resident set size in KiB (0 where /proc is missing)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(path: Path, index: int, checksum: bool) -> dict:
    """Run in a fresh process: time and RSS of open + len + one decode."""
    from bridgeview.formats.checksum import pavlicek_checksum
    from bridgeview.formats.registry import all_codecs, read_file

    all_codecs()  # imports and registration are not what we measure
    before = rss_kib()
    t0 = time.perf_counter()
    doc = read_file(path)
    t1 = time.perf_counter()
    count = len(doc)
    t2 = time.perf_counter()
    board = doc[index]
    t3 = time.perf_counter()
    after = rss_kib()
    out = {
        "path": str(path),
        "size": path.stat().st_size,
        "boards": count,
        "index": index,
        "board_number": board.number,
        "deal": board.deal.to_pbn(),
        "open_ms": (t1 - t0) * 1000,
        "len_ms": (t2 - t1) * 1000,
        "decode_ms": (t3 - t2) * 1000,
        "total_ms": (t3 - t0) * 1000,
        "rss_growth_kib": after - before,
    }
    if checksum:
        t4 = time.perf_counter()
        value = pavlicek_checksum(path)
        out["checksum_ms"] = (time.perf_counter() - t4) * 1000
        out["checksum"] = f"{value:X}"
        out["checksum_rss_growth_kib"] = rss_kib() - before
    # the whole ``bridgeview info`` command (open, count, checksum, first and last board), as run from a shell
    # minus the interpreter's start-up and imports
    from bridgeview.cli.main import main as cli_main

    with contextlib.redirect_stdout(io.StringIO()):
        t5 = time.perf_counter()
        cli_main(["info", str(path)])
        out["info_ms"] = (time.perf_counter() - t5) * 1000
    out["info_rss_growth_kib"] = rss_kib() - before
    return out


def measure_in_child(path: Path, index: int, checksum: bool = False) -> dict:
    cmd = [sys.executable, __file__, "--measure", str(path), "--index", str(index)]
    if checksum:
        cmd.append("--checksum")
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def run(n: int, directory: Path) -> dict:
    big, small = directory / "big.zrd", directory / "small.zrd"
    t0 = time.perf_counter()
    generate_s = None
    if not (big.exists() and big.stat().st_size == 23 * n):  # a kept --dir skips the 20-second generation
        write_zrd(big, n)
        generate_s = time.perf_counter() - t0
    write_zrd(small, 16)
    return {
        "machine": machine(),
        "n": n,
        "generate_s": generate_s,
        "big": measure_in_child(big, min(TARGET_INDEX, n - 1), checksum=True),
        "small": measure_in_child(small, 15),
    }


def report(results: dict) -> None:
    print(f"machine: {results['machine']}")
    made = "reused" if results["generate_s"] is None else f"generated in {results['generate_s']:.1f} s"
    print(f"{results['n']} deals ({results['big']['size']} bytes), {made}")
    for key in ("big", "small"):
        r = results[key]
        print(
            f"{key:5}: {r['boards']:>9} boards, open {r['open_ms']:.2f} ms, len {r['len_ms']:.3f} ms, "
            f"decode index {r['index']} {r['decode_ms']:.2f} ms, total {r['total_ms']:.2f} ms, "
            f"RSS +{r['rss_growth_kib']} KiB; whole info command {r['info_ms']:.1f} ms, "
            f"RSS +{r['info_rss_growth_kib']} KiB"
        )
    if "checksum_ms" in results["big"]:
        big = results["big"]
        print(
            f"checksum of the big file (as bridgeview info computes it): {big['checksum_ms']:.0f} ms, "
            f"RSS +{big['checksum_rss_growth_kib']} KiB"
        )


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=BIG_N, help=f"deals in the big file (default {BIG_N})")
    parser.add_argument("--dir", type=Path, help="work directory (default: a temporary one)")
    parser.add_argument("--measure", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--index", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--checksum", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.measure:
        out = measure(args.measure, args.index, args.checksum)
        print(json.dumps(out))
        return out
    if args.dir:
        args.dir.mkdir(parents=True, exist_ok=True)
        results = run(args.n, args.dir)
    else:
        with tempfile.TemporaryDirectory() as d:
            results = run(args.n, Path(d))
    report(results)
    return results


if __name__ == "__main__":
    main()
