"""``bridgeview render``: draw a board (or the whole window) offscreen to a PNG."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..formats.errors import FormatError
from ..interrupts import held_ctrl_c
from ..model.boardset import BoardSet
from .common import DD_TIMEOUT, import_qt, quiet_qt, seconds

if TYPE_CHECKING:
    from PySide6.QtGui import QPixmap
    from PySide6.QtWidgets import QWidget

    from ..model.board import Board
    from ..solve.timed import DealInAdvance
    from ..ui.boardset.view import DocumentView
    from ..ui.diagram.hand_diagram import HandDiagram
    from ..ui.dialogs import Button
    from ..ui.mainwindow import MainWindow

NAME = "render"
ORDER = 60
HELP = "draw a board's diagram (or the whole window) to a PNG image"
DESCRIPTION = (
    "Draw board N of FILE offscreen: the hand diagram with its double-dummy grid, or with --window the "
    "whole main window. --step K shows the position after K cards of the play. For cribbage files use "
    "--deal N instead of --board."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument("--board", type=int, metavar="N", help="board number to draw (default: the first board)")
    p.add_argument("--deal", type=int, metavar="N", help="cribbage files: the deal to draw (1-based)")
    p.add_argument(
        "--step",
        type=int,
        default=0,
        metavar="K",
        help="show the position after K cards (cribbage: step K of the deal's movie, 0 = the cards dealt)",
    )
    p.add_argument("--window", action="store_true", help="draw the whole main window with FILE open")
    p.add_argument("--width", type=int, metavar="W", help="image width in pixels")
    p.add_argument("--height", type=int, metavar="H", help="image height in pixels")
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")
    p.add_argument(
        "-o", "--output", required=True, metavar="OUT.png", help="the PNG file to write (its name ends in .png)"
    )
    p.add_argument("--force", action="store_true", help="replace OUT.png even if it is write-protected")
    p.add_argument(
        "--dd-timeout",
        type=seconds,
        default=DD_TIMEOUT,
        metavar="S",
        help=f"seconds to let the double-dummy solver work before drawing without its table (default {DD_TIMEOUT:g})",
    )


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    return _run(args)


def _drawn(draw: Callable[[], int]) -> int:
    """``draw()`` in the running Qt application (made now), the offscreen platform's chatter kept off stderr."""
    import_qt(widgets=True)
    from PySide6.QtCore import qInstallMessageHandler

    previous = quiet_qt()
    try:
        with held_ctrl_c():  # (see there: a press while Qt sets itself up, or makes enums, left it half made)
            from ..ui.app import application

            application()
        return draw()
    finally:
        qInstallMessageHandler(previous)


def _say_slow(board: Board | None, seconds: float) -> None:
    label = f"board {board.number}" if board is not None and board.number is not None else "the board"
    print(
        f"bridgeview: {label}: the double-dummy solver took longer than {seconds:g} s; drawn without its table",
        file=sys.stderr,
    )


def _run(args: argparse.Namespace) -> int:
    from ..formats.registry import detect, get, read_file

    codec = get(args.from_fmt) if args.from_fmt else detect(args.file)
    if args.step < 0:
        raise FormatError("--step must be 0 or more", path=args.file)
    for name, value in (("width", args.width), ("height", args.height)):
        if value is not None and not 50 <= value <= 10000:
            raise FormatError(f"--{name} must be between 50 and 10000 pixels", path=args.file)
    # a PNG file by name: ``-`` was written as a file named "-", and any other name was taken, so that
    # ``render deals.pbn -o deals.pbn`` replaced the deal file with a picture
    if not args.output.lower().endswith(".png"):
        raise FormatError("render writes a PNG image: give the output a name ending in .png", path=args.output)
    from ..formats.atomic import check_target

    check_target(args.output, args.force)  # (a folder missing or not ours to write in: said before any work)
    doc = read_file(args.file, codec.name)
    if not isinstance(doc, BoardSet):  # a cribbage game
        game = doc

        def draw_game() -> int:
            with held_ctrl_c():  # (Qt's work, short and without waits: see held_ctrl_c)
                from ..ui.cribbage.view import render_cribbage

                deal = args.deal if args.deal is not None else (args.board if args.board is not None else 1)
                render_cribbage(
                    game, deal - 1, args.step, args.output, args.width or 900, args.height or 600, force=args.force
                )
            return 0

        return _drawn(draw_game)
    if not len(doc):
        raise FormatError("the file holds no boards", path=args.file)
    index = _board_index(doc, args.board, args.file)
    if args.window:
        return _drawn(lambda: _render_window(args, index))
    ahead = _solved_ahead(doc[index], args.dd_timeout)  # (before Qt is imported: see there)
    try:
        return _drawn(lambda: _render_diagram(args, doc, index, codec.name, ahead))
    finally:
        if ahead is not None:
            ahead.close()


def _board_index(doc: BoardSet, number: int | None, path: str) -> int:
    if number is None:
        return 0
    from ..model.boardset import find_number

    i = find_number(doc, number)
    if i is None:
        raise FormatError(f"no board {number} in the file", path=path)
    return i


