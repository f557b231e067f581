"""``bridgeview generate SCRIPT``: deals to order from a dealer script, printed or saved.

Without ``-o`` the script's actions print as dealer prints them (``printall``,
``printpbn``, ``average``, ``frequency``, ...), then dealer's closing lines.  With
``-o`` the produced set is written to each file in the format of its extension,
each with its own notice of what the format cannot hold; a ``.pdf`` gets hand
records as ``bridgeview print`` makes them.  Averages and frequencies still
print.  Every output is checked before the first deal is made, so a set too big
for a dealing machine's file fails at once, not after an hour.
"""

from __future__ import annotations

import argparse
import sys
import time

NAME = "generate"
ORDER = 15
HELP = "make deals to order from a dealer script (printed, or saved as PBN, DUP, DLM, PDF hand records, ...)"
DESCRIPTION = (
    "Read SCRIPT (a file in Hans van Staveren's dealer language, or - for standard input) and make its deals. "
    "Without -o, print what the script's actions print, as dealer does. With -o (as often as you like), write "
    "the produced set to each OUT in the format of its extension; a .pdf gets hand records. Deals come from the "
    "operating system's secure random source, or from --seed S (the same seed makes the same deals)."
)

MAX_SEED = 2**64 - 1


def _whole(low: int, high: int, what: str):
    """An argparse type: a whole number from ``low`` to ``high`` (else a usage error naming ``what``)."""

    def parse(text: str) -> int:
        try:
            value = int(text.replace(",", "").replace("_", ""))
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} goes from {low:,} to {high:,}, not {value:,}")
        return value

    return parse


_count = _whole(1, 2_000_000_000, "a number of deals")
_seed = _whole(0, MAX_SEED, "a seed")
_jobs = _whole(1, 256, "a number of processes")


def add_arguments(p) -> None:
    from .common import board_number

    p.add_argument("script", metavar="SCRIPT", help="the dealer script (- reads standard input)")
    p.add_argument(
        "-o", "--output", action="append", default=[], metavar="OUT", help="write the set to OUT (repeat for more)"
    )
    p.add_argument("--produce", type=_count, metavar="N", help="deals to produce (overrides the script's produce)")
    p.add_argument("--generate", type=_count, metavar="N", help="most deals to try (overrides the script's generate)")
    p.add_argument("--seed", type=_seed, metavar="S", help="make a repeatable set from this seed")
    p.add_argument("--first-board", type=board_number, default=1, metavar="N", help="number of the first board (-o)")
    p.add_argument("--jobs", type=_jobs, metavar="N", help="processes to use (default: one per core)")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    p.add_argument("--force", action="store_true", help="replace write-protected outputs")


def run(args) -> int:
    from ..formats.errors import FormatError
    from ..generate import engine
    from ..generate.actions import Report
    from ..generate.parser import parse
    from ..generate.script import PrintPBN

    engine.keep_freed_memory()  # this process only makes deals: chunk after chunk of big arrays
    name, text = _read_script(args.script)
    script = parse(text, name)
    targets = [_target(path, args) for path in args.output]
    limits = engine.limits(script, args.produce, args.generate, outputs=bool(targets))
    for path, codec in targets:
        _check_room(path, codec, limits.produce, args.first_board)
    out = sys.stdout
    report = Report(script, out.write, args.seed, print_deals=not targets)  # with -o only statistics print
    kept: list = []

    def consume(batch) -> None:
        if targets or report.keeps_hands:
            kept.append(batch.hands)
        report.feed(batch)

    status = _Status(not args.quiet)
    try:
        summary = engine.run(script, limits, consume, seed=args.seed, jobs=args.jobs, progress=status)
    except FormatError as e:  # a division by zero the deals run into: the script's mistake, located
        if e.path is None:
            e.path = name
        raise
    finally:
        status.close()
    report.finish(summary.produced)
    if not targets and not any(isinstance(a, PrintPBN) for a in script.effective_actions):
        report.statistics(summary.generated, summary.produced, summary.seconds)
    out.flush()
    failed = False
    if targets:
        failed = _write_outputs(targets, kept, script, args, summary)
    if summary.stopped:
        print(f"bridgeview: interrupted after {summary.produced:,} of {limits.produce:,} deals", file=sys.stderr)
        return 130
    return 1 if failed else 0


