"""Benchmark: vectorised ZRD conversion against a record-by-record Python loop.

Generates N random deals with DD results (numpy, fixed seed), writes a ZRD,
then times in the same run

* ``convert_file`` ZRD -> ZBD (the numpy bulk path) and a plain Python loop
  that decodes each record's bits, re-encodes them as ZBD and writes them;
* the same pair for ZRD -> ``.deals`` when that codec is installed.

Both outputs of each pair must be byte-identical.  The best time counts: each
loop runs ``--repeat`` times, each vectorised conversion (a few hundredths of a
second, so one scheduler hiccup on a busy machine is a large share) three times
as often.  Both write through to disk (fsync) as ``convert_file`` does.  Usage::

    python bench/bench_bulk.py [--n 200000] [--repeat 3] [--dir DIR]
"""

from __future__ import annotations

import argparse
import os
import platform
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bridgeview.formats.bulk import BulkChunk  # noqa: E402
from bridgeview.formats.convert import convert_file  # noqa: E402
from bridgeview.formats.errors import FormatError  # noqa: E402
from bridgeview.formats.registry import get  # noqa: E402

SEED = 20240601
CHUNK = 1 << 18


def random_chunks(n: int, seed: int = SEED):
    """Chunks of random complete deals with random DD tables, ``CHUNK`` deals at a time."""
    rng = np.random.default_rng(seed)
    base = np.repeat(np.arange(4, dtype=np.uint8), 13)
    for start in range(0, n, CHUNK):
        k = min(CHUNK, n - start)
        owners = np.ascontiguousarray(rng.permuted(np.broadcast_to(base, (k, 52)), axis=1), dtype=np.uint8)
        dd = rng.integers(0, 14, (k, 4, 5), dtype=np.uint8)
        dd[:, :, 4] |= 1  # no all-zero notrump rows
        yield BulkChunk(owners, dd)


def write_zrd(path: Path, n: int) -> None:
    codec = get("zrd")
    with open(path, "wb") as f:
        codec.write_bulk(random_chunks(n), f)


def loop_zrd_to_zbd(src: Path, dst: Path) -> int:
    """The straightforward way: one record at a time, bit by bit, in Python."""
    count = 0
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        while True:
            rec = fin.read(23)
            if len(rec) < 23 or rec[:4] == b"\0\0\0\0":
                break
            bits = int.from_bytes(rec[:13], "little")
            owners = [0] * 52
            for field in range(52):  # field 0 = spade ace ... field 51 = club two
                code = bits >> (2 * field) & 3  # W N E S
                owners[51 - field] = (code + 3) % 4  # our N E S W
            value = 0
            for field in range(52):
                value |= ((owners[51 - field] + 1) % 4) << (2 * field)
            fout.write(value.to_bytes(13, "little"))
            count += 1
        fout.flush()
        os.fsync(fout.fileno())  # convert_file syncs its output too
    return count


def loop_zrd_to_deals(src: Path, dst: Path) -> int:
    """The same loop producing ``.deals`` records (four u64 masks N E S W)."""
    pack = struct.Struct("<4Q").pack
    count = 0
    with open(src, "rb") as fin, open(dst, "wb") as fout:
        while True:
            rec = fin.read(23)
            if len(rec) < 23 or rec[:4] == b"\0\0\0\0":
                break
            bits = int.from_bytes(rec[:13], "little")
            hands = [0, 0, 0, 0]
            for field in range(52):
                seat = ((bits >> (2 * field) & 3) + 3) % 4
                hands[seat] |= 1 << (51 - field)
            fout.write(pack(*hands))
            count += 1
        fout.flush()
        os.fsync(fout.fileno())
    return count


def timed(fn, *args, repeat: int = 1) -> float:
    """Best wall time of ``repeat`` runs (the first run also pays for cold caches)."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} CPUs, Python {platform.python_version()}, numpy {np.__version__}"


#: the reference for ZRD -> ZBD: a numpy byte slice of each 23-byte record's first 13 bytes, written and
#: synced (``src`` and ``dst`` are given)
SLICE = """
import os
import numpy as np
raw = np.fromfile(src, dtype=np.uint8)
n = raw.shape[0] // 23
with open(dst, "wb") as f:
    f.write(np.ascontiguousarray(raw[: n * 23].reshape(n, 23)[:, :13]).data)
    f.flush()
    os.fsync(f.fileno())
