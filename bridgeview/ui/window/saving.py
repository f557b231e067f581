"""Save As: check what the target format cannot hold, ask, then write (off the GUI thread when big)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from PySide6.QtCore import QEventLoop, QObject, Qt, Signal
from PySide6.QtWidgets import QLabel, QProgressDialog, QWidget

from ...formats.atomic import check_target, is_special, write_protected
from ...formats.codec import BridgeCodec, Cancelled, Codec, CribbageCodec, SaveReport, TablesFound, WriteOptions
from ...formats.errors import FormatError
from ...formats.registry import all_codecs
from ...model.text import plural
from .. import dialogs
from ..plaintext import plain_label

#: a save's or an export's target that is a device or a pipe (the window saves files: see formats.atomic.is_special)
NOT_A_FILE = "not a file (a device or a pipe): choose a file to save in"

#: documents with more boards than this are checked and written in a worker thread
THREAD_THRESHOLD = 20_000


def writable_codecs(kind: str = "bridge") -> list[Codec]:
    return sorted((c for c in all_codecs() if c.can_write and c.kind == kind), key=lambda c: c.title.lower())


def filter_for(codec: Codec) -> str:
    return f"{codec.title} ({' '.join('*.' + e for e in codec.extensions)})"


def open_filter() -> str:
    """ "All supported files" first, then one filter per format, then "All files" (detected by content): the
    filters of every open dialog (File › Open, Compare With…)."""
    codecs = sorted(all_codecs(), key=lambda c: c.title.lower())
    every = " ".join(sorted({f"*.{e}" for c in codecs for e in c.extensions}))
    parts = [f"All supported files ({every})"] if every else []
    parts += [filter_for(c) for c in codecs]
    parts.append("All files (*)")
    return ";;".join(parts)


def codec_from_filter(chosen: str, path: str, kind: str = "bridge") -> Codec | None:
    """The codec to write ``path`` as: the extension the user typed when it names a format (``typed.pbn``
    is PBN whatever filter was left selected), else the filter picked in the dialog."""
    codecs = writable_codecs(kind)
    picked = next((c for c in codecs if filter_for(c) == chosen), None)
    ext = Path(path).suffix.lower().lstrip(".")
    if picked is not None and ext in picked.extensions:
        return picked  # a variant sharing the extension (zrj16 for .zrj) stays as picked
    # several codecs share an extension (.zrj): the one named after it is what the name means
    for c in sorted(codecs, key=lambda c: c.name != ext):
        if ext in c.extensions:
            return c
    return picked


def with_extension(path: str, codec: Codec) -> str:
    """``path`` with the codec's first extension added when it has none of the codec's."""
    ext = Path(path).suffix.lower().lstrip(".")
    if codec.extensions and ext not in codec.extensions:
        return f"{path}.{codec.extensions[0]}"
    return path


#: what the work run by :func:`run_with_progress` returns
T = TypeVar("T")


class _Progressed:
    """A board sequence that reports iteration progress (so ``codec.check`` can be cancelled)."""

    def __init__(self, boards, progress: Callable[[int, int], bool]) -> None:
        self._boards = boards
        self._progress = progress

    def __len__(self) -> int:
        return len(self._boards)

    def __getitem__(self, i):
        return self._boards[i]

    def report_progress(self, done: int) -> None:
        """A writer that takes the boards in chunks tells how far it has got (``formats.codec.progress_of``)."""
        if self._progress(done, len(self._boards)) is False:
            raise Cancelled()

    def __iter__(self):
        total = len(self._boards)
        for i, b in enumerate(self._boards):
            if i % 2048 == 0 and self._progress(i, total) is False:
                raise Cancelled()
            yield b

    def __getattr__(self, name: str) -> Any:
        return getattr(self._boards, name)


class _Bridge(QObject):
    progress = Signal(int, int)
    finished = Signal()


def run_with_progress(parent: QWidget | None, label: str, fn: Callable[[Callable[[int, int], bool]], T]) -> T:
    """Run ``fn(progress)`` in a worker thread behind a modal progress dialog with Cancel.

    Returns what ``fn`` returns; re-raises its exception (``Cancelled`` when the user cancelled).
    """
    dlg = QProgressDialog(label, "Cancel", 0, 1000, parent)
    dlg.setLabel(plain_label(QLabel(label, dlg)))  # the label names the file, which may look like HTML
    dlg.setWindowModality(Qt.WindowModality.WindowModal)
    dlg.setMinimumDuration(300)
    dlg.setValue(0)  # (arms the 300 ms: else it shows only at the first report, or after Qt's default 4 s)
    dlg.setAutoClose(False)
    dlg.setAutoReset(False)
    cancelled = threading.Event()
    dlg.canceled.connect(cancelled.set)
    bridge = _Bridge()
    loop = QEventLoop()

    def on_progress(done: int, total: int) -> None:
        dlg.setValue(int(1000 * done / total) if total else 0)
        dlg.setLabelText(f"{label}\n{done:,} of {total:,} boards")

    bridge.progress.connect(on_progress, Qt.ConnectionType.QueuedConnection)
    bridge.finished.connect(loop.quit, Qt.ConnectionType.QueuedConnection)
    outcome: dict[str, Any] = {}

    def progress(done: int, total: int) -> bool:
        bridge.progress.emit(done, total)
        return not cancelled.is_set()

    def work() -> None:
        try:
            outcome["value"] = fn(progress)
        except BaseException as e:  # handed to the GUI thread below
            outcome["error"] = e
        finally:
            bridge.finished.emit()

    thread = threading.Thread(target=work, name="bridgeview-save", daemon=True)
    thread.start()
    loop.exec()
    thread.join()
    dlg.close()
    dlg.deleteLater()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]  # work() set it, or the error raised above


def bulk_report(doc, codec: BridgeCodec, progress: Callable[[int, int], bool]) -> SaveReport:
    """Losses of writing an unedited lazy set through the bulk path, found with numpy over its chunks.

    Boards the target cannot hold at all are left to the bulk writer, which
    raises before anything is renamed into place.
    """
    caps = codec.caps
    report = SaveReport()
    info = doc.info
    if (info.event or info.site or info.date) and not caps.header:
        report.losses.append("the event, site and date")
    if caps.dd and caps.board_numbers:
        return report
    dd_rows = 0
    numbers_lost = False
    done = 0
    total = len(doc)
    import numpy as np  # only for a big file's bulk pass: not at the window's start

    for chunk in doc.bulk():
        known = chunk.known_dd_rows() if not caps.dd else None
        if known is not None:
            dd_rows += int(known.sum())
        if chunk.numbers is not None and not caps.board_numbers and not numbers_lost:
            numbers_lost = bool((chunk.numbers != np.arange(done + 1, done + len(chunk) + 1)).any())
        done += len(chunk)
        if progress(done, total) is False:
            raise Cancelled()
    if dd_rows:
        report.losses.append(f"double-dummy results of {plural(dd_rows, 'board')}")
    if numbers_lost:
        report.losses.append("board numbers (boards will be numbered from 1 when read back)")
    return report


def check_document(parent: QWidget | None, doc, codec: BridgeCodec, threaded: bool) -> SaveReport | None:
    """What ``codec`` cannot hold of ``doc`` (and what reading it already lost); None when cancelled."""
    # the writing machinery is imported when a file is saved: the window shows its first board without it
    from ...formats.codec import empty_games_loss
    from ...formats.convert import chunked_text, distinct_boards, read_losses, tables_loss, without_empty_games

    chunked = chunked_text(doc, codec, None)
    if chunked is not None:  # a big PBN or LIN file to ZRD/ZBD: one chunked pass, not a Board a game
        try:
            if not threaded:
                return chunked.report(doc, codec)
            return run_with_progress(
                parent, f"Checking for {codec.title}…", lambda progress: chunked.report(doc, codec, None, progress)
            )
        except Cancelled:
            return None
        except TablesFound:
            pass  # a board number came again: its tables are sorted out board by board below

    def work(progress: Callable[[int, int], bool] | None) -> SaveReport | None:
        kept, dropped = without_empty_games(doc, codec, chunked=False)  # the chunked check gave way, or is not used
        kept, notice, errors = distinct_boards(kept, codec)
        if errors:
            return SaveReport(errors=errors)
        report = _check_document(kept, codec, progress)
        report.losses[:0] = (
            read_losses(doc)
            + ([empty_games_loss(dropped)] if dropped else [])
            + ([tables_loss(notice)] if notice else [])
        )
        return report

    if not threaded:
        return work(None)
    try:
        return run_with_progress(parent, f"Checking for {codec.title}…", work)
    except Cancelled:
        return None


def _check_document(doc, codec: BridgeCodec, progress: Callable[[int, int], bool] | None) -> SaveReport:
    """The codec's check, or the bulk check of an unedited lazy set; ``progress`` None: not threaded."""
    if getattr(doc, "is_lazy", False) and codec.bulk and getattr(doc, "bulk", None) and not doc.edited:
        return bulk_report(doc, codec, progress or (lambda done, total: True))
    return codec.check(doc if progress is None else _Progressed(doc, progress), WriteOptions())


