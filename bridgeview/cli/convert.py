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
    p.add_argument("--start-board", type=board_number, metavar="N",
                   help="number of the first board for formats that store none")
    p.add_argument("--force", action="store_true", help="replace OUT even if it is write-protected")


def run(args) -> int:
    from ..formats.convert import convert_file  # numpy: only when converting (keeps `bridgeview info` fast)

    progress = Progress("converting", counts=False)  # the count of a check-then-write pass means little
    try:
        result = convert_file(
            args.input, args.output, from_fmt=args.from_fmt, to_fmt=args.to_fmt,
            start_board=args.start_board, progress=progress, force=args.force,
        )
    finally:
        progress.close()
    for notice in result.notices:
        print(f"bridgeview: {notice}", file=sys.stderr)
    for loss in result.losses:
        print(f"bridgeview: dropped: {loss}", file=sys.stderr)
    return 0
