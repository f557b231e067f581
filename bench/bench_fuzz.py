"""The long fuzz run: many damaged and crafted files through every registered reader.

The test suite runs a short hypothesis campaign (tests/test_fuzz_readers.py, 20 examples
a reader; ``BRIDGEVIEW_FUZZ_EXAMPLES`` raises it).  This script is the long run, outside
pytest so it can go to 100,000 inputs a reader: each input is a seed file -- the real
files in ../shared/realdata with the reader's extensions, the bundled samples, and a
small file the codec writes itself -- damaged at random (truncated, bits flipped,
garbage inserted or overwritten, a chunk repeated, several at once) or replaced by a
crafted hostile file (stray braces, HTML markup, 5,000-digit numbers, UTF-16, empty).

Each input is read, every board is decoded and checked (``validate``), and every
``--gui-every``-th input is also opened in the main window (offscreen), its boards
selected and painted.  Anything but a FormatError (or a clean refusal in the window)
is a failure: the input is saved under ``--out`` with the traceback, to reproduce it.

It ends with the memory the crafted brace, quote and board-line files cost: the
tracemalloc peak while reading and validating in this process, and the peak RSS of a
whole ``bridgeview validate FILE`` process (interpreter and mapped file pages included),
each as a multiple of the file size.  ``--memory-only`` runs just that table.

    nice python3 bench/bench_fuzz.py                      # 2,000 inputs a reader, a few minutes
    nice python3 bench/bench_fuzz.py --inputs 100000      # the long run (hours on one core)
    nice python3 bench/bench_fuzz.py --codec lin --inputs 100000 --seed 7

Exit status 1 when any input failed.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
import traceback
import tracemalloc
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
MAX_SEED_BYTES = 200_000

sys.path.insert(0, str(REPO / "tests"))  # the seeds and damage shared with the suite
import fuzzkit  # noqa: E402

from bridgeview.check.validate import validate  # noqa: E402
from bridgeview.formats.codec import Codec  # noqa: E402
from bridgeview.formats.errors import FormatError  # noqa: E402
from bridgeview.formats.registry import all_codecs, read_file  # noqa: E402

MB = 1 << 20


# -- seeds and damage (shared with the suite's campaign: tests/fuzzkit.py) -------------------
def seeds_for(codec: Codec, rng: random.Random) -> list[bytes]:
    """A file of generated boards written by the codec, and every real, bundled or fixture file with its
    extensions up to 200 KB."""
    generated = fuzzkit.generated_seed(codec, rng)
    return ([generated] if generated is not None else []) + [
        p.read_bytes() for p in fuzzkit.real_seeds(codec, MAX_SEED_BYTES)
    ]


#: the kinds of damage the long run draws, several small changes counted twice (no empty file: one is enough)
KINDS = [k for k in fuzzkit.KINDS if k != "empty"] + ["mixed"]


def damage(data: bytes, rng: random.Random) -> bytes:
    """One random damage of ``data``."""
    return fuzzkit.damage(data, rng.choice(KINDS), fuzzkit.RandomPicker(rng))


def crafted(rng: random.Random, seed: bytes) -> bytes:
    """A hostile file rather than a damaged one."""
    k = rng.randrange(7)
    size = rng.choice([10, 1000, 50_000])
    if k == 0:
        return rng.choice([b"}", b"{", b"{}", b"} ", b"}\n", b'"', b"["]) * size
    if k == 1:
        return seed.replace(b"a", b"<b>a</b>", 3) + b'\n<img src="/dev/zero">\n'
    if k == 2:
        return seed + b"9" * rng.choice([4301, 5000])
    if k == 3:
        try:
            return seed.decode("latin-1").encode(rng.choice(["utf-16", "utf-16-le", "utf-16-be"]))
        except UnicodeError:
            return seed
    if k == 4:
        return b""
    if k == 5:
        return b'[Board "1"]\n' * size
    return seed * rng.randint(2, 20)


# -- one input ------------------------------------------------------------------------------
class Harness:
    def __init__(self, out: Path, gui_every: int) -> None:
        self.out = out
        self.gui_every = gui_every
        self.window = None
        self.failures = 0

    def _window(self):
        if self.window is None:
            os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
            from PySide6.QtWidgets import QApplication

            from bridgeview.ui import dialogs
            from bridgeview.ui.app import load_fonts
            from bridgeview.ui.mainwindow import MainWindow

            self.app = QApplication.instance() or QApplication([])
            load_fonts()
            self.messages: list[str] = []
            dialogs.message = lambda kind, parent, title, text, *a, **k: self.messages.append(kind) or dialogs.Button.Ok
            self.window = MainWindow()
            self.window.resize(1280, 800)
            self.window.show()
        return self.window

    def run(self, codec: Codec, data: bytes, ext: str, number: int, directory: Path) -> None:
        # a new file each time: rewriting one in place would truncate a file an earlier,
        # still mapped document reads (SIGBUS -- see the note in the issue report)
        path = directory / f"input-{number}.{ext}"
        path.write_bytes(data)
        try:
            self._read(path, codec)
            if self.gui_every and number % self.gui_every == 0:
                self._open(path)
        except Exception:
            self.failures += 1
            keep = self.out / f"{codec.name}-{number}.{ext}"
            keep.parent.mkdir(parents=True, exist_ok=True)
            keep.write_bytes(data)
            keep.with_suffix(keep.suffix + ".txt").write_text(traceback.format_exc())
            print(f"FAIL {codec.name} input {number}: saved as {keep}", file=sys.stderr)
        finally:
            path.unlink()

    @staticmethod
    def _read(path: Path, codec: Codec) -> None:
        for fmt in (codec.name, None):
            try:
                doc = read_file(path, fmt)
            except FormatError as e:
                text = e.full()
                if "\n" in text or not text:
                    raise AssertionError(f"error is not one line: {text!r}") from None
                continue
            if hasattr(doc, "info"):
                for board in doc:
                    board.problems()
                validate(doc)
            else:
                doc.problems()

    def _open(self, path: Path) -> None:
        window = self._window()
        self.messages.clear()
        if not window.open_file(str(path)):
            if self.messages != ["error"] or window.tabs.count():
                raise AssertionError(f"a refused open showed {self.messages} and left {window.tabs.count()} tabs")
            return
        view = window.current_view()
        if view is not None:
            for i in range(min(len(view.boards), 4)):
                view.select_board(i)
        window.grab()
        widget = window.tabs.widget(0)
        window.tabs.removeTab(0)
        widget.deleteLater()
        self.app.processEvents()


# -- memory of the crafted files ------------------------------------------------------------
def memory_table(directory: Path) -> list[tuple[str, int, int, int]]:
    """(name, file bytes, tracemalloc peak, peak RSS of ``bridgeview validate``) for the pathological texts
    of the issue."""
    cases = {
        "10 MB of }": "}" * (10 * MB),
        "1 MB of }": "}" * MB,
        "1 MB of } lines": "}\n" * (MB // 2),
        "1 MB unclosed quote": '"' + "x" * MB,
        '1.2 MB of [Board "1"] lines': '[Board "1"]\n' * 100_000,
        '12 MB of [Board "1"] lines': '[Board "1"]\n' * 1_000_000,
    }
    rows = []
    all_codecs()
    for name, text in cases.items():
        path = directory / "memory.pbn"
        path.write_text(text)
        size = path.stat().st_size
        del text
        tracemalloc.start()
        try:
            validate(read_file(path))
        except FormatError:
            pass
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        rows.append((name, size, peak, validate_rss(path)))
    return rows


def validate_rss(path: Path) -> int:
    """Peak RSS in bytes of a fresh ``bridgeview validate`` process on ``path`` (measured by a parent of
    its own, so no other child counts)."""
    probe = (
        "import resource, subprocess, sys\n"
        "subprocess.run([sys.executable, '-c', 'import sys; from bridgeview.cli.main import main; "
        "sys.exit(main())', 'validate', sys.argv[1]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    out = subprocess.run([sys.executable, "-c", probe, str(path)], capture_output=True, text=True, check=True)
    return int(out.stdout.strip()) * 1024  # ru_maxrss is in KiB on Linux


def memory_report(directory: Path) -> None:
    print("\nmemory while reading and validating (tracemalloc peak; peak RSS of `bridgeview validate`):")
    for name, size, peak, rss in memory_table(directory):
        print(
            f"  {name:32} {size / MB:6.1f} MB file  {peak / MB:7.1f} MB ({peak / size:5.1f}x)"
            f"  RSS {rss / MB:7.1f} MB ({rss / size:5.1f}x)"
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", type=int, default=2000, help="inputs a reader (the long run: 100000)")
    ap.add_argument("--codec", action="append", help="only this reader (repeatable)")
    ap.add_argument("--seed", type=int, default=19)
    ap.add_argument("--gui-every", type=int, default=50, help="open every Nth input in the window (0: never)")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "bridgeview-fuzz-failures")
    ap.add_argument("--no-memory", action="store_true", help="skip the memory table")
    ap.add_argument("--memory-only", action="store_true", help="only the memory table")
    args = ap.parse_args(argv)
    if args.memory_only:
        with tempfile.TemporaryDirectory(prefix="bv-fuzz-memory-") as tmp:
            memory_report(Path(tmp))
        return 0
    harness = Harness(args.out, args.gui_every)
    codecs = sorted(all_codecs(), key=lambda c: c.name)
    if args.codec:
        codecs = [c for c in codecs if c.name in args.codec]
    other_ext = [e for c in all_codecs() for e in c.extensions]
    print(f"{'reader':10} {'seeds':>5} {'inputs':>8} {'failed':>8} {'seconds':>8}")
    with tempfile.TemporaryDirectory(prefix="bv-fuzz-long-") as tmp:
        directory = Path(tmp)
        for codec in codecs:
            rng = random.Random(f"{args.seed}-{codec.name}")
            seeds = seeds_for(codec, rng)
            if not seeds:
                print(f"{codec.name:10} {0:>5}  (no seed: skipped)")
                continue
            start = time.process_time()
            failed = 0
            for number in range(args.inputs):
                seed = rng.choice(seeds)
                data = crafted(rng, seed) if rng.random() < 0.1 else damage(seed, rng)
                ext = codec.extensions[0] if rng.random() < 0.8 else rng.choice(other_ext + ["bin"])
                before = harness.failures
                harness.run(codec, data, ext, number, directory)
                failed += harness.failures != before
            print(
                f"{codec.name:10} {len(seeds):>5} {args.inputs:>8,} {failed:>8} {time.process_time() - start:>8.1f}",
                flush=True,
            )
        if not args.no_memory:
            memory_report(directory)
    print(f"\n{harness.failures} failure(s)" + (f"; inputs saved in {args.out}" if harness.failures else ""))
    return 1 if harness.failures else 0


if __name__ == "__main__":
    sys.exit(main())
