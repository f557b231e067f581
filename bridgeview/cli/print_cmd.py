"""``bridgeview print FILE -o OUT.pdf``: hand records as a PDF, drawn offscreen."""

from __future__ import annotations

import os
import sys

from ..formats.errors import FormatError
from ..model.text import plural
from .common import DD_TIMEOUT, Progress, board_number, seconds

NAME = "print"
ORDER = 62
HELP = "print hand records (diagrams, HCP, makeable contracts, par) to a PDF"
DESCRIPTION = (
    "Write FILE's boards as hand records to OUT.pdf: a title line, then each board in number order with its "
    "dealer, vulnerability, the four hands, HCP and (unless --no-dd) the makeable contracts and par, solving "
    "the boards the file holds no double-dummy results for. Text stays text (fonts embedded). Needs no display."
)


#: The layout's choices (``ui.hand_records`` has the same; kept here so ``--help`` needs no Qt).
PER_PAGE = (1, 2, 4, 6, 9)
PAPERS = ("A4", "Letter")


def add_arguments(p) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument("-o", "--output", required=True, metavar="OUT.pdf", help="the PDF to write")
    p.add_argument("--per-page", type=int, choices=PER_PAGE, default=4, help="boards a page (default 4)")
    p.add_argument("--no-dd", action="store_true", help="leave out makeable contracts and par")
    p.add_argument("--paper", choices=PAPERS, default="A4", help="page size (default A4)")
    p.add_argument("--landscape", action="store_true", help="landscape pages (default portrait)")
    p.add_argument("--title", metavar="TEXT", help="the title line (default: event, site and date from the file)")
    p.add_argument("--four-colour", action="store_true", help="four-colour suits (diamonds orange, clubs green)")
    p.add_argument(
        "--dd-timeout",
        "--time-limit",
        dest="time_limit",
        type=seconds,
        default=DD_TIMEOUT,
        metavar="SECONDS",
        help=f"longest wait for a deal's double-dummy analysis (default {DD_TIMEOUT:g})",
    )
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")
    p.add_argument(
        "--start-board", type=board_number, metavar="N", help="number of the first board for formats that store none"
    )


def run(args) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ..formats.registry import ReadOptions, read_file

    if not args.output.lower().endswith(".pdf"):
        raise FormatError("the output must be a .pdf file", path=args.output)
    if not args.time_limit > 0:
        raise FormatError("--time-limit must be more than 0 seconds", path=args.file)
    doc = read_file(args.file, args.from_fmt, ReadOptions(start_board=args.start_board))
    if not hasattr(doc, "info"):
        raise FormatError(
            "holds a cribbage game, not bridge boards: there are no hand records to print", path=args.file
        )
    if not len(doc):
        raise FormatError("the file holds no boards", path=args.file)
    if len(doc) > 5000:
        raise FormatError(f"{len(doc):,} boards are too many to print (at most 5,000)", path=args.file)
    from PySide6.QtCore import qInstallMessageHandler

    from .render import _quiet_qt

    previous = _quiet_qt()
    try:
        return _print(args, doc)
    finally:
        qInstallMessageHandler(previous)


def _print(args, doc) -> int:
    from ..ui.app import application
    from ..ui.hand_records import HandRecordOptions, default_title, prepare, write_pdf

    application()
    options = HandRecordOptions(
        title=args.title if args.title is not None else default_title(doc, args.file),
        per_page=args.per_page,
        dd=not args.no_dd,
        page_size=args.paper,
        landscape=args.landscape,
        four_colour=args.four_colour,
        time_limit=args.time_limit,
    )
    progress = Progress("solving")
    try:
        data = prepare(doc, options, progress=progress)
    finally:
        progress.close()
    for note in sorted(set(data.notes.values())):
        count = sum(1 for v in data.notes.values() if v == note)
        print(f"bridgeview: {plural(count, 'board')}: {note}", file=sys.stderr)
    pages = write_pdf(data, args.output, options)
    print(f"{args.output}: {plural(len(data.boards), 'board')} on {plural(pages, 'page')}")
    return 0
