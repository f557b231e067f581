"""Big LIN hand-record files read lazily: the same boards, problems and lines as the eager reader."""

from __future__ import annotations

import pytest
from conftest import realdata_files

from bridgeview.check.validate import validate
from bridgeview.formats import lin_lazy
from bridgeview.formats.lin import LinCodec
from bridgeview.formats.registry import ReadOptions, read_file

CODEC = LinCodec()
BOARD = ("pn|Ann,Bob,Cy,Di|st||md|{dealer}SAKQJHT98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,|"
         "sv|{vul}|ah|Board {n}|mb|p|mb|1N|mb|p|mb|p|mb|p|pc|S2|pc|SA|pc|S5|pc|ST|pg||\n")


def hand_records(n: int, newline: str = "\n") -> str:
    out = []
    for i in range(1, n + 1):
        text = BOARD.format(dealer=1 + (i - 1) % 4, vul="onebnebo"[i % 8], n=i)
        if i % 5 == 0:
            text = text.replace("pg||", "mc|99|pg||")  # a bad claim: a problem the reader survives
        if i % 7 == 0:
            text = "  \n" + text  # blank lines between boards
        out.append(text.replace("\n", newline))
    return "".join(out)


def assert_same(path) -> None:
    eager = CODEC.read(path, ReadOptions())
    lazy = lin_lazy.read_lazy(path)
    assert lazy is not None
    assert len(lazy) == len(eager)
    assert list(lazy) == list(eager)
    assert sorted((i, *p) for i in range(len(lazy)) for p in lazy.problems_of(i)) == sorted(eager.problems)
    assert [lazy.info.extra["board_lines"].get(i) for i in range(len(eager))] == \
        [eager.info.extra["board_lines"][i] for i in range(len(eager))]
    for key in ("encoding", "newline"):
        assert lazy.info.extra[key] == eager.info.extra[key]
    assert [str(p) for p in validate(lazy)] == [str(p) for p in validate(eager)]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_lazy_hand_records_match_the_eager_reader(tmp_path, newline):
    path = tmp_path / "records.lin"
    path.write_bytes(hand_records(60, newline).encode())
    assert len(CODEC.read(path, ReadOptions()).problems) == 12  # the bad claims
    assert_same(path)


@pytest.mark.parametrize("path", realdata_files("lin", "*.lin"), ids=lambda p: p.name)
def test_real_lin_files_lazily_or_eagerly_the_same(path):
    """Hand-record files read lazily as eagerly; the others (vugraph, qx, comments) stay eager."""
    if lin_lazy.read_lazy(path) is None:
        return
    assert_same(path)


@pytest.mark.parametrize("text", [
    "qx|o1|" + BOARD.format(dealer=1, vul="o", n=1),  # rooms and board ids
    "vg|Final,,I,1,16,A,0,B,0|" + BOARD.format(dealer=1, vul="o", n=1),  # a vugraph header
    "% a comment\n" + BOARD.format(dealer=1, vul="o", n=1),
    BOARD.format(dealer=1, vul="o", n=1) + "stray",
    "pn|a,b,c,d|st||",  # no deal
])
def test_files_with_state_across_boards_are_read_eagerly(tmp_path, text):
    path = tmp_path / "x.lin"
    path.write_text(text)
    assert lin_lazy.read_lazy(path) is None


def test_big_hand_records_open_lazily_through_the_codec(tmp_path, monkeypatch):
    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 1000)
    path = tmp_path / "big.lin"
    path.write_text(hand_records(500))
    doc = read_file(path)
    assert doc.is_lazy and len(doc) == 500
    assert doc[449].deal == CODEC.read(path, ReadOptions())[449].deal
    assert read_file(path, options=ReadOptions(start_board=5))[0].number == CODEC.read(
        path, ReadOptions(start_board=5))[0].number
