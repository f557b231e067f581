"""The format registry, atomic saving, the generic capability check and the CLI frame."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

import pytest
from conftest import REPO
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeview.cli.main import main
from bridgeview.formats import registry
from bridgeview.formats.atomic import save_atomically
from bridgeview.formats.checksum import pavlicek_checksum, pavlicek_checksum_bytes
from bridgeview.formats.codec import BridgeCodec, Capabilities
from bridgeview.formats.errors import FormatError
from bridgeview.model import Board, BoardSet, DDTable, Deal, LazyBoardSet

SAMPLE = "N:T2.J965.T7532.63 AKQ874.AQ2.J8.A5 J65.743.AK4.KQ82 93.KT8.Q96.JT974"


class TinyCodec(BridgeCodec):
    """A test codec: one PBN deal string a line."""

    name = "tinytest"
    title = "Tiny test"
    extensions = ("tinytest",)
    binary = False
    caps = Capabilities()

    def sniff(self, head, size=None):
        return 90 if head.startswith(b"N:") else 0

    def read(self, path, options=None):
        boards = []
        with open(path, encoding="ascii") as f:
            for i, line in enumerate(f, 1):
                try:
                    boards.append(Board.numbered(i, Deal.from_pbn(line)))
                except ValueError as e:
                    raise FormatError(str(e), line=i) from None
        return BoardSet(boards)

    def write(self, doc, out, options=None):
        for b in doc:
            out.write((b.deal.to_pbn() + "\n").encode())


@pytest.fixture(autouse=True)
def tiny():
    codec = registry.register(TinyCodec())
    yield codec
    registry._CODECS.pop("tinytest", None)


def test_detect_read_write_round_trip(tmp_path):
    p = tmp_path / "a.tinytest"
    p.write_text(SAMPLE + "\n" + SAMPLE + "\n")
    assert registry.detect(p).name == "tinytest"
    bs = registry.read_file(p)
    assert len(bs) == 2 and bs.info.format == "tinytest" and bs[1].number == 2
    out = tmp_path / "b.tinytest"
    registry.write_file(bs, out)
    assert out.read_text() == p.read_text()


def test_failed_save_leaves_target_untouched(tmp_path):
    target = tmp_path / "keep.txt"
    target.write_text("precious")

    def boom(f):
        f.write(b"half")
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        save_atomically(target, boom)
    assert target.read_text() == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_generic_check_reports_losses_and_errors(tiny):
    full = Board.numbered(3, Deal.from_pbn(SAMPLE), dd=DDTable.from_rows([[7] * 5] * 4))
    partial = Board.numbered(4, Deal.from_pbn("N:AK... - - -"))
    rep = tiny.check(BoardSet([full]))
    assert "double-dummy results of 1 board" in rep.losses
    assert any("board numbers" in loss for loss in rep.losses)
    rep = tiny.check(BoardSet([full, partial]))
    assert rep.errors == ["board 4 is not a complete deal; Tiny test stores only full deals"]


def test_write_file_refuses_impossible_board_and_writes_nothing(tmp_path):
    out = tmp_path / "x.tinytest"
    with pytest.raises(FormatError, match="board 1 is not a complete deal"):
        registry.write_file(BoardSet([Board.numbered(1, Deal.from_pbn("N:AK... - - -"))]), out)
    assert not out.exists()


def test_lazy_boardset_decodes_on_demand_and_keeps_edits():
    calls = []

    def decode(i):
        calls.append(i)
        return Board.numbered(i + 1, Deal.from_pbn(SAMPLE))

    lazy = LazyBoardSet(10_000_000, decode)
    assert len(lazy) == 10_000_000 and calls == []
    assert lazy[9_999_999].number == 10_000_000 and calls == [9_999_999]
    lazy[5] = Board.numbered(99)
    assert lazy[5].number == 99 and lazy.edited and lazy.is_lazy


def test_checksum_matches_definition(tmp_path):
    data = bytes(range(256)) * 3 + b"\x01\x02"
    expected = sum(int.from_bytes(data[i : i + 4].ljust(4, b"\0"), "little") for i in range(0, len(data), 4))
    assert pavlicek_checksum_bytes(data) == expected
    p = tmp_path / "f.bin"
    p.write_bytes(data)
    assert pavlicek_checksum(p) == expected


@settings(max_examples=40, deadline=None)
@given(st.binary(max_size=70), st.integers(0, 3), st.sampled_from([0, 1, 0xFFFFFFFF]))
def test_checksum_across_chunks_and_tails(data, tail, fill):
    """Chunk edges and odd tails: a tiny chunk stands in for the 1 MiB one."""
    import bridgeview.formats.checksum as checksum

    blob = fill.to_bytes(4, "little") * 9 + data + b"\xff" * tail
    words = sum(int.from_bytes(blob[i : i + 4].ljust(4, b"\0"), "little") for i in range(0, len(blob), 4))
    expected = words & (2**64 - 1)
    saved = checksum.CHUNK
    checksum.CHUNK = 16
    try:
        assert checksum.pavlicek_checksum_bytes(blob) == expected
        with tempfile.NamedTemporaryFile(suffix=".bin", delete=False) as f:
            f.write(blob)
        try:
            assert checksum.pavlicek_checksum(f.name) == expected
        finally:
            os.unlink(f.name)
    finally:
        checksum.CHUNK = saved


def test_checksum_of_a_file_under_a_megabyte_in_plain_python_equals_numpys():
    """Files up to 1 MiB are summed without numpy (issue 29: info on a 1,000-board PBN): the same number."""
    import random

    import bridgeview.formats.checksum as checksum

    blob = random.Random(29).randbytes(300_001)  # an odd tail too
    assert checksum._small_sum(blob) == checksum.pavlicek_checksum_bytes(blob)
    assert checksum._small_sum(b"\xff" * (1 << 20)) == (1 << 18) * 0xFFFFFFFF


def test_checksum_wraps_at_64_bits():
    """The 64-bit sum of the chunk's u64 words wraps; the split into halves must still be exact."""
    import numpy as np

    import bridgeview.formats.checksum as checksum

    buf = np.full(1 << 12, 0xFF, dtype=np.uint8)  # 512 words of 2**64 - 1 as u64
    assert checksum.sum_words(buf) == 1024 * 0xFFFFFFFF


