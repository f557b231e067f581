"""What the process does when a file it has mapped is cut short under it (Linux, 64-bit x86 and ARM).

Reading a mapped page past a file's end raises SIGBUS, and the system's default for it ends the
process at once.  Python cannot catch it: its own handlers run between bytecodes, after the
faulting instruction, which the system runs again, and again.  So :func:`watch` installs a
handler of its own (``sigaction`` through ``ctypes``) that, for a read past the end of a watched
map, maps zero-filled pages over the whole of that map (one fault, not one a page), calls the
map's note and returns: the read is done again and reads zeros, and whoever reads the map asks
:mod:`.mapped` afterwards whether what it read is the file (it is not, from then on).  Any other
SIGBUS is given back to whoever handled it before (the system's default, or ``faulthandler``),
as if this handler were not there.

The handler runs Python in the thread that faulted, between two instructions of whatever that
thread was doing (copying a slice of the map, a numpy loop over it); it does no more than look up
the address, one ``mmap`` call and the note.
"""

from __future__ import annotations

import ctypes
import mmap
import signal
import sys
import weakref
from collections.abc import Callable
from typing import Any

#: ``si_code`` of a SIGBUS for an address with nothing behind it (a page past a mapped file's end)
_BUS_ADRERR = 2
_SA_SIGINFO = 4
_MAP_FIXED = 0x10
_POINTER = ctypes.sizeof(ctypes.c_void_p)
#: offsets in ``siginfo_t``: ``si_code`` after ``si_signo`` and ``si_errno``; ``si_addr`` opens the union
_CODE_AT = 8
_ADDRESS_AT = 16 if _POINTER == 8 else 12


