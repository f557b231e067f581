"""Start-up: how long until the GUI shows the sample, and how long every CLI command takes on a small file.

Run:  python bench/bench_startup.py [--runs N] [--platform offscreen|xcb] [--tree DIR ...]

Every measurement is a fresh process, timed from just before it is spawned
until it has done its job, and set against a baseline in the same run:

- the GUI (``bridgeview`` with no file: the bundled sample) until the first
  paint of the sample's hand diagram, against a bare PySide6 window (a
  QMainWindow with a label) until its first paint -- the part of start-up no
  Qt application can avoid.  The moment is noted by an application-wide event
  filter (as the issue measured it) and again, in rows of their own, by the
  painted class's own ``paintEvent`` (no filter: what a user's process does);
- every sub-command (and ``--version``, ``--help``) on a one-board PBN, and
  ``info`` on a 1,000-board PBN, against ``python -c pass``; the commands that
  need Qt (``render``, ``print``) also against a bare Qt process that paints an
  image and saves it as PNG, and ``solve`` against its floor: a process that
  starts bridgeview's DDS children as the command does (forked) and solves the
  deal (a process that imports endplay and solves it is timed too, as "DDS
  direct"); ``render`` and ``print`` also on the same board without
  its DD table (``nodd.pbn``: DDS solves it on the way).

Runs go in turns (baseline, app, baseline, ...) so a change in the machine's
load hits both; medians and minima are printed as a Markdown table
(docs/bench-startup.md holds the last run).  ``--tree`` runs bridgeview from
other checkouts too (each a column of its own), to measure before and after.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: the bare window the probes time (the end of their ``bare`` branch): a QMainWindow with a label of class
#: ``LABEL``, shown, and the event loop
_BARE_WINDOW = r"""
    win = QMainWindow()
    win.setCentralWidget(LABEL("bare PySide6 window"))
    win.resize(1280, 800)
    win.show()
    app.exec()
"""

#: how the probes reach into the window without importing anything before it does: ``on_import(name, then)``
#: calls ``then(module)`` once ``name`` is imported (PySide6 imported by a probe first would change what the
#: window's start-up costs: shiboken reads the source of every module imported after it, see
#: ``cli.main._before_qt``)
_ON_IMPORT = r"""
import importlib.abc, importlib.util

def on_import(name, then):
    class Finder(importlib.abc.MetaPathFinder):
        def find_spec(self, fullname, path, target=None):
            if fullname != name:
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(fullname)
            real = spec.loader

            class Loader(importlib.abc.Loader):
                def create_module(self, spec):
                    return real.create_module(spec)

                def exec_module(self, module):
                    real.exec_module(module)
                    then(module)

            spec.loader = Loader()
            return spec

    sys.meta_path.insert(0, Finder())
"""

#: a child that prints the wall-clock time (ns) of the first paint of ``TARGET``'s class, then quits
_PAINT_PROBE = (
    r"""
import sys, time

