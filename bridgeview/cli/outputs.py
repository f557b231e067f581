"""One set, several outputs: ``convert IN OUT [OUT…]``, ``print FILE -o a.pdf -o a.html`` and any command
that makes a set (``generate … -o a.pbn -o a.dlm -o a.pdf``).

The set is read once; each output is then written on its own, with its own notice of what it cannot
hold and its own refusal: one output that cannot take the set (a DLM file and board 100, a write-protected
file) is named, the others are still written, and the exit status says that something failed.  Every file
is written whole or not at all (a temporary file renamed over the target).  An output may be

- a deal file, in the format of its extension (or ``--to``);
- hand records: ``.pdf`` (the PDF ``print`` makes, drawn by Qt offscreen) or ``.html`` (one self-contained
  web page, Qt-free); both come from one preparation, so the boards are solved once for both;
- ``-``, standard output, for pipes: the format ``--to`` names (PBN by default).  Notices go to stderr,
  never into the data; nothing reaches stdout unless the whole set converted; a binary format is refused
  when stdout is a terminal.

Importing this module is cheap (the command line is built without numpy, Qt or the solver); what an
output needs is imported when it is written.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING

from ..formats.errors import FormatError
from ..model.boardset import BoardSet
from ..model.text import plural
from .common import DD_TIMEOUT, Progress, names_standard_output, seconds

if TYPE_CHECKING:
    from ..formats.codec import AnyCodec, Content, WriteOptions
    from ..handrecords.content import HandRecordOptions, PrintData

STDOUT = "-"
#: hand-record sheets by format name, and the extensions that ask for them
SHEETS = {"pdf": "PDF hand records", "html": "HTML hand records"}
SHEET_EXTENSIONS = {".pdf": "pdf", ".html": "html", ".htm": "html"}
#: the layout choices (``handrecords.content`` has the same; kept here so ``--help`` imports nothing heavy)
PER_PAGE = (1, 2, 4, 6, 9)
PAPERS = ("A4", "Letter")


@dataclass(frozen=True)
class Target:
    """Where one output goes (``-`` is standard output) and what it is: a deal format's codec, or a sheet."""

    path: str
    codec: AnyCodec | None = None  # for a deal file
    sheet: str | None = None  # "pdf" or "html" for hand records

    @property
    def to_stdout(self) -> bool:
        return self.path == STDOUT

    @property
    def name(self) -> str:
        return "standard output" if self.to_stdout else self.path

    @property
    def binary(self) -> bool:
        return self.sheet == "pdf" or (self.codec is not None and bool(self.codec.binary))

    @property
    def title(self) -> str:
        if self.sheet:
            return SHEETS[self.sheet]
        return self.codec.title if self.codec is not None else self.path


@dataclass
class Outcome:
    """What writing one target gave: an error (nothing written), or what it lost and what to tell."""

    target: Target
    error: str | None = None
    losses: list[str] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    summary: str = ""  # "records.pdf: 16 boards on 4 pages"


def add_hand_record_arguments(p: argparse.ArgumentParser, *, title: str | None = None) -> None:
    """The hand records' layout options (``print``; ``convert`` and ``generate`` for .pdf/.html outputs).

    Every default is None, so that a command can tell an option given from one left alone."""
    group = p.add_argument_group(title) if title else p
    group.add_argument("--per-page", type=int, choices=PER_PAGE, help="boards a page (default 4)")
    group.add_argument("--no-dd", action="store_true", default=None, help="leave out makeable contracts and par")
    group.add_argument("--paper", choices=PAPERS, help="page size (default A4)")
    group.add_argument("--landscape", action="store_true", default=None, help="landscape pages (default portrait)")
    group.add_argument("--title", metavar="TEXT", help="the title line (default: event, site and date from the file)")
    group.add_argument(
        "--four-colour", action="store_true", default=None, help="four-colour suits (diamonds orange, clubs green)"
    )
    group.add_argument(
        "--dd-timeout",
        "--time-limit",
        dest="time_limit",
        type=seconds,
        metavar="SECONDS",
        help=f"longest wait for a deal's double-dummy analysis (default {DD_TIMEOUT:g})",
    )


_SHEET_OPTIONS = {
    "per_page": "--per-page",
    "no_dd": "--no-dd",
    "paper": "--paper",
    "landscape": "--landscape",
    "title": "--title",
    "four_colour": "--four-colour",
    "time_limit": "--dd-timeout",
}


