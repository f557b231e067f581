"""Running a script: chunks of deals, the limits, progress, stopping, and the second core.

Deals are made in chunks (a few thousand at first, then 65,536), each from its
own random stream, and the results are taken strictly in chunk order: with a
seed the deals are the same whatever the number of processes.  The produce and
generate limits cut the last chunk exactly where dealer would stop, so the
counts agree with dealer's (``Generated`` counts every deal looked at, up to and
including the last one produced).  Only the produced deals are kept, and only
when something needs them, so memory stays flat however many deals are made.

A run that will take more than about a second starts worker processes (forked on
Linux when the process has no other thread -- the command line --, else spawned:
safe beside Qt's threads) and keeps working itself while they do; a short one
never pays for them.  Stopping -- a cancel from the window, Ctrl+C on a terminal
-- ends the run after the chunk in hand, with everything produced so far.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import script as s
from .actions import Produced, action_expressions
from .dealing import Plan, RandomStream, deal_all, make_plan
from .evaluate import Deals, Evaluator

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

    import numpy as np

#: dealer's limits when neither the script nor the command line gives one
DEFAULT_GENERATE = 10_000_000
DEFAULT_PRODUCE_PRINTED = 40
FIRST_CHUNK = 4096
CHUNK = 65536
#: a run expected to take longer than this (seconds) starts worker processes
PARALLEL_AFTER = 1.0
#: with suit-length predeals: give up when this many deals in a row were thrown away
HOPELESS = 20_000_000


def chunk_size(index: int) -> int:
    """Deals dealt in chunk ``index``: small at first (a quick answer for small runs), then 65,536."""
    return min(CHUNK, FIRST_CHUNK << index)


@dataclass(frozen=True)
class Limits:
    produce: int
    generate: int


def limits(
    script: s.Script, produce: int | None = None, generate: int | None = None, *, outputs: bool = False
) -> Limits:
    """The run's limits: the command line's, else the script's, else dealer's defaults (40 deals
    produced when deals are printed -- or written to files -- else as many as generated)."""
    g = generate or script.generate or DEFAULT_GENERATE
    p = produce or script.produce or (DEFAULT_PRODUCE_PRINTED if script.prints_deals or outputs else g)
    return Limits(produce=p, generate=g)


@dataclass
class ChunkResult:
    """One chunk's outcome: how many deals it dealt, which of them the condition passed (their
    positions), and those deals with each action's values."""

    index: int
    generated: int
    positions: np.ndarray
    hands: np.ndarray
    values: list[list[np.ndarray]]


class Worker:
    """Deals and evaluates chunks of one script (in this process or in a worker process)."""

    def __init__(self, script: s.Script, seed: int | None) -> None:
        self.script = script
        self.seed = seed
        self.plan: Plan = make_plan(script)
        self.evaluator = Evaluator(script)
        self.expressions = [action_expressions(a) for a in script.effective_actions]

    def chunk(self, index: int) -> ChunkResult:
        import numpy as np

        stream = RandomStream(self.seed, index)
        hands, kept = deal_all(self.plan, stream, chunk_size(index))
        deals = Deals(hands, stream)
        passed = self.evaluator.condition(deals)
        if kept is None:
            generated = int(hands.shape[2])
            chosen = np.flatnonzero(passed)
            positions = chosen
        else:  # deals thrown away were never dealt: count and number only the kept ones
            generated = int(np.count_nonzero(kept))
            chosen = np.flatnonzero(passed & kept)
            positions = (np.cumsum(kept) - 1)[chosen]
        produced = np.ascontiguousarray(hands[:, :, chosen])
        produced_deals = Deals(produced, stream)  # one cache for all the actions' expressions
        values = [[self.evaluator.integers(e, produced_deals) for e in exprs] for exprs in self.expressions]
        return ChunkResult(index, generated, positions, produced, values)


