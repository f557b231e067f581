"""Every colour and the font family of the UI, in one place.

Widgets, the exported diagram, the printed hand records and the cribbage table
take their colours from here, so red is one red and a new colour is chosen
once (``tests/test_theme.py`` fails on a colour written anywhere else in
``bridgeview/ui``).  Hearts and diamonds are red; four-colour suits make
diamonds orange and clubs green.
"""

from __future__ import annotations

from PySide6.QtGui import QColor, QFontDatabase

from ..model.cards import Suit
from ..resources import resource

#: the bundled font (resources/fonts): the same suit symbols on every system
FONT_FAMILY = "DejaVu Sans"
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf")
_fonts_loaded = False


def load_fonts() -> None:
    """Register the bundled DejaVu fonts once, so suit symbols look the same everywhere."""
    global _fonts_loaded
    if _fonts_loaded:
        return
    for name in FONT_FILES:
        path = resource("fonts", name)
        if path.exists():
            QFontDatabase.addApplicationFont(str(path))
    _fonts_loaded = True


# -- suits and text ------------------------------------------------------------------
RED = QColor("#c8102e")  #: hearts and diamonds; problems and differences in lists
INK = QColor("#1b1b1b")  #: spades, clubs, text
ORANGE = QColor("#e07000")  #: diamonds in four colours
GREEN = QColor("#11803a")  #: clubs in four colours
BLUE = QColor("#1f5fbf")  #: the card the replay asks for
GREY = QColor("#b4b4b4")  #: cards already played
MUTED = QColor("#6b6b6b")  #: secondary text: notes, HCP
WHITE = QColor("white")
PALE_RED = QColor("#e9a3ad")  #: a red suit on a disabled call button
DIFF_RED = QColor("#b91c1c")  #: a stored DD table that differs from DDS
LABEL_GREY = QColor("#666")  #: the keys in the Details panel
UNKNOWN_GREY = QColor("#9a9a9a")  #: a DD cell with no result

# -- the diagram -------------------------------------------------------------------------
FELT = QColor("#2f6f4a")  #: the table
FELT_TEXT = QColor("#f4f1e6")  #: text on the table
PANEL = QColor("#fbfaf6")  #: a hand's panel (and the exported image's background)
PANEL_RULE = QColor("#dedbd0")  #: the line under a hand's header
VUL_RED = QColor("#d42a2a")  #: a vulnerable side
NONVUL = QColor("#f1efe6")  #: the board tray
TRAY_SIDE = QColor("#e3dfd0")  #: a non-vulnerable side of the tray
TRAY_EDGE = QColor("#8d887a")
TRAY_OUTLINE = QColor("#5d594f")
HILITE = QColor("#ffd34d")  #: the seat to play, the trick's winner, the stop of a replay
BADGE_BG = QColor("#e4e0d2")  #: a card's trick-count badge
MOVED_BG = QColor("#ffd98a")  #: behind a card held by another hand in the set compared with (Compare window)
CARD_EDGE = QColor("#9b978a")  #: a played card on the table
EXPORT_RULE = QColor("#d8d4c6")  #: the lines of the DD table in an exported image

# -- the DD grid --------------------------------------------------------------------------
MAKE_BG = QColor("#d9f0dc")  #: a contract that makes
MAKE_FG = QColor("#14532d")

# -- printed hand records (black on white paper) ----------------------------------------
PRINT_INK = QColor("#000000")
PRINT_GREY = QColor("#8a8a8a")

# -- the cribbage table --------------------------------------------------------------------
CRIB_PLAYERS = (QColor("#2f7de1"), QColor("#e0493a"))  #: player 0 and player 1
CRIB_BLACK = QColor("#1a1a1a")  #: spades and clubs
CRIB_HIGHLIGHT = QColor("#ffd23f")  #: the cards that score, the points, the winner
CRIB_FELT = (QColor("#24804f"), QColor("#11452b"))  #: centre and edge of the table
CRIB_DEALER_BG, CRIB_DEALER_FG = QColor("#f4e3b5"), QColor("#5a3d12")  #: the "dealer" badge
CRIB_POINTS_FG = QColor("#3a2a00")  #: the "+2" bubble's text
CRIB_WARNING_BG, CRIB_WARNING_FG = QColor("#fff1c2"), QColor("#8a2a00")  #: a problem in the record
CRIB_CARD_FACE = QColor("#fdfdf8")
CRIB_CARD_EDGE = QColor("#9a9a9a")
CRIB_BACK_EDGE = QColor("#f4f4f4")
CRIB_BACK = (QColor("#3557a8"), QColor("#1d356e"))  #: a card's back, top left to bottom right
CRIB_WOOD = (QColor("#dcae74"), QColor("#a56f3a"))  #: the cribbage board, top to bottom
CRIB_WOOD_EDGE = QColor("#6b4420")
CRIB_HOLE = QColor("#3b2410")
CRIB_SKUNK = QColor("#7a1d1d")  #: the skunk line
CRIB_BOARD_TEXT = QColor("#5a3d12")
CRIB_STEP_GREY = QColor("#777")  #: "Game 1, deal 2" in the breakdown
CRIB_PROBLEM = QColor("#b3261e")  #: a problem in the breakdown


def with_alpha(colour: QColor, alpha: int) -> QColor:
    """``colour`` seen through: a shadow, a tint, a groove in a player's colour."""
    out = QColor(colour)
    out.setAlpha(alpha)
    return out


def shadow(alpha: int) -> QColor:
    """Black at ``alpha``: the shadow under a card, a panel or the tray."""
    return with_alpha(QColor(0, 0, 0), alpha)


def veil(alpha: int) -> QColor:
    """White at ``alpha``: labels and rings on the cribbage table."""
    return with_alpha(WHITE, alpha)


def suit_colour(suit: int, four_colour: bool = False, ink: QColor = INK) -> QColor:
    """The colour of ``suit``: hearts and diamonds red, spades and clubs ``ink``; with ``four_colour``
    diamonds orange and clubs green (spades stay black in both schemes)."""
    if suit == Suit.HEARTS:
        return RED
    if suit == Suit.DIAMONDS:
        return ORANGE if four_colour else RED
    if suit == Suit.CLUBS:
        return GREEN if four_colour else ink
    return ink
