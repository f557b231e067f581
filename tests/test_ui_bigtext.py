"""A big PBN file in the main window: opened lazily, far boards at once, edits saved in a stream."""

from __future__ import annotations

import pytest
from test_pbn_lazy import GAME
from test_ui_support import main_window

from bridgeview.formats.pbn import lazy as pbn_lazy
from bridgeview.formats.registry import get, read_file
from bridgeview.ui import dialogs


@pytest.mark.slow
def test_big_pbn_opens_lazily_jumps_and_saves(qtbot, tmp_path, messages, monkeypatch):
    monkeypatch.setattr(pbn_lazy, "LAZY_MIN_BYTES", 10_000)
    path = tmp_path / "big.pbn"
    path.write_text("% PBN 2.1\n\n" + "\n".join(GAME.format(n=n) for n in range(1, 2001)))
    w = main_window(qtbot, tmp_path)
    w.thread_threshold = 100
    assert w.open_file(str(path))
    view = w.current_view()
    assert view.boards.is_lazy and len(view.boards) == 2000
    assert view.diagram.view_model()["board"] == 1
    assert view.go_to_number(1900)
    assert view.diagram.view_model()["board"] == 1900
    assert view.boards.is_lazy and not view.boards.edited  # looking decodes only what is shown
    # an edit stays aside; saving in PBN streams the rest as read
    view.move_card(view.current_board().deal.cards(0)[0], 1)
    assert view.boards.is_lazy and view.boards.edited
    out = tmp_path / "saved.pbn"
    assert w.save_as(str(out), "pbn"), messages.calls
    back = read_file(out)
    assert len(back) == 2000 and back[1899].deal != read_file(path)[1899].deal
    assert back[1898].source.text == read_file(path)[1898].source.text
    # the unedited file to ZRD: one chunked pass for the check and one for the writer; the losses asked about
    assert w.open_file(str(path))
    messages.answer = dialogs.Button.Save
    assert w.save_as(str(tmp_path / "deals.zrd"), "zrd")
    assert "auctions of 2000 boards" in messages.calls[-1][2]
    assert [b.deal for b in read_file(tmp_path / "deals.zrd")][:3] == [b.deal for b in read_file(path)][:3]
    messages.answer = dialogs.Button.Discard  # closing the window at teardown saves nothing


def test_big_lin_of_qx_boards_opens_lazily_and_saves_both_ways(qtbot, tmp_path, messages, monkeypatch):
    """Our own LIN export of a binary set (qx boards) opens lazily, jumps, and saves as ZBD through the
    chunked check and writer; a lazy ZRD saved as LIN is written from its chunks."""
    from test_pbn_stream import write_binary

    from bridgeview.formats import chunked
    from bridgeview.formats.convert import convert_file
    from bridgeview.formats.lin import bulk as lin_bulk
    from bridgeview.formats.lin import lazy as lin_lazy

    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 10_000)
    zrd = tmp_path / "deals.zrd"
    write_binary(zrd, "zrd", 1500)
    w = main_window(qtbot, tmp_path)
    w.thread_threshold = 100
    assert w.open_file(str(zrd))
    messages.answer = dialogs.Button.Save
    lin = tmp_path / "deals.lin"
    assert w.save_as(str(lin), "lin"), messages.calls
    assert "double-dummy results of" in messages.calls[-1][2]  # asked about what LIN drops
    convert_file(zrd, tmp_path / "cli.lin")
    assert lin.read_bytes() == (tmp_path / "cli.lin").read_bytes()
    assert w.open_file(str(lin))
    view = w.current_view()
    assert view.boards.is_lazy and len(view.boards) == 1500
    assert view.go_to_number(1400)
    assert view.diagram.view_model()["board"] == 1400
    assert lin_bulk.applies(view.boards, get("zbd"), None)
    calls = []
    real = chunked.Conversion.report
    monkeypatch.setattr(chunked.Conversion, "report", lambda self, *a, **k: calls.append(self) or real(self, *a, **k))
    assert w.save_as(str(tmp_path / "back.zbd"), "zbd"), messages.calls
    assert calls == [lin_bulk.CONVERSION]  # the check was the chunked one, with LIN's chunks
    convert_file(zrd, tmp_path / "direct.zbd")
    assert (tmp_path / "back.zbd").read_bytes() == (tmp_path / "direct.zbd").read_bytes()
    messages.answer = dialogs.Button.Discard  # closing the window at teardown saves nothing