def may_replace(parent: QWidget | None, path: str) -> bool | None:
    """Whether saving to ``path`` must force past write protection: False when it is not protected,
    True when the user agrees to replace it anyway, None when they decline."""
    if not write_protected(path):
        return False
    answer = dialogs.message(
        "question",
        parent,
        "Write-protected file",
        f"{path} is write-protected.\n\nReplace it anyway?",
        dialogs.Button.Yes | dialogs.Button.Cancel,
        dialogs.Button.Cancel,
    )
    return True if answer == dialogs.Button.Yes else None


def save_document(
    parent: QWidget | None,
    doc,
    path: str,
    codec: Codec,
    threshold: int = THREAD_THRESHOLD,
    losses: list[str] | None = None,
) -> bool:
    """Check, ask about losses and write protection, and write ``doc`` to ``path``; True when written.

    ``losses``, when given, receives what the written file could not hold (the user agreed to lose it).
    """
    assert isinstance(codec, BridgeCodec | CribbageCodec)  # every codec reads one of the two kinds
    from ...formats.convert import forget_read_losses, write_document  # when saving, not at start-up

    threaded = len(doc) > threshold
    try:  # where no save can be made (its folder gone or not writable): said before the check and the questions
        if is_special(path):  # (the tab would name it as its file: marked saved, its work gone on closing)
            raise FormatError(NOT_A_FILE, path=str(path))
        check_target(path, force=True)  # (write protection is asked about next)
    except FormatError as e:
        dialogs.message("error", parent, "Cannot save", f"{e.full()}\n\nNothing was written.")
        return False
    force = may_replace(parent, path)
    if force is None:
        return False
    if isinstance(codec, BridgeCodec):
        report = check_document(parent, doc, codec, threaded)
        if report is None:
            return False
        if report.errors:
            more = f"\n\n({len(report.errors) - 1} more problems like this)" if len(report.errors) > 1 else ""
            dialogs.message(
                "error",
                parent,
                "Cannot save",
                f"{codec.title} cannot hold this board set:\n\n{report.errors[0]}{more}\n\nNothing was written.",
                details="\n".join(report.errors[:200]),
            )
            return False
        if report.losses:
            text = (
                f"{codec.title} cannot hold everything in this board set. Saving will lose:\n\n• "
                + "\n• ".join(report.losses)
                + "\n\nSave anyway?"
            )
            answer = dialogs.message(
                "warning",
                parent,
                "Save As " + codec.title,
                text,
                dialogs.Button.Save | dialogs.Button.Cancel,
                dialogs.Button.Cancel,
            )
            if answer != dialogs.Button.Save:
                return False
            if losses is not None:
                losses.extend(report.losses)
    try:
        if threaded:

            def write(progress):
                return write_document(_Progressed(doc, progress), path, codec, WriteOptions(), progress, force=force)

            run_with_progress(parent, f"Saving {Path(path).name}…", write)
        else:
            write_document(doc, path, codec, WriteOptions(), force=force)
    except Cancelled:
        return False
    except FormatError as e:
        dialogs.message("error", parent, "Cannot save", f"{e.full()}\n\nNothing was written.")
        return False
    except OSError as e:
        dialogs.message("error", parent, "Cannot save", f"{path}: {e.strerror or e}\n\nNothing was written.")
        return False
    forget_read_losses(doc)
    return True
