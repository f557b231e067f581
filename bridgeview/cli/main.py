"""The ``bridgeview`` command: the GUI, or a sub-command.

Each sub-command is a module of this package with ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``; they are found by listing
the package, so adding a command means adding one module.  ``bridgeview`` with
no sub-command (or with file names) starts the GUI.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import io
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from ..formats.errors import FormatError

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

_NOT_COMMANDS = {"main", "common"}
#: commands whose module cannot bear the command's name (``print`` is a builtin, ``formats`` the package's)
_MODULE_OF = {"print": "print_cmd", "formats": "formats_table"}


def _command_modules() -> list[ModuleType]:
    """The sub-command modules: each names itself (``NAME``, ``HELP``, optionally ``DESCRIPTION`` and ``ORDER``)
    and has ``add_arguments(parser)`` and ``run(args) -> int``."""
    import pkgutil  # (only the full parser lists the commands)

    package = importlib.import_module(__package__)
    mods = []
    for m in pkgutil.iter_modules(package.__path__):
        if m.name in _NOT_COMMANDS or m.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{__package__}.{m.name}")
        if hasattr(mod, "NAME") and hasattr(mod, "run"):
            mods.append(mod)
    mods.sort(key=lambda mod: (getattr(mod, "ORDER", 50), mod.NAME))
    return mods


def _version_line() -> str:
    from .. import __version__  # worked out only now: finding it costs an importlib.metadata import

    return f"bridgeview {__version__}"


class _VersionAction(argparse.Action):
    """``--version`` as argparse's own, but the number is looked up only when it is asked for."""

    def __init__(
        self,
        option_strings: Sequence[str],
        dest: str = argparse.SUPPRESS,
        default: object = argparse.SUPPRESS,
        help: str | None = None,
    ) -> None:
        help = help or "show program's version number and exit"
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        _namespace: argparse.Namespace,
        _values: object,
        _option_string: str | None = None,
    ) -> None:
        print(_version_line())
        parser.exit()