def test_cli_errors_are_one_line_with_exit_codes(tmp_path, capsys):
    bad = tmp_path / "bad.tinytest"
    bad.write_text(SAMPLE + "\nN:QQ... - - -\n")
    assert main(["dump", str(bad), "--from", "tinytest"]) == 1
    err = capsys.readouterr().err
    assert err == f"bridgeview: {bad}: line 2: card SQ twice in hand 'QQ...'\n"
    with pytest.raises(SystemExit) as e:
        main(["convert", "only-one-arg"])
    assert e.value.code == 2
    assert main(["info", str(tmp_path / "missing.tinytest")]) == 1
    assert "missing.tinytest" in capsys.readouterr().err


def test_cli_dump_json_shape(tmp_path, capsys):
    p = tmp_path / "a.tinytest"
    p.write_text(SAMPLE + "\n")
    assert main(["dump", str(p)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "tinytest"
    assert data["boards"][0] == {
        "board": 1,
        "dealer": "N",
        "vulnerable": "None",
        "deal": SAMPLE,
        "dd": None,
        "auction": [],
        "play": [],
        "contract": None,
        "declarer": None,
        "result": None,
    }


def test_cli_validate_lists_problems(tmp_path, capsys):
    p = tmp_path / "a.tinytest"
    p.write_text(SAMPLE + "\n" + SAMPLE + "\n")
    assert main(["validate", str(p)]) == 1
    out = capsys.readouterr().out
    assert "board 2: same deal as board 1" in out


#: every codec the app ships, in registry order: the one place a new or lost format shows, so other tests
#: can take any of these for granted instead of skipping when one is missing
SHIPPED_CODECS = [
    "ber",
    "bhg",
    "cds",
    "csv",
    "rzd",
    "deals",
    "dx",
    "dlm",
    "bri",
    "dge",
    "bre",
    "dup",
    "halscrib",
    "lin",
    "zbd",
    "zdd",
    "zrd",
    "zbs",
    "zrj",
    "zrj16",
    "pbn",
]


def test_the_registered_codecs_are_exactly_the_shipped_ones(tiny):
    assert [c.name for c in registry.all_codecs() if c is not tiny] == SHIPPED_CODECS


def test_formats_command_lists_registered_codecs(capsys):
    assert main(["formats"]) == 0
    assert "tinytest" in capsys.readouterr().out


def test_misnamed_file_is_recognised_by_content(tmp_path, tiny):
    p = tmp_path / "deals.pbn_but_really.zbd"
    p.write_text(SAMPLE + "\n")
    assert registry.detect(p).name == "tinytest"


def test_the_shipped_list_is_what_the_modules_register():
    """registry.SHIPPED (which module to import for a name or extension, in sniffing order) lists every format
    module's codecs with their extensions, each module's in its own order, and no module of the package has
    codecs the list leaves out: a new or changed codec must be added there."""
    import importlib
    import pkgutil

    import bridgeview.formats as formats

    found = {}
    for m in pkgutil.walk_packages(formats.__path__, "bridgeview.formats."):
        codecs = getattr(importlib.import_module(m.name), "CODECS", ())
        if codecs:
            found[m.name.removeprefix("bridgeview.formats.")] = [(c.name, tuple(c.extensions)) for c in codecs]
    listed = {}
    for module, name, extensions in registry.SHIPPED:
        listed.setdefault(module, []).append((name, extensions))
    assert listed == found
    assert [name for _module, name, _extensions in registry.SHIPPED] == SHIPPED_CODECS


def test_codecs_found_one_module_at_a_time_keep_the_order_of_a_full_load():
    """A process that first opens a .zrj and writes a .zbd (two modules imported), then lists every codec,
    sees them in the order a process that listed them at once sees (the Save As filter, formats)."""
    code = (
        "import sys\nfrom bridgeview.formats import registry\n"
        "if sys.argv[1] == 'partial':\n"
        "    assert [c.name for c in registry.by_extension('a.zrj')] == ['zrj', 'zrj16']\n"
        "    registry.get('zbd'); registry.get('.lin')\n"
        "    loaded = sorted(m for m in sys.modules if m.startswith('bridgeview.formats.'))\n"
        "    assert not {'bridgeview.formats.halscrib', 'bridgeview.formats.duplimate.bri'} & set(loaded), loaded\n"
        "print([c.name for c in registry.all_codecs()])\n"
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    runs = [
        subprocess.run([sys.executable, "-c", code, kind], env=env, capture_output=True, text=True, timeout=120)
        for kind in ("partial", "full")
    ]
    assert [r.returncode for r in runs] == [0, 0], [r.stderr for r in runs]
    assert runs[0].stdout == runs[1].stdout
    assert runs[1].stdout.strip() == repr(SHIPPED_CODECS)


def test_a_codec_registered_after_the_formats_are_imported_still_comes_first():
    """Look-ups that import nothing leave the codecs as they are (a conversion makes half a dozen), but a codec
    registered since is put before the shipped ones by the next look-up, as when every look-up sorted them."""
    script = (
        "from bridgeview.formats import registry\n"
        "registry.get('pbn'); registry.get('zrd')\n"
        "before = list(registry._CODECS)\n"
        "registry.get('pbn')\n"
        "assert list(registry._CODECS) == before\n"
        "class Late:\n"
        "    name = 'late'\n"
        "    extensions = ('late',)\n"
        "registry.register(Late())\n"
        "registry.get('pbn')\n"
        "print(list(registry._CODECS))\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert run.stdout.split("'")[1] == "late", run.stdout
