"""Generate the files that let users double-click a deal file, on Linux, macOS and Windows.

``packaging/linux/bridgeview.desktop`` (the launcher: ``Exec=bridgeview %F`` and
every MIME type bridgeview opens) and ``packaging/linux/bridgeview-mime.xml``
(shared-mime-info: which file names and leading bytes make each type),
``packaging/macos/Info.plist`` (the app bundle's document types and exported
UTIs) and ``packaging/windows/bridgeview.iss`` (an Inno Setup installer that
registers a ProgID per type and its extensions) are all written from the format
registry, so a new codec module is picked up by re-running this one script;
``tests/test_packaging.py`` fails while the committed files are stale.
Run:  python packaging/make_desktop_files.py [--check] [--out DIR]
"""

from __future__ import annotations

import argparse
import plistlib
import sys
import uuid
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "packaging" / "linux"
PACKAGING = ROOT / "packaging"
PLIST_NAME = "macos/Info.plist"
INNO_NAME = "windows/bridgeview.iss"
BUNDLE_ID = "org.bridgeview.bridgeview"
#: Inno Setup's AppId: fixed for ever, so that a new version upgrades the old one in place
APP_ID = str(uuid.uuid5(uuid.NAMESPACE_DNS, "bridgeview.org")).upper()
DESKTOP_NAME = "bridgeview.desktop"
MIME_NAME = "bridgeview-mime.xml"
ICON = "bridgeview"
SMI_NAMESPACE = "http://www.freedesktop.org/standards/shared-mime-info"

#: format family (the module or package under bridgeview.formats) -> the program or author the MIME subtype is
#: named after; a family not listed here (pbn, halscrib) gets ``application/x-<codec name>``
VENDORS = {
    "exchange": "bridge",  # BER, BHG, CDS, CSV, RZD: "x-ber" alone would claim ASN.1 BER, "x-csv" every CSV
    "swiftbridge": "swiftbridge",
    "duplimate": "duplimate",
    "lin": "bbo",
    "pavlicek": "pavlicek",
}

#: codec name -> (priority, [(value, offset)]): leading bytes that identify the
#: format without its extension.  Only text formats have any; each value must
#: satisfy the codec's own ``sniff`` (checked by tests/test_packaging.py).
#: Offsets "0:3" allow a UTF-8 byte-order mark; a PBN file may open with other
#: comment lines before its first ``[Event`` tag.
MAGIC = {
    "pbn": (60, [("% PBN", "0:3"), ("%PBN", "0:3"), ("[Event", "0:256")]),
    "lin": (40, [(tag + "|", "0:3") for tag in ("qx", "vg", "pn", "md", "st", "ah", "rs")]),
    "dlm": (60, [("[Document]", "0:3"), ("[DOCUMENT]", "0:3"), ("[document]", "0:3")]),
}


#: codec name -> (glob weight, parent type) for an extension that a common type already owns:
#: the lower weight leaves ``*.csv`` to spreadsheets, and bridgeview is offered for the parent type too
SHARED_EXTENSION = {
    "csv": (10, "text/csv"),
}


@dataclass
class MimeType:
    """One MIME type: the codecs it stands for and the file-name globs that select it."""

    name: str
    comment: str
    extensions: list[str]
    text: bool
    magic: tuple[int, list[tuple[str, str]]] | None
    shared: tuple[int, str] | None = None  # (glob weight, parent type) when a common type owns the extension


def _codecs():
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from bridgeview.formats.registry import all_codecs

    return sorted(all_codecs(), key=lambda c: c.name)


def mime_name(codec) -> str:
    """``application/x-<vendor>-<name>``, or ``application/x-<name>`` for a format named after itself."""
    vendor = VENDORS.get(type(codec).__module__.removeprefix("bridgeview.formats.").split(".")[0])
    if vendor and vendor != codec.name:
        return f"application/x-{vendor}-{codec.name}"
    return f"application/x-{codec.name}"


