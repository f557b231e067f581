"""Deals to order: ``bridgeview generate`` against dealer itself, whole process, side by side.

Run:  python bench/bench_generate.py [--deals N] [--runs N] [--dealer PATH]

Three scripts, the same text for both programs, each generating ``--deals``
deals (3,000,000 by default; ``produce`` as many, so neither stops early, and
an ``average`` action, so nothing is printed):

- (a) 15-17 balanced North;
- (b) a six-card major with 5-10 HCP;
- (c) a predealt South and a two-suited overcall by West.

Each measurement is a fresh process, timed from just before it is started until
it is reaped (start-up, imports and set-up included); user + system CPU comes
from the operating system's accounting of the child.  The commands run in turns
(dealer, bridgeview, dealer, ...) so a change in the machine's load hits both,
and each ratio is taken pair by pair, then the median.  Rows:

- dealer (``-s 1``, one core: it is single-threaded);
- bridgeview on one core (``--jobs 1``), deals from the operating system's
  random source (the default) and from a seed (``--seed 1``);
- bridgeview on two cores (``--jobs 2``, where the machine has two), against
  its one-core run: the speed-up.

Both programs must report the same number of deals generated.  Prints a
Markdown table (docs/bench-generate.md holds the last run).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SCRIPTS = {
    "(a) 15-17 balanced North": (
        "condition shape(north, any 4333 + any 4432 + any 5332) && hcp(north) >= 15 && hcp(north) <= 17\n"
        "action average hcp(north)\n"
    ),
    "(b) six-card major, 5-10 HCP": (
        "condition (spades(north) == 6 || hearts(north) == 6) && hcp(north) >= 5 && hcp(north) <= 10\n"
        "action average hcp(north)\n"
    ),
    "(c) predealt South, two-suited overcall": (
        "predeal south SAQ542, HKJ87, D32, CAK\n"
        "condition hcp(west) >= 8 && hcp(west) <= 15 && ((spades(west) >= 5 && hearts(west) >= 5) || "
        "(diamonds(west) >= 5 && clubs(west) >= 5) || "
        "(hearts(west) >= 5 && (clubs(west) >= 5 || diamonds(west) >= 5)))\n"
        "action average hcp(west)\n"
    ),
}


def run_child(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds, standard output) of one whole process, reaped with ``os.wait4`` to
    read its CPU time (its worker processes' included: they are waited for before it exits)."""
    start = time.monotonic()
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    out = proc.stdout.read()  # small: the output is a few lines
    err = proc.stderr.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err.decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime, out.decode()


def generated(output: str) -> int:
    m = re.search(r"Generated (\d+) hands", output)
    if m is None:
        raise SystemExit(f"no 'Generated' line in:\n{output}")
    return int(m.group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3_000_000, help="deals each run generates")
    parser.add_argument("--runs", type=int, default=5, help="runs of each command")
    parser.add_argument("--dealer", default=shutil.which("dealer") or "/usr/games/dealer")
    args = parser.parse_args()
    if not Path(args.dealer).exists():
        raise SystemExit(f"dealer not found ({args.dealer}); install the Debian package dealer")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    n = str(args.deals)
    two_cores = (os.cpu_count() or 1) >= 2
    rows: list[tuple[str, str, float, float, str]] = []
    with tempfile.TemporaryDirectory(prefix="bench-generate-") as tmp:
        for title, text in SCRIPTS.items():
            path = Path(tmp) / "script.dlr"
            path.write_text(text)
            ours = [sys.executable, "-m", "bridgeview", "generate", str(path), "--generate", n, "--produce", n]
            commands = {
                "dealer": [args.dealer, "-s", "1", "-g", n, "-p", n, str(path)],
                "bridgeview, 1 core": [*ours, "--jobs", "1", "--quiet"],
                "bridgeview, 1 core, seeded": [*ours, "--jobs", "1", "--seed", "1", "--quiet"],
            }
            if two_cores:
                commands["bridgeview, 2 cores"] = [*ours, "--jobs", "2", "--quiet"]
            walls: dict[str, list[float]] = {k: [] for k in commands}
            cpus: dict[str, list[float]] = {k: [] for k in commands}
            for _ in range(args.runs):
                for name, argv in commands.items():
                    wall, cpu, out = run_child(argv, env)
                    if generated(out) != args.deals:
                        raise SystemExit(f"{name} generated {generated(out)} deals, not {args.deals}")
                    walls[name].append(wall)
                    cpus[name].append(cpu)
            base = walls["dealer"]
            one = walls["bridgeview, 1 core"]
            for name in commands:
                rate = args.deals / statistics.median(walls[name])
                cpu_rate = args.deals / statistics.median(cpus[name])
                if name == "dealer":
                    against = "baseline"
                elif name == "bridgeview, 2 cores":
                    speedup = statistics.median([a / b for a, b in zip(one, walls[name], strict=True)])
                    vs_dealer = statistics.median([a / b for a, b in zip(base, walls[name], strict=True)])
                    against = f"{vs_dealer:.2f}x dealer; {speedup:.2f}x bridgeview on 1 core"
                else:
                    ratio = statistics.median([a / b for a, b in zip(base, walls[name], strict=True)])
                    against = f"{ratio:.2f}x dealer"
                rows.append((title, name, rate, cpu_rate, against))
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    cores = os.cpu_count()
    print(f"{args.deals:,} deals a run, {args.runs} runs each in turns, {cores} cores, load average {load:.1f}")
    print()
    print("| script | program | deals/s (wall, median) | deals/s of CPU time (median) | speed (pair by pair, median) |")
    print("|---|---|---|---|---|")
    for title, name, rate, cpu_rate, against in rows:
        print(f"| {title} | {name} | {rate:,.0f} | {cpu_rate:,.0f} | {against} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
