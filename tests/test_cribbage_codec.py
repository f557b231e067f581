"""The HALSCRIB codec: decoding field by field, saving, bad input, and the CLI."""

from __future__ import annotations

import base64
import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_cribbage_support import ONE_DEAL, SAMPLE, deal_bits, header_bits, one_deal_text, pack, simulate

from bridgeview.cli.main import main
from bridgeview.formats.codec import ReadOptions, WriteOptions
from bridgeview.formats.errors import FormatError
from bridgeview.formats.halscrib import HEADER_BITS, decode_base64, decode_record, encode_record, wrap_base64
from bridgeview.formats.registry import detect, get, read_file, write_file
from bridgeview.model.cribbage import CribbageRecord, CribCard, CribDeal, CribHeader, PegPlay


def write(tmp_path: Path, data: bytes, name: str = "game.crib") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_the_spec_example_and_sizes() -> None:
    assert base64.b64decode("SGFs") == b"Hal"
    assert HEADER_BITS == 583 and HEADER_BITS + 150 == 733


def test_decoding_field_by_field(tmp_path: Path) -> None:
    rec = read_file(write(tmp_path, one_deal_text()))
    h = rec.header
    assert (h.author, h.program, h.players, h.comments) == ("Hal Author", "HALSCRIB", ("Ann", "HAL"), "a test game")
    assert (h.year, h.month, h.day, h.hour, h.minute, h.second, h.games) == (2024, 3, 17, 20, 15, 42, 1)
    assert h.date_text == "2024-03-17T20:15:42"
    (d,) = rec.deals
    assert [str(c) for c in d.hands[0]] == ["S5", "H5", "CT", "DK"]
    assert [str(c) for c in d.hands[1]] == ["D4", "S6", "H7", "C8"]
    assert [str(c) for c in d.discards[0] + d.discards[1]] == ["C2", "C3", "S9", "HQ"]
    assert str(d.starter) == "SJ" and len(d.crib) == 4
    assert [(p.player, str(p.card)) for p in d.pegging] == [(p, t) for p, t in ONE_DEAL["plays"]]
    assert d.scores == (1, 6) and d.dealer == 1 and d.last is False and d.unplayed == 0
    assert rec.problems() == []


def test_pegging_play_codes() -> None:
    # 0011 1101 = king of clubs by player 0, 0111 1101 by player 1, 0111 1111 = no play
    plays = [(0, "CK"), (1, "HA")]
    bits = header_bits() + deal_bits("CK SA S2 S3", "HA D2 D3 D4", "C2 C3", "H2 H3", "D9", plays, 0, 0, 1, True)
    deal_start = HEADER_BITS + 24 * 2 + 12 * 2 + 6
    assert bits[deal_start : deal_start + 7] == "0111101"
    assert bits[deal_start + 7 : deal_start + 14] == "1010001"
    assert bits[deal_start + 14 : deal_start + 56] == "1111111" * 6
    rec = decode_record(decode_base64(pack(bits)))
    assert rec.deals[0].unplayed == 6 and rec.deals[0].last


def test_round_trip_through_the_writer(tmp_path: Path) -> None:
    rec = simulate(5)
    out = tmp_path / "out.hal"
    write_file(rec, out)
    back = read_file(out)
    assert back.to_json() == rec.to_json()
    assert out.read_bytes() == wrap_base64(encode_record(rec))


def test_unchanged_save_is_byte_identical(tmp_path: Path) -> None:
    text = one_deal_text().replace(b"\n", b"\r\n")
    odd = b"  " + text[:50] + b"\r\n" + text[50:]  # odd wrapping and leading spaces survive too
    for data in (text, odd, SAMPLE.read_bytes()):
        src = write(tmp_path, data)
        rec = read_file(src)
        buf = io.BytesIO()
        get("halscrib").write(rec, buf)
        assert buf.getvalue() == data
        assert main(["convert", str(src), str(tmp_path / "copy.cb64")]) == 0
        assert (tmp_path / "copy.cb64").read_bytes() == data


def test_modified_save_keeps_the_line_breaks(tmp_path: Path) -> None:
    data = pack(header_bits() + deal_bits(**ONE_DEAL), width=40).replace(b"\n", b"\r\n")
    rec = read_file(write(tmp_path, data))
    rec.header.comments = "edited"
    buf = io.BytesIO()
    get("halscrib").write(rec, buf)
    lines = buf.getvalue().split(b"\r\n")
    assert len(lines[0]) == 40 and lines[-1] == b"" and b"\n" not in buf.getvalue().replace(b"\r\n", b"")
    assert decode_record(decode_base64(buf.getvalue())).header.comments == "edited"
    buf = io.BytesIO()
    get("halscrib").write(rec, buf, WriteOptions(newline="\n"))
    assert b"\r" not in buf.getvalue()


