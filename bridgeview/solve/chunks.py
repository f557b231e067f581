"""Solving a set in chunks, in one process or on a Dask cluster, with a journal to resume from.

The work of ``bridgeview solve`` is cut into chunks of consecutive deals.  Each
chunk travels as a ``(n, 4)`` uint64 array of hand masks and comes back as a
``(n, 4, 5)`` uint8 array of DD tables (``UNSOLVED`` where DDS cannot solve the
deal), so a worker needs nothing of a board but its cards, and a result costs
20 bytes a deal to ship and keep.

A :class:`Journal` beside the output records every finished chunk in its own
file (written to a temporary name and renamed, so a kill at any moment leaves
only whole chunks).  A run that stops - Ctrl+C, kill -9, a crash, a lost
cluster - is resumed by solving only the chunks the journal does not hold; the
output is written once at the end from the same tables, so it is
byte-identical to an uninterrupted run.

Qt-free; endplay is imported by :func:`solve_masks` (on the worker), Dask only
by :class:`DaskSolver`, numpy where a chunk's arrays are made or read (a one-chunk
``bridgeview solve`` keeps no journal and needs none: see ``cli/solve.py``).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import shutil
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ..model.ddtable import DDTable
from ..model.deal import Deal
from ..model.text import plural
from . import dds
from .connect import CONNECT_TIMEOUT, probe_scheduler
from .timed import started_deaf

if TYPE_CHECKING:
    import numpy as np

    from .timed import SolverPool

#: a cell of a chunk's result array for a deal DDS cannot solve
UNSOLVED = 255
#: a cell of a chunk's result array for a deal DDS took longer than the time limit on (left unsolved)
SLOW = 254
#: deals a chunk holds unless ``--chunk`` says otherwise (about half a minute of DDS on two cores)
DEFAULT_CHUNK = 200
#: deals a Dask task solves: a second or two of DDS, so the workers share the last chunks of a run
#: instead of one finishing a whole chunk while the others wait
PIECE = 8
JOURNAL_VERSION = 1


# -- the unit of work -------------------------------------------------------------
def deal_masks(deals: Iterable[Deal]) -> np.ndarray:
    """(n, 4) uint64 hand masks N E S W of ``deals``."""
    import numpy as np

    rows = [deal.hands for deal in deals]
    return np.array(rows, dtype=np.uint64).reshape(len(rows), 4)


def solve_masks(masks: np.ndarray, threads: int | None = None) -> np.ndarray:
    """DD tables of the deals in ``masks`` as a (n, 4, 5) uint8 array [seat][strain C D H S NT].

    The function a worker runs: DDS with ``threads`` threads (None = one per
    core; DDS's binding loaded alone, see :func:`bridgeview.solve.dds.load_dds_only`),
    deals it cannot solve marked :data:`UNSOLVED` in every cell.
    """
    import numpy as np

    deals = [Deal.from_masks(int(h) for h in row) for row in np.asarray(masks, dtype=np.uint64)]
    out = np.full((len(deals), 4, 5), UNSOLVED, dtype=np.uint8)
    for i, table in enumerate(dds.solve_tables(deals, jobs=threads)):
        if table is not None:
            out[i] = np.array(table.tricks, dtype=np.uint8)
    return out


def table_of(row: np.ndarray) -> DDTable | None:
    """One deal's (4, 5) result row as a :class:`DDTable` (None when DDS could not solve it, or ran out of time)."""
    if int(row[0, 0]) in (UNSOLVED, SLOW):
        return None
    return DDTable.from_rows(row.tolist())


def is_slow(row: np.ndarray) -> bool:
    """True for a deal left unsolved because DDS ran out of time on it."""
    return int(row[0, 0]) == SLOW


def masks_digest(masks: np.ndarray) -> str:
    """A short fingerprint of a chunk's deals: a journal's chunk is only reused for the same deals."""
    import numpy as np

    return hashlib.blake2b(np.ascontiguousarray(masks, dtype="<u8").tobytes(), digest_size=8).hexdigest()


@dataclass(frozen=True)
class Chunk:
    """Chunk ``number`` covers ``todo[start:stop]`` of the boards to solve."""

    number: int
    start: int
    stop: int

    def __len__(self) -> int:
        return self.stop - self.start


def plan(count: int, size: int) -> list[Chunk]:
    """``count`` deals cut into chunks of ``size`` (the last one shorter)."""
    size = max(1, int(size))
    return [Chunk(k, s, min(s + size, count)) for k, s in enumerate(range(0, count, size))]


# -- the journal --------------------------------------------------------------------
class JournalError(Exception):
    """The journal beside the output cannot be used for this run (the message says why and what to do)."""


class JournalWriteError(JournalError):
    """The journal could not be written (a full disk, a folder gone): the message names it and the system's reason;
    the chunks it recorded before are whole, and what was being written is gone."""


class Journal:
    """Finished chunks of one solving run, in a folder beside the output (``OUT.solving``).

    ``meta.json`` names the input (path, size, modification time), the chunk size
    and the number of boards to solve; ``chunk-NNNNNNNN.npz`` holds one chunk's
    tables and the fingerprint of its deals.
    """

    def __init__(self, output: str | os.PathLike[str]) -> None:
        out = Path(output)
        self.folder = out.with_name(out.name + ".solving")

    def exists(self) -> bool:
        return (self.folder / "meta.json").is_file()

    def _path(self, number: int) -> Path:
        return self.folder / f"chunk-{number:08d}.npz"

    def done(self) -> set[int]:
        """Numbers of the chunks already recorded."""
        if not self.folder.is_dir():
            return set()
        out = set()
        for p in self.folder.glob("chunk-*.npz"):
            with contextlib.suppress(ValueError):
                out.add(int(p.stem.split("-", 1)[1]))
        return out

    def start(self, meta: dict[str, object], resume: bool) -> set[int]:
        """Open the journal for a run described by ``meta``; the chunks it already holds.

        Without ``resume`` an existing journal is an error (its solved chunks would
        be thrown away); with it, the journal must describe the same run.
        """
        if self.exists():
            try:
                old = json.loads((self.folder / "meta.json").read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise JournalError(f"{self.folder}: unreadable journal ({exc}); delete it to start again") from None
            if not resume:
                n = len(self.done())
                raise JournalError(
                    f"{self.folder} holds {plural(n, 'solved chunk')} of an interrupted run: "
                    "add --resume to go on from there, or delete it to start again"
                )
            for key in ("input_size", "input_mtime_ns", "chunk", "todo", "again", "boards"):
                if old.get(key) != meta.get(key):
                    raise JournalError(
                        f"{self.folder} belongs to another run ({key.replace('_', ' ')} differs: the input or "
                        "--chunk/--again changed); delete it to start again"
                    )
            return self.done()
        if self.folder.exists():
            shutil.rmtree(self.folder)  # a folder without meta.json: a run that never recorded anything
        try:
            self.folder.mkdir(parents=True)
            tmp = self.folder / "meta.json.part"
            tmp.write_text(json.dumps({"version": JOURNAL_VERSION, **meta}, indent=1), encoding="utf-8")
            os.replace(tmp, self.folder / "meta.json")
        except OSError as exc:
            raise JournalWriteError(f"{self.folder}: cannot start the journal: {exc.strerror or exc}") from None
        return set()

    def record(self, number: int, tables: np.ndarray, digest: str) -> None:
        """Store one finished chunk (whole or not at all)."""
        import numpy as np

        tmp = self.folder / f".chunk-{number:08d}.part"
        try:
            with open(tmp, "wb") as f:
                np.savez(f, tables=tables, digest=np.array(digest))
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self._path(number))
        except BaseException as exc:  # (a full disk; Ctrl+C in the middle): no part file is left in the journal
            with contextlib.suppress(OSError):
                tmp.unlink()
            if isinstance(exc, OSError):
                raise JournalWriteError(f"{self.folder}: cannot record a solved chunk: {exc.strerror or exc}") from None
            raise

    def load(self, number: int) -> tuple[np.ndarray, str]:
        import numpy as np

        with np.load(self._path(number)) as z:
            return z["tables"], str(z["digest"])

    def remove(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


# -- solvers: where the chunks are solved -----------------------------------------------
ChunkResult = tuple[int, "np.ndarray"]


class ChunkSolver(Protocol):
    """What solves the chunks of a run: DDS children here (:class:`LocalSolver`) or a Dask cluster
    (:class:`DaskSolver`)."""

    #: where the chunks are solved, for the user (``this machine``, ``a local Dask cluster of 4 workers``)
    name: str

    def run(self, work: Iterable[tuple[int, np.ndarray]]) -> Iterator[ChunkResult]: ...
    def close(self) -> None: ...


class LocalSolver:
    """Chunks solved one after another on this machine, DDS on every core (or ``jobs`` of them).

    With a ``timeout`` DDS runs in a pool of single-threaded child processes, one a core
    (:class:`bridgeview.solve.timed.SolverPool`), fed deal by deal: a deal that takes longer than
    ``timeout`` seconds of DDS's CPU time stops its child only and comes back :data:`SLOW`
    (``on_slow(chunk number, position)`` hears it at once); every other deal is solved once.
    ``within(done)`` hears how many deals of the chunk being solved are done (solved, unsolvable or
    slow) as each is done, so a progress line moves within a chunk of 200 deals, which takes one core
    a minute or more.
    """

    name = "this machine"

    def __init__(
        self,
        jobs: int | None = None,
        timeout: float | None = None,
        on_slow: Callable[[int, int], None] | None = None,
        pool: SolverPool | None = None,
        within: Callable[[int], None] | None = None,
    ) -> None:
        self.jobs = jobs
        self.timeout = timeout
        self.on_slow = on_slow
        self.within = within
        #: the DDS children (``pool``: started by the caller, perhaps still loading DDS; closed here)
        self._pool: SolverPool | None = pool

    def solve(self, number: int, masks: np.ndarray) -> np.ndarray:
        """One chunk's tables."""
        import numpy as np

        if self.timeout is None:
            return solve_masks(masks, self.jobs)
        from .timed import SolverPool, solve_within

        if self._pool is None:
            self._pool = SolverPool(self.jobs)
        deals = [Deal.from_masks(int(h) for h in row) for row in np.asarray(masks, dtype=np.uint64)]
        on_slow, within = self.on_slow, self.within
        hear = (lambda k: on_slow(number, k)) if on_slow is not None else None
        counted = (lambda done, total: within(done)) if within is not None else None
        result = solve_within(deals, self.timeout, process=self._pool, on_slow=hear, progress=counted)
        out = np.full((len(deals), 4, 5), UNSOLVED, dtype=np.uint8)
        for k, table in enumerate(result.tables):
            if table is not None:
                out[k] = np.array(table.tricks, dtype=np.uint8)
        for k in result.slow:
            out[k] = SLOW
        return out

    def run(self, work: Iterable[tuple[int, np.ndarray]]) -> Iterator[ChunkResult]:
        for number, masks in work:
            yield number, self.solve(number, masks)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None


def tail_piece(left: int, workers: int) -> int:
    """Deals the next task takes once the last chunk is out and ``left`` deals wait: about a share of
    what is left for each of the ``2 x workers`` tasks in flight, so the last tasks are a deal or two
    and no worker waits long at the end for another's last task."""
    return max(1, min(PIECE, left // (2 * max(1, workers))))


def worker_start_method() -> str:
    """How a local Dask cluster starts its worker processes: forked from this process where that is safe
    (POSIX but not macOS, and no Qt loaded: the command line), so a worker starts with Dask, numpy and
    this package already imported instead of importing them again (about half a second of CPU a worker);
    else started afresh (spawn, Dask's default)."""
    from .timed import fork_available

    return "fork" if fork_available() else "spawn"


class DaskSolver:
    """Chunks solved as Dask tasks on a local cluster of ``workers`` processes or at a scheduler ``address``.

    Each worker runs DDS with ``threads`` threads (default 1: one task a worker
    process, one process a core) and loads DDS's binding alone (:func:`solve_masks`).
    A chunk goes out as tasks of :data:`PIECE` deals, at most ``2 x workers`` of them
    in flight, so the input is read as fast as it is solved and no worker idles while
    another finishes a whole chunk; once the last chunk is out the tasks shrink to a
    deal or two, so the workers finish together.  A task whose worker dies is run
    again elsewhere by Dask (``retries``).
    """

    def __init__(
        self,
        *,
        address: str | None = None,
        workers: int | None = None,
        threads: int = 1,
        retries: int = 3,
        connect_timeout: float = CONNECT_TIMEOUT,
    ) -> None:
        try:
            import dask
            from distributed import Client, LocalCluster
        except ImportError:
            raise RuntimeError("solving on a cluster needs Dask: pip install 'bridgeview[cluster]'") from None
        self.threads = threads
        self.retries = retries
        self.cluster = None
        if address:
            probe_scheduler(address, connect_timeout)  # Dask's own handshake waits for ever on a wrong port
            self.client = Client(address, timeout=connect_timeout)
            self.name = f"the Dask cluster at {address}"
        else:
            n = max(1, int(workers or 1))
            # no dashboard, so no worker's statistical profiler sampling its stack every 10 ms, and the event
            # loops' housekeeping (the tick every 20 ms, the system monitor every 0.5 s, the memory check every
            # 0.1 s in each worker and nanny) slowed down: on a loaded machine it cost some 5 % of a core
            local = {
                "distributed.worker.multiprocessing-method": worker_start_method(),
                "distributed.worker.profile.enabled": False,
                "distributed.admin.tick.interval": "1s",
                "distributed.admin.system-monitor.interval": "5s",
                "distributed.worker.memory.monitor-interval": "1s",
            }
            # Ctrl+C on a terminal reaches the whole process group, the cluster's nannies and workers too: each
            # printed a KeyboardInterrupt traceback and asyncio's warnings as it died.  They start with the signal
            # blocked (the event loop's thread made here, and every process it starts, inherit the mask), so the
            # press is this process's alone, and it closes the cluster on its way out.
            with (
                dask.config.set(local),
                started_deaf(spawned=local["distributed.worker.multiprocessing-method"] == "spawn"),
            ):
                # (its processes' warnings kept to errors: a task's failure comes back through its future, and
                # closing the cluster on Ctrl+C made every busy worker warn of its cancelled task)
                self.cluster = LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    host="127.0.0.1",
                    silence_logs=logging.ERROR,
                )
                self.client = Client(self.cluster)
            self.name = f"a local Dask cluster of {plural(n, 'worker')}"

    def worker_count(self) -> int:
        return max(1, len(self.client.scheduler_info().get("workers", {})))

    def run(self, work: Iterable[tuple[int, np.ndarray]]) -> Iterator[ChunkResult]:
        """Each chunk solved as tasks of up to :data:`PIECE` deals, handed out as workers free up, and
        yielded (in the order chunks finish) once all its deals are back."""
        import numpy as np
        from distributed import as_completed

        token = f"{os.getpid()}-{time.time_ns()}"
        chunks = iter(work)
        workers = self.worker_count()
        waiting: deque[tuple[int, int, np.ndarray]] = deque()  # (chunk number, start, masks) not yet submitted
        left = 0  # deals in ``waiting``
        last_in = False  # every chunk has been taken from ``work``
        parts: dict[int, dict[int, np.ndarray]] = {}  # by chunk number: its pieces' tables by start, as they come
        sizes: dict[int, int] = {}  # by chunk number: its deals
        where: dict[object, tuple[int, int]] = {}  # by the future's key: (chunk number, start)

        def take() -> None:
            """Read chunks ahead while fewer deals wait than a round of full pieces for every worker."""
            nonlocal left, last_in
            while not last_in and left < 2 * workers * PIECE:
                item = next(chunks, None)
                if item is None:
                    last_in = True
                    break
                number, masks = item
                sizes[number] = len(masks)
                parts[number] = {}
                waiting.append((number, 0, masks))
                left += len(masks)

        def submit() -> object | None:
            nonlocal left
            take()
            if not waiting:
                return None
            number, start, masks = waiting.popleft()
            size = tail_piece(left, workers) if last_in else PIECE
            piece, rest = masks[:size], masks[size:]
            if len(rest):
                waiting.appendleft((number, start + size, rest))
            left -= len(piece)
            fut = self.client.submit(
                solve_masks,
                piece,
                self.threads,
                key=f"bridgeview-solve-{token}-{number}-{start}",
                retries=self.retries,
                pure=False,
            )
            where[fut.key] = (number, start)
            return fut

        first = [f for f in (submit() for _ in range(2 * workers)) if f is not None]
        done = as_completed(first)
        for fut in done:
            result = fut.result()
            number, start = where.pop(fut.key)
            fut.release()
            nxt = submit()
            if nxt is not None:
                done.add(nxt)
            got = parts[number]
            got[start] = result
            if sum(len(p) for p in got.values()) == sizes[number]:
                del parts[number], sizes[number]
                empty = np.empty((0, 4, 5), dtype=np.uint8)
                yield number, np.concatenate([empty, *(got[k] for k in sorted(got))])

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.client.close()
        if self.cluster is not None:
            with contextlib.suppress(Exception):
                self.cluster.close()


# -- the run ------------------------------------------------------------------------------
ProgressFn = Callable[[int, int], object]


def solve_chunked(
    deal_of: Callable[[int], Deal],
    todo: Sequence[int],
    journal: Journal,
    meta: dict[str, object],
    solver: ChunkSolver,
    *,
    chunk: int = DEFAULT_CHUNK,
    resume: bool = False,
    progress: ProgressFn | None = None,
) -> Callable[[int], np.ndarray]:
    """Solve the deals ``deal_of(todo[k])`` chunk by chunk with ``solver``, recording each in ``journal``.

    Returns a function giving chunk ``number``'s tables (from the journal).  Chunks
    the journal already holds are not solved again (with ``resume``); a chunk
    whose deals differ from the ones it was solved for is solved again.
    """
    chunks = plan(len(todo), chunk)
    meta = {**meta, "chunk": int(chunk), "todo": len(todo)}
    have = journal.start(meta, resume)

    def masks_of(c: Chunk) -> np.ndarray:
        return deal_masks(deal_of(i) for i in todo[c.start : c.stop])

    # chunks recorded for other deals (the input changed in place at the same size and time) are redone
    for c in chunks:
        if c.number in have and journal.load(c.number)[1] != masks_digest(masks_of(c)):
            have.discard(c.number)
    done = sum(len(c) for c in chunks if c.number in have)
    if progress is not None:
        progress(done, len(todo))
    digests: dict[int, str] = {}

    def work() -> Iterator[tuple[int, np.ndarray]]:
        for c in chunks:
            if c.number in have:
                continue
            masks = masks_of(c)
            digests[c.number] = masks_digest(masks)
            yield c.number, masks

    for number, tables in solver.run(work()):
        journal.record(number, tables, digests.pop(number))
        done += len(chunks[number])
        if progress is not None:
            progress(done, len(todo))

    def tables_of(number: int) -> np.ndarray:
        return journal.load(number)[0]

    return tables_of


def input_fingerprint(path: str | os.PathLike[str]) -> dict[str, object]:
    """What identifies the input file of a run in its journal."""
    st = os.stat(path)
    return {"input": os.path.abspath(path), "input_size": st.st_size, "input_mtime_ns": st.st_mtime_ns}
