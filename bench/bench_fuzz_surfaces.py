"""The long fuzz run of the surfaces beyond the readers (the suite's short one: tests/test_fuzz_surfaces.py).

Four campaigns, each counted and timed, all from ``tests/fuzzkit.py`` (the suite's generators and checks):

- ``desk``: random sets (full, partial and empty deals, copies turned, swapped or with a card moved,
  numbers with gaps small and huge, repeats, none, 0, 999,999,999) through ``check`` and ``diff``'s
  comparison; every ``--cli-every``-th pair also as PBN files through ``bridgeview check``, ``check
  --against``, ``diff`` and ``print --no-dd``.
- ``editing``: typed hands, calls, cards, claims and renumbering through the editing model, as the
  Editor drives it.
- ``lazy``: damaged PBN and LIN seeds read lazily (threshold 1 byte, checkpoints and caches of two
  games) and whole: the same boards, problems or refusal.
- ``resume``: ``bridgeview solve`` of 10 boards killed with SIGKILL ``--kills`` times at random
  moments, resumed each time, then compared byte for byte with an uninterrupted run.

    nice python3 bench/bench_fuzz_surfaces.py                         # a few minutes
    nice python3 bench/bench_fuzz_surfaces.py --sets 20000 --typing 20000 --lazy 20000 --resume-runs 100

Failures are saved under ``--out`` (the seed, or the input file, and the traceback); exit status 1 when any.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))  # the generators and checks shared with the suite
import fuzzkit  # noqa: E402

from bridgeview.cli.main import main as cli_main  # noqa: E402
from bridgeview.formats.registry import get, write_file  # noqa: E402

SEED_BYTES = 200_000


class Campaign:
    """Counts inputs and failures; a failure's input and traceback are kept to reproduce it."""

    def __init__(self, name: str, out: Path) -> None:
        self.name, self.out = name, out
        self.inputs = self.failures = 0
        self.started = time.process_time()
        self.wall = time.monotonic()

    def run(self, label: str, check: Callable[[], None], keep: bytes | None = None) -> None:
        self.inputs += 1
        try:
            check()
        except Exception:
            self.failures += 1
            self.out.mkdir(parents=True, exist_ok=True)
            base = self.out / f"{self.name}-{self.inputs}"
            if keep is not None:
                base.with_suffix(".input").write_bytes(keep)
            base.with_suffix(".txt").write_text(f"{label}\n\n{traceback.format_exc()}")
            print(f"FAIL {self.name} {label}: saved as {base}.*", file=sys.stderr)

    def row(self) -> str:
        cpu, wall = time.process_time() - self.started, time.monotonic() - self.wall
        return f"{self.name:8} {self.inputs:>8,} {self.failures:>8} {cpu:>9.1f} {wall:>9.1f}"


def desk(campaign: Campaign, count: int, seed: int, cli_every: int, directory: Path) -> None:
    for k in range(count):
        rng = random.Random(f"{seed}-desk-{k}")
        a, b = fuzzkit.desk_set(rng), fuzzkit.desk_set(rng)
        campaign.run(f"seed {seed}-desk-{k}", lambda a=a, b=b: fuzzkit.desk_holds(a, b))
        if cli_every and k % cli_every == 0:
            pa, pb = directory / "a.pbn", directory / "b.pbn"

            def commands(a=a, b=b, k=k, pa=pa, pb=pb) -> None:
                write_file(a, pa, "pbn")
                write_file(b, pb, "pbn")
                fuzzkit.desk_commands_hold(pa, pb, directory / "records.pdf" if k % (4 * cli_every) == 0 else None)

            campaign.run(f"seed {seed}-desk-{k} (commands)", commands)


def editing(campaign: Campaign, count: int, seed: int) -> None:
    for k in range(count):
        label = f"{seed}-editing-{k}"
        campaign.run(f"seed {label}", lambda label=label: fuzzkit.editing_holds(random.Random(label)))


def lazy(campaign: Campaign, count: int, seed: int, directory: Path) -> None:
    for name in ("pbn", "lin"):
        rng = random.Random(f"{seed}-lazy-{name}")
        codec = get(name)
        seeds = [p.read_bytes() for p in fuzzkit.real_seeds(codec, SEED_BYTES)]
        made = fuzzkit.generated_seed(codec, rng)
        seeds += [made] if made is not None else []
        picker = fuzzkit.RandomPicker(rng)
        for k in range(count // 2):
            data = fuzzkit.damage(rng.choice(seeds), rng.choice(fuzzkit.KINDS), picker)
            path = directory / f"lazy-{k}.{name}"  # a new file each time (an old one may still be mapped)
            path.write_bytes(data)
            campaign.run(f"{name} input {k}", lambda p=path, n=name: fuzzkit.lazy_reads_as_whole(p, n), keep=data)
            path.unlink()


def resume(campaign: Campaign, runs: int, kills: int, seed: int, directory: Path) -> None:
    from test_solve_cluster import write_set

    src = directory / "in.pbn"
    write_set(src, 10)
    plain = directory / "plain.zdd"
    with contextlib.redirect_stderr(io.StringIO()):  # its "solved 9 of 10 boards" is not the bench's
        assert cli_main(["solve", str(src), str(plain), "--chunk", "1", "--force"]) == 0
        started = time.monotonic()
        cli_main(["solve", str(src), str(directory / "timed.zdd"), "--chunk", "1"])
    span = 1.5 * (time.monotonic() - started) + 1.5  # a subprocess also starts Python: kill anywhere in a run
    for k in range(runs):
        out = directory / f"killed-{k}.zdd"

        def once(out=out, k=k) -> None:
            story = fuzzkit.kill_and_resume(src, out, random.Random(f"{seed}-resume-{k}"), kills, span)
            assert out.read_bytes() == plain.read_bytes(), story

        campaign.run(f"seed {seed}-resume-{k}", once)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", type=int, default=2000, help="pairs of random sets for the desk")
    ap.add_argument("--cli-every", type=int, default=20, help="every Nth pair also through the commands (0: none)")
    ap.add_argument("--typing", type=int, default=2000, help="rounds of typing into the editing model")
    ap.add_argument("--lazy", type=int, default=1000, help="damaged PBN and LIN files, half of each")
    ap.add_argument("--resume-runs", type=int, default=5, help="solve runs killed and resumed")
    ap.add_argument("--kills", type=int, default=3, help="kill -9 a run")
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "bridgeview-fuzz-surfaces")
    args = ap.parse_args(argv)
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # print renders with Qt, without a display
    print(f"{'campaign':8} {'inputs':>8} {'failed':>8} {'CPU s':>9} {'wall s':>9}")
    failures = 0
    with tempfile.TemporaryDirectory(prefix="bv-fuzz-surfaces-") as tmp:
        directory = Path(tmp)
        jobs = (
            ("desk", lambda c: desk(c, args.sets, args.seed, args.cli_every, directory)),
            ("editing", lambda c: editing(c, args.typing, args.seed)),
            ("lazy", lambda c: lazy(c, args.lazy, args.seed, directory)),
            ("resume", lambda c: resume(c, args.resume_runs, args.kills, args.seed, directory)),
        )
        for name, job in jobs:
            campaign = Campaign(name, args.out)
            job(campaign)
            failures += campaign.failures
            print(campaign.row(), flush=True)
    print(f"\n{failures} failure(s)" + (f"; inputs saved in {args.out}" if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
