"""``bridgeview solve`` on a quiet and on a loaded machine, against DDS called directly: wall and CPU time.

Run: ``python bench/bench_solve_load.py [--deals 200] [--load 4] [--rounds 1] [--tree DIR ...] [--workers 2]``.

Every measurement is a fresh process on the same random full deals, timed from
spawn to exit, its CPU time (user + system, its child processes included) taken
from ``os.wait4``:

* ``DDS direct``: a Python process that imports endplay, calls
  ``calc_all_tables`` 40 deals a call (DDS's threads on every core) and
  ``par`` for each deal - the reference;
* ``bridgeview solve in.pbn out.pbn`` (tables and par written into PBN) for
  each ``--tree`` given (a checkout to run it from: this one by default; give
  an older one to measure before and after in the same run);
* with ``--workers N``: the same on a local Dask cluster of N workers, right
  after the tree's own one-process run and set against it (quiet and loaded
  rounds; ``--skip-direct`` leaves the reference out when only this is wanted).

The rounds run in turns (reference, then each tree) on a quiet machine and then
with ``--load`` busy loops (``python -c 'while 1: pass'`` processes) competing
for the cores.  Each output's tables are checked against the reference's.
Prints a Markdown table with the load average (docs/bench-solve.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bridgeview.formats import registry  # noqa: E402
from bridgeview.model.board import Board  # noqa: E402
from bridgeview.model.boardset import BoardSet  # noqa: E402
from bridgeview.model.deal import Deal  # noqa: E402

#: DDS called directly: calc_all_tables 40 deals a call, then par for each deal (endplay's own types)
RAW = r"""
import json, sys
from endplay.dds import calc_all_tables, par
from endplay.types import Deal, Player, Vul
boards = json.load(open(sys.argv[1]))
deals = [Deal(pbn) for pbn, _, _ in boards]
tables = []
for start in range(0, len(deals), 40):
    tables.extend(calc_all_tables(deals[start : start + 40]))
pars = [par(t, Vul[vul], Player[dealer]).score for t, (_, vul, dealer) in zip(tables, boards)]
rows = [[[r[3], r[2], r[1], r[0], r[4]] for r in t.to_list(player_major=True)] for t in tables]  # ours: C D H S NT
json.dump(rows, open(sys.argv[2], "w"))
"""
_VUL = {"none": "none", "ns": "ns", "ew": "ew", "all": "both"}


def measure(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and the children it waited for)."""
    start = time.perf_counter()
    # in a folder that is no checkout: ``python -m`` puts the working folder first on sys.path, before --tree's
    proc = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tempfile.gettempdir())
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {err.strip()[-2000:]}")
    return wall, usage.ru_utime + usage.ru_stime


def tables_of(path: Path) -> list:
    return [[list(r) for r in b.dd.tricks] for b in registry.read_file(path)]


