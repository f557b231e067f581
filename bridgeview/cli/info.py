"""``bridgeview info FILE``: format, size, checksum and file-level fields."""

from __future__ import annotations

import argparse

from ..app.describe import info_lines
from ..formats.codec import ReadOptions
from ..formats.registry import read_file
from ..model.boardset import BoardSet
from .common import Progress

NAME = "info"
ORDER = 20
HELP = "show a file's format, number of boards, checksum and header"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")


def run(args: argparse.Namespace) -> int:
    progress = Progress("reading")  # shows activity on a terminal while a big file is scanned
    try:
        doc = read_file(args.file, args.from_fmt, ReadOptions())
        if not isinstance(doc, BoardSet):  # a cribbage game says what it is itself
            rows = doc.info_lines()
        else:
            rows = info_lines(args.file, doc)
            # what the reader survived (a truncated copy's tail, a DLM checksum), as the GUI's details show it
            problems = doc.problems
            rows += [("warning", message) for _index, _line, message in problems[:5]]
            if len(problems) > 5:
                rows.append(("warning", f"… and {len(problems) - 5} more (see bridgeview validate)"))
    finally:
        progress.close()
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k + ':':<{width + 1}} {v}")
    return 0
