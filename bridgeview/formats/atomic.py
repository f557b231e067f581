"""Saving a file whole or not at all: a temporary file beside the target, renamed over it.

Every write of the app goes through :func:`save_atomically`; :func:`check_target` refuses a
write-protected target before any work, and :func:`clean_stale_parts` removes what a killed
save left behind.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

from ..model.boardset import FileChangedError
from . import mapped
from .errors import FormatError


def write_protected(path: str | os.PathLike[str]) -> bool:
    """True when ``path`` (through any symlinks) is an existing file its owner marked read-only
    (no write bit) or that we may not write: a rename would replace it all the same."""
    return _protected(os.path.realpath(path))


def _protected(real: str | os.PathLike[str]) -> bool:
    """:func:`write_protected` of a path with its links resolved."""
    try:
        mode = os.stat(real).st_mode
    except OSError:
        return False
    return not mode & 0o222 or not os.access(real, os.W_OK)


def check_target(path: str | os.PathLike[str], force: bool = False) -> None:
    """Refuse (FormatError) to write ``path`` where the save would fail - its folder missing or one we may not
    write in (a temporary file is made there and dropped, as the save makes one), a folder in its place - and to
    replace it if write-protected unless ``force``; call it before long work too, so a conversion or a solve does
    not run only to be refused at the end.  (The messages are the system's own, as the save's OSError would have
    said them.)"""
    named = os.fspath(path)
    # (a name ending in a separator names a folder; isdir follows links: a link to a folder is one)
    if named.endswith(("/", os.sep)) or os.path.isdir(named):
        raise FormatError(os.strerror(errno.EISDIR), path=str(path))
    real = os.path.realpath(path)
    if os.path.islink(real):  # (links that never end: realpath gives up and hands back a link)
        raise FormatError(os.strerror(errno.ELOOP), path=str(path))
    if is_special(path):
        if not os.access(path, os.W_OK):
            raise FormatError(os.strerror(errno.EACCES), path=str(path))
        return
    # the folder as named (``missing/../x`` is refused by the system, though the resolved path exists) and the
    # folder the file would really be written in (through a link)
    for folder in (os.path.dirname(named) or os.curdir, os.path.dirname(real)):
        if not os.path.isdir(folder):
            problem = errno.ENOTDIR if os.path.exists(folder) else errno.ENOENT
            raise FormatError(os.strerror(problem), path=str(path))
    try:
        with tempfile.TemporaryFile(dir=os.path.dirname(real)):  # (where the save makes its temporary file)
            pass
    except OSError as e:  # (no write permission, a read-only file system, a folder marked immutable)
        raise FormatError(e.strerror or str(e), path=str(path)) from None
    _check_resolved(real, path, force)


def is_special(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` (through its links) is an existing target that is not a file: a device (``/dev/null``, a
    terminal), a FIFO, a socket.  The commands write into it as a shell's ``>`` writes, never replacing it: a
    rename over it put a regular file in its place (as root, ``render -o /dev/null`` replaced the system's
    ``/dev/null``, and the reader of a FIFO waited for ever); the window refuses it.  Looked at (and opened) as
    named: a link such as ``/dev/stdout`` resolves to a name that cannot be opened again (``pipe:[…]``)."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def _check_resolved(real: str | os.PathLike[str], named: str | os.PathLike[str], force: bool) -> None:
    """The write-protection part of :func:`check_target` of ``named``, its links resolved to ``real``."""
    if not force and _protected(real):
        raise FormatError("the file is write-protected; not replaced (--force replaces it)", path=str(named))


#: how our temporary files are named: ``.NAME.`` + mkstemp's eight characters + ``.part``
_PART_SUFFIX = ".part"


def _part_pattern(name: str) -> re.Pattern[str]:
    return re.compile(rf"\.{re.escape(name)}\.[a-z0-9_]{{8}}{re.escape(_PART_SUFFIX)}")


def _lock(fd: int) -> bool:
    """Take an exclusive lock on ``fd`` without waiting; True when taken (or locks are unavailable)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows: an open file cannot be deleted there anyway
        return True
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def clean_stale_parts(target: Path) -> list[str]:
    """Delete temporary files a killed save to ``target`` left behind (``.NAME.XXXXXXXX.part``).

    A save holds a lock on its temporary file until the file is renamed, so a part file we can
    lock belongs to no running save.  Returns the names removed."""
    directory = target.parent if str(target.parent) else Path(".")
    pattern = _part_pattern(target.name)
    removed: list[str] = []
    try:
        names = [n for n in os.listdir(directory) if pattern.fullmatch(n)]
    except OSError:
        return removed
    for name in names:
        part = directory / name
        try:
            fd = os.open(part, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            if _lock(fd) and os.path.isfile(part):
                os.unlink(part)
                removed.append(name)
        except OSError:
            pass
        finally:
            os.close(fd)
    return removed


#: the targets whose stale part files this process has removed (a part file a save of ours leaves
#: behind is removed at once, so only an earlier session's, or another process's, can be found later)
_CLEANED: set[Path] = set()


def save_atomically(path: str | os.PathLike[str], write: Callable[[IO[bytes]], object], *, force: bool = False) -> None:
    """Call ``write(fileobj)`` on a temporary file beside ``path``, then rename it
    over ``path``; on any failure the target is untouched and the temporary removed.

    A symlink is followed: the file it points to is replaced and the link stays a link.
    A write-protected target is refused unless ``force``.  Part files a killed earlier
    save to the same target left behind are removed first (by the session's first save to it)."""
    if is_special(path):
        _write_in_place(path, write)
        return
    target = Path(os.path.realpath(path))
    if target.is_symlink():  # (links that never end: realpath gives up and hands back a link)
        raise FormatError(os.strerror(errno.ELOOP), path=str(path))
    _check_resolved(target, target, force)  # (the links resolved once: each is a look-up a folder)
    directory = target.parent
    if target not in _CLEANED:  # once a session: a listing of the folder costs as much as saving 50 boards
        clean_stale_parts(target)
        _CLEANED.add(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=_PART_SUFFIX, dir=directory)
    except OSError as e:  # name the target, not the temporary file the user never asked for
        raise FormatError(e.strerror or str(e), path=str(path)) from None
    try:
        _lock(fd)  # held until the rename: another save's clean-up leaves this file alone
        faults = mapped.fault_count()
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            cut = mapped.cut_short_since(faults)
            if cut is not None:  # what was read from a file cut short under us is zeros: keep nothing
                raise cut
            os.fsync(f.fileno())
            if target.exists():
                try:
                    os.chmod(tmp, target.stat().st_mode & 0o7777)
                except OSError:
                    pass
            else:
                os.chmod(tmp, 0o644)
            os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        # (the input cut short while it was read is the input's error, named as such: it was said of the output)
        if isinstance(e, OSError) and not isinstance(e, (BrokenPipeError, FileChangedError)):
            raise FormatError(e.strerror or str(e), path=str(path)) from None
        raise


def _write_in_place(path: str | os.PathLike[str], write: Callable[[IO[bytes]], object]) -> None:
    """:func:`save_atomically` into a device or FIFO (see :func:`is_special`): opened as named and written (what
    its reader gets is not undone by a later failure, as with a shell's ``>``)."""
    faults = mapped.fault_count()
    try:
        with open(path, "wb") as f:
            write(f)
            f.flush()
        cut = mapped.cut_short_since(faults)
        if cut is not None:  # (what was written is not undone: at least it is not called a success)
            raise cut
    except OSError as e:
        if isinstance(e, (BrokenPipeError, FileChangedError)):
            raise
        raise FormatError(e.strerror or str(e), path=str(path)) from None
