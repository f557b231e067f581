"""A wrong cluster address fails fast, saying what answers there: a web server (the Dask dashboard),
a socket that accepts and says nothing, a proxy that closes the connection.

Dask's own handshake waits for ever at such an address; ``solve --cluster`` gives up after
``--connect-timeout`` seconds with one line and exit 1, and the GUI's cluster job does the same
from its thread while the window goes on.  The servers are local sockets started here.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridgeview.solve.connect import NotAScheduler, probe_scheduler

#: the time limit the tests give; the child processes are killed well after it (a hang fails, never blocks)
LIMIT = 1.5
GUARD = 120


class Server:
    """A local server of ``kind``: "http" answers a request as a web page, "silent" accepts and says
    nothing, "close" closes each connection at once, "banner" greets first in its own protocol."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.port = self.sock.getsockname()[1]
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.held: list[socket.socket] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        self.sock.settimeout(0.2)
        while not self.stop.is_set():
            try:
                conn, _ = self.sock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if self.kind == "http":
                conn.settimeout(5)
                try:
                    conn.recv(4096)
                    conn.sendall(b"HTTP/1.1 302 Found\r\nLocation: /status\r\nContent-Length: 0\r\n\r\n")
                except OSError:
                    pass
                conn.close()
            elif self.kind == "close":
                conn.close()
            elif self.kind == "banner":  # a server that speaks first, as SSH does
                conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")
                self.held.append(conn)
            else:
                self.held.append(conn)  # accepted, never answered

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for conn in self.held:
            conn.close()
        self.sock.close()


@pytest.fixture(params=["http", "silent", "close", "banner"])
def server(request) -> Iterator[Server]:
    s = Server(request.param)
    yield s
    s.close()


SAYS = {
    "http": "a web server answers at 127.0.0.1:{port} (HTTP/1.1 302 Found), not a Dask scheduler",
    "silent": "something at 127.0.0.1:{port} accepts connections but says nothing (waited 1.5 s)",
    "close": "127.0.0.1:{port} closes the connection at once",
    "banner": "something that is not a Dask scheduler answers at 127.0.0.1:{port} (SSH-2.0-OpenSSH_9.6)",
}


def test_the_probe_says_what_answers(server: Server) -> None:
    with pytest.raises(NotAScheduler) as e:
        probe_scheduler(server.address, LIMIT)
    assert SAYS[server.kind].format(port=server.port) in str(e.value)


def test_nothing_listening_is_an_os_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(OSError) as e:
        probe_scheduler(f"tcp://127.0.0.1:{port}", LIMIT)
    assert not isinstance(e.value, NotAScheduler)


def test_a_real_scheduler_passes_the_probe() -> None:
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(
        n_workers=0, processes=False, dashboard_address=None, protocol="tcp://", host="127.0.0.1"
    )
    try:
        probe_scheduler(cluster.scheduler_address, LIMIT)
    finally:
        cluster.close()


def test_solve_with_a_wrong_cluster_fails_within_the_time_limit(tmp_path: Path, server: Server) -> None:
    pytest.importorskip("distributed")
    from test_solve_cluster import write_set

    src = tmp_path / "in.pbn"
    write_set(src, 4)
    out = tmp_path / "out.zdd"
    command = [sys.executable, "-m", "bridgeview", "solve", str(src), str(out), "--cluster", server.address]
    started = time.monotonic()
    try:
        done = subprocess.run(
            [*command, "--connect-timeout", str(LIMIT)], capture_output=True, text=True, timeout=GUARD, check=False
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"solve --cluster {server.kind}: still waiting after {GUARD} s")
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith(f"bridgeview: cannot reach the Dask scheduler at {server.address}: ")
    assert SAYS[server.kind].format(port=server.port) in lines[0]
    assert not out.exists()
    assert time.monotonic() - started < GUARD


def test_the_connect_timeout_is_an_option_with_a_default() -> None:
    from bridgeview.cli.common import CONNECT_TIMEOUT
    from bridgeview.solve import connect

    assert CONNECT_TIMEOUT == connect.CONNECT_TIMEOUT == 20.0
    help_text = subprocess.run(
        [sys.executable, "-m", "bridgeview", "solve", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "--connect-timeout S" in help_text and "(default 20)" in " ".join(help_text.split())


def test_the_gui_cluster_job_fails_without_freezing_the_window(qtbot, tmp_path, monkeypatch, messages) -> None:
    """Analysis › Solve all boards on a Dask cluster… at a silent port: the window keeps working (a
    timer ticks) while the job waits, then the failure is one line saying what was found."""
    pytest.importorskip("distributed")
    from PySide6.QtCore import QTimer
    from test_solve_cluster import window_noting_cluster_failures

    from bridgeview.ui.analysis import cluster_solve

    monkeypatch.setattr(cluster_solve, "CONNECT_TIMEOUT", LIMIT)
    win, view, failures = window_noting_cluster_failures(qtbot, tmp_path, monkeypatch)
    silent = Server("silent")
    ticks: list[float] = []
    timer = QTimer(win)
    timer.timeout.connect(lambda: ticks.append(time.monotonic()))
    timer.start(50)
    try:
        job = view.solver.solve_on_cluster(silent.address)
        assert job is not None and job.isRunning()
        qtbot.waitUntil(lambda: view.solver.cluster_job is None, timeout=GUARD * 1000)
    finally:
        timer.stop()
        silent.close()
    assert len(ticks) >= 3, "the window stopped while the job looked for the scheduler"  # frozen: 0 or 1
    assert len(failures) == 1, failures
    assert failures[0].startswith(f"Solving on the cluster at {silent.address} failed: ")
    assert "accepts connections but says nothing" in failures[0]
    assert "says nothing" in view.dd_grid.note.text()