def mime_types() -> list[MimeType]:
    """One MIME type per format family; codecs that share an extension (ZRJ 80/16-byte) share a type,
    named after the codec whose name is that extension, since a file name cannot tell them apart."""
    groups: list[list] = []
    for codec in _codecs():
        joined = [g for g in groups if any(set(codec.extensions) & set(c.extensions) for c in g)]
        merged = [codec] + [c for g in joined for c in g]
        groups = [g for g in groups if g not in joined] + [merged]
    types = []
    for group in groups:
        extensions = sorted({e for c in group for e in c.extensions})
        named = [c for c in group if c.name in extensions] or group
        lead = min(named, key=lambda c: c.name)
        titles = [lead.title] + sorted(c.title for c in group if c is not lead)
        magics = [MAGIC[c.name] for c in group if c.name in MAGIC]
        types.append(MimeType(
            name=mime_name(lead),
            comment=" or ".join(titles),
            extensions=extensions,
            text=all(not c.binary for c in group),
            magic=magics[0] if magics else None,
            shared=next((SHARED_EXTENSION[c.name] for c in group if c.name in SHARED_EXTENSION), None),
        ))
    return sorted(types, key=lambda t: t.name)


def mime_xml(types: list[MimeType] | None = None) -> str:
    """The shared-mime-info package file."""
    types = mime_types() if types is None else types
    root = ET.Element("mime-info", {"xmlns": SMI_NAMESPACE})
    for t in types:
        node = ET.SubElement(root, "mime-type", {"type": t.name})
        ET.SubElement(node, "comment").text = t.comment
        if t.shared:
            ET.SubElement(node, "sub-class-of", {"type": t.shared[1]})
        elif t.text:
            ET.SubElement(node, "sub-class-of", {"type": "text/plain"})
        ET.SubElement(node, "icon", {"name": ICON})
        for ext in t.extensions:
            glob = {"pattern": f"*.{ext}"} | ({"weight": str(t.shared[0])} if t.shared else {})
            ET.SubElement(node, "glob", glob)
        if t.magic:
            priority, matches = t.magic
            magic = ET.SubElement(node, "magic", {"priority": str(priority)})
            for value, offset in matches:
                ET.SubElement(magic, "match", {"type": "string", "value": value, "offset": offset})
    ET.indent(root, "  ")
    body = ET.tostring(root, encoding="unicode")
    head = ('<?xml version="1.0" encoding="UTF-8"?>\n'
            "<!-- Generated by packaging/make_desktop_files.py from the format registry; do not edit. -->\n")
    return head + body + "\n"


def desktop_entry(types: list[MimeType] | None = None) -> str:
    """The launcher; ``%F`` passes every selected file, each opens in its own tab."""
    types = mime_types() if types is None else types
    mimes = "".join(f"{t.name};" for t in types) + "".join(
        sorted({f"{t.shared[1]};" for t in types if t.shared}))
    keywords = "bridge;deal;hand record;double dummy;cribbage;" + "".join(
        f"{e.upper()};" for e in sorted({e for t in types for e in t.extensions}))
    lines = [
        "# Generated by packaging/make_desktop_files.py from the format registry; do not edit.",
        "[Desktop Entry]",
        "Type=Application",
        "Version=1.4",
        "Name=bridgeview",
        "GenericName=Bridge Deal Viewer",
        "Comment=View, check, replay, edit and convert contract-bridge deal files",
        "Exec=bridgeview %F",
        "TryExec=bridgeview",
        f"Icon={ICON}",
        "Terminal=false",
        "StartupNotify=true",
        "Categories=Game;CardGame;Utility;",
        f"Keywords={keywords}",
        f"MimeType={mimes}",
    ]
    return "\n".join(lines) + "\n"


def _version() -> str:
    _codecs()  # puts the checkout on sys.path
    from bridgeview import __version__

    return __version__


def uti(t: MimeType) -> str:
    """The macOS Uniform Type Identifier for a MIME type: ``application/x-pbn`` -> ``org.bridgeview.pbn``."""
    return "org.bridgeview." + t.name.split("/", 1)[1].removeprefix("x-")


def prog_id(t: MimeType) -> str:
    """The Windows ProgID for a MIME type: ``application/x-pavlicek-zrj`` -> ``bridgeview.pavlicek-zrj``."""
    return "bridgeview." + t.name.split("/", 1)[1].removeprefix("x-")


