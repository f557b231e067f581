"""Benchmark: conversion cost per board from 1,000 to 1,000,000 boards, and ZRD -> ZBD against a byte slice.

Issue 29 items 3 and 4.  Builds, in one work folder,

* ``deals``: N random deals with DD tables written by our PBN writer (the export roster, a deal and an
  OptimumResultTable a board), converted to ZRD;
* ``lin``: the same deals as LIN hand records, converted to ZBD;
* ``play``: PBN boards with auctions and full play (``bench_pbn.make_boards``, 2,000 boards tiled and
  renumbered), converted to ZBD;
* ``zrd``: the ZRD of the deals, converted to ZBD, against its reference: a numpy script that keeps the first
  13 bytes of each 23-byte record, writes and fsyncs them (what the conversion is at heart).

Each conversion is timed for every code tree given (``--tree``, repeatable: the checkout under test and, say,
``/work/main`` as "before"), in turns, in fresh processes:

* **whole process**: ``python -m bridgeview convert IN OUT``, wall and CPU time (user + system of the child);
* **in process**: a child that imports ``bridgeview.formats.convert`` (not timed), then times the first
  ``convert_file`` (which pays for the lazy imports, numpy's among them, and the regular expressions) and the
  best of ``--repeat`` more (warm).

The best of ``--repeat`` rounds counts; ZRD -> ZBD also gives the median of each round's ratio to the slice run
beside it (``paired``), which the machine's load moves less than a best.  Every output of a size is compared
byte for byte across trees (and with the slice for ``zrd``).  Per-board figures are microseconds a board.
Usage::

    nice python bench/bench_convert_sizes.py [--sizes 1000,10000,100000,1000000] [--shapes deals,lin,play,zrd]
        [--tree .] [--tree /work/main] [--repeat 3] [--play-max 100000] [--dir DIR] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_bulk import SLICE  # noqa: E402  (the reference for ZRD -> ZBD: the first 13 bytes of each record)

#: what each shape converts to
TARGET = {"deals": "zrd", "lin": "zbd", "play": "zbd", "zrd": "zbd"}
SOURCE = {"deals": "pbn", "lin": "lin", "play": "pbn", "zrd": "zrd"}

#: the in-process child: argv = src, dst, repeat; prints {"first": s, "warm": s, "first_cpu": s, "warm_cpu": s}
CHILD = """
import json, sys, time
from bridgeview.formats.convert import convert_file
src, dst, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
def timed():
    t0, c0 = time.perf_counter(), time.process_time()
    convert_file(src, dst)
    return time.perf_counter() - t0, time.process_time() - c0
first, first_cpu = timed()
warm = [timed() for _ in range(repeat)]
print(json.dumps({"first": first, "first_cpu": first_cpu, "warm": min(w for w, _ in warm),
                  "warm_cpu": min(c for _, c in warm)}))
"""


def make_files(directory: Path, sizes: list[int], shapes: list[str], play_max: int) -> dict[tuple[str, int], Path]:
    """The source file of each (shape, size), made once (a second run with ``--dir`` reuses them)."""
    from bench_bulk import write_zrd

    from bridgeview.formats.convert import convert_file

    files: dict[tuple[str, int], Path] = {}
    for n in sizes:
        zrd = directory / f"deals{n}.zrd"
        if not zrd.exists():
            write_zrd(zrd, n)
        for shape in shapes:
            if shape == "play" and n > play_max:
                continue
            path = directory / f"{shape}{n}.{SOURCE[shape]}"
            if shape == "zrd":
                path = zrd
            elif not path.exists():
                if shape == "play":
                    write_play(path, n, directory)
                else:
                    convert_file(zrd, path)
            files[(shape, n)] = path
    return files


def write_play(path: Path, n: int, directory: Path) -> None:
    """``n`` PBN boards with auctions and play: 2,000 made by bench_pbn, tiled and renumbered (2,000 is a multiple
    of 16, so every board keeps the dealer and vulnerability of its number)."""
    import bench_pbn

    base = directory / "play-base.pbn"
    if not base.exists():
        bench_pbn.write_file(2000, base)
    games = re.split(rb"(?=\[Event )", base.read_bytes())
    preamble, games = games[0], games[1:]
    board = re.compile(rb'\[Board "\d+"\]')
    with open(path, "wb") as f:
        f.write(preamble)
        for i in range(n):
            f.write(board.sub(b'[Board "%d"]' % (i + 1), games[i % len(games)], count=1))


def run_timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float, str]:
    """Wall and CPU time (user + system) of a child process, and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, proc.stdout


