"""Big LIN hand-record files read lazily: the same boards, problems and lines as the eager reader."""

from __future__ import annotations

import pytest
from conftest import realdata_files
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from memorykit import traced_peak

from bridgeview.check.validate import validate
from bridgeview.formats.codec import ReadOptions, WriteOptions
from bridgeview.formats.errors import FormatError
from bridgeview.formats.lin import lazy as lin_lazy
from bridgeview.formats.lin.codec import LinCodec
from bridgeview.formats.registry import read_file, write_file
from bridgeview.model.boardset import SetKind

CODEC = LinCodec()
BOARD = (
    "pn|Ann,Bob,Cy,Di|st||md|{dealer}SAKQJHT98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,|"
    "sv|{vul}|ah|Board {n}|mb|p|mb|1N|mb|p|mb|p|mb|p|pc|S2|pc|SA|pc|S5|pc|ST|pg||\n"
)


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


def assert_same(path, eager=None) -> None:
    eager = eager if eager is not None else CODEC.read(path, ReadOptions())
    lazy = lin_lazy.read_lazy(path)
    assert lazy is not None
    assert len(lazy) == len(eager)
    assert list(lazy) == list(eager)
    assert sorted((i, *p) for i in range(len(lazy)) for p in lazy.problems_of(i)) == sorted(eager.problems)
    assert [lazy.info.extra["board_lines"].get(i) for i in range(len(eager))] == [
        eager.info.extra["board_lines"][i] for i in range(len(eager))
    ]
    for key in ("encoding", "newline"):
        assert lazy.info.extra[key] == eager.info.extra[key]
    assert [str(p) for p in validate(lazy)] == [str(p) for p in validate(eager)]
    assert lin_lazy.unreadable_boards(lazy) == [i for i, b in enumerate(eager) if b.unreadable]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_lazy_hand_records_match_the_eager_reader(tmp_path, newline):
    path = tmp_path / "records.lin"
    path.write_bytes(hand_records(60, newline).encode())
    assert len(CODEC.read(path, ReadOptions()).problems) == 12  # the bad claims
    assert_same(path)


@pytest.mark.parametrize("path", realdata_files("lin", "*.lin"), ids=lambda p: p.name)
def test_real_lin_files_lazily_or_eagerly_the_same(path):
    """Hand-record files (with qx ids or without) read lazily as eagerly; the others (vugraph headers, comments)
    stay eager."""
    if lin_lazy.read_lazy(path) is None:
        return
    assert_same(path)


@pytest.mark.parametrize(
    "text",
    [
        "pn|a,b,c,d|qx|o1|" + BOARD.format(dealer=1, vul="o", n=1),  # players for the whole file
        "vg|Final,,I,1,16,A,0,B,0|" + BOARD.format(dealer=1, vul="o", n=1),  # a vugraph header
        "% a comment\n" + BOARD.format(dealer=1, vul="o", n=1),
        BOARD.format(dealer=1, vul="o", n=1) + "stray",
        BOARD.format(dealer=1, vul="o", n=1).rstrip() + "\nx" + BOARD.format(dealer=1, vul="o", n=2),  # xpn|
        BOARD.format(dealer=1, vul="o", n=1) + "\n\t x" + BOARD.format(dealer=1, vul="o", n=2),
        "pn|a,b,c,d|st||",  # no deal
    ],
)
def test_files_with_state_across_boards_are_read_eagerly(tmp_path, text):
    path = tmp_path / "x.lin"
    path.write_text(text)
    assert lin_lazy.read_lazy(path) is None


@pytest.mark.parametrize("key", ["vg", "rs", "pw", "mp", "bn", "VG", "Rs", "pW", "MP", "bN"])
def test_a_file_key_after_the_first_boards_sends_the_file_to_the_eager_reader(tmp_path, key):
    """Each file key (results by board number, headers), in either case, wherever it is: the lazy index looks
    keys up in a table of them."""
    boards = [BOARD.format(dealer=1 + n % 4, vul="o", n=n) for n in range(1, 6)]
    path = tmp_path / "x.lin"
    path.write_text("\n".join(boards))
    assert lin_lazy.read_lazy(path) is not None
    path.write_text("\n".join([*boards[:3], f"{key}|1,2,3|", *boards[3:]]))
    assert lin_lazy.read_lazy(path) is None


