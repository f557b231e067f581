"""Fuzzing the surfaces beyond the readers: the dealing desk (``check``, ``diff``, ``print``), the
Editor's entry points, the lazy PBN and LIN readers against the whole-file ones, and ``solve
--resume`` after kill -9 at random moments.

A short campaign (``BRIDGEVIEW_FUZZ_EXAMPLES``, default 20 a test, raises it); the long run is
``bench/bench_fuzz_surfaces.py`` with its counts in ``docs/bench-fuzz.md``.  The random sets, typed
entries and kill moments come from ``tests/fuzzkit.py``, shared with that run: hypothesis draws
the seed of a ``random.Random`` here (so a failure names its seed), the bench counts them up.
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import fuzzkit
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reader_errors import internal_errors
from test_fuzz_readers import damaged, seeds

from bridgeview.cli.main import main
from bridgeview.formats.registry import write_file
from bridgeview.model.board import board_key
from bridgeview.model.cards import Seat

EXAMPLES = int(os.environ.get("BRIDGEVIEW_FUZZ_EXAMPLES", "20"))
SEEDS = st.integers(0, 2**32 - 1)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


# -- the dealing desk ---------------------------------------------------------------------------
@FUZZ
@given(seed=SEEDS)
def test_check_and_compare_take_any_set(seed: int) -> None:
    rng = random.Random(seed)
    fuzzkit.desk_holds(fuzzkit.desk_set(rng), fuzzkit.desk_set(rng))


@FUZZ
@given(seed=SEEDS)
def test_check_diff_and_print_commands_take_any_set(qapp, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="bv-desk-") as tmp:
        a, b = Path(tmp) / "a.pbn", Path(tmp) / "b.pbn"
        write_file(fuzzkit.desk_set(rng), a, "pbn")
        write_file(fuzzkit.desk_set(rng), b, "pbn")
        pdf = Path(tmp) / "records.pdf" if seed % 4 == 0 else None  # a PDF costs more: a quarter of the sets
        fuzzkit.desk_commands_hold(a, b, pdf)


# -- the Editor's entry points ---------------------------------------------------------------------
@FUZZ
@given(seed=SEEDS)
def test_the_editing_model_takes_any_typing(seed: int) -> None:
    fuzzkit.editing_holds(random.Random(seed))


def test_the_editor_takes_any_typing(qtbot, tmp_path: Path, messages) -> None:
    """Typed hands, calls, cards, claims, tags and renumbering in the Editor dock, in any order: no
    exception, every board still reads, and undoing everything gives back the file's boards."""
    from test_ui_support import main_window

    from bridgeview.resources import resource
    from bridgeview.ui.editor import board_ops

    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(resource("sample.pbn")))
    view = w.current_view()
    w.editor.show_panel()
    panel = w.editor.panel
    original = [board_key(b) for b in view.boards]

    @settings(
        max_examples=max(5, EXAMPLES // 2),
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
    @given(seed=SEEDS)
    def typing(seed: int) -> None:
        rng = random.Random(seed)
        for _ in range(rng.randint(1, 25)):
            what = rng.choice(("hand", "deal", "call", "card", "claim", "tag", "renumber", "board"))
            if what == "hand":
                panel.hand_edits[rng.randrange(4)].setText(fuzzkit.typed(rng))
            elif what == "deal":
                panel.apply_deal()
            elif what == "call":
                panel.call_entry.setText(fuzzkit.typed(rng))
                panel.call_typed()
            elif what == "card":
                panel.play_entry.setText(fuzzkit.typed(rng))
                panel.play_typed()
            elif what == "claim":
                panel.apply_claim(rng.randint(-2, 15))
            elif what == "tag":
                name = rng.choice(list(panel.tag_edits))
                panel.tag_edits[name].setText(fuzzkit.typed(rng))
                panel.apply_tag(name)
            elif what == "renumber":
                board_ops.renumber(view, rng.randint(1, 999_999), rederive=rng.random() < 0.5)
            else:
                view.select_board(rng.randrange(len(view.boards)))
            board = view.current_board()
            assert board is not None and not internal_errors(board.problems())
            for label in (panel.deal_status, panel.contract_label, panel.play_status, panel.tag_status):
                assert not internal_errors([label.text()]), label.text()
        view.undo_stack.setIndex(0)
        assert [board_key(b) for b in view.boards] == original
        view.undo_stack.clear()

    typing()


# -- lazy readers against the whole-file ones ---------------------------------------------------------
@pytest.mark.parametrize("name", ["pbn", "lin"])
def test_damaged_text_reads_lazily_as_whole(name: str) -> None:
    if not seeds(name):
        pytest.skip(f"no seed for {name}")

    @FUZZ
    @given(damaged(name))
    def same(sample: tuple[bytes, str]) -> None:
        with tempfile.TemporaryDirectory(prefix="bv-lazy-") as tmp:
            path = Path(tmp) / f"damaged.{name}"
            path.write_bytes(sample[0])
            fuzzkit.lazy_reads_as_whole(path, name)

    same()


# -- solve --resume after kill -9 ---------------------------------------------------------------
def test_solve_resumed_after_kills_at_random_moments_writes_the_same_bytes(tmp_path: Path) -> None:
    """Two kill -9 at random moments of a run (before, during and after chunks are journalled; maybe
    while OUT is written), each followed by --resume: OUT is the uninterrupted run's, byte for byte.
    The long variant (hundreds of kills) is ``bench/bench_fuzz_surfaces.py --resume-runs N``."""
    from test_solve_cluster import write_set

    src = tmp_path / "in.pbn"
    write_set(src, 8)
    plain = tmp_path / "plain.zdd"
    assert main(["solve", str(src), str(plain), "--chunk", "1"]) == 0
    out = tmp_path / "killed.zdd"
    story = fuzzkit.kill_and_resume(src, out, random.Random(3), kills=2, span=4.0)
    assert out.read_bytes() == plain.read_bytes(), story


def test_desk_boards_hold_what_they_say() -> None:
    """The generator itself: numbers, deals and seats of the kinds the campaign is for."""
    rng = random.Random(5)
    sets = [fuzzkit.desk_set(rng) for _ in range(60)]
    numbers = {b.number for s in sets for b in s}
    assert {None, 0, 999_999_999, 100_000_000} <= numbers
    deals = [b.deal for s in sets for b in s]
    assert any(d.is_empty for d in deals) and any(d.is_complete for d in deals)
    assert any(not d.is_complete and d.card_count for d in deals)
    assert all(isinstance(b.dealer, Seat | None) for s in sets for b in s)
