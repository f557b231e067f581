"""One theme: every colour and the font family of the UI come from bridgeview/ui/theme.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import REPO

UI = REPO / "bridgeview" / "ui"
#: a colour written as text: "#c8102e", "#666", or a named colour given to QColor
HEX = re.compile(r"#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?(?![0-9a-zA-Z_])")


def own_colours(source: str) -> list[str]:
    """The colours and font families ``source`` writes itself instead of taking them from the theme."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if HEX.search(node.value):
                found.append(f"line {node.lineno}: {HEX.search(node.value).group()}")  # type: ignore[union-attr]
            if "DejaVu Sans" in node.value:
                found.append(f"line {node.lineno}: the font family")
        elif isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
            if name == "QColor" and any(isinstance(a, ast.Constant) for a in node.args):
                found.append(f"line {node.lineno}: QColor({', '.join(ast.unparse(a) for a in node.args)})")
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "GlobalColor"
        ):
            found.append(f"line {node.lineno}: Qt.GlobalColor.{node.attr}")
    return found


@pytest.mark.parametrize(
    "path",
    sorted(p for p in UI.rglob("*.py") if p != UI / "theme.py"),  # the feature packages' modules too
    ids=lambda p: str(p.relative_to(UI)),
)
def test_no_ui_module_but_the_theme_writes_a_colour(path: Path) -> None:
    found = own_colours(path.read_text(encoding="utf-8"))
    where = path.relative_to(UI)
    assert not found, f"bridgeview/ui/{where} defines colours of its own (put them in ui/theme.py): {found}"


def test_the_check_sees_every_way_of_writing_a_colour() -> None:
    """Else the test above could never fail."""
    for line in (
        'RED = QColor("#c8102e")',
        "x = QColor(0, 0, 0, 60)",
        'style = "color: #666;"',
        "html = f\"<p style='color:#b3261e'>{x}</p>\"",
        'f = QFont("DejaVu Sans")',
        "c = Qt.GlobalColor.red",
        'w = QColor("white")',
    ):
        assert own_colours(line), line
    for line in ("RED = theme.RED", "c = with_alpha(RED, 40)", 'text = "board #12"', 'doc = "#: a comment-like"'):
        assert not own_colours(line), line


def test_the_theme_is_what_the_views_paint_with(qtbot) -> None:
    """Red is one red: the diagram, the DD grid, the auction and the printed records share the theme's."""
    from bridgeview.model.cards import Strain, Suit
    from bridgeview.ui import theme
    from bridgeview.ui.diagram import ddgrid
    from bridgeview.ui.diagram.hand_diagram import HandDiagram
    from bridgeview.ui.replay import auction_view

    diagram = HandDiagram()
    qtbot.addWidget(diagram)
    assert diagram.suit_colour(Suit.HEARTS) == theme.RED == auction_view.RED == ddgrid.SUIT_FG[Strain.HEARTS]
    assert diagram.suit_colour(Suit.CLUBS) == theme.INK
    diagram.set_four_colour(True)
    assert (diagram.suit_colour(Suit.DIAMONDS), diagram.suit_colour(Suit.CLUBS)) == (theme.ORANGE, theme.GREEN)
    assert diagram.suit_colour(Suit.SPADES) == theme.INK  # spades stay black in both schemes
    assert theme.with_alpha(theme.RED, 36).getRgb() == (200, 16, 46, 36)
    assert ddgrid.contracts_html("4H", True).count(theme.RED.name()) == 1
    assert theme.RED.name() in ddgrid.contracts_html("4D") and theme.ORANGE.name() in ddgrid.contracts_html("4D", True)
