"""GUI cost of a 10,485,760-deal ZRD: opening, first board, jumping, scrolling, memory.

Run:  QT_QPA_PLATFORM=offscreen python bench/bench_gui_bigfile.py [--deals N] [--keep FILE]

The file is generated with the ZRD codec's bulk writer from random deals (a
block of 2^18 random deals with random DD results, repeated), written to a
temporary directory unless --keep names a path.  Results are printed as a
Markdown table (docs/bench-gui.md holds the last run).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

BLOCK = 1 << 18


def rss_split() -> tuple[float, float]:
    """(anonymous, file-backed) resident MB: mmapped file pages are page cache the kernel can drop."""
    parts = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("RssAnon", "RssFile")):
                key, value = line.split(":")
                parts[key] = int(value.split()[0]) / 1024
    return parts.get("RssAnon", 0.0), parts.get("RssFile", 0.0)


def mem_text(base: tuple[float, float] | None = None) -> str:
    anon, file = rss_split()
    text = f"{anon + file:.0f} MB (anon {anon:.0f}, file-backed {file:.0f})"
    if base is not None:
        text += f"; +{anon - base[0]:.0f} MB anon, +{file - base[1]:.0f} MB file-backed"
    return text


def make_zrd(path: Path, deals: int) -> float:
    from bridgeview.formats.bulk import BulkChunk
    from bridgeview.formats.codec import WriteOptions
    from bridgeview.formats.registry import get

    t0 = time.perf_counter()
    rng = np.random.default_rng(2024)
    n = min(BLOCK, deals)
    perm = np.argsort(rng.random((n, 52)), axis=1)
    owners = np.empty((n, 52), dtype=np.uint8)
    np.put_along_axis(owners, perm, (np.arange(52) // 13).astype(np.uint8)[None, :].repeat(n, 0), axis=1)
    dd = rng.integers(0, 14, size=(n, 4, 5), dtype=np.uint8)

    def chunks():
        left = deals
        while left > 0:
            k = min(n, left)
            yield BulkChunk(owners[:k], dd[:k], None)
            left -= k

    codec = get("zrd")
    with open(path, "wb") as f:
        codec.write_bulk(chunks(), f, WriteOptions())
    return time.perf_counter() - t0


def timed(fn) -> tuple[float, object]:
    t0 = time.perf_counter()
    value = fn()
    return (time.perf_counter() - t0) * 1000, value


def measure_big(app, window, big: Path, settle) -> dict:
    """Open the big file, jump about, scroll and step in it; the times (ms) and what was shown."""
    t_open, ok = timed(lambda: (window.open_file(str(big)), app.processEvents())[0])
    assert ok, "could not open the big file"
    view = window.current_view()
    n = len(view.boards)
    first_shown = view.diagram.view_model()["board"]
    t_jump, found = timed(lambda: (view.go_to_number(10_000_000 if n >= 10_000_000 else n), app.processEvents())[0])
    shown = view.diagram.view_model()["board"]
    big_jumps = []
    for number in random.Random(5).sample(range(1, n + 1), 10):
        t, _ = timed(lambda number=number: (view.go_to_number(number), app.processEvents()))
        big_jumps.append(t)
    t_big_jump = sorted(big_jumps)[5]
    # scrolling: set the list's scroll bar to 50 random places, repainting each time
    bar = view.board_list.verticalScrollBar()
    rng = random.Random(1)
    times = []
    for _ in range(50):
        t, _ = timed(lambda: (bar.setValue(rng.randrange(bar.maximum() + 1)), view.board_list.viewport().repaint()))
        times.append(t)
    # board-to-board stepping near the end of the file
    view.select_board(max(0, n - 500))
    app.processEvents()
    step_times = []
    for _ in range(20):
        t, _ = timed(lambda: (view.select_board(min(n - 1, view.current_index() + 1)), app.processEvents()))
        step_times.append(t)
    # let the background checksum of the big file finish, then measure memory
    deadline = time.perf_counter() + 60
    while time.perf_counter() < deadline and any(v == "computing…" for _, v in view.details.file_rows()):
        settle(100)
    settle(3000)
    return {
        "view": view,
        "n": n,
        "t_open": t_open,
        "first_shown": first_shown,
        "t_jump": t_jump,
        "found": found,
        "shown": shown,
        "t_big_jump": t_big_jump,
        "times": times,
        "step_times": step_times,
    }


def big_file(args: argparse.Namespace, tmp: Path) -> tuple[Path, float]:
    """The big ZRD (made in a child process unless ``--keep`` names one already there) and the seconds its
    making took (0 when it was there)."""
    big = Path(args.keep) if args.keep else tmp / "big.zrd"
    gen_s = 0.0
    if not big.exists():
        # in a child process, so numpy's scratch memory does not count in this one's peak
        out = subprocess.run(
            [sys.executable, __file__, "--generate-only", "--keep", str(big), "--deals", str(args.deals)],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        gen_s = float(out.strip().splitlines()[-1])
    return big, gen_s


def measure_small(app, window, small: Path) -> tuple[float, float]:
    """Open the 32-deal file and jump about in it: the time to open (ms) and the median jump."""
    t_small, _ = timed(lambda: (window.open_file(str(small)), app.processEvents()))
    sview = window.current_view()
    small_jumps = []
    for i in (20, 3, 31, 7, 15, 0, 26, 11, 5, 29):
        t, _ = timed(lambda i=i: (sview.select_board(i), app.processEvents()))
        small_jumps.append(t)
    t_small_jump = sorted(small_jumps)[5]
    return t_small, t_small_jump


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=10_485_760)
    ap.add_argument("--keep", metavar="FILE", help="write (or reuse) the ZRD here instead of a temporary file")
    ap.add_argument("--generate-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.generate_only:
        print(f"{make_zrd(Path(args.keep), args.deals):.3f}")
        return 0

    from PySide6.QtCore import QSettings
    from PySide6.QtWidgets import QApplication

    from bridgeview.ui import dialogs
    from bridgeview.ui.app import application
    from bridgeview.ui.mainwindow import MainWindow

    app = application()
    dialogs.message = lambda *a, **k: print("dialog:", a[2:4], file=sys.stderr) or dialogs.Button.Ok
    tmp = tempfile.TemporaryDirectory()
    big, gen_s = big_file(args, Path(tmp.name))
    small = Path(tmp.name) / "small.zrd"
    make_zrd(small, 32)

    def settle(ms: int = 50) -> None:
        end = time.perf_counter() + ms / 1000
        while time.perf_counter() < end:
            app.processEvents()
            time.sleep(0.005)

    window = MainWindow(QSettings(str(Path(tmp.name) / "s.ini"), QSettings.Format.IniFormat))
    window.resize(1280, 800)
    window.show()
    settle(300)
    mem_empty = rss_split()
    mem_empty_text = mem_text()

    rows: list[tuple[str, str]] = []
    t_small, t_small_jump = measure_small(app, window, small)
    settle(3000)  # let the DD solver load and finish its work on the small file
    mem_small = rss_split()
    mem_small_text = mem_text(mem_empty)

    big_run = measure_big(app, window, big, settle)
    view = big_run["view"]
    n, t_open, first_shown = big_run["n"], big_run["t_open"], big_run["first_shown"]
    t_jump, found, shown = big_run["t_jump"], big_run["found"], big_run["shown"]
    t_big_jump, times, step_times = big_run["t_big_jump"], big_run["times"], big_run["step_times"]
    mem_big_text = mem_text(mem_small)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    checksum = dict(view.details.file_rows()).get("checksum")
    rows += [
        ("deals in the file", f"{n:,} ({big.stat().st_size / 2**20:.0f} MiB)"),
        *([("generating the file (bulk writer)", f"{gen_s:.1f} s")] if gen_s else []),
        ("open a 32-deal ZRD (first board shown)", f"{t_small:.0f} ms"),
        ("show another board of the 32-deal file", f"median {t_small_jump:.1f} ms (10 jumps)"),
        ("open the big ZRD (first board shown)", f"{t_open:.0f} ms (first board: {first_shown})"),
        ("go to board 10,000,000 (Ctrl+G)", f"{t_jump:.1f} ms (found: {bool(found)}, shown: {shown})"),
        ("go to a random board of the big file", f"median {t_big_jump:.1f} ms (10 jumps)"),
        (
            "scroll the list to a random place + repaint",
            f"median {sorted(times)[25]:.1f} ms, max {max(times):.1f} ms (50 jumps)",
        ),
        ("next board near the end", f"median {sorted(step_times)[10]:.1f} ms"),
        ("RSS, empty window", mem_empty_text),
        ("RSS, a 32-deal file open (over the empty window)", mem_small_text),
        ("RSS, big file open too, after the jumps and scrolling (over the small file)", mem_big_text),
        ("peak RSS of the whole run", f"{peak:.0f} MB"),
        ("Pavlicek checksum (computed in a background thread)", str(checksum)),
    ]
    print("| measurement | result |\n|---|---|")
    for k, v in rows:
        print(f"| {k} | {v} |")
    sys.stdout.flush()
    window.close()
    QApplication.processEvents()
    tmp.cleanup()
    os._exit(0)  # skip interpreter teardown of Qt objects (a PySide6 finalisation crash is not ours to measure)


if __name__ == "__main__":
    raise SystemExit(main())
