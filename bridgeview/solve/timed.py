"""Double-dummy solving with a time limit per deal.

DDS cannot be interrupted inside a call, and a few deals take it minutes (the
DDS test deal "Thomas 2" over one).  A command that solves on the way (render,
the GUI's current board) or a batch (``solve``) must not wait on such a deal:
here DDS runs in child processes that solve one deal at a time and send each
table back as soon as it is done.  A child watches the CPU time its deal has
taken (not the wall clock, which a busy machine stretches); past the limit it
says so and ends, losing nothing but that deal, and a fresh child goes on with
the deals it had not started.  So a slow deal costs only itself, and no deal
is ever solved twice.

:func:`solve_within` is the one engine: ``bridgeview solve`` runs it on a
:class:`SolverPool` (one single-threaded child a core, fed deal by deal, so no
core waits for a batch's slowest deal), the GUI, ``render`` and printing on
one child with DDS's threads on every core (the board the user waits for).
Deals that run out of time come back as "slow" (no table).  A pool with more children than
deals gives each deal the cores the idle children would leave.  The children are forked where
that is safe (the command line: :func:`fork_is_safe`), else started afresh.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from ..interrupts import held_ctrl_c
from ..model.ddtable import DDTable
from ..model.deal import Deal
from . import dds

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

#: seconds of DDS work a deal may take before it is given up (``--dd-timeout``)
DEFAULT_TIMEOUT = 20.0
#: seconds a fresh child process may take to start (importing endplay) before solving is given up
START_TIMEOUT = 60.0
#: a child that sends nothing for this many times the time limit (in wall seconds) is taken for
#: hung and killed, its deal given up: the limit itself is CPU time, watched inside the child
WALL_FACTOR = 10
#: the shortest wait (s) before a silent child is taken for hung, however short the limit
MIN_BACKSTOP = 60.0
#: deals a child is sent ahead, so it never waits for the parent between two deals
AHEAD = 2


#: a deal solved once when a child starts (one suit a hand: instant)
_WARM_UP = Deal((0x1FFF << 39, 0x1FFF << 26, 0x1FFF << 13, 0x1FFF))


#: what solves one deal in a child: (deal, DDS threads) -> its table, None when it cannot be solved
SolveFn = Callable[[Deal, int | None], DDTable | None]

#: this process's ends of the pipes to its children.  A forked child has copies of them all (its own pipe's
#: included) and closes them first thing: a copy of its own pipe's far end would keep the pipe open when this
#: process dies (kill -9), and the child, which ends when its pipe closes, would wait on it for ever
_PARENT_ENDS: set[Connection] = set()


class SolverUnavailable(Exception):
    """The child process could not be started or DDS is not installed."""


def available_cores() -> int:
    """The cores this process may run on (its affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def fork_available() -> bool:
    """Whether this process may fork children at all: Linux (macOS's system libraries do not survive a
    fork) and no Qt loaded (its threads: the window, the tests).  :func:`fork_is_safe` asks more of a
    process that forks DDS children; a local Dask cluster's workers ask this much
    (:func:`.chunks.worker_start_method`)."""
    import multiprocessing
    import sys

    if not sys.platform.startswith("linux") or "fork" not in multiprocessing.get_all_start_methods():
        return False
    return not any(name.startswith("PySide6") for name in sys.modules)


def fork_is_safe() -> bool:
    """Whether a child may be forked from this process rather than started afresh (spawned).

    A forked child starts in a millisecond with this package already imported; a spawned one
    starts a Python, imports the parent's main module and this package again, and spawning
    starts multiprocessing's resource-tracker process besides: on a one-board ``bridgeview
    solve`` that was most of the command's time.  Forking copies only the calling thread, so it
    is safe only in a process that runs no other thread that might hold a lock: Linux (macOS's
    system libraries do not survive a fork), no Qt loaded (its threads: the window, the tests),
    no DDS loaded here (its own worker threads), no second Python thread (a GUI's solver
    thread, pytest-xdist's worker) and no other thread of the process at all (a library's own,
    as numpy's OpenBLAS starts unless told ``OPENBLAS_NUM_THREADS=1``, as the command line does)."""
    import sys

    if not fork_available() or "endplay._dds" in sys.modules:
        return False
    if threading.active_count() != 1:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1  # the process's threads, native ones included
    except OSError:  # no /proc: native threads cannot be counted, so a child is spawned
        return False


@contextmanager
def started_deaf(spawned: bool) -> Iterator[None]:
    """Start a DDS child with SIGINT blocked in the starting thread: a blocked signal stays blocked through fork
    and exec, so a Ctrl+C in the child's first half second (a spawned child starts a Python and imports the
    package before :func:`_serve` ignores it) can no longer stop it with multiprocessing's traceback.

    In the main thread the press is also held at Python's level (:func:`~bridgeview.interrupts.held_ctrl_c`):
    where other threads run, one of them takes the signal and Python would raise KeyboardInterrupt in the main
    thread all the same, in the middle of a spawn (the child then died on a half-sent start) or between
    blocking and unblocking (leaving the signal blocked).  A press made meanwhile is not lost: it is passed on
    as the block ends, once the caller has the child.  multiprocessing's resource tracker, which a spawn starts
    first, unblocks the signal when it has started (it blocks it around its own start the same way): it is
    started before the signal is blocked here."""
    import signal

    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows: no process groups, no such press
        yield
        return
    if spawned:
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    with held_ctrl_c():
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)


