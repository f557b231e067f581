"""``bridgeview solve`` in chunks: the journal, --resume after Ctrl+C or kill -9, and Dask clusters.

Every way of solving must write the same bytes as the plain one-process run.
"""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from bridgeview.cli import solve as solve_cmd
from bridgeview.cli.main import main
from bridgeview.formats import registry
from bridgeview.formats.errors import FormatError
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet
from bridgeview.model.deal import Deal
from bridgeview.solve import chunks
from bridgeview.solve.chunks import UNSOLVED, Journal, deal_masks, solve_masks

REPO = Path(__file__).resolve().parent.parent


def ending(rng: random.Random, cards: int) -> Deal:
    """A random ending of ``cards`` cards a hand (fast for DDS)."""
    pack = list(range(52))
    rng.shuffle(pack)
    owners = [4] * 52
    for i, c in enumerate(pack[: 4 * cards]):
        owners[c] = i % 4
    return Deal.from_owners(owners)


def write_set(path: Path, n: int, seed: int = 7, cards: int = 4, full: int = 2) -> None:
    """``n`` boards: ``full`` full deals, the rest endings of ``cards`` cards, one unsolvable uneven ending."""
    rng = random.Random(seed)
    deals = [Deal.shuffled(rng) if i < full else ending(rng, cards) for i in range(n)]
    boards = [Board.numbered(i + 1, d) for i, d in enumerate(deals)]
    if n > 3:  # an ending DDS cannot solve (hands of unequal length) stays unsolved on every path
        owners = [4] * 52
        owners[0], owners[1], owners[2] = 0, 0, 1
        boards[3] = Board.numbered(4, Deal.from_owners(owners))
    registry.write_file(BoardSet(boards), path, "pbn" if path.suffix == ".pbn" else None)


def solve_cli(*args: str) -> int:
    return main(["solve", *map(str, args)])


@pytest.fixture(scope="module")
def plain_run(tmp_path_factory) -> tuple[bytes, dict[str, bytes]]:
    """An input set and the output of the plain one-process run for each target format, solved once
    for the module (each solve starts DDS in a child process)."""
    folder = tmp_path_factory.mktemp("plain")
    src = folder / "in.pbn"
    write_set(src, 14)
    outs = {}
    for ext in ("pbn", "zdd"):
        out = folder / f"plain.{ext}"
        assert solve_cli(src, out) == 0
        outs[ext] = out.read_bytes()
        assert not Journal(out).exists()  # the journal goes once OUT is written
    return src.read_bytes(), outs


@pytest.fixture
def plain(tmp_path, plain_run) -> tuple[Path, dict[str, bytes]]:
    """The plain run's input, as this test's own file (a test may change it), and its outputs."""
    data, outs = plain_run
    src = tmp_path / "in.pbn"
    src.write_bytes(data)
    return src, outs


def test_solve_masks_matches_endplay():
    """The worker's function gives DDS's own tables (endplay called directly) on random full deals."""
    from endplay.dds import calc_all_tables
    from endplay.types import Deal as EDeal

    rng = random.Random(11)
    deals = [Deal.shuffled(rng) for _ in range(4)]
    ours = solve_masks(deal_masks(deals))
    theirs = calc_all_tables([EDeal(d.to_pbn()) for d in deals])
    for k, table in enumerate(theirs):
        rows = table.to_list(player_major=True)  # players N E S W; strains S H D C NT
        expect = [[r[3], r[2], r[1], r[0], r[4]] for r in rows]
        assert ours[k].tolist() == expect


def test_unsolvable_marked():
    owners = [4] * 52
    owners[0], owners[1], owners[2] = 0, 0, 1
    out = solve_masks(deal_masks([Deal.from_owners(owners)]))
    assert (out == UNSOLVED).all()