def sheet_options_given(args: argparse.Namespace) -> list[str]:
    """The hand-record options on the command line (to refuse them when no output is hand records)."""
    return [flag for key, flag in _SHEET_OPTIONS.items() if getattr(args, key, None) is not None]


def hand_record_options(args: argparse.Namespace, boards: Content) -> HandRecordOptions:
    """:class:`~bridgeview.handrecords.content.HandRecordOptions` from the command line, the title from the
    file unless ``--title`` is given."""
    from ..handrecords.content import HandRecordOptions, default_title

    if args.title is not None:
        title = args.title
    else:  # a cribbage game has no title for hand records (its sheets are refused as they are written)
        title = default_title(boards, boards.info.path) if isinstance(boards, BoardSet) else ""
    return HandRecordOptions(
        title=title,
        per_page=args.per_page or 4,
        dd=not args.no_dd,
        page_size=args.paper or "A4",
        landscape=bool(args.landscape),
        four_colour=bool(args.four_colour),
        time_limit=args.time_limit if args.time_limit is not None else DD_TIMEOUT,
    )


# -- choosing the targets ---------------------------------------------------------------------------
def resolve_targets(
    paths: list[str],
    to_fmt: str | None = None,
    *,
    default: str = "pbn",
    sheets_only: bool = False,
    to_sets_one: bool = True,
) -> list[Target]:
    """The targets of ``paths``, checked before anything is read or written (FormatError otherwise).

    ``to_fmt`` names the format of standard output and of every output whose extension names none (or is
    that format's own: ``--to zrj16`` for ``.zrj``); with a single output it is that output's format, as
    ``convert IN OUT --to FMT`` always was (unless ``to_sets_one`` is off: ``print``'s ``--to`` is standard
    output's).  Other outputs go by their extension.  ``default`` is standard output's format without
    ``--to``.  ``sheets_only`` (``print``) allows hand records only.  ``/dev/stdout`` is ``-``."""
    paths = [STDOUT if names_standard_output(path) else path for path in paths]
    if paths.count(STDOUT) > 1:
        raise FormatError("standard output (-) can take only one of the outputs")
    seen: dict[str, str] = {}
    for path in paths:
        if path == STDOUT:
            continue
        key = os.path.realpath(path)
        if key in seen:
            raise FormatError(f"the same file is named twice ({seen[key]} and {path})", path=path)
        seen[key] = path
    single = len(paths) == 1 and to_sets_one
    targets = [_target(path, _format_name(path, to_fmt, single, default), sheets_only) for path in paths]
    for target in targets:
        if target.to_stdout and target.binary and _stdout_is_terminal():
            raise FormatError(
                f"{target.title} is binary: not written to a terminal (send standard output to a file or a pipe, "
                "or choose a text format with --to)",
                path=target.name,
            )
    return targets


def _format_name(path: str, to_fmt: str | None, single: bool, default: str) -> str | None:
    """The format asked for ``path``: a codec or sheet name, or None to go by the extension."""
    ext = Path(path).suffix.lower()
    if path == STDOUT:
        return to_fmt or default
    if to_fmt is None:
        return None
    if single:
        return to_fmt
    if to_fmt.lower() in SHEETS:
        return to_fmt if SHEET_EXTENSIONS.get(ext) == to_fmt.lower() or not _known_extension(ext) else None
    from ..formats.registry import get

    codec = get(to_fmt)
    return to_fmt if ext.lstrip(".") in codec.extensions or not _known_extension(ext) else None


def _known_extension(ext: str) -> bool:
    from ..formats.registry import by_extension

    return ext in SHEET_EXTENSIONS or bool(ext and by_extension("x" + ext))


def _target(path: str, fmt: str | None, sheets_only: bool) -> Target:
    from ..formats.registry import codec_for_output

    sheet = fmt.lower() if fmt and fmt.lower() in SHEETS else None
    if fmt is None:
        sheet = SHEET_EXTENSIONS.get(Path(path).suffix.lower())
    if sheet is not None:
        return Target(path, sheet=sheet)
    if sheets_only:
        raise FormatError("hand records are written as .pdf or .html", path=path)
    if fmt is None and path != STDOUT and not _known_extension(Path(path).suffix.lower()):
        raise FormatError(
            "cannot tell the output format from the extension; use --to, or .pdf/.html for hand records", path=path
        )
    codec = codec_for_output(path, fmt)
    if not codec.can_write:
        raise FormatError(f"{codec.title} files can be read but not written", path=path)
    return Target(path, codec=codec)


