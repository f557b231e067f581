"""Is there a Dask scheduler at this address?  Asked with a time limit, and answered in words.

Dask's own connect waits for the scheduler's handshake without a time limit, so an
address where something else listens -- the Dask dashboard or another web server, a
proxy, a socket that accepts and says nothing -- kept ``bridgeview solve --cluster``
(and the GUI's cluster job) waiting for ever.  :func:`probe_scheduler` connects first
with plain sockets: a Dask scheduler sends its handshake as soon as it accepts a
connection, so bytes that start like a Dask message within the time limit mean a
scheduler; anything else is named (:class:`NotAScheduler`, an ``OSError`` like a
refused connection) and the caller stops at once.
"""

from __future__ import annotations

import socket
import struct
import time
from urllib.parse import urlsplit

#: seconds to find a scheduler at an address (``solve --connect-timeout``, the GUI's cluster job)
CONNECT_TIMEOUT = 20.0
#: seconds (at most a quarter of the time limit) to wait for the scheduler's unprompted handshake before
#: asking as a web client would; a scheduler answers in milliseconds
_QUIET = 2.0
#: a Dask handshake's first 8 bytes are the little-endian length of what follows: small
_MAX_HANDSHAKE = 1 << 24
DEFAULT_PORT = 8786


class NotAScheduler(OSError):
    """Something answers at the address, and it is not a Dask scheduler (the message says what)."""


def _quote(data: bytes) -> str:
    """The first line of what answered, short and printable (binary junk as ``?``)."""
    lines = [line.strip() for line in data[:200].decode("latin-1").splitlines() if line.strip()]
    text = "".join(c if c.isprintable() else "?" for c in lines[0]) if lines else repr(data[:16])
    return text if len(text) <= 60 else text[:59] + "…"


def _read(sock: socket.socket, deadline: float) -> bytes | None:
    """The first bytes the peer sends before ``deadline``: b"" when it closes, None when it stays silent."""
    left = deadline - time.monotonic()
    if left <= 0:
        return None
    sock.settimeout(left)
    try:
        return sock.recv(4096)
    except TimeoutError:
        return None
    except ConnectionResetError:
        return b""


def _looks_like_dask(data: bytes) -> bool:
    if len(data) < 8:
        return False
    length: int = struct.unpack("<Q", data[:8])[0]
    return 8 <= length < _MAX_HANDSHAKE


def probe_scheduler(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Return when a Dask scheduler answers at the ``tcp://`` ``address`` within ``timeout`` seconds;
    raise ``OSError`` (nothing listens, no route, timed out) or :class:`NotAScheduler` saying what
    answered instead.  Other schemes (``tls://``, ``inproc://``) are left to Dask."""
    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme not in ("tcp", "") or parts.hostname is None:
        return
    port = parts.port or DEFAULT_PORT
    deadline = time.monotonic() + timeout
    try:
        sock = socket.create_connection((parts.hostname, port), timeout=timeout)
    except TimeoutError:
        raise OSError(f"no answer from {parts.hostname}:{port} in {timeout:g} s") from None
    with sock:
        first = _read(sock, min(deadline, time.monotonic() + min(_QUIET, timeout / 4)))
        if first is None:  # silent so far: a web server waits for a request, so make one
            try:
                sock.sendall(f"GET / HTTP/1.0\r\nHost: {parts.hostname}\r\n\r\n".encode("ascii"))
            except OSError:
                first = b""
            else:
                first = _read(sock, deadline)
        if first is None:
            raise NotAScheduler(
                f"something at {parts.hostname}:{port} accepts connections but says nothing "
                f"(waited {timeout:g} s): not a Dask scheduler"
            )
        if not first:
            raise NotAScheduler(
                f"{parts.hostname}:{port} closes the connection at once (a proxy, or a server that is "
                "not a Dask scheduler)"
            )
        if first.startswith(b"HTTP/"):
            raise NotAScheduler(
                f"a web server answers at {parts.hostname}:{port} ({_quote(first)}), not a Dask scheduler "
                f"(the Dask dashboard is a web page; the scheduler listens on another port, usually {DEFAULT_PORT})"
            )
        if not _looks_like_dask(first):
            raise NotAScheduler(
                f"something that is not a Dask scheduler answers at {parts.hostname}:{port} ({_quote(first)})"
            )


__all__ = ["CONNECT_TIMEOUT", "NotAScheduler", "probe_scheduler"]