QX_DEAL = "md|{d}SAKQJHT98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,|"
QX_FILES = {
    # what our own export writes from a binary set: qx, a deal, the title and the vulnerability
    "export": "".join(
        f"qx|o{n}|st||" + QX_DEAL.format(d=1 + n % 4) + f"rh||ah|Board {n}|sv|o|\n" for n in range(1, 40)
    ),
    # two rooms: the open room is kept on every board
    "rooms": "".join(
        f"qx|{room}{n}|" + QX_DEAL.format(d=1) + "sv|n|mb|1N|mb|p|mb|p|mb|p|pg||\n"
        for n in range(1, 20)
        for room in "oc"
    ),
    # GIB match records: the players of the next board after the deal of this one
    "gib": "qx|o1|"
    + "".join(
        QX_DEAL.format(d=2) + f"sv|e|mb|p|mb|p|pg||\npn|S{n},W{n},N{n},E{n}|st||qx|o{n + 1}|" for n in range(1, 25)
    )
    + QX_DEAL.format(d=3)
    + "pg||\n",
    # boards without qx before the first qx, a qx board holding two deals, a qx board with none, odd ids
    "mixed": "pn|a,b,c,d|st||"
    + QX_DEAL.format(d=1)
    + "ah|Board 7|\n"
    + "st||"
    + QX_DEAL.format(d=2)
    + "\n"
    + "qx|o3|"
    + QX_DEAL.format(d=3)
    + "pn|e,f,g,h|"
    + QX_DEAL.format(d=4)
    + "\n"
    + "qx|o4|pn|x,y,z,w|\n"
    + "qx| c5 |"
    + QX_DEAL.format(d=1)
    + "ah|Board 6|\n"
    + "qx|zz|"
    + QX_DEAL.format(d=2)
    + "mc|77|\n"
    + "qx|x9,extra|"
    + QX_DEAL.format(d=3)
    + "\n",
    "one room named oddly": "".join(f"qx|O{n}|" + QX_DEAL.format(d=n % 4 + 1) + "\n" for n in range(1, 9)),
}


@pytest.mark.parametrize("name", sorted(QX_FILES))
@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_files_of_qx_boards_read_lazily_as_eagerly(tmp_path, name, newline):
    path = tmp_path / "qx.lin"
    path.write_bytes(QX_FILES[name].replace("\n", newline).encode())
    assert lin_lazy.read_lazy(path).lin_index.has_qx
    assert_same(path)


def test_the_lazy_reader_keeps_the_rooms_and_players_of_qx_boards(tmp_path):
    path = tmp_path / "qx.lin"
    path.write_text(QX_FILES["rooms"])
    lazy = lin_lazy.read_lazy(path)
    assert [b.tags.get("Room") for b in lazy][:4] == ["Open", "Closed", "Open", "Closed"]
    path.write_text(QX_FILES["gib"])
    lazy = lin_lazy.read_lazy(path)
    assert [lazy[k].tags.get("North") for k in (0, 1, 24)] == [None, "N1", "N24"]
    assert "Room" not in lazy[3].tags  # one room only: it says nothing
    assert lazy.line_of(1) == 2  # the board's line is its qx's, as the eager reader says


def test_an_edited_board_of_a_qx_file_is_saved_with_its_qx(tmp_path, monkeypatch):
    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 1000)
    path = tmp_path / "big.lin"
    path.write_text(QX_FILES["rooms"])
    doc = read_file(path)
    assert doc.is_lazy
    doc[5] = doc[5].copy(claim=3, result=3)
    write_file(doc, tmp_path / "out.lin")
    lines = (tmp_path / "out.lin").read_text().splitlines()
    assert lines[5].startswith("qx|c3|") and "mc|3|" in lines[5]
    back = read_file(tmp_path / "out.lin")
    assert back.is_lazy and back[5] == doc[5] and [b.tags["Room"] for b in back][4:6] == ["Open", "Closed"]


def test_big_hand_records_open_lazily_through_the_codec(tmp_path, monkeypatch):
    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 1000)
    path = tmp_path / "big.lin"
    path.write_text(hand_records(500))
    doc = read_file(path)
    assert doc.is_lazy and len(doc) == 500
    assert doc[449].deal == CODEC.read(path, ReadOptions())[449].deal
    assert (
        read_file(path, options=ReadOptions(start_board=5))[0].number
        == CODEC.read(path, ReadOptions(start_board=5))[0].number
    )