def info_plist(types: list[MimeType] | None = None) -> str:
    """The app bundle's Info.plist: one document type per MIME type (bridgeview opens and saves them,
    so it is their Editor and Owner) and the exported UTIs that give the extensions a type on macOS."""
    types = mime_types() if types is None else types
    version = _version()
    plist = {
        "CFBundleName": "bridgeview",
        "CFBundleDisplayName": "bridgeview",
        "CFBundleIdentifier": BUNDLE_ID,
        "CFBundleExecutable": "bridgeview",
        "CFBundlePackageType": "APPL",
        "CFBundleIconFile": "bridgeview.icns",
        "CFBundleShortVersionString": version,
        "CFBundleVersion": version,
        "CFBundleInfoDictionaryVersion": "6.0",
        "NSHighResolutionCapable": True,
        "NSPrincipalClass": "NSApplication",
        "LSApplicationCategoryType": "public.app-category.card-games",
        "CFBundleDocumentTypes": [
            {
                "CFBundleTypeName": t.comment,
                "CFBundleTypeRole": "Editor",
                "LSHandlerRank": "Owner",
                "LSItemContentTypes": [uti(t)],
            }
            for t in types
        ],
        "UTExportedTypeDeclarations": [
            {
                "UTTypeIdentifier": uti(t),
                "UTTypeDescription": t.comment,
                "UTTypeConformsTo": ["public.text" if t.text else "public.data"],
                "UTTypeTagSpecification": {
                    "public.filename-extension": t.extensions,
                    "public.mime-type": [t.name],
                },
            }
            for t in types
        ],
    }
    return plistlib.dumps(plist, sort_keys=False).decode("utf-8")


