"""``bridgeview convert IN OUT [OUT…]``: any supported format to any other, to several at once."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..formats.errors import FormatError
from ..model.boardset import BoardSet
from .common import Progress, board_number, names_standard_output
from .outputs import SHEET_EXTENSIONS, SHEETS, STDOUT, add_hand_record_arguments, sheet_options_given

if TYPE_CHECKING:
    from ..formats.codec import Content, ConvertResult, ProgressFn

NAME = "convert"
ORDER = 10
HELP = "convert a deal file to other formats, hand records or standard output"
DESCRIPTION = (
    "Read IN once and write it to every OUT: a deal file in the format of its extension (or --to), hand "
    "records (.pdf, .html), or - for standard output (PBN unless --to names another format). Each output "
    "says what it cannot hold; one that cannot take the set is named and the others are still written "
    "(exit status 1)."
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("input", metavar="IN")
    p.add_argument(
        "output",
        metavar="OUT",
        nargs="+",
        help="a file to write (format from the extension), .pdf/.html hand records, or - for standard output",
    )
    p.add_argument("--from", dest="from_fmt", metavar="FMT", help="input format (default: detect)")
    p.add_argument(
        "--to",
        dest="to_fmt",
        metavar="FMT",
        help="output format or variant (default: from the extension; for standard output, pbn); with several "
        "outputs, it applies to standard output and to outputs whose extension names no other format",
    )
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
    add_hand_record_arguments(p, title="hand records (.pdf and .html outputs)")


def _dup_options(args: argparse.Namespace) -> bool:
    return any(getattr(args, k, None) is not None for k in ("dup_random", "dup_backwards", "dup_copies", "dup_first"))


def _edited(doc: Content, args: argparse.Namespace, dup: bool) -> BoardSet:
    """The set renumbered and/or with its DUP fields set (``--renumber``, ``--dup-*``), as a new board set."""
    from dataclasses import replace

    from ..formats.duplimate.bri import DEFAULT_DUP
    from ..model.editing import board_numbers

    if not isinstance(doc, BoardSet):
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
    if dup:
        control = doc.info.dup or DEFAULT_DUP
        first = boards[0].number if boards and boards[0].number else 1
        last = max((b.number for b in boards if b.number is not None), default=first)
        out.info.dup = replace(
            control,
            first_board=first,
            last_board=max(first, last),
            random=control.random if args.dup_random is None else args.dup_random == "yes",
            backwards=control.backwards if args.dup_backwards is None else args.dup_backwards == "yes",
            copies=control.copies if args.dup_copies is None else args.dup_copies,
        )
    return out


def _check_dup_options(args: argparse.Namespace, titles: list[str], has_dup: bool, path: str | None) -> None:
    if _dup_options(args) and not has_dup:
        has_none = f"{titles[0]} has none" if len(titles) == 1 else "no output is a DUP file"
        raise FormatError(f"--dup-* options set a DUP file's control fields; {has_none}", path=path)
    if args.dup_copies is not None and not 0 <= args.dup_copies <= 99:
        raise FormatError(f"--dup-copies must be 0-99, not {args.dup_copies}", path=path)


def _convert_edited(args: argparse.Namespace, output: str, progress: ProgressFn | None) -> ConvertResult:
    """Read, renumber and/or set the DUP fields, then write: the path for --renumber and --dup-*."""
    from ..formats.codec import ReadOptions, WriteOptions
    from ..formats.convert import write_document
    from ..formats.registry import codec_for_output, read_file

    codec = codec_for_output(output, args.to_fmt)
    _check_dup_options(args, [codec.title], codec.name == "dup", output)
    doc = read_file(args.input, args.from_fmt, ReadOptions(start_board=args.start_board))
    return write_document(
        _edited(doc, args, codec.name == "dup"),
        output,
        codec,
        WriteOptions(start_board=args.start_board),
        progress,
        count_boards=True,
        force=args.force,
    )


def _one_file(outputs: list[str], to_fmt: str | None) -> bool:
    """A single deal file: the conversion as it always was (streamed, vectorised between record formats)."""
    if len(outputs) != 1 or outputs[0] == STDOUT:
        return False
    if to_fmt is not None:
        return to_fmt.lower() not in SHEETS
    from pathlib import Path

    return Path(outputs[0]).suffix.lower() not in SHEET_EXTENSIONS


def run(args: argparse.Namespace) -> int:
    args.output = [STDOUT if names_standard_output(path) else path for path in args.output]  # (/dev/stdout is -)
    if _one_file(args.output, args.to_fmt):
        given = sheet_options_given(args)
        if given:
            raise FormatError(f"{', '.join(given)} set hand records; no output is .pdf or .html", path=args.output[0])
        return _convert_one(args, args.output[0])
    return _convert_many(args)


def _convert_one(args: argparse.Namespace, output: str) -> int:
    from ..formats.convert import convert_file  # numpy: only when converting (keeps `bridgeview info` fast)

    progress = Progress("converting", counts=False)  # the count of a check-then-write pass means little
    if args.renumber or _dup_options(args):
        try:
            result = _convert_edited(args, output, progress)
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
            output,
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


def _convert_many(args: argparse.Namespace) -> int:
    """Several outputs (or standard output, or hand records): one read, each output written on its own."""
    from ..formats.codec import ReadOptions, WriteOptions
    from ..formats.registry import read_file
    from .common import say_ignored_options
    from .outputs import exit_status, hand_record_options, resolve_targets, write_outputs

    targets = resolve_targets(args.output, args.to_fmt)
    files = [t for t in targets if t.codec is not None]
    has_dup = any(t.codec is not None and t.codec.name == "dup" for t in files)
    where = args.output[0] if len(args.output) == 1 else None
    _check_dup_options(args, [t.title for t in targets], has_dup, where)
    given = sheet_options_given(args)
    if given and not any(t.sheet for t in targets):
        raise FormatError(f"{', '.join(given)} set hand records; no output is .pdf or .html", path=where)
    doc = read_file(args.input, args.from_fmt, ReadOptions(start_board=args.start_board))
    say_ignored_options(doc)
    if args.renumber or _dup_options(args):
        doc = _edited(doc, args, has_dup)
    records = hand_record_options(args, doc) if any(t.sheet for t in targets) else None
    outcomes = write_outputs(
        doc, targets, options=WriteOptions(start_board=args.start_board), records=records, force=args.force
    )
    return exit_status(outcomes)
