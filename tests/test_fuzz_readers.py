"""Robustness: every registered reader, fed damaged files, fails only with FormatError.

For each codec in the registry (so codecs added later are covered without
touching this file) we build small valid seed files (generated boards written by
the codec itself, plus any real or bundled files with its extension), damage
them with hypothesis (truncation, flipped bytes, inserted garbage, an empty
file, a wrong or missing extension) and check that reading, iterating every
board, validating, the ``dump``/``info``/``validate`` commands and ``convert``
(to ``.deals`` and back into the codec's own format, read again) raise nothing
but :class:`FormatError`, that nothing they report comes from an unexpected
exception the reader survived (``could not read this game (TypeError: ...)``, an
unreadable record ``KeyError: ...``), and that the CLI answers with exit code 0 or 1
and, on failure, one ``bridgeview: ...`` line on stderr.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import tempfile
from functools import cache
from pathlib import Path

import fuzzkit
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reader_errors import assert_no_internal_error, reported_texts

from bridgeview.check.validate import validate
from bridgeview.cli.dump import board_to_json
from bridgeview.cli.main import main
from bridgeview.formats.codec import Codec
from bridgeview.formats.errors import FormatError
from bridgeview.formats.registry import all_codecs, detect, get, read_file

CODECS = sorted(all_codecs(), key=lambda c: c.name)
MAX_REAL_SEED_BYTES = 20_000
VALIDATE_SUMMARY = re.compile(r".+: \d+ problems? in \d+ (boards?|deals?)")
EXAMPLES = int(os.environ.get("BRIDGEVIEW_FUZZ_EXAMPLES", "20"))  # raise it for a long local run


# -- seed files -----------------------------------------------------------------
def generated_seed(codec: Codec) -> bytes | None:
    """A small file of generated boards written by ``codec`` (None if it cannot write bridge boards)."""
    return fuzzkit.generated_seed(codec, random.Random(f"seed-{codec.name}"))


def existing_seeds(codec: Codec) -> list[Path]:
    """Real files (../shared/realdata) and bundled resources with the codec's extensions: three small ones."""
    return fuzzkit.real_seeds(codec, MAX_REAL_SEED_BYTES)[:3]


@cache
def seeds(name: str) -> tuple[bytes, ...]:
    codec = next(c for c in CODECS if c.name == name)
    generated = generated_seed(codec)
    return tuple(([generated] if generated is not None else []) + [p.read_bytes() for p in existing_seeds(codec)])


@pytest.mark.parametrize("codec", CODECS, ids=lambda c: c.name)
def test_every_codec_has_a_seed_it_reads_cleanly(codec: Codec, tmp_path: Path) -> None:
    """The undamaged seeds must read without error, or the fuzzing below proves little."""
    data = seeds(codec.name)
    assert data, f"no seed file for {codec.name}: it cannot write bridge boards and no sample has its extension"
    for i, blob in enumerate(data):
        path = tmp_path / f"seed{i}.{codec.extensions[0]}"
        path.write_bytes(blob)
        doc = read_file(path, codec.name)
        if codec.kind == "bridge":
            assert len(doc) > 0
            for b in doc:
                board_to_json(b)


# -- damage ---------------------------------------------------------------------
GARBAGE = st.one_of(st.binary(min_size=1, max_size=24), st.sampled_from(fuzzkit.GARBAGE))


class _DrawPicker:
    """The damage's choices drawn by hypothesis (so a failing input shrinks)."""

    def __init__(self, draw: st.DrawFn) -> None:
        self.draw = draw

    def integer(self, low: int, high: int) -> int:
        return self.draw(st.integers(low, high))

    def junk(self) -> bytes:
        return self.draw(GARBAGE)


@st.composite
def damaged(draw: st.DrawFn, name: str) -> tuple[bytes, str]:
    """(damaged bytes, extension mode) from one of the codec's seeds."""
    data = draw(st.sampled_from(seeds(name)))
    data = fuzzkit.damage(data, draw(st.sampled_from(fuzzkit.KINDS)), _DrawPicker(draw))
    ext = draw(st.sampled_from(["own", "own", "own", "none", "wrong"]))
    return data, ext


def _path_for(codec: Codec, directory: Path, ext_mode: str) -> Path:
    if ext_mode == "own":
        return directory / f"damaged.{codec.extensions[0]}"
    if ext_mode == "none":
        return directory / "damaged"
    others = [e for c in CODECS for e in c.extensions if e not in codec.extensions]
    return directory / f"damaged.{others[sum(codec.name.encode()) % len(others)] if others else 'xyz'}"