def tree_env(tree: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    return env


def measure(files: dict[tuple[str, int], Path], trees: list[Path], directory: Path, repeat: int) -> list[dict]:
    rows = []
    for (shape, n), src in sorted(files.items(), key=lambda item: (item[0][1], item[0][0])):
        target = TARGET[shape]
        rounds = repeat if n < 1_000_000 or shape != "play" else 1
        best: dict[str, dict[str, float]] = {}
        outputs: dict[str, bytes] = {}
        jobs: dict[str, list[str]] = {}
        for k in range(len(trees)):
            out = directory / f"out-{k}.{target}"
            jobs[f"tree{k}"] = [sys.executable, "-m", "bridgeview", "convert", str(src), str(out)]
        if shape == "zrd":
            jobs["slice"] = [sys.executable, "-c", "import sys\nsrc, dst = sys.argv[1:3]\n" + SLICE, str(src)]
            jobs["slice"].append(str(directory / "slice.zbd"))
        walls: dict[str, list[float]] = {key: [] for key in jobs}  # each round's, for the paired ratios
        for round_ in range(rounds + 1):  # the first round warms the page cache and writes the .pyc files
            for key, cmd in jobs.items():
                tree = trees[int(key[4:])] if key.startswith("tree") else ROOT
                wall, cpu, _ = run_timed(cmd, tree_env(tree), directory)
                slot = best.setdefault(key, {"wall": float("inf"), "cpu": float("inf")})
                slot["wall"], slot["cpu"] = min(slot["wall"], wall), min(slot["cpu"], cpu)
                if round_:
                    walls[key].append(wall)
            for k, _tree in enumerate(trees):
                outputs[f"tree{k}"] = (directory / f"out-{k}.{target}").read_bytes()
        if "slice" in walls:  # a tree's wall time over the slice's of the same round: the machine's moods cancel
            for k in range(len(trees)):
                paired = [ours / ref for ours, ref in zip(walls[f"tree{k}"], walls["slice"], strict=True)]
                best[f"tree{k}"]["paired"] = statistics.median(paired)
        if shape == "zrd":
            outputs["slice"] = (directory / "slice.zbd").read_bytes()
        if len(set(outputs.values())) != 1:
            raise SystemExit(f"{shape} {n}: the outputs differ between {', '.join(outputs)}")
        for k, tree in enumerate(trees):
            inner: dict[str, float] = {}
            for _ in range(rounds if n < 100_000 else 1):  # (a child converts 1 + ``repeat`` times)
                cmd = [sys.executable, "-c", CHILD, str(src), str(directory / f"in-{k}.{target}"), str(repeat)]
                _wall, _cpu, printed = run_timed(cmd, tree_env(tree), directory)
                got = json.loads(printed)
                for key, value in got.items():
                    inner[key] = min(inner.get(key, float("inf")), value)
            best[f"tree{k}"].update({f"in_{key}": value for key, value in inner.items()})
        rows.append({"shape": shape, "n": n, "bytes": src.stat().st_size, "load": os.getloadavg()[0], **best})
        print(line(rows[-1], trees), flush=True)
    return rows


def line(row: dict, trees: list[Path]) -> str:
    n = row["n"]
    parts = [f"{row['shape']:5} {n:>9,}"]
    for k, tree in enumerate(trees):
        t = row[f"tree{k}"]
        whole = f"whole {t['wall']:.3f} s ({t['wall'] / n * 1e6:.1f} us/board, cpu {t['cpu'] / n * 1e6:.1f})"
        first = f"first call {t['in_first'] / n * 1e6:.1f} (cpu {t['in_first_cpu'] / n * 1e6:.1f})"
        warm = f"warm {t['in_warm'] / n * 1e6:.2f} (cpu {t['in_warm_cpu'] / n * 1e6:.2f})"
        parts.append(f"[{tree.name}] {whole}, {first}, {warm} us/board")
    if "slice" in row:
        s = row["slice"]
        ratios = ", ".join(
            f"{tree.name} {row[f'tree{k}']['wall'] / s['wall']:.2f}x (paired median {row[f'tree{k}']['paired']:.2f}x)"
            for k, tree in enumerate(trees)
        )
        parts.append(f"slice whole {s['wall']:.3f} s: {ratios}")
    parts.append(f"load {row['load']:.1f}")
    return " | ".join(parts)


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000,100000,1000000", help="board counts, comma-separated")
    parser.add_argument("--shapes", default="deals,lin,play,zrd", help="which conversions (deals, lin, play, zrd)")
    parser.add_argument("--tree", action="append", type=Path, help="a checkout to measure (repeatable; default: this)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; the best counts (default 3)")
    parser.add_argument("--play-max", type=int, default=100_000, help="largest auction-and-play file (default 100000)")
    parser.add_argument("--dir", type=Path, help="work folder (kept; its files are reused)")
    parser.add_argument("--json", type=Path, help="write the rows here")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = [s for s in args.shapes.split(",") if s]
    trees = [t.resolve() for t in (args.tree or [ROOT])]
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.dir or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        files = make_files(directory, sizes, shapes, args.play_max)
        rows = measure(files, trees, directory, args.repeat)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1))
    return rows


if __name__ == "__main__":
    main()