def dds_table(deal: Deal, threads: int | None) -> DDTable | None:
    """What a child runs for each deal: one DDS call with ``threads`` threads (None: one per core)."""
    return dds.solve_tables([deal], jobs=threads)[0]


def _serve(
    conn: Connection, threads: int | None = None, solver: SolveFn | None = None
) -> None:  # pragma: no cover - child
    """The child: solve each deal it is sent, in order, sending its table back, until it gets None.

    A watchdog thread gives each deal ``limit`` seconds of CPU time (per DDS thread); past it the
    child sends ("slow", position, seconds) and ends at once, so the deals queued behind the slow
    one were never started and the parent gives them to a fresh child.  ``solver`` stands in for
    DDS (tests count its calls and make it hang).  When the parent is gone (killed), the child ends
    quietly: there is nobody to answer."""
    import signal

    # Ctrl+C on a terminal reaches the whole process group: it is the parent's to handle (it stops the
    # children on its way out); a child stopped by it mid-deal printed a traceback.  The child was started with
    # SIGINT blocked (:func:`started_deaf`): ignored now, a press made meanwhile is dropped, and it is unblocked
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    for inherited in list(_PARENT_ENDS):  # (forked: copies of the parent's ends; spawned: none)
        inherited.close()
    _PARENT_ENDS.clear()
    try:
        _answer(conn, threads, solver)
    except (EOFError, OSError):  # the pipe closed under a send or a receive: the parent has gone
        pass


