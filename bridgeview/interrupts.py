"""Ctrl+C held back while work that must not be cut in two runs: Qt's, a child process's start, numpy's import.

Qt-free and stdlib-only, at the package's top level so that every layer may use it (the command line
around Qt's work, ``solve.timed`` around a DDS child's start).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:
    from collections.abc import Sequence
    from importlib.abc import Loader
    from importlib.machinery import ModuleSpec


class HeldPress:
    """The presses :func:`held_ctrl_c` is holding; :meth:`check` stops at a safe place when there was one."""

    def __init__(self) -> None:
        self.pressed: list[int] = []
        #: the handler the hold stands in for: a press is passed on to it, as it would have had it
        self.previous: Any = None

    def check(self) -> None:
        """Pass a held press on now, at a place the caller knows is safe to stop at: a KeyboardInterrupt where
        Ctrl+C raises one; nothing where it is ignored (a job a shell started in the background)."""
        if self.pressed:
            self.pressed.clear()
            self.deliver()

    def deliver(self) -> None:
        """The press, to the handler the hold stands in for."""
        import signal

        previous = self.previous
        if previous is None or previous == signal.SIG_IGN:
            return
        if previous is signal.default_int_handler:
            raise KeyboardInterrupt
        if previous == signal.SIG_DFL:  # the press ends the process, as it would have
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.raise_signal(signal.SIGINT)
        elif callable(previous):  # (someone's own handler, or an outer hold's: told now)
            previous(signal.SIGINT, None)


@contextmanager
def held_ctrl_c() -> Iterator[HeldPress]:
    """Hold Ctrl+C back for the block: a press is noted and arrives once the block is done (or where the
    block calls ``check()`` on what it is given), as the KeyboardInterrupt every command turns into
    "interrupted" (exit 130) - or as whatever Ctrl+C did before (nothing, in a job started in the
    background).

    For work a KeyboardInterrupt must not cut in two: a child process's start (``solve.timed``: a spawn cut
    short), shiboken setting PySide6's modules up (aborted with
    "could not initialize part 2", exit 134, or left a half-made module), PySide6 making a class's enums
    the first time they are named (left without them: an AttributeError traceback further on), Qt calling
    Python (a press raised in a Qt message handler was lost).  It is held by a handler that only notes it
    (blocking the signal would not do: another thread, a DDS child's feeder, would take it); only the main
    thread may set one, and elsewhere nothing is held.  Keep waits out of such a block, or ``check()``."""
    import signal

    held = HeldPress()
    if threading.current_thread() is not threading.main_thread():
        yield held
        return
    previous = signal.signal(signal.SIGINT, lambda signum, frame: held.pressed.append(signum))
    # (None: a handler set from C, which Python cannot give back: the default in its place)
    held.previous = signal.SIG_DFL if previous is None else previous
    try:
        yield held
    finally:
        signal.signal(signal.SIGINT, held.previous)
    if held.pressed:
        held.deliver()


def hold_ctrl_c_while_importing(*names: str) -> None:
    """Hold Ctrl+C (:func:`held_ctrl_c`) while each top-level package of ``names`` is imported, the first time
    anything imports it: a package a KeyboardInterrupt cuts off half way may say something else.  numpy turns a
    press inside its C extension's set-up into its own ImportError, "Importing the numpy C-extensions failed ...
    PLEASE READ THIS", a traceback that tells the user numpy is broken (every command that imports numpy on the
    way had a ~50 ms window for it)."""
    held = {name for finder in sys.meta_path if isinstance(finder, _HeldImports) for name in finder.names}
    wanted = set(names) - held - set(sys.modules)
    if wanted:
        sys.meta_path.insert(0, _HeldImports(wanted))


class _HeldImports:
    """A finder that hands each of ``names`` the spec the finders after it give, with a loader holding Ctrl+C while
    the module runs; a name is done with once its module runs (a look-up alone, ``importlib.util.find_spec``, does
    not spend it), and the finder leaves the meta path once all are."""

    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname not in self.names:
            return None
        finders = sys.meta_path
        for finder in finders[finders.index(self) + 1 :] if self in finders else ():
            find = getattr(finder, "find_spec", None)
            spec = find(fullname, path, target) if find is not None else None
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = cast("Loader", _HeldLoader(spec.loader, self))
                return spec
        return None

    def done(self, name: str) -> None:
        self.names.discard(name)
        if not self.names and self in sys.meta_path:
            sys.meta_path.remove(self)


class _HeldLoader:
    """The real loader, with Ctrl+C held while the module runs; the module keeps the real loader afterwards."""

    def __init__(self, real: Loader, finder: _HeldImports) -> None:
        self.real = real
        self.finder = finder

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self.real.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.finder.done(module.__name__)
        with held_ctrl_c():
            try:
                self.real.exec_module(module)
            finally:
                module.__loader__ = self.real
                if module.__spec__ is not None:
                    module.__spec__.loader = self.real
