"""Huge fixed-record files are validated with numpy, finding what the board-by-board pass finds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridgeview.check import validate as validate_module
from bridgeview.check.validate import validate
from bridgeview.cli.main import main
from bridgeview.formats import registry
from bridgeview.formats.bulk import masks_to_owners, owners_to_masks


def random_masks(n: int, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    perm = np.argsort(rng.random((n, 52)), axis=1)
    owners = np.empty((n, 52), np.uint8)
    np.put_along_axis(owners, perm, np.repeat((np.arange(52) // 13).astype(np.uint8)[None, :], n, 0), axis=1)
    return owners_to_masks(owners)


def test_masks_owners_round_trip():
    masks = random_masks(500)
    assert (owners_to_masks(masks_to_owners(masks)) == masks).all()


def test_bulk_and_board_by_board_validation_agree(tmp_path, monkeypatch, capsys):
    masks = random_masks(3000)
    masks[2500] = masks[17]  # a duplicate deal
    north = int(masks[100, 0])
    moved = north & -north  # N's lowest card goes to E: N 12, E 14 cards
    masks[100, 0] = north ^ moved
    masks[100, 1] = int(masks[100, 1]) | moved
    path = tmp_path / "big.deals"
    masks.astype("<u8").tofile(path)

    monkeypatch.setattr(validate_module, "BULK_THRESHOLD", 1000)
    bulk = [str(p) for p in validate(registry.read_file(path))]
    monkeypatch.setattr(validate_module, "BULK_THRESHOLD", 10**9)
    slow = [str(p) for p in validate(registry.read_file(path))]
    assert bulk == slow
    assert "record 2501 (offset 80000), board 2501: same deal as board 18" in bulk
    assert any(p.startswith("record 101 (offset 3200), board 101: N holds 12 cards") for p in bulk)

    monkeypatch.setattr(validate_module, "BULK_THRESHOLD", 1000)
    assert main(["validate", str(path)]) == 1
    assert "board 2501: same deal as board 18" in capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["deals", "zrd", "ber"])
def test_a_truncated_copy_is_still_validated_in_bulk(tmp_path, monkeypatch, fmt):
    """The cut-off tail is a reader problem; it must not send a huge file down the board-by-board pass."""
    masks = random_masks(1200)
    masks[1100] = masks[5]
    src = tmp_path / "big.deals"
    masks.astype("<u8").tofile(src)
    path = tmp_path / f"cut.{fmt}"
    if fmt != "deals":
        registry.write_file(registry.read_file(src), path, fmt)
    else:
        path.write_bytes(src.read_bytes())
    path.write_bytes(path.read_bytes()[:-7])
    monkeypatch.setattr(validate_module, "BULK_THRESHOLD", 1000)
    doc = registry.read_file(path)
    assert len(doc) == 1199 and validate_module._can_check_in_bulk(doc)
    bulk = [str(p) for p in validate(doc)]
    assert "ends inside record 1200" in bulk[0]
    assert any(p.endswith("board 1101: same deal as board 6") for p in bulk)
    monkeypatch.setattr(validate_module, "BULK_THRESHOLD", 10**9)
    assert bulk == [str(p) for p in validate(registry.read_file(path))]


# -- the vectorised conversion path against the board-by-board one, every pair of bulk codecs --------
BULK_CODECS = sorted(c.name for c in registry.all_codecs() if c.bulk and c.can_write and c.caps.full_deals)


def _bulk_boards(seed: int, n: int, with_dd: bool):
    import random

    from bridgeview.model import Board, BoardSet, DDTable, Deal

    rng = random.Random(seed)
    boards = BoardSet()
    for number in range(1, n + 1):
        cards = list(range(52))
        rng.shuffle(cards)
        owners = [0] * 52
        for i, c in enumerate(cards):
            owners[c] = i // 13
        board = Board.numbered(number, Deal.from_owners(owners))
        if with_dd:
            rows = [[rng.choice([rng.randint(0, 13), None]) for _ in range(5)] for _ in range(4)]
            rows[0][4] = rng.randint(1, 13)  # an all-zero notrump row would end a ZDD list
            board.dd = DDTable.from_rows(rows)
        boards.append(board)
    return boards


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.sampled_from(BULK_CODECS), st.sampled_from(BULK_CODECS), st.integers(0, 2**32), st.integers(1, 40), st.booleans()
)
def test_bulk_conversion_equals_board_by_board(tmp_path, src, dst, seed, n, with_dd):
    """Whatever pair of fixed-record formats, the numpy path writes the bytes the per-board path writes."""
    from bridgeview.formats.convert import convert_file, write_document

    boards = _bulk_boards(seed, n, with_dd)
    source = tmp_path / f"in.{registry.get(src).extensions[0]}"
    if registry.get(src).check(boards).errors:
        return
    registry.write_file(boards, source, src)
    fast, slow = tmp_path / "fast.out", tmp_path / "slow.out"
    for path in (fast, slow):
        path.unlink(missing_ok=True)
    try:
        fast_result = convert_file(source, fast, from_fmt=src, to_fmt=dst)
    except registry.FormatError as e:
        with pytest.raises(registry.FormatError) as slow_error:
            doc = registry.read_file(source, src)
            doc[0] = doc[0]  # an edit: the set no longer takes the bulk path
            write_document(doc, slow, registry.get(dst))
        assert "board" in str(e) and "board" in str(slow_error.value)
        assert not fast.exists() and not slow.exists()
        return
    doc = registry.read_file(source, src)
    doc[0] = doc[0]
    slow_result = write_document(doc, slow, registry.get(dst))
    assert fast.read_bytes() == slow.read_bytes(), (src, dst)
    assert sorted(fast_result.losses) == sorted(slow_result.losses), (src, dst)