def _answer(conn: Connection, threads: int | None, solver: SolveFn | None) -> None:  # pragma: no cover - child
    """:func:`_serve`'s work, which stops at a closed pipe with EOFError or OSError (BrokenPipeError)."""
    try:
        if solver is None:
            # loads DDS's binding alone (the rest of endplay costs 0.6 s a child to import), and DDS sets up
            # its search memory now, not on a deal's clock
            dds.solve_tables([_WARM_UP], jobs=threads)
    except Exception as e:
        conn.send(("error", None, f"{type(e).__name__}: {e}"))
        return
    conn.send(("ready", None, None))
    parent = os.getppid()
    lock = threading.Condition()
    current: list[tuple[int, float, float, float] | None] = [
        None
    ]  # (position, CPU seconds at its start, limit, DDS threads) of the deal being solved

    def watch() -> None:
        with lock:
            while True:
                cur = current[0]
                if cur is None:
                    lock.wait()
                    continue
                position, cpu0, limit, per_thread = cur
                used = (time.process_time() - cpu0) / per_thread
                if used > limit:
                    try:
                        conn.send(("slow", position, used))
                    except OSError:  # the parent has gone
                        pass
                    os._exit(0)
                if os.getppid() != parent:  # the parent was killed mid-deal: nobody wants this table
                    os._exit(0)
                # the deal cannot use more than one CPU second a wall second per thread: nothing to see sooner
                # (but a look at the parent once a second)
                lock.wait(max(0.02, min(1.0, limit - used)))

    threading.Thread(target=watch, daemon=True, name="bridgeview-dds-watchdog").start()
    while True:
        msg = conn.recv()
        if msg is None:
            return
        position, hands, limit, deal_threads = msg
        deal_threads = deal_threads or threads
        with lock:
            current[0] = (position, time.process_time(), limit, float(deal_threads or available_cores()))
            lock.notify()
        reply: tuple[str, int, object]
        try:
            table = (solver or dds_table)(Deal(tuple(hands)), deal_threads)
            reply = ("ok", position, table.tricks if table is not None else None)
        except Exception as e:
            reply = ("error", position, f"{type(e).__name__}: {e}")
        with lock:
            current[0] = None
            conn.send(reply)


