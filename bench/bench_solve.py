"""How fast bridgeview solves DD tables, against calling DDS directly on the same deals.

Run: ``python bench/bench_solve.py [--deals 80] [--repeat 1]``.  Measures, on the
same random deals:

* ``endplay direct``: endplay's ``calc_all_tables`` on endplay deals, 40 a call
  (DDS's own worker threads, one per core) - the baseline;
* ``solve_tables``: :func:`bridgeview.solve.solve_tables` (same batches, our conversions);
* ``solve_tables jobs=1``: DDS limited to one thread (what one core does);
* ``process pool``: one process a core, each running DDS with one thread on
  batches of 40 (the "processes" alternative to DDS's threads);
* ``bridgeview solve``: the whole CLI on a ``.deals`` file of the deals, to ZRD
  (Python start, endplay import, reading and writing included).

Results go to stdout as a Markdown table (copied into docs/bench-solve.md).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bridgeview.model.deal import Deal  # noqa: E402
from bridgeview.solve import dds  # noqa: E402


def random_deals(n: int, seed: int) -> list[Deal]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = list(range(52))
        rng.shuffle(cards)
        owners = [0] * 52
        for pos, card in enumerate(cards):
            owners[card] = pos // 13
        out.append(Deal.from_owners(owners))
    return out


def endplay_direct(deals: list[Deal]) -> list[list[int]]:
    from endplay.dds import calc_all_tables
    from endplay.types import Deal as EDeal

    edeals = [EDeal(d.to_pbn()) for d in deals]
    out = []
    for start in range(0, len(edeals), dds.MAX_TABLES):
        for t in calc_all_tables(edeals[start : start + dds.MAX_TABLES]):
            # endplay's rows run S H D C NT; ours C D H S NT
            out.append([[r[3], r[2], r[1], r[0], r[4]] for r in t.to_list(player_major=True)])
    return out


def _pool_init() -> None:
    dds._set_threads(1)


def _pool_batch(hands: list[tuple[int, int, int, int]]) -> list:
    return [t.tricks for t in dds.solve_tables([Deal(h) for h in hands], jobs=1)]


def process_pool(deals: list[Deal], workers: int) -> list:
    batches = [[d.hands for d in deals[i : i + dds.MAX_TABLES]] for i in range(0, len(deals), dds.MAX_TABLES)]
    with ProcessPoolExecutor(workers, initializer=_pool_init) as ex:
        return [t for chunk in ex.map(_pool_batch, batches) for t in chunk]


def cli(deals: list[Deal]) -> None:
    from bridgeview.formats import registry
    from bridgeview.model.board import Board
    from bridgeview.model.boardset import BoardSet

    with tempfile.TemporaryDirectory() as tmp:
        src, dst = Path(tmp) / "in.deals", Path(tmp) / "out.zrd"
        registry.write_file(BoardSet([Board(deal=d) for d in deals]), src, "deals")
        subprocess.run(
            [sys.executable, "-m", "bridgeview", "solve", str(src), str(dst)], check=True, capture_output=True
        )


def conversion_overhead(deals: list[Deal], rounds: int = 50) -> float:
    """Seconds a deal that solve_tables spends outside DDS (filling DDS's structs, reading tables back)."""
    from endplay import _dds

    batch = deals[: dds.MAX_TABLES]
    res = _dds.ddTablesRes()
    t = time.perf_counter()
    for _ in range(rounds):
        tables = _dds.ddTableDeals()
        for i, deal in enumerate(batch):
            dds._fill_remain(tables.ddTableDeal[i].cards, deal)
        for i, _deal in enumerate(batch):
            dds._table_from_result(res.results[i], 13)
    return (time.perf_counter() - t) / (rounds * len(batch))


def timed(fn, *args) -> float:
    t = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=80)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--repeat", type=int, default=1, help="rounds, interleaved; the fastest of each is kept")
    args = ap.parse_args()
    deals = random_deals(args.deals, args.seed)
    cores = os.cpu_count() or 1
    import endplay  # noqa: F401  (the import is not part of what we time)

    # the same answers, first
    ours = [[list(r) for r in t.tricks] for t in dds.solve_tables(deals[:8])]
    assert ours == endplay_direct(deals[:8]), "solve_tables disagrees with endplay"
    methods = [
        ("endplay direct (DDS threads)", lambda: endplay_direct(deals)),
        ("solve_tables (DDS threads)", lambda: dds.solve_tables(deals, jobs=None)),
        ("solve_tables jobs=1", lambda: dds.solve_tables(deals, jobs=1)),
        (f"process pool x{cores} (1 DDS thread each)", lambda: process_pool(deals, cores)),
        ("bridgeview solve in.deals out.zrd", lambda: cli(deals)),
    ]
    best = [float("inf")] * len(methods)
    for _ in range(args.repeat):
        for k, (_name, fn) in enumerate(methods):
            best[k] = min(best[k], timed(fn))
            dds._set_threads(None)
    rows = [(name, secs) for (name, _), secs in zip(methods, best, strict=True)]
    base = rows[0][1]
    print(
        f"{len(deals)} random deals, {cores} cores, best of {args.repeat}, "
        f"load average {os.getloadavg()[0]:.1f} at the end\n"
    )
    per_deal = conversion_overhead(deals)
    print(f"solve_tables' own work outside DDS: {per_deal * 1e6:.0f} µs a deal\n")
    print("| method | seconds | deals/s | vs direct |")
    print("|---|---:|---:|---:|")
    for name, secs in rows:
        print(f"| {name} | {secs:.2f} | {len(deals) / secs:.1f} | {secs / base:.2f}x |")


if __name__ == "__main__":
    main()
