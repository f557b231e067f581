"""Solving for print: every board that lacks a DD table, each within a time limit.

DDS cannot be interrupted, so a deal it takes too long on would hang printing.
The solving runs in a worker thread one deal at a time (DDS itself in the
abandonable child process of :mod:`.timed`); the caller waits at
most ``time_limit`` seconds for each deal and, when one overruns, stops waiting
and prints the rest without double-dummy results (and says so).  Qt-free.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..model.board import Board
from ..model.ddtable import DDTable
from ..model.deal import Deal
from .timed import DEFAULT_TIMEOUT as DEFAULT_TIME_LIMIT  # one limit for every command that solves on the way

TICK = 0.1  # seconds between progress calls while a deal is being solved


@dataclass
class PrintTables:
    """What solving for print gave: ``tables`` by board index; ``overran`` the index of the
    deal that took longer than the limit (None if none did); ``skipped`` the boards not
    solved because of it; ``cancelled`` when the user stopped it."""

    tables: dict[int, DDTable] = field(default_factory=dict)
    overran: int | None = None
    skipped: list[int] = field(default_factory=list)
    cancelled: bool = False


#: what solves one deal for the sheets (DDS with a time limit; tests pass a stand-in)
DealSolver = Callable[[Deal], DDTable | None]


def _default_solver(deal: Deal) -> DDTable | None:
    """DDS in the shared child process of :mod:`.timed`, killed a little after the printer stops
    waiting: a deal given up on does not keep DDS busy in this process for minutes."""
    from .timed import shared_process, solve_within

    with shared_process() as proc:
        return solve_within([deal], DEFAULT_TIME_LIMIT + 1.0, process=proc).tables[0]


def start_shared_child() -> None:
    """On the command line (one thread: :func:`.timed.fork_is_safe`), start the shared DDS child now, from
    this thread, before the solving thread exists: it is then forked, where the solving thread would have
    had it spawned, a new Python importing the package again (60 ms of a small file's print).  Elsewhere
    (the window) the solving thread starts it, as before, and this thread never waits for it."""
    from .timed import fork_is_safe, start_shared

    if fork_is_safe():
        start_shared()


def tables_for_print(
    boards: Sequence[Board],
    *,
    progress: Callable[[int, int], bool | None] | None = None,
    time_limit: float = DEFAULT_TIME_LIMIT,
    solve: DealSolver | None = None,
) -> PrintTables:
    """DD tables of every board: the stored complete ones, the rest solved.

    ``progress(done, total)`` hears each solved deal (False cancels);
    ``solve(deal)`` defaults to DDS (tests pass a stand-in)."""
    from .boards import has_table, needs_solving

    out = PrintTables()
    todo = []
    for i, b in enumerate(boards):
        if has_table(b) and b.dd is not None:  # (has_table says so; this tells the type checker)
            out.tables[i] = b.dd
        elif needs_solving(b):
            todo.append(i)
    if not todo:
        return out
    if solve is None:
        start_shared_child()
    solve = solve or _default_solver
    results: queue.Queue[tuple[int, DDTable | None]] = queue.Queue()
    stop = threading.Event()

    def work() -> None:
        for i in todo:
            if stop.is_set():
                return
            try:
                results.put((i, solve(boards[i].deal)))
            except Exception:  # a deal DDS refuses is printed without a table
                results.put((i, None))

    threading.Thread(target=work, name="bridgeview-print-solver", daemon=True).start()
    try:
        total = len(todo)
        if progress is not None and progress(0, total) is False:
            out.cancelled = True
            out.skipped = list(todo)
            return out
        for done, i in enumerate(todo, 1):
            deadline = time.monotonic() + time_limit
            while True:  # short waits, so a GUI's progress callback keeps the window alive
                try:
                    _, table = results.get(timeout=min(TICK, time_limit))
                    break
                except queue.Empty:
                    if time.monotonic() >= deadline:
                        out.overran = i
                        out.skipped = todo[done - 1 :]
                        return out
                    if progress is not None and progress(done - 1, total) is False:
                        out.cancelled = True
                        out.skipped = todo[done - 1 :]
                        return out
            if table is not None:
                out.tables[i] = table
            if progress is not None and progress(done, total) is False and done < total:
                out.cancelled = True
                out.skipped = todo[done:]
                return out
    finally:  # (on every way out: cancelled, overrun, a progress callback that raised - a GUI closing)
        stop.set()
    return out