class SolverProcess:
    """DDS in a child process that solves deals one at a time and can be abandoned at any moment.

    ``threads`` is DDS's thread count in the child (None: one per core); ``solver`` a stand-in
    for DDS (a module-level function, as :func:`dds_table`, that the child can import)."""

    def __init__(self, threads: int | None = None, solver: SolveFn | None = None) -> None:
        self.threads = threads
        self.solver = solver
        self._proc: BaseProcess | None = None
        self._conn: Connection | None = None
        #: positions sent to the child and not answered yet, in the order it solves them
        self.pending: deque[int] = deque()
        #: when the child was last heard from, or given work while idle (time.monotonic)
        self.heard = 0.0
        #: the launched child said it has loaded DDS (:meth:`wait_ready`)
        self.ready = False
        #: stopped for good (:meth:`kill_process` with ``retire``): :meth:`launch` refuses
        self.retired = False

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.is_alive()

    def launch(self) -> None:
        """Start the child (without waiting for it to be ready: several start side by side)."""
        import multiprocessing  # here: importing this module (for its limits) must stay cheap for the window

        if self.retired:
            raise SolverUnavailable("the double-dummy solver was stopped")

        ctx = multiprocessing.get_context("fork") if fork_is_safe() else multiprocessing.get_context("spawn")
        if self._conn is not None:  # a child that died on its own (killed from outside): let its pipe go
            self.kill()
        parent, child = ctx.Pipe()
        proc = ctx.Process(target=_serve, args=(child, self.threads, self.solver), daemon=True, name="bridgeview-dds")
        _PARENT_ENDS.add(parent)
        # (a Ctrl+C held while the child starts arrives as this block ends: the child is known by then, so
        # kill() and abandon_shared reach it)
        with started_deaf(spawned=ctx.get_start_method() == "spawn"):
            try:
                proc.start()
            except BaseException:
                _PARENT_ENDS.discard(parent)
                parent.close()
                raise
            finally:
                child.close()
            self._proc, self._conn = proc, parent  # known at once, so abandon_shared can kill a starting child
            self.pending.clear()
            self.ready = False

    def wait_ready(self) -> None:
        """Wait for a launched child to have loaded DDS; SolverUnavailable when it cannot."""
        parent = self._conn
        if parent is None or not parent.poll(START_TIMEOUT):
            self.kill()
            raise SolverUnavailable("the double-dummy solver did not start")
        try:
            kind, _, text = parent.recv()
        except (EOFError, OSError):
            kind, text = "error", "the double-dummy solver stopped while starting"
        if kind != "ready":
            self.kill()
            raise SolverUnavailable(text)
        self.ready = True

    def send(self, position: int, deal: Deal, limit: float, threads: int | None = None) -> None:
        """Queue ``deal`` (known to the caller as ``position``) for the child, with its CPU time limit
        (per DDS thread) and the DDS threads to solve it with (None: the child's own number)."""
        assert self._conn is not None
        if not self.pending:
            self.heard = time.monotonic()
        self._conn.send((position, deal.hands, limit, threads))
        self.pending.append(position)

    def receive(self) -> tuple[str, int | None, object]:
        """The child's next answer: ("ok", position, tricks or None), ("slow", position, seconds) or
        ("error", position, text); SolverUnavailable when the child is gone."""
        assert self._conn is not None
        try:
            msg: tuple[str, int | None, object] = self._conn.recv()
        except (EOFError, OSError):
            self.kill()
            raise SolverUnavailable("the double-dummy solver stopped") from None
        self.heard = time.monotonic()
        return msg

    def connection(self) -> Connection:
        assert self._conn is not None
        return self._conn

    def kill_process(self, retire: bool = False) -> None:
        """Kill the child's process and no more: a thread waiting on its pipe hears it close and ends (its
        pipe is let go by :meth:`kill` or :meth:`close`, from that thread or once it has ended).  ``retire``:
        no child is launched here again (a thread that had not yet looked would otherwise start a fresh one)."""
        self.retired = self.retired or retire
        proc = self._proc
        if proc is not None:
            proc.kill()
            proc.join(5)

    def kill(self) -> None:
        """Abandon the child (and whatever it is solving)."""
        self.kill_process()
        if self._conn is not None:
            _PARENT_ENDS.discard(self._conn)
            try:
                self._conn.close()
            except OSError:  # its descriptor already gone (closed at exit by someone else): nothing to close
                pass
        self._proc = self._conn = None
        self.pending.clear()
        self.ready = False

    def close(self) -> None:
        """Stop the child politely when it is idle, else kill it."""
        if self._conn is not None and self._proc is not None and self._proc.is_alive() and not self.pending:
            try:
                self._conn.send(None)
                self._proc.join(2)
            except (OSError, ValueError):
                pass
        self.kill()

    def __enter__(self) -> SolverProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class SolverPool:
    """Several single-threaded DDS children fed deal by deal (``bridgeview solve``): each core
    solves whole deals, so none waits for another's slowest, and a slow deal stops one child only."""

    def __init__(self, size: int | None = None, threads: int | None = 1, solver: SolveFn | None = None) -> None:
        self.members = [SolverProcess(threads, solver) for _ in range(max(1, int(size or available_cores())))]

    def launch_early(self, deals: int) -> None:
        """Start the children ``deals`` deals can use now, without waiting for them: ``bridgeview solve``
        does so once it has read its file, so they load DDS on the other cores while it imports numpy and
        sets the run up, and they are forked before anything starts a thread (its progress line on a
        terminal), which would leave children started later to be spawned (:func:`fork_is_safe`)."""
        for p in self.members[: max(0, deals)]:
            if not p.running:
                p.launch()

    def close(self) -> None:
        for p in self.members:
            p.close()

    def kill(self) -> None:
        for p in self.members:
            p.kill()

    def __enter__(self) -> SolverPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_SHARED: SolverProcess | None = None
_SHARED_LOCK = threading.Lock()


@contextmanager
def shared_process() -> Iterator[SolverProcess]:
    """The one child process the GUI's solver threads share, held for the ``with`` block
    (DDS runs one request at a time anyway; one child is started once, not per window)."""
    with _SHARED_LOCK:
        yield _shared()


def _shared() -> SolverProcess:
    """The shared child's :class:`SolverProcess`, made on first use (call with :data:`_SHARED_LOCK` held)."""
    global _SHARED
    if _SHARED is None:
        _SHARED = SolverProcess()
        atexit.register(_SHARED.close)
    return _SHARED


def start_shared() -> None:
    """Start the shared child now, from the calling thread, when it is not running and nobody holds it
    (never waits for it: a thread may be solving a slow deal in it)."""
    if not _SHARED_LOCK.acquire(blocking=False):
        return
    try:
        shared = _shared()
        if not shared.running:
            shared.launch()
    finally:
        _SHARED_LOCK.release()