def test_writer_refuses_what_does_not_fit() -> None:
    rec = simulate(5)
    rec.header.players = ("a name far too long", "HAL")
    with pytest.raises(FormatError, match="longer than 8"):
        encode_record(rec)
    rec = CribbageRecord(CribHeader(), [])
    with pytest.raises(FormatError, match="1 to 256 deals"):
        encode_record(rec)


def test_sniff_and_detect(tmp_path: Path) -> None:
    codec = get("halscrib")
    assert codec.kind == "cribbage" and not codec.binary
    assert codec.sniff(one_deal_text()) == 90
    assert codec.sniff(b'[Event "x"]\n[Board "1"]\n' * 10) == 0
    assert codec.sniff(base64.b64encode(bytes(range(200)))) == 0  # names are not printable
    assert detect(write(tmp_path, one_deal_text(), "game.txt")).name == "halscrib"
    for ext in ("crib", "hal", "cb64"):
        assert get(ext) is codec


def cli_error(tmp_path: Path, data: bytes, capsys) -> str:
    path = write(tmp_path, data)
    assert main(["dump", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"bridgeview: {path}: ")
    return err


def test_bad_base64(tmp_path: Path, capsys) -> None:
    text = one_deal_text()
    err = cli_error(tmp_path, text[:80] + b"*" + text[81:], capsys)
    assert "line 2" in err and "bad Base64" in err and "'*'" in err
    err = cli_error(tmp_path, b"QUJD=QUJD\n", capsys)
    assert "bad Base64" in err


def test_truncated(tmp_path: Path, capsys) -> None:
    bits = header_bits(n_deals=3) + deal_bits(**ONE_DEAL) + deal_bits(**dict(ONE_DEAL, dealer=0))
    err = cli_error(tmp_path, pack(bits), capsys)
    assert "truncated: deal 3 of 3 is cut short" in err
    err = cli_error(tmp_path, one_deal_text()[:60], capsys)
    assert "truncated: the header needs 73 bytes" in err
    err = cli_error(tmp_path, one_deal_text()[:-20], capsys)  # cut mid-quad
    assert "truncated: deal 1 of 1" in err


def test_duplicate_cards(tmp_path: Path, capsys) -> None:
    bad = dict(ONE_DEAL, h1="D4 S6 H7 S5")
    err = cli_error(tmp_path, pack(header_bits() + deal_bits(**bad)), capsys)
    assert "deal 1: duplicate card 5\u2660 (player 0's hand and player 1's hand)" in err
    bad = dict(ONE_DEAL, starter="C2")
    err = cli_error(tmp_path, pack(header_bits(n_deals=2) + deal_bits(**ONE_DEAL) + deal_bits(**bad)), capsys)
    assert "deal 2: duplicate card 2\u2663 (player 0's discards and the starter)" in err


def test_score_over_121(tmp_path: Path, capsys) -> None:
    err = cli_error(tmp_path, pack(header_bits() + deal_bits(**dict(ONE_DEAL, s1=125))), capsys)
    assert "deal 1: player 1's score 125 is over 121" in err


def test_bad_card_code(tmp_path: Path, capsys) -> None:
    bits = header_bits() + deal_bits(**ONE_DEAL)
    bits = bits[:HEADER_BITS] + "001111" + bits[HEADER_BITS + 6 :]  # rank 15
    err = cli_error(tmp_path, pack(bits), capsys)
    assert "deal 1: bad card code 0x0f in player 0's hand" in err


def test_cli_dump_info_validate(tmp_path: Path, capsys) -> None:
    path = write(tmp_path, one_deal_text())
    assert main(["dump", str(path)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "halscrib"
    assert data["header"] == {
        "author": "Hal Author",
        "program": "HALSCRIB",
        "players": ["Ann", "HAL"],
        "comments": "a test game",
        "date": "2024-03-17T20:15:42",
        "games": 1,
    }
    assert data["deals"][0]["pegging"][1] == {"player": 1, "card": "D4"}
    assert main(["info", str(path)]) == 0
    out = capsys.readouterr().out
    assert "player 1: HAL" in out and "deals:    1" in out
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.endswith(": 1 deal, no problems\n")
    bad = write(tmp_path, pack(header_bits() + deal_bits(**dict(ONE_DEAL, s0=3))), "bad.crib")
    assert main(["validate", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "deal 1: scores after the pegging recorded as 3-6, the rules give 1-6 (Ann +2)" in out


def test_read_options_are_accepted(tmp_path: Path) -> None:
    rec = get("halscrib").read(write(tmp_path, one_deal_text()), ReadOptions(start_board=5))
    assert len(rec) == 1 and rec.path


cards_st = st.permutations(list(range(52))).map(lambda p: [CribCard(c // 13, c % 13 + 1) for c in p[:13]])


@settings(max_examples=40, deadline=None)
@given(
    cards_st,
    st.integers(0, 8),
    st.integers(0, 121),
    st.integers(0, 121),
    st.booleans(),
    st.booleans(),
    st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=8),
)
def test_codec_round_trip(cs, n_plays, s0, s1, dealer, last, name) -> None:
    plays = [PegPlay(i % 2, c) for i, c in enumerate(cs[:4] + cs[4:8])][:n_plays]
    deal = CribDeal(
        (tuple(cs[0:4]), tuple(cs[4:8])),
        (tuple(cs[8:10]), tuple(cs[10:12])),
        cs[12],
        plays,
        (s0, s1),
        int(dealer),
        last,
        8 - n_plays,
    )
    rec = CribbageRecord(CribHeader(players=(name.rstrip(" "), "HAL"), year=4095, second=59), [deal, deal])
    back = decode_record(decode_base64(wrap_base64(encode_record(rec), 64)))
    assert back.to_json() == rec.to_json()


def test_bad_base64_names_the_deal(tmp_path: Path, capsys) -> None:
    text = pack(header_bits(n_deals=2) + deal_bits(**ONE_DEAL) + deal_bits(**dict(ONE_DEAL, dealer=0)))
    compact = text.replace(b"\n", b"")
    in_deal_2 = (HEADER_BITS + 150 + 30) // 6  # a character carrying bits of deal 2
    err = cli_error(tmp_path, compact[:in_deal_2] + b"*" + compact[in_deal_2 + 1 :], capsys)
    assert f"offset {in_deal_2}: bad Base64 in deal 2: character '*' is not in the Base64 alphabet" in err
    err = cli_error(tmp_path, b"#" + text[1:], capsys)
    assert "line 1, offset 0: bad Base64 in the header: character '#'" in err
    err = cli_error(tmp_path, text[:20] + "\u00e9".encode() + text[21:], capsys)
    assert "bad Base64 in the header: byte 0xc3 is not in the Base64 alphabet" in err
    err = cli_error(tmp_path, text[:100] + b"=" + text[101:], capsys)
    assert "line 2, offset 100: bad Base64 in deal 1: '=' padding before the end of the text" in err
    one = one_deal_text()
    assert one.rstrip().endswith(b"=") and not one.rstrip().endswith(b"==")  # 733 bits: 92 bytes
    err = cli_error(tmp_path, one.rstrip() + b"=\n", capsys)
    assert "bad Base64 in the text after the last deal: the '=' padding does not fill out" in err
    err = cli_error(tmp_path, one.rstrip() + b"QUJD\n", capsys)
    assert "bad Base64 in the text after the last deal: '=' padding before the end of the text" in err


def test_zero_padding_and_whitespace() -> None:
    rec = decode_record(decode_base64(one_deal_text()))
    data = encode_record(rec)
    assert len(data) == (HEADER_BITS + 150 + 7) // 8 == 92 and data[-1] & 0b111 == 0  # 733 bits + 3 zero bits
    text = base64.b64encode(data)
    assert text.endswith(b"=") and wrap_base64(data, 0, final_newline=False) == text
    spaced = b"\t".join(text[i : i + 7] for i in range(0, len(text), 7)) + b" \r\n\r\n"
    assert decode_record(decode_base64(spaced)).to_json() == rec.to_json()
    odd_pad = base64.b64encode(data[:-1] + bytes([data[-1] | 0b101]))  # non-zero padding bits are ignored
    assert decode_record(decode_base64(odd_pad)).to_json() == rec.to_json()


def test_dump_keys_come_in_the_issues_order(tmp_path: Path, capsys) -> None:
    assert main(["dump", str(write(tmp_path, one_deal_text()))]) == 0
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["format", "header", "deals"]
    assert list(data["header"]) == ["author", "program", "players", "comments", "date", "games"]
    deal = data["deals"][0]
    assert list(deal) == ["dealer", "hands", "discards", "starter", "pegging", "scores", "last"]
    assert deal["hands"][0] == ["S5", "H5", "CT", "DK"] and deal["starter"] == "SJ"
    assert list(deal["pegging"][0]) == ["player", "card"]
