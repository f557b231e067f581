"""LIN reading speed: our codec against endplay's LIN parser on the same files.

Three files of about 10,000 boards each, read in one run by
``bridgeview.formats.lin.codec.LinCodec().read`` and by ``endplay.parsers.lin.load``
(CPU time, best of three, the two readers taking turns because the machine is
shared), with the ratio:

* **hand records**: deals only, as BBO's "download hand records" writes them
  (``pn|…|st||md|…|rh||ah|Board N|sv|o|pg||``, one board a line);
* **played**: BBO-style played boards -- the same with an auction (an alerted
  opening call and its ``an`` explanation), the play trick by trick and a claim;
* **real**: the real files of ``../shared/realdata/lin`` that endplay reads the
  same way we do (one ``pn`` a board), repeated to about 10,000 boards.

endplay starts a board at every ``pn|``, so every generated board has one: a
hand-record file of bare ``qx|…|md|…|`` pairs reads as no boards at all there.

    python bench/bench_lin.py [BOARDS]      # default 10000
"""

from __future__ import annotations

import os
import random
import sys
import tempfile
import time
from collections.abc import Sized
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_pbn import make_boards, race

from bridgeview.formats.lin.codec import LinCodec
from bridgeview.formats.lin.read import parse_text
from bridgeview.formats.lin.write import board_pairs
from bridgeview.model.board import Board

REALDATA = Path(__file__).resolve().parents[2] / "shared" / "realdata" / "lin"
#: real files whose boards each start with ``pn|`` (endplay's board boundary) and that endplay reads
REAL_FILES = ("endplay_example1.lin", "bridgebots_sample.lin")


def _line(board: Board, played: bool) -> str:
    """One board as a LIN line; without ``played`` only its players, deal, title and vulnerability."""
    if not played:
        board = board.copy(auction=None, play=None, contract=None, declarer=None, result=None, claim=None)
    pairs = board_pairs(board)
    return "".join(f"{k}|{v}|" for k, v in pairs)


def write_files(n: int, folder: Path, seed: int = 1) -> dict[str, Path]:
    """The generated bench files in ``folder``: ``{"hand records": path, "played": path}``."""
    rng = random.Random(seed)
    boards = make_boards(n, seed)
    records, played = [], []
    for b in boards:
        b.tags = {"South": "s", "West": "w", "North": "n", "East": "e"}
        records.append(_line(b, False))
        if b.auction:
            b.auction[0] = b.auction[0].annotated(alert=True, explanation="could be short")
        if b.play and rng.random() < 0.5:  # half the boards end in a claim after eight tricks
            b.play = b.play[:32]
            b.claim = rng.randint(0, 5)
        played.append(_line(b, True))
    paths = {"hand records": folder / "records.lin", "played": folder / "played.lin"}
    paths["hand records"].write_text("\n".join(records) + "\n", encoding="utf-8")
    paths["played"].write_text("\n".join(played) + "\n", encoding="utf-8")
    return paths


def write_real(n: int, folder: Path) -> Path | None:
    """The real LIN files repeated to about ``n`` boards; None when ../shared/realdata is absent."""
    texts = [(REALDATA / name).read_text(encoding="utf-8") for name in REAL_FILES if (REALDATA / name).exists()]
    if not texts:
        return None
    chunk = "".join(t if t.endswith("\n") else t + "\n" for t in texts)
    per_chunk = len(parse_text(chunk))
    path = folder / "real.lin"
    path.write_text(chunk * max(1, n // per_chunk), encoding="utf-8")
    return path


def read_ours(path: Path) -> Sized:
    return LinCodec().read(path)


def read_endplay(path: Path) -> Sized:
    from endplay.parsers import lin as endplay_lin

    with open(path, encoding="utf-8") as f:
        return endplay_lin.load(f)


def _time_file(path: Path, repeat: int) -> dict:
    """Both readers on one file, and what the file holds."""
    doc = LinCodec().read(path)
    return {
        **race(path, read_ours, read_endplay, repeat),
        "problems": len(doc.problems),
        "calls": sum(len(b.auction or ()) for b in doc),
        "cards": sum(len(b.play or ()) for b in doc),
        "alerts": sum(1 for b in doc for c in b.auction or () if c.alert),
    }


def save_memory(n: int, folder: Path) -> dict:
    """Open the played file of ``n`` boards lazily, edit two boards, save it: the save's peak Python memory
    (tracemalloc; the mapped file is not Python memory) and CPU time."""
    import tracemalloc

    from bridgeview.formats.lin import lazy as lin_lazy
    from bridgeview.formats.registry import write_file

    path = write_files(n, folder)["played"]
    doc = lin_lazy.read_lazy(path)
    assert doc is not None  # the file has the shape the lazy reader takes
    for i in (1, n - 2):
        doc[i] = doc[i].copy(claim=None, result=None, play=None, auction=None)
    write_file(doc, folder / "saved.lin")  # once first: the modules a save imports are not its memory
    tracemalloc.start()
    t = time.process_time()
    try:
        write_file(doc, folder / "saved.lin")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    seconds = time.process_time() - t
    before, after = path.read_bytes().split(b"\n"), (folder / "saved.lin").read_bytes().split(b"\n")
    changed = sum(a != b for a, b in zip(before, after, strict=True))
    return {"boards": n, "bytes": path.stat().st_size, "peak": peak, "save_s": seconds, "changed_lines": changed}


def run(n: int = 10_000, *, echo: bool = True, repeat: int = 3) -> dict:
    """Write the bench files for ``n`` boards, read each with both readers, return the timings by file."""
    result: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as tmp:
        paths: dict[str, Path | None] = dict(write_files(n, Path(tmp)))
        paths["real"] = write_real(n, Path(tmp))
        for label, path in paths.items():
            if path is not None:
                result[label] = _time_file(path, repeat)
    if echo:
        for label, r in result.items():
            print(
                f"{label}: {r['counts'][0]} boards ({r['counts'][1]} for endplay), {r['bytes'] / 1e6:.1f} MB, "
                f"{r['calls']} calls, {r['cards']} cards"
            )
            print(f"  bridgeview: {r['ours_s']:.2f} s ({r['ours_ms_per_board']:.3f} ms/board)")
            print(f"  endplay:    {r['endplay_s']:.2f} s ({r['endplay_ms_per_board']:.3f} ms/board)")
            print(f"  ratio: {r['ratio']:.1f}x faster")
        with tempfile.TemporaryDirectory() as tmp:
            for size in (n, 4 * n):  # the save's memory does not grow with the file
                m = save_memory(size, Path(tmp))
                print(
                    f"lazy save, {m['boards']} boards ({m['bytes'] / 1e6:.1f} MB), two edited: peak "
                    f"{m['peak'] / 1e6:.2f} MB of Python memory, {m['save_s']:.2f} s, "
                    f"{m['changed_lines']} lines changed"
                )
    return result


if __name__ == "__main__":
    print(f"load average {os.getloadavg()[0]:.1f}")
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 10_000)
