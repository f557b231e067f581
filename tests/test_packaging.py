"""Desktop integration: the launcher and MIME files follow the format registry, the icon renders, the
installer registers what it should, and the PyInstaller recipe names files that exist."""

from __future__ import annotations

import configparser
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import types
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from conftest import REPO

from bridgeview.formats import registry
from bridgeview.formats.codec import BridgeCodec
from bridgeview.formats.registry import all_codecs

PACKAGING = REPO / "packaging"
LINUX = PACKAGING / "linux"
ICONS = REPO / "resources" / "icons"
SMI = "{http://www.freedesktop.org/standards/shared-mime-info}"


def _load(name: str) -> types.ModuleType:
    """A script from packaging/ (not a package: its name would shadow the PyPI ``packaging``)."""
    key = f"_bridgeview_packaging_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, PACKAGING / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module  # dataclasses look their module up while the class is made
        spec.loader.exec_module(module)
    return sys.modules[key]


@pytest.fixture(scope="module")
def gen() -> types.ModuleType:
    return _load("make_desktop_files")


@pytest.fixture(scope="module")
def icons() -> types.ModuleType:
    return _load("make_icons")


def _desktop(path: Path = LINUX / "bridgeview.desktop") -> configparser.SectionProxy:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str  # desktop keys are case-sensitive
    parser.read_string(path.read_text(encoding="utf-8"))
    return parser["Desktop Entry"]


def _mime_types(path: Path = LINUX / "bridgeview-mime.xml") -> dict[str, ET.Element]:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SMI}mime-info"
    return {node.get("type"): node for node in root.findall(f"{SMI}mime-type")}


def _globs(node: ET.Element) -> set[str]:
    return {g.get("pattern") for g in node.findall(f"{SMI}glob")}


# -- generated files ----------------------------------------------------------
def test_committed_files_match_the_registry(gen, tmp_path):
    written = gen.write_files(tmp_path)
    assert [p.name for p in written] == ["bridgeview.desktop", "bridgeview-mime.xml"]
    for path in written:
        committed = LINUX / path.name
        assert committed.read_bytes() == path.read_bytes(), (
            f"{committed} is stale: run python packaging/make_desktop_files.py"
        )
    assert gen.stale_files(LINUX) == []


def test_every_codec_extension_has_a_mime_type_in_the_launcher():
    types_ = _mime_types()
    globs = {g for node in types_.values() for g in _globs(node)}
    assert globs == {f"*.{ext}" for codec in all_codecs() for ext in codec.extensions}
    listed = _desktop()["MimeType"]
    assert listed.endswith(";")
    assert set(listed.rstrip(";").split(";")) == set(types_) | {"text/csv"}  # bridgeview is offered for any CSV


def test_one_mime_type_per_format_family():
    types_ = _mime_types()
    expected = {
        "application/x-pbn": {"*.pbn"},
        "application/x-bbo-lin": {"*.lin"},
        "application/x-duplimate-bri": {"*.bri"},
        "application/x-duplimate-dge": {"*.dge"},
        "application/x-duplimate-bre": {"*.bre"},
        "application/x-duplimate-dup": {"*.dup"},
        "application/x-pavlicek-zbs": {"*.zbs"},
        "application/x-pavlicek-zbd": {"*.zbd"},
        "application/x-pavlicek-zdd": {"*.zdd"},
        "application/x-pavlicek-zrd": {"*.zrd"},
        "application/x-pavlicek-zrj": {"*.zrj"},  # both ZRJ record sizes: a name cannot tell them apart
        "application/x-swiftbridge-deals": {"*.deals"},
        "application/x-swiftbridge-dx": {"*.dx"},
        "application/x-halscrib": {"*.crib", "*.hal", "*.cb64"},
        "application/x-duplimate-dlm": {"*.dlm"},
        "application/x-bridge-ber": {"*.ber"},
        "application/x-bridge-bhg": {"*.bhg"},
        "application/x-bridge-cds": {"*.cds"},
        "application/x-bridge-csv": {"*.csv"},
        "application/x-bridge-rzd": {"*.rzd"},
    }
    for name, globs in expected.items():
        assert _globs(types_[name]) == globs, name


