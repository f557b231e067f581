"""``bridgeview diff A B``: the boards of two files compared board by board."""

from __future__ import annotations

import argparse
import sys

from ..check.compare import compare_sets, diff_summary, pair_sets
from ..formats.codec import ReadOptions
from ..model.boardset import BoardSet
from .common import board_number, read_boards

NAME = "diff"
ORDER = 32
HELP = "compare two files board by board (deals rotated, hands swapped, cards moved, boards missing, tags)"
DESCRIPTION = (
    "Compare the boards of A and B, matched by board number (and each table of a board by its room, else its "
    "order), boards numbered differently by their deal: same deal, hands turned, hands swapped, cards moved "
    "(named), boards or tables only on one side, and the tags that differ (PBN, LIN). Exit status 0 when the "
    "deals and numbers are identical (tags may differ), 1 otherwise."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    p.add_argument("--no-tags", action="store_true", help="compare deals and board numbers only")
    p.add_argument(
        "--start-board", type=board_number, metavar="N", help="number of the first board for formats that store none"
    )


def _read(path: str, start: int | None) -> BoardSet:
    return read_boards(path, None, ReadOptions(start_board=start))


def run(args: argparse.Namespace) -> int:
    a, b = _read(args.a, args.start_board), _read(args.b, args.start_board)
    pairs = pair_sets(a, b)
    diffs = compare_sets(a, b, name_a=args.a, name_b=args.b, tags=not args.no_tags, pairs=pairs)
    for d in diffs:
        print(str(d))
    text = diff_summary(pairs, diffs)
    if any(d.kind != "tags" for d in diffs):
        print(text, file=sys.stderr)
        return 1
    print(text)
    return 0