def _stdout_is_terminal() -> bool:
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (ValueError, OSError):  # a closed stream
        return False


# -- writing ---------------------------------------------------------------------------------------------
def write_outputs(
    doc: Content,
    targets: list[Target],
    *,
    options: WriteOptions | None = None,
    records: HandRecordOptions | None = None,
    force: bool = False,
) -> list[Outcome]:
    """Write ``doc`` (a board set, or a cribbage game for deal formats that hold one) to every target.

    ``options`` are the deal formats' :class:`~bridgeview.formats.registry.WriteOptions`; ``records`` the
    hand records' :class:`~bridgeview.handrecords.content.HandRecordOptions` (default: the defaults, with
    the set's title).  Each target's notices, losses and error are printed on stderr as it is written (named when there
    are several); the outcomes are returned, and :func:`exit_status` turns them into the command's status."""
    several = len(targets) > 1
    sheets: _Sheets | None = None
    outcomes = []
    for target in targets:
        outcome = Outcome(target)
        try:
            if target.sheet:
                sheets = sheets or _Sheets(doc, records)
                outcome.summary = sheets.write(target, force)
            else:
                _write_deals(doc, target, options, force, outcome, several)
        except FormatError as e:
            outcome.error = _located(e, target).full()
        except OSError as e:
            if isinstance(e, BrokenPipeError):
                raise
            outcome.error = f"{target.name}: {e.strerror or e}"
        _report(outcome, several, summaries_to_stderr=any(t.to_stdout for t in targets))
        outcomes.append(outcome)
    failed = [o.target.name for o in outcomes if o.error]
    if several and failed:
        print(
            f"bridgeview: {len(failed)} of {plural(len(outcomes), 'output')} not written: {', '.join(failed)}",
            file=sys.stderr,
        )
    return outcomes


def exit_status(outcomes: list[Outcome]) -> int:
    """0 when every output was written, 1 when one or more was not."""
    return 1 if any(o.error for o in outcomes) else 0


def _report(outcome: Outcome, several: bool, *, summaries_to_stderr: bool) -> None:
    where = f"{outcome.target.name}: " if several else ""
    if outcome.error:
        print(f"bridgeview: {outcome.error}", file=sys.stderr)
        return
    for notice in outcome.notices:
        print(f"bridgeview: {where}{notice}", file=sys.stderr)
    for loss in outcome.losses:
        print(f"bridgeview: {where}dropped: {loss}", file=sys.stderr)
    if outcome.summary:
        print(outcome.summary, file=sys.stderr if summaries_to_stderr else sys.stdout)


_TEMP_PREFIX = "bridgeview-stdout-"  # standard output's set is written to such a temporary file first


def _located(error: FormatError, target: Target) -> FormatError:
    """An error about standard output's temporary file names standard output instead."""
    if target.to_stdout and error.path is not None and os.path.basename(error.path).startswith(_TEMP_PREFIX):
        error.path = target.name
    return error


def _write_deals(
    doc: Content, target: Target, options: WriteOptions | None, force: bool, outcome: Outcome, several: bool
) -> None:
    """A deal file (or standard output) through the same check and writer as ``convert`` and Save As."""
    import tempfile

    from ..formats.atomic import check_target
    from ..formats.convert import write_document

    kind = "cribbage" if not isinstance(doc, BoardSet) else "bridge"
    assert target.codec is not None  # a deal file's target has its codec
    if target.codec.kind != kind:
        raise FormatError(f"cannot convert a {kind} file to {target.codec.title}", path=target.name)
    if not target.to_stdout:
        check_target(target.path, force)  # named as given (the writer names the file a symlink points to)
    progress = Progress(f"writing {target.name}" if several else "converting", counts=False)
    try:
        if not target.to_stdout:
            result = write_document(doc, target.path, target.codec, options, progress, count_boards=True, force=force)
        else:  # the whole set to a file first: nothing reaches the pipe unless every board converted
            fd, temp = tempfile.mkstemp(prefix=_TEMP_PREFIX, suffix=f".{target.codec.extensions[0]}")
            os.close(fd)
            try:
                result = write_document(doc, temp, target.codec, options, progress, count_boards=True, force=True)
                progress.close()
                with open(temp, "rb") as f:
                    _to_stdout(f)
            finally:
                os.unlink(temp)
    finally:
        progress.close()
    outcome.losses = list(result.losses)
    outcome.notices = list(result.notices)


