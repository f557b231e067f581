"""Helpers shared by sub-commands: a terminal progress bar, argument types, Qt kept quiet."""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

from ..interrupts import held_ctrl_c
from ..model.text import duration as duration  # (re-exported: the commands' one wording of a time)

if TYPE_CHECKING:
    from PySide6.QtCore import QMessageLogContext, QtMsgType

    from ..formats.codec import Content, ReadOptions
    from ..model.boardset import BoardSet

    #: what Qt calls with each of its messages
    MessageHandler = Callable[[QtMsgType, QMessageLogContext, str], object]

#: seconds a command waits for DDS on a deal (``--dd-timeout``); equal to solve.timed.DEFAULT_TIMEOUT,
#: written here so that building the command line imports no solver code
DD_TIMEOUT = 20.0
#: seconds to find a Dask scheduler (``--connect-timeout``); equal to solve.connect.CONNECT_TIMEOUT, for the same reason
CONNECT_TIMEOUT = 20.0
MAX_START_BOARD = 10**9  # far above any format's limit, far below numpy's int64 board-number arrays


#: the names of the process's own standard output (links to its descriptor 1)
_STDOUT_NAMES = frozenset({"/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"})


def names_standard_output(path: str) -> bool:
    """Whether ``path`` names this process's standard output by a link (``/dev/stdout``): written as ``-`` is.  Saved
    as a file, the link was followed to the file the shell had redirected it to, which was replaced: what the
    shell had written there before (``{ echo header; bridgeview convert x.pbn /dev/stdout; } > out``) was lost."""
    import os

    return os.path.normpath(os.path.abspath(path)) in _STDOUT_NAMES


def board_number(text: str) -> int:
    """argparse type for ``--start-board``: 1 to MAX_START_BOARD (else a usage error, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid board number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"board numbers start at 1, not {value}")
    if value > MAX_START_BOARD:
        raise argparse.ArgumentTypeError(f"board numbers go up to {MAX_START_BOARD}, not {value}")
    return value


def seconds(text: str) -> float:
    """argparse type for ``--dd-timeout``: a positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(f"the time limit must be above 0 and at most a day, not {value:g}")
    return value


def import_qt(widgets: bool = False) -> None:
    """Import PySide6 (QtCore, QtGui, and QtWidgets with ``widgets``) with Ctrl+C held back
    (:func:`~bridgeview.interrupts.held_ctrl_c`)."""
    with held_ctrl_c():
        for name in ["PySide6.QtCore", "PySide6.QtGui"] + (["PySide6.QtWidgets"] if widgets else []):
            __import__(name)


