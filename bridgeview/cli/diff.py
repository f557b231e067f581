"""``bridgeview diff A B``: the boards of two files compared board by board."""

from __future__ import annotations

import sys

from ..check import compare_sets
from ..formats.errors import FormatError
from ..formats.registry import ReadOptions, read_file
from ..model.text import plural
from .common import board_number

NAME = "diff"
ORDER = 32
HELP = "compare two files board by board (deals rotated, hands swapped, cards moved, boards missing, tags)"
DESCRIPTION = (
    "Compare the boards of A and B, matched by board number: same deal, hands rotated, hands swapped, cards "
    "moved (named), boards only on one side, and the tags that differ (PBN, LIN). Exit status 0 when the deals "
    "are identical (tags may differ), 1 otherwise."
)


def add_arguments(p) -> None:
    p.add_argument("a", metavar="A")
    p.add_argument("b", metavar="B")
    p.add_argument("--no-tags", action="store_true", help="compare deals and board numbers only")
    p.add_argument(
        "--start-board", type=board_number, metavar="N", help="number of the first board for formats that store none"
    )


def _read(path: str, start: int | None):
    doc = read_file(path, None, ReadOptions(start_board=start))
    if not hasattr(doc, "info"):
        raise FormatError("holds a cribbage game, not bridge boards", path=path)
    return doc


def run(args) -> int:
    a, b = _read(args.a, args.start_board), _read(args.b, args.start_board)
    diffs = compare_sets(a, b, name_a=args.a, name_b=args.b, tags=not args.no_tags)
    for d in diffs:
        print(str(d))
    deals = [d for d in diffs if d.kind != "tags"]
    n = max(len(a), len(b))
    if deals:
        print(f"{len(deals)} of {plural(n, 'board')} differ", file=sys.stderr)
        return 1
    tags = len(diffs)
    extra = f" ({tags} with different tags)" if tags else ""
    m = len({x.number for x in a if x.number is not None}) or len(a)
    print(f"same deals on all {plural(m, 'board')}{extra}")
    return 0