def _lazy(tmp_path, monkeypatch, n: int, newline: str = "\n"):
    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 1000)
    path = tmp_path / "big.lin"
    path.write_bytes(hand_records(n, newline).encode())
    doc = read_file(path)
    assert doc.is_lazy
    return path, doc


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_an_edited_lazy_file_saves_its_edits_and_copies_the_rest(tmp_path, monkeypatch, newline):
    path, doc = _lazy(tmp_path, monkeypatch, 600, newline)
    write_file(doc, tmp_path / "same.lin")
    assert (tmp_path / "same.lin").read_bytes() == path.read_bytes()  # nothing edited: the file as it was
    edited = {3: doc[3].copy(tags={**doc[3].tags, "North": "Zoë"}), 599: doc[599].copy(claim=7, result=7)}
    edited[450] = doc[450].copy(auction=None, play=None)
    for i, b in edited.items():
        doc[i] = b
    write_file(doc, tmp_path / "out.lin")
    before = path.read_bytes().split(newline.encode())
    after = (tmp_path / "out.lin").read_bytes().split(newline.encode())
    assert len(after) == len(before)
    changed = [k for k in range(len(before)) if before[k] != after[k]]
    assert len(changed) == 3 and b"Zo\xc3\xab" in after[changed[0]]
    back = CODEC.read(tmp_path / "out.lin", ReadOptions())
    original = CODEC.read(path, ReadOptions())
    assert [i for i in range(600) if back[i] != original[i]] == [3, 450, 599]
    for i, b in edited.items():
        assert back[i] == b
    assert lin_lazy.read_lazy(tmp_path / "out.lin") is not None  # still a hand-record file, opened lazily


def test_a_lazy_file_saved_with_other_line_ends_keeps_its_boards(tmp_path, monkeypatch):
    path, doc = _lazy(tmp_path, monkeypatch, 200)
    doc[7] = doc[7].copy(claim=3, result=3)
    write_file(doc, tmp_path / "crlf.lin", options=WriteOptions(newline="\r\n"))
    data = (tmp_path / "crlf.lin").read_bytes()
    assert data.count(b"\r\n") == data.count(b"\n") == path.read_bytes().count(b"\n")
    back = CODEC.read(tmp_path / "crlf.lin", ReadOptions())
    assert list(back) == [doc[i] for i in range(200)]


def test_an_edited_board_whose_title_hides_its_number_is_saved_with_qx(tmp_path, monkeypatch):
    path, doc = _lazy(tmp_path, monkeypatch, 50)
    doc[10] = doc[10].copy(tags={**doc[10].tags, "Title": "the slam"})
    write_file(doc, tmp_path / "out.lin")
    back = CODEC.read(tmp_path / "out.lin", ReadOptions())
    assert back[10].number == 11 and back[10].tags["Title"] == "the slam"
    assert [b.number for b in back] == list(range(1, 51))


def test_saving_a_big_lazy_file_keeps_memory_flat(tmp_path, monkeypatch):
    """The save streams: its peak Python memory is a small part of the file, with edits and with new line ends
    (building the whole text, as the eager writer does, takes more than the file's size)."""
    path, doc = _lazy(tmp_path, monkeypatch, 8000)
    size = path.stat().st_size
    assert size > 1_000_000
    doc[5] = doc[5].copy(claim=2, result=2)
    doc[7000] = doc[7000].copy(claim=4, result=4)
    for options in (WriteOptions(), WriteOptions(newline="\r\n")):
        peak = traced_peak(lambda: write_file(doc, tmp_path / "out.lin", options=options))[0]  # noqa: B023
        assert peak < size / 4, (options, peak, size)
    assert CODEC.read(tmp_path / "out.lin", ReadOptions())[7000].claim == 4