def _named_command(word: str) -> ModuleType | None:
    """The module of command ``word`` (``convert.py``; ``print_cmd.py`` for ``print``, see ``_MODULE_OF``),
    imported alone; else None.  Running one command needs no other command's imports (``check`` and ``outputs``
    alone cost 20-30 ms, a tenth of converting a small file)."""
    import importlib.util

    if not word.isidentifier() or word in _NOT_COMMANDS or word.startswith("_"):
        return None
    name = _MODULE_OF.get(word, word)
    if importlib.util.find_spec(f"{__package__}.{name}") is None:
        return None
    mod = importlib.import_module(f"{__package__}.{name}")
    return mod if getattr(mod, "NAME", None) == word and hasattr(mod, "run") else None


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose help and usage are written as any output is: argparse drops a failed write of them
    (``--help`` to a full disk wrote nothing and exited 0); here the failure is raised, to be said."""

    def print_help(self, file: SupportsWrite[str] | None = None) -> None:
        (file or sys.stdout).write(self.format_help())

    def print_usage(self, file: SupportsWrite[str] | None = None) -> None:
        (file or sys.stdout).write(self.format_usage())


def build_parser(only: ModuleType | None = None) -> tuple[argparse.ArgumentParser, dict[str, ModuleType]]:
    """The ``bridgeview`` parser and its commands by name: every command, or the module ``only`` alone (its
    sub-command parses, errs and helps as in the full parser)."""
    parser = _Parser(
        prog="bridgeview",
        description="View, check, replay, edit and convert bridge deal files. "
        "With no command, opens the files given (or the bundled sample) in the GUI.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands = {}
    for mod in [only] if only is not None else _command_modules():
        p = sub.add_parser(mod.NAME, help=mod.HELP, description=getattr(mod, "DESCRIPTION", mod.HELP))
        mod.add_arguments(p)
        commands[mod.NAME] = mod
    return parser, commands


#: what ``bridgeview FILE`` says where no window can open (a server, an SSH session without X forwarding)
NO_DISPLAY = "bridgeview: no display to open a window on; the command-line tools work without one: bridgeview --help"


def _has_display() -> bool:
    """Whether Qt has somewhere to open a window: an X or Wayland display, or a platform chosen by hand
    (``QT_QPA_PLATFORM=offscreen``).  macOS and Windows always have one."""
    if sys.platform in ("darwin", "win32"):
        return True
    return any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


def _unknown_command(word: str, commands: dict[str, ModuleType]) -> str | None:
    """The usage error for a first word that is neither a command nor an existing file; None when it is a
    file (or could only be meant as one: it has a path separator or an extension)."""
    if os.path.exists(word):
        return None
    import difflib  # (only a mistyped command needs it: 2 ms of every start-up otherwise)

    close = difflib.get_close_matches(word.lower(), list(commands), n=1, cutoff=0.6)
    if close:
        return f"bridgeview: unknown command '{word}' (did you mean '{close[0]}'?)"
    if os.sep in word or (os.altsep and os.altsep in word) or "." in word:
        return f"bridgeview: {word}: no such file"
    return f"bridgeview: unknown command '{word}' (commands: {', '.join(sorted(commands))}; bridgeview --help)"


def _gui(files: list[str]) -> int:
    if not _has_display():  # Qt would abort the process (exit 134) with a message about xcb plugins
        print(NO_DISPLAY, file=sys.stderr)
        return 1
    try:
        from ..interrupts import held_ctrl_c
        from .common import import_qt

        with held_ctrl_c():  # (the window's modules make Qt's enums as they are imported: see held_ctrl_c)
            _before_qt()
            import_qt(widgets=True)
            from ..ui.app import run_gui
    except ImportError as e:  # PySide6 missing or broken
        print(f"bridgeview: cannot start the GUI: {e}", file=sys.stderr)
        return 1
    # (a Ctrl+C held while Qt was imported arrives as the KeyboardInterrupt main() turns into "interrupted")
    return run_gui(files)


def _before_qt() -> None:
    """Import the Qt-free modules the window's first board needs before PySide6: shiboken reads the source of
    every module imported after it, looking for "PySide6" (its ``__feature__`` switch): 7 ms for these 50
    modules, which need no such look (the first paint came 3-4 ms sooner, median of 40 runs each)."""
    from ..app import document  # noqa: F401  (the file's reading, the formats' registry, the board model)
    from ..check import ready  # noqa: F401
    from ..formats.pbn import codec  # noqa: F401  (the sample's format)
    from ..solve import boards  # noqa: F401  (the DD grid's par and makeable lines)


def _tolerant_output() -> None:
    """Names and events a console cannot encode (a C locale, a Windows code page) print as
    escapes instead of ending the command with a UnicodeEncodeError traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _numpy_imported_whole() -> None:
    """A Ctrl+C while numpy is imported (a command imports it on the way, for a binary format or a chunk of deals)
    waits for the import to be done and then stops the command as "interrupted": pressed inside numpy's C
    extension's set-up it came as numpy's own ImportError traceback, which says numpy is broken."""
    from ..interrupts import hold_ctrl_c_while_importing

    hold_ctrl_c_while_importing("numpy")