def quiet_qt() -> MessageHandler | None:
    """Drop the offscreen platform's harmless chatter so only real errors reach stderr;
    returns the handler it replaced (restored when the command ends)."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, _context: QMessageLogContext, message: str) -> None:
        if "propagateSizeHints" in message or kind == QtMsgType.QtDebugMsg:
            return
        sys.stderr.write(message + "\n")

    return qInstallMessageHandler(handler)


def read_boards(path: str, fmt: str | None = None, options: ReadOptions | None = None) -> BoardSet:
    """Read ``path``, which a bridge command needs to hold boards: a cribbage game is a one-line error naming it."""
    from ..formats.errors import FormatError
    from ..formats.registry import read_file
    from ..model.boardset import BoardSet  # (not the cribbage model: 8 ms of every command's start)

    doc = read_file(path, fmt, options)
    if not isinstance(doc, BoardSet):
        raise FormatError("holds a cribbage game, not bridge boards", path=path)
    return doc


def say_ignored_options(doc: Content) -> None:
    """Tell the user on stderr about read options the file overrode (``--start-board`` on DUP)."""
    from ..formats.convert import ignored_options

    for note in ignored_options(doc):
        print(f"bridgeview: {note}", file=sys.stderr)


class Progress:
    """A progress bar on stderr, shown only on a terminal and only once work
    has taken longer than ``delay`` seconds.

    A background ticker redraws it, so the bar appears (and the elapsed time moves)
    even while a step that reports no counts runs -- reading a big text file,
    say; until the first count arrives the bar shows activity without a percentage.
    """

    TICK = 0.25  # seconds between redraws by the ticker

    def __init__(
        self, label: str, delay: float = 1.0, stream: TextIO | None = None, counts: bool = True, rate: str = ""
    ) -> None:
        self.label = label
        #: with a unit ("deals"), the bar also shows the speed and the time left
        self.rate = rate
        self._first: tuple[float, int] | None = None  # (time, count) of the first count: speed is measured from it
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.delay = delay
        self.counts = counts  # show "done/total" (else only the percentage)
        self.shown = False
        self.last = 0.0
        self.done: int | None = None
        self.total = 0
        self._width = 0
        self._counted = False  # has a count been drawn yet (the first one is drawn at once)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.enabled = self.stream.isatty()
        self._ticker: threading.Thread | None = None
        if self.enabled:
            self._ticker = threading.Thread(target=self._tick, name="bridgeview-progress", daemon=True)
            self._ticker.start()

    def __call__(self, done: int, total: int) -> bool:
        """Report progress; never asks to cancel (True), as a terminal has Ctrl-C for that."""
        if not self.enabled:
            return True
        self.done, self.total = max(done, self.done or 0), total
        now = time.monotonic()
        if self._first is None:
            self._first = (now, done)
        if now - self.start >= self.delay and (not self._counted or now - self.last >= 0.1 or done >= total):
            self._draw(now)
        return True

    def _tick(self) -> None:
        if self._stop.wait(self.delay):
            return
        while not self._stop.is_set():
            now = time.monotonic()
            if now - self.last >= self.TICK:
                self._draw(now)
            self._stop.wait(self.TICK)

    def _draw(self, now: float) -> None:
        with self._lock:
            if self._stop.is_set() and self.shown:
                return
            self.last = now
            self.shown = True
            width = 30
            elapsed = f"{now - self.start:5.1f} s"
            if self.done is None:  # no count yet: a block sweeping across the bar
                pos = int((now - self.start) / self.TICK) % (2 * (width - 3))
                pos = pos if pos < width - 3 else 2 * (width - 3) - pos
                bar = " " * pos + "###"
                text = f"{self.label} [{bar:<{width}}] {elapsed}"
            else:
                self._counted = True
                frac = min(1.0, self.done / self.total) if self.total else 1.0
                bar = "#" * int(frac * width)
                count = f" {self.done}/{self.total}" if self.counts else ""
                text = f"{self.label} [{bar:<{width}}]{count} {frac:6.1%} {elapsed}{self._speed(now)}"
            pad = " " * max(0, self._width - len(text))
            self._width = len(text)
            self.stream.write(f"\r{text}{pad}")
            self.stream.flush()

    def note(self, text: str) -> None:
        """A line of news on the stream (``bridgeview: board 7 is slow ...``), above the bar if it is shown."""
        with self._lock:
            if self.shown:
                self.stream.write("\r" + " " * self._width + "\r")
                self._width = 0
            self.stream.write(f"bridgeview: {text}\n")
            self.stream.flush()
        if self.shown:
            self._draw(time.monotonic())

    def _speed(self, now: float) -> str:
        """ ", 7.1 deals/s, 1 h 02 min left" once something was done since the first count."""
        if not self.rate or self._first is None or self.done is None:
            return ""
        t0, d0 = self._first
        if self.done <= d0 or now <= t0:
            return ""
        speed = (self.done - d0) / (now - t0)
        left = max(0.0, (self.total - self.done) / speed)
        return f", {speed:.1f} {self.rate}/s, {duration(left)} left"

    def close(self) -> None:
        """Stop the ticker and end the bar's line (if it was shown)."""
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        with self._lock:
            if self.shown:
                self.stream.write("\n")
                self.stream.flush()
                self.shown = False
