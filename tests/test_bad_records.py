"""One bad record does not stop a fixed-record file: the rest opens, the bad board says why.

For every fixed-record format a small file gets one undecodable record -- first,
middle and last -- and must open in the model, the CLI and the main window:
the other boards are intact, the bad one is an empty stand-in marked with the
reason, which the board list, ``validate`` and ``dump`` show.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from test_ui_support import main_window, make_boards

from bridgeview.check.validate import validate
from bridgeview.cli.main import main
from bridgeview.formats.errors import FormatError
from bridgeview.formats.registry import get, read_file, write_file
from bridgeview.ui.document.board_model import COL_PROBLEM
from bridgeview.ui.plaintext import tooltip_text

N = 5


def _zbs_group_starts(data: bytes) -> list[int]:
    words = [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]
    starts, start = [], 0
    for i, w in enumerate(words):
        if not w & 1:
            starts.append(start)
            start = i + 1
    return starts


def _spoil(fmt: str, data: bytearray, index: int) -> None:
    """Make record ``index`` impossible to decode, the way each format can be wrong."""
    if fmt == "zbs":  # a locator beyond 5^13, flag bit kept
        at = 4 * _zbs_group_starts(bytes(data))[index]
        flag = data[at] & 1
        data[at : at + 4] = (0xFFFFFFFE | flag).to_bytes(4, "little")
        return
    size = get(fmt).record_size
    base = index * size
    if fmt == "zdd":
        data[base + 1] = 0xEE  # a double-dummy value 14
    elif fmt == "zrd":
        data[base + 14] = 0xEE
    elif fmt == "zrj16":
        data[base + 13] |= 0x0C  # bits that must be zero
    elif fmt == "zrj":
        data[base + 16] = 0x05  # calls end before the calls start
    elif fmt in ("bri", "dup"):
        data[base : base + 2] = b"99"  # card number 99
    elif fmt == "dge":
        data[base] = 0x41  # not the spade symbol
    elif fmt == "deals":
        data[base + 7] = 0xF0  # bits above 51 in North's mask
    else:
        raise AssertionError(fmt)


# ZBD is not here: every 13 bytes decode (an impossible deal is a board problem, not an unreadable record)
FORMATS = ["zdd", "zrd", "zrj16", "zrj", "zbs", "bri", "dge", "dup", "deals"]
WHERE = {"first": 0, "middle": N // 2, "last": N - 1}


def _bad_file(tmp_path: Path, fmt: str, where: str) -> tuple[Path, list, int]:
    codec = get(fmt)
    boards = make_boards(N, seed=3, dd=codec.caps.dd)
    path = tmp_path / f"bad-{where}.{codec.extensions[0]}"
    write_file(boards, path, fmt)
    expected = list(read_file(path, fmt))
    data = bytearray(path.read_bytes())
    index = WHERE[where]
    _spoil(fmt, data, index)
    path.write_bytes(bytes(data))
    return path, expected, index


@pytest.mark.parametrize("where", list(WHERE))
@pytest.mark.parametrize("fmt", FORMATS)
def test_a_bad_record_opens_with_the_rest(tmp_path: Path, fmt: str, where: str) -> None:
    path, expected, bad = _bad_file(tmp_path, fmt, where)
    doc = read_file(path, fmt)
    assert len(doc) == N
    for i, board in enumerate(doc):
        if i == bad:
            assert board.unreadable, "the spoiled record decoded"
            assert board.deal.card_count == 0 or fmt == "zrj"  # ZRJ keeps the deal its first bytes hold
            assert board.problems()[0].startswith("unreadable record: ")
        else:
            assert board.unreadable is None
            assert board.deal == expected[i].deal and board.number == expected[i].number
    problems = [p for p in validate(doc) if "unreadable" in p.message]
    assert len(problems) == 1 and problems[0].index == bad
    assert f"record {doc.record_number(bad)} " in str(problems[0])


@pytest.mark.parametrize("where", list(WHERE))
@pytest.mark.parametrize("fmt", FORMATS)
def test_the_cli_lists_the_bad_record_and_goes_on(tmp_path: Path, fmt: str, where: str) -> None:
    """Detected by content and extension (no ``--from``) despite the bad record."""
    path, _expected, bad = _bad_file(tmp_path, fmt, where)
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["validate", str(path)])
    assert rc == 1 and "Traceback" not in err.getvalue()
    assert "unreadable record" in out.getvalue()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main(["dump", str(path)]) == 0
    boards = json.loads(out.getvalue())["boards"]
    assert len(boards) == N and [i for i, b in enumerate(boards) if "unreadable" in b] == [bad]


@pytest.mark.parametrize("where", list(WHERE))
@pytest.mark.parametrize("fmt", ["zrj", "zrd", "zbs", "dup", "deals"])
def test_the_window_opens_lists_and_selects_every_board(qtbot, tmp_path: Path, messages, fmt: str, where: str) -> None:
    path, _expected, bad = _bad_file(tmp_path, fmt, where)
    w = main_window(qtbot, tmp_path)
    w.show()
    assert w.open_file(str(path)), messages.calls
    view = w.current_view()
    assert len(w.views()) == 1 and not messages.calls
    model = view.model
    for i in range(N):
        view.select_board(i)
        qtbot.wait(1)
        w.grab()  # paints the list, the diagram and the panels with the board selected
    tip = tooltip_text(model.data(model.index(bad, COL_PROBLEM), Qt.ItemDataRole.ToolTipRole))
    assert tip.startswith("unreadable record: ")
    assert model.data(model.index(bad, COL_PROBLEM)) == "⚠"


@pytest.mark.parametrize("fmt", ["bri", "zrj", "zbs"])
def test_a_file_with_no_readable_record_is_still_an_error(tmp_path: Path, fmt: str) -> None:
    """Garbage is not opened as a set of stand-ins: when every record is bad, say why the first is."""
    codec = get(fmt)
    boards = make_boards(2, seed=3, dd=codec.caps.dd)
    path = tmp_path / f"junk.{codec.extensions[0]}"
    write_file(boards, path, fmt)
    data = bytearray(path.read_bytes())
    for i in range(2):
        _spoil(fmt, data, i)
    path.write_bytes(bytes(data))
    if fmt == "zrj":  # ZRJ records are decoded lazily only: both boards open, both marked
        assert all(b.unreadable for b in read_file(path, fmt))
        return
    with pytest.raises(FormatError, match="record 1"):
        read_file(path, fmt)