def test_a_lazy_file_with_an_edited_event_saves_a_header_and_the_same_boards(tmp_path, monkeypatch):
    path, doc = _lazy(tmp_path, monkeypatch, 100)
    doc.info.event = "Club night"
    write_file(doc, tmp_path / "out.lin")
    data = (tmp_path / "out.lin").read_bytes()
    assert data.startswith(b"vg|Club night,")
    assert data.endswith(path.read_bytes())  # the boards copied as they were, after the header line
    back = CODEC.read(tmp_path / "out.lin", ReadOptions())
    assert back.info.event == "Club night"
    assert list(back) == list(CODEC.read(path, ReadOptions()))


_PIECES = [
    "qx|o{n}|",
    "qx|c{n}|",
    "qx|{n}|",
    "pn|s{n},w{n},n{n},e{n}|",
    "st||",
    QX_DEAL.format(d=1),
    QX_DEAL.format(d=4),
    "md|2SAK,SQJ,ST9,|",  # a partial deal
    "ah|Board {n}|",
    "sv|b|",
    "mb|1S|mb|p|mb|p|mb|p|",
    "pc|SA|pc|SQ|pc|ST|pc|S2|",
    "pc|NT2|",  # a pair that cannot be read: its board is marked, the rest reads
    "md|3SAKQJHT98D765C432,SZZ,S765H432DAKQJCT98,|",
    "mc|9|",
    "pg||",
    "\n",
    " \r\n\t",
    "x",  # text before a key: the eager reader's business
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(range(len(_PIECES))), min_size=1, max_size=40), st.sampled_from([3, 16, 50, 1 << 22]))
def test_any_run_of_pairs_reads_lazily_as_eagerly(tmp_path, picks, window):
    """Whatever order qx, pn, st, md and the rest come in, and wherever the scan's windows end, a file the
    lazy reader takes is read as the eager reader reads it (and one it refuses is one the eager reader has a
    header or no deal for)."""
    text = "".join(_PIECES[p].format(n=k + 1) for k, p in enumerate(picks))
    path = tmp_path / "any.lin"
    path.write_text(text)
    saved, lin_lazy.SCAN_WINDOW = lin_lazy.SCAN_WINDOW, window
    try:
        _same_or_refused(path)
    finally:
        lin_lazy.SCAN_WINDOW = saved


def _same_or_refused(path) -> None:
    try:
        eager = CODEC.read(path, ReadOptions())
    except FormatError as e:
        try:
            lazy = lin_lazy.read_lazy(path)
        except FormatError as refused:  # no board can be read: the same error
            assert refused.full() == e.full()
            return
        assert lazy is None or _lazy_fails(path)
        return
    if lin_lazy.read_lazy(path) is None:
        return
    assert_same(path, eager)


def _lazy_fails(path) -> bool:
    lazy = lin_lazy.read_lazy(path)
    try:
        list(lazy)
    except FormatError:
        return True
    return False


@pytest.mark.parametrize("window", [4, 40, 333])
def test_windows_of_the_scan_do_not_change_the_index(tmp_path, monkeypatch, window):
    """A window may end anywhere after a value, hold a value longer than itself, or fall inside the pn/st a
    board is moved back over: the boards and their lines are those of one pass over the whole file."""
    path = tmp_path / "qx.lin"
    path.write_text(QX_FILES["gib"] + "qx|o99|" + QX_DEAL.format(d=1) + "nt|" + "long note " * 50 + "|\n")
    whole = lin_lazy.read_lazy(path)
    monkeypatch.setattr(lin_lazy, "SCAN_WINDOW", window)
    windowed = lin_lazy.read_lazy(path)
    assert windowed.lin_index.starts.tolist() == whole.lin_index.starts.tolist()
    assert windowed.lin_index.lines.tolist() == whole.lin_index.lines.tolist()
    assert_same(path)


def test_the_scan_of_a_big_file_keeps_memory_flat(tmp_path, monkeypatch):
    """Opening holds a window of the file's arrays and a few numbers a board: four times the boards take
    much less than four times the memory."""
    monkeypatch.setattr(lin_lazy, "SCAN_WINDOW", 1 << 16)
    peaks = []
    for n in (2000, 8000):
        path = tmp_path / f"h{n}.lin"
        path.write_text(hand_records(n))
        peak, count = traced_peak(lambda: len(lin_lazy.read_lazy(path)))  # noqa: B023
        assert count == n
        peaks.append(peak)
    size = (tmp_path / "h8000.lin").stat().st_size
    assert peaks[1] < 1.3 * peaks[0], (peaks, size)  # one pass over the whole file took 15 times the file


