"""Pasted text: a handviewer link with several boards opens them all."""

from __future__ import annotations

from urllib.parse import quote

import pytest

from bridgeview.formats.errors import FormatError
from bridgeview.formats.lin.write import board_to_lin
from bridgeview.model import Board, Deal
from bridgeview.ui.editor.clipboard import boards_from_text

SAMPLE = "N:T2.J965.T7532.63 AKQ874.AQ2.J8.A5 J65.743.AK4.KQ82 93.KT8.Q96.JT974"
OTHER = "N:AKQ874.AQ2.J8.A5 T2.J965.T7532.63 93.KT8.Q96.JT974 J65.743.AK4.KQ82"


def test_link_with_two_boards_gives_both():
    lin = board_to_lin(Board.numbered(1, Deal.from_pbn(SAMPLE))) + board_to_lin(Board.numbered(2, Deal.from_pbn(OTHER)))
    url = "https://www.bridgebase.com/tools/handviewer.html?lin=" + quote(lin)
    doc = boards_from_text(url)
    assert [b.deal.to_pbn() for b in doc] == [SAMPLE, OTHER]
    assert doc.info.format == "lin"


def test_text_that_is_no_board_is_a_one_line_error():
    with pytest.raises(FormatError, match="neither a handviewer link"):
        boards_from_text("hello")
