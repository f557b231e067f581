"""Double-dummy solving with a time limit.

DDS cannot be interrupted inside a call, and a few deals take it minutes (the
DDS test deal "Thomas 2" over one).  A command that solves on the way (render,
the GUI's current board) or a batch (``solve``) must not wait on such a deal:
here DDS runs in a child process that is simply killed when it takes too long,
and started again for the next request.

:func:`solve_within` solves deals in batches; a batch that runs out of time is
solved again deal by deal, so one slow deal costs its own time limit and
leaves every other deal solved.  Deals that still run out of time come back
as "slow" (no table).
"""

from __future__ import annotations

import atexit
import multiprocessing
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..model.ddtable import DDTable
from ..model.deal import Deal
from . import dds

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

#: seconds a command waits for DDS before it goes on without the table (``--dd-timeout``)
DEFAULT_TIMEOUT = 20.0
#: seconds a fresh child process may take to start (importing endplay) before solving is given up
START_TIMEOUT = 60.0


#: a deal solved once when a child starts (one suit a hand: instant)
_WARM_UP = Deal((0x1FFF << 39, 0x1FFF << 26, 0x1FFF << 13, 0x1FFF))


class SolverUnavailable(Exception):
    """The child process could not be started or DDS is not installed."""


def _serve(conn) -> None:  # pragma: no cover - runs in the child process
    """The child: solve each batch of hands it is sent until it gets None."""
    try:
        dds.solve_tables([_WARM_UP])  # DDS sets up its search memory now, not on the clock of a request
    except Exception as e:  # noqa: BLE001 - report any import failure to the parent
        conn.send(("error", f"{type(e).__name__}: {e}"))
        return
    conn.send(("ready", None))
    while True:
        try:
            msg = conn.recv()
        except EOFError:
            return
        if msg is None:
            return
        hands, jobs = msg
        try:
            tables = dds.solve_tables([Deal(tuple(h)) for h in hands], jobs=jobs)
            conn.send(("ok", [t.tricks if t is not None else None for t in tables]))
        except Exception as e:  # noqa: BLE001 - a DDS error is an answer, not a dead child
            conn.send(("error", f"{type(e).__name__}: {e}"))


class SolverProcess:
    """DDS in a child process that can be abandoned when it takes too long."""

    def __init__(self) -> None:
        self._proc: BaseProcess | None = None
        self._conn: Connection | None = None

    def _start(self) -> None:
        ctx = multiprocessing.get_context("spawn")  # no fork: the parent may run Qt threads
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_serve, args=(child,), daemon=True, name="bridgeview-dds")
        proc.start()
        child.close()
        self._proc, self._conn = proc, parent  # known at once, so abandon_shared can kill a starting child
        if not parent.poll(START_TIMEOUT):
            self.kill()
            raise SolverUnavailable("the double-dummy solver did not start")
        try:
            kind, text = parent.recv()
        except (EOFError, OSError):
            kind, text = "error", "the double-dummy solver stopped while starting"
        if kind != "ready":
            self.kill()
            raise SolverUnavailable(text)

    def solve(self, deals: Sequence[Deal], timeout: float, jobs: int | None = None) -> list[DDTable | None] | None:
        """Tables of ``deals`` (None for a deal DDS cannot solve), or None when ``timeout``
        seconds pass first (the child is then killed).  SolverUnavailable when DDS fails."""
        if self._proc is None or not self._proc.is_alive():
            self._start()
        assert self._conn is not None
        self._conn.send(([d.hands for d in deals], jobs))
        if not self._conn.poll(timeout):
            self.kill()
            return None
        try:
            kind, payload = self._conn.recv()
        except (EOFError, OSError):
            self.kill()
            raise SolverUnavailable("the double-dummy solver stopped") from None
        if kind != "ok":
            raise SolverUnavailable(payload)
        return [DDTable(tuple(tuple(r) for r in t)) if t is not None else None for t in payload]

    def kill(self) -> None:
        """Abandon the child (and whatever it is solving)."""
        if self._proc is not None:
            self._proc.kill()
            self._proc.join(5)
        if self._conn is not None:
            try:
                self._conn.close()
            except OSError:  # its descriptor already gone (closed at exit by someone else): nothing to close
                pass
        self._proc = self._conn = None

    def close(self) -> None:
        """Stop the child politely when it is idle, else kill it."""
        if self._conn is not None and self._proc is not None and self._proc.is_alive():
            try:
                self._conn.send(None)
                self._proc.join(2)
            except (OSError, ValueError):
                pass
        self.kill()

    def __enter__(self) -> SolverProcess:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


_SHARED: SolverProcess | None = None
_SHARED_LOCK = threading.Lock()


@contextmanager
def shared_process() -> Iterator[SolverProcess]:
    """The one child process the GUI's solver threads share, held for the ``with`` block
    (DDS runs one request at a time anyway; one child is started once, not per window)."""
    global _SHARED
    with _SHARED_LOCK:
        if _SHARED is None:
            _SHARED = SolverProcess()
            atexit.register(_SHARED.close)
        yield _SHARED


def abandon_shared() -> None:
    """Kill the shared child without waiting for its lock (the app is quitting): a thread waiting
    on it sees the pipe close at once and gives up with SolverUnavailable."""
    proc = _SHARED._proc if _SHARED is not None else None
    if proc is not None:
        proc.kill()


@dataclass
class TimedResult:
    """Tables by position in the deals given; ``slow``: positions that ran out of time."""

    tables: list[DDTable | None]
    slow: list[int] = field(default_factory=list)


def solve_within(
    deals: Sequence[Deal],
    timeout: float = DEFAULT_TIMEOUT,
    *,
    jobs: int | None = None,
    batch: int = dds.MAX_TABLES,
    progress: Callable[[int, int], bool | None] | None = None,
    on_slow: Callable[[int], None] | None = None,
    process: SolverProcess | None = None,
) -> TimedResult:
    """Solve ``deals``, giving each batch (and then each deal of a batch that ran out of time)
    ``timeout`` seconds.  ``on_slow(position)`` hears each deal given up on as it happens;
    ``progress(done, total)`` returning False stops (with dds.SolveCancelled)."""
    total = len(deals)
    result = TimedResult([None] * total)
    own = process is None
    proc = process or SolverProcess()
    try:
        todo = [i for i, d in enumerate(deals) if dds.unsolvable_reason(d) is None]
        done = total - len(todo)
        batch = max(1, min(int(batch), dds.MAX_TABLES))
        for start in range(0, len(todo), batch):
            idx = todo[start : start + batch]
            tables = proc.solve([deals[i] for i in idx], timeout, jobs)
            if tables is None:  # one of them is slow: each on its own, so only the slow ones are lost
                tables = []
                for i in idx:
                    one = proc.solve([deals[i]], timeout, jobs) if len(idx) > 1 else None
                    if one is None:
                        result.slow.append(i)
                        if on_slow is not None:
                            on_slow(i)
                    tables.append(one[0] if one is not None else None)
            for i, t in zip(idx, tables, strict=True):
                result.tables[i] = t
            done += len(idx)
            if progress is not None and progress(done, total) is False:
                raise dds.SolveCancelled()
        if progress is not None and not todo:
            progress(total, total)
    finally:
        if own:
            proc.close()
    return result


def solve_table_within(deal: Deal, timeout: float = DEFAULT_TIMEOUT) -> tuple[DDTable | None, bool]:
    """One deal's table and whether it ran out of time (then the table is None)."""
    result = solve_within([deal], timeout)
    return result.tables[0], bool(result.slow)
