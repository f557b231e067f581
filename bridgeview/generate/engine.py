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
    from concurrent.futures import Future, ProcessPoolExecutor

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
            if pool is not None:
                try:
                    next_index = pool.fill(next_index, results, enough)
                except _POOL_FAILURES:  # a worker died (killed, out of memory): carry on here
                    pool.close()
                    pool = None
            if wanted not in results:
                if pool is None or not pool.has(wanted):  # its worker is gone: make it here
                    results[wanted] = local.chunk(wanted)
                elif len(results) < pool.ahead and next_index < enough:  # a worker makes it: make a later one
                    results[next_index] = local.chunk(next_index)
                    next_index += 1
                elif pool.cancel(wanted):  # no worker has started on it yet: make it here
                    results[wanted] = local.chunk(wanted)
                else:  # a worker is on it: wait
                    try:
                        results[wanted] = pool.result(wanted)
                    except _POOL_FAILURES:
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
_WORKER: Worker | None = None


def _start_worker(script: s.Script, seed: int | None) -> None:
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    if hasattr(signal, "pthread_sigmask"):  # the child started with Ctrl+C held back (see _Pool.fill)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _WORKER = Worker(script, seed)


def _work(index: int) -> ChunkResult:
    assert _WORKER is not None
    return _WORKER.chunk(index)


class _Pool:
    """Worker processes making chunks ahead of the one the run takes next."""

    def __init__(self, executor: ProcessPoolExecutor, workers: int) -> None:
        self.executor = executor
        self.workers = workers
        self.futures: dict[int, Future[ChunkResult]] = {}
        #: chunks kept waiting at most (made here while a worker is late with the one wanted)
        self.ahead = 4 * workers

    @classmethod
    def start(cls, script: s.Script, seed: int | None, workers: int) -> _Pool | None:
        """Worker processes (started with Ctrl+C ignored: the parent stops the run), or None when
        this Python cannot start them (a frozen bundle without multiprocessing support, say)."""
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor  # only a long run pays for importing it

        try:
            context = multiprocessing.get_context(_start_method())
            executor = ProcessPoolExecutor(
                workers, mp_context=context, initializer=_start_worker, initargs=(script, seed)
            )
        except (OSError, ValueError, ImportError):
            return None
        return cls(executor, workers)

    def fill(self, next_index: int, results: dict[int, ChunkResult], enough: int) -> int:
        """Collect finished chunks and hand out more (below ``enough``) until each worker has two; the
        next chunk index not handed out."""
        for index in [i for i, f in self.futures.items() if f.done()]:
            results[index] = self.futures.pop(index).result()
        # A submit may start a worker process.  Ctrl+C is held back meanwhile, not ignored: the child
        # starts with it held (it then ignores it: the parent stops the run), and the parent gets a
        # Ctrl+C that came meanwhile as soon as the submits are done -- none is lost.
        hold = threading.current_thread() is threading.main_thread() and hasattr(signal, "pthread_sigmask")
        held: Any = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if hold else None
        try:
            while len(self.futures) < 2 * self.workers and next_index < enough:
                self.futures[next_index] = self.executor.submit(_work, next_index)
                next_index += 1
        finally:
            if hold:
                signal.pthread_sigmask(signal.SIG_SETMASK, held)
        return next_index

    def has(self, index: int) -> bool:
        return index in self.futures

    def cancel(self, index: int) -> bool:
        """Take back chunk ``index`` if no worker has started on it."""
        if self.futures[index].cancel():
            del self.futures[index]
            return True
        return False

    def result(self, index: int) -> ChunkResult:
        """Wait for chunk ``index``."""
        return self.futures.pop(index).result()

    def close(self) -> None:
        for future in self.futures.values():
            future.cancel()
        self.futures.clear()
        self.executor.shutdown(wait=False, cancel_futures=True)


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


def _pool_failures() -> tuple[type[BaseException], ...]:
    from concurrent.futures.process import BrokenProcessPool

    return (BrokenProcessPool, OSError)


_POOL_FAILURES = _pool_failures()