def _one_blas_thread() -> None:
    """numpy's OpenBLAS starts a thread a core when numpy is imported, which spins for a while looking for
    work: about 40 ms of CPU a command (the spin of a small file's conversion cost more CPU than the
    conversion), and on a busy machine time taken from DDS's children.  bridgeview does no linear algebra,
    so it asks for one thread (a value the user set stays; children inherit it)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main(argv: list[str] | None = None) -> int:
    """Run the command ``argv`` (the process's arguments by default) and give its exit status: Ctrl+C at any
    moment of it is "interrupted", exit 130 (the commands' own modules are imported on the way: a press there
    came as a traceback)."""
    closed = _closed_streams_stood_in()
    try:
        return _main(argv)
    except KeyboardInterrupt:
        print("bridgeview: interrupted", file=sys.stderr)
        return 130
    finally:
        if closed:  # (Python's last flush of the stand-in would print a second error)
            _let_stdout_go()


class _ClosedOutput(io.RawIOBase):
    """Standard output the shell closed (``>&-``): every write fails as the system's would."""

    def writable(self) -> bool:
        return True

    def write(self, b: object) -> int:
        raise OSError(errno.EBADF, os.strerror(errno.EBADF), "standard output")


class _NamedOutput(io.RawIOBase):
    """The process's standard output, whose failures name it: a full disk under ``info > out.txt`` said only
    "bridgeview: No space left on device", as if of a file of the command's."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def isatty(self) -> bool:
        return os.isatty(self._fd)

    def write(self, b: Any) -> int:
        try:
            return os.write(self._fd, b)
        except OSError as e:
            raise type(e)(e.errno, e.strerror, "standard output") from None


def _named_stdout() -> None:
    """Put :class:`_NamedOutput` under the process's own standard output (never a caller's stream: a test's
    capture), buffered as it was."""
    out = sys.stdout
    if out is not sys.__stdout__ or not isinstance(out, io.TextIOWrapper):
        return
    try:
        fd = out.fileno()
        out.flush()
    except (OSError, ValueError):
        return
    raw = _NamedOutput(fd)
    binary: io.RawIOBase | io.BufferedWriter = raw
    if isinstance(out.buffer, io.BufferedWriter):
        binary = io.BufferedWriter(raw)
    sys.stdout = io.TextIOWrapper(
        binary,  # (a raw stream is a binary one: Python's own -u stdout is a FileIO)
        encoding=out.encoding,
        errors=out.errors,
        line_buffering=out.line_buffering,
        write_through=out.write_through,
    )


def _closed_streams_stood_in() -> bool:
    """A stream the shell closed (``2>&-``, ``>&-``) is None in Python, and a command failed on it before doing
    anything (no stderr: exit 1, no file written) or with an AttributeError traceback (no stdout), or printed its
    report into nothing with exit 0.  Closed stderr now goes nowhere (the exit status still tells); closed stdout
    is a stream whose writes fail as the system says, "standard output: Bad file descriptor", exit 1.  True when
    stdout was stood in for."""
    if sys.stderr is None:
        _hold_descriptor(2)
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # (lives as long as the process)
    if sys.stdout is not None:
        return False
    _hold_descriptor(1)
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_ClosedOutput()), encoding="utf-8", line_buffering=True)
    return True


def _hold_descriptor(fd: int) -> None:
    """A closed standard descriptor taken by ``/dev/null``: the next file the command opened (its output's
    temporary file) would have been given it, and a write to standard output or error from C or a child process
    would have gone into the user's file."""
    try:
        os.fstat(fd)
        return  # (open after all: Python only could not use it)
    except OSError:
        pass
    held = os.open(os.devnull, os.O_WRONLY)
    if held != fd:
        os.dup2(held, fd)
        os.close(held)


#: where standard output goes once it has failed (a closed pipe, a full disk): one for the process
_GONE: list[io.TextIOWrapper] = []


def _let_stdout_go() -> None:
    """After standard output failed (its reader gone, a full disk, closed), what it still holds is dropped: Python's
    last flush of it printed "Exception ignored ... BrokenPipeError" (exit 120) or the error a second time.  Only
    the process's own standard output (or its stand-in) is let go: a caller's stream (a test's capture) is
    theirs."""
    if sys.stdout is not sys.__stdout__ and not _stood_in(sys.stdout):
        return
    if not _GONE:
        _GONE.append(open(os.devnull, "w", encoding="utf-8"))  # (lives as long as the process)
    try:
        os.dup2(_GONE[0].fileno(), sys.stdout.fileno())  # (the buffer's bytes then go nowhere at the last flush)
    except (OSError, ValueError, io.UnsupportedOperation):
        pass
    sys.stdout = _GONE[0]