def _inno_quote(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


def inno_script(types: list[MimeType] | None = None) -> str:
    """An Inno Setup script that installs the PyInstaller bundle (``dist/bridgeview``) and, unless the user
    unticks the task, makes bridgeview open every registered extension through one ProgID per MIME type."""
    types = mime_types() if types is None else types
    version = _version()
    extensions = sorted({e for t in types for e in t.extensions})
    lines = [
        "; Generated by packaging/make_desktop_files.py from the format registry; do not edit.",
        "; Build the bundle first (python packaging/build_bundle.py), then compile this with Inno Setup 6:",
        ";   iscc packaging\\windows\\bridgeview.iss",
        "",
        "[Setup]",
        f"AppId={{{{{APP_ID}}}",
        "AppName=bridgeview",
        f"AppVersion={version}",
        "AppPublisher=bridgeview",
        "DefaultDirName={autopf}\\bridgeview",
        "DefaultGroupName=bridgeview",
        "DisableProgramGroupPage=yes",
        "PrivilegesRequiredOverridesAllowed=dialog",
        "ChangesAssociations=yes",
        "ArchitecturesAllowed=x64compatible",
        "ArchitecturesInstallIn64BitMode=x64compatible",
        "SourceDir=..\\..",
        "OutputDir=dist",
        f"OutputBaseFilename=bridgeview-{version}-setup",
        "UninstallDisplayIcon={app}\\bridgeview.exe",
        "Compression=lzma2",
        "SolidCompression=yes",
        "WizardStyle=modern",
        "",
        "[Tasks]",
        'Name: "associate"; Description: "Open deal files ('
        + ", ".join(f".{e}" for e in extensions)
        + ') with bridgeview"; GroupDescription: "File associations:"',
        'Name: "desktopicon"; Description: "{cm:CreateDesktopIcon}"; GroupDescription: "{cm:AdditionalIcons}"; '
        "Flags: unchecked",
        "",
        "[Files]",
        'Source: "dist\\bridgeview\\*"; DestDir: "{app}"; Flags: ignoreversion recursesubdirs createallsubdirs',
        "",
        "[Icons]",
        'Name: "{autoprograms}\\bridgeview"; Filename: "{app}\\bridgeview.exe"',
        'Name: "{autodesktop}\\bridgeview"; Filename: "{app}\\bridgeview.exe"; Tasks: desktopicon',
        "",
        "[Registry]",
        "; bridgeview.exe is offered in \"Open with\" for every extension, whatever the task says",
    ]
    app_key = "Software\\Classes\\Applications\\bridgeview.exe"
    lines.append(f'Root: HKA; Subkey: "{app_key}"; ValueType: string; ValueName: "FriendlyAppName"; '
                 'ValueData: "bridgeview"; Flags: uninsdeletekey')
    for ext in extensions:
        lines.append(f'Root: HKA; Subkey: "{app_key}\\SupportedTypes"; ValueType: string; ValueName: ".{ext}"; '
                     'ValueData: ""')
    for t in types:
        key = f"Software\\Classes\\{prog_id(t)}"
        lines += [
            f"; {t.name}: {t.comment}",
            f'Root: HKA; Subkey: "{key}"; ValueType: string; ValueName: ""; ValueData: {_inno_quote(t.comment)}; '
            "Flags: uninsdeletekey",
            f'Root: HKA; Subkey: "{key}\\DefaultIcon"; ValueType: string; ValueName: ""; '
            'ValueData: "{app}\\bridgeview.exe,0"',
            f'Root: HKA; Subkey: "{key}\\shell\\open\\command"; ValueType: string; ValueName: ""; '
            'ValueData: """{app}\\bridgeview.exe"" ""%1"""',
        ]
        for ext in t.extensions:
            ext_key = f"Software\\Classes\\.{ext}"
            lines += [
                f'Root: HKA; Subkey: "{ext_key}\\OpenWithProgids"; ValueType: string; ValueName: "{prog_id(t)}"; '
                'ValueData: ""; Flags: uninsdeletevalue',
                f'Root: HKA; Subkey: "{ext_key}"; ValueType: string; ValueName: ""; ValueData: "{prog_id(t)}"; '
                "Flags: uninsdeletevalue; Tasks: associate",
                f'Root: HKA; Subkey: "{ext_key}"; ValueType: string; ValueName: "Content Type"; '
                f'ValueData: "{t.name}"; Flags: createvalueifdoesntexist uninsdeletevalue',
            ]
    return "\r\n".join(lines) + "\r\n"


def platform_files(types: list[MimeType] | None = None) -> dict[str, str]:
    """macOS and Windows files, by path under ``packaging/``."""
    types = mime_types() if types is None else types
    return {PLIST_NAME: info_plist(types), INNO_NAME: inno_script(types)}


def write_platform_files(root: Path = PACKAGING) -> list[Path]:
    """Write Info.plist and the Inno Setup script under ``root``; return their paths."""
    out = []
    for name, text in platform_files().items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
        out.append(path)
    return out


def stale_platform_files(root: Path = PACKAGING) -> list[Path]:
    """The committed macOS/Windows files whose bytes differ from what the registry gives now."""
    return [root / name for name, text in platform_files().items()
            if not (root / name).exists() or (root / name).read_bytes() != text.encode("utf-8")]


def write_files(folder: Path = OUT) -> list[Path]:
    """Write both files into ``folder``; return their paths."""
    folder.mkdir(parents=True, exist_ok=True)
    types = mime_types()
    out = []
    for name, text in ((DESKTOP_NAME, desktop_entry(types)), (MIME_NAME, mime_xml(types))):
        path = folder / name
        path.write_text(text, encoding="utf-8", newline="\n")
        out.append(path)
    return out


def stale_files(folder: Path = OUT) -> list[Path]:
    """The committed files whose text differs from what the registry gives now."""
    types = mime_types()
    wanted = {DESKTOP_NAME: desktop_entry(types), MIME_NAME: mime_xml(types)}
    stale = []
    for name, text in wanted.items():
        path = folder / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            stale.append(path)
    return stale


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=PACKAGING,
                        help="folder to write to (default: packaging; the files go to its linux/, macos/, windows/)")
    parser.add_argument("--check", action="store_true", help="only report stale files (exit 1 if any)")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files(args.out / "linux") + stale_platform_files(args.out)
        for path in stale:
            print(f"stale: {path} (run python packaging/make_desktop_files.py)", file=sys.stderr)
        return 1 if stale else 0
    for path in write_files(args.out / "linux") + write_platform_files(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
