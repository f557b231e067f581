"""Messages for odd input say what is wrong in the user's terms: a 5,000-digit number, UTF-16
text and an empty file -- never Python's internals, never silence."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from test_ui_support import main_window

from bridgeview.cli.main import main
from bridgeview.formats.errors import MESSAGE_LIMIT, FormatError
from bridgeview.formats.registry import EMPTY_FILE, all_codecs, read_file

DEAL_MD = "md|1SQ982HQ82DKQ763CT,SJ643HKJ7653DCAQ4,SK5HADAJT52CJ9762,|"
PBN_DEAL = '[Deal "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"]\n'
HUGE = "9" * 5000


def _cli(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main([str(a) for a in argv])
    return rc, out.getvalue(), err.getvalue()


# -- huge numbers -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "lin",
    [
        f"qx|o{HUGE}|{DEAL_MD}sv|n|",
        f"ah|Board {HUGE}|{DEAL_MD}sv|n|",
        f"{DEAL_MD}sv|n|mb|p|mc|{HUGE}|",
        f"{DEAL_MD}sv|n|mb|{HUGE}|",
        f"vg|a,b,I,{HUGE},2,x,0,y,0|rs|3NN=,|{DEAL_MD}sv|n|",
    ],
    ids=["qx", "ah", "mc", "mb", "vg"],
)
def test_a_5000_digit_number_in_lin(tmp_path: Path, lin: str) -> None:
    path = tmp_path / "huge.lin"
    path.write_text(lin)
    for cmd in ("validate", "dump", "info"):
        rc, out, err = _cli(cmd, path)
        assert rc in (0, 1) and "Traceback" not in err
        for text in (out, err):
            assert "4300" not in text and "set_int_max_str_digits" not in text
        for line in (err + (out if cmd == "validate" else "")).splitlines():
            assert len(line) < MESSAGE_LIMIT + len(str(path)) + 40, line[:200]


def test_a_5000_digit_number_in_pbn(tmp_path: Path) -> None:
    path = tmp_path / "huge.pbn"
    path.write_text(f'[Board "{HUGE}"]\n{PBN_DEAL}')
    rc, out, err = _cli("validate", path)
    assert rc == 1 and "a number of 5000 digits" in out and "4300" not in out + err


def test_long_messages_are_clipped() -> None:
    e = FormatError("not a strain: " + "9" * 5000 + " (ignored)")
    assert len(str(e)) <= MESSAGE_LIMIT and str(e).startswith("not a strain: 999") and str(e).endswith("(ignored)")


# -- UTF-16 ------------------------------------------------------------------------------------
UTF16 = {
    "le-bom": "utf-16",  # Python writes a BOM in the machine's order (little-endian here)
    "be-bom": "utf-16-be",
    "le-no-bom": "utf-16-le",
}


@pytest.mark.parametrize("variant", list(UTF16))
@pytest.mark.parametrize("ext", ["pbn", "lin"])
def test_utf16_text_is_named(tmp_path: Path, ext: str, variant: str) -> None:
    text = f'[Event "x"]\n[Board "1"]\n{PBN_DEAL}' if ext == "pbn" else f"pn|a,b,c,d|{DEAL_MD}sv|n|"
    data = text.encode(UTF16[variant])
    if variant == "be-bom":
        data = b"\xfe\xff" + data
    path = tmp_path / f"wide.{ext}"
    path.write_bytes(data)
    with pytest.raises(FormatError, match="UTF-16 text: not supported"):
        read_file(path)
    rc, _out, err = _cli("info", path)
    assert rc == 1 and err == f"bridgeview: {path}: UTF-16 text: not supported; save the file as UTF-8\n"


def test_utf16_in_the_window(qtbot, tmp_path: Path, messages) -> None:
    path = tmp_path / "wide.pbn"
    path.write_bytes(f'[Board "1"]\n{PBN_DEAL}'.encode("utf-16"))
    w = main_window(qtbot, tmp_path)
    assert not w.open_file(str(path))
    assert len(messages.calls) == 1 and "UTF-16 text: not supported" in messages.calls[0][2]
    assert "binary" not in messages.calls[0][2]


def test_a_binary_file_is_still_called_binary(tmp_path: Path) -> None:
    path = tmp_path / "bin.pbn"
    path.write_bytes(b'[Board "1"]\n\x00\x01\x02\x03 some bytes \x00\x00\x10')
    with pytest.raises(FormatError, match="binary file"):
        read_file(path)


# -- empty files -------------------------------------------------------------------------------
EMPTY_OK = sorted(c.name for c in all_codecs() if c.kind == "bridge" and c.name != "bre")


@pytest.mark.parametrize("fmt", EMPTY_OK)
def test_an_empty_file_says_it_is_empty(tmp_path: Path, fmt: str) -> None:
    from bridgeview.formats.registry import get

    path = tmp_path / f"empty.{get(fmt).extensions[0]}"
    path.write_bytes(b"")
    try:
        doc = read_file(path, fmt)
    except FormatError as e:  # a format whose files always hold a header (BHG, CSV, DLM, RZD) refuses, saying why
        assert "empty" in str(e)
        return
    assert len(doc) == 0 and doc.problems[0][2] == EMPTY_FILE
    rc, out, err = _cli("validate", path, "--from", fmt)
    assert rc == 1 and f"{path}: {EMPTY_FILE}" in out.splitlines()
    rc, out, _err = _cli("info", path, "--from", fmt)
    assert rc == 0 and "0 (the file is empty)" in out


def test_an_empty_file_in_the_window(qtbot, tmp_path: Path, messages) -> None:
    path = tmp_path / "empty.pbn"
    path.write_bytes(b"")
    w = main_window(qtbot, tmp_path)
    assert w.open_file(str(path))  # it opens, so boards can be added, but the user is told
    assert w.statusBar().currentMessage() == f"empty.pbn: {EMPTY_FILE}"


def test_a_file_that_is_not_empty_is_not_called_empty(tmp_path: Path) -> None:
    path = tmp_path / "blank.pbn"
    path.write_text("\n\n% only a comment\n")
    assert all(p[2] != EMPTY_FILE for p in read_file(path).problems)