def _stdout_flushed() -> None:
    """Standard output's buffer written now, where its failure (a full disk) is said naming it; at Python's exit it
    was a traceback (``--version``) or nothing at all (``--help``, exit 0 with nothing written)."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        raise OSError(e.errno, e.strerror or str(e), "standard output") from None


def _main(argv: list[str] | None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _one_blas_thread()
    _numpy_imported_whole()
    _tolerant_output()
    if argv == ["--version"]:  # answered before the sub-commands are imported; exits as argparse's would
        try:
            print(_version_line())
            _stdout_flushed()
        except BrokenPipeError:
            _let_stdout_go()
            raise SystemExit(0) from None
        except OSError as e:  # (its only output: standard output)
            _say_os_error(OSError(e.errno, e.strerror or str(e), "standard output"))
            raise SystemExit(1) from None
        raise SystemExit(0)
    if not argv:  # the window: its start-up does not wait for the sub-commands' modules and the parser
        return _gui([])
    single = _named_command(argv[0]) if argv else None
    parser, commands = build_parser(single)
    if not argv or (argv[0] not in commands and not argv[0].startswith("-")):
        problem = _unknown_command(argv[0], commands) if argv else None
        if problem is not None:  # ``bridgeview chek FILE``: a typo, not a file to open in the window
            print(problem, file=sys.stderr)
            return 2
        return _gui(argv)
    try:
        args = parser.parse_args(argv)
    except BrokenPipeError:  # (``--help | head -1``)
        _let_stdout_go()
        return 0
    except OSError as e:  # (the help, to a full disk: its only output)
        _say_os_error(OSError(e.errno, e.strerror or str(e), "standard output"))
        return 1
    except SystemExit as done:  # (--help, a usage error): what argparse printed, written now
        if done.code in (0, None):
            try:
                _stdout_flushed()
            except BrokenPipeError:
                _let_stdout_go()
            except OSError as e:
                _say_os_error(e)
                raise SystemExit(1) from None
        raise
    if args.command is None:
        return _gui([])
    _named_stdout()
    try:
        status = int(commands[args.command].run(args) or 0)
        if status == 0:
            _not_read_from_a_file_cut_short()
            _stdout_flushed()
        else:  # (the command said what went wrong: standard output's own failure among it, once)
            try:
                sys.stdout.flush()
            except OSError:
                _let_stdout_go()
        return status
    except FormatError as e:
        print(f"bridgeview: {e.full()}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        _let_stdout_go()
        return 0
    except OSError as e:
        _say_os_error(e)
        return 1


def _not_read_from_a_file_cut_short() -> None:
    """Raise when a mapped input was cut short on disk while the command read it (what it read there is zeros:
    see :mod:`bridgeview.formats.sigbus`) and nothing on the way said so: its success would be a lie."""
    mapped = sys.modules.get("bridgeview.formats.mapped")  # (not imported: nothing was mapped)
    if mapped is not None:
        cut = mapped.cut_short_since(None)  # (by any of its threads)
        if cut is not None:
            raise cut


def _say_os_error(e: OSError) -> None:
    """The one line of a system error; after one on standard output, Python's last flush of it says nothing more."""
    name = getattr(e, "filename", None)
    where = f"{name}: " if name else ""
    print(f"bridgeview: {where}{e.strerror or e}", file=sys.stderr)
    if name == "standard output":
        _let_stdout_go()


def _stood_in(stream: object) -> bool:
    """Whether ``stream`` is the stand-in for a closed standard output (:func:`_closed_streams_stood_in`) or the
    process's own, named (:func:`_named_stdout`)."""
    binary = getattr(stream, "buffer", None)
    return isinstance(getattr(binary, "raw", binary), (_ClosedOutput, _NamedOutput))


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