def test_validate_lists_a_board_the_lazy_reader_cannot_read_and_checks_the_rest(tmp_path):
    """Opened lazily (as by the whole-file reader), the board is one problem, at its line."""
    text = QX_FILES["export"].replace("md|2SAKQJ", "md|2XAKQJ", 1)
    path = tmp_path / "bad.lin"
    path.write_text(text)
    lazy = lin_lazy.read_lazy(path)
    assert lazy.line_of(0) == 1 and [m[:30] for _l, m in lazy.problems_of(0)] == ["unreadable record: md|2XAKQJHT"]
    assert lazy[0].unreadable is not None and lazy[1].unreadable is None
    problems = [str(p) for p in validate(lazy)]
    assert any(p.startswith("line 39, board 39: same deal as board 2") for p in problems)  # the rest checked
    assert (
        problems[0].startswith("line 1, record 1: unreadable record: md|2XAKQJ")
        and "bad rank or suit 'X'" in problems[0]
    )


#: a board the lazy reader opens, and pairs of every kind a board may hold, read or not
_GOOD = "qx|o90|" + QX_DEAL.format(d=1) + "\n"
_BAD_PC = "qx|o8|" + QX_DEAL.format(d=3) + "mb|1N|mb|p|mb|p|mb|p|pc|NT2|\n"
_BAD_MD = "qx|o9|md|4SAKQJHT98D765C432,SZZ,S765H432DAKQJCT98,|ah|Board 9|\n"


@pytest.mark.parametrize("text", [_BAD_PC, _BAD_MD + _BAD_PC.replace("pc|NT2|", "mb|1Z|")])
def test_a_file_none_of_whose_boards_reads_is_refused_lazily_as_whole(tmp_path, monkeypatch, text):
    """No damaged file but no LIN at all: the lazy reader refuses it with the whole-file reader's error (the
    first board's, located), and opens it as soon as one board reads."""
    path = tmp_path / "bad.lin"
    path.write_text(text)
    with pytest.raises(FormatError) as whole:
        read_file(path)
    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 1)
    with pytest.raises(FormatError) as lazy:
        read_file(path)
    assert lazy.value.full() == whole.value.full() and lazy.value.full().startswith(f"{path}: line 1, record 1")
    path.write_text(text + _GOOD)
    doc = read_file(path)
    assert doc.kind is SetKind.LIN_TEXT and doc[0].unreadable and doc[len(doc) - 1].unreadable is None


def _played(n: int, pc: str = "pc|SA|", mb: str = "mb|1S|", md: str = QX_DEAL.format(d=1)) -> str:
    return f"qx|o{n}|{md}ah|Board {n}|sv|o|{mb}mb|p|mb|p|mb|p|pc|S2|{pc}pc|S5|pc|ST|pg||\n"


def test_saving_a_lazy_file_as_lin_refuses_a_board_that_cannot_be_read_as_whole(tmp_path, monkeypatch):
    """Untouched boards are copied as they were, yet one that cannot be read is refused, naming its record,
    as for the file read whole; to find it, only the boards whose md, mb or pc might not read are decoded."""
    boards = [_played(n) for n in range(1, 301)]
    boards[119] = _played(120, mb="mb|1Z|")
    boards[249] = _played(250, pc="pc|S1|")
    path = tmp_path / "big.lin"
    path.write_text("".join(boards))
    with pytest.raises(FormatError) as whole:
        write_file(read_file(path), tmp_path / "whole.lin")
    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 1000)
    decoded: list[int] = []
    real = lin_lazy.LazyLinSet.decoded
    monkeypatch.setattr(lin_lazy.LazyLinSet, "decoded", lambda self, i: decoded.append(i) or real(self, i))
    doc = read_file(path)
    assert doc.kind is SetKind.LIN_TEXT and decoded == [0]  # opening decodes the first board: it reads
    decoded.clear()
    with pytest.raises(FormatError) as lazy:
        write_file(doc, tmp_path / "lazy.lin")
    assert lazy.value.full() == whole.value.full() and "record 120: cannot be read: mb|1Z|" in lazy.value.full()
    assert sorted(set(decoded)) == [119, 249] and not (tmp_path / "lazy.lin").exists()
    doc[119] = doc[119].copy(claim=3)  # edited, and still not read: named by its record all the same
    with pytest.raises(FormatError, match="record 120: cannot be read: mb"):
        write_file(doc, tmp_path / "lazy.lin")
    doc[119] = doc[119].copy(auction=None, play=None, claim=None, unreadable=None)  # fixed: the other is refused
    with pytest.raises(FormatError, match="record 250: cannot be read: pc"):
        write_file(doc, tmp_path / "lazy.lin")


