"""Benchmark: the BER and RZD codecs' numpy bulk path against a record-by-record Python loop.

Writes N random deals as a ZRD (as ``bench_bulk.py`` does), then times in the same run

* ``convert_file`` ZRD -> BER and ZRD -> RZD (read in numpy chunks, encoded by
  :mod:`bridgeview.formats.exchange`, written atomically with fsync) against a Python
  loop that decodes each ZRD record bit by bit and writes the BER digits / RZD rank bytes;
* ``convert_file`` BER -> ZBD (the BER reader's bulk decode) against a loop reading digits.

Each pair's outputs must be byte-identical; the best time of each counts.  Usage::

    python bench/bench_converters.py [--n 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_bulk import machine, timed, write_zrd

from bridgeview.formats.convert import convert_file


def _zrd_owners(rec: bytes) -> list[int]:
    """Our seat codes (N0 E1 S2 W3) of a ZRD record's 52 two-bit fields, card 0 = club two."""
    bits = int.from_bytes(rec[:13], "little")
    owners = [0] * 52
    for field in range(52):  # field 0 = spade ace
        owners[51 - field] = ((bits >> (2 * field) & 3) + 3) % 4
    return owners


def _zrd_records(src: Path):
    with open(src, "rb") as fin:
        while True:
            rec = fin.read(23)
            if len(rec) < 23 or rec[:4] == b"\0\0\0\0":
                return
            yield rec


def _synced(dst: Path, data_parts) -> int:
    count = 0
    with open(dst, "wb") as fout:
        for part in data_parts:
            fout.write(part)
            count += 1
        fout.flush()
        os.fsync(fout.fileno())
    return count


def loop_zrd_to_ber(src: Path, dst: Path) -> int:
    def records():
        for rec in _zrd_records(src):
            owners = _zrd_owners(rec)
            yield bytes(0x31 + owners[51 - i] for i in range(52))

    return _synced(dst, records())


def loop_zrd_to_rzd(src: Path, dst: Path) -> int:
    body = bytearray()
    count = 0
    for rec in _zrd_records(src):
        owners = _zrd_owners(rec)
        for r in range(13):  # rank A..2
            rank = 12 - r
            body.append(sum(owners[13 * suit + rank] << (2 * suit) for suit in range(4)))
        count += 1
    return _synced(dst, [count.to_bytes(2, "little") + b" " * 11, bytes(body)])


def loop_ber_to_zbd(src: Path, dst: Path) -> int:
    def records():
        with open(src, "rb") as fin:
            while len(rec := fin.read(52)) == 52:
                value = 0
                for i, digit in enumerate(rec):  # card i in file order = ZBD field i
                    value |= ((digit - 0x31 + 1) % 4) << (2 * i)
                yield value.to_bytes(13, "little")

    return _synced(dst, records())


def run(n: int, directory: Path, repeat: int = 3) -> dict:
    src = directory / "bench.zrd"
    write_zrd(src, n)
    results: dict = {"n": n, "machine": machine(), "repeat": repeat}
    pairs = (
        ("zrd", "ber", src, loop_zrd_to_ber),
        ("zrd", "rzd", src, loop_zrd_to_rzd),
        ("ber", "zbd", directory / "vec.ber", loop_ber_to_zbd),
    )
    for source, target, path, loop in pairs:
        if target == "rzd" and n > 0xFFFF:
            continue  # RZD counts boards in 16 bits
        vec, slow = directory / f"vec.{target}", directory / f"loop.{target}"
        key = f"{source}_{target}"
        results[f"{key}_vectorised_s"] = timed(convert_file, path, vec, repeat=3 * repeat)
        results[f"{key}_loop_s"] = timed(loop, path, slow, repeat=repeat)
        if vec.read_bytes() != slow.read_bytes():
            raise SystemExit(f"the vectorised and loop {source} -> {target} outputs differ")
        results[f"{key}_ratio"] = results[f"{key}_loop_s"] / results[f"{key}_vectorised_s"]
    return results


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=65_535, help="number of deals (default 65535, RZD's limit)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each conversion; the best counts (default 3)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as d:
        results = run(args.n, Path(d), args.repeat)
    print(f"machine: {results['machine']}")
    runs = results["repeat"]
    print(f"N = {results['n']} deals; best of {3 * runs} vectorised runs and {runs} loop runs")
    for key in ("zrd_ber", "zrd_rzd", "ber_zbd"):
        if f"{key}_ratio" in results:
            print(
                f"{key.replace('_', ' -> ')}: vectorised {results[f'{key}_vectorised_s']:.3f} s, "
                f"Python loop {results[f'{key}_loop_s']:.2f} s, ratio {results[f'{key}_ratio']:.0f}x"
            )
    return results


if __name__ == "__main__":
    main()
