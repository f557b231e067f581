"""``bridgeview solve IN OUT``: write OUT with every board's double-dummy table (and par into PBN)."""

from __future__ import annotations

import sys

from ..formats.errors import FormatError
from ..formats.registry import ReadOptions, WriteOptions, check_target, codec_for_output, read_file
from ..solve.timed import DEFAULT_TIMEOUT as DD_TIMEOUT
from .common import Progress, board_number, say_ignored_options, seconds

NAME = "solve"
ORDER = 20
HELP = "solve every board double dummy (DDS) and write the tables"
DESCRIPTION = (
    "Solve the boards of IN double dummy with DDS and write OUT with their DD tables. "
    "Tables IN already holds are kept (use --again to re-solve them and report disagreements); "
    "when OUT is PBN, the par score and contracts go into OptimumScore/ParContract tags."
)

WINDOW = 4000  # boards solved between writes into the document (keeps a lazy file's edits bounded per pass)


def add_arguments(p) -> None:
    p.add_argument("input", metavar="IN")
    p.add_argument("output", metavar="OUT")
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")
    p.add_argument("--to", dest="to_fmt", metavar="FMT", help="output format (default: from the extension)")
    p.add_argument("--jobs", type=int, metavar="N", help="DDS threads (default: one per core)")
    p.add_argument("--again", action="store_true", help="re-solve boards that already carry a table")
    p.add_argument("--dd-timeout", type=seconds, default=DD_TIMEOUT, metavar="S",
                   help=f"seconds DDS may spend on a batch, then on one deal, before that deal is left "
                        f"without a table (default {DD_TIMEOUT:g})")
    p.add_argument(
        "--start-board", type=board_number, metavar="N", help="number of the first board for formats that store none"
    )
    p.add_argument("--force", action="store_true", help="replace OUT even if it is write-protected")


def run(args) -> int:
    from ..formats.convert import write_document  # numpy: only when solving (keeps `bridgeview info` fast)
    from ..solve.boards import difference_note, has_table, merged, par_tags
    from ..solve.timed import SolverUnavailable, solve_within

    codec = codec_for_output(args.output, args.to_fmt)
    if codec.kind != "bridge":
        raise FormatError(f"{codec.title} files hold no bridge deals", path=args.output)
    if not codec.caps.dd:
        raise FormatError(f"{codec.title} cannot hold double-dummy results; choose PBN, ZRD, ZDD or zrj16",
                          path=args.output)
    if args.jobs is not None and args.jobs < 1:
        raise FormatError("--jobs must be at least 1")
    check_target(args.output, args.force)  # before the solving, not after it
    doc = read_file(args.input, args.from_fmt, ReadOptions(start_board=args.start_board))
    say_ignored_options(doc)
    if getattr(doc, "info", None) is None:
        raise FormatError("this file holds no bridge deals", path=args.input)
    total = len(doc)
    # every board with cards that lacks a complete table (all of them with --again); the
    # ones DDS cannot solve come back without a table and are reported
    todo = [i for i in range(total) if doc[i].deal.card_count and (args.again or not has_table(doc[i]))]
    progress = Progress("solving")
    solved = differing = 0
    unsolvable: list[int] = []
    slow: list[int] = []
    try:
        for start in range(0, len(todo), WINDOW):
            window = todo[start : start + WINDOW]
            base = start

            def report(done: int, _total: int, base: int = base) -> bool:
                return progress(base + done, len(todo))

            def gave_up(k: int, window: list[int] = window) -> None:
                i = window[k]
                progress.note(f"{_label(doc[i], i)}: DDS took longer than {args.dd_timeout:g} s; "
                              "left without a table (slow), the rest goes on")

            try:
                result = solve_within([doc[i].deal for i in window], args.dd_timeout, jobs=args.jobs,
                                      progress=report, on_slow=gave_up)
            except SolverUnavailable as e:
                raise FormatError(f"the double-dummy solver failed: {e}") from None
            slow.extend(window[k] for k in result.slow)
            for k, i in enumerate(window):
                table = result.tables[k]
                board = doc[i]
                if table is None:
                    if k not in result.slow:
                        unsolvable.append(i)
                    continue
                if difference_note(board.dd, table)[0]:
                    differing += 1
                new = table if args.again else merged(board.dd, table)
                if new != board.dd:  # an unchanged board keeps its byte-exact source
                    doc[i] = board.touched(dd=new)
                solved += 1
    finally:
        progress.close()
    if codec.name == "pbn":
        for i in range(total):
            tags = par_tags(doc[i])
            if tags and any(doc[i].tags.get(k) != v for k, v in tags.items()):
                board = doc[i]
                doc[i] = board.touched(tags={**board.tags, **tags})
    result = write_document(doc, args.output, codec, WriteOptions(start_board=args.start_board), force=args.force)
    for loss in result.losses:
        print(f"bridgeview: dropped: {loss}", file=sys.stderr)
    print(f"bridgeview: solved {solved} of {total} board{'s' if total != 1 else ''}", file=sys.stderr)
    if unsolvable:
        shown = ", ".join(_label(doc[i], i) for i in unsolvable[:10]) + (" ..." if len(unsolvable) > 10 else "")
        print(f"bridgeview: {len(unsolvable)} board(s) could not be solved (hands of unequal length, "
              f"cards in two hands or no cards): {shown}", file=sys.stderr)
    if slow:
        shown = ", ".join(_label(doc[i], i) for i in slow[:10]) + (" ..." if len(slow) > 10 else "")
        print(f"bridgeview: {len(slow)} board(s) took DDS longer than {args.dd_timeout:g} s and have no table: "
              f"{shown}", file=sys.stderr)
    if args.again and differing:
        print(f"bridgeview: {differing} stored table(s) differ from DDS; OUT has the DDS tables", file=sys.stderr)
    return 0


def _label(board, index: int) -> str:
    return f"board {board.number}" if board.number is not None else f"record {index + 1}"