# -- what must hold -------------------------------------------------------------
def _read_everything(path: Path, fmt: str | None) -> None:
    """Read, touch every board, validate; only FormatError may escape, and no problem may
    come from an unexpected exception the reader caught."""
    try:
        doc = read_file(path, fmt)
        if hasattr(doc, "info"):
            for b in doc:
                board_to_json(b)
            texts = reported_texts(doc) + [p.message for p in validate(doc)]
        else:
            doc.to_json()
            texts = reported_texts(doc)
    except FormatError as e:
        text = e.full()
        assert text and "\n" not in text, f"error message is not one line: {text!r}"
        texts = [text]
    assert_no_internal_error(texts, path.name)


def _cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


def _assert_clean_failure(argv: list[str], rc: int, err: str, out: str = "") -> None:
    assert rc in (0, 1), f"{argv}: exit code {rc}"
    assert_no_internal_error([*err.splitlines(), *out.splitlines()], argv)
    assert "Traceback" not in err, f"{argv}: {err}"
    lines = err.splitlines()
    if rc == 1 and argv[0] == "validate" and len(lines) == 1 and VALIDATE_SUMMARY.fullmatch(lines[0]):
        return  # validate lists problems on stdout and ends with a count on stderr
    if rc == 1:
        assert len(lines) == 1, f"{argv}: stderr is not one line: {err!r}"
    for line in lines:
        assert line.startswith("bridgeview: "), f"{argv}: stderr line {line!r}"


def _check_cli(path: Path, fmt: str | None, directory: Path) -> None:
    base = [str(path)] + (["--from", fmt] if fmt else [])
    for cmd in ("info", "validate", "dump"):
        argv = [cmd, *base]
        rc, out, err = _cli(argv)
        _assert_clean_failure(argv, rc, err, out if cmd != "dump" else "")
        if cmd == "dump" and rc == 0:
            json.loads(out)
    codec = get(fmt) if fmt else None
    if codec is None and rc == 0:  # dump read it, so detection works
        codec = detect(path)
    targets = [(directory / "converted.deals", None)]
    if codec is not None and codec.can_write:  # write back what was read, then read that
        targets.append((directory / f"written.{codec.extensions[0]}", codec.name))
    for target, to in targets:
        argv = ["convert", *base, str(target)] + (["--to", to] if to else [])
        rc, _out, err = _cli(argv)
        if "cannot convert a " in err:
            continue
        _assert_clean_failure(argv, rc, err)
        if rc == 0:
            _read_everything(target, to)


def _fuzz_one(codec: Codec, sample: tuple[bytes, str]) -> None:
    data, ext_mode = sample
    with tempfile.TemporaryDirectory(prefix="bv-fuzz-") as tmp:
        d = Path(tmp)
        path = _path_for(codec, d, ext_mode)
        path.write_bytes(data)
        _read_everything(path, codec.name)
        _read_everything(path, None)
        _check_cli(path, codec.name if ext_mode != "own" else None, d)


@pytest.mark.parametrize("codec", CODECS, ids=lambda c: c.name)
@pytest.mark.slow
def test_damaged_files_raise_only_format_error(codec: Codec) -> None:
    if not seeds(codec.name):
        pytest.skip(f"no seed file for {codec.name}")

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(damaged(codec.name))
    def run(sample: tuple[bytes, str]) -> None:
        _fuzz_one(codec, sample)

    run()


@pytest.mark.parametrize("codec", CODECS, ids=lambda c: c.name)
@pytest.mark.parametrize("ext_mode", ["own", "none", "wrong"])
def test_empty_file(codec: Codec, ext_mode: str) -> None:
    _fuzz_one(codec, (b"", ext_mode))


