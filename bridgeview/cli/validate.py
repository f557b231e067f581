"""``bridgeview validate FILE``: every problem in a file, one a line."""

from __future__ import annotations

import sys

from ..formats.registry import ReadOptions, read_file
from ..model.validate import validate
from .common import Progress, board_number

NAME = "validate"
ORDER = 30
HELP = "check every board (deals, numbers, dealer/vul, auction, play, duplicates)"


def add_arguments(p) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")
    p.add_argument("--start-board", type=board_number, metavar="N",
                   help="number of the first board for formats that store none")


def run(args) -> int:
    progress = Progress("validating")  # a bar on a terminal once it takes more than a second
    try:
        doc = read_file(args.file, args.from_fmt, ReadOptions(start_board=args.start_board))
        if not hasattr(doc, "info"):  # a cribbage record: its reader already checked it
            problems = [str(p) for p in getattr(doc, "problems", lambda: [])()]
        else:
            problems = [str(p) for p in validate(doc, progress=progress)]
    finally:
        progress.close()
    for p in problems:
        print(f"{args.file}: {p}")
    n = len(doc) if hasattr(doc, "__len__") else 0
    unit = ("board" if hasattr(doc, "info") else "deal") + ("s" if n != 1 else "")
    if problems:
        print(f"{args.file}: {len(problems)} problem{'s' if len(problems) != 1 else ''} in {n} {unit}", file=sys.stderr)
        return 1
    print(f"{args.file}: {n} {unit}, no problems")
    return 0
