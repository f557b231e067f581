"""The ``bridgeview`` command: the GUI, or a sub-command.

Each sub-command is a module of this package with ``NAME``, ``HELP``,
``add_arguments(parser)`` and ``run(args) -> int``; they are found by listing
the package, so adding a command means adding one module.  ``bridgeview`` with
no sub-command (or with file names) starts the GUI.
"""

from __future__ import annotations

import argparse
import difflib
import importlib
import os
import pkgutil
import sys

from ..formats.errors import FormatError

_NOT_COMMANDS = {"main", "common"}


def _command_modules():
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

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None) -> None:
        help = help or "show program's version number and exit"
        super().__init__(option_strings, dest, nargs=0, default=default, help=help)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(_version_line())
        parser.exit()


def build_parser() -> tuple[argparse.ArgumentParser, dict]:
    parser = argparse.ArgumentParser(
        prog="bridgeview",
        description="View, check, replay, edit and convert bridge deal files. "
        "With no command, opens the files given (or the bundled sample) in the GUI.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands = {}
    for mod in _command_modules():
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


def _unknown_command(word: str, commands: dict) -> str | None:
    """The usage error for a first word that is neither a command nor an existing file; None when it is a
    file (or could only be meant as one: it has a path separator or an extension)."""
    if os.path.exists(word):
        return None
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
        from ..ui.app import run_gui
    except ImportError as e:  # PySide6 missing or broken
        print(f"bridgeview: cannot start the GUI: {e}", file=sys.stderr)
        return 1
    return run_gui(files)


def _tolerant_output() -> None:
    """Names and events a console cannot encode (a C locale, a Windows code page) print as
    escapes instead of ending the command with a UnicodeEncodeError traceback."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    _tolerant_output()
    if argv == ["--version"]:  # answered before the sub-commands are imported; exits as argparse's would
        print(_version_line())
        raise SystemExit(0)
    if not argv:  # the window: its start-up does not wait for the sub-commands' modules and the parser
        return _gui([])
    parser, commands = build_parser()
    if not argv or (argv[0] not in commands and not argv[0].startswith("-")):
        problem = _unknown_command(argv[0], commands) if argv else None
        if problem is not None:  # ``bridgeview chek FILE``: a typo, not a file to open in the window
            print(problem, file=sys.stderr)
            return 2
        return _gui(argv)
    args = parser.parse_args(argv)
    if args.command is None:
        return _gui([])
    try:
        return int(commands[args.command].run(args) or 0)
    except FormatError as e:
        print(f"bridgeview: {e.full()}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bridgeview: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as e:
        name = getattr(e, "filename", None)
        where = f"{name}: " if name else ""
        print(f"bridgeview: {where}{e.strerror or e}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
