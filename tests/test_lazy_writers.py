"""Every writer gives the same result on a big PBN or LIN file read lazily as on the same file read
whole: the same bytes, the same notices and losses, the same refusal -- also when the set holds
games without cards or games that cannot be read.

The lazy readers start at 8 MiB; here the threshold (and the lazy readers' checkpoint, cache and
chunk sizes) are made small, so a few games exercise them.  A PBN game with only a ``[Scoring]``
tag once made ``convert big.pbn out.cds`` end in a numpy TypeError.
"""

from __future__ import annotations

import contextlib
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bridgeview.formats import chunked, convert
from bridgeview.formats.codec import lazy_text
from bridgeview.formats.convert import convert_file
from bridgeview.formats.errors import FormatError
from bridgeview.formats.lin import (
    lazy as lin_lazy,
)
from bridgeview.formats.pbn import (
    lazy as pbn_lazy,
)
from bridgeview.formats.registry import all_codecs, read_file

TABLE_OF_BOARD_1 = (
    '[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    '[Deal "N:T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432"]\n'
)
WRITERS = sorted(c.name for c in all_codecs() if c.kind == "bridge" and c.can_write)
EXTENSION = {c.name: c.extensions[0] for c in all_codecs() if c.kind == "bridge" and c.can_write}

HANDS = ("AKQJ.T98.765.432", "T98.765.432.AKQJ", "765.432.AKQJ.T98", "432.AKQJ.T98.765")
SEATS = "NESW"
VULS = ("None", "NS", "EW", "All")
#: board numbers: small ones (CDS holds 1-255), and some past what any format stores (a problem on the board)
NUMBERS = st.one_of(st.integers(1, 300), st.sampled_from((999_999_999, 1_000_000_000, 9223372036854775808)))

#: PBN games nobody can read whole: the readers report them and carry on
BROKEN_PBN = (
    '[Deal "N:AKQ"]\n',
    '[Deal "X:junk junk"]\n',
    '[Board "x"]\n[Deal "N:AKQJ.T98.765.432 - - -"]\n',
    '[Board "1"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.76"]\n',
    '[Board "2"]\n[Dealer "Q"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]\n',
    '[Board "3"]\n[Event "unterminated]\n',
    '[Board "4"]\n\x00\xff junk\n',
    '[Board "5"]\n[Auction "N"]\n1S 9Z\n',
)


def _deal(rotation: int) -> str:
    return "N:" + " ".join(HANDS[(k + rotation) % 4] for k in range(4))


@st.composite
def pbn_games(draw) -> str:
    kind = draw(st.sampled_from(("full", "full", "full", "cardless", "numbered cardless", "broken")))
    number = draw(NUMBERS)
    if kind == "cardless":
        return '[Scoring "IMP"]\n'
    if kind == "numbered cardless":
        return f'[Board "{number}"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
    if kind == "broken":
        return draw(st.sampled_from(BROKEN_PBN))
    dealer = draw(st.sampled_from(SEATS))
    vul = draw(st.sampled_from(VULS))
    extra = draw(st.sampled_from(("", '[Contract "3NT"]\n[Declarer "S"]\n[Result "9"]\n', '[Note "1:x"]\n')))
    return f'[Board "{number}"]\n[Dealer "{dealer}"]\n[Vulnerable "{vul}"]\n[Deal "{_deal(number % 4)}"]\n{extra}'


@contextlib.contextmanager
def small_lazy_sizes(threshold: int, checkpoint: int, cache: int, chunk: int):
    """The lazy readers at small sizes: files from ``threshold`` bytes up, checkpoints, caches and
    chunks of a few games."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pbn_lazy, "LAZY_MIN_BYTES", threshold)
        mp.setattr(lin_lazy, "LAZY_MIN_BYTES", threshold)
        mp.setattr(pbn_lazy, "CHECKPOINT_EVERY", checkpoint)
        mp.setattr(pbn_lazy, "CACHE_BOARDS", cache)
        mp.setattr(lin_lazy, "CACHE_BOARDS", cache)
        mp.setattr(chunked, "CHUNK", chunk)
        yield


@contextlib.contextmanager
def read_whole():
    """Every file read whole, also on its way to ZRD or ZBD (which reads small text files lazily too)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pbn_lazy, "LAZY_MIN_BYTES", 1 << 62)
        mp.setattr(lin_lazy, "LAZY_MIN_BYTES", 1 << 62)
        mp.setattr(convert, "CHUNKS_FROM_BYTES", 1 << 62)
        yield