def test_mime_xml_details():
    types_ = _mime_types()
    for name, node in types_.items():
        assert (node.findtext(f"{SMI}comment") or "").strip(), name
        assert node.find(f"{SMI}icon").get("name") == "bridgeview"
        parents = {p.get("type") for p in node.findall(f"{SMI}sub-class-of")}
        text = name in (
            "application/x-pbn",
            "application/x-bbo-lin",
            "application/x-halscrib",
            "application/x-duplimate-dlm",
            "application/x-bridge-bhg",
        )
        if name == "application/x-bridge-csv":  # spreadsheets keep *.csv: a lower glob weight, a text/csv child
            assert parents == {"text/csv"}
            assert [g.get("weight") for g in node.findall(f"{SMI}glob")] == ["10"]
            continue
        assert parents == ({"text/plain"} if text else set()), name
    pbn = {m.get("value") for m in types_["application/x-pbn"].iter(f"{SMI}match")}
    assert {"% PBN", "[Event"} <= pbn
    assert not list(types_["application/x-pavlicek-zbd"].iter(f"{SMI}match"))  # binary: no magic


def test_magic_strings_satisfy_the_codecs_own_sniffing(gen):
    for name, (priority, matches) in gen.MAGIC.items():
        codec = registry.get(name)
        assert 0 <= priority <= 100
        for value, offset in matches:
            head = (value + ' "x"]\n').encode("ascii")
            assert codec.sniff(head, len(head)) >= 60, (name, value)
            start, _, end = offset.partition(":")
            assert int(start) <= int(end or start)


def test_a_new_codec_is_picked_up(gen, monkeypatch):
    class TabCodec(BridgeCodec):
        name = "tabdeal"
        title = "Tab-separated deals"
        extensions = ("tabd", "tsvd")
        binary = False

    all_codecs()  # load the real ones first
    monkeypatch.setitem(registry._CODECS, "tabdeal", TabCodec())
    entry, xml = gen.desktop_entry(), gen.mime_xml()
    assert "application/x-tabdeal;" in entry
    node = ET.fromstring(xml).find(f"{SMI}mime-type[@type='application/x-tabdeal']")
    assert _globs(node) == {"*.tabd", "*.tsvd"}
    assert node.findtext(f"{SMI}comment") == "Tab-separated deals"