def print_tables(
    args: argparse.Namespace,
    rows: list[tuple[str, str, float, float, float]],
    pairs: list[tuple[str, str, float, float]],
) -> None:
    """The runs as Markdown tables: each against DDS direct in its condition (unless left out), and each
    ``--workers`` run against one process in the same round."""
    print(f"{args.deals} random full deals, {os.cpu_count()} cores, {args.rounds} round(s)\n")
    if not args.skip_direct:
        print("| machine | method | wall s | CPU s | wall vs direct | CPU vs direct | load avg |")
        print("|---|---|---:|---:|---:|---:|---:|")
        base: dict[str, tuple[float, float]] = {}
        for condition, method, wall, cpu, load in rows:
            if method.startswith("DDS direct"):
                base[condition] = (wall, cpu)
            bw, bc = base[condition]
            print(
                f"| {condition} | {method} | {wall:.1f} | {cpu:.1f} | {wall / bw:.2f}x | {cpu / bc:.2f}x | {load:.1f} |"
            )
    else:
        print("| machine | method | wall s | CPU s | load avg |")
        print("|---|---|---:|---:|---:|")
        for condition, method, wall, cpu, load in rows:
            print(f"| {condition} | {method} | {wall:.1f} | {cpu:.1f} | {load:.1f} |")
    if pairs:
        print("\n| machine | method | wall s | one process, same round, s | ratio |")
        print("|---|---|---:|---:|---:|")
        for condition, method, wall, one in pairs:
            print(f"| {condition} | {method} | {wall:.1f} | {one:.1f} | {wall / one:.2f}x |")
        for condition in dict.fromkeys(c for c, *_ in pairs):
            ratios = sorted(w / o for c, _, w, o in pairs if c == condition)
            middle = ratios[len(ratios) // 2]
            print(f"{condition}: --workers vs one process, median {middle:.2f}x, best {ratios[0]:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--load", type=int, default=4, help="busy loops during the loaded rounds")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--tree", action="append", type=Path, help="a checkout to run bridgeview from (repeatable)")
    ap.add_argument("--workers", type=int, nargs="*", default=[], help="also time --workers N, beside one process")
    ap.add_argument("--skip-direct", action="store_true", help="leave DDS direct out (only --workers vs one process)")
    args = ap.parse_args()
    trees = args.tree or [ROOT]
    rng = random.Random(args.seed)
    boards = [Board.numbered(i + 1, Deal.shuffled(rng)) for i in range(args.deals)]
    rows: list[tuple[str, str, float, float, float]] = []  # condition, method, wall, cpu, load
    pairs: list[tuple[str, str, float, float]] = []  # condition, method with --workers, its wall, one process's wall
    with tempfile.TemporaryDirectory(prefix="bench-solve-load-") as tmp:
        src = Path(tmp) / "in.pbn"
        registry.write_file(BoardSet(boards), src, "pbn")
        spec = Path(tmp) / "deals.json"
        spec.write_text(
            json.dumps([[b.deal.to_pbn(), _VUL[b.vulnerability.name.lower()], b.dealer.name.lower()] for b in boards])
        )
        expect_file = Path(tmp) / "expect.json"

        expect: list = []

        def run_all(condition: str, turn: int) -> None:
            nonlocal expect
            if not args.skip_direct or not expect:
                load = os.getloadavg()[0]
                wall, cpu = measure([sys.executable, "-c", RAW, str(spec), str(expect_file)], dict(os.environ))
                if not args.skip_direct:
                    rows.append((condition, "DDS direct (calc_all_tables + par)", wall, cpu, load))
                expect = json.loads(expect_file.read_text())
            for tree in trees:
                env = dict(os.environ, PYTHONPATH=str(tree))
                modes = [[]] + [["--workers", str(n)] for n in args.workers]
                if turn % 2:  # every other round the other way round, so neither always runs first
                    modes.reverse()
                walls: dict[str, float] = {}
                for extra in modes:
                    out = Path(tmp) / "out.pbn"
                    load = os.getloadavg()[0]
                    wall, cpu = measure([sys.executable, "-m", "bridgeview", "solve", str(src), str(out), *extra], env)
                    if tables_of(out) != expect:
                        raise SystemExit(f"{tree}: solve {' '.join(extra)} wrote other tables than DDS direct")
                    method = " ".join(["bridgeview solve", *extra, f"({tree.name})"])
                    rows.append((condition, method, wall, cpu, load))
                    walls[method] = wall
                    out.unlink()
                one = walls[f"bridgeview solve ({tree.name})"]
                pairs.extend((condition, m, w, one) for m, w in walls.items() if "--workers" in m)

        for turn in range(args.rounds):
            run_all("quiet", turn)
        loops = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.load)]
        try:
            time.sleep(2)
            for turn in range(args.rounds):
                run_all(f"{args.load} busy loops", turn)
        finally:
            for p in loops:
                p.kill()
                p.wait()
    print_tables(args, rows, pairs)


if __name__ == "__main__":
    main()
