"""Shared helpers for the UI tests (no tests here): boards, files in each format, a main window."""

from __future__ import annotations

import random
from pathlib import Path

from bridgeview.formats.registry import write_file
from bridgeview.model.auction import Call
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal

#: formats the UI tests open
UI_FORMATS = ("deals", "dx", "zrd", "bri", "pbn", "lin", "dup", "zbd")


random_deal = Deal.shuffled


def make_boards(n: int = 5, seed: int = 7, dd: bool = False, auction: bool = False) -> BoardSet:
    rng = random.Random(seed)
    boards = []
    for number in range(1, n + 1):
        kw = {}
        if dd:
            kw["dd"] = DDTable.from_rows([[rng.randint(0, 13) for _ in range(5)] for _ in range(4)])
        if auction:
            kw["auction"] = [Call.parse(c) for c in "1S P 2S P P P".split()]
        boards.append(Board.numbered(number, random_deal(rng), **kw))
    return BoardSet(boards)


def make_file(tmp_path: Path, fmt: str, n: int = 5, seed: int = 7, **kw) -> tuple[Path, BoardSet]:
    """A small file of ``n`` random boards in format ``fmt``."""
    from bridgeview.formats.registry import get

    codec = get(fmt)
    boards = make_boards(n, seed, dd=codec.caps.dd, **kw)
    path = tmp_path / f"boards.{codec.extensions[0]}"
    write_file(boards, path, fmt)
    return path, boards


def settings(tmp_path: Path):
    from PySide6.QtCore import QSettings

    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


def main_window(qtbot, tmp_path: Path):
    from bridgeview.ui.app import load_fonts
    from bridgeview.ui.mainwindow import MainWindow

    load_fonts()
    w = MainWindow(settings(tmp_path))
    qtbot.addWidget(w)
    w.resize(1280, 800)
    return w


def run_queued_zero_timers(qtbot) -> None:
    """Let every ``QTimer.singleShot(0, ...)`` started so far run: Qt fires zero timers in the order they
    were started, so one started now runs after them.  For a check that something did *not* happen
    after an event, without a fixed wait."""
    from PySide6.QtCore import QTimer

    fired: list[bool] = []
    QTimer.singleShot(0, lambda: fired.append(True))
    qtbot.waitUntil(lambda: bool(fired), timeout=5000)