@dataclass
class Progress:
    """How far a run has got, for a progress bar or the window's live count."""

    generated: int
    produced: int
    limits: Limits
    seconds: float

    @property
    def fraction(self) -> float:
        return max(self.generated / self.limits.generate, self.produced / self.limits.produce)

    @property
    def seconds_left(self) -> float | None:
        """The time left at the present speed, or None before there is a speed."""
        if self.seconds <= 0 or not self.generated:
            return None
        by_generated = (self.limits.generate - self.generated) * self.seconds / self.generated
        if not self.produced:
            return by_generated
        by_produced = (self.limits.produce - self.produced) * self.seconds / self.produced
        return min(by_generated, by_produced)


@dataclass
class Summary:
    generated: int
    produced: int
    seconds: float
    stopped: bool  # cancelled or interrupted before a limit was reached


def run(
    script: s.Script,
    limits_: Limits,
    consume: Callable[[Produced], object],
    *,
    seed: int | None = None,
    jobs: int | None = None,
    progress: Callable[[Progress], object] | None = None,
    cancel: threading.Event | None = None,
) -> Summary:
    """Make the deals: ``consume`` gets the produced ones in order, a batch a chunk.

    ``jobs`` is the most processes to use (None: one per core).  Ctrl+C (KeyboardInterrupt) and
    ``cancel`` stop the run with what was produced so far (``Summary.stopped``)."""
    start = time.monotonic()
    jobs = max(1, jobs if jobs is not None else cores())
    local = Worker(script, seed)
    generated = produced = 0
    hopeless = 0
    stopped = False
    pool: _Pool | None = None
    results: dict[int, ChunkResult] = {}
    next_index = 0  # the next chunk nobody was asked to make
    wanted = 0  # the next chunk to take
    enough = _chunks_for(limits_.generate, local.plan)  # chunks past this one cannot be needed (ahead of time)
    try:
        while generated < limits_.generate and produced < limits_.produce:
            if cancel is not None and cancel.is_set():
                stopped = True
                break
            if wanted not in results and wanted >= next_index:  # nobody has it yet: make it here
                next_index = wanted + 1
                results[wanted] = local.chunk(wanted)
            if pool is None and jobs > 1 and _worth_parallel(limits_, generated, produced, time.monotonic() - start):
                pool = _Pool.start(script, seed, jobs - 1)
            try:
                if pool is not None:
                    next_index = pool.fill(next_index, results, enough)
                if wanted not in results:
                    if pool is None or not pool.has(wanted):  # its worker is gone: make it here
                        results[wanted] = local.chunk(wanted)
                    elif len(results) < pool.ahead and next_index < enough:  # a worker makes it: make a later one
                        results[next_index] = local.chunk(next_index)
                        next_index += 1
                    elif not pool.ready:  # the workers are still starting: make it here, not wait
                        pool.forget(wanted)
                        results[wanted] = local.chunk(wanted)
                    else:  # a worker is on it: wait
                        pool.wait_for(wanted, results)
                    continue
            except WorkerFailed:  # a worker died (killed, out of memory): carry on here
                assert pool is not None
                pool.close()
                pool = None
                continue
            chunk = results.pop(wanted)
            wanted += 1
            generated, produced, batch = _take(chunk, limits_, generated, produced)
            hopeless = 0 if chunk.generated else hopeless + chunk_size(chunk.index)
            if hopeless >= HOPELESS:
                from .lexer import ScriptError

                raise ScriptError(
                    f"no deal met the predeal's suit lengths in {HOPELESS:,} tries: they are (nearly) impossible"
                )
            if batch.count:
                consume(batch)
            if progress is not None:
                progress(Progress(generated, produced, limits_, time.monotonic() - start))
    except KeyboardInterrupt:
        stopped = True
    finally:
        if pool is not None:
            pool.close()
    return Summary(generated, produced, time.monotonic() - start, stopped)