def _read_script(path: str) -> tuple[str, str]:
    """(name, text) of the script; its name is what ``printpbn`` and the set's event quote."""
    from ..formats.errors import FormatError

    if path == "-":
        data = sys.stdin.buffer.read()
    else:
        with open(path, "rb") as f:
            data = f.read()
    if b"\0" in data:
        raise FormatError("not a text file (a dealer script is plain text)", path=path)
    try:
        return path, data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return path, data.decode("latin-1")


def _target(path: str, args):
    """(path, codec) of an output; codec None for PDF hand records.  FormatError for an unknown kind."""
    from ..formats.registry import check_target, codec_for_output

    check_target(path, args.force)
    if path.lower().endswith(".pdf"):
        return path, None
    return path, codec_for_output(path)


def _check_room(path: str, codec, produce: int, first: int) -> None:
    """FormatError now, before any deal is made, when the output cannot hold the boards this run may
    make: too many (DLM keeps 99, hand records 5,000) or numbered too high (DUP's boards go to 999)."""
    from ..formats.errors import FormatError

    what = codec.title if codec is not None else "hand records"
    most = codec.caps.max_records if codec is not None else 5000
    if most is not None and produce > most:
        raise FormatError(f"{what} hold at most {most:,} boards; this run produces up to {produce:,}", path=path)
    highest = codec.caps.max_board if codec is not None else None
    last = first + produce - 1
    if highest is not None and last > highest:
        raise FormatError(
            f"{what} numbers boards up to {highest:,}; boards {first:,} to {last:,} would not fit", path=path
        )


def _write_outputs(targets, kept, script, args, summary) -> bool:
    """Write the set to every output; a failure is reported and the others are still written.
    True when one failed."""
    import numpy as np

    from ..formats.convert import write_document
    from ..formats.errors import FormatError
    from ..generate.boards import board_set
    from ..model.text import plural

    hands = np.concatenate(kept, axis=2) if kept else np.zeros((4, 4, 0), dtype=np.uint16)
    boards = board_set(hands, script, first=args.first_board, seed=args.seed)
    print(f"generated {summary.generated:,} deals, produced {plural(summary.produced, 'deal', ',')}")
    failed = False
    for path, codec in targets:
        try:
            if not len(boards):
                raise FormatError("no deal was produced: nothing written", path=path)
            if codec is None:
                pages = _hand_records(boards, path)
                print(f"{path}: {plural(len(boards), 'board', ',')} on {plural(pages, 'page', ',')}")
                continue
            result = write_document(boards, path, codec, force=args.force)
            for loss in result.losses:
                print(f"bridgeview: {path}: dropped: {loss}", file=sys.stderr)
            print(f"{path}: {plural(len(boards), 'board', ',')}")
        except FormatError as e:
            if e.path is None:
                e.path = path
            print(f"bridgeview: {e.full()}", file=sys.stderr)
            failed = True
        except OSError as e:
            print(f"bridgeview: {path}: {e.strerror or e}", file=sys.stderr)
            failed = True
    return failed


def _hand_records(boards, path: str) -> int:
    """Hand records as ``bridgeview print`` makes them (four boards a page, DD tables and par)."""
    import os

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ..ui.app import application
    from ..ui.hand_records import HandRecordOptions, default_title, prepare, write_pdf
    from .common import Progress

    application()
    options = HandRecordOptions(title=default_title(boards))
    progress = Progress("solving")
    try:
        data = prepare(boards, options, progress=progress)
    finally:
        progress.close()
    return write_pdf(data, path, options)


class _Status:
    """Deals tried and produced, and the time left, on a terminal's standard error (after a second)."""

    DELAY = 1.0

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.width = 0

    def __call__(self, progress) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.DELAY or now - self.last < 0.2:
            return
        from .common import duration

        self.last = now
        left = progress.seconds_left
        text = (
            f"generating {min(1.0, progress.fraction):6.1%}: {progress.generated:,} deals tried, "
            f"{progress.produced:,} produced" + (f", {duration(left)} left" if left is not None else "")
        )
        sys.stderr.write("\r" + text + " " * max(0, self.width - len(text)))
        sys.stderr.flush()
        self.width = len(text)

    def close(self) -> None:
        if self.enabled and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
