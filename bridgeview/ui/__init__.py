"""The Qt user interface (PySide6): the main window and the feature packages it is built from.

``mainwindow.py`` is the window and ``app.py`` starts it; ``theme``, ``plaintext``, ``card_text`` and
``dialogs`` are shared by every feature.  The features are packages, each importing only those below it:
``document`` (a tab, its board model and undo commands, the services a feature sees), ``diagram``,
``replay``, ``analysis``, ``editor``, ``printing``, ``desk``, ``window`` (saving, the keyboard),
``boardset`` (a board set's tab, built from the features) and ``cribbage``.  docs/architecture.md
draws the whole of it.

PySide6 6.12 built for CPython 3.11 returns ``None`` from every void method
without taking a reference (it assumes the immortal ``None`` of Python 3.12+),
so each call such as ``painter.setPen(...)`` drops ``None``'s reference count
by one, and after some thousands of calls the interpreter aborts with "Fatal
Python error: none_dealloc" (some paths do the same to ``True``/``False``:
"bool_dealloc").  On CPython before 3.12 we therefore give these singletons a
reserve of references large enough never to run out, which is what 3.12 does
by design (immortal objects); they are never deallocated either way.

``pyproject.toml`` asks for ``PySide6-Essentials<6.12`` (6.11 keeps the counts
right), so the guard only acts when an affected release is installed anyway.
"""

from __future__ import annotations

import sys

#: references added to each singleton (far more calls than any session makes)
NONE_REFERENCE_RESERVE = 1 << 50


def _guard_none_refcount() -> None:
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 12):
        return
    import PySide6

    if tuple(PySide6.__version_info__[:2]) < (6, 12):
        return
    import ctypes

    for singleton in (None, True, False):
        refcount = ctypes.c_ssize_t.from_address(id(singleton))
        if refcount.value < NONE_REFERENCE_RESERVE:
            refcount.value += NONE_REFERENCE_RESERVE


_guard_none_refcount()
