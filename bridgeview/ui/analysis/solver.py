"""Double-dummy solving in the GUI: a worker thread and its wiring into a document view.

:class:`SolverWorker` runs DDS off the GUI thread.  It serves, in order:
small computations the user is waiting for (the per-card trick counts of a
replay position, par), then boards the user is looking at, then the rest of
the file in small batches, so a position request never waits for more than
one batch.  :func:`install_solver` fills the DD grid of boards that lack one
(current board first, then the rest of the file in the background with a
progress bar and a cancel button), offers "Solve all boards" and "Solve
again", writes par under the grid and annotates the cards of the player to
play during a replay.

Tables solved here are a cache for display, kept by deal in the document
(``Document.solved``), never written into the boards behind the user's back:
viewing a file is not editing it.  They go into the file when the user saves it
for another reason, or by Analysis › Add Solved Tables to the File (an undoable
edit; see ``ui/analysis/solved_tables.py``).
"""

from __future__ import annotations

import atexit
import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QThread, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QStackedWidget, QToolButton, QWidget

from ...model.board import Board
from ...model.cards import DISPLAY_STRAINS, Seat, Strain
from ...model.ddtable import DDTable
from ...model.deal import Deal
from ...solve.boards import difference_note, has_table, makeable_line, needs_solving, par_line
from ...solve.dds import unsolvable_reason
from ..plaintext import plain_label
from ..theme import DIFF_RED

#: boards a background DDS call solves; small, so urgent requests wait at most one batch
BACKGROUND_BATCH = 8
#: files with more boards than this are solved only where the user looks (and on request)
AUTO_SOLVE_LIMIT = 100_000
#: the rest of the file is solved this long after it is opened (the current board sooner),
#: so flicking through files does not start a full solve for each
AUTO_DELAY_MS = 1500
#: what the user is looking at is solved once they have stopped on it this long (flicking
#: through boards or cards with the keyboard does not queue a solve for every stop)
SETTLE_MS = 200
#: settle periods a view on screen waits for its diagram's first paint before asking DDS anyway (a diagram
#: that is never painted, on a machine too busy to paint it soon, does not keep its table back for longer)
FIRST_PAINT_WAIT = 15
DIFF_FG = DIFF_RED
#: seconds DDS may spend on one batch (then on one deal) before it is given up (render's --dd-timeout)
DD_TIMEOUT = 20.0

#: workers that may still be running; waited for at exit (a running QThread must not be destroyed)
_LIVE: set[SolverWorker] = set()


@atexit.register
def _stop_all() -> None:
    for w in list(_LIVE):
        try:
            w.stop()
        except RuntimeError:  # its C++ side is already gone, and with it the thread
            pass
    _LIVE.clear()


