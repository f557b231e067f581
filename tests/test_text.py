"""The shared wording helpers of bridgeview/model/text.py."""

from __future__ import annotations

import re

from conftest import REPO

from bridgeview.model.text import plural


def test_plural_counts_like_people_do() -> None:
    assert plural(1, "board") == "1 board"
    assert [plural(n, "board") for n in (0, 2)] == ["0 boards", "2 boards"]
    assert plural(12_000, "board", ",") == "12,000 boards"
    assert plural(1, "trailing byte") == "1 trailing byte"


def test_no_layer_below_the_ui_spells_plurals_itself() -> None:
    """One rule for "s" after a count: a module writing its own drifts (``1 boards``, ``2 board``)."""
    own = re.compile(r"""['"]s['"] if .+ != 1|def _?plural\(""")
    found = [f"{path.relative_to(REPO)}:{n}" for path in sorted((REPO / "bridgeview").rglob("*.py"))
             if "ui" not in path.relative_to(REPO / "bridgeview").parts[:1] and path.name != "text.py"
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if own.search(line)]
    assert not found, found
