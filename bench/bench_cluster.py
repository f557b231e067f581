"""Solving on a Dask cluster: the engine's overhead against DDS called directly, in one run.

Run: ``python bench/bench_cluster.py [--deals 400] [--workers 1 2 4] [--chunk 40]``.

On the same random full deals it times

* ``endplay direct``: endplay's ``calc_all_tables``, 40 deals a call, DDS's
  threads on every core - the baseline;
* ``bridgeview solve`` (one process): the sub-command run in this process
  (reading the file, chunking, the journal, writing ZRD);
* ``bridgeview solve --workers N``: a local Dask cluster of N worker processes,
  one DDS thread each (cluster start-up included);

and prints a Markdown table of seconds, deals a second and the ratio to the
baseline (copied into docs/bench-cluster.md).  Every output is checked to hold
the baseline's tables.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bridgeview.cli.main import main  # noqa: E402
from bridgeview.formats import registry  # noqa: E402
from bridgeview.model.board import Board  # noqa: E402
from bridgeview.model.boardset import BoardSet  # noqa: E402
from bridgeview.model.deal import Deal  # noqa: E402
from bridgeview.solve import dds  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_solve import endplay_direct  # noqa: E402  (the same baseline as bench_solve.py)


def timed(fn) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def main_bench() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--workers", type=int, nargs="*", default=[1, 2, 4])
    ap.add_argument("--chunk", type=int, default=40, help="deals a chunk (a multiple of 40 fills DDS's batches)")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    deals = [Deal.shuffled(rng) for _ in range(args.deals)]
    import endplay.dds  # noqa: F401  (the import is not what is measured)

    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "in.deals"
        registry.write_file(BoardSet([Board.numbered(i + 1, d) for i, d in enumerate(deals)]), src)
        rows = []
        expect: list = []
        base = timed(lambda: expect.extend(endplay_direct(deals)))
        rows.append(("endplay direct (DDS threads, 40 a call)", base))

        def check(out: Path) -> None:
            got = [[list(r) for r in b.dd.tricks] for b in registry.read_file(out)]
            assert got == expect, f"{out.name}: tables differ from DDS called directly"

        out = Path(tmp) / "one.zrd"
        inside = [0.0]
        real_batch = dds._solve_batch

        def counted(batch):
            t = time.perf_counter()
            try:
                return real_batch(batch)
            finally:
                inside[0] += time.perf_counter() - t

        from bridgeview.cli import solve as solve_cmd
        from bridgeview.solve.chunks import LocalSolver

        real_solver = solve_cmd._solver
        dds._solve_batch = counted
        # DDS in this process (no time limit), so its calls can be timed from here
        solve_cmd._solver = lambda a, on_slow=None: LocalSolver(a.jobs)
        try:
            one = timed(lambda: main(["solve", str(src), str(out), "--chunk", str(args.chunk)]))
        finally:
            dds._solve_batch = real_batch
            solve_cmd._solver = real_solver
        rows.append(("bridgeview solve (this process, DDS threads)", one))
        check(out)
        out = Path(tmp) / "child.zrd"
        rows.append(
            (
                "bridgeview solve (default: DDS in a child with --dd-timeout)",
                timed(lambda: main(["solve", str(src), str(out), "--chunk", str(args.chunk)])),
            )
        )
        check(out)
        for n in args.workers:
            out = Path(tmp) / f"w{n}.zrd"
            rows.append(
                (
                    f"bridgeview solve --workers {n}",
                    timed(
                        lambda n=n, out=out: main(
                            ["solve", str(src), str(out), "--workers", str(n), "--chunk", str(args.chunk)]
                        )
                    ),
                )
            )
            check(out)
    print(
        f"{args.deals} random full deals, chunks of {args.chunk}, {os.cpu_count()} cores, "
        f"load average before {os.getloadavg()[0]:.1f}\n"
    )
    print("| method | seconds | deals/s | vs direct |")
    print("|---|---:|---:|---:|")
    for name, secs in rows:
        print(f"| {name} | {secs:.2f} | {args.deals / secs:.1f} | {secs / base:.2f}x |")
    print(
        f"\nOne process: {inside[0]:.2f} s inside DDS's CalcAllTables, {one - inside[0]:.3f} s of bridgeview's "
        f"own work (reading, chunking, journal, writing) = {(one - inside[0]) / inside[0]:.2%} on top of DDS"
    )


if __name__ == "__main__":
    main_bench()