class SolverWorker(QThread):
    """A thread that solves deals with DDS; every method may be called from the GUI thread."""

    #: (board index, DDTable or None when DDS cannot solve the deal)
    tableReady = Signal(int, object)
    #: (boards of the background queue looked at, boards queued) - the progress of "solve the file"
    progress = Signal(int, int)
    #: the background queue ran dry (False) or was cancelled (True)
    backgroundFinished = Signal(bool)
    #: (key, result) of a :meth:`compute` request
    resultReady = Signal(object, object)
    #: a solve failed (DDS error text)
    failed = Signal(str)
    #: (board index, seconds): DDS took longer than the time limit on this deal and was given up
    slow = Signal(int, float)

    def __init__(self, deal_for: Callable[[int], Deal | None], parent: QObject | None = None) -> None:
        super().__init__(parent)
        #: the deal of board ``i`` when it needs solving in the background, else None
        self.deal_for = deal_for
        self._lock = threading.Lock()
        self._stop = False
        self._urgent: OrderedDict[int, Deal] = OrderedDict()
        self._compute: OrderedDict[str, tuple[object, Callable[[], object]]] = OrderedDict()
        self._background: deque[range] = deque()  # ranges, so "the whole file" costs nothing to queue
        self._bg_total = 0
        self._bg_done = 0
        self._busy = False
        self._running = False

    # -- requests ---------------------------------------------------------------
    def solve_now(self, index: int, deal: Deal) -> None:
        """Solve board ``index`` before anything in the background."""
        with self._lock:
            self._urgent[index] = deal
            self._urgent.move_to_end(index, last=False)
        self._ensure_running()

    def solve_background(self, indices: range | Iterable[int]) -> None:
        """Queue boards to solve when nothing else is waiting (a board that no longer needs
        solving when its turn comes is skipped)."""
        ranges = [indices] if isinstance(indices, range) else [range(i, i + 1) for i in indices]
        with self._lock:
            self._background.extend(r for r in ranges if len(r))
            self._bg_total += sum(len(r) for r in ranges)
        self._ensure_running()

    def cancel_background(self) -> None:
        """Drop the background queue; the batch being solved finishes and is reported."""
        with self._lock:
            had = bool(self._background) or self._bg_total
            self._background.clear()
            self._bg_total = self._bg_done = 0
        if had:
            self.backgroundFinished.emit(True)

    def compute(self, kind: str, key: object, fn: Callable[[], object]) -> None:
        """Run ``fn`` soon and report ``resultReady(key, result)``; a newer request of the same
        ``kind`` replaces one still waiting (only the latest replay position matters)."""
        with self._lock:
            self._compute[kind] = (key, fn)
        self._ensure_running()

    def background_pending(self) -> int:
        with self._lock:
            return sum(len(r) for r in self._background)

    def is_idle(self) -> bool:
        with self._lock:
            return not (self._busy or self._urgent or self._compute or self._background)

    def request_stop(self) -> None:
        """Drop all requests and let the thread end after the DDS call in progress, without waiting."""
        with self._lock:
            self._stop = True
            self._background.clear()
            self._urgent.clear()
            self._compute.clear()

    def stop(self, wait_ms: int = 30_000) -> None:
        """Stop the thread (after the DDS call in progress) and wait for it."""
        with self._lock:
            self._stop = True
            self._background.clear()
            self._urgent.clear()
            self._compute.clear()
            busy = self._busy
        if busy:  # quitting: a slow deal in the DDS child must not hold the app open
            from ...solve.timed import abandon_shared

            abandon_shared()
        if self.isRunning():
            self.wait(wait_ms)

    def _ensure_running(self) -> None:
        """Start the thread if it is not serving requests (it ends whenever it runs out of work,
        so an idle document holds no running thread)."""
        with self._lock:
            if self._running or self._stop:
                return
            self._running = True
        self.wait()  # a previous run may still be returning
        self.start(QThread.Priority.LowPriority)

    # -- the thread ---------------------------------------------------------------
    def run(self) -> None:
        while True:
            with self._lock:
                if self._stop or not (self._urgent or self._compute or self._background):
                    self._running = False
                    return
                self._busy = True
                job = self._take()
            try:
                job()
            except Exception as e:  # a DDS error must not kill the thread
                self.failed.emit(f"double-dummy solver: {e}")
            finally:
                with self._lock:
                    self._busy = False

    def _take(self) -> Callable[[], None]:
        """The next job (called with the lock held)."""
        if self._compute:
            _kind, (key, fn) = self._compute.popitem(last=False)
            return lambda: self.resultReady.emit(key, fn())
        if self._urgent:
            items: list[tuple[int, Deal]] = []
            while self._urgent and len(items) < BACKGROUND_BATCH:
                items.append(self._urgent.popitem(last=False))
            return lambda: self._solve(items)
        indices: list[int] = []
        while self._background and len(indices) < BACKGROUND_BATCH:
            r = self._background.popleft()
            take = BACKGROUND_BATCH - len(indices)
            indices.extend(r[:take])
            if len(r) > take:
                self._background.appendleft(r[take:])
        return lambda: self._solve_background(indices)

    def _solve(self, items: list[tuple[int, Deal]]) -> None:
        """Solve in the shared DDS child process, which is killed when a deal takes longer
        than ``DD_TIMEOUT`` (DDS cannot be interrupted in a thread); each table is reported
        as soon as its deal is done."""
        from ...solve.timed import shared_process, solve_within

        timeout = DD_TIMEOUT
        with shared_process() as proc:
            solve_within(
                [d for _, d in items],
                timeout,
                process=proc,
                on_table=lambda k, t: self.tableReady.emit(items[k][0], t),
                on_slow=lambda k: self.slow.emit(items[k][0], timeout),
            )

    def _solve_background(self, indices: list[int]) -> None:
        items = []
        for i in indices:
            deal = self.deal_for(i)
            if deal is not None:
                items.append((i, deal))
        try:
            if items:
                self._solve(items)
        finally:
            with self._lock:
                if self._bg_total:
                    self._bg_done += len(indices)
                done, total = self._bg_done, self._bg_total
                finished = bool(total) and not self._background
                if finished:
                    self._bg_total = self._bg_done = 0
            if total:
                self.progress.emit(done, total)
            if finished:
                self.backgroundFinished.emit(False)


