"""``bridgeview validate FILE``: the problems in a file, repeated kinds grouped.

Errors (the deal, auction or play is wrong) make the exit status 1; warnings
(non-standard but harmless, such as dealer and vulnerability that do not follow
the board number in a generated file) do not, unless ``--strict``.  A kind of
problem found more than ``GROUP_AFTER`` times is one line with its count and
first boards; ``--all`` lists every one.
"""

from __future__ import annotations

import argparse
import sys

from ..check.validate import Problem, validate
from ..formats.codec import ReadOptions
from ..formats.registry import read_file
from ..model.boardset import BoardSet
from ..model.text import plural
from .common import Progress, board_number, say_ignored_options

NAME = "validate"
ORDER = 30
HELP = "check every board (deals, numbers, dealer/vul, auction, play, duplicates)"
#: a kind of problem seen more often than this is listed as one line (without --all)
GROUP_AFTER = 3
#: how many places a grouped line names
FIRST_PLACES = 5


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="FILE")
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")
    p.add_argument(
        "--start-board", type=board_number, metavar="N", help="number of the first board for formats that store none"
    )
    p.add_argument("--all", action="store_true", help="list every problem, not one line per repeated kind")
    p.add_argument("--strict", action="store_true", help="warnings also make the exit status 1")


def problem_lines(problems: list[Problem], every: bool = False) -> list[str]:
    """The listing: one line a problem (warnings marked), or one line for each kind seen
    more than ``GROUP_AFTER`` times, in the order each kind first occurs, with the first case whole."""

    def one(p: Problem) -> str:
        return f"warning: {p}" if not p.is_error else str(p)

    if every:
        return [one(p) for p in problems]
    groups: dict[tuple[str | None, str | None], list[Problem]] = {}
    for p in problems:
        groups.setdefault((p.severity, p.kind), []).append(p)
    lines: list[str] = []
    for (severity, kind), group in groups.items():
        if len(group) <= GROUP_AFTER:
            lines.extend(one(p) for p in group)
            continue
        places = [p.location() for p in group]
        if len(set(places)) < len(places):  # one board number again and again (travellers gone wrong)
            places = [f"record {p.record or p.index + 1}" if p.index is not None else p.location() for p in group]
        shown = ", ".join(places[:FIRST_PLACES]) + (", …" if len(places) > FIRST_PLACES else "")
        label = "warning" if severity != "error" else "error"
        # a kind named in words says it all; one read off the messages shows its first case whole
        what = kind if group[0].named_kind else f"{group[0].message} (the first of them)"
        lines.append(f"{plural(len(group), label)}: {what}: {shown} (--all lists every one)")
    return lines


def run(args: argparse.Namespace) -> int:
    progress = Progress("validating")  # a bar on a terminal once it takes more than a second
    try:
        doc = read_file(args.file, args.from_fmt, ReadOptions(start_board=args.start_board))
        say_ignored_options(doc)
        if not isinstance(doc, BoardSet):  # a cribbage game: its reader already checked it
            found = [Problem(str(p)) for p in doc.problems()]
        else:
            found = validate(doc, progress=progress)
    finally:
        progress.close()
    for line in problem_lines(found, args.all):
        print(f"{args.file}: {line}")
    n = len(doc)
    unit = "deal" if not isinstance(doc, BoardSet) else "board"
    errors = sum(p.is_error for p in found)
    warnings = len(found) - errors
    if errors or (warnings and args.strict):
        print(f"{args.file}: {plural(len(found), 'problem')} in {plural(n, unit)}", file=sys.stderr)
        return 1
    if warnings:
        print(f"{args.file}: {plural(n, unit)}, {plural(warnings, 'warning')}, no errors")
        return 0
    print(f"{args.file}: {plural(n, unit)}, no problems")
    return 0
