"""Solving a whole set on a Dask cluster from the GUI (Analysis › Solve All Boards on Cluster…).

The ordinary "Solve all boards" stays in this process.  For sets too big for
one machine the user names a Dask scheduler (remembered in the settings as
``solve/clusterAddress``); the boards that lack a table go there in chunks
(:class:`bridgeview.solve.chunks.DaskSolver`) from a thread, and each table
comes back into its board as its chunk finishes, with progress and cancel in
the solver bar.
"""

from __future__ import annotations

import threading

import numpy as np
from PySide6.QtCore import QSettings, QThread, Signal

from ...model.deal import Deal
from ...solve.boards import has_table
from ...solve.chunks import DEFAULT_CHUNK, deal_masks, plan, table_of
from ...solve.connect import CONNECT_TIMEOUT

SETTING = "solve/clusterAddress"


def cluster_address(settings: QSettings | None = None) -> str:
    """The Dask scheduler address the user last gave (empty when none)."""
    settings = settings if settings is not None else QSettings()
    return str(settings.value(SETTING, "", type=str) or "")


def set_cluster_address(address: str, settings: QSettings | None = None) -> None:
    settings = settings if settings is not None else QSettings()
    settings.setValue(SETTING, address.strip())


class ClusterSolveJob(QThread):
    """Solves ``deals`` (index -> deal) on the scheduler at ``address``; signals each table as it arrives."""

    tableReady = Signal(int, object)  # board index, DDTable or None
    progress = Signal(int, int)
    failedWith = Signal(str)
    done = Signal(bool)  # cancelled?

    def __init__(
        self,
        address: str,
        deals: dict[int, Deal],
        chunk: int = DEFAULT_CHUNK,
        parent=None,
        connect_timeout: float | None = None,
    ) -> None:
        super().__init__(parent)
        self.address = address
        #: seconds to find the scheduler; what answers instead (a web page, a silent port) is the failure
        self.connect_timeout = CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
        self.indices = sorted(deals)
        self.deals = deals
        self.chunk = chunk
        self._cancel = threading.Event()

    def cancel(self) -> None:
        self._cancel.set()

    def run(self) -> None:
        from ...solve.chunks import DaskSolver

        solver = None
        cancelled = False
        try:
            solver = DaskSolver(address=self.address, connect_timeout=self.connect_timeout)  # off the GUI thread
            chunks = plan(len(self.indices), self.chunk)
            work = ((c.number, deal_masks(self.deals[i] for i in self.indices[c.start : c.stop])) for c in chunks)
            done = 0
            self.progress.emit(0, len(self.indices))
            for number, tables in solver.run(work):
                c = chunks[number]
                for k, i in enumerate(self.indices[c.start : c.stop]):
                    self.tableReady.emit(i, table_of(np.asarray(tables[k])))
                done += len(c)
                self.progress.emit(done, len(self.indices))
                if self._cancel.is_set():
                    cancelled = True
                    break
        except Exception as exc:  # a lost scheduler, a refused connection: one line for the user
            self.failedWith.emit(f"Solving on the cluster at {self.address} failed: {exc}")
        finally:
            if solver is not None:
                solver.close()
            self.done.emit(cancelled)


def start_cluster_solve(document_solver, address: str, chunk: int = DEFAULT_CHUNK) -> ClusterSolveJob | None:
    """Send every board of the view that lacks a table to the cluster; None when there is nothing to solve."""
    view = document_solver.view
    solved = document_solver.solved
    deals = {
        i: b.deal
        for i in range(len(view.boards))
        for b in (view.boards[i],)
        if b.deal.card_count and not has_table(b) and b.deal.hands not in solved
    }
    if not deals:
        return None
    job = ClusterSolveJob(address, deals, chunk, document_solver)
    bar = document_solver.bar

    def table_ready(i: int, table) -> None:
        if table is None or not 0 <= i < len(view.boards):
            return
        document_solver.remember(i, deals[i], table)  # shown, kept for a save: like a table solved here

    def progress(done: int, total: int) -> None:
        bar.progress.setRange(0, total)
        bar.progress.setValue(done)

    def finished(_cancelled: bool) -> None:
        bar.set_running(False)
        document_solver.cluster_job = None

    job.tableReady.connect(table_ready)
    job.progress.connect(progress)
    job.failedWith.connect(document_solver.show_failure)
    job.done.connect(finished)
    # deleted once its thread has returned: ``done`` is emitted from inside run(), and a QThread destroyed
    # while it still runs aborts the app
    job.finished.connect(job.deleteLater)
    bar.set_running(True)
    document_solver.cluster_job = job
    job.start()
    return job