class SolverBar(QWidget):
    """Under the DD grid: the solve actions, or while the file is being solved its progress and a cancel
    button in their place - one row of a fixed size, so nothing in the window moves when solving starts
    or ends."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.stack = QStackedWidget(self)
        outer.addWidget(self.stack)
        idle = QWidget(self.stack)
        idle_row = QHBoxLayout(idle)
        idle_row.setContentsMargins(0, 0, 0, 0)
        idle_row.setSpacing(4)
        busy = QWidget(self.stack)
        busy_row = QHBoxLayout(busy)
        busy_row.setContentsMargins(0, 0, 0, 0)
        busy_row.setSpacing(4)
        self.label = plain_label(QLabel("Solving"))
        self.progress = QProgressBar(self)
        self.progress.setTextVisible(True)
        self.progress.setFormat("%v/%m")
        self.progress.setMinimumWidth(60)
        self.cancel = QToolButton(self)
        self.cancel.setText("Cancel")
        self.cancel.setToolTip("Stop solving the rest of the file")
        self.again = QToolButton(self)
        self.all = QToolButton(self)
        busy_row.addWidget(self.label)
        busy_row.addWidget(self.progress, 1)
        busy_row.addWidget(self.cancel)
        idle_row.addStretch(1)
        idle_row.addWidget(self.again)
        idle_row.addWidget(self.all)
        self.stack.addWidget(idle)
        self.stack.addWidget(busy)
        self.set_running(False)

    def set_running(self, on: bool) -> None:
        self.stack.setCurrentIndex(1 if on else 0)

    def is_running(self) -> bool:
        return self.stack.currentIndex() == 1


class DocumentSolver(QObject):
    """Keeps one document view's DD grid, par line and replay annotations filled from DDS."""

    def __init__(self, view, auto: bool | None = None) -> None:
        super().__init__(view)
        self.view = view
        self.model = view.model
        for w in [w for w in _LIVE if w._stop and not w.isRunning()]:
            _LIVE.discard(w)
        self.worker = SolverWorker(self._deal_needing_solution)
        _LIVE.add(self.worker)
        #: the latest "solve what the user looks at" requests, sent once the view settles
        self._pending: dict[str, Callable[[], None]] = {}
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(SETTLE_MS)
        self._settle.timeout.connect(self._send_pending)
        #: whether the diagram has been painted: until then a view on screen sends nothing (a table to solve, a
        #: position's trick counts), so the window shows its first board before DDS's work starts (issue 29)
        self._painted = False
        self._held = 0  # settle periods the requests have waited for that paint
        view.diagram.installEventFilter(self)
        self._requested: dict[int, Deal] = {}  # boards asked for, with the deal asked about
        self._requested_lock = threading.Lock()  # the worker thread adds to ``_requested`` too
        self._again: dict[int, Deal] = {}  # "Solve again" requests
        self._checked: dict[int, tuple[Deal, DDTable]] = {}  # DDS tables of boards solved again
        self._position_key: object = None
        self._annotated_key: object = None  # the position whose trick counts the diagram shows
        #: the tables this app solved, by deal (the document's cache: shown, not part of the file)
        self.solved: dict[tuple[int, int, int, int], DDTable] = view.document.core.solved
        #: where each solved table's deal was when it was asked for (board index -> hands), so a set too
        #: big to look through finds the boards to add tables to
        self.solved_at: dict[int, tuple[int, int, int, int]] = {}

        self._make_actions(view)

        self.bar = SolverBar(view.dd_grid.parentWidget())
        self.bar.again.setDefaultAction(self.solve_again_action)
        self.bar.all.setDefaultAction(self.solve_all_action)
        self.bar.cancel.clicked.connect(self.cancel)
        layout = view.dd_grid.parentWidget().layout()
        layout.insertWidget(layout.indexOf(view.dd_grid) + 1, self.bar)

        self.worker.tableReady.connect(self._table_ready)
        self.worker.progress.connect(self._progress)
        self.worker.backgroundFinished.connect(self._background_finished)
        self.worker.resultReady.connect(self._result_ready)
        self.worker.failed.connect(self.show_failure)
        self.worker.slow.connect(self._slow)
        #: deals DDS gave up on, not asked for again in this view (hands -> seconds waited)
        self.slow_deals: dict[tuple, float] = {}
        view.currentBoardChanged.connect(self._board_shown)
        view.replay.positionChanged.connect(self._position_changed)

        worker = self.worker
        view.destroyed.connect(lambda *_: worker.request_stop())  # closing a tab does not wait for DDS
        app = QCoreApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(worker.stop)

        if auto is None:
            auto = len(view.boards) <= AUTO_SOLVE_LIMIT
        self.auto = auto
        if view.current_index() >= 0:
            self._board_shown(view.current_index())
            # the replay showed its first position before this solver listened
            self._position_changed(view.replay.position())
        if auto:
            QTimer.singleShot(AUTO_DELAY_MS, self, self.solve_all)

    def _make_actions(self, view: QWidget) -> None:
        """The view's solving actions (the Analysis menu shows the current tab's): Solve all, Solve again,
        Cancel, Solve on a Dask cluster, Add Solved Tables to the File."""
        self.solve_all_action = QAction("Solve all boards", view)
        self.solve_all_action.setToolTip("Work out the double-dummy table of every board that lacks one")
        self.solve_all_action.triggered.connect(self.solve_all)
        self.solve_again_action = QAction("Solve again", view)
        self.solve_again_action.setToolTip("Solve this board with DDS and compare with the stored table")
        self.solve_again_action.triggered.connect(self.solve_again)
        self.cancel_action = QAction("Cancel solving", view)
        self.cancel_action.triggered.connect(self.cancel)
        self.solve_cluster_action = QAction("Solve all boards on a Dask cluster…", view)
        self.solve_cluster_action.setToolTip(
            "Send every board that lacks a table to a Dask scheduler (for sets too big for this machine)"
        )
        self.solve_cluster_action.triggered.connect(lambda _checked=False: self.solve_on_cluster())
        #: the running cluster job (see ui/analysis/cluster_solve.py), or None
        self.cluster_job = None
        self.add_tables_action = QAction("Add Solved Tables to the File", view)
        self.add_tables_action.setObjectName("action_add_solved_tables")
        self.add_tables_action.setToolTip(
            "Write the double-dummy tables worked out here into the boards (one undoable edit), "
            "so that saving keeps them"
        )
        self.add_tables_action.triggered.connect(lambda _checked=False: self.add_tables())
        for a in (
            self.solve_all_action,
            self.solve_again_action,
            self.cancel_action,
            self.solve_cluster_action,
            self.add_tables_action,
        ):
            view.addAction(a)

    # -- actions ------------------------------------------------------------------
    def solve_all(self) -> None:
        """Solve every board that lacks a table, after the current one, in the background."""
        n = len(self.view.boards)
        cur = max(self.view.current_index(), 0)
        if not n:
            return
        self.bar.progress.setRange(0, n)
        self.bar.progress.setValue(0)
        self.bar.set_running(True)
        self.worker.solve_background(range(cur, n))
        self.worker.solve_background(range(0, cur))

    def solve_again(self) -> None:
        """Re-solve the current board; a stored table stays, with any disagreement marked."""
        i = self.view.current_index()
        board = self.view.current_board()
        if board is None or not board.deal.card_count:
            return
        self._again[i] = board.deal
        self._requested[i] = board.deal
        self.view.dd_grid.set_table(self.view.shown_board(board).dd, note="Solving double dummy…")
        self.worker.solve_now(i, board.deal)

    def add_tables(self) -> int:
        """Analysis › Add Solved Tables to the File: how many boards got their table (one undo step)."""
        from .solved_tables import add_solved_tables

        return add_solved_tables(self.view)

    def cancel(self) -> None:
        self.worker.cancel_background()
        if self.cluster_job is not None:
            self.cluster_job.cancel()

    def solve_on_cluster(self, address: str | None = None):
        """Solve every board lacking a table on the Dask scheduler at ``address`` (asked for, and
        remembered, when not given); the job, or None when cancelled or nothing needs solving."""
        from .. import dialogs
        from .cluster_solve import cluster_address, set_cluster_address, start_cluster_solve

        if self.cluster_job is not None:
            return None
        if address is None:
            address = dialogs.get_text(
                self.view,
                "Solve on a Dask cluster",
                "Dask scheduler address (workers need pip install 'bridgeview[cluster]'):",
                cluster_address() or "tcp://127.0.0.1:8786",
            )
            if not address:
                return None
        set_cluster_address(address)
        return start_cluster_solve(self, address)

    def _later(self, kind: str, send: Callable[[], None]) -> None:
        self._pending[kind] = send
        self._settle.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint and watched is self.view.diagram and not self._painted:
            self._painted = True
            watched.removeEventFilter(self)
            if self._pending:  # held back for the first paint: asked for now, once that paint is done
                QTimer.singleShot(0, self, self._send_pending)
        return False

    def _send_pending(self) -> None:
        diagram = self.view.diagram
        if not self._painted and diagram.isVisible() and not diagram.visibleRegion().isEmpty():
            if self._held < FIRST_PAINT_WAIT:  # the diagram's first paint sends them (eventFilter)
                self._held += 1
                self._settle.start()
                return
        pending, self._pending = self._pending, {}
        for send in pending.values():
            send()

    def shutdown(self, wait: bool = False) -> None:
        """Stop solving for this view.  By default this does not wait for the DDS call in
        progress (closing a tab stays instant); the thread is waited for at exit."""
        self._settle.stop()
        self._pending.clear()
        if wait:
            self.worker.stop()
        else:
            self.worker.request_stop()

    # -- worker side (runs in the worker thread) -------------------------------------
    def _deal_needing_solution(self, i: int) -> Deal | None:
        try:
            board = self.view.boards[i]
        except (IndexError, RuntimeError):
            return None
        if not self.needs_solving(board):
            return None
        with self._requested_lock:
            self._requested[i] = board.deal
        return board.deal

    # -- results (GUI thread) -------------------------------------------------------
    def needs_solving(self, board: Board) -> bool:
        """Whether ``board`` lacks a table that DDS could give it: none stored or cached, and not given up on."""
        hands = board.deal.hands
        return needs_solving(board) and hands not in self.solved and hands not in self.slow_deals

    def remember(self, i: int, deal: Deal, table: DDTable) -> None:
        """Keep ``table``, solved for ``deal`` (asked for at board ``i``), and show it if that board is current."""
        self.solved[deal.hands] = table
        self.solved_at[i] = deal.hands
        board = self.view.current_board()
        if board is not None and i == self.view.current_index() and board.deal == deal:
            self._show_grid(board, i)

    def _table_ready(self, i: int, table: DDTable | None) -> None:
        asked = self._requested.pop(i, None)
        again = self._again.pop(i, None)
        if not 0 <= i < len(self.view.boards) or asked is None:
            return
        if table is not None:
            if again is not None:
                self._checked[i] = (asked, table)
            self.remember(i, asked, table)  # a table for the deal asked about, wherever that board is now
            return
        board = self.model.board(i)
        if i == self.view.current_index() and board.deal == asked:
            self._show_grid(board, i)

    def _progress(self, done: int, total: int) -> None:
        self.bar.progress.setRange(0, total)
        self.bar.progress.setValue(done)

    def _background_finished(self, cancelled: bool) -> None:
        self.bar.set_running(False)
        if cancelled:
            # forget deals of boards that will never be answered now
            cur = self.view.current_index()
            with self._requested_lock:
                self._requested = {k: v for k, v in self._requested.items() if k == cur or k in self._again}

    def _slow(self, i: int, seconds: float) -> None:
        asked = self._requested.pop(i, None)
        self._again.pop(i, None)
        if asked is not None:
            self.slow_deals[asked.hands] = seconds
        board = self.view.current_board()
        if board is not None and i == self.view.current_index() and asked is not None and board.deal == asked:
            self._show_grid(board, i)

    def show_failure(self, text: str) -> None:
        """DDS failed (``text`` says why): the grid of the current board shows it."""
        board = self.view.current_board()
        if board is not None:
            self.view.dd_grid.set_table(board.dd, note=text)

    def _result_ready(self, key: object, result: object) -> None:
        if key == self._position_key and isinstance(result, dict):
            self._apply_annotations(key, result)

    # -- the current board ----------------------------------------------------------
    def _board_shown(self, i: int) -> None:
        board = self.view.current_board()
        if board is None or i != self.view.current_index():
            return
        if self.needs_solving(board):
            deal = board.deal

            def send() -> None:
                self._requested[i] = deal
                self.worker.solve_now(i, deal)

            self._later("table", send)
        self._show_grid(board, i)

    def _show_grid(self, board: Board, i: int, note: str = "") -> None:
        grid = self.view.dd_grid
        stored = board
        board = self.view.shown_board(board)  # with the table solved here, if any
        checked = self._checked.get(i)
        cells: set[tuple[int, int]] = set()
        if checked is not None and checked[0] == board.deal and stored.dd is not None:
            diff, cells = difference_note(stored.dd, checked[1])
            note = note or diff or "stored table agrees with DDS"
        elif not note and board.deal.hands in self.slow_deals:
            note = (
                f"No double-dummy table: DDS took longer than {self.slow_deals[board.deal.hands]:g} s "
                "on this deal and was stopped."
            )
        elif not note and needs_solving(board):
            note = "Solving double dummy…"
        elif not note and not has_table(board) and board.deal.card_count:
            reason = unsolvable_reason(board.deal)
            if reason:
                note = f"Not solvable double dummy: {reason}."
        grid.set_table(board.dd, note=note)
        if cells and checked is not None:
            self._mark_cells(cells, checked[1])
        self._show_par(board)

    def _mark_cells(self, cells: set[tuple[int, int]], solved: DDTable) -> None:
        from ..diagram.ddgrid import ROW_SEATS

        grid = self.view.dd_grid.grid
        for seat, strain in cells:
            item = grid.item(ROW_SEATS.index(Seat(seat)), DISPLAY_STRAINS.index(Strain(strain)))
            if item is None:
                continue
            item.setForeground(DIFF_FG)
            font = item.font()
            font.setUnderline(True)
            item.setFont(font)
            item.setToolTip(f"stored {item.text()}, DDS {solved.tricks[seat][strain]}")

    def _show_par(self, board: Board) -> None:
        """The par and makeable-contracts lines under the grid, at once: par of a table is worked out
        without DDS (``solve.par_rules``, microseconds), so it shows with the board, not a worker's round trip later."""
        table = board.dd
        if table is None or table.is_empty:
            self.view.dd_grid.set_par("")
            return
        makes = makeable_line(table)
        line = par_line(board, table) if table.is_complete and board.deal.is_complete else ""
        self.view.dd_grid.set_par("\n".join(t for t in (line, makes) if t))

    # -- replay annotations ----------------------------------------------------------
    def _position_changed(self, pos) -> None:
        diagram = self.view.diagram
        diagram.set_card_annotations({})
        self._position_key = None
        state = self.view.replay.state
        if pos is None or state is None or pos.to_play is None or not state.has_play:
            return
        declarer, trump = state.declarer, state.trump
        if declarer is None or trump is None:
            return
        trick = pos.trick
        if trick is not None and trick.winner is None and trick.cards:
            on_table, leader = [int(c) for c in trick.cards], trick.leader
        else:
            on_table, leader = [], pos.to_play
        won = pos.ns_tricks if Seat(declarer).is_ns else pos.ew_tricks
        remaining = pos.remaining
        key = ("position", remaining, tuple(on_table), int(leader), int(trump), int(declarer), won)
        self._position_key = key
        to_play = pos.to_play

        def work() -> dict:
            from ...solve.dds import costly_cards, solve_position

            try:
                values = solve_position(remaining, on_table, Seat(leader), Strain(trump), Seat(declarer), won)
            except ValueError:
                return {}
            costly = costly_cards(values, Seat(to_play), Seat(declarer))
            return {c: (str(v), c in costly) for c, v in values.items()}

        self._later("position", lambda: self.worker.compute("position", key, work))

    def _apply_annotations(self, key: object, ann: dict) -> None:
        self._annotated_key = key
        self.view.diagram.set_card_annotations(ann)

    def annotations_pending(self) -> bool:
        """Whether the trick counts of the replay's position are still to come: asked for, not yet shown, and
        not given up on (a failed solve leaves the worker idle).  ``render --window`` waits for them, as a
        user sees them a moment after the board shows."""
        if self._position_key is None or self._annotated_key == self._position_key:
            return False
        return bool(self._pending) or not self.worker.is_idle()


__all__ = ["SolverWorker", "DocumentSolver", "SolverBar", "AUTO_SOLVE_LIMIT"]
