"""``bridgeview solve IN OUT``: write OUT with every board's double-dummy table (and par into PBN).

The boards to solve are cut into chunks (:mod:`bridgeview.solve.chunks`); each
finished chunk is recorded in a journal beside OUT, so a run stopped in any way
goes on with ``--resume``.  Chunks are solved on this machine (a single-threaded
DDS child process a core, fed deal by deal; a child is abandoned when its deal
takes longer than ``--dd-timeout`` seconds of CPU time), on a local Dask cluster (``--workers N``) or on an existing
Dask scheduler (``--cluster ADDRESS``); OUT is written once, at the end, from
the journal, so every way gives the same bytes.  A run of one chunk on this machine
(a session's boards) is solved at once, without a journal, which could hold nothing
before such a run is done (:func:`_solved_at_once`).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from ..formats.atomic import check_target, is_special
from ..formats.codec import BridgeCodec, ReadOptions, WriteOptions
from ..formats.errors import FormatError
from ..formats.registry import codec_for_output
from ..model.boardset import lazy_set
from ..model.text import plural
from .common import (
    CONNECT_TIMEOUT,
    DD_TIMEOUT,
    Progress,
    board_number,
    names_standard_output,
    read_boards,
    say_ignored_options,
    seconds,
)

if TYPE_CHECKING:
    import numpy as np

    from ..formats.bulk import BulkChunk
    from ..formats.codec import AnyCodec, ConvertResult
    from ..model.board import Board
    from ..model.boardset import BoardSet
    from ..model.ddtable import DDTable
    from ..solve.chunks import ChunkSolver, Journal
    from ..solve.timed import SolverPool

#: (board index, its solved table, None where DDS cannot solve the deal) for each board solved, in order
Solved = Iterator[tuple[int, "DDTable | None"]]

NAME = "solve"
ORDER = 20
HELP = "solve every board double dummy (DDS) and write the tables"
DESCRIPTION = (
    "Solve the boards of IN double dummy with DDS and write OUT with their DD tables. "
    "Tables IN already holds are kept (use --again to re-solve them and report disagreements); "
    "when OUT is PBN, the par score and contracts go into OptimumScore/ParContract tags. "
    "A run of more than one chunk records each finished chunk in OUT.solving, so a stopped run goes on with "
    "--resume. "
    "--workers N solves on a local Dask cluster, --cluster ADDRESS on an existing Dask scheduler "
    "(pip install 'bridgeview[cluster]')."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", metavar="IN")
    p.add_argument("output", metavar="OUT")
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")
    p.add_argument("--to", dest="to_fmt", metavar="FMT", help="output format (default: from the extension)")
    p.add_argument(
        "--jobs", type=int, metavar="N", help="DDS threads (default: one per core on this machine, one per Dask worker)"
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, metavar="N", help="solve on a local Dask cluster of N worker processes")
    where.add_argument("--cluster", metavar="ADDRESS", help="solve on the Dask scheduler at ADDRESS (tcp://host:8786)")
    p.add_argument(
        "--connect-timeout",
        type=seconds,
        default=CONNECT_TIMEOUT,
        metavar="S",
        help=f"seconds to find the Dask scheduler at --cluster ADDRESS, then fail saying what answers there "
        f"(default {CONNECT_TIMEOUT:g})",
    )
    p.add_argument("--chunk", type=int, metavar="N", help="deals a chunk (a Dask task, a journal entry); default 200")
    p.add_argument("--resume", action="store_true", help="go on from the journal of a stopped run (OUT.solving)")
    p.add_argument("--again", action="store_true", help="re-solve boards that already carry a table")
    p.add_argument(
        "--dd-timeout",
        type=seconds,
        default=DD_TIMEOUT,
        metavar="S",
        help=f"seconds of CPU time DDS may spend on one deal before that deal is left "
        f"without a table (default {DD_TIMEOUT:g}; on this machine only)",
    )
    p.add_argument(
        "--start-board", type=board_number, metavar="N", help="number of the first board for formats that store none"
    )
    p.add_argument("--force", action="store_true", help="replace OUT even if it is write-protected")


def _solver(
    args: argparse.Namespace,
    on_slow: Callable[[int, int], None] | None = None,
    pool: SolverPool | None = None,
    within: Callable[[int], None] | None = None,
) -> ChunkSolver:
    """What solves the chunks: the Dask cluster asked for, else DDS children here (``pool``, when started early;
    ``within`` hears the deals done of the chunk being solved)."""
    from ..solve.chunks import DaskSolver, LocalSolver

    if args.cluster or args.workers:
        try:
            return DaskSolver(
                address=args.cluster,
                workers=args.workers,
                threads=args.jobs or 1,
                connect_timeout=args.connect_timeout,
            )
        except RuntimeError as exc:
            raise FormatError(str(exc)) from None
        except OSError as exc:  # nothing listens there, or something that is not a scheduler
            raise FormatError(f"cannot reach the Dask scheduler at {args.cluster}: {exc}") from None
    return LocalSolver(args.jobs, timeout=args.dd_timeout, on_slow=on_slow, pool=pool, within=within)


def _early_pool(args: argparse.Namespace) -> SolverPool | None:
    """The DDS children for solving here, the first one started at once (:func:`run` starts the rest once the
    file says how many deals there are): it loads DDS on another core while this process imports the formats
    and reads the file, which on a one-board file is most of the time DDS takes to load, and it is forked before
    anything starts a thread (the progress line on a terminal), which would leave it to be spawned
    (:func:`bridgeview.solve.timed.fork_is_safe`); None for a cluster or no time limit (DDS in this process)."""
    if args.cluster or args.workers or args.dd_timeout is None:
        return None
    from ..solve.timed import SolverPool

    pool = SolverPool(args.jobs)
    pool.launch_early(1)
    return pool


def run(args: argparse.Namespace) -> int:
    for flag, value in (("jobs", args.jobs), ("workers", args.workers), ("chunk", args.chunk)):
        if value is not None and value < 1:
            raise FormatError(f"--{flag} must be at least 1")
    if args.output == "-" or names_standard_output(args.output):  # (it was written as a file named "-")
        raise FormatError(
            "solve writes a file (its journal and --resume need one): give OUT a file name", path=args.output
        )
    if is_special(args.output):  # (its journal was made beside it: /dev/null.solving, as root)
        raise FormatError(
            "solve writes a file (its journal and --resume need one), not a device or a FIFO: give OUT a file name",
            path=args.output,
        )
    pool = _early_pool(args)
    try:
        codec = codec_for_output(args.output, args.to_fmt)
        if not isinstance(codec, BridgeCodec):
            raise FormatError(f"{codec.title} files hold no bridge deals", path=args.output)
        if not codec.caps.dd:
            raise FormatError(
                f"{codec.title} cannot hold double-dummy results; choose PBN, ZRD, ZDD or zrj16", path=args.output
            )
        check_target(args.output, args.force)  # before the solving, not after it
        doc, todo = _to_solve(args)
        if pool is not None and todo:
            pool.launch_early(len(todo))  # as many more as the deals can use, side by side
        elif pool is not None:  # nothing to solve: the child is let go before it has done anything
            pool.kill()
            pool = None
        return _run(args, codec, doc, todo, pool)
    finally:
        if pool is not None:  # (closed by the solver when it took it; else stopped here, on an error)
            pool.kill()


def _to_solve(args: argparse.Namespace) -> tuple[BoardSet, list[int]]:
    """The input's boards, and the indexes of those to solve: every board with cards that lacks a complete table
    (all of them with ``--again``); the ones DDS cannot solve come back without a table and are reported."""
    from ..solve.boards import has_table

    doc = read_boards(args.input, args.from_fmt, ReadOptions(start_board=args.start_board))
    say_ignored_options(doc)
    return doc, [i for i in range(len(doc)) if doc[i].deal.card_count and (args.again or not has_table(doc[i]))]


def _run(args: argparse.Namespace, codec: BridgeCodec, doc: BoardSet, todo: list[int], pool: SolverPool | None) -> int:
    """:func:`run` once the file is read and the DDS children (``pool``) are starting: ``todo`` the boards to solve."""
    from ..solve.chunks import DEFAULT_CHUNK, Journal

    chunk = args.chunk or DEFAULT_CHUNK
    journal = Journal(args.output)
    slow_boards: list[int] = []
    if pool is not None and 0 < len(todo) <= chunk and not args.resume and not journal.folder.exists():
        results: Solved = iter(_solved_at_once(args, doc, todo, pool, slow_boards))
    else:
        chunked = _solved_in_chunks(args, codec, doc, todo, pool, journal, chunk, slow_boards)
        if isinstance(chunked, int):  # (stopped: the journal keeps what was solved)
            return chunked
        results = chunked
    total = len(doc)
    counts = {"solved": 0, "differing": 0}
    unsolvable: list[int] = []
    try:
        if _can_stream(doc, codec):
            result = _write_streamed(doc, codec, args, results, counts, unsolvable)
        else:
            result = _write_boards(doc, codec, args, results, counts, unsolvable)
    except FormatError as e:  # (OUT cannot be written: a full disk) the journal is kept, and said so
        done = len(journal.done()) if journal.exists() else 0
        if done:
            e.message = f"{e.message}; {_kept(done, journal)}"
        raise
    except KeyboardInterrupt:  # (while OUT is written) as when stopped while solving
        done = len(journal.done()) if journal.exists() else 0
        if not done:
            raise
        print(f"bridgeview: stopped; {_kept(done, journal)}", file=sys.stderr)
        return 130
    journal.remove()
    for loss in result.losses:
        print(f"bridgeview: dropped: {loss}", file=sys.stderr)
    solved = counts["solved"]
    print(f"bridgeview: solved {solved} of {plural(total, 'board')}", file=sys.stderr)
    if unsolvable:
        print(
            f"bridgeview: {plural(len(unsolvable), 'board')} could not be solved (hands of unequal length, "
            f"cards in two hands or no cards): {_labels(doc, unsolvable)}",
            file=sys.stderr,
        )
    if slow_boards:
        print(
            f"bridgeview: {plural(len(slow_boards), 'board')} took DDS longer than {args.dd_timeout:g} s and have no "
            f"table: {_labels(doc, slow_boards)}",
            file=sys.stderr,
        )
    if args.again and counts["differing"]:
        print(
            f"bridgeview: {plural(counts['differing'], 'stored table')} "
            f"{'differs' if counts['differing'] == 1 else 'differ'} from DDS; OUT has the DDS tables",
            file=sys.stderr,
        )
    return 0


def _say_slow(args: argparse.Namespace, doc: BoardSet, progress: Progress, i: int) -> None:
    label = _label(doc[i], i)
    progress.note(f"{label}: DDS took longer than {args.dd_timeout:g} s; left without a table (slow), the rest goes on")


def _solved_at_once(
    args: argparse.Namespace, doc: BoardSet, todo: list[int], pool: SolverPool, slow_boards: list[int]
) -> list[tuple[int, DDTable | None]]:
    """The boards ``todo`` solved in ``pool`` in one go: a run of one chunk (a session's boards) keeps no journal,
    which would have nothing to keep before the run is done, and so needs no numpy (50 ms, on a one-board file a
    quarter of the command); ``slow_boards`` hears the boards DDS ran out of time on."""
    from ..solve.timed import solve_within

    progress = Progress("solving", rate="deals")
    try:
        if sys.stderr.isatty():
            print(f"bridgeview: solving {len(todo)} deals on this machine", file=sys.stderr)
        solved = solve_within(
            [doc[i].deal for i in todo],
            args.dd_timeout,
            process=pool,
            progress=progress,
            on_slow=lambda k: _say_slow(args, doc, progress, todo[k]),
        )
    finally:
        progress.close()
        pool.close()
    slow = set(solved.slow)
    slow_boards.extend(todo[k] for k in solved.slow)
    return [(i, solved.tables[k]) for k, i in enumerate(todo) if k not in slow]


def _solved_in_chunks(
    args: argparse.Namespace,
    codec: BridgeCodec,
    doc: BoardSet,
    todo: list[int],
    pool: SolverPool | None,
    journal: Journal,
    chunk: int,
    slow_boards: list[int],
) -> Solved | int:
    """The boards ``todo`` solved chunk by chunk, each recorded in ``journal`` (``--resume`` goes on from it), here
    or on a Dask cluster; 130 when stopped by Ctrl+C (the journal keeps the chunks done)."""
    # numpy imported before the journal is made (with Ctrl+C held, as every command imports it: cli.main): a press
    # in its import left an empty journal behind, which made the next run refuse to start
    import numpy  # noqa: F401

    from ..solve.chunks import JournalError, JournalWriteError, input_fingerprint, solve_chunked

    meta = {**input_fingerprint(args.input), "boards": len(doc), "again": bool(args.again), "format": codec.name}
    progress = Progress("solving", rate="deals")

    def slow(number: int, k: int) -> None:
        _say_slow(args, doc, progress, todo[number * chunk + k])

    # the bar moves deal by deal: solve_chunked reports the deals of the chunks done (those of a resumed run's
    # journal too), the solver here the deals done of the chunk it is on
    chunks_done = [0]

    def chunk_progress(done: int, total: int) -> bool:
        chunks_done[0] = done
        return progress(done, total)

    def within(done: int) -> None:
        progress(chunks_done[0] + done, len(todo))

    solver = None
    try:
        solver = _solver(args, slow, pool, within) if todo else None
        if solver is not None and sys.stderr.isatty():
            print(f"bridgeview: solving {len(todo)} deals on {solver.name}", file=sys.stderr)
        tables_of = (
            solve_chunked(
                lambda i: doc[i].deal,
                todo,
                journal,
                meta,
                solver,
                chunk=chunk,
                resume=args.resume,
                progress=chunk_progress,
            )
            if solver is not None
            else None
        )
    except JournalWriteError as exc:  # (a full disk): the chunks recorded are kept for --resume, as on Ctrl+C
        progress.close()
        done = len(journal.done())
        if not done:  # nothing to go on from: an empty journal would only make the next run refuse to start
            journal.remove()
            raise FormatError(f"{exc}; nothing was kept") from None
        raise FormatError(f"{exc}; {_kept(done, journal)}") from None
    except JournalError as exc:
        raise FormatError(str(exc)) from None
    except KeyboardInterrupt:
        progress.close()
        done = len(journal.done())
        if not done:  # nothing to go on from: an empty journal would only make the next run refuse to start
            journal.remove()
            raise
        print(f"bridgeview: stopped; {_kept(done, journal)}", file=sys.stderr)
        return 130
    finally:
        progress.close()
        if solver is not None:
            solver.close()
    return _results(todo, chunk, tables_of, slow_boards)


def _kept(done: int, journal: Journal) -> str:
    """What a run in chunks that stopped half way keeps, and how to go on."""
    return (
        f"{plural(done, 'chunk')} solved {'is' if done == 1 else 'are'} kept in {journal.folder} - "
        "run the same command with --resume to go on"
    )


def _results(
    todo: list[int], chunk: int, tables_of: Callable[[int], np.ndarray] | None, slow_boards: list[int]
) -> Solved:
    """(board index, solved table or None) for every board solved, in order; slow ones noted in ``slow_boards``."""
    from ..solve.chunks import is_slow, table_of

    if tables_of is None:
        return
    for number, start in enumerate(range(0, len(todo), chunk)):
        arr = tables_of(number)
        for k, i in enumerate(todo[start : start + chunk]):
            if is_slow(arr[k]):
                slow_boards.append(i)
                continue
            yield i, table_of(arr[k])


def _write_boards(
    doc: BoardSet,
    codec: BridgeCodec,
    args: argparse.Namespace,
    results: Solved,
    counts: dict[str, int],
    unsolvable: list[int],
) -> ConvertResult:
    """Put the tables into the boards (par tags too for PBN) and write the document."""
    from ..formats.convert import write_document  # numpy: only when solving (keeps `bridgeview info` fast)
    from ..solve.boards import difference_note, merged, par_tags  # par is worked out without DDS (solve.par_rules)

    for i, table in results:
        board = doc[i]
        if table is None:
            unsolvable.append(i)
            continue
        if difference_note(board.dd, table)[0]:
            counts["differing"] += 1
        new = table if args.again else merged(board.dd, table)
        if new != board.dd:  # an unchanged board keeps its byte-exact source
            doc[i] = board.touched(dd=new)
        counts["solved"] += 1
    if codec.name == "pbn":
        for i in range(len(doc)):
            tags = par_tags(doc[i])
            if tags and any(doc[i].tags.get(k) != v for k, v in tags.items()):
                board = doc[i]
                doc[i] = board.touched(tags={**board.tags, **tags})
    return write_document(doc, args.output, codec, WriteOptions(start_board=args.start_board), force=args.force)


def _can_stream(doc: BoardSet, codec: AnyCodec) -> bool:
    """A file read record by record and a target written in bulk: stream, never a board object per deal."""
    lazy = lazy_set(doc)
    return codec.name != "pbn" and codec.bulk and lazy is not None and lazy.bulk is not None and not lazy.edited


def _write_streamed(
    doc: BoardSet,
    codec: BridgeCodec,
    args: argparse.Namespace,
    results: Solved,
    counts: dict[str, int],
    unsolvable: list[int],
) -> ConvertResult:
    """Write OUT from the source's bulk chunks with the solved tables filled in, chunk by chunk."""
    import numpy as np

    from ..formats.bulk import DD_UNKNOWN
    from ..formats.convert import write_bulk_chunks

    pending = iter(results)
    nxt = next(pending, None)
    lazy = lazy_set(doc)
    bulk = lazy.bulk if lazy is not None else None

    def chunks() -> Iterator[BulkChunk]:
        nonlocal nxt
        base = 0
        for chunk in bulk() if bulk is not None else ():
            n = len(chunk)
            dd = chunk.dd.copy() if chunk.dd is not None else np.full((n, 4, 5), DD_UNKNOWN, dtype=np.uint8)
            while nxt is not None and nxt[0] < base + n:
                i, table = nxt
                row = dd[i - base]
                if table is None:
                    unsolvable.append(i)
                else:
                    solved = np.array(table.tricks, dtype=np.uint8)
                    known = row != DD_UNKNOWN
                    if (known & (row != solved)).any():
                        counts["differing"] += 1
                    dd[i - base] = solved if args.again else np.where(known, row, solved)
                    counts["solved"] += 1
                nxt = next(pending, None)
            chunk.dd = dd
            base += n
            yield chunk

    return write_bulk_chunks(
        chunks(), len(doc), args.output, codec, WriteOptions(start_board=args.start_board), None, args.force
    )


def _label(board: Board, index: int) -> str:
    return f"board {board.number}" if board.number is not None else f"record {index + 1}"


def _labels(doc: BoardSet, indexes: list[int]) -> str:
    """The first ten of the boards ``indexes`` named, "..." after them when there are more."""
    return ", ".join(_label(doc[i], i) for i in indexes[:10]) + (" ..." if len(indexes) > 10 else "")