def test_a_worker_loads_dds_binding_alone():
    """A Dask worker (or any process that solves) loads DDS's binding, not endplay's dealer and matplotlib
    (0.6 s of CPU a worker, issue 29)."""
    code = (
        "import random, sys\n"
        "from bridgeview.model.deal import Deal\n"
        "from bridgeview.solve.chunks import deal_masks, solve_masks\n"
        "out = solve_masks(deal_masks([Deal.shuffled(random.Random(1))]))\n"
        "print(int(out[0].sum()) > 0, 'matplotlib' in sys.modules, 'endplay.dealer' in sys.modules)\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "False", "False"]


def test_tail_pieces_shrink_to_a_deal():
    assert chunks.tail_piece(1000, 2) == chunks.PIECE
    assert chunks.tail_piece(12, 2) == 3
    assert chunks.tail_piece(3, 2) == 1
    assert chunks.tail_piece(0, 2) == 1


def test_local_workers_are_forked_only_where_no_qt_is_loaded(monkeypatch):
    """The command line forks its Dask workers (Dask and numpy already imported); a process with Qt loaded
    starts them afresh (forking a process that runs Qt's threads is not safe)."""
    code = "from bridgeview.solve.chunks import worker_start_method; print(worker_start_method())"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert proc.stdout.strip() == ("fork" if sys.platform.startswith("linux") else "spawn"), proc.stderr
    monkeypatch.setitem(sys.modules, "PySide6", type(sys)("PySide6"))
    assert chunks.worker_start_method() == "spawn"


@pytest.mark.slow
def test_dask_tasks_send_every_deal_once_and_shrink_at_the_end():
    """Chunks go out as tasks of PIECE deals; once the last chunk is out the tasks shrink to single deals (no
    worker waits long for another's last task), every deal is sent once, and each chunk comes back whole."""
    distributed = pytest.importorskip("distributed")
    rng = random.Random(3)
    masks = deal_masks([ending(rng, 3) for _ in range(45)])
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    sizes: list[int] = []
    try:
        solver = chunks.DaskSolver(address=cluster.scheduler_address)
        submit = solver.client.submit

        def counted(fn, piece, *args, **kwargs):
            sizes.append(len(piece))
            return submit(fn, piece, *args, **kwargs)

        solver.client.submit = counted
        got = dict(solver.run(iter([(0, masks[:20]), (1, masks[20:33]), (2, masks[33:])])))
        solver.close()
    finally:
        cluster.close()
    assert sorted(got) == [0, 1, 2] and [len(got[k]) for k in range(3)] == [20, 13, 12]
    assert np.concatenate([got[0], got[1], got[2]]).tolist() == solve_masks(masks).tolist()
    assert sum(sizes) == 45  # each deal once
    assert sizes[0] == chunks.PIECE and sizes[-1] == 1 and max(sizes[-4:]) < chunks.PIECE


@pytest.mark.parametrize("size", [1, 3, 200])
@pytest.mark.slow
def test_chunk_sizes_give_the_same_bytes(tmp_path, plain, size):
    src, outs = plain
    for ext in ("pbn", "zdd"):
        out = tmp_path / f"c.{ext}"
        assert solve_cli(src, out, "--chunk", size) == 0
        assert out.read_bytes() == outs[ext]


@pytest.mark.slow
def test_streamed_and_board_paths_agree(tmp_path, monkeypatch):
    """A record file solved into a record format is streamed; the per-board path writes the same bytes."""
    src = tmp_path / "in.deals"
    write_set(src, 5, full=3)
    streamed, boards = tmp_path / "s.zdd", tmp_path / "b.zdd"
    assert solve_cli(src, streamed) == 0
    monkeypatch.setattr(solve_cmd, "_can_stream", lambda doc, codec: False)
    assert solve_cli(src, boards) == 0
    assert streamed.read_bytes() == boards.read_bytes()
    solved = registry.read_file(streamed)
    assert solved[0].dd is not None and solved[0].dd.is_complete
    assert solved[3].dd is None or solved[3].dd.is_empty  # the uneven ending stays unsolved


class StopAfter:
    """A solver that solves ``n`` chunks and then behaves as if Ctrl+C was pressed."""

    name = "test"

    def __init__(self, n: int) -> None:
        self.n = n

    def run(self, work):
        for k, (number, masks) in enumerate(work):
            if k == self.n:
                raise KeyboardInterrupt
            yield number, solve_masks(masks)

    def close(self) -> None:
        pass


@pytest.mark.slow
def test_ctrl_c_then_resume(tmp_path, plain, monkeypatch, capsys):
    src, outs = plain
    out = tmp_path / "r.pbn"
    monkeypatch.setattr(solve_cmd, "_solver", lambda args, *_: StopAfter(2))
    assert solve_cli(src, out, "--chunk", 3) == 130
    err = capsys.readouterr().err
    assert "--resume" in err and "2 chunks solved" in err
    assert not out.exists()
    assert Journal(out).done() == {0, 1}
    # without --resume the journal is not thrown away
    monkeypatch.undo()
    assert solve_cli(src, out, "--chunk", 3) == 1
    assert "add --resume" in capsys.readouterr().err
    # --resume solves only the rest
    seen = []
    real = chunks.LocalSolver.solve

    def counting(self, number, masks):
        seen.append(len(masks))
        return real(self, number, masks)

    monkeypatch.setattr(chunks.LocalSolver, "solve", counting)
    assert solve_cli(src, out, "--chunk", 3, "--resume") == 0
    assert sum(seen) == 14 - 6
    assert out.read_bytes() == outs["pbn"]
    assert not Journal(out).exists()


def test_ctrl_c_before_the_first_chunk_is_done_leaves_no_journal(tmp_path, plain, monkeypatch, capsys):
    """Stopped before any chunk was recorded, a run in chunks said "0 chunks solved are kept" and left an empty
    journal that made the next run refuse to start without --resume: it is removed, and the run is "interrupted"."""
    src, outs = plain
    out = tmp_path / "r.pbn"
    monkeypatch.setattr(solve_cmd, "_solver", lambda args, *_: StopAfter(0))
    assert solve_cli(src, out, "--chunk", 3) == 130
    err = capsys.readouterr().err
    assert err.strip() == "bridgeview: interrupted"
    assert not out.exists() and not Journal(out).folder.exists()
    monkeypatch.undo()
    assert solve_cli(src, out, "--chunk", 3) == 0
    assert out.read_bytes() == outs["pbn"]


def test_a_full_disk_keeps_the_chunks_recorded_for_resume(tmp_path, plain, monkeypatch, capsys):
    """The journal's disk filling up half way ended the run with the system's words alone ("No space left on
    device", no file named) and left a part file in the journal. Now the run names the journal and keeps the chunks
    it recorded, as Ctrl+C does, and --resume goes on from them to the plain run's bytes."""
    import errno

    src, outs = plain
    out = tmp_path / "r.pbn"
    real_fsync, calls = os.fsync, []

    def fsync_filling_up(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 3:  # (the third chunk's)
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(chunks.os, "fsync", fsync_filling_up)
    assert solve_cli(src, out, "--chunk", 3) == 1
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1  # (a long line may be shortened in the middle to the terminal's width)
    assert err.startswith("bridgeview: ") and ".solving: cannot record a solved chunk: No space left on device; " in err
    assert "; 2 chunks solved are kept in " in err and err.endswith(" - run the same command with --resume to go on\n")
    assert sorted(p.name for p in Journal(out).folder.iterdir()) == [
        "chunk-00000000.npz",
        "chunk-00000001.npz",
        "meta.json",
    ]
    assert not out.exists()
    assert solve_cli(src, out, "--chunk", 3, "--resume") == 0
    assert out.read_bytes() == outs["pbn"]


def test_ctrl_c_while_a_chunk_is_recorded_leaves_no_part_file(tmp_path, plain, monkeypatch, capsys):
    src, _ = plain
    out = tmp_path / "r.pbn"
    real_fsync, calls = os.fsync, []

    def pressed_on_the_second(fd: int) -> None:
        calls.append(fd)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real_fsync(fd)

    monkeypatch.setattr(chunks.os, "fsync", pressed_on_the_second)
    assert solve_cli(src, out, "--chunk", 3) == 130
    monkeypatch.undo()
    assert "1 chunk solved is kept" in capsys.readouterr().err
    assert sorted(p.name for p in Journal(out).folder.iterdir()) == ["chunk-00000000.npz", "meta.json"]


def test_an_output_that_cannot_be_written_says_the_journal_is_kept(tmp_path, plain, monkeypatch, capsys):
    """Every chunk solved, OUT could not be written (a full disk): the journal was kept without a word, and the
    same command then refused to start ("add --resume"). The message says what is kept and how to go on."""
    src, outs = plain
    out = tmp_path / "r.pbn"

    def full_disk(*_args, **_kw):
        raise FormatError("No space left on device", path=str(out))

    monkeypatch.setattr(solve_cmd, "_write_boards", full_disk)
    assert solve_cli(src, out, "--chunk", 3) == 1
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1  # (a long line may be shortened in the middle to the terminal's width)
    assert err.startswith("bridgeview: ") and ": No space left on device; 5 chunks solved are kept in " in err
    assert err.endswith(" - run the same command with --resume to go on\n")
    assert solve_cli(src, out, "--chunk", 3, "--resume") == 0
    assert out.read_bytes() == outs["pbn"]


def test_ctrl_c_while_the_output_is_written_says_the_journal_is_kept(tmp_path, plain, monkeypatch, capsys):
    """Stopped while OUT was being written, the run said only "interrupted" and kept its journal, so the same
    command then refused to start; it says what is kept, as when stopped while solving."""
    src, outs = plain
    out = tmp_path / "r.pbn"

    def pressed(*_args, **_kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_cmd, "_write_boards", pressed)
    assert solve_cli(src, out, "--chunk", 3) == 130
    monkeypatch.undo()
    err = capsys.readouterr().err
    assert err.startswith("bridgeview: stopped; 5 chunks solved are kept in ") and "--resume" in err
    assert solve_cli(src, out, "--chunk", 3, "--resume") == 0
    assert out.read_bytes() == outs["pbn"]


@pytest.mark.slow
def test_resume_refuses_another_run(tmp_path, plain, monkeypatch, capsys):
    src, _ = plain
    out = tmp_path / "r.zdd"
    monkeypatch.setattr(solve_cmd, "_solver", lambda args, *_: StopAfter(1))
    assert solve_cli(src, out, "--chunk", 4) == 130
    monkeypatch.undo()
    capsys.readouterr()
    assert solve_cli(src, out, "--chunk", 5, "--resume") == 1
    assert "chunk differs" in capsys.readouterr().err
    write_set(src, 15)  # the input changed
    assert solve_cli(src, out, "--chunk", 4, "--resume") == 1
    assert "belongs to another run" in capsys.readouterr().err


def test_a_run_of_one_chunk_keeps_no_journal(tmp_path, plain, monkeypatch, capsys):
    """A run of one chunk (up to 200 deals by default: a session) is solved at once, without a journal, which
    could hold nothing (a chunk is recorded once it is done): stopped, it leaves no OUT.solving behind, and the
    next run needs no --resume (it refused to start, "holds 0 solved chunks of an interrupted run")."""
    from bridgeview.solve import timed

    src, outs = plain
    out = tmp_path / "one.pbn"

    def pressed(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(timed, "solve_within", pressed)
    assert solve_cli(src, out) == 130
    err = capsys.readouterr().err
    assert "bridgeview: interrupted" in err and "--resume" not in err
    assert not out.exists() and not Journal(out).folder.exists()
    monkeypatch.undo()
    assert solve_cli(src, out) == 0
    assert out.read_bytes() == outs["pbn"]  # (the same bytes as a run in chunks: test_ctrl_c_then_resume)


@pytest.mark.parametrize("chunk", [[], ["--chunk", "5"]], ids=["at once", "in chunks"])
def test_output_into_a_missing_folder_fails_before_solving(tmp_path, plain, monkeypatch, capsys, chunk):
    """OUT in a folder that does not exist: one line before any deal is solved, on both paths (solved at once,
    the run solved every deal and then failed to write; in chunks the journal made the folder)."""
    from bridgeview.solve import timed

    src, _ = plain
    out = tmp_path / "missing" / "out.pbn"

    def solving(*args, **kwargs):
        raise AssertionError("solved before the output was checked")

    monkeypatch.setattr(timed, "solve_within", solving)
    assert solve_cli(src, out, *chunk) == 1
    assert capsys.readouterr().err.strip() == f"bridgeview: {out}: No such file or directory"
    assert not (tmp_path / "missing").exists()


@pytest.mark.slow
def test_kill_9_then_resume(tmp_path, plain):
    """kill -9 in the middle of a run; --resume finishes it with the bytes of an uninterrupted run."""
    src, outs = plain
    out = tmp_path / "k.zdd"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    cmd = [sys.executable, "-m", "bridgeview", "solve", str(src), str(out), "--chunk", "1"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    journal = Journal(out)
    deadline = time.monotonic() + 120
    try:
        while len(journal.done()) < 2 and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    if proc.returncode == 0:
        pytest.skip("the run finished before it could be killed")
    assert not out.exists() and journal.exists()
    assert len(journal.done()) >= 2  # killed once chunks were journalled, before OUT was written
    assert solve_cli(src, out, "--resume") == 1  # a different --chunk is another run
    assert solve_cli(src, out, "--chunk", 1, "--resume") == 0
    assert out.read_bytes() == outs["zdd"]


@pytest.mark.slow
def test_bad_options(tmp_path, plain, capsys):
    src, _ = plain
    assert solve_cli(src, tmp_path / "o.zdd", "--chunk", 0) == 1
    assert "--chunk must be at least 1" in capsys.readouterr().err
    assert solve_cli(src, tmp_path / "o.zdd", "--workers", 0) == 1
    with pytest.raises(SystemExit) as exc:
        solve_cli(src, tmp_path / "o.zdd", "--workers", 2, "--cluster", "tcp://127.0.0.1:1")
    assert exc.value.code == 2


@pytest.mark.slow
def test_unreachable_cluster(tmp_path, plain, capsys):
    pytest.importorskip("distributed")
    src, _ = plain
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    assert solve_cli(src, tmp_path / "o.zdd", "--cluster", f"tcp://127.0.0.1:{port}") == 1
    err = capsys.readouterr().err
    assert "Dask scheduler" in err and "Traceback" not in err


# -- Dask ------------------------------------------------------------------------------
@pytest.mark.slow
def test_local_cluster(tmp_path, plain):
    pytest.importorskip("distributed")
    src, outs = plain
    for ext in ("zdd", "pbn"):
        out = tmp_path / f"d.{ext}"
        assert solve_cli(src, out, "--workers", 2, "--chunk", 2) == 0
        assert out.read_bytes() == outs[ext]


#: ``bridgeview solve`` as a terminal starts it (Ctrl+C's default handler: a suite run in the background ignores it)
_AS_FROM_A_TERMINAL = (
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from bridgeview.__main__ import main; sys.argv[0] = 'bridgeview'; sys.exit(main())"
)


@pytest.mark.slow
def test_ctrl_c_on_a_local_cluster_is_the_commands_alone(tmp_path):
    """Ctrl+C on a terminal reaches the whole process group: every Dask nanny and worker of ``--workers 2``
    printed a KeyboardInterrupt traceback, and each busy worker a warning of its cancelled task, after the
    command's own line.  Now the command alone takes the press: it closes the cluster, says what it kept, and no
    process of the group is left."""
    pytest.importorskip("distributed")
    src = tmp_path / "in.pbn"
    write_set(src, 40, full=40)
    out = tmp_path / "out.pbn"
    command = [sys.executable, "-c", _AS_FROM_A_TERMINAL, "solve", str(src), str(out), "--workers", "2", "--chunk", "2"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while len(Journal(out).done()) < 1 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert proc.poll() is None, "the run ended before it could be stopped"
        time.sleep(0.3)  # the workers busy on the next pieces
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl+C
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    text = err.decode()
    assert proc.returncode == 130, text
    lines = text.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bridgeview: stopped; ") and "--resume" in lines[0], text
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:  # the nannies and workers end with the cluster
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        left = subprocess.run(["ps", "-o", "pid,stat,args", "-g", str(proc.pid)], capture_output=True, text=True)
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail(f"processes of the run were left behind:\n{left.stdout}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _dask(*args: str, env) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_" + args[0], *args[1:]],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )


@pytest.fixture
def scheduler_and_workers(tmp_path):
    """A Dask scheduler and two workers started as separate processes on 127.0.0.1."""
    distributed = pytest.importorskip("distributed")
    env = {**os.environ, "PYTHONPATH": str(REPO), "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [_dask("scheduler", "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", ":0", env=env)]
    try:
        for _ in range(2):
            procs.append(
                _dask(
                    "worker",
                    address,
                    "--nworkers",
                    "1",
                    "--nthreads",
                    "1",
                    "--host",
                    "127.0.0.1",
                    "--no-dashboard",
                    env=env,
                )
            )
        with distributed.Client(address, timeout="60s") as client:
            client.wait_for_workers(2, timeout=120)
        yield address, procs
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()


@pytest.mark.slow
def test_external_cluster_with_a_worker_killed(tmp_path, scheduler_and_workers):
    """Chunks of a worker killed mid-run are redone by Dask; the output is complete and identical."""
    address, procs = scheduler_and_workers
    src = tmp_path / "in.pbn"
    write_set(src, 24, full=5)
    plain = tmp_path / "plain.pbn"
    assert solve_cli(src, plain, "--chunk", 1) == 0
    out = tmp_path / "cluster.pbn"
    journal = Journal(out)
    killer_done = []

    def kill_when_started():
        deadline = time.monotonic() + 120
        while len(journal.done()) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
        os.killpg(procs[1].pid, signal.SIGKILL)
        killer_done.append(True)

    import threading

    t = threading.Thread(target=kill_when_started, daemon=True)
    t.start()
    assert solve_cli(src, out, "--cluster", address, "--chunk", 1) == 0
    t.join(5)
    assert killer_done
    assert out.read_bytes() == plain.read_bytes()
    tables = registry.read_file(out)
    assert all(b.dd is not None for i, b in enumerate(tables) if i != 3)


def test_journal_chunk_whole_or_absent(tmp_path):
    j = Journal(tmp_path / "x.zrd")
    assert j.start({"input_size": 1}, resume=False) == set()
    j.record(0, np.zeros((2, 4, 5), np.uint8), "abc")
    assert j.done() == {0}
    (j.folder / ".chunk-00000001.part").write_bytes(b"half")  # a write killed half-way is not a chunk
    assert j.done() == {0}
    tables, digest = j.load(0)
    assert tables.shape == (2, 4, 5) and digest == "abc"


# -- the GUI ---------------------------------------------------------------------------
@pytest.mark.slow
def test_gui_solves_on_a_cluster(qtbot, tmp_path, monkeypatch, messages):
    """Analysis › Solve all boards on a Dask cluster…: tables arrive and are shown; the address is remembered."""
    distributed = pytest.importorskip("distributed")
    from bridgeview.ui import dialogs
    from bridgeview.ui.analysis import solver as solver_module
    from bridgeview.ui.analysis.cluster_solve import cluster_address
    from bridgeview.ui.mainwindow import MainWindow

    monkeypatch.setattr(solver_module, "AUTO_SOLVE_LIMIT", 0)  # a "large" set: nothing solved by itself
    src = tmp_path / "set.pbn"
    write_set(src, 9, full=1)
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.open_file(str(src))
    view = win.current_view()
    texts = [a.text() for a in win.solver_actions()]
    assert "Solve all boards on a Dask cluster…" in texts
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0")
    try:
        monkeypatch.setattr(dialogs, "get_text", lambda *a, **k: cluster.scheduler_address)
        job = view.solver.solve_on_cluster()
        assert job is not None
        with qtbot.waitSignal(job.done, timeout=120_000):
            pass
    finally:
        cluster.close()
    assert cluster_address() == cluster.scheduler_address
    expect = solve_masks(deal_masks(b.deal for b in registry.read_file(src)))
    assert not view.is_modified()  # solved for display, like tables solved here (issue 25)
    for i in range(9):
        board = view.shown_board(view.model.board(i))
        if i == 3:
            assert board.dd is None  # the uneven ending
        else:
            assert [list(r) for r in board.dd.tricks] == expect[i].tolist()


def window_noting_cluster_failures(qtbot, tmp_path, monkeypatch):
    """A window on a small set that solves nothing by itself, and the list its cluster job's failures go to.

    What the job reports is seen from before it starts: a refused connection can fail faster than a
    waitSignal set up after solve_on_cluster returns would connect."""
    from bridgeview.ui.analysis import solver as solver_module
    from bridgeview.ui.mainwindow import MainWindow

    monkeypatch.setattr(solver_module, "AUTO_SOLVE_LIMIT", 0)
    src = tmp_path / "set.pbn"
    write_set(src, 5, full=0)
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.open_file(str(src))
    view = win.current_view()
    from PySide6.QtCore import QObject, Slot

    class Noted(QObject):
        """The failures, noted by an object of the GUI thread: the job's signal comes queued from its
        thread (a plain function would run in that thread and touch the window from there)."""

        def __init__(self) -> None:
            super().__init__(view)
            self.texts: list[str] = []
            self.shown = view.solver.show_failure

        @Slot(str)
        def note(self, text: str) -> None:
            self.texts.append(text)
            self.shown(text)

    noted = Noted()
    monkeypatch.setattr(view.solver, "show_failure", noted.note)
    return win, view, noted.texts


@pytest.mark.slow
def test_gui_cluster_failure_is_one_line(qtbot, tmp_path, monkeypatch, messages):
    pytest.importorskip("distributed")
    _win, view, failures = window_noting_cluster_failures(qtbot, tmp_path, monkeypatch)
    job = view.solver.solve_on_cluster(f"tcp://127.0.0.1:{_free_port()}")
    assert job is not None
    qtbot.waitUntil(lambda: view.solver.cluster_job is None, timeout=90_000)
    assert len(failures) == 1, failures
    assert failures[0].startswith("Solving on the cluster at tcp://127.0.0.1:")


@pytest.mark.slow
def test_a_finished_cluster_job_is_deleted_only_once_its_thread_has_ended(tmp_path):
    """The job says it is done from inside its thread, which then still has to return: deleting the job
    on that signal destroyed a running QThread (Qt aborts the whole app) whenever the window got there
    first.  A job that lingers after saying so must not bring the app down."""
    src = tmp_path / "set.pbn"
    write_set(src, 3, full=0)
    script = f"""
import sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from bridgeview.formats.registry import read_file
from bridgeview.model.boardset import BoardSet
from bridgeview.ui.analysis import cluster_solve
from bridgeview.ui.boardset.view import DocumentView
from bridgeview.ui.analysis import solver as solver_module

solver_module.AUTO_SOLVE_LIMIT = 0

def run(self):
    self.done.emit(False)
    time.sleep(1.0)  # the thread is still running after it said it is done

cluster_solve.ClusterSolveJob.run = run
app = QApplication([])
view = DocumentView(read_file({str(src)!r}), None)
job = view.solver.solve_on_cluster("tcp://127.0.0.1:1")
deleted = []
job.destroyed.connect(lambda *_: (deleted.append(True), QTimer.singleShot(0, app.quit)))
QTimer.singleShot(60_000, app.quit)  # never reached unless the job is never deleted
app.exec()
print("deleted" if deleted and view.solver.cluster_job is None else "kept")
"""
    env = {**os.environ, "PYTHONPATH": str(REPO), "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "deleted"