def test_desktop_entry_keys():
    entry = _desktop()
    assert entry["Type"] == "Application"
    assert entry["Name"] == "bridgeview"
    assert entry["Exec"] == "bridgeview %F"
    assert entry["Icon"] == "bridgeview"
    assert entry["Terminal"] == "false"
    assert entry["Categories"] == "Game;CardGame;Utility;"
    validator = shutil.which("desktop-file-validate")
    if validator:
        proc = subprocess.run([validator, str(LINUX / "bridgeview.desktop")], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stdout + proc.stderr


# -- the icon -----------------------------------------------------------------
def _pixels(image) -> np.ndarray:
    from PySide6.QtGui import QImage

    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    w, h = image.width(), image.height()
    raw = np.frombuffer(image.constBits(), dtype=np.uint8, count=image.sizeInBytes())
    return raw.reshape(h, image.bytesPerLine())[:, : 4 * w].reshape(h, w, 4).astype(np.int16)


def test_svg_renders(qapp, icons):
    from PySide6.QtSvg import QSvgRenderer

    assert QSvgRenderer(str(ICONS / "bridgeview.svg")).isValid()
    px = _pixels(icons.render(ICONS / "bridgeview.svg", 64))
    alpha = px[:, :, 3]
    assert alpha[32, 32] == 255 and alpha[0, 0] == 0  # solid middle, transparent rounded corner
    assert (alpha > 0).mean() > 0.8
    red = (px[:, :, 2] > 150) & (px[:, :, 1] < 90) & (px[:, :, 0] < 90)  # BGRA: the red suits are there
    assert red.sum() > 20


def test_pngs_are_renders_of_the_svg(qapp, icons):
    from PySide6.QtGui import QImage

    for size in icons.SIZES:
        path = icons.png_path(size)
        committed = QImage(str(path))
        assert (committed.width(), committed.height()) == (size, size), path
        fresh = icons.render(ICONS / "bridgeview.svg", size)
        diff = np.abs(_pixels(committed) - _pixels(fresh)).mean()
        assert diff < 2.0, f"{path} differs from the SVG: run python packaging/make_icons.py"


def test_the_app_uses_the_icon(qapp):
    from bridgeview.resources import resource
    from bridgeview.ui.app import application

    assert resource("icons", "bridgeview.svg").is_file()
    app = application()
    assert not app.windowIcon().isNull()
    assert app.desktopFileName() == "bridgeview"


def test_every_package_ships_in_a_wheel():
    """setuptools' find_packages (pyproject) skips folders without __init__.py: a wheel would lack them."""
    folders = {p.parent for p in (REPO / "bridgeview").rglob("*.py") if "__pycache__" not in p.parts}
    missing = sorted(str(f.relative_to(REPO)) for f in folders if not (f / "__init__.py").is_file())
    assert not missing, f"no __init__.py in {missing}"


# -- the installer ------------------------------------------------------------
def test_install_script_syntax():
    proc = subprocess.run(["bash", "-n", str(PACKAGING / "install-linux.sh")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


def _run_installer(home: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(
        os.environ,
        HOME=str(home),
        XDG_DATA_HOME=str(home / "share"),
        XDG_CONFIG_HOME=str(home / "config"),
        PYTHON=sys.executable,
    )
    return subprocess.run(
        ["bash", str(PACKAGING / "install-linux.sh"), *args], env=env, capture_output=True, text=True, timeout=120
    )


def test_install_registers_and_uninstall_removes(tmp_path):
    if not shutil.which("bridgeview") and not (Path(sys.executable).parent / "bridgeview").exists():
        pytest.skip("the bridgeview command is not installed")
    proc = _run_installer(tmp_path, "--no-pip", "--no-default")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    share = tmp_path / "share"
    desktop = share / "applications" / "bridgeview.desktop"
    entry = _desktop(desktop)
    program, _, files = entry["Exec"].rpartition(" ")
    assert files == "%F"
    assert program == "bridgeview" or os.access(program.strip('"'), os.X_OK)
    assert entry["MimeType"] == _desktop()["MimeType"]
    assert (share / "mime" / "packages" / "bridgeview-mime.xml").read_bytes() == (
        LINUX / "bridgeview-mime.xml"
    ).read_bytes()
    assert (share / "icons" / "hicolor" / "scalable" / "apps" / "bridgeview.svg").is_file()
    for size in (16, 32, 48, 64, 128, 256):
        assert (share / "icons" / "hicolor" / f"{size}x{size}" / "apps" / "bridgeview.png").is_file()

    # the registered types are what a desktop (here Qt's MIME database) sees, by name and by content
    (tmp_path / "deal-without-extension").write_text('% PBN 2.1\n[Event "x"]\n')
    probe = (
        "import sys\nfrom PySide6.QtCore import QMimeDatabase\ndb = QMimeDatabase()\n"
        "print(*(db.mimeTypeForFile(f).name() for f in sys.argv[1:]))"
    )
    env = dict(os.environ, XDG_DATA_HOME=str(share))
    found = subprocess.run(
        [sys.executable, "-c", probe, "a.pbn", "b.ZRJ", "c.cb64", str(tmp_path / "deal-without-extension")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert found.stdout.split() == [
        "application/x-pbn",
        "application/x-pavlicek-zrj",
        "application/x-halscrib",
        "application/x-pbn",
    ], found.stderr

    proc = _run_installer(tmp_path, "--uninstall")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not desktop.exists()
    assert not list(share.rglob("bridgeview*"))


def test_install_script_rejects_unknown_options(tmp_path):
    proc = _run_installer(tmp_path, "--frobnicate")
    assert proc.returncode == 2 and "unknown option" in proc.stderr


# -- the PyInstaller recipe ---------------------------------------------------
class _Recorder:
    made: list = []

    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs
        self.pure = self.scripts = self.binaries = self.datas = []
        _Recorder.made.append(self)


def _run_spec(monkeypatch) -> None:
    """Execute packaging/bridgeview.spec against a stand-in PyInstaller; what it makes lands in _Recorder.made."""
    hooks = types.ModuleType("PyInstaller.utils.hooks")
    hooks.collect_data_files = hooks.collect_dynamic_libs = lambda package: []
    hooks.collect_submodules = lambda package: [package]
    for name, module in (
        ("PyInstaller", types.ModuleType("PyInstaller")),
        ("PyInstaller.utils", types.ModuleType("PyInstaller.utils")),
        ("PyInstaller.utils.hooks", hooks),
    ):
        monkeypatch.setitem(sys.modules, name, module)
    kinds = {name: type(name, (_Recorder,), {}) for name in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")}
    _Recorder.made = []
    spec = PACKAGING / "bridgeview.spec"
    exec(compile(spec.read_text(encoding="utf-8"), str(spec), "exec"), {"SPECPATH": str(PACKAGING), **kinds})


def test_pyinstaller_spec_bundles_resources(monkeypatch):
    _run_spec(monkeypatch)

    analysis = next(r for r in _Recorder.made if type(r).__name__ == "Analysis")
    script = Path(analysis.args[0][0])
    assert script.is_file()
    assert (str(REPO / "resources"), "resources") in analysis.kwargs["datas"]
    assert (str(REPO / "pyproject.toml"), ".") in analysis.kwargs["datas"]  # the version, for bridgeview.__version__
    assert {"bridgeview", "PySide6.QtSvg"} <= set(analysis.kwargs["hiddenimports"])
    exes = [r for r in _Recorder.made if type(r).__name__ == "EXE"]
    assert sorted(e.kwargs["name"] for e in exes) == ["bridgeview", "bridgeview-cli"]
    collect = next(r for r in _Recorder.made if type(r).__name__ == "COLLECT")
    assert collect.kwargs["name"] == "bridgeview"

    proc = subprocess.run([sys.executable, str(script), "--version"], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("bridgeview "), proc.stderr


# -- macOS Info.plist and the Windows installer ---------------------------------
def test_committed_platform_files_match_the_registry(gen, tmp_path):
    written = gen.write_platform_files(tmp_path)
    assert [p.relative_to(tmp_path).as_posix() for p in written] == ["macos/Info.plist", "windows/bridgeview.iss"]
    for path in written:
        committed = PACKAGING / path.relative_to(tmp_path)
        assert committed.read_bytes() == path.read_bytes(), (
            f"{committed} is stale: run python packaging/make_desktop_files.py"
        )
    assert gen.stale_platform_files() == []
    check = subprocess.run(
        [sys.executable, str(PACKAGING / "make_desktop_files.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stderr


def _plist() -> dict:
    import plistlib

    with open(PACKAGING / "macos" / "Info.plist", "rb") as f:
        return plistlib.load(f)


def test_info_plist_exports_a_type_for_every_extension():
    from bridgeview import __version__

    plist = _plist()
    assert plist["CFBundleIdentifier"] == "org.bridgeview.bridgeview"
    assert plist["CFBundleShortVersionString"] == __version__
    exported = {d["UTTypeIdentifier"]: d for d in plist["UTExportedTypeDeclarations"]}
    extensions = [e for d in exported.values() for e in d["UTTypeTagSpecification"]["public.filename-extension"]]
    assert sorted(extensions) == sorted({e for codec in all_codecs() for e in codec.extensions})  # each once
    mimes = {m for d in exported.values() for m in d["UTTypeTagSpecification"]["public.mime-type"]}
    assert mimes == set(_mime_types())  # the same families as on Linux
    pbn = exported["org.bridgeview.pbn"]
    assert pbn["UTTypeTagSpecification"]["public.filename-extension"] == ["pbn"]
    assert pbn["UTTypeConformsTo"] == ["public.text"]
    assert exported["org.bridgeview.pavlicek-zrd"]["UTTypeConformsTo"] == ["public.data"]
    documents = plist["CFBundleDocumentTypes"]
    assert sorted(u for d in documents for u in d["LSItemContentTypes"]) == sorted(exported)
    for d in documents:
        assert d["CFBundleTypeRole"] == "Editor" and d["CFBundleTypeName"], d


_INNO_FIELD = re.compile(r'(\w+): ("(?:[^"]|"")*"|[^;]*)')


def _inno() -> tuple[dict[str, str], list[dict[str, str]]]:
    """The [Setup] keys and the [Registry] entries (quotes undone) of the Inno Setup script."""
    setup, registry, section = {}, [], None
    for line in (PACKAGING / "windows" / "bridgeview.iss").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith(";"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
        elif section == "Setup":
            key, _, value = line.partition("=")
            setup[key] = value
        elif section == "Registry":
            fields = {}
            for key, value in _INNO_FIELD.findall(line):
                value = value.strip()
                if value.startswith('"'):
                    value = value[1:-1].replace('""', '"')
                fields[key] = value
            registry.append(fields)
    return setup, registry


def test_inno_script_registers_every_extension():
    from bridgeview import __version__

    setup, registry = _inno()
    assert setup["ChangesAssociations"] == "yes"
    assert setup["AppVersion"] == __version__
    assert setup["AppId"].startswith("{{")
    assert all(e["Root"] == "HKA" for e in registry)  # per-user or all users, as the installing user chooses
    keys = {(e["Subkey"], e["ValueName"]): e for e in registry}
    commands = {e["Subkey"].split("\\")[2]: e["ValueData"] for e in registry if e["Subkey"].endswith("open\\command")}
    assert set(commands.values()) == {'"{app}\\bridgeview.exe" "%1"'}
    assert all(len(prog) <= 39 for prog in commands)  # Windows' ProgID limit
    extensions = {e for codec in all_codecs() for e in codec.extensions}
    for ext in extensions:
        listed = [e["ValueName"] for e in registry if e["Subkey"] == f"Software\\Classes\\.{ext}\\OpenWithProgids"]
        assert len(listed) == 1 and listed[0] in commands, ext
        default = keys[(f"Software\\Classes\\.{ext}", "")]
        assert default["ValueData"] == listed[0] and default["Tasks"] == "associate", ext  # only if ticked
        assert ("Software\\Classes\\Applications\\bridgeview.exe\\SupportedTypes", f".{ext}") in keys
    assert keys[("Software\\Classes\\.pbn", "Content Type")]["ValueData"] == "application/x-pbn"
    assert commands.keys() == {"bridgeview." + name.split("/")[1].removeprefix("x-") for name in _mime_types()}


def test_a_new_codec_reaches_macos_and_windows(gen, monkeypatch):
    class TabCodec(BridgeCodec):
        name = "tabdeal"
        title = "Tab-separated deals"
        extensions = ("tabd",)
        binary = False

    all_codecs()
    monkeypatch.setitem(registry._CODECS, "tabdeal", TabCodec())
    files = gen.platform_files()
    assert "<string>org.bridgeview.tabdeal</string>" in files["macos/Info.plist"]
    inno = files["windows/bridgeview.iss"]
    assert (
        'Subkey: "Software\\Classes\\.tabd\\OpenWithProgids"; ValueType: string; ValueName: "bridgeview.tabdeal"'
    ) in inno


def test_pyinstaller_spec_gives_the_mac_app_its_document_types(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    _run_spec(monkeypatch)
    bundle = next(r for r in _Recorder.made if type(r).__name__ == "BUNDLE")
    info = bundle.kwargs["info_plist"]
    assert info["CFBundleDocumentTypes"] == _plist()["CFBundleDocumentTypes"]
    assert info["UTExportedTypeDeclarations"] == _plist()["UTExportedTypeDeclarations"]
    assert "CFBundleExecutable" not in info  # PyInstaller names the executable


# -- the bundle script ----------------------------------------------------------
def test_bundle_script_is_named_in_the_readme_and_fails_without_a_bundle(tmp_path):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert "python3 -m pip install -e '.[bundle]' && python3 packaging/build_bundle.py" in readme
    proc = subprocess.run(
        [sys.executable, str(PACKAGING / "build_bundle.py"), "--smoke-only", "--dist", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1
    assert "bridgeview-cli does not exist: build the bundle first" in proc.stderr
