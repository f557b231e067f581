"""Benchmark: big PBN and LIN files opened, inspected and converted in a stream, against a regex pass.

Generates a ZRD of ``--n`` random deals (with DD tables), converts it to PBN
(what ``bridgeview convert`` writes: the export roster and an OptimumResultTable a
board), and measures, each in a fresh process (time of the operation, peak RSS
of the process):

* the baseline: one regular-expression pass finding every ``[Deal "..."]`` through mmap;
* ``bridgeview info big.pbn`` and ``bridgeview convert big.pbn back.zrd`` (checked
  byte-identical to the original ZRD), as ratios to the baseline;
* ``bridgeview convert big.zrd big.pbn`` (boards a second);
* the main window (offscreen): the first board of the PBN shown, and a jump to
  board 900,000 (or 90 % of the way);
* ``bridgeview validate big.pbn`` (every board decoded and checked, board by board);
* the same deals as LIN: ``convert big.zrd big.lin``, ``info big.lin`` and ``convert big.lin
  back.zbd`` (checked byte-identical to ZRD→ZBD) against a regex pass finding every ``md|…|``,
  and the main window on ``big.lin``;
* the same ``info``, ``convert`` and ``validate`` on a file a quarter the size: memory
  beyond the mapped file must not grow with it;
* ``bridgeview validate`` on a ZRD of ``--validate-deals`` deals (duplicate detection
  by sorted 64-bit hashes), unless ``--validate-deals 0``.

Peak RSS counts the file's mapped pages.  Usage::

    nice python bench/bench_bigtext.py [--n 1000000] [--dir DIR] [--validate-deals 10485760]

The machine is shared: compare the ratios within one run, not times across runs.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

GUI_TARGET = 900_000


def peak_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(kind: str, args: list[str]) -> dict:
    """One measurement in this (fresh) process."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from bridgeview.cli.main import main as cli_main
    from bridgeview.formats.registry import all_codecs

    all_codecs()  # imports and registration are not what we measure
    out: dict = {}
    if kind == "regex":
        import mmap
        import re

        t0 = time.perf_counter()
        pattern = rb"md\|([^|]*)\|" if args[0].endswith(".lin") else rb'\[Deal "([^"]*)"\]'
        with open(args[0], "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
            count = sum(1 for _ in re.finditer(pattern, mm))
        out["seconds"] = time.perf_counter() - t0
        out["count"] = count
    elif kind in ("info", "convert", "validate"):
        sink = io.StringIO()
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(io.StringIO()):
            code = cli_main([kind, *args])
        out["seconds"] = time.perf_counter() - t0
        out["code"] = code
        out["stdout"] = sink.getvalue()[-2000:]
    elif kind == "gui":
        from PySide6.QtCore import QSettings

        from bridgeview.ui import dialogs
        from bridgeview.ui.app import application
        from bridgeview.ui.mainwindow import MainWindow

        app = application()
        dialogs.message = lambda *a, **k: dialogs.Button.Ok
        tmp = tempfile.mkdtemp()
        window = MainWindow(QSettings(str(Path(tmp) / "s.ini"), QSettings.Format.IniFormat))
        window.resize(1280, 800)
        window.show()
        app.processEvents()
        t0 = time.perf_counter()
        ok = window.open_file(args[0])
        app.processEvents()
        out["open_seconds"] = time.perf_counter() - t0
        view = window.current_view()
        n = len(view.boards)
        out["first_board"] = view.diagram.view_model()["board"]
        target = GUI_TARGET if n >= GUI_TARGET else max(1, n * 9 // 10)
        t1 = time.perf_counter()
        found = view.go_to_number(target)
        app.processEvents()
        out["jump_seconds"] = time.perf_counter() - t1
        out["jump_target"] = target
        out["jump_shown"] = view.diagram.view_model()["board"]
        out["ok"] = bool(ok and found)
        out["boards"] = n
    out["peak_mb"] = peak_mb()
    return out


def run_child(kind: str, *args: str) -> dict:
    proc = subprocess.run(
        [sys.executable, __file__, "--child", kind, *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)},
    )
    if proc.returncode:
        raise SystemExit(f"child {kind} failed:\n{proc.stderr}")
    line = proc.stdout.strip().splitlines()[-1]
    if kind == "gui":  # Qt may print before the JSON
        line = next(ln for ln in reversed(proc.stdout.splitlines()) if ln.startswith("{"))
    return json.loads(line)


def make_zrd(path: Path, n: int) -> None:
    from bench_bulk import write_zrd

    write_zrd(path, n)


def measure_size(d: Path, n: int, tag: str) -> dict:
    """Generate a ZRD of n deals and its PBN, and measure everything on them."""
    zrd = d / f"{tag}.zrd"
    pbn = d / f"{tag}.pbn"
    back = d / f"{tag}-back.zrd"
    make_zrd(zrd, n)
    res = {"n": n}
    res["zrd_to_pbn"] = run_child("convert", str(zrd), str(pbn))
    res["pbn_size"] = pbn.stat().st_size
    res["regex"] = run_child("regex", str(pbn))
    res["info"] = run_child("info", str(pbn))
    res["pbn_to_zrd"] = run_child("convert", str(pbn), str(back))
    res["identical"] = back.read_bytes() == zrd.read_bytes()
    res["validate_pbn"] = run_child("validate", str(pbn))
    # the same deals as LIN (what our export writes: qx, md, the title and vulnerability a board)
    lin, zbd, lin_zbd = d / f"{tag}.lin", d / f"{tag}.zbd", d / f"{tag}-lin.zbd"
    res["zrd_to_lin"] = run_child("convert", str(zrd), str(lin))
    res["lin_size"] = lin.stat().st_size
    res["regex_lin"] = run_child("regex", str(lin))
    res["info_lin"] = run_child("info", str(lin))
    res["lin_to_zbd"] = run_child("convert", str(lin), str(lin_zbd))
    run_child("convert", str(zrd), str(zbd))
    res["lin_identical"] = lin_zbd.read_bytes() == zbd.read_bytes()
    for p in (zbd, lin_zbd):
        p.unlink()
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--dir", help="work directory (default: a temporary one, removed afterwards)")
    ap.add_argument("--validate-deals", type=int, default=10_485_760)
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child[0], args.child[1:])))
        return 0
    tmp = None if args.dir else tempfile.TemporaryDirectory(dir="/tmp")
    d = Path(args.dir or tmp.name)
    d.mkdir(parents=True, exist_ok=True)
    big = measure_size(d, args.n, "big")
    big["gui"] = run_child("gui", str(d / "big.pbn"))
    big["gui_lin"] = run_child("gui", str(d / "big.lin"))
    quarter = measure_size(d, max(1, args.n // 4), "quarter")
    for p in d.glob("quarter*"):
        p.unlink()
    val = None
    if args.validate_deals:
        vz = d / "validate.zrd"
        make_zrd(vz, args.validate_deals)
        val = run_child("validate", str(vz))
        val["size"] = vz.stat().st_size
        vz.unlink()

    base = big["regex"]["seconds"]
    mb = big["pbn_size"] / 2**20
    rows = [
        ("boards; PBN size", f"{args.n:,}; {mb:.0f} MiB"),
        ("regex pass over mmap (baseline)", f"{base:.2f} s; peak {big['regex']['peak_mb']:.0f} MB"),
        (
            "`info big.pbn`",
            f"{big['info']['seconds']:.2f} s = **{big['info']['seconds'] / base:.1f}×** the regex pass; "
            f"peak {big['info']['peak_mb']:.0f} MB",
        ),
        (
            "`convert big.pbn back.zrd`",
            f"{big['pbn_to_zrd']['seconds']:.2f} s = "
            f"**{big['pbn_to_zrd']['seconds'] / base:.1f}×**; peak {big['pbn_to_zrd']['peak_mb']:.0f} MB; "
            f"byte-identical to the original: {big['identical']}",
        ),
        (
            "`convert big.zrd big.pbn`",
            f"{big['zrd_to_pbn']['seconds']:.2f} s = "
            f"{args.n / big['zrd_to_pbn']['seconds']:,.0f} boards/s; peak {big['zrd_to_pbn']['peak_mb']:.0f} MB",
        ),
        (
            "`validate big.pbn` (every board decoded and checked)",
            f"{big['validate_pbn']['seconds']:.1f} s = {args.n / big['validate_pbn']['seconds']:,.0f} boards/s; "
            f"peak {big['validate_pbn']['peak_mb']:.0f} MB",
        ),
        (
            "GUI: open, first board shown",
            f"{big['gui']['open_seconds']:.2f} s = "
            f"**{big['gui']['open_seconds'] / base:.1f}×** (board {big['gui']['first_board']})",
        ),
        (
            f"GUI: go to board {big['gui']['jump_target']:,}",
            f"{big['gui']['jump_seconds'] * 1000:.0f} ms "
            f"(shown: {big['gui']['jump_shown']}); GUI peak {big['gui']['peak_mb']:.0f} MB",
        ),
    ]
    lin_base = big["regex_lin"]["seconds"]
    rows += [
        (
            "LIN size; regex pass finding every `md|…|` (baseline)",
            f"{big['lin_size'] / 2**20:.0f} MiB; {lin_base:.2f} s",
        ),
        (
            "`convert big.zrd big.lin`",
            f"{big['zrd_to_lin']['seconds']:.2f} s = {args.n / big['zrd_to_lin']['seconds']:,.0f} boards/s; "
            f"peak {big['zrd_to_lin']['peak_mb']:.0f} MB",
        ),
        (
            "`info big.lin`",
            f"{big['info_lin']['seconds']:.2f} s = **{big['info_lin']['seconds'] / lin_base:.1f}×** the regex pass; "
            f"peak {big['info_lin']['peak_mb']:.0f} MB",
        ),
        (
            "`convert big.lin back.zbd`",
            f"{big['lin_to_zbd']['seconds']:.2f} s = **{big['lin_to_zbd']['seconds'] / lin_base:.1f}×**; "
            f"peak {big['lin_to_zbd']['peak_mb']:.0f} MB; the same bytes as ZRD→ZBD: {big['lin_identical']}",
        ),
        (
            f"GUI: open big.lin, first board shown; go to board {big['gui_lin']['jump_target']:,}",
            f"{big['gui_lin']['open_seconds']:.2f} s = **{big['gui_lin']['open_seconds'] / lin_base:.1f}×** "
            f"(board {big['gui_lin']['first_board']}); {big['gui_lin']['jump_seconds'] * 1000:.0f} ms "
            f"(shown: {big['gui_lin']['jump_shown']})",
        ),
    ]
    for key, what in (
        ("info", "`info`"),
        ("pbn_to_zrd", "`convert` PBN→ZRD"),
        ("zrd_to_pbn", "`convert` ZRD→PBN"),
        ("validate_pbn", "`validate` PBN"),
        ("zrd_to_lin", "`convert` ZRD→LIN"),
        ("info_lin", "`info` LIN"),
        ("lin_to_zbd", "`convert` LIN→ZBD"),
    ):
        rows.append(
            (
                f"peak RSS, {what}: ¼ size → full size",
                f"{quarter[key]['peak_mb']:.0f} MB → {big[key]['peak_mb']:.0f} MB",
            )
        )
    if val is not None:
        rows.append(
            (
                f"`validate` on a {args.validate_deals:,}-deal ZRD ({val['size'] / 2**20:.0f} MiB)",
                f"{val['seconds']:.2f} s; peak {val['peak_mb']:.0f} MB; {val['stdout'].strip()[-80:]}",
            )
        )
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end\n")
    print("| measurement | result |\n|---|---|")
    for k, v in rows:
        print(f"| {k} | {v} |")
    if tmp is not None:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
