"""The shared wording helpers of bridgeview/model/text.py."""

from __future__ import annotations

import re

from conftest import REPO

from bridgeview.model.text import plural

#: a plural written by hand: ``'s' if n != 1``, ``"s" if k > 1``, a home-made ``plural`` helper, or a
#: count followed by ``board(s)``
INLINE_PLURAL = re.compile(r"""['"]e?s['"]\s+if\b|def _?plural\(|\}\s+[a-z ]*[a-z]\(e?s\)""")


def test_plural_counts_like_people_do() -> None:
    assert plural(1, "board") == "1 board"
    assert [plural(n, "board") for n in (0, 2)] == ["0 boards", "2 boards"]
    assert plural(12_000, "board", ",") == "12,000 boards"
    assert plural(1, "trailing byte") == "1 trailing byte"


def test_no_module_spells_plurals_itself() -> None:
    """One rule for "s" after a count, in every layer (the UI too): a module writing its own drifts
    (``1 boards``, ``2 board``).  Catches ``'s' if n != 1``, ``"s" if k > 1`` and home-made helpers."""
    found = [
        f"{path.relative_to(REPO)}:{n}"
        for path in sorted((REPO / "bridgeview").rglob("*.py"))
        if path.relative_to(REPO / "bridgeview").as_posix() != "model/text.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if INLINE_PLURAL.search(line)
    ]
    assert not found, found


def test_the_plural_check_sees_the_inline_forms() -> None:
    """The pattern above matches what it is meant to catch (else the test could never fail)."""
    for line in (
        "f\"{n} board{'s' if n != 1 else ''}\"",
        'f"board{"s" if len(m) > 1 else ""}"',
        "def plural(n):",
        'f"{len(x)} board(s) could not be solved"',
        'f"{n} stored table(s) differ"',
    ):
        assert INLINE_PLURAL.search(line), line
    assert not INLINE_PLURAL.search("plural(n, 'board')")


def test_ui_counts_say_one_trick_and_one_board(qtbot) -> None:
    """Counts the user reads in the Details panel follow the shared rule."""
    from bridgeview.model.board import Board
    from bridgeview.model.boardset import BoardSet
    from bridgeview.ui.boardset.details import board_rows

    board = Board(number=1)
    board.result, board.claim = 1, 2
    rows = dict(board_rows(board, 0, BoardSet([board])))
    assert (rows["result"], rows["claim"]) == ("1 trick", "2 tricks")