class _SigAction(ctypes.Structure):
    """glibc's ``struct sigaction`` (x86_64, aarch64): the handler, a 1024-bit mask, the flags, the restorer."""

    _fields_ = [
        ("handler", ctypes.c_void_p),
        ("mask", ctypes.c_ulong * (128 // ctypes.sizeof(ctypes.c_ulong))),
        ("flags", ctypes.c_int),
        ("restorer", ctypes.c_void_p),
    ]


class _PyBuffer(ctypes.Structure):
    """CPython's ``Py_buffer``, to learn where a read-only map starts."""

    _fields_ = [
        ("buf", ctypes.c_void_p),
        ("obj", ctypes.c_void_p),
        ("len", ctypes.c_ssize_t),
        ("itemsize", ctypes.c_ssize_t),
        ("readonly", ctypes.c_int),
        ("ndim", ctypes.c_int),
        ("format", ctypes.c_char_p),
        ("shape", ctypes.c_void_p),
        ("strides", ctypes.c_void_p),
        ("suboffsets", ctypes.c_void_p),
        ("internal", ctypes.c_void_p),
    ]


_HANDLER_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)

_libc = ctypes.CDLL(None, use_errno=True)
_libc.sigaction.argtypes = [ctypes.c_int, ctypes.POINTER(_SigAction), ctypes.POINTER(_SigAction)]
_libc.sigaction.restype = ctypes.c_int
#: the system's ``mmap``, for anonymous pages of zeros (never a file: :func:`.mapped.map_file` maps those)
_map_anonymous = _libc.mmap
_map_anonymous.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_map_anonymous.restype = ctypes.c_void_p
_raise = getattr(_libc, "raise")  # (a signal sent again, to this thread)
_raise.argtypes = [ctypes.c_int]
_get_buffer = ctypes.pythonapi.PyObject_GetBuffer
_get_buffer.argtypes = [ctypes.py_object, ctypes.POINTER(_PyBuffer), ctypes.c_int]
_get_buffer.restype = ctypes.c_int
_release_buffer = ctypes.pythonapi.PyBuffer_Release
_release_buffer.argtypes = [ctypes.POINTER(_PyBuffer)]
_release_buffer.restype = None


class _Watched:
    """One watched map: where it lies, the map itself (weakly: a map closed or gone is no longer ours to
    mend), and what to call when a read past its file's end was mended."""

    __slots__ = ("start", "end", "map", "note")

    def __init__(self, start: int, end: int, buf: mmap.mmap, note: Callable[[], None]) -> None:
        self.start = start
        self.end = end
        self.map = weakref.ref(buf)
        self.note = note

    def holds(self, address: int) -> bool:
        if not self.start <= address < self.end:
            return False
        buf = self.map()
        return buf is not None and not buf.closed


_watched: list[_Watched] = []
#: what handled SIGBUS before ours, given the faults that are not ours
_previous = _SigAction()


def _on_sigbus(signum: int, info: int | None, context: int | None) -> None:
    """The handler (see the module's docstring).  Never raises: an exception here would be printed and the
    fault taken again for ever.  Python runs its own signal handlers in here too, between any two bytecodes: a
    Ctrl+C then comes as a KeyboardInterrupt, which is put back for the thread to take once the read is mended
    (it was lost, and the command went on).  One that comes as the handler starts, before any line of it, is
    Python's to report: :func:`_unraisable` takes it, and the fault, taken again, comes back here."""
    while True:
        try:
            ours = _mend(info)
            break
        except KeyboardInterrupt:
            _interrupted.append(True)  # (and mend again: the fault would come back)
        except BaseException:  # (see the docstring: fall through to the previous handler)
            ours = False
            break
    if _interrupted:  # sent again: held (the handler's mask) until it returns, then taken as Ctrl+C is
        _interrupted.clear()
        _raise(signal.SIGINT)
    if ours:
        return
    _libc.sigaction(signal.SIGBUS, ctypes.byref(_previous), None)  # not ours: as if we were not here
    if info and ctypes.c_int.from_address(info + _CODE_AT).value <= 0:  # (sent, by kill: no fault comes back)
        _raise(signal.SIGBUS)


#: a Ctrl+C taken inside the handler, to be put back when it is done
_interrupted: list[bool] = []


def _unraisable(unraisable: Any) -> None:
    """``sys.unraisablehook`` while the handler is installed: a KeyboardInterrupt raised as the handler started is
    kept for it to put back (printed, "Exception ignored on calling ctypes callback function", it was lost);
    anything else goes to the hook before."""
    if unraisable.object is _on_sigbus and isinstance(unraisable.exc_value, KeyboardInterrupt):
        _interrupted.append(True)
        return
    _hook_before(unraisable)


def _mend(info: int | None) -> bool:
    """For a read past the end of a watched map: zeros mapped over it, the map's note called; True when so."""
    if not info or ctypes.c_int.from_address(info + _CODE_AT).value != _BUS_ADRERR:
        return False
    address = ctypes.c_void_p.from_address(info + _ADDRESS_AT).value or 0
    for watched in _watched:
        if watched.holds(address):  # (the whole map: what is read from it now is thrown away)
            start, length = watched.start, watched.end - watched.start
            flags = mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS | _MAP_FIXED
            if _map_anonymous(start, length, mmap.PROT_READ, flags, -1, 0) != start:
                return False
            watched.note()
            return True
    return False


_handler = _HANDLER_TYPE(_on_sigbus)  # (kept alive for as long as the system may call it)
_HANDLER_ADDRESS = ctypes.cast(_handler, ctypes.c_void_p).value


def _install() -> None:
    """Make ours the SIGBUS handler, unless it is (something may have put another in its place since: pytest's
    ``faulthandler`` puts back its own when it ends), keeping the one before it for the faults not ours."""
    current = _SigAction()
    if _libc.sigaction(signal.SIGBUS, None, ctypes.byref(current)) != 0:
        return
    if current.handler == _HANDLER_ADDRESS:
        return
    ours = _SigAction()
    ours.handler = _HANDLER_ADDRESS
    ours.flags = _SA_SIGINFO
    ours.mask[0] = 1 << (signal.SIGINT - 1)  # (Ctrl+C held while it runs: taken once it returns, not inside it)
    if _libc.sigaction(signal.SIGBUS, ctypes.byref(ours), ctypes.byref(current)) == 0:
        ctypes.memmove(ctypes.byref(_previous), ctypes.byref(current), ctypes.sizeof(_SigAction))
    global _hook_before
    if sys.unraisablehook is not _unraisable:
        _hook_before = sys.unraisablehook
        sys.unraisablehook = _unraisable


#: the ``sys.unraisablehook`` before ours
_hook_before: Callable[[Any], object] = sys.__unraisablehook__


def _start_of(buf: Any) -> int:
    """Where ``buf``'s bytes start in memory."""
    view = _PyBuffer()
    if _get_buffer(buf, ctypes.byref(view), 0) != 0:  # (PyBUF_SIMPLE; raises on failure)
        raise ValueError("no buffer")
    try:
        return int(view.buf or 0)
    finally:
        _release_buffer(ctypes.byref(view))


def watch(buf: mmap.mmap, length: int, note: Callable[[], None]) -> None:
    """Mend reads past the end of ``buf``'s file (``length`` bytes mapped) once it is cut short, calling ``note``."""
    _install()
    start = _start_of(buf)
    end = start + -(-length // mmap.PAGESIZE) * mmap.PAGESIZE
    kept = [w for w in _watched if w.holds(w.start) and not (w.start < end and start < w.end)]
    _watched[:] = [*kept, _Watched(start, end, buf, note)]