def abandon_shared() -> None:
    """Kill the shared child without waiting for its lock (the app is quitting): a thread waiting
    on it sees the pipe close at once and gives up with SolverUnavailable."""
    if _SHARED is not None:
        _SHARED.kill_process()  # (joined: the child no longer counts as running, a later call starts a fresh one)


@dataclass
class TimedResult:
    """Tables by position in the deals given; ``slow``: positions that ran out of time."""

    tables: list[DDTable | None]
    slow: list[int] = field(default_factory=list)


def _start(members: list[SolverProcess], needed: int) -> None:
    """Start as many more children as ``needed`` deals can use, side by side (each imports DDS)."""
    fresh = [p for p in members if not p.running][: max(0, needed - sum(p.running for p in members))]
    for p in fresh:
        p.launch()
    for p in members:
        if p.running and not p.ready:  # launched here, or early (:meth:`SolverPool.launch_early`)
            p.wait_ready()


def _threads_a_deal(pool: SolverProcess | SolverPool, deals: int) -> int | None:
    """DDS threads for each of ``deals`` deals in ``pool``: a pool's own (one a child) unless it has more
    children than deals, when the cores the idle children would leave go to the deals (a one-board
    ``bridgeview solve`` on two cores solves its deal with two threads, in 0.6x the time), never more threads
    than the machine's cores share out among the deals (``--jobs 8`` on two cores: the time limit is per
    thread, and eight would stretch it fourfold); None: a single child's own."""
    if isinstance(pool, SolverProcess) or not deals or deals >= len(pool.members):
        return None
    own = pool.members[0].threads
    if own is None:
        return None
    return max(1, min(available_cores() // deals, own * (len(pool.members) // deals)))


def solve_within(
    deals: Sequence[Deal],
    timeout: float = DEFAULT_TIMEOUT,
    *,
    jobs: int | None = None,
    progress: Callable[[int, int], bool | None] | None = None,
    on_slow: Callable[[int], None] | None = None,
    on_table: Callable[[int, DDTable | None], None] | None = None,
    process: SolverProcess | SolverPool | None = None,
) -> TimedResult:
    """Solve ``deals``, each given ``timeout`` seconds of DDS's CPU time, in ``process`` (a child
    or a pool of them; by default a child of its own with ``jobs`` DDS threads).

    ``on_table(position, table)`` hears each table as its deal is done (None: DDS cannot solve
    it), ``on_slow(position)`` each deal given up on; ``progress(done, total)`` returning False
    stops (with dds.SolveCancelled).  A deal is sent to a child once: a child that runs out of
    time ends without starting the deals queued behind the slow one, and those go to a fresh one."""
    from multiprocessing.connection import wait

    total = len(deals)
    result = TimedResult([None] * total)
    own = process is None
    pool = process if process is not None else SolverProcess(jobs)
    members = [pool] if isinstance(pool, SolverProcess) else pool.members
    queue = deque(i for i, d in enumerate(deals) if dds.unsolvable_reason(d) is None)
    done = total - len(queue)
    solvable = len(queue)
    threads = _threads_a_deal(pool, solvable)
    backstop = max(MIN_BACKSTOP, WALL_FACTOR * timeout)
    try:
        while queue or any(p.pending for p in members):
            running = sum(p.running for p in members)
            if queue and (running < min(len(members), len(queue)) or any(p.running and not p.ready for p in members)):
                _start(members, len(queue))
            for p in members:
                while p.running and len(p.pending) < AHEAD and queue:
                    i = queue.popleft()
                    p.send(i, deals[i], timeout, threads)
            busy = [p for p in members if p.pending]
            wait_for = min(p.heard for p in busy) + backstop - time.monotonic()
            ready = wait([p.connection() for p in busy], timeout=max(0.0, wait_for))
            for p in busy:
                if p.connection() in ready:
                    kind, position, payload = p.receive()
                elif time.monotonic() - p.heard > backstop:  # silent far past its limit: hung, given up
                    kind, position, payload = "slow", p.pending[0], backstop
                else:
                    continue
                if kind == "error":
                    raise SolverUnavailable(str(payload))
                if not p.pending or position != p.pending[0]:
                    raise SolverUnavailable("the double-dummy solver answered out of turn")
                p.pending.popleft()
                if kind == "slow":
                    queue.extendleft(reversed(p.pending))  # never started: a fresh child takes them
                    p.kill()
                    result.slow.append(position)
                    if on_slow is not None:
                        on_slow(position)
                else:
                    rows = cast("list[list[int]] | None", payload)
                    table = DDTable(tuple(tuple(r) for r in rows)) if rows is not None else None
                    result.tables[position] = table
                    if on_table is not None:
                        on_table(position, table)
                done += 1
                if progress is not None and progress(done, total) is False:
                    raise dds.SolveCancelled()
        if progress is not None and not solvable:
            progress(total, total)  # nothing DDS could solve: still say the set is done
    finally:
        for p in members:
            if p.pending:  # stopped half way: what a child is still on must not reach the next caller
                p.kill()
        if own:
            pool.close()
    result.slow.sort()
    return result


def solve_table_within(
    deal: Deal, timeout: float = DEFAULT_TIMEOUT, process: SolverProcess | None = None
) -> tuple[DDTable | None, bool]:
    """One deal's table and whether it ran out of time (then the table is None); in ``process`` (a child the
    caller started early and closes) or a child of its own."""
    result = solve_within([deal], timeout, process=process)
    return result.tables[0], bool(result.slow)


class DealInAdvance:
    """One deal solved in a child started now, while the caller does other work (``render`` starts Qt and
    builds its widgets meanwhile): :meth:`table` then gives what :func:`solve_table_within` would.

    The child is started before this object's thread, so where the process had no other thread it is
    forked (:func:`fork_is_safe`); the thread only feeds it the deal and waits for the answer.
    :meth:`close` stops the child, whatever it is doing, and lets the thread end."""

    def __init__(self, deal: Deal, timeout: float, solver: SolveFn | None = None) -> None:
        self.deal, self.timeout = deal, timeout
        # DDS's threads on every core but the one the caller keeps busy meanwhile: on two cores, DDS's second
        # thread took the caller's core from it (``render`` of a board without its table: median 0.29 s, now 0.27)
        self.process = SolverProcess(threads=max(1, available_cores() - 1), solver=solver)
        self.process.launch()
        self._done = threading.Event()
        self._result: tuple[DDTable | None, bool] | None = None
        self._error: Exception | None = None
        threading.Thread(target=self._solve, daemon=True, name="bridgeview-dds-ahead").start()

    def _solve(self) -> None:
        try:
            self._result = solve_table_within(self.deal, self.timeout, self.process)
        except Exception as e:  # (told by table(): a thread's error would only be printed)
            self._error = e
        finally:
            self._done.set()

    def wait(self) -> None:
        """Wait until the child has answered (or given up, or been stopped): :meth:`table` then waits no more."""
        self._done.wait()

    def table(self, deal: Deal, timeout: float) -> tuple[DDTable | None, bool]:
        """``deal``'s table and whether it ran out of time, as :func:`solve_table_within` says (and
        SolverUnavailable when DDS could not solve it); the answer worked out in advance when it is for this
        deal and time limit, else solved now (the advance child stopped first)."""
        if deal.hands != self.deal.hands or timeout != self.timeout:
            self.close()
            return solve_table_within(deal, timeout)
        self.wait()
        if self._result is None:
            if isinstance(self._error, SolverUnavailable):
                raise self._error
            raise SolverUnavailable(f"the double-dummy solver failed: {self._error}")
        return self._result

    def close(self) -> None:
        """Stop the child (its thread then hears the pipe close and ends), then let its pipe go."""
        self.process.kill_process(retire=True)
        self._done.wait(5)
        self.process.close()