def outcome(src: Path, writer: str) -> tuple:
    """What converting ``src`` with ``writer`` gives: the bytes, notices and losses, or the refusal."""
    dst = src.with_name("out" + EXTENSION[writer])
    dst.unlink(missing_ok=True)
    try:
        result = convert_file(src, dst, to_fmt=writer)
    except FormatError as e:  # the file refused (unreadable), or the target refused (cannot hold it)
        assert not dst.exists(), f"{writer}: refused, yet wrote the file"
        return ("refused", e.full())
    return ("written", dst.read_bytes(), result.notices, result.losses)


def opened(src: Path) -> str | bool:
    """Whether ``src`` opens lazily, or why it does not open at all (a binary file, say)."""
    try:
        doc = read_file(src)
    except FormatError as e:
        return e.full()
    return lazy_text(doc) is not None


def same_everywhere(text: str, suffix: str, threshold: int, checkpoint: int, cache: int, chunk: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        src = Path(folder) / f"set{suffix}"
        src.write_bytes(text.encode("utf-8", "surrogateescape"))
        with read_whole():
            whole_read = opened(src)
            whole = {writer: outcome(src, writer) for writer in WRITERS}
        with small_lazy_sizes(min(threshold, src.stat().st_size), checkpoint, cache, chunk):
            lazy_read = opened(src)
            if isinstance(whole_read, str):  # a file neither reader opens: the same reason
                assert lazy_read == whole_read
            else:  # the lazy LIN reader leaves a file without one deal to the whole reader
                assert whole_read is False and (lazy_read is True or "md|" not in text)
            for writer in WRITERS:
                assert outcome(src, writer) == whole[writer], f"{writer}: lazy and whole differ on\n{text}"


SIZES = dict(
    threshold=st.integers(0, 400),
    checkpoint=st.sampled_from((1, 2, 3, 256)),
    cache=st.sampled_from((1, 2, 256)),
    chunk=st.sampled_from((1, 2, 3, 1 << 16)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games=st.lists(pbn_games(), min_size=1, max_size=7), **SIZES)
@example(  # a board of five tables and a game without cards: the chunked path gives way to the board-by-board one
    games=[TABLE_OF_BOARD_1] * 5 + ['[Scoring "IMP"]\n'], threshold=0, checkpoint=1, cache=1, chunk=1
)
@example(  # board 1 twice with different deals, one of them cut short: the record it cannot store is named first
    games=[
        '[Board "2"]\n[Deal "N:765.432.AKQJ.T98 432.AKQJ.T98.765 AKQJ.T98.765.432 T98.765.432.AKQJ"]\n',
        '[Board "1"]\n[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.76"]\n',
        TABLE_OF_BOARD_1,
    ],
    threshold=0,
    checkpoint=1,
    cache=1,
    chunk=1,
)
def test_every_writer_on_a_lazy_pbn_is_the_whole_file_writer(games, threshold, checkpoint, cache, chunk) -> None:
    text = "% PBN 2.1\n% EXPORT\n\n" + "\n".join(games)
    same_everywhere(text, ".pbn", threshold, checkpoint, cache, chunk)


def test_a_lazy_pbn_with_a_game_without_cards_converts_to_every_format() -> None:
    """The reported case: one card-less game among full ones, converted to CDS (a numpy TypeError)."""
    games = [
        f'[Board "{n}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{_deal(n)}"]\n' if n != 3 else '[Scoring "IMP"]\n'
        for n in range(1, 6)
    ]
    same_everywhere("\n".join(games), ".pbn", 0, 256, 256, 1 << 16)


LIN_HANDS = ("SAKQJHT98D765C432", "ST98H765D432CAKQJ", "S765H432DAKQJCT98")

#: LIN boards with something wrong that both readers open: a bad board number, a bad pair (a card that
#: is not one, a malformed ``md|``: the board is marked unreadable and the rest opens), a partial deal (a
#: lesson's ending, written as BBO writes it) and markup in a player's name.
BROKEN_LIN = (
    "qx|o5|ah|Board x|md|1SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,|",
    "qx|o6|ah|Board 99999|md|1SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,|sv|q|",
    "qx|o7|md|2SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,|pn|<b>a,b,c,d|mb|1N|mb|p|an|why|",
    "qx|o8|md|3SAKQJHT98D765C432,ST98H765D432CAKQJ,S765H432DAKQJCT98,|mb|1N|mb|p|mb|p|mb|p|pc|NT2|",
    "qx|o9|md|4SAKQJHT98D765C432,SZZ,S765H432DAKQJCT98,|ah|Board 9|",
    "qx|o10|md|1SAKQ,SJT9,S876,S5432|ah|Board 10|sv|o|",
)


@st.composite
def lin_boards(draw) -> str:
    kind = draw(st.sampled_from(("full", "full", "full", "cardless", "broken")))
    number = draw(NUMBERS)
    if kind == "cardless":
        return f"qx|o{number}|ah|Board {number}|sv|o|"
    if kind == "broken":
        return draw(st.sampled_from(BROKEN_LIN))
    dealer = draw(st.integers(1, 4))
    vul = draw(st.sampled_from("oneb"))
    calls = draw(
        st.sampled_from(("", "mb|1N|mb|p|mb|p|mb|p|", "mb|p|mb|p|mb|p|mb|p|", "mb|1N!|mb|p|mb|p|mb|p|", "pc|D5|"))
    )  # (an alert without its explanation, and a card without an auction, are lost in PBN)
    return f"qx|o{number}|md|{dealer}{','.join(LIN_HANDS)},|ah|Board {number}|sv|{vul}|{calls}"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards=st.lists(lin_boards(), min_size=1, max_size=7), **SIZES)
@example(  # no board can be read: both readers refuse the file, with the same error
    boards=[BROKEN_LIN[3]], threshold=0, checkpoint=1, cache=1, chunk=1
)
@example(  # a game without cards left out: the board that cannot be read is named by its record in the file
    boards=["qx|o1|ah|Board 1|sv|o|", BROKEN_LIN[3]], threshold=0, checkpoint=1, cache=1, chunk=1
)
@example(  # a record that cannot be read is no other table of board 8, left out: it is refused
    boards=[
        f"qx|o8|md|1{','.join(LIN_HANDS)},|ah|Board 8|sv|o|",
        f"qx|o8|md|3{','.join(LIN_HANDS)},|mb|1N|mb|p|mb|p|mb|p|pc|NT2|",
    ],
    threshold=0,
    checkpoint=1,
    cache=1,
    chunk=1 << 16,
)
@example(  # what PBN loses of LIN boards is told of each untouched board too
    boards=[
        f"qx|o1|md|1{','.join(LIN_HANDS)},|ah|Board 1|sv|o|pc|D5|",
        f"qx|o2|md|1{','.join(LIN_HANDS)},|ah|Board 2|sv|o|mb|1N!|mb|p|mb|p|mb|p|",
    ],
    threshold=0,
    checkpoint=1,
    cache=1,
    chunk=1,
)
@example(  # a partial deal before it in the same chunk: the errors come in board order
    boards=[BROKEN_LIN[5], BROKEN_LIN[3]], threshold=0, checkpoint=1, cache=1, chunk=2
)
def test_every_writer_on_a_lazy_lin_is_the_whole_file_writer(boards, threshold, checkpoint, cache, chunk) -> None:
    same_everywhere("\n".join(boards) + "\n", ".lin", threshold, checkpoint, cache, chunk)


@pytest.mark.parametrize("tables", [False, True], ids=["boards", "two-tables"])
@pytest.mark.parametrize("writer", ["cds", "zrd", "bri", "lin", "csv"])
def test_save_as_in_the_window_on_a_lazy_set_with_a_game_without_cards(
    qtbot, tmp_path, messages, writer, tables
) -> None:
    """File › Save As… of a big PBN with a card-less game writes what the command line writes for the
    same file read whole, and tells the same losses; with a board played at two tables too (the chunked
    check gives way to the board-by-board one, which must leave the card-less game out as well)."""
    from test_ui_support import main_window

    from bridgeview.ui import dialogs

    games = [
        f'[Board "{n}"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{_deal(n)}"]\n' if n != 3 else '[Scoring "IMP"]\n'
        for n in range(1, 6)
    ]
    if tables:
        games.append(games[0])
    src = tmp_path / "big.pbn"
    src.write_text("\n".join(games))
    with read_whole():
        whole = outcome(src, writer)
    assert whole[0] == "written"
    with small_lazy_sizes(1, 2, 2, 1 << 16):
        w = main_window(qtbot, tmp_path)
        assert w.open_file(str(src)), messages.calls
        assert lazy_text(w.current_view().boards) == "pbn"
        messages.answer = dialogs.Button.Save
        out = tmp_path / f"saved{EXTENSION[writer]}"
        assert w.save_as(str(out), writer), messages.calls
    assert out.read_bytes() == whole[1]
    told = "\n".join(text for _kind, _title, text in messages.calls)
    assert all(loss in told for loss in whole[3]), (whole[3], told)