def _chunks_for(deals: int, plan: Plan) -> int:
    """How many chunks give ``deals`` deals, with room for the few thrown away (more, if they turn
    out to be needed, are made when they are); with suit-length predeals, which throw away many, no
    bound."""
    if plan.first_seat is not None or plan.checked:
        return 1 << 62
    wanted = deals * 1.01 + CHUNK
    total = index = 0
    while total < wanted:
        total += chunk_size(index)
        index += 1
    return index


def keep_freed_memory() -> None:
    """Ask the C library (glibc) to keep freed memory for reuse instead of handing it back and
    faulting it in again: a chunk's arrays are megabytes each, made and dropped every chunk, and
    with glibc's defaults that costs some 2,000 page faults a chunk, a third of the time.  Memory
    stays flat (the next chunk reuses what the last one freed).  The command line and the worker
    processes call this; the window's process keeps its defaults.  Elsewhere it does nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return
    m_trim_threshold, m_mmap_threshold = -1, -3
    mallopt(m_mmap_threshold, 64 << 20)  # arrays below 64 MB come from the heap ...
    mallopt(m_trim_threshold, 256 << 20)  # ... which keeps up to 256 MB of freed memory for the next chunk


def cores() -> int:
    """The cores this process may run on (its affinity where the system tells, else all)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        try:
            return max(1, len(affinity(0)))
        except OSError:
            pass
    return os.cpu_count() or 1


def _take(chunk: ChunkResult, limits_: Limits, generated: int, produced: int) -> tuple[int, int, Produced]:
    """The chunk's deals within the limits: dealer stops right after the last deal it may generate
    or the last one it must produce, whichever comes first."""
    import numpy as np

    room_generated = limits_.generate - generated
    room_produced = limits_.produce - produced
    positions = chunk.positions
    keep = int(np.searchsorted(positions, room_generated))  # produced deals within the generate limit
    keep = min(keep, room_produced)
    if keep == room_produced and keep:  # the last deal wanted is produced: stop right after it
        dealt = int(positions[keep - 1]) + 1
    else:
        dealt = min(chunk.generated, room_generated)
    values = [[v[:keep] for v in action] for action in chunk.values]
    batch = Produced(chunk.hands[:, :, :keep], values, produced)
    return generated + dealt, produced + keep, batch


def _worth_parallel(limits_: Limits, generated: int, produced: int, elapsed: float) -> bool:
    """Whether the rest of the run is likely to take longer than :data:`PARALLEL_AFTER` seconds."""
    if not generated or elapsed <= 0:
        return False
    left_generated = (limits_.generate - generated) * elapsed / generated
    left = left_generated if not produced else min(left_generated, (limits_.produce - produced) * elapsed / produced)
    return left > PARALLEL_AFTER


# -- worker processes ------------------------------------------------------------------------------
class WorkerFailed(Exception):
    """A worker process died or stopped answering; the run goes on without the workers."""


