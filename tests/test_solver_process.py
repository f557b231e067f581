"""The DDS child process is let go quietly, whatever state its pipe is in."""

from __future__ import annotations

import multiprocessing
import os

from bridgeview.solve.timed import SolverProcess


def test_killing_a_solver_whose_pipe_is_already_closed_says_nothing():
    """At exit a closed descriptor (closed by whoever owned the number) must not print a traceback."""
    solver = SolverProcess()
    parent, child = multiprocessing.Pipe()
    child.close()
    os.close(parent.fileno())  # the descriptor gone under the connection, as at interpreter exit
    solver._conn = parent
    solver.kill()
    solver.close()
    assert solver._conn is None and solver._proc is None
