"""``bridgeview convert IN OUT``: any supported format to any other."""

from __future__ import annotations

import sys

from .common import Progress, board_number

NAME = "convert"
ORDER = 10
HELP = "convert a deal file to another format"


def add_arguments(p) -> None:
    p.add_argument("input", metavar="IN")
    p.add_argument("output", metavar="OUT")
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")
    p.add_argument("--to", dest="to_fmt", metavar="FMT", help="output format or variant (default: from the extension)")
    p.add_argument(
        "--start-board", type=board_number, metavar="N", help="number of the first board for formats that store none"
    )
    p.add_argument("--force", action="store_true", help="replace OUT even if it is write-protected")
    p.add_argument(
        "--renumber", action="store_true", help="number the boards consecutively from the first (or from --dup-first)"
    )
    dup = p.add_argument_group("dealing machine (DUP output only)")
    dup.add_argument("--dup-random", choices=("yes", "no"), help="the random flag")
    dup.add_argument("--dup-backwards", choices=("yes", "no"), help="the backwards flag")
    dup.add_argument("--dup-copies", type=int, metavar="N", help="copies of each board, 0-99")
    dup.add_argument(
        "--dup-first", type=board_number, metavar="N", help="the first board number (the boards are renumbered from it)"
    )


def _dup_options(args) -> bool:
    return any(getattr(args, k, None) is not None for k in ("dup_random", "dup_backwards", "dup_copies", "dup_first"))


def _convert_edited(args, progress):
    """Read, renumber and/or set the DUP fields, then write: the path for --renumber and --dup-*."""
    from dataclasses import replace

    from ..formats.convert import write_document
    from ..formats.duplimate import DEFAULT_DUP
    from ..formats.errors import FormatError
    from ..formats.registry import ReadOptions, WriteOptions, codec_for_output, read_file
    from ..model.boardset import BoardSet
    from ..model.editing import board_numbers

    codec = codec_for_output(args.output, args.to_fmt)
    if _dup_options(args) and codec.name != "dup":
        raise FormatError(f"--dup-* options set a DUP file's control fields; {codec.title} has none", path=args.output)
    if args.dup_copies is not None and not 0 <= args.dup_copies <= 99:
        raise FormatError(f"--dup-copies must be 0-99, not {args.dup_copies}", path=args.output)
    doc = read_file(args.input, args.from_fmt, ReadOptions(start_board=args.start_board))
    if not hasattr(doc, "info"):
        raise FormatError("holds a cribbage game, not bridge boards", path=args.input)
    boards = [doc[i] for i in range(len(doc))]
    if args.renumber or args.dup_first is not None:  # each board a number: its tables share it, no deal twice
        first = args.dup_first or (boards[0].number if boards and boards[0].number else args.start_board or 1)
        boards = [
            b.touched(number=n, dealer=None, vulnerability=None) if b.number != n else b
            for b, n in zip(boards, board_numbers(boards, first), strict=True)
        ]
    out = BoardSet(boards, doc.info)
    out.problems = list(doc.problems)
    if codec.name == "dup":
        dup = doc.info.dup or DEFAULT_DUP
        first = boards[0].number if boards and boards[0].number else 1
        last = max((b.number for b in boards if b.number is not None), default=first)
        changes = {"first_board": first, "last_board": max(first, last)}
        if args.dup_random is not None:
            changes["random"] = args.dup_random == "yes"
        if args.dup_backwards is not None:
            changes["backwards"] = args.dup_backwards == "yes"
        if args.dup_copies is not None:
            changes["copies"] = args.dup_copies
        out.info.dup = replace(dup, **changes)
    return write_document(
        out,
        args.output,
        codec,
        WriteOptions(start_board=args.start_board),
        progress,
        count_boards=True,
        force=args.force,
    )


def run(args) -> int:
    from ..formats.convert import convert_file  # numpy: only when converting (keeps `bridgeview info` fast)

    progress = Progress("converting", counts=False)  # the count of a check-then-write pass means little
    if args.renumber or _dup_options(args):
        try:
            result = _convert_edited(args, progress)
        finally:
            progress.close()
        for notice in result.notices:
            print(f"bridgeview: {notice}", file=sys.stderr)
        for loss in result.losses:
            print(f"bridgeview: dropped: {loss}", file=sys.stderr)
        return 0
    try:
        result = convert_file(
            args.input,
            args.output,
            from_fmt=args.from_fmt,
            to_fmt=args.to_fmt,
            start_board=args.start_board,
            progress=progress,
            force=args.force,
        )
    finally:
        progress.close()
    for notice in result.notices:
        print(f"bridgeview: {notice}", file=sys.stderr)
    for loss in result.losses:
        print(f"bridgeview: dropped: {loss}", file=sys.stderr)
    return 0