"""


def numpy_slice(src: Path, dst: Path) -> None:
    """The reference in this process."""
    exec(SLICE, {"src": str(src), "dst": str(dst)})


def whole_process(src: Path, directory: Path, repeat: int) -> dict:
    """``bridgeview convert src.zrd out.zbd`` against the numpy slice, each a fresh process, in turns;
    the best of ``repeat`` runs each (the environment as installed: .pyc files written)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    ours, ref = directory / "proc.zbd", directory / "slice.zbd"
    jobs = {
        "slice_process_s": [sys.executable, "-c", "import sys\nsrc, dst = sys.argv[1:3]\n" + SLICE, str(src), str(ref)],
        "convert_process_s": [sys.executable, "-m", "bridgeview", "convert", str(src), str(ours)],
    }
    best = dict.fromkeys(jobs, float("inf"))
    for _ in range(repeat + 1):  # the first round warms the page cache and writes the .pyc files
        for key, cmd in jobs.items():
            t0 = time.perf_counter()
            # in no checkout: ``python -m`` puts the working folder first on the path
            subprocess.run(cmd, env=env, check=True, capture_output=True, cwd=directory)
            best[key] = min(best[key], time.perf_counter() - t0)
    if ours.read_bytes() != ref.read_bytes():
        raise SystemExit("bridgeview convert and the numpy slice wrote different ZBD files")
    return best


def run(n: int, directory: Path, repeat: int = 3) -> dict:
    src = directory / "bench.zrd"
    results: dict = {"n": n, "machine": machine(), "repeat": repeat}
    results["generate_s"] = timed(write_zrd, src, n)
    vec, loop = directory / "vec.zbd", directory / "loop.zbd"
    results["zbd_vectorised_s"] = timed(convert_file, src, vec, repeat=3 * repeat)
    results["zbd_loop_s"] = timed(loop_zrd_to_zbd, src, loop, repeat=repeat)
    if vec.read_bytes() != loop.read_bytes():
        raise SystemExit("the vectorised and loop ZBD outputs differ")
    results["zbd_ratio"] = results["zbd_loop_s"] / results["zbd_vectorised_s"]
    results["slice_s"] = timed(numpy_slice, src, directory / "slice.zbd", repeat=3 * repeat)
    if (directory / "slice.zbd").read_bytes() != vec.read_bytes():
        raise SystemExit("the vectorised conversion and the numpy slice differ")
    results.update(whole_process(src, directory, 3 * repeat))
    try:
        get("deals")
    except FormatError:
        return results
    vec, loop = directory / "vec.deals", directory / "loop.deals"
    results["deals_vectorised_s"] = timed(convert_file, src, vec, repeat=3 * repeat)
    results["deals_loop_s"] = timed(loop_zrd_to_deals, src, loop, repeat=repeat)
    if vec.read_bytes() != loop.read_bytes():
        raise SystemExit("the vectorised and loop .deals outputs differ")
    results["deals_ratio"] = results["deals_loop_s"] / results["deals_vectorised_s"]
    return results


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000, help="number of deals (default 200000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each conversion; the best counts (default 3)")
    parser.add_argument("--dir", type=Path, help="work directory (default: a temporary one)")
    args = parser.parse_args(argv)
    if args.dir:
        args.dir.mkdir(parents=True, exist_ok=True)
        results = run(args.n, args.dir, args.repeat)
    else:
        with tempfile.TemporaryDirectory() as d:
            results = run(args.n, Path(d), args.repeat)
    print(f"machine: {results['machine']}")
    print(f"N = {results['n']} deals (ZRD {23 * results['n']} bytes), generated in {results['generate_s']:.2f} s")
    print(f"best of {3 * results['repeat']} vectorised runs and {results['repeat']} loop runs")
    print(
        f"ZRD -> ZBD against a numpy byte slice (ZRD's first 13 bytes of each record, written and synced): "
        f"in-process {results['zbd_vectorised_s']:.3f} s / {results['slice_s']:.3f} s = "
        f"{results['zbd_vectorised_s'] / results['slice_s']:.2f}x; whole process "
        f"{results['convert_process_s']:.3f} s / {results['slice_process_s']:.3f} s = "
        f"{results['convert_process_s'] / results['slice_process_s']:.2f}x; load average {os.getloadavg()[0]:.1f}"
    )
    for target in ("zbd", "deals"):
        if f"{target}_ratio" in results:
            print(
                f"ZRD -> {target}: vectorised {results[f'{target}_vectorised_s']:.3f} s, "
                f"Python loop {results[f'{target}_loop_s']:.2f} s, ratio {results[f'{target}_ratio']:.0f}x"
            )
    return results


if __name__ == "__main__":
    main()