def test_boards_spelled_oddly_are_decoded_to_see_they_read_and_the_file_is_copied(tmp_path, monkeypatch):
    """Lower-case cards, packed and long calls, a partial deal or hands in another order are no plain values:
    their boards are decoded, they read, and the save copies the file as it was."""
    boards = [_played(n) for n in range(1, 101)]
    boards[3] = _played(4, pc="pc|sa|")
    boards[10] = _played(11, mb="mb|1S!|an|strong|")
    boards[20] = _played(21, mb="mb|1sppp|mb|p|")
    boards[30] = _played(31, mb="mb|1S ! |")
    boards[40] = _played(41, md="md|2SAK,SQJ,ST9,|")
    boards[50] = _played(51, md="md|1HT98SAKQJD765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,|")
    path = tmp_path / "big.lin"
    path.write_text("".join(boards))
    monkeypatch.setattr(lin_lazy, "LAZY_MIN_BYTES", 1000)
    doc = read_file(path)
    assert lin_lazy.unreadable_boards(doc) == []
    write_file(doc, tmp_path / "out.lin")
    assert (tmp_path / "out.lin").read_bytes() == path.read_bytes()


_CARDS = ["SA", "sa", "aS", "S10", "10S", "NT2", "S1", "", "ZZ", "S", "SAK", " SA ", "♠A", "HK"]
_CALLS = ["p", "P", "1N", "1NT!", "1nppp", "1Z", "d", "XX", "pass", "2H!", "8S", "", "1Nppppppp", "ppp", "1☃"]
_DEALS = [
    QX_DEAL.format(d=1)[3:-1],
    "3SAKQJHT98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,SAKQJHT98D765C432",  # a card twice
    "3SAKQJHT98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,S2",
    "0SAKQJHT98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,",
    "5SAKQJHT98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,",  # no dealer 5
    "1SAKQJHT98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,S",
    "1sakqjht98d765c432,S765HAKQJD432CT98,S432H765DT98CAKQJ,",
    "1SAKQJHT98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQ2,",  # C2 twice
    "1HAKQJST98D765C432,S765HAKQJD432CT98,S432H765DT98CAKQJ,",  # suits out of order: S A…
    "1SAKQJHT98D765C43X,S765HAKQJD432CT98,S432H765DT98CAKQJ,",
    "2SAK,SQJ,ST9,",
    "2,,,",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(
            st.sampled_from(_DEALS),
            st.lists(st.tuples(st.sampled_from(["pc", "mb", "PC"]), st.integers(0, len(_CARDS) - 1)), max_size=6),
        ),
        min_size=1,
        max_size=8,
    ),
    st.sampled_from([8, 40, 1 << 22]),
)
def test_the_boards_found_unreadable_are_those_the_reader_cannot_read(tmp_path, boards, window):
    """Whatever the cards, calls and deals, the one pass finds exactly the boards the careful reader marks."""
    text = "".join(
        f"qx|o{n}|md|{deal}|"
        + "".join(
            f"{key}|{(_CARDS if key != 'mb' else _CALLS)[k % len(_CARDS if key != 'mb' else _CALLS)]}|"
            for key, k in pairs
        )
        + "\n"
        for n, (deal, pairs) in enumerate(boards, 1)
    )
    path = tmp_path / "any.lin"
    path.write_text(text + _GOOD)
    saved, lin_lazy.SCAN_WINDOW = lin_lazy.SCAN_WINDOW, window
    try:
        lazy = lin_lazy.read_lazy(path)
        assert lin_lazy.unreadable_boards(lazy) == [i for i in range(len(lazy)) if lazy[i].unreadable]
        assert [b.unreadable for b in lazy] == [b.unreadable for b in CODEC.read(path, ReadOptions())]
    finally:
        lin_lazy.SCAN_WINDOW = saved