def first_paint_filter(cls):
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication

    class FirstPaint(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.Type.Paint and type(obj).__name__ == cls:
                print(time.time_ns(), time.process_time(), flush=True)
                QTimer.singleShot(0, QApplication.quit)
                QApplication.instance().removeEventFilter(self)
            return False

    return FirstPaint()

if sys.argv[1] == "bare":
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
    app = QApplication([sys.argv[0]])
    probe = first_paint_filter("QLabel")
    app.installEventFilter(probe)"""
    + _BARE_WINDOW.replace("LABEL", "QLabel")
    + r"""else:"""
    + _ON_IMPORT.replace("\n", "\n    ")
    + r"""
    probes = []  # the filter, installed once, on the window's own application (made when the window makes it)

    def filtered(module):
        made = module.application

        def application(*args, **kwargs):
            app = made(*args, **kwargs)
            if not probes:
                probes.append(first_paint_filter("HandDiagram"))
                app.installEventFilter(probes[0])
            return app

        module.application = application

    on_import("bridgeview.ui.app", filtered)
    from bridgeview.cli.main import main
    main([])
"""
)

#: the same moment noted without an application-wide event filter: the first paint of a class whose
#: ``paintEvent`` notes the time first.  A filter in Python sees every event of every object, and wrapping
#: them (QEvent's subclasses and their enums among them) costs each process some 30 ms before its first
#: paint; this probe leaves that out of both the bare window and the window
_OVERRIDE_PROBE = (
    r"""
import sys, time

def note_first_paint(cls):
    paint = cls.paintEvent
    def noted(self, event):
        if not getattr(cls, "_noted", False):
            cls._noted = True
            print(time.time_ns(), time.process_time(), flush=True)
            from PySide6.QtCore import QTimer
            from PySide6.QtWidgets import QApplication
            QTimer.singleShot(0, QApplication.quit)
        paint(self, event)
    cls.paintEvent = noted

if sys.argv[1] == "bare":
    from PySide6.QtWidgets import QApplication, QLabel, QMainWindow
    class Label(QLabel):
        def paintEvent(self, event):
            super().paintEvent(event)
    note_first_paint(Label)
    app = QApplication([sys.argv[0]])"""
    + _BARE_WINDOW.replace("LABEL", "Label")
    + r"""else:"""
    + _ON_IMPORT.replace("\n", "\n    ")
    + r"""
    on_import("bridgeview.ui.diagram.hand_diagram", lambda module: note_first_paint(module.HandDiagram))
    from bridgeview.cli.main import main
    main([])
"""
)


def _env(platform: str, config: str, tree: Path = ROOT) -> dict[str, str]:
    # as installed: pip compiles .pyc files at install time, so a user's start-up never compiles source
    # (a PYTHONDONTWRITEBYTECODE environment would add ~0.4 s of compiling to every run)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(QT_QPA_PLATFORM=platform, XDG_CONFIG_HOME=config)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(tree), os.environ.get("PYTHONPATH")]))
    return env


def time_paint(kind: str, env: dict[str, str], probe: str = _PAINT_PROBE) -> tuple[float, float]:
    """(seconds from spawning the process to the first paint of the window's content, CPU seconds the
    process had used by then)."""
    start = time.time_ns()
    proc = subprocess.run(
        [sys.executable, "-c", probe, kind],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=env["XDG_CONFIG_HOME"],  # not a checkout: ``-m`` puts the working folder first on the path
    )
    if proc.returncode != 0 or not proc.stdout.strip():
        raise SystemExit(f"{kind}: {proc.stderr.strip() or 'no paint'}")
    at, cpu = proc.stdout.split()[:2]
    return (int(at) - start) / 1e9, float(cpu)


def time_command(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(seconds a command takes, start to exit; CPU seconds it and the children it waited for used):
    on a machine other jobs load, the CPU time moves far less than the wall time."""
    start = time.perf_counter()
    # run in a folder that is no checkout: ``python -m`` puts the working folder first on sys.path
    proc = subprocess.Popen(
        args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=env["XDG_CONFIG_HOME"]
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: {err.strip()}")
    return wall, usage.ru_utime + usage.ru_stime


#: a bare Qt process doing what ``render`` must: paint an image offscreen and save it as PNG
_QT_IMAGE = r"""
import sys
from PySide6.QtGui import QGuiApplication, QImage, QPainter
app = QGuiApplication([sys.argv[0]])
image = QImage(400, 300, QImage.Format.Format_ARGB32)
image.fill(0xFFFFFFFF)
painter = QPainter(image)
painter.drawText(20, 20, "bare Qt")
painter.end()
image.save(sys.argv[1])
"""
#: DDS called directly on one deal: what ``solve`` on a one-board file cannot avoid
_DDS_ONE = r"""
from endplay.dds import calc_dd_table
from endplay.types import Deal
calc_dd_table(Deal("N:65.A53.JT7.AK762 AK87.QT4.AK98.95 JT9.982.Q532.Q83 Q432.KJ76.64.JT4"))
"""
#: the floor of ``solve`` on a one-board file as bridgeview solves: the package's solving module, its DDS
#: children started as the command starts them (forked, a core each) and one deal solved with every core's
#: DDS thread; what a command adds to it is its parser, the file and the output
_DDS_CHILD_ONE = r"""
import os
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
from bridgeview.model.deal import Deal
from bridgeview.solve.timed import SolverPool, solve_within
deal = Deal.from_pbn("N:KQJ65.T2.QJ6.AQ2 8732.65.AK95.J86 T94.K84.872.7543 A.AQJ973.T43.KT9")  # small.pbn's
pool = SolverPool()
pool.launch_early(1)
try:
    assert solve_within([deal], process=pool).tables[0] is not None
finally:
    pool.close()
"""


CLI = [sys.executable, "-m", "bridgeview"]  # (the console script's entry point, bridgeview.__main__:main)


def commands(tmp: Path, small: Path, big: Path) -> dict[str, tuple[list[str], str]]:
    """Each CLI measurement: (arguments after ``bridgeview``, the baseline it is set against)."""
    out = tmp / "out"
    return {
        "--version": (["--version"], "python -c pass"),
        "--help": (["--help"], "python -c pass"),
        "formats": (["formats"], "python -c pass"),
        "info small.pbn": (["info", str(small)], "python -c pass"),
        "info 1000.pbn": (["info", str(big)], "python -c pass"),
        "validate small.pbn": (["validate", str(small)], "python -c pass"),
        "check small.pbn": (["check", str(small)], "python -c pass"),
        "dump small.pbn": (["dump", str(small)], "python -c pass"),
        "diff small.pbn small.pbn": (["diff", str(small), str(small)], "python -c pass"),
        "convert small.pbn small.lin": (["convert", str(small), f"{out}.lin"], "python -c pass"),
        "convert small.pbn small.zrd": (["convert", str(small), f"{out}.zrd"], "python -c pass"),
        "render small.pbn": (["render", str(small), "-o", f"{out}.png"], "bare Qt: paint and save a PNG"),
        "print small.pbn": (["print", str(small), "--no-dd", "-o", f"{out}.pdf"], "bare Qt: paint and save a PNG"),
        # the board without its table: DDS solves it on the way (the child started before Qt is)
        "render nodd.pbn (solved)": (
            ["render", str(small.with_name("nodd.pbn")), "-o", f"{out}-nodd.png"],
            "bare Qt: paint and save a PNG",
        ),
        "print nodd.pbn (solved)": (
            ["print", str(small.with_name("nodd.pbn")), "--force", "-o", f"{out}-nodd.pdf"],
            "bare Qt: paint and save a PNG",
        ),
        # --again: the sample's board carries its table, and solve would otherwise solve nothing
        "solve small.pbn": (
            ["solve", str(small), f"{out}-solved.pbn", "--again"],
            "DDS child: forked, one deal solved",
        ),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--platform", default=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    ap.add_argument("--tree", action="append", type=Path, help="run bridgeview from this checkout (repeatable)")
    ap.add_argument("--no-gui", action="store_true", help="the command line only")
    args = ap.parse_args()
    trees = args.tree or [ROOT]
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        envs = {tree: _env(args.platform, tmp, tree) for tree in trees}
        base_env = envs[trees[0]]
        text = (ROOT / "resources" / "sample.pbn").read_text(encoding="utf-8")
        small = Path(tmp) / "small.pbn"
        small.write_text(text[: text.index("[Event", text.index("[Event") + 1)], encoding="utf-8")
        bare = Path(tmp) / "nodd.pbn"  # the same board without its DD table (nor par): render and print solve it
        bare.write_text(_without_tables(small.read_text(encoding="utf-8")), encoding="utf-8")
        big = Path(tmp) / "1000.pbn"
        _thousand_boards(big)
        baselines: dict[str, Callable[[], tuple[float, float]]] = {
            "python -c pass": lambda: time_command([sys.executable, "-c", "pass"], base_env),
            "bare Qt: paint and save a PNG": lambda: time_command(
                [sys.executable, "-c", _QT_IMAGE, str(Path(tmp) / "bare.png")], base_env
            ),
            "DDS direct: import and solve one deal": lambda: time_command([sys.executable, "-c", _DDS_ONE], base_env),
            "DDS child: forked, one deal solved": lambda: time_command(
                [sys.executable, "-c", _DDS_CHILD_ONE], base_env
            ),
        }
        if not args.no_gui:
            baselines["bare PySide6 window, first paint"] = lambda: time_paint("bare", base_env)
            baselines["bare window, no event filter"] = lambda: time_paint("bare", base_env, _OVERRIDE_PROBE)
        jobs: dict[str, tuple[str, Callable[[], tuple[float, float]]]] = {}
        for tree in trees:
            env = envs[tree]
            label = f" ({tree.name})" if len(trees) > 1 else ""
            if not args.no_gui:
                jobs[f"GUI, sample's diagram first painted{label}"] = (
                    "bare PySide6 window, first paint",
                    lambda env=env: time_paint("app", env),
                )
                jobs[f"GUI, no event filter{label}"] = (
                    "bare window, no event filter",
                    lambda env=env: time_paint("app", env, _OVERRIDE_PROBE),
                )
            for name, (argv, base) in commands(Path(tmp), small, big).items():
                jobs[f"bridgeview {name}{label}"] = (base, lambda argv=argv, env=env: time_command([*CLI, *argv], env))
        every = {**baselines, **{name: fn for name, (_b, fn) in jobs.items()}}
        for job in every.values():  # warm the page cache and write the .pyc files
            job()
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in every}
        for _ in range(args.runs):
            for name, job in every.items():
                times[name].append(job())
    load = os.getloadavg()[0]
    print(
        f"{args.runs} runs each, Qt platform {args.platform}, load average {load:.1f} at the end, "
        f"Python {sys.version.split()[0]}\n"
    )
    print("| measurement | median | min | median vs baseline | CPU median | CPU vs baseline |")
    print("|---|---:|---:|---|---:|---:|")

    def medians(name: str) -> tuple[float, float, float]:
        walls, cpus = [w for w, _ in times[name]], [c for _, c in times[name]]
        return statistics.median(walls), min(walls), statistics.median(cpus)

    for name in baselines:
        med, low, cpu = medians(name)
        print(f"| {name} | {med * 1000:.0f} ms | {low * 1000:.0f} ms | baseline | {cpu * 1000:.0f} ms | baseline |")
    for name, (base, _fn) in jobs.items():
        med, low, cpu = medians(name)
        bmed, _blow, bcpu = medians(base)
        print(
            f"| {name} | {med * 1000:.0f} ms | {low * 1000:.0f} ms | {med / bmed:.1f}x {base.split(':')[0]} "
            f"| {cpu * 1000:.0f} ms | {cpu / bcpu:.1f}x |"
        )
    return 0


def _without_tables(text: str) -> str:
    """A PBN text without its OptimumResultTable (and the table's rows), OptimumScore and ParContract."""
    import re

    kept, in_table = [], False
    for line in text.splitlines():
        if line.startswith("["):
            in_table = line.startswith("[OptimumResultTable")
            if in_table or line.startswith(("[OptimumScore", "[ParContract")):
                continue
        elif in_table and re.match(r"^\s*[NESW]\s+[NTSHDC]+\s+\d+\s*$", line):
            continue
        kept.append(line)
    return "\n".join(kept) + "\n"


def _thousand_boards(path: Path) -> None:
    """1,000 boards of random deals written as PBN by bridgeview (its usual tags: 260 KB, the size of a
    session's hand records)."""
    import random

    sys.path.insert(0, str(ROOT))
    from bridgeview.formats.registry import write_file
    from bridgeview.model.board import Board
    from bridgeview.model.boardset import BoardSet
    from bridgeview.model.deal import Deal

    rng = random.Random(1000)
    write_file(BoardSet([Board.numbered(n, Deal.shuffled(rng)) for n in range(1, 1001)]), path, "pbn")


if __name__ == "__main__":
    raise SystemExit(main())
