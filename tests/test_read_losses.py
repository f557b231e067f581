"""What a save cannot keep of what was read: a truncated file's broken tail, games without cards."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_ui_support import main_window, make_file

from bridgeview.cli.main import main
from bridgeview.formats.registry import all_codecs, read_file
from bridgeview.ui import dialogs

CARDLESS_PBN = """[Event "Cup"]
[Board "1"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]

[Event "Cup"]
[Scoring "IMP"]

[Event "Cup"]
[Board "2"]
[Deal "N:.AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432 AKQJT98765432..."]
"""

DEALS_ONLY = sorted(c.name for c in all_codecs() if c.kind == "bridge" and c.can_write and c.caps.deals_required)


def cut_file(tmp_path: Path, fmt: str, n: int = 3, cut: int = 5) -> tuple[Path, list]:
    path, boards = make_file(tmp_path, fmt, n=n)
    data = path.read_bytes()
    path.write_bytes(data[:-cut])
    return path, boards


# -- games without cards ----------------------------------------------------------------------
@pytest.mark.parametrize("fmt", DEALS_ONLY)
def test_games_without_cards_are_skipped_with_a_notice(tmp_path, capsys, fmt):
    src = tmp_path / "scoring.pbn"
    src.write_text(CARDLESS_PBN)
    out = tmp_path / f"out.{fmt}"
    to = ["--to", fmt] if fmt == "zrj16" else []
    assert main(["convert", str(src), str(out), *to]) == 0, capsys.readouterr().err
    assert "bridgeview: dropped: 1 game without cards" in capsys.readouterr().err.splitlines()
    back = read_file(out, fmt)
    assert [b.deal for b in back] == [b.deal for b in read_file(src) if b.deal.card_count]


def test_real_pbn_with_a_scoring_only_game_converts_past_it(realdata, tmp_path, capsys):
    src = realdata / "pbn" / "pbnj_veugen_correct_20.pbn"
    first = [b for b in read_file(src)][:20]
    assert any(not b.deal.card_count for b in first)  # the game the issue names
    out = tmp_path / "out.lin"
    main(["convert", str(src), str(out)])
    err = capsys.readouterr().err
    assert "has no cards" not in err  # a later partial deal may still be refused, but by its own name


def test_formats_that_hold_cardless_boards_keep_them(tmp_path, capsys):
    src = tmp_path / "scoring.pbn"
    src.write_text(CARDLESS_PBN)
    out = tmp_path / "out.pbn"
    assert main(["convert", str(src), str(out)]) == 0
    assert "without cards" not in capsys.readouterr().err
    assert len(read_file(out)) == 3


def test_save_as_lists_the_skipped_games(qtbot, tmp_path, messages):
    src = tmp_path / "scoring.pbn"
    src.write_text(CARDLESS_PBN)
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(src))
    out = tmp_path / "out.lin"
    messages.answer = dialogs.Button.Cancel
    assert not w.save_as(str(out), "lin")
    kind, _title, text = messages.calls[-1]
    assert kind == "warning" and "• 1 game without cards" in text
    assert not out.exists()
    messages.answer = dialogs.Button.Save
    assert w.save_as(str(out), "lin")
    assert len(read_file(out)) == 2


# -- truncated files ---------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", ["bri", "dge", "dup", "zrd", "ber", "cds", "rzd"])
def test_cli_names_the_broken_tail(tmp_path, capsys, fmt):
    path, boards = cut_file(tmp_path, fmt)
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    assert "ends inside record 3" in out
    assert main(["info", str(path)]) == 0
    info = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    assert "boards: 2" in info and any(line.startswith("warning: the file ends inside record 3") for line in info)
    target = tmp_path / "whole.pbn"
    assert main(["convert", str(path), str(target)]) == 0
    err = capsys.readouterr().err
    assert "dropped: the unreadable end of the file (the file ends inside record 3" in err
    assert [b.deal for b in read_file(target)] == [b.deal for b in boards][:2]
    bulk = tmp_path / "whole.deals"  # the numpy path between record formats says it too
    assert main(["convert", str(path), str(bulk)]) == 0
    assert "dropped: the unreadable end of the file" in capsys.readouterr().err
    assert len(read_file(bulk)) == 2


def test_gui_opens_a_truncated_file_and_warns_before_saving(qtbot, tmp_path, messages):
    path, boards = cut_file(tmp_path, "bri")
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(path)), messages.calls
    view = w.current_view()
    assert len(view.boards) == 2
    assert "ends inside record 3" in w.statusBar().currentMessage()
    messages.answer = dialogs.Button.Cancel
    before = path.read_bytes()
    assert not w.save_as(str(path), "bri")
    kind, _title, text = messages.calls[-1]
    assert kind == "warning" and "the unreadable end of the file (the file ends inside record 3" in text
    assert path.read_bytes() == before
    messages.answer = dialogs.Button.Save
    assert w.save_as(str(path), "bri")
    assert path.stat().st_size == 2 * 128
    assert [b.deal for b in read_file(path)] == [b.deal for b in boards][:2]
    calls = len(messages.calls)
    assert w.save_as(str(path), "bri")  # the file is whole now: nothing more to warn about
    assert len(messages.calls) == calls
