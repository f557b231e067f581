"""``bridgeview print FILE -o OUT.pdf``: hand records as a PDF (drawn offscreen) or a web page."""

from __future__ import annotations

import argparse
import sys

from ..formats.errors import FormatError
from ..model.boardset import BoardSet
from ..model.text import plural
from .common import board_number
from .outputs import add_hand_record_arguments

NAME = "print"
ORDER = 62
HELP = "print hand records (diagrams, HCP, makeable contracts, par) to a PDF or a web page"
DESCRIPTION = (
    "Write FILE's boards as hand records to OUT.pdf or OUT.html: a title line, then each board in number order "
    "with its dealer, vulnerability, the four hands, HCP and (unless --no-dd) the makeable contracts and par, "
    "solving the boards the file holds no double-dummy results for. The PDF keeps its text as text (fonts "
    "embedded); the web page is one self-contained file, readable on a phone and printable from a browser. "
    "Several -o write several sheets from one solving; -o - writes to standard output (PDF unless --to html). "
    "Each board is printed once (the other room's or table's copy is left out) and boards without "
    "cards are left out, both with a notice. When check finds problems in the set, the records are printed all the "
    "same and the exit status is 1 (0 with --force). Needs no display."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        action="append",
        metavar="OUT",
        help="the PDF (.pdf) or web page (.html) to write; repeat for several; - for standard output",
    )
    p.add_argument(
        "--to",
        dest="to_fmt",
        choices=("pdf", "html"),
        help="the sheet for standard output and for outputs whose extension is neither (default pdf)",
    )
    add_hand_record_arguments(p)
    p.add_argument(
        "--force",
        action="store_true",
        help="exit status 0 even when check finds problems in the set (the records are printed anyway); "
        "replace write-protected outputs",
    )
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")
    p.add_argument(
        "--start-board", type=board_number, metavar="N", help="number of the first board for formats that store none"
    )


def run(args: argparse.Namespace) -> int:
    from ..formats.codec import ReadOptions
    from ..formats.registry import read_file
    from .outputs import exit_status, hand_record_options, resolve_targets, write_outputs

    targets = resolve_targets(args.output, args.to_fmt, default="pdf", sheets_only=True, to_sets_one=False)
    doc = read_file(args.file, args.from_fmt, ReadOptions(start_board=args.start_board))
    if not isinstance(doc, BoardSet):
        raise FormatError(
            "holds a cribbage game, not bridge boards: there are no hand records to print", path=args.file
        )
    if not len(doc):
        raise FormatError("the file holds no boards", path=args.file)
    from ..handrecords.content import MAX_BOARDS

    if len(doc) > MAX_BOARDS:
        raise FormatError(f"{len(doc):,} boards are too many to print (at most {MAX_BOARDS:,})", path=args.file)
    status = exit_status(write_outputs(doc, targets, records=hand_record_options(args, doc), force=args.force))
    return max(status, _checked(args, doc))


def _checked(args: argparse.Namespace, doc: BoardSet) -> int:
    """Hand records of a set that is not ready to deal are printed all the same, but said so: exit status 1
    with ``check``'s count of errors on stderr, unless ``--force``."""
    from ..check import check_set

    errors = [x for x in check_set(doc) if x.is_error]
    if not errors:
        return 0
    print(
        f"bridgeview: {args.file}: check finds {plural(len(errors), 'problem')} in this set "
        f"(bridgeview check lists them); the hand records are printed all the same"
        + ("" if args.force else " (--force: exit status 0)"),
        file=sys.stderr,
    )
    return 0 if args.force else 1