def _solved_ahead(board: Board, timeout: float) -> DealInAdvance | None:
    """The board's deal solved in a DDS child started before Qt is, when the diagram's grid needs its table:
    forked (Qt's threads would make it spawned, a new Python importing the package again), the child loads
    DDS and solves the deal on the other cores while this process starts Qt and builds the widgets; None
    when the board needs no solving or DDS cannot start (the grid then shows what the file holds, as it
    would)."""
    from ..solve.boards import needs_solving

    if not needs_solving(board):
        return None
    try:
        from ..solve.timed import DealInAdvance

        return DealInAdvance(board.deal, timeout)
    except (ImportError, OSError):
        return None


def _step(diagram: HandDiagram, board: Board, step: int, fmt: str, path: str) -> None:
    from ..ui.diagram.render_widget import show_step

    if step and not board.play:
        raise FormatError(f"board {board.number} has no play to step through", path=path)
    if step:
        shown = show_step(diagram, board, step, fmt)
        if shown < step:
            raise FormatError(f"board {board.number}: the play has only {shown} cards", path=path)


def _render_diagram(
    args: argparse.Namespace, doc: BoardSet, index: int, fmt: str, ahead: DealInAdvance | None = None
) -> int:
    """The board's diagram and grid as a PNG. Ctrl+C is held while Qt works (see
    :func:`~bridgeview.interrupts.held_ctrl_c`: a press while PySide6 made the widgets' classes ended in an
    AttributeError traceback, or was lost), not while DDS's answer is waited for, and a press stops the
    command before the image is saved."""
    with held_ctrl_c():
        from ..ui.diagram.render_widget import DiagramWithGrid

        board = doc[index]
        widget = DiagramWithGrid()
    if ahead is not None:
        ahead.wait()
    with held_ctrl_c():
        if not widget.set_board(board, solve=True, timeout=args.dd_timeout, ahead=ahead):
            _say_slow(board, args.dd_timeout)
        _step(widget.diagram, board, args.step, fmt, args.file)
        widget.resize(args.width or 900, args.height or 560)
        # grabbed unshown: grab() lays the widget out and paints it once into the image (shown, it was also
        # painted into a window's backing store first)
        image = widget.grab()
    return _save(image, args.output, args.force)


def _render_window(args: argparse.Namespace, index: int) -> int:
    with held_ctrl_c():  # (the window's modules make Qt's enums as they are imported: see held_ctrl_c)
        from PySide6.QtCore import QSettings

        from ..ui import dialogs
        from ..ui.analysis import solver
        from ..ui.mainwindow import MainWindow

    errors: list[str] = []

    def record(kind: str, parent: QWidget | None, title: str, text: str, *rest: object, **kw: object) -> Button:
        """No dialogs offscreen: what they would say is collected instead."""
        errors.append(text.replace("\n\n", " ").replace("\n", " "))
        return dialogs.Button.Cancel

    saved_message = dialogs.message
    dialogs.message = record
    solver.DD_TIMEOUT = args.dd_timeout
    try:
        # Ctrl+C held while Qt works (see held_ctrl_c), and taken while the window waits for its analysis
        with held_ctrl_c() as held, tempfile.TemporaryDirectory() as tmp:
            window = MainWindow(QSettings(os.path.join(tmp, "render.ini"), QSettings.Format.IniFormat))
            try:
                return _grab_window(window, args, index, errors, held.check)
            finally:
                window.close()
                window.deleteLater()
    finally:
        dialogs.message = saved_message


def _grab_window(
    window: MainWindow, args: argparse.Namespace, index: int, errors: list[str], stop: Callable[[], None]
) -> int:
    """Open the file in ``window``, show the board and grab it; ``stop()`` raises a held Ctrl+C."""
    from PySide6.QtWidgets import QApplication

    window.resize(args.width or 1280, args.height or 800)
    window.show()
    if not window.open_file(args.file):
        raise FormatError(errors[0] if errors else "cannot open the file", path=args.file)
    view = window.current_view()
    if view is None:  # (open_file opened a tab)
        raise FormatError(errors[0] if errors else "cannot open the file", path=args.file)
    view.select_board(index)
    QApplication.processEvents()
    if args.step:
        view.replay.go(args.step)
    if not _wait_for_analysis(view, args.dd_timeout + 10, stop):
        _say_slow(view.current_board(), args.dd_timeout)
    image = window.grab()
    stop()  # (a press while it was painted: nothing is saved)
    return _save(image, args.output, args.force)


def _wait_for_analysis(view: DocumentView, timeout: float = 20.0, stop: Callable[[], None] | None = None) -> bool:
    """Let the background solver fill the shown board's DD grid (and, when the board has play, the
    per-card trick counts of the position shown) so a screenshot shows what a user sees a moment later;
    ``stop()`` is called as it waits (a held Ctrl+C stops the command there)."""
    import time

    from PySide6.QtWidgets import QApplication

    solver = view.solver
    board = view.current_board()
    if board is None or not board.deal.is_complete:
        QApplication.processEvents()
        return True

    def slow() -> bool:
        return board.deal.hands in solver.slow_deals

    def done() -> bool:
        table = view.dd_grid.table()
        if table is None or not table.is_complete or not view.dd_grid.par_text():
            return False
        return not solver.annotations_pending()

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        QApplication.processEvents()
        if stop is not None:
            stop()
        if done():
            break
        if slow():
            QApplication.processEvents()
            return False
        time.sleep(0.02)
    QApplication.processEvents()
    return not slow()


def _save(pixmap: QPixmap, out: str, force: bool) -> int:
    from ..ui.imagefile import write_png

    write_png(pixmap, out, force)  # (whole or not at all: Qt's own save left a truncated PNG on a full disk)
    return 0
