"""``bridgeview check FILE [--against OTHER]``: is the set fit for the dealing machine?"""

from __future__ import annotations

import argparse
import sys

from ..check import check_set, compare_sets, count_tables, summary
from ..check.compare import BoardDiff
from ..check.ready import Issue
from ..formats.codec import ReadOptions
from ..model.boardset import BoardSet
from .common import board_number, read_boards

NAME = "check"
ORDER = 31
HELP = "check a set before a machine deals it (full deals, duplicates, numbering, DUP fields)"
DESCRIPTION = (
    "Check FILE before a dealing machine deals it: every validate problem, boards that are not full deals, "
    "the same deal twice (also rotated), board numbers repeated, missing from the run or outside 1-999, "
    "dealer/vulnerability that do not follow from the number, and DUP control fields that disagree with the "
    "boards. Each board is checked once; its other tables (rooms, traveller records) must hold the same deal. "
    "With --against OTHER, every board must also hold the same deal as OTHER's board with that number. "
    "One line per problem, then a summary; exit status 0 when the set is ready to deal (warnings, as validate "
    "gives them, do not stop it), 1 otherwise."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument("--against", metavar="OTHER", help="a second file that must hold the same deals")
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")
    p.add_argument(
        "--start-board", type=board_number, metavar="N", help="number of the first board for formats that store none"
    )


def _read(path: str, args: argparse.Namespace) -> BoardSet:
    return read_boards(path, args.from_fmt if path == args.file else None, ReadOptions(start_board=args.start_board))


def run(args: argparse.Namespace) -> int:
    doc = _read(args.file, args)
    issues: list[Issue | BoardDiff] = list(check_set(doc))
    if args.against:
        other = _read(args.against, args)
        issues += compare_sets(
            doc, other, name_a=args.file, name_b=args.against, tags=False, here="here", there="there"
        )
    for issue in issues:
        print(f"{args.file}: {issue}")
    errors = [x for x in issues if not isinstance(x, Issue) or x.is_error]  # a deal differing is an error
    text = summary(issues, len(doc), count_tables(doc))
    if args.against and not errors:
        text += f", same deals as {args.against}"
    print(f"{args.file}: {text}", file=sys.stdout if not errors else sys.stderr)
    return 1 if errors else 0
