"""Start-up: how long until the GUI shows the sample, and how long the light CLI commands take.

Run:  python bench/bench_startup.py [--runs N] [--platform offscreen|xcb]

Every measurement is a fresh process, timed from just before it is spawned
until it has done its job, and set against a baseline in the same run:

- the GUI (``bridgeview`` with no file: the bundled sample) until the first
  paint of the sample's hand diagram, against a bare PySide6 window (a
  QMainWindow with a label) until its first paint -- the part of start-up no
  Qt application can avoid;
- ``bridgeview --version`` and ``bridgeview info small.pbn`` (one board),
  against ``python -c pass``.

Runs go in turns (baseline, app, baseline, ...) so a change in the machine's
load hits both; medians and minima are printed as a Markdown table
(docs/bench-startup.md holds the last run).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: a child that prints the wall-clock time (ns) of the first paint of ``TARGET``'s class, then quits
_PAINT_PROBE = r"""
import sys, time
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow

class FirstPaint(QObject):
    def __init__(self, cls):
        super().__init__()
        self.cls = cls
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and type(obj).__name__ == self.cls:
            print(time.time_ns(), flush=True)
            QTimer.singleShot(0, QApplication.quit)
            QApplication.instance().removeEventFilter(self)
        return False

if sys.argv[1] == "bare":
    app = QApplication([sys.argv[0]])
    probe = FirstPaint("QLabel")
    app.installEventFilter(probe)
    win = QMainWindow()
    win.setCentralWidget(QLabel("bare PySide6 window"))
    win.resize(1280, 800)
    win.show()
    app.exec()
else:
    from bridgeview.ui.app import application
    app = application([sys.argv[0]])
    probe = FirstPaint("HandDiagram")
    app.installEventFilter(probe)
    from bridgeview.cli.main import main
    main([])
"""


def _env(platform: str, config: str) -> dict[str, str]:
    # as installed: pip compiles .pyc files at install time, so a user's start-up never compiles source
    # (a PYTHONDONTWRITEBYTECODE environment would add ~0.4 s of compiling to every run)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(QT_QPA_PLATFORM=platform, XDG_CONFIG_HOME=config)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return env


def time_paint(kind: str, env: dict[str, str]) -> float:
    """Seconds from spawning the process to the first paint of the window's content."""
    start = time.time_ns()
    proc = subprocess.run(
        [sys.executable, "-c", _PAINT_PROBE, kind], env=env, capture_output=True, text=True, timeout=120
    )
    if proc.returncode != 0 or not proc.stdout.strip():
        raise SystemExit(f"{kind}: {proc.stderr.strip() or 'no paint'}")
    return (int(proc.stdout.split()[0]) - start) / 1e9


def time_command(args: list[str], env: dict[str, str]) -> float:
    """Seconds a command takes, start to exit."""
    start = time.perf_counter()
    proc = subprocess.run(args, env=env, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args)}: {proc.stderr.strip()}")
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--platform", default=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        env = _env(args.platform, tmp)
        text = (ROOT / "resources" / "sample.pbn").read_text(encoding="utf-8")
        small = Path(tmp) / "small.pbn"
        small.write_text(text[: text.index("[Event", text.index("[Event") + 1)], encoding="utf-8")
        cli = [sys.executable, "-m", "bridgeview.cli.main"]
        jobs = {
            "bare PySide6 window, first paint": lambda: time_paint("bare", env),
            "bridgeview GUI, sample's diagram first painted": lambda: time_paint("app", env),
            "python -c pass": lambda: time_command([sys.executable, "-c", "pass"], env),
            "bridgeview --version": lambda: time_command([*cli, "--version"], env),
            "bridgeview info small.pbn": lambda: time_command([*cli, "info", str(small)], env),
        }
        for job in jobs.values():  # warm the page cache and write the .pyc files
            job()
        times: dict[str, list[float]] = {name: [] for name in jobs}
        for _ in range(args.runs):
            for name, job in jobs.items():
                times[name].append(job())
    load = os.getloadavg()[0]
    print(
        f"{args.runs} runs each, Qt platform {args.platform}, load average {load:.1f}, "
        f"Python {sys.version.split()[0]}\n"
    )
    print("| measurement | median | min | median vs baseline |")
    print("|---|---|---|---|")
    baselines = {
        "bridgeview GUI, sample's diagram first painted": "bare PySide6 window, first paint",
        "bridgeview --version": "python -c pass",
        "bridgeview info small.pbn": "python -c pass",
    }
    for name, values in times.items():
        med = statistics.median(values)
        base = baselines.get(name)
        ratio = (
            f"{med / statistics.median(times[base]):.1f}x ({name.split(',')[0]} / {base.split(',')[0]})"
            if base
            else "baseline"
        )
        print(f"| {name} | {med * 1000:.0f} ms | {min(values) * 1000:.0f} ms | {ratio} |")
    gui = statistics.median(times["bridgeview GUI, sample's diagram first painted"])
    extra = gui - statistics.median(times["bare PySide6 window, first paint"])
    print(f"\nGUI: sample shown {gui:.2f} s after start (target 1 s); {extra:.2f} s more than a bare window.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