def _serve(connection: Connection, script: s.Script, seed: int | None) -> None:
    """A worker process: make the chunks the parent asks for, until it says None or goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    if hasattr(signal, "pthread_sigmask"):  # it started with Ctrl+C held back (see _Pool.start)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    keep_freed_memory()
    worker = Worker(script, seed)
    try:
        while True:
            index = connection.recv()
            if index is None:
                return
            try:
                connection.send((index, worker.chunk(index), None))
            except Exception as error:
                connection.send((index, None, error))
    except (EOFError, OSError, KeyboardInterrupt):
        return  # the parent is gone


class _Pool:
    """Worker processes, each fed chunk numbers through a pipe, two at a time, answering with the chunks.

    Plain pipes and no threads in the parent: nothing else competes with its own chunks for the
    interpreter, and a fork never happens in a process with threads."""

    def __init__(self, processes: list[BaseProcess], connections: list[Connection]) -> None:
        self.processes = processes
        self.connections = connections
        self.owner: dict[int, Connection] = {}  # chunk -> the connection of the worker making it
        self.queued: dict[Connection, list[int]] = {c: [] for c in connections}
        self.dropped: set[int] = set()  # chunks made here after all: their late answers are ignored
        #: chunks kept waiting at most (made here while a worker is late with the one wanted)
        self.ahead = 4 * len(connections)
        #: has a worker answered yet (a spawned one takes a while to start)
        self.ready = False

    @classmethod
    def start(cls, script: s.Script, seed: int | None, workers: int) -> _Pool | None:
        """Worker processes, or None when this Python cannot start them (a frozen bundle without
        multiprocessing support, say).  They start with Ctrl+C held back, then ignore it (the parent
        stops the run); the parent holds it back only while starting them, so none is lost."""
        import multiprocessing

        hold = threading.current_thread() is threading.main_thread() and hasattr(signal, "pthread_sigmask")
        held: Any = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hold else None
        processes: list[BaseProcess] = []
        connections: list[Connection] = []
        try:
            fork = _start_method() == "fork"
            context = multiprocessing.get_context("fork") if fork else multiprocessing.get_context("spawn")
            for _ in range(workers):
                mine, theirs = context.Pipe()
                process = context.Process(target=_serve, args=(theirs, script, seed), daemon=True)
                process.start()
                theirs.close()
                processes.append(process)
                connections.append(mine)
        except (OSError, ValueError, ImportError, RuntimeError):
            _stop(processes, connections)
            return None
        finally:
            if hold:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
        return cls(processes, connections)

    def fill(self, next_index: int, results: dict[int, ChunkResult], enough: int) -> int:
        """Take the chunks that are done and hand out more (below ``enough``) until each worker has
        two; the next chunk number not handed out."""
        self._collect(results, 0)
        for connection in self.connections:
            queue = self.queued[connection]
            while len(queue) < 2 and next_index < enough:
                try:
                    connection.send(next_index)
                except OSError:
                    raise WorkerFailed() from None
                queue.append(next_index)
                self.owner[next_index] = connection
                next_index += 1
        return next_index

    def _collect(self, results: dict[int, ChunkResult], timeout: float | None) -> None:
        from multiprocessing.connection import wait

        ready = wait(self.connections, timeout)
        for connection in [c for c in self.connections if c in ready]:
            try:
                answer: tuple[int, ChunkResult | None, BaseException | None] = connection.recv()
            except (EOFError, OSError):
                raise WorkerFailed() from None
            index, chunk, error = answer
            self.ready = True
            self.queued[connection].remove(index)
            self.owner.pop(index, None)
            if index in self.dropped:
                self.dropped.discard(index)
                continue
            if error is not None:
                raise error
            assert chunk is not None
            results[index] = chunk

    def has(self, index: int) -> bool:
        return index in self.owner

    def forget(self, index: int) -> None:
        """Chunk ``index`` is made elsewhere: ignore its worker's answer."""
        self.owner.pop(index, None)
        self.dropped.add(index)

    def wait_for(self, index: int, results: dict[int, ChunkResult]) -> None:
        """Wait until chunk ``index`` is in ``results`` (others that come meanwhile are kept too)."""
        while index not in results:
            if index not in self.owner:
                raise WorkerFailed()
            self._collect(results, None)

    def close(self) -> None:
        _stop(self.processes, self.connections)


def _stop(processes: list[BaseProcess], connections: list[Connection]) -> None:
    """End the workers at once (what they are making is not needed) and reap them."""
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(5)
    for connection in connections:
        connection.close()


def _start_method() -> str:
    """``fork`` for a single-threaded process on Linux (the command line: a worker is ready in
    milliseconds, numpy already loaded), else ``spawn`` (the window has Qt's threads, and forking a
    threaded process can deadlock the child; a spawned worker imports what it needs, in about half
    a second)."""
    import multiprocessing

    single = threading.active_count() == 1
    if single and sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return "fork"
    return "spawn"
