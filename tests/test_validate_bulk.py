"""Huge fixed-record files are validated with numpy, finding what the board-by-board pass finds."""

from __future__ import annotations

import numpy as np

from bridgeview.cli.main import main
from bridgeview.formats import registry
from bridgeview.formats.bulk import masks_to_owners, owners_to_masks
from bridgeview.model import validate as validate_module
from bridgeview.model.validate import validate


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
    assert "board 2501: same deal as board 18" in bulk
    assert any(p.startswith("board 101: N holds 12 cards") for p in bulk)

    monkeypatch.setattr(validate_module, "BULK_THRESHOLD", 1000)
    assert main(["validate", str(path)]) == 1
    assert "board 2501: same deal as board 18" in capsys.readouterr().out