def _to_stdout(source: bytes | IO[bytes]) -> None:
    """Copy a file object (or bytes) to standard output's bytes; a closed pipe (``| head``) ends quietly."""
    import shutil

    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    try:
        if buffer is None:  # a text-only stream (an embedding program's): decode what must be text
            data = source if isinstance(source, bytes) else source.read()
            sys.stdout.write(data.decode("utf-8", "replace"))
            sys.stdout.flush()
        elif isinstance(source, bytes):
            buffer.write(source)
            buffer.flush()
        else:
            shutil.copyfileobj(source, buffer, 1 << 20)
            buffer.flush()
    except BrokenPipeError:
        _silence_stdout()
        raise


def _silence_stdout() -> None:
    """After the reader of a pipe went away, point stdout at /dev/null so that Python's final flush does not
    print a second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


class _Sheets:
    """Hand records for one command: the boards prepared (and solved) once for every .pdf and .html."""

    def __init__(self, doc: Content, records: HandRecordOptions | None) -> None:
        from ..handrecords.content import HandRecordOptions, default_title

        self.doc = doc
        if records is None:  # the defaults, titled from the set (a cribbage game is refused when written)
            title = default_title(doc, doc.info.path) if isinstance(doc, BoardSet) else ""
            records = HandRecordOptions(title=title)
        self.options = records
        self.data: PrintData | None = None

    def _prepare(self, target: Target) -> PrintData:
        """The prepared boards (solved the first time), or the reason there are no hand records of them."""
        from ..handrecords.content import MAX_BOARDS, prepare

        doc = self.doc
        if not isinstance(doc, BoardSet):
            raise FormatError("a cribbage game has no hand records", path=target.name)
        if not len(doc):
            raise FormatError("the set holds no boards: there are no hand records to print", path=target.name)
        if len(doc) > MAX_BOARDS:
            raise FormatError(f"{len(doc):,} boards are too many to print (at most {MAX_BOARDS:,})", path=target.name)
        if self.data is None and not any(doc[i].deal.card_count for i in range(len(doc))):
            raise FormatError("no board of the set holds cards: there are no hand records to print", path=target.name)
        if self.data is None:
            if self.options.dd:  # before the progress line's thread, which would keep DDS's child from a fork
                from ..solve.boards import needs_solving
                from ..solve.print_tables import start_shared_child

                if any(needs_solving(doc[i]) for i in range(len(doc))):
                    start_shared_child()
            progress = Progress("solving")
            try:
                self.data = prepare(doc, self.options, progress=progress)
            finally:
                progress.close()
            source = doc.info.path
            for notice in self.data.notices:
                print(f"bridgeview: {source + ': ' if source else ''}{notice}", file=sys.stderr)
            notes = list(self.data.notes.values())
            for note in sorted(set(notes)):
                print(f"bridgeview: {plural(notes.count(note), 'board')}: {note}", file=sys.stderr)
        return self.data

    def write(self, target: Target, force: bool) -> str:
        """Write one sheet; returns its summary line."""
        from ..formats.atomic import check_target, save_atomically
        from ..handrecords.content import page_count

        if not target.to_stdout:
            check_target(target.path, force)  # before the solving, not after it
        data = self._prepare(target)
        if target.sheet == "html":
            from ..handrecords.html import html_text

            content = html_text(data, self.options).encode("utf-8")
            pages = page_count(len(data.boards), self.options.per_page)
        else:
            content, pages = _pdf(data, self.options)
        if target.to_stdout:
            _to_stdout(content)
        else:
            save_atomically(target.path, lambda f: f.write(content), force=force)
        return f"{target.name}: {plural(len(data.boards), 'board')} on {plural(pages, 'page')}"


def _pdf(data: PrintData, options: HandRecordOptions) -> tuple[bytes, int]:
    """The PDF hand records, drawn by Qt on the offscreen platform (no display needed)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ..interrupts import held_ctrl_c
    from .common import import_qt, quiet_qt

    import_qt()
    from PySide6.QtCore import qInstallMessageHandler

    previous = quiet_qt()
    try:
        # Ctrl+C held while Qt works (see held_ctrl_c: a press could crash the process, or be lost), and taken
        # between pages: a long PDF still stops soon, its painter ended first
        with held_ctrl_c() as held:
            from ..ui.app import painting_application
            from ..ui.printing.hand_records import pdf_bytes

            painting_application()  # no widgets: a PDF is painted by QtGui alone
            return pdf_bytes(data, options, between_pages=held.check)
    finally:
        qInstallMessageHandler(previous)