@pytest.mark.parametrize("codec", CODECS, ids=lambda c: c.name)
@pytest.mark.slow
def test_every_truncation_of_a_seed(codec: Codec) -> None:
    """Cut the first seed at a spread of points (record edges and mid-record)."""
    blobs = seeds(codec.name)
    if not blobs:
        pytest.skip(f"no seed file for {codec.name}")
    data = blobs[0]
    points = sorted({*range(0, min(len(data), 40)), *range(0, len(data), max(1, len(data) // 25))})
    with tempfile.TemporaryDirectory(prefix="bv-fuzz-") as tmp:
        path = Path(tmp) / f"cut.{codec.extensions[0]}"
        for k in points:
            path.write_bytes(data[:k])
            _read_everything(path, codec.name)
            _read_everything(path, None)


def test_missing_file_and_directory_are_one_line_errors(tmp_path: Path) -> None:
    for target in (tmp_path / "absent.pbn", tmp_path):
        for cmd in ("info", "validate", "dump"):
            argv = [cmd, str(target)]
            rc, _out, err = _cli(argv)
            assert rc == 1, argv
            _assert_clean_failure(argv, rc, err)


def test_zrj_call_and_play_offsets_anywhere() -> None:
    """The issue's own example: a ZRJ record whose call/play end offsets (bytes 16, 17) point anywhere,
    past the 80-byte record included."""
    record = bytearray(seeds("zrj")[0][:80])
    with tempfile.TemporaryDirectory(prefix="bv-fuzz-") as tmp:
        path = Path(tmp) / "offsets.zrj"
        for calls_end, plays_end in [(a, b) for a in range(0, 256, 9) for b in (0, 17, 18, 79, 80, 81, 255, a)]:
            record[16], record[17] = calls_end, plays_end
            path.write_bytes(bytes(record))
            _read_everything(path, "zrj")


# -- the GUI's open path ----------------------------------------------------------
GUI_EXAMPLES = max(3, EXAMPLES // 4)


@pytest.mark.parametrize("codec", CODECS, ids=lambda c: c.name)
@pytest.mark.slow
def test_damaged_files_open_in_the_window_or_say_why(qtbot, tmp_path: Path, monkeypatch, codec: Codec) -> None:
    """``MainWindow.open_file`` on a damaged file: a tab whose boards all select and paint, or one
    error dialog and no tab -- never an exception, never a stray view."""
    if not seeds(codec.name):
        pytest.skip(f"no seed file for {codec.name}")
    from conftest import Messages
    from test_ui_support import main_window

    from bridgeview.ui import dialogs
    from bridgeview.ui.boardset.view import DocumentView

    messages = Messages()
    monkeypatch.setattr(dialogs, "message", messages)
    window = main_window(qtbot, tmp_path)
    window.show()

    @settings(
        max_examples=GUI_EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(damaged(codec.name))
    def run(sample: tuple[bytes, str]) -> None:
        data, ext_mode = sample
        with tempfile.TemporaryDirectory(prefix="bv-fuzz-gui-") as tmp:
            path = _path_for(codec, Path(tmp), ext_mode)
            path.write_bytes(data)
            messages.calls.clear()
            opened = window.open_file(str(path))
            if not opened:
                assert len(messages.calls) == 1 and messages.calls[0][0] == "error", messages.calls
                assert window.tabs.count() == 0, "a failed open left a tab behind"
                return
            assert window.tabs.count() == 1
            view = window.current_view()
            if isinstance(view, DocumentView):
                for i in range(min(len(view.boards), 8)):
                    view.select_board(i)
                    window.grab()
            else:
                window.grab()
            # closed as the user closes a tab: its solver stops (a tab only removed would go on solving its
            # damaged boards in the background, holding the shared DDS process from the tests after it)
            assert window.close_tab(0) and window.tabs.count() == 0

    run()


@pytest.mark.parametrize(
    ("name", "module", "function", "error"),
    [
        (
            "pbn",
            "bridgeview.formats.pbn.read",
            "GameReader.read_auction",
            TypeError("'NoneType' object is not iterable"),
        ),
        ("zrj", "bridgeview.formats.pavlicek.zrj", "decode_record", KeyError(7)),
    ],
)
def test_a_reader_that_fails_inside_fails_these_tests(
    name: str, module: str, function: str, error: Exception, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A reader that survives its own bug (keeps the game, marks the record unreadable) must still
    fail the fuzzing: the checks above see the exception the reader caught in what it reports."""
    path = tmp_path / f"seed.{get(name).extensions[0]}"
    path.write_bytes(seeds(name)[0])
    _read_everything(path, name)  # the healthy reader passes
    _check_cli(path, None, tmp_path)

    def broken(*_args: object, **_kw: object) -> None:
        raise error

    monkeypatch.setattr(f"{module}.{function}", broken)
    with pytest.raises(AssertionError, match="unexpected exception"):
        _read_everything(path, name)
    with pytest.raises(AssertionError, match="unexpected exception"):
        _check_cli(path, None, tmp_path)
