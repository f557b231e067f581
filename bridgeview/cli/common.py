"""Helpers shared by sub-commands: a terminal progress bar."""

from __future__ import annotations

import argparse
import sys
import time

MAX_START_BOARD = 10**9  # far above any format's limit, far below numpy's int64 board-number arrays


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


class Progress:
    """A progress bar on stderr, shown only on a terminal and only once work
    has taken longer than ``delay`` seconds."""

    def __init__(self, label: str, delay: float = 1.0, stream=None) -> None:
        self.label = label
        self.stream = stream or sys.stderr
        self.start = time.monotonic()
        self.delay = delay
        self.shown = False
        self.last = 0.0
        self.enabled = hasattr(self.stream, "isatty") and self.stream.isatty()

    def __call__(self, done: int, total: int) -> bool:
        """Report progress; returns False never (no cancel on the terminal)."""
        if not self.enabled:
            return True
        now = time.monotonic()
        if now - self.start < self.delay or now - self.last < 0.1:
            return True
        self.last = now
        self.shown = True
        frac = done / total if total else 1.0
        width = 30
        bar = "#" * int(frac * width)
        self.stream.write(f"\r{self.label} [{bar:<{width}}] {done}/{total} {frac:6.1%}")
        self.stream.flush()
        return True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()
