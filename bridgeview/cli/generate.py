"""``bridgeview generate SCRIPT``: deals to order from a dealer script, printed or saved.

Without ``-o`` the script's actions print as dealer prints them (``printall``,
``printpbn``, ``average``, ``frequency``, ...), then dealer's closing lines.  With
``-o`` the produced set goes to every output through ``cli/outputs.py``, as
``convert`` writes: a deal file in the format of its extension (or ``--to``),
hand records (``.pdf``, ``.html``), or ``-`` for standard output, each with its
own notice of what it cannot hold.  Averages and frequencies still print (on
stderr when the set goes to standard output).  Every output is checked before
the first deal is made, so a set too big for a dealing machine's file fails at
once, not after an hour.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    import numpy as np

    from ..generate.actions import Produced
    from ..generate.engine import Progress, Summary
    from ..generate.script import Script
    from .outputs import Target

NAME = "generate"
ORDER = 15
HELP = "make deals to order from a dealer script (printed, or saved as PBN, DUP, DLM, PDF hand records, ...)"
DESCRIPTION = (
    "Read SCRIPT (a file in Hans van Staveren's dealer language, or - for standard input) and make its deals. "
    "Without -o, print what the script's actions print, as dealer does. With -o (as often as you like), write "
    "the produced set to each OUT: a deal file in the format of its extension (or --to), hand records (.pdf, "
    ".html), or - for standard output; each says what it cannot hold. Deals come from the operating system's "
    "secure random source, or from --seed S (the same seed makes the same deals)."
)

MAX_SEED = 2**64 - 1


def _whole(low: int, high: int, what: str) -> Callable[[str], int]:
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


def add_arguments(p: argparse.ArgumentParser) -> None:
    from .common import board_number
    from .outputs import add_hand_record_arguments

    p.add_argument("script", metavar="SCRIPT", help="the dealer script (- reads standard input)")
    p.add_argument(
        "-o",
        "--output",
        action="append",
        default=[],
        metavar="OUT",
        help="write the set to OUT: a deal file (format from the extension), .pdf/.html hand records, or - for "
        "standard output; repeat for several",
    )
    p.add_argument(
        "--to",
        dest="to_fmt",
        metavar="FMT",
        help="the format of standard output (default pbn) and of outputs whose extension names none",
    )
    p.add_argument("--produce", type=_count, metavar="N", help="deals to produce (overrides the script's produce)")
    p.add_argument("--generate", type=_count, metavar="N", help="most deals to try (overrides the script's generate)")
    p.add_argument("--seed", type=_seed, metavar="S", help="make a repeatable set from this seed")
    p.add_argument("--first-board", type=board_number, default=1, metavar="N", help="number of the first board (-o)")
    p.add_argument("--jobs", type=_jobs, metavar="N", help="processes to use (default: one per core)")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    p.add_argument("--force", action="store_true", help="replace write-protected outputs")
    add_hand_record_arguments(p, title="hand records (.pdf and .html outputs)")


def run(args: argparse.Namespace) -> int:
    from ..formats.errors import FormatError
    from ..generate import engine
    from ..generate.actions import Report
    from ..generate.parser import parse
    from ..generate.script import PrintPBN
    from .outputs import resolve_targets, sheet_options_given

    engine.keep_freed_memory()  # this process only makes deals: chunk after chunk of big arrays
    name, text = _read_script(args.script)
    script = parse(text, name)
    targets = resolve_targets(args.output, args.to_fmt) if args.output else []
    given = sheet_options_given(args)
    if given and not any(t.sheet for t in targets):
        raise FormatError(f"{', '.join(given)} set hand records; no output is .pdf or .html", path=name)
    limits = engine.limits(script, args.produce, args.generate, outputs=bool(targets))
    for target in targets:
        _check_room(target, limits.produce, args.first_board, args.force)
    # what is not the set goes to stderr when the set itself goes to standard output
    told = sys.stderr if any(t.to_stdout for t in targets) else sys.stdout
    report = Report(script, told.write, args.seed, print_deals=not targets)  # with -o only statistics print
    kept: list[np.ndarray] = []

    def consume(batch: Produced) -> None:
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
    told.flush()
    failed = _write_outputs(targets, kept, script, args, summary, told) if targets else False
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


def _check_room(target: Target, produce: int, first: int, force: bool) -> None:
    """FormatError now, before any deal is made, when an output cannot take the boards this run may make:
    too many (DLM keeps 99, hand records 5,000), numbered too high (DUP's boards go to 999), or a file
    that is write-protected."""
    from ..formats.atomic import check_target
    from ..formats.errors import FormatError
    from ..handrecords.content import MAX_BOARDS

    if not target.to_stdout:
        check_target(target.path, force)
    what = target.title
    most = target.codec.caps.max_records if target.codec is not None else MAX_BOARDS
    if most is not None and produce > most:
        raise FormatError(f"{what} hold at most {most:,} boards; this run produces up to {produce:,}", path=target.name)
    highest = target.codec.caps.max_board if target.codec is not None else None
    last = first + produce - 1
    if highest is not None and last > highest:
        raise FormatError(
            f"{what} numbers boards up to {highest:,}; boards {first:,} to {last:,} would not fit", path=target.name
        )


def _write_outputs(
    targets: list[Target],
    kept: list[np.ndarray],
    script: Script,
    args: argparse.Namespace,
    summary: Summary,
    told: TextIO,
) -> bool:
    """Write the set to every output (``cli/outputs.py``: each on its own, a failure named and the others
    still written); True when one failed."""
    import numpy as np

    from ..generate.boards import board_set
    from ..model.text import plural
    from .outputs import exit_status, hand_record_options, write_outputs

    hands = np.concatenate(kept, axis=2) if kept else np.zeros((4, 4, 0), dtype=np.uint16)
    boards = board_set(hands, script, first=args.first_board, seed=args.seed)
    print(f"generated {summary.generated:,} deals, produced {plural(summary.produced, 'deal', ',')}", file=told)
    told.flush()
    if not len(boards):
        for target in targets:
            print(f"bridgeview: {target.name}: no deal was produced: nothing written", file=sys.stderr)
        return True
    records = hand_record_options(args, boards) if any(t.sheet for t in targets) else None
    return bool(exit_status(write_outputs(boards, targets, records=records, force=args.force)))


class _Status:
    """Deals tried and produced, and the time left, on a terminal's standard error (after a second)."""

    DELAY = 1.0

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.start = time.monotonic()
        self.last = 0.0
        self.width = 0

    def __call__(self, progress: Progress) -> None:
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
