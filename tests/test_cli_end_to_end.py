"""The issue-2 command-line contract, end to end, across the formats that exist.

``convert`` (format by extension, by sniffing, ``--from``/``--to``,
``--start-board``, what it drops, what it refuses without touching the target),
``info`` (format, boards, Pavlicek checksum, file fields), ``validate`` (exit
codes, one problem a line), ``dump`` (the JSON shape of the issue),
``formats``, usage errors and every ``--help``.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import REALDATA, REPO, realdata_files

from bridgeview.cli.main import build_parser, main
from bridgeview.formats.codec import WriteOptions
from bridgeview.formats.errors import FormatError
from bridgeview.formats.registry import all_codecs, by_extension, detect, get, read_file, write_file
from bridgeview.model.auction import Call
from bridgeview.model.board import Board
from bridgeview.model.boardset import BoardSet, FileInfo
from bridgeview.model.cards import Card, Seat, Strain
from bridgeview.model.ddtable import DDTable
from bridgeview.model.deal import Deal
from bridgeview.model.play import trick_winner

NAMES = {c.name for c in all_codecs()}
BRIDGE = sorted(c.name for c in all_codecs() if c.kind == "bridge" and c.can_write)
SIXTEEN = {ext: REALDATA / ext / f"dealconvert_test_16boards.{ext}" for ext in ("bri", "dge", "dup", "pbn")}
BOARD_KEYS = ["board", "dealer", "vulnerable", "deal", "dd", "auction", "play", "contract", "declarer", "result"]


def need_real(*exts: str) -> None:
    for ext in exts:
        if not SIXTEEN[ext].is_file():
            pytest.skip(f"../shared/realdata has no {SIXTEEN[ext].name}")


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def one_error_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("bridgeview: "), err
    assert "Traceback" not in err
    return lines[0]


# -- generated boards ---------------------------------------------------------------
full_deal = Deal.shuffled


def legal_play(deal: Deal, declarer: Seat, count: int) -> list[Card]:
    """``count`` legal cards of a notrump contract (lowest card, following suit)."""
    hands = list(deal.hands)
    play, trick, leader = [], [], int(declarer.next)
    while len(play) < count:
        seat = (leader + len(trick)) % 4
        own = [c for c in range(52) if hands[seat] >> c & 1]
        follow = [c for c in own if trick and c // 13 == trick[0] // 13]
        card = min(follow or own)
        hands[seat] &= ~(1 << card)
        trick.append(card)
        play.append(Card(card))
        if len(trick) == 4:
            leader, trick = int(trick_winner(trick, leader, Strain.NOTRUMP)), []
    return play


def boards(n: int = 4, *, dd: bool = False, auction: bool = False, first: int = 1, seed: int = 7) -> BoardSet:
    rng = random.Random(seed)
    out = BoardSet([], FileInfo())
    for number in range(first, first + n):
        b = Board.numbered(number, full_deal(rng))
        if dd:
            b.dd = DDTable.from_rows([[rng.randint(0, 13) for _ in range(5)] for _ in range(4)])
        if auction:
            b.auction = [Call.parse(t) for t in ("1NT", "P", "3NT", "P", "P", "X", "XX", "P", "P", "P")]
            b.play = legal_play(b.deal, b.effective_dealer, 5)
        out.append(b)
    return out


def deals_of(path: Path, fmt: str | None = None) -> list[Deal]:
    return [b.deal for b in read_file(path, fmt)]


def pavlicek(data: bytes) -> int:
    """The checksum, computed independently of the program: sum of little-endian 32-bit words."""
    padded = data + b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f"<{len(padded) // 4}I", padded)) % (1 << 64)


def info_fields(out: str) -> dict[str, str]:
    fields = {}
    for line in out.splitlines():
        key, _, value = line.partition(":")
        fields[key.strip()] = value.strip()
    return fields


# -- convert ------------------------------------------------------------------------
@pytest.mark.parametrize("src_ext,dst_ext", [("bri", "pbn"), ("dge", "bri"), ("dup", "dge"), ("pbn", "dup")])
def test_convert_real_files_by_extension_keeps_the_16_deals(capsys, tmp_path, src_ext, dst_ext):
    need_real(src_ext, "pbn")
    out = tmp_path / f"out.{dst_ext}"
    rc, stdout, err = run(capsys, "convert", SIXTEEN[src_ext], out)
    assert rc == 0, err
    assert stdout == ""
    assert "Traceback" not in err and all(line.startswith("bridgeview: ") for line in err.splitlines())
    assert detect(out).name == dst_ext
    assert deals_of(out) == deals_of(SIXTEEN["pbn"])
    assert [b.number for b in read_file(out)] == list(range(1, 17))


@pytest.mark.parametrize("fmt", BRIDGE)
def test_convert_round_trip_through_every_format_by_extension(capsys, tmp_path, fmt):
    src = tmp_path / "src.deals"
    write_file(boards(5), src, "deals")
    codec = get(fmt)
    mid = tmp_path / f"mid.{codec.extensions[0]}"
    back = tmp_path / "back.deals"
    to = ["--to", fmt] if len(by_extension(mid)) > 1 else []  # .zrj has two variants
    rc, _, err = run(capsys, "convert", src, mid, *to)
    if not codec.caps.full_deals:  # ZDD holds DD results only: no deals to bring back
        assert rc in (0, 1), err
        return
    assert rc == 0, err
    assert read_file(mid).info.format == fmt
    rc, _, err = run(capsys, "convert", mid, back)
    assert rc == 0, err
    assert deals_of(back) == deals_of(src)


@pytest.mark.parametrize("fmt", BRIDGE)
def test_convert_sniffs_a_file_without_extension(capsys, tmp_path, fmt):
    codec = get(fmt)
    rich = boards(3, dd=codec.caps.dd, auction=codec.caps.auction)
    src = tmp_path / "noext"
    try:
        write_file(rich, src, fmt)
    except FormatError:  # a format that cannot hold these boards has nothing to sniff here
        pytest.skip(f"{fmt} cannot hold the generated boards")
    assert detect(src).name == fmt
    out = tmp_path / "out.deals"
    rc, _, err = run(capsys, "convert", src, out)
    assert rc == 0, err
    if codec.caps.full_deals:
        assert deals_of(out) == [b.deal for b in rich]


def test_from_overrides_a_misleading_extension(capsys, tmp_path):
    src = tmp_path / "really_pbn.bri"
    write_file(boards(3), src, "pbn")
    out = tmp_path / "out.deals"
    rc, _, err = run(capsys, "convert", "--from", "pbn", src, out)
    assert rc == 0, err
    assert deals_of(out) == [b.deal for b in boards(3)]


def test_to_picks_the_zrj_variant(capsys, tmp_path):
    src = tmp_path / "src.zrd"
    write_file(boards(3, dd=True), src, "zrd")
    for variant, size in (("zrj16", 16), ("zrj", 80)):
        out = tmp_path / f"{variant}.zrj"
        rc, _, err = run(capsys, "convert", src, out, "--to", variant)
        assert rc == 0, err
        assert out.stat().st_size == 3 * size
        assert detect(out).name == variant
        assert deals_of(out) == [b.deal for b in boards(3, dd=True)]
    rc, out, _ = run(capsys, "info", tmp_path / "zrj16.zrj")
    assert rc == 0 and info_fields(out)["format"].split()[0] == "zrj16"


def test_to_unknown_format_is_a_one_line_error_and_writes_nothing(capsys, tmp_path):
    src = tmp_path / "src.deals"
    write_file(boards(2), src, "deals")
    for argv in (
        ["convert", src, tmp_path / "out.xyz"],
        ["convert", src, tmp_path / "out.pbn", "--to", "nosuch"],
        ["convert", src, tmp_path / "out.deals", "--from", "nosuch"],
    ):
        rc, _, err = run(capsys, *argv)
        assert rc == 1, err
        one_error_line(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["src.deals"]


def test_start_board_numbers_boards_of_formats_that_store_none(capsys, tmp_path):
    src = tmp_path / "src.bri"
    write_file(boards(3), src, "bri")
    out = tmp_path / "out.pbn"
    rc, _, err = run(capsys, "convert", src, out, "--start-board", "17")
    assert rc == 0, err
    got = read_file(out)
    assert [b.number for b in got] == [17, 18, 19]
    # dealer and vulnerability follow the new numbers (board 17 is dealt like board 1)
    assert [(b.effective_dealer, b.effective_vulnerability.text) for b in got] == [
        (Seat.NORTH, "None"),
        (Seat.EAST, "NS"),
        (Seat.SOUTH, "EW"),
    ]
    rc, out_json, _ = run(capsys, "dump", src, "--start-board", "5")
    assert rc == 0 and [b["board"] for b in json.loads(out_json)["boards"]] == [5, 6, 7]


def test_start_board_goes_into_a_dup_target(capsys, tmp_path):
    src = tmp_path / "src.bri"
    write_file(boards(3), src, "bri")
    out = tmp_path / "out.dup"
    rc, _, err = run(capsys, "convert", src, out, "--start-board", "9")
    assert rc == 0, err
    assert [b.number for b in read_file(out)] == [9, 10, 11]
    rc, info, _ = run(capsys, "info", out)
    assert info_fields(info)["dup first board"] == "9"


@pytest.mark.parametrize("value", ["0", "-3", "x", "99999999999999999999999"])
@pytest.mark.parametrize("command", ["convert", "dump", "validate"])
def test_start_board_must_be_a_sensible_board_number(capsys, tmp_path, value, command):
    """A usage error (exit 2), not boards numbered 0 or -3, nor a numpy overflow traceback."""
    src = tmp_path / "src.bri"
    write_file(boards(2), src, "bri")
    argv = [command, str(src)] + ([str(tmp_path / "out.pbn")] if command == "convert" else [])
    with pytest.raises(SystemExit) as e:
        main([*argv, "--start-board", value])
    assert e.value.code == 2
    assert "--start-board" in capsys.readouterr().err
    assert not (tmp_path / "out.pbn").exists()


@pytest.mark.parametrize(
    "src_fmt,dst", [("zrd", "out.zbd"), ("zrd", "out.bri"), ("pbn", "out.dge"), ("zrd", "out.deals")]
)
def test_convert_says_what_dd_results_it_drops(capsys, tmp_path, src_fmt, dst):
    src = tmp_path / f"src.{src_fmt}"
    write_file(boards(5, dd=True), src, src_fmt)
    rc, stdout, err = run(capsys, "convert", src, tmp_path / dst)
    assert rc == 0, err
    assert stdout == ""
    assert "bridgeview: dropped: double-dummy results of 5 boards" in err.splitlines()


def test_convert_says_nothing_when_nothing_is_dropped(capsys, tmp_path):
    src = tmp_path / "src.zrd"
    write_file(boards(3, dd=True), src, "zrd")
    rc, _, err = run(capsys, "convert", src, tmp_path / "out.pbn")
    assert rc == 0 and "dropped" not in err, err
    assert [b.dd for b in read_file(tmp_path / "out.pbn")] == [b.dd for b in boards(3, dd=True)]


def test_convert_says_it_drops_auctions_and_play(capsys, tmp_path):
    src = tmp_path / "src.pbn"
    write_file(boards(2, auction=True), src, "pbn")
    rc, _, err = run(capsys, "convert", src, tmp_path / "out.zbd")
    assert rc == 0, err
    assert "bridgeview: dropped: auctions of 2 boards" in err.splitlines()
    assert "bridgeview: dropped: play of 2 boards" in err.splitlines()


def _partial_source(tmp_path: Path, fmt: str) -> Path:
    """Boards 1 and 2 full, board 3 an ending of three cards a hand."""
    bs = boards(3)
    ending = Deal.from_pbn("N:AKQ... JT9... 876... 543...")
    bs[2] = Board.numbered(3, ending)
    src = tmp_path / f"src.{get(fmt).extensions[0]}"
    write_file(bs, src, fmt)
    return src


@pytest.mark.parametrize("src_fmt", ["pbn", "deals", "zbs"])
@pytest.mark.parametrize("dst_fmt", ["zbd", "bri", "dge", "bre", "dup", "zrd", "zrj", "zrj16", "lin"])
def test_partial_deal_to_a_full_deal_format_names_the_board_and_writes_nothing(capsys, tmp_path, src_fmt, dst_fmt):
    codec = get(dst_fmt)
    if codec.caps.partial_deals:
        pytest.skip(f"{dst_fmt} holds partial deals")
    src = _partial_source(tmp_path, src_fmt)
    target = tmp_path / f"new.{codec.extensions[0]}"
    to = ["--to", dst_fmt]
    rc, stdout, err = run(capsys, "convert", src, target, *to)
    assert rc == 1
    line = one_error_line(err)
    assert "board 3" in line or "record 3" in line, line
    assert "complete" in line or "full" in line or "partial" in line, line
    assert not target.exists()
    assert stdout == ""
    # an existing target is left exactly as it was, and no temporary file stays behind
    existing = tmp_path / f"old.{codec.extensions[0]}"
    existing.write_bytes(b"precious bytes")
    rc, _, err = run(capsys, "convert", src, existing, *to)
    assert rc == 1
    one_error_line(err)
    assert existing.read_bytes() == b"precious bytes"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([src.name, existing.name])


def test_board_241_in_zrj_is_an_error_naming_the_board(capsys, tmp_path):
    src = tmp_path / "src.pbn"
    write_file(boards(3, first=239), src, "pbn")
    target = tmp_path / "out.zrj"
    target.write_bytes(b"keep me")
    rc, _, err = run(capsys, "convert", src, target, "--to", "zrj")
    assert rc == 1
    assert "board 241" in one_error_line(err)
    assert target.read_bytes() == b"keep me"


def test_too_many_boards_for_dup_is_an_error(capsys, tmp_path):
    src = tmp_path / "src.deals"
    write_file(boards(3), src, "deals")
    rc, _, err = run(capsys, "convert", src, tmp_path / "out.dup", "--start-board", "998")
    assert rc == 1
    assert "1000" in one_error_line(err)
    assert not (tmp_path / "out.dup").exists()


def test_convert_of_a_broken_file_is_one_located_line(capsys, tmp_path):
    src = tmp_path / "cut.zbd"
    write_file(boards(3), src, "zbd")
    src.write_bytes(src.read_bytes()[:31])  # two records and 5 stray bytes: a truncated copy
    rc, _, err = run(capsys, "convert", src, tmp_path / "out.pbn")
    assert rc == 0
    assert err.splitlines() == [
        "bridgeview: dropped: the unreadable end of the file (the file ends inside record 3 "
        "(offset 26): 5 bytes of a 13-byte ZBD (Pavlicek binary deal) record, not read)"
    ]
    assert len(read_file(tmp_path / "out.pbn")) == 2
    src.write_bytes(src.read_bytes()[:5])  # not even one record
    rc, _, err = run(capsys, "convert", src, tmp_path / "out2.pbn")
    assert rc == 1
    line = one_error_line(err)
    assert line.startswith(f"bridgeview: {src}: record 1 (offset 0): "), line
    assert not (tmp_path / "out2.pbn").exists()


# -- info -----------------------------------------------------------------------------
@pytest.mark.parametrize("fmt", BRIDGE)
def test_info_prints_format_boards_and_pavlicek_checksum(capsys, tmp_path, fmt):
    codec = get(fmt)
    bs = boards(4, dd=codec.caps.dd, auction=codec.caps.auction)
    path = tmp_path / f"f.{codec.extensions[0]}"
    write_file(bs, path, fmt)
    rc, out, err = run(capsys, "info", path)
    assert rc == 0 and err == ""
    fields = info_fields(out)
    assert fields["format"].split()[0] == fmt
    assert int(fields["boards"]) == 4
    assert int(fields["checksum"], 16) == pavlicek(path.read_bytes())
    assert fields["file"] == str(path)


def test_info_checksum_of_the_real_files(capsys):
    for ext, path in SIXTEEN.items():
        if not path.is_file():
            continue
        rc, out, _ = run(capsys, "info", path)
        fields = info_fields(out)
        assert rc == 0
        assert fields["format"].split()[0] == ext
        assert fields["boards"] == "16"
        assert int(fields["checksum"], 16) == pavlicek(path.read_bytes())


def test_info_shows_the_file_level_fields(capsys, tmp_path):
    bs = boards(2)
    bs.info.event, bs.info.site, bs.info.date = "Spring Pairs", "Oslo", "2024.04.01"
    for fmt in ("bre", "pbn"):
        path = tmp_path / f"f.{fmt}"
        write_file(bs, path, fmt)
        rc, out, _ = run(capsys, "info", path)
        fields = info_fields(out)
        assert rc == 0
        assert (fields["event"], fields["site"], fields["date"]) == ("Spring Pairs", "Oslo", "2024.04.01")


def test_info_shows_dup_control_fields(capsys):
    need_real("dup")
    rc, out, _ = run(capsys, "info", SIXTEEN["dup"])
    fields = info_fields(out)
    assert rc == 0
    assert fields["dup random"] == "yes"
    assert fields["dup backwards"] == "no"
    assert fields["dup first board"] == "1"
    assert fields["dup last board"] == "16"
    assert fields["board numbers"] == "1-16"


def test_info_of_an_empty_file_is_a_clean_answer(capsys, tmp_path):
    path = tmp_path / "empty.zbd"
    path.write_bytes(b"")
    rc, _, err = run(capsys, "info", path)
    assert rc in (0, 1)
    if rc:
        one_error_line(err)


# -- validate -------------------------------------------------------------------------
BAD_PBN = """\
[Event "Club night"]
[Board "1"]
[Dealer "E"]
[Vulnerable "None"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
[Auction "E"]
1H 1S 1H Pass
Pass Pass

[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]

[Board "3"]
[Dealer "S"]
[Vulnerable "EW"]
[Deal "N:AKQJ.T98.765.43 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.7652"]
"""


def test_validate_clean_file_exits_0(capsys, tmp_path):
    path = tmp_path / "good.pbn"
    write_file(boards(4, dd=True, auction=True), path, "pbn")
    rc, out, err = run(capsys, "validate", path)
    assert rc == 0, out + err
    assert out.strip() == f"{path}: 4 boards, no problems"
    assert err == ""


def test_validate_lists_every_problem_and_exits_1(capsys, tmp_path):
    path = tmp_path / "bad.pbn"
    path.write_text(BAD_PBN)
    rc, out, err = run(capsys, "validate", path)
    assert rc == 1
    lines = out.splitlines()
    assert all(line.startswith(f"{path}: ") for line in lines), lines
    text = "\n".join(lines)
    assert "board 1" in text and "insufficient" in text  # 1H after 1S
    assert "dealer E but board 1 is dealt by N" in text
    assert "board 2" in text and "same deal as board 1" in text
    assert "board 3" in text and ("12 cards" in text or "14 cards" in text)  # N has 12, W 14
    assert err.strip().endswith("problems in 3 boards")


def test_validate_binary_duplicate_deals_exit_1(capsys, tmp_path):
    bs = boards(3)
    bs[2] = bs[2].copy(deal=bs[0].deal)
    path = tmp_path / "dup.zbd"
    write_file(bs, path, "zbd")
    rc, out, _ = run(capsys, "validate", path)
    assert rc == 1
    assert f"{path}: record 3 (offset 26), board 3: same deal as board 1" in out.splitlines()


def test_validate_of_an_unreadable_file_is_one_error_line(capsys, tmp_path):
    path = tmp_path / "cut.zbd"
    path.write_bytes(b"\x01" * 10)  # not even one record (a longer cut file opens its whole records)
    rc, out, err = run(capsys, "validate", path)
    assert rc == 1
    one_error_line(err)


# -- dump -----------------------------------------------------------------------------
def test_dump_json_shape(capsys, tmp_path):
    bs = boards(2, dd=True, auction=True)
    path = tmp_path / "f.pbn"
    write_file(bs, path, "pbn")
    rc, out, err = run(capsys, "dump", path)
    assert rc == 0 and err == ""
    data = json.loads(out)
    assert list(data)[:2] == ["format", "boards"] and set(data) <= {"format", "boards", "event", "site", "date"}
    assert data["format"] == "pbn"
    assert len(data["boards"]) == 2
    for b, src in zip(data["boards"], bs, strict=True):
        assert list(b) == BOARD_KEYS
        assert b["board"] == src.number
        assert b["dealer"] == src.effective_dealer.letter
        assert b["vulnerable"] == src.effective_vulnerability.text
        assert b["vulnerable"] in ("None", "NS", "EW", "All")
        assert b["deal"] == src.deal.to_pbn() and b["deal"].startswith("N:")
        assert list(b["dd"]) == ["N", "E", "S", "W"]
        for seat in "NESW":
            assert list(b["dd"][seat]) == ["NT", "S", "H", "D", "C"]
            assert all(isinstance(v, int) for v in b["dd"][seat].values())
        assert b["dd"]["N"]["NT"] == src.dd.get(Seat.NORTH, Strain.NOTRUMP)
        assert b["dd"]["W"]["C"] == src.dd.get(Seat.WEST, Strain.CLUBS)
        assert b["auction"] == ["1NT", "P", "3NT", "P", "P", "X", "XX", "P", "P", "P"]
        assert b["play"] == [str(c) for c in src.play]
        assert all(len(c) == 2 and c[0] in "SHDC" and c[1] in "23456789TJQKA" for c in b["play"])
        assert b["contract"] == "3NTXX"
        assert b["declarer"] == src.effective_dealer.letter  # the dealer opened 1NT
        assert b["result"] is None


def test_dump_of_a_deal_only_file_has_nulls(capsys, tmp_path):
    path = tmp_path / "f.zbd"
    write_file(boards(2), path, "zbd")
    rc, out, _ = run(capsys, "dump", path)
    assert rc == 0
    data = json.loads(out)
    assert data["format"] == "zbd"
    b = data["boards"][1]
    assert list(b) == BOARD_KEYS
    assert (b["board"], b["dealer"], b["vulnerable"]) == (2, "E", "NS")
    assert b["dd"] is None and b["contract"] is None and b["declarer"] is None and b["result"] is None
    assert b["auction"] in ([], None) and b["play"] in ([], None)


def test_dump_of_real_lin_with_result(capsys):
    path = REALDATA / "lin" / "endplay_example1.lin"
    if not path.is_file():
        pytest.skip("no real LIN file")
    rc, out, _ = run(capsys, "dump", path)
    assert rc == 0
    b = json.loads(out)["boards"][0]
    assert list(b) == BOARD_KEYS
    assert b["contract"] == "5H" and b["declarer"] == "S" and b["result"] == 12
    assert len(b["play"]) == 52 and b["play"][0] == "C9"


def test_dump_of_the_dd_only_format(capsys, tmp_path):
    path = tmp_path / "f.zdd"
    bs = boards(2, dd=True)
    write_file(bs, path, "zdd")
    rc, out, _ = run(capsys, "dump", path)
    assert rc == 0
    data = json.loads(out)
    assert [b["dd"]["S"]["H"] for b in data["boards"]] == [b.dd.get(Seat.SOUTH, Strain.HEARTS) for b in bs]
    assert all(b["deal"].startswith("N:") for b in data["boards"])


# -- formats, usage, help ---------------------------------------------------------------
def test_formats_table_lists_every_codec(capsys):
    rc, out, _ = run(capsys, "formats")
    assert rc == 0
    lines = out.splitlines()
    assert len(lines) == len(all_codecs())
    for c in all_codecs():
        row = next(line for line in lines if line.split()[0] == c.name)
        for ext in c.extensions:
            assert f".{ext}" in row
        assert ("read/write" if c.can_write else "read") in row
        assert c.title in row
    zbs = next(line for line in lines if line.split()[0] == "zbs")
    assert "partial deals" in zbs


def test_formats_markdown_table(capsys):
    rc, out, _ = run(capsys, "formats", "--markdown")
    assert rc == 0
    rows = [line for line in out.splitlines() if line.startswith("| `")]
    assert len(rows) == len(all_codecs())


@pytest.mark.parametrize(
    "argv",
    [
        ["convert"],
        ["convert", "a.pbn"],
        ["convert", "a.pbn", "b.bri", "--start-board", "x"],
        ["info"],
        ["validate"],
        ["dump"],
        ["info", "a.pbn", "--bogus"],
        ["--bogus"],
        ["formats", "extra"],
        ["convert", "a", "b", "--to"],
    ],
)
def test_usage_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "usage: bridgeview" in err and "Traceback" not in err


def test_help_of_bridgeview_and_every_command(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    top = capsys.readouterr().out
    assert top.startswith("usage: bridgeview")
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0 and capsys.readouterr().out.startswith("bridgeview ")
    _, commands = build_parser()
    for name in ("convert", "info", "validate", "dump", "formats"):
        assert name in commands and name in top
    for name in commands:
        with pytest.raises(SystemExit) as e:
            main([name, "--help"])
        assert e.value.code == 0, name
        assert capsys.readouterr().out.startswith(f"usage: bridgeview {name}")


def test_console_script_and_module_run():
    """The installed entry points, once each as real processes: the console script of this
    interpreter's environment (not whichever ``bridgeview`` comes first on PATH) and ``-m``."""
    script = str(Path(sys.executable).parent / "bridgeview")
    for cmd in ([script, "--help"], [sys.executable, "-m", "bridgeview", "formats"]):
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        assert proc.stdout and proc.stderr == ""
    proc = subprocess.run([script, "info", "/nonexistent/x.pbn"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert proc.stderr.startswith("bridgeview: ") and len(proc.stderr.splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_write_options_start_board_reaches_the_writer(tmp_path):
    """``--start-board`` on output of a format that stores its first board (DUP) via the API too."""
    path = tmp_path / "f.dup"
    write_file(boards(2, first=5), path, "dup", WriteOptions(start_board=5))
    assert [b.number for b in read_file(path)] == [5, 6]


REAL_BY_CONTENT = [p for ext in ("bri", "dge", "dup", "pbn", "lin") for p in realdata_files(ext, f"*.{ext}")[:2]]


@pytest.mark.parametrize("path", REAL_BY_CONTENT, ids=lambda p: p.name)
def test_real_files_are_sniffed_without_their_extension(capsys, tmp_path, path):
    fmt = path.suffix[1:]
    bare = tmp_path / path.stem
    bare.write_bytes(path.read_bytes())
    rc, out, err = run(capsys, "info", bare)
    assert rc == 0, err
    assert info_fields(out)["format"].split()[0] == fmt
    rc, _, err = run(capsys, "convert", bare, tmp_path / "out.pbn" if fmt != "pbn" else tmp_path / "out.lin")
    assert rc == 0, err


def test_output_into_a_missing_directory_or_onto_a_directory_names_the_target(capsys, tmp_path):
    src = tmp_path / "src.deals"
    write_file(boards(2), src, "deals")
    (tmp_path / "taken.pbn").mkdir()
    (tmp_path / "out").mkdir()
    for target, reason in (
        (tmp_path / "missing" / "out.pbn", "No such file or directory"),
        (tmp_path / "taken.pbn", "Is a directory"),
        # written as a file named "missing", "x.lin" and out/x.lin before, where the system refuses the name
        (f"{tmp_path / 'missing'}{os.sep}", "Is a directory"),
        (f"{tmp_path / 'out' / 'x.lin'}{os.sep}", "Is a directory"),
        (tmp_path / "out" / "sub" / ".." / "x.lin", "No such file or directory"),
    ):
        rc, _, err = run(capsys, "convert", src, target)
        assert rc == 1
        assert one_error_line(err) == f"bridgeview: {target}: {reason}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "src.deals", "taken.pbn"]  # no temporary left
    assert list((tmp_path / "out").iterdir()) == []


def test_pbn_placeholders_are_not_reported_as_dropped(capsys, tmp_path):
    """PBN's "?" (unknown) in Event/Site/Date and the seat tags carries nothing a target could lose:
    boards without a header, written to PBN and converted on, must not be said to drop anything."""
    src = tmp_path / "plain.pbn"
    write_file(boards(3), src, "pbn")
    rc, _, err = run(capsys, "convert", src, tmp_path / "out.deals")
    assert rc == 0, err
    assert err == ""


def test_info_does_not_show_pbn_placeholders_as_file_fields(capsys, tmp_path):
    src = tmp_path / "plain.pbn"
    write_file(boards(2), src, "pbn")
    rc, out, _ = run(capsys, "info", src)
    assert rc == 0
    fields = info_fields(out)
    assert all(fields.get(key) in (None, "") for key in ("event", "site", "date")), out


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_only_on_a_terminal_and_only_after_the_delay():
    from bridgeview.cli.common import Progress

    tty = _Terminal()
    bar = Progress("converting", delay=0.0, stream=tty)
    bar(5, 10)
    bar.close()
    assert "converting [" in tty.getvalue() and "5/10" in tty.getvalue() and tty.getvalue().endswith("\n")
    slow = _Terminal()
    quiet = Progress("converting", delay=3600, stream=slow)
    quiet(5, 10)
    quiet.close()
    assert slow.getvalue() == ""
    pipe = io.StringIO()
    never = Progress("converting", delay=0.0, stream=pipe)
    never(5, 10)
    never.close()
    assert pipe.getvalue() == ""


def test_progress_bar_ticks_while_nothing_is_counted():
    """A slow step that reports no counts (reading a big text file) still shows the bar after the delay."""
    import time

    from bridgeview.cli.common import Progress

    tty = _Terminal()
    bar = Progress("converting", delay=0.05, stream=tty, counts=False)
    deadline = time.monotonic() + 5  # a busy machine may schedule the ticker late
    while not tty.getvalue() and time.monotonic() < deadline:
        time.sleep(0.05)
    shown = tty.getvalue()
    assert shown.startswith("\rconverting [") and "###" in shown and shown.rstrip().endswith("s"), shown
    bar(3, 4)
    bar(4, 4)  # the last count is always drawn, however soon after the one before
    bar.close()
    out = tty.getvalue()
    assert " 100.0%" in out and "4/4" not in out and out.endswith("\n")
    assert not bar._ticker.is_alive()  # close joined the ticker: nothing can draw after it
    assert tty.getvalue() == out


def test_slow_conversion_reports_boards_through_check_and_write(tmp_path):
    """The per-board path (here PBN -> LIN) tells the progress bar how far it got, not only that it ended,
    and never goes back."""
    from bridgeview.formats.codec import Cancelled
    from bridgeview.formats.convert import convert_file

    src = tmp_path / "in.pbn"
    write_file(boards(300), src, "pbn")
    seen: list[tuple[int, int]] = []
    convert_file(src, tmp_path / "out.lin", progress=lambda done, total: seen.append((done, total)) or True)
    assert {t for _, t in seen} == {600}
    assert seen[-1] == (600, 600)
    assert any(0 < d < 300 for d, _ in seen) and any(300 < d < 600 for d, _ in seen), seen
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert len(read_file(tmp_path / "out.lin")) == 300
    with pytest.raises(Cancelled):
        convert_file(src, tmp_path / "gone.lin", progress=lambda done, total: done < 400)
    assert not (tmp_path / "gone.lin").exists() and not list(tmp_path.glob(".gone.lin.*"))


REVOKE_PBN = """\
[Board "4"]
[Dealer "W"]
[Vulnerable "All"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.765"]
[Declarer "S"]
[Contract "3NT"]
[Auction "W"]
Pass Pass Pass 3NT
Pass Pass Pass
[Play "W"]
S2 SA S8 S5
HA HT CA H4

[Board "4"]
[Dealer "W"]
[Vulnerable "All"]
[Deal "N:AKQJ.T98.765.432 T98.765.432.AKQJ 765.432.AKQJ.T98 432.AKQJ.T98.76"]
"""


def test_validate_reports_illegal_play_and_repeated_board_numbers(capsys, tmp_path):
    path = tmp_path / "revoke.pbn"
    path.write_text(REVOKE_PBN)
    rc, out, err = run(capsys, "validate", path)
    assert rc == 1
    lines = out.splitlines()
    assert any("board 4" in line and "revokes" in line and "CA" in line for line in lines), lines
    assert any("record 1 and record 2 have board number 4 but different deals" in line for line in lines), lines
    assert err.strip() == f"{path}: {len(lines)} problems in 2 boards"


@pytest.mark.parametrize("via", ["zbd", "bri", "pbn"])
def test_convert_says_board_numbers_are_dropped(capsys, tmp_path, via):
    """Boards 9-11 in DUP (which stores numbers) to ZBD/BRI (which do not): said on both the bulk and the
    board-by-board path."""
    src = tmp_path / "src.dup"
    write_file(boards(3, first=9), src, "dup")
    mid = tmp_path / f"mid.{via}"
    if via == "pbn":  # a board-by-board source
        assert run(capsys, "convert", src, mid)[0] == 0
        src, mid = mid, tmp_path / "out.zbd"
    rc, _, err = run(capsys, "convert", src, mid)
    assert rc == 0, err
    assert "bridgeview: dropped: board numbers (boards will be numbered from 1 when read back)" in err.splitlines()
    assert [b.number for b in read_file(mid)] == [1, 2, 3]


def test_event_site_date_survive_pbn_to_bre_and_back(capsys, tmp_path):
    bs = boards(2)
    bs.info.event, bs.info.site, bs.info.date = "Spring Pairs", "Oslo", "2024.04.01"
    src = tmp_path / "src.pbn"
    write_file(bs, src, "pbn")
    rc, _, err = run(capsys, "convert", src, tmp_path / "mid.bre")
    assert rc == 0 and "event" not in err, err
    rc, _, err = run(capsys, "convert", tmp_path / "mid.bre", tmp_path / "back.pbn")
    assert rc == 0, err
    info = read_file(tmp_path / "back.pbn").info
    assert (info.event, info.site, info.date) == ("Spring Pairs", "Oslo", "2024.04.01")


@pytest.mark.parametrize("dst", ["keep.zbd", "keep.zdd", "keep.pbn"])
def test_a_bad_record_mid_file_stops_the_conversion_and_keeps_the_target(capsys, tmp_path, dst):
    """Record 2 of a ZRD holds a DD value of 14: found while converting (bulk or not), reported with
    its record and offset, and the existing target is left alone."""
    src = tmp_path / "src.zrd"
    write_file(boards(3, dd=True), src, "zrd")
    data = bytearray(src.read_bytes())
    data[23 + 13 : 23 + 23] = b"\xee" * 10  # every nibble 14
    src.write_bytes(bytes(data))
    target = tmp_path / dst
    target.write_bytes(b"keep")
    rc, _, err = run(capsys, "convert", src, target)
    assert rc == 1
    line = one_error_line(err)
    m = re.match(rf"bridgeview: {re.escape(str(src))}: record 2 \(offset (\d+)\): ", line)
    assert m and 23 <= int(m.group(1)) < 46, line  # an offset inside record 2
    assert target.read_bytes() == b"keep"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["src.zrd", dst])


def test_cribbage_file_through_every_command(capsys, tmp_path):
    from conftest import REPO

    sample = REPO / "resources" / "sample_game.crib"
    if not sample.is_file():
        pytest.skip("no bundled cribbage sample")
    rc, out, _ = run(capsys, "info", sample)
    assert rc == 0 and info_fields(out)["format"].split()[0] == "halscrib"
    rc, out, _ = run(capsys, "validate", sample)
    assert rc == 0 and out.strip().endswith("no problems")
    rc, out, _ = run(capsys, "dump", sample)
    assert rc == 0 and json.loads(out)["format"] == "halscrib"
    rc, _, err = run(capsys, "convert", sample, tmp_path / "copy.crib")
    assert rc == 0, err
    assert read_file(tmp_path / "copy.crib").to_json() == read_file(sample).to_json()
    rc, _, err = run(capsys, "convert", sample, tmp_path / "out.pbn")
    assert rc == 1 and "cribbage" in one_error_line(err)
    assert not (tmp_path / "out.pbn").exists()


def test_output_a_console_cannot_encode_is_escaped_not_a_traceback(tmp_path):
    """An ASCII-only stdout (C locale, a Windows code page) and a file name that is not UTF-8."""
    bs = boards(1)
    bs.info.event = "Zürich ♠ Cup"
    src = tmp_path / "u.pbn"
    write_file(bs, src, "pbn")
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    for cmd in ("info", "validate", "dump"):
        proc = subprocess.run(
            [sys.executable, "-m", "bridgeview", cmd, str(src)], capture_output=True, env=env, timeout=60
        )
        assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
        if cmd == "dump":
            assert json.loads(proc.stdout)["event"] == "Zürich ♠ Cup"
        if cmd == "info":
            assert b"Z\\xfcrich \\u2660 Cup" in proc.stdout
    odd = tmp_path / "n\udcffame.zbd"  # the byte 0xFF, as Python names it on Linux
    write_file(boards(1), odd, "zbd")
    for path in (odd, odd.with_name("m\udcffissing.zbd")):
        proc = subprocess.run([sys.executable, "-m", "bridgeview", "info", str(path)], capture_output=True, timeout=60)
        assert b"Traceback" not in proc.stderr, proc.stderr
        assert proc.returncode == (0 if path == odd else 1)


def test_validate_locates_problems_in_fixed_record_files_and_survives_bad_records(capsys, tmp_path):
    """Every problem in a binary file names its record and byte offset; an undecodable record is one
    problem among the others, not the end of the listing; info still describes the file."""
    path = tmp_path / "t.zrd"
    write_file(boards(4, dd=True), path, "zrd")
    data = bytearray(path.read_bytes())
    data[23:46] = data[0:23]  # record 2 repeats record 1
    data[2 * 23 + 15] = 0xEE  # record 3: a double-dummy nibble 14
    data[3 * 23 : 3 * 23 + 13] = b"\x55" * 13  # record 4: every card in North's hand
    path.write_bytes(bytes(data))
    rc, out, err = run(capsys, "validate", str(path))
    assert rc == 1
    lines = out.splitlines()
    assert f"{path}: record 2 (offset 23), board 2: same deal as board 1" in lines
    located = (
        "record 3 (offset 46), board 3: unreadable record: double-dummy value 14 (allowed: 0-13, "
        "15 = unknown) (at offset 61)"
    )
    assert f"{path}: {located}" in lines
    assert f"{path}: record 4 (offset 69), board 4: N holds 52 cards, not 13" in lines
    rc, out, err = run(capsys, "info", str(path))
    assert rc == 0 and info_fields(out)["boards"] == "4" and "checksum" in info_fields(out)
    rc, out, err = run(capsys, "dump", str(path))  # the unreadable board is listed, and says why
    assert rc == 0
    dumped = json.loads(out)["boards"]
    assert [b.get("unreadable") for b in dumped] == [None, None, located.split("unreadable record: ")[1], None]


#: the start of a script that presses Ctrl+C (SIGINT to itself) just as PySide6.QtGui begins to import
PRESS_CTRL_C_AS_QTGUI_IMPORTS = """
import builtins, os, signal, sys, time

signal.signal(signal.SIGINT, signal.default_int_handler)  # (as a terminal starts it: a suite run in the
# background of a non-interactive shell has Ctrl+C ignored, and its children inherit that)
real_import = builtins.__import__


def pressing(name, *args, **kwargs):
    if name == "PySide6.QtGui" and "PySide6.QtGui" not in sys.modules:
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
    return real_import(name, *args, **kwargs)


builtins.__import__ = pressing
"""
#: ... through import_qt, then says whether the KeyboardInterrupt came and whether QtGui was imported whole
CTRL_C_IN_QT_IMPORT = (
    PRESS_CTRL_C_AS_QTGUI_IMPORTS
    + """
from bridgeview.cli.common import import_qt

try:
    import_qt()
    print("no interrupt")
except KeyboardInterrupt:
    print("interrupted", "PySide6.QtGui" in sys.modules and hasattr(sys.modules["PySide6.QtGui"], "QImage"))
"""
)


def test_ctrl_c_while_qt_is_imported_waits_for_the_import():
    """Ctrl+C while shiboken sets PySide6 up aborted ``render`` (exit 134) or left a half-made module; it is
    held until the import is done and then stops the command as any Ctrl+C does."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    run = subprocess.run(
        [sys.executable, "-c", CTRL_C_IN_QT_IMPORT], capture_output=True, text=True, timeout=120, env=env
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["interrupted", "True"]


#: the window started (``bridgeview`` alone) with Ctrl+C pressed as PySide6.QtGui begins to import
CTRL_C_AS_THE_WINDOW_STARTS = (
    PRESS_CTRL_C_AS_QTGUI_IMPORTS
    + """
from bridgeview.cli.main import main

raise SystemExit(main([]))
"""
)


def test_ctrl_c_as_the_window_starts_is_one_line(tmp_path):
    """Ctrl+C while the window's Qt is imported: "interrupted", exit 130, no traceback."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    run = subprocess.run(
        [sys.executable, "-c", CTRL_C_AS_THE_WINDOW_STARTS], capture_output=True, text=True, timeout=120, env=env
    )
    assert run.returncode == 130, run.stderr
    assert run.stderr.strip() == "bridgeview: interrupted"


def _pressed_when_made(module: str, cls: str, argv: str) -> str:
    """A script running ``bridgeview`` with ``argv`` (a list expression over ``sys.argv``) that presses Ctrl+C
    as soon as ``module``'s ``cls`` is made; prints "made" if the making finished before the press stopped it."""
    return f"""
import os, signal, sys, time

signal.signal(signal.SIGINT, signal.default_int_handler)  # (as a terminal starts it)
import {module} as where

made = where.{cls}.__init__


def pressing(self, *args, **kwargs):
    made(self, *args, **kwargs)
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(0.05)
    print("made", flush=True)


where.{cls}.__init__ = pressing
from bridgeview.cli.main import main

raise SystemExit(main({argv}))
"""


#: ``bridgeview render FILE -o OUT`` with Ctrl+C pressed as the diagram's widgets are made (PySide6 makes their
#: classes' enums then)
CTRL_C_AS_RENDER_BUILDS = _pressed_when_made(
    "bridgeview.ui.diagram.render_widget", "DiagramWithGrid", '["render", sys.argv[1], "-o", sys.argv[2]]'
)
#: ``bridgeview render FILE --window -o OUT`` with Ctrl+C pressed as the main window is made
CTRL_C_AS_RENDER_MAKES_THE_WINDOW = _pressed_when_made(
    "bridgeview.ui.mainwindow", "MainWindow", '["render", sys.argv[1], "--window", "-o", sys.argv[2]]'
)
#: ``bridgeview print FILE --no-dd -o OUT.pdf`` with Ctrl+C pressed as the first page is painted; prints "page"
#: for each page finished
CTRL_C_AS_PRINT_PAINTS = """
import os, signal, sys, time

signal.signal(signal.SIGINT, signal.default_int_handler)  # (as a terminal starts it)
from bridgeview.ui.printing import hand_records

painted = hand_records.HandRecordPainter._page


def pressing(self, *args, **kwargs):
    if not getattr(pressing, "pressed", False):
        pressing.pressed = True
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
    painted(self, *args, **kwargs)
    print("page", flush=True)


hand_records.HandRecordPainter._page = pressing
from bridgeview.cli.main import main

raise SystemExit(main(["print", sys.argv[1], "--no-dd", "-o", sys.argv[2]]))
"""


def _run_pressing(script: str, out, tmp_path) -> subprocess.CompletedProcess:
    """``script`` run on the sample set, writing ``out`` (offscreen, settings in ``tmp_path``)."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    return subprocess.run(
        [sys.executable, "-c", script, str(REPO / "resources" / "sample.pbn"), str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def _stopped_without_output(run: subprocess.CompletedProcess, out, printed: list[str]) -> None:
    assert run.returncode == 130, run.stderr
    assert run.stdout.split() == printed
    assert run.stderr.strip() == "bridgeview: interrupted"
    assert not out.exists()


def test_ctrl_c_while_render_makes_its_widgets_is_held_then_stops_it(tmp_path):
    """A press while Qt worked could land in PySide6 making a class's enums (an AttributeError traceback
    further on) or be lost; it is held until Qt's step is done, stops the command (one line, exit 130), and no
    image is written."""
    out = tmp_path / "board.png"
    _stopped_without_output(_run_pressing(CTRL_C_AS_RENDER_BUILDS, out, tmp_path), out, ["made"])


def test_ctrl_c_while_print_paints_stops_between_pages(tmp_path):
    """A press while the PDF was painted could crash the process ("Cannot destroy paint device that is being
    painted", then a segmentation fault) or be lost; it is held while a page is painted, taken before the
    next one (the painter ended first), and no PDF is written."""
    out = tmp_path / "records.pdf"
    # the first page finished, no second begun
    _stopped_without_output(_run_pressing(CTRL_C_AS_PRINT_PAINTS, out, tmp_path), out, ["page"])


def test_ctrl_c_while_render_makes_the_window_is_held_then_stops_it(tmp_path):
    """``render --window``: a press while the window is made is held, taken while the window waits for its
    analysis or before the image is saved; one line, exit 130, no image."""
    out = tmp_path / "window.png"
    _stopped_without_output(_run_pressing(CTRL_C_AS_RENDER_MAKES_THE_WINDOW, out, tmp_path), out, ["made"])


def test_ctrl_c_ignored_as_in_a_background_job_does_not_stop_print(tmp_path):
    """A shell starts ``cmd &`` with Ctrl+C ignored: a press meant for the foreground job must not stop a
    background ``print`` (the hold passes the press on to what Ctrl+C did before: nothing)."""
    out = tmp_path / "records.pdf"
    script = CTRL_C_AS_PRINT_PAINTS.replace(
        "signal.signal(signal.SIGINT, signal.default_int_handler)", "signal.signal(signal.SIGINT, signal.SIG_IGN)"
    )
    run = _run_pressing(script, out, tmp_path)
    assert run.returncode == 0, run.stderr
    assert len(run.stdout.split()) > 1  # every page painted
    assert out.read_bytes().startswith(b"%PDF")


#: the window on ``sys.argv[1]`` with Ctrl+C pressed as the main window is made (before its event loop runs)
CTRL_C_AS_THE_WINDOW_IS_MADE = _pressed_when_made("bridgeview.ui.mainwindow", "MainWindow", "[sys.argv[1]]")

#: the window on ``sys.argv[1]``, printing "looping" once its event loop runs (the test presses Ctrl+C then)
THE_WINDOW_SAYS_WHEN_IT_RUNS = """
import signal, sys

signal.signal(signal.SIGINT, signal.default_int_handler)  # (as a terminal starts it)
from PySide6.QtCore import QTimer

from bridgeview.ui import mainwindow

shown = mainwindow.MainWindow.show


def show(self):
    shown(self)
    QTimer.singleShot(0, lambda: print("looping", flush=True))  # (a zero timer fires once the loop runs)


mainwindow.MainWindow.show = show
from bridgeview.cli.main import main

raise SystemExit(main([sys.argv[1]]))
"""


def _said(stderr: str) -> list[str]:
    """What a window's process said on stderr, without the offscreen platform's harmless chatter."""
    return [line for line in stderr.splitlines() if line.strip() and "propagateSizeHints" not in line]


def _next_line(window: subprocess.Popen, seconds: float = 30) -> str:
    """The window process's next line on stdout; "" if none comes within ``seconds``."""
    import select

    assert window.stdout is not None
    ready, _, _ = select.select([window.stdout], [], [], seconds)
    return window.stdout.readline().strip() if ready else ""


@contextlib.contextmanager
def _window(script: str, argument: str, tmp_path) -> Iterator[subprocess.Popen]:
    """The window's process running ``script`` on ``argument`` (offscreen, settings in ``tmp_path``), its stdout and
    stderr piped; killed if it still runs when the block ends."""
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path))
    window = subprocess.Popen(
        [sys.executable, "-c", script, argument], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        yield window
    finally:
        if window.poll() is None:
            window.kill()
            window.communicate()


def test_ctrl_c_as_the_window_is_made_closes_it_once_it_runs(tmp_path):
    """A press after PySide6's import and before the event loop came as a traceback; it is held while the window
    is made and closes it once the loop runs: "interrupted", exit 130."""
    run = _run_pressing(CTRL_C_AS_THE_WINDOW_IS_MADE, tmp_path / "unused", tmp_path)
    assert run.returncode == 130, run.stderr
    assert run.stdout.split() == ["made"]
    assert _said(run.stderr) == ["bridgeview: interrupted"]


def test_ctrl_c_in_the_running_windows_terminal_closes_it(tmp_path):
    """The running window did not hear Ctrl+C in its terminal at all (Python runs a handler only when Qt next
    calls it, and then the press came as a traceback from inside that call); now it closes the window as its
    close button does: "interrupted", exit 130, nothing else said."""
    with _window(THE_WINDOW_SAYS_WHEN_IT_RUNS, str(REPO / "resources" / "sample.pbn"), tmp_path) as window:
        assert _next_line(window) == "looping"
        time.sleep(0.3)  # the loop waits for events: no Python runs
        window.send_signal(signal.SIGINT)
        _, err = window.communicate(timeout=30)
    assert window.returncode == 130, err
    assert _said(err) == ["bridgeview: interrupted"]


#: the ``bridgeview`` entry point (as its console script calls it) with the arguments after ``sys.argv[1]``, and
#: Ctrl+C pressed as the module ``sys.argv[1]`` begins to import ("datetime within numpy": as datetime begins to
#: import while numpy is being imported)
CTRL_C_AS_A_MODULE_IMPORTS = """
import os, signal, sys

signal.signal(signal.SIGINT, signal.default_int_handler)  # (as a terminal starts it)
pressed_at, _, within = sys.argv[1].partition(" within ")


class Press:
    def find_spec(self, name, path=None, target=None):
        if name == pressed_at and (not within or within in sys.modules):
            print("pressed", flush=True)
            os.kill(os.getpid(), signal.SIGINT)
        return None


sys.meta_path.insert(0, Press())
sys.argv[1:] = sys.argv[2:]
from bridgeview.__main__ import main

raise SystemExit(main())
"""


@pytest.mark.parametrize(
    "module",
    ["bridgeview.formats.errors", "bridgeview.cli.info"],
    ids=["the command line's own imports", "the command's module"],
)
def test_ctrl_c_while_the_command_is_imported_is_one_line(tmp_path, module):
    """A press in a command's first ~70 ms, while ``bridgeview.cli.main`` or the command's module was imported,
    came as Python's traceback: "interrupted", exit 130, as at any later moment."""
    run = subprocess.run(
        [sys.executable, "-c", CTRL_C_AS_A_MODULE_IMPORTS, module, "info", str(REPO / "resources" / "sample.pbn")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 130, run.stderr
    assert run.stderr.strip() == "bridgeview: interrupted"
    assert run.stdout == "pressed\n"


def test_ctrl_c_inside_numpys_import_is_one_line(tmp_path):
    """A press inside numpy's C extension's set-up (as it imports datetime) came as numpy's own ImportError,
    "Importing the numpy C-extensions failed ... PLEASE READ THIS", a traceback saying numpy is broken; numpy is
    now imported with Ctrl+C held, and the press stops the command once it is: "interrupted", exit 130."""
    out = tmp_path / "out.zrd"
    run = subprocess.run(
        [
            sys.executable,
            "-c",
            CTRL_C_AS_A_MODULE_IMPORTS,
            "datetime within numpy",
            "convert",
            str(REPO / "resources" / "sample.pbn"),
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.stdout == "pressed\n"  # (the press was made where it is meant to be)
    assert run.returncode == 130, run.stderr
    assert run.stderr.strip() == "bridgeview: interrupted"
    assert not out.exists()


def test_numpy_imported_with_ctrl_c_held_is_numpy_as_ever():
    """The hold on numpy's import leaves numpy as a plain import does (its own loader, its finder gone from the
    meta path once numpy is imported, not by a mere look-up) and is set up once however often it is asked for."""
    code = (
        "import sys\n"
        "from bridgeview.interrupts import hold_ctrl_c_while_importing\n"
        "hold_ctrl_c_while_importing('numpy')\n"
        "finders = len(sys.meta_path)\n"
        "hold_ctrl_c_while_importing('numpy')\n"
        "assert len(sys.meta_path) == finders\n"
        "import importlib.util\n"
        "assert importlib.util.find_spec('numpy') is not None and len(sys.meta_path) == finders  # (a look-up)\n"
        "import numpy\n"
        "assert len(sys.meta_path) == finders - 1\n"
        "print(type(numpy.__loader__).__name__, type(numpy.__spec__.loader).__name__, int(numpy.arange(4).sum()))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["SourceFileLoader", "SourceFileLoader", "6"]


def test_ctrl_c_while_solve_imports_numpy_leaves_no_journal(tmp_path):
    """``solve`` in chunks imported numpy once its journal was made: a press there left an empty journal behind
    (the next run refused to start without --resume), or came as numpy's ImportError traceback. numpy is imported
    first, with Ctrl+C held: "interrupted", exit 130, nothing left."""
    src, out = tmp_path / "in.pbn", tmp_path / "out.pbn"
    write_file(boards(2), src, "pbn")
    run = subprocess.run(
        [sys.executable, "-c", CTRL_C_AS_A_MODULE_IMPORTS, "datetime within numpy", "solve", str(src), str(out)]
        + ["--chunk", "1"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.stdout == "pressed\n"
    assert run.returncode == 130, run.stderr
    assert run.stderr.strip() == "bridgeview: interrupted"
    assert not out.exists() and not (tmp_path / "out.pbn.solving").exists()


#: the window on ``sys.argv[1]``, saying on stdout when it asks something ("asking") and what was answered
THE_WINDOW_SAYS_WHEN_IT_ASKS = """
import signal, sys

signal.signal(signal.SIGINT, signal.default_int_handler)  # (as a terminal starts it)
from bridgeview.ui import dialogs

asked = dialogs.message


def message(*args, **kwargs):
    print("asking", flush=True)
    answer = asked(*args, **kwargs)
    print("answered", answer.name, flush=True)
    return answer


dialogs.message = message
from bridgeview.cli.main import main

raise SystemExit(main([sys.argv[1]]))
"""


def test_ctrl_c_answers_a_dialog_the_window_opened_as_it_started(tmp_path):
    """A file the window cannot open, given on the command line, is reported in a dialog before the event loop
    runs: a press there was held until the dialog was closed by hand, and then closed the window. It answers the
    dialog as Escape would; the window stays, and the next press closes it."""
    bad = tmp_path / "notes.xyz"
    bad.write_text("not a deal file\n", encoding="utf-8")
    with _window(THE_WINDOW_SAYS_WHEN_IT_ASKS, str(bad), tmp_path) as window:
        assert _next_line(window) == "asking"
        time.sleep(0.3)
        window.send_signal(signal.SIGINT)
        assert _next_line(window).startswith("answered")
        time.sleep(0.3)
        assert window.poll() is None  # the window stays
        window.send_signal(signal.SIGINT)
        _, err = window.communicate(timeout=30)
    assert window.returncode == 130, err
    assert _said(err) == ["bridgeview: interrupted"]
