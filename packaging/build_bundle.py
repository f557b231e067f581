"""Build the stand-alone PyInstaller bundle and smoke-test it, as a user of the bundle would run it.

Run from the checkout, in an environment with bridgeview and PyInstaller:

    python3 -m pip install -e '.[bundle]' && python3 packaging/build_bundle.py

It runs ``pyinstaller packaging/bridgeview.spec`` into ``dist/bridgeview/`` (work
files in ``build/pyinstaller/``), then runs the bundled ``bridgeview-cli``
with no Python environment to lean on (PYTHONPATH, PYTHONHOME and the venv are
removed from its environment, and it runs from a temporary folder):
``--version``; ``info`` and ``render --window`` on the sample inside the bundle
(fonts and icon must load: no Qt "Cannot open" warnings); ``convert`` of the
sample to ZBD (which drops its DD tables) and ``solve`` back to PBN, which
needs DDS (endplay's libdds) to load from the bundle.  Prints the bundle's size.
``--smoke-only`` tests an existing bundle.  Takes minutes: not part of the test
suite.  Exit status 1 when the build or a check fails.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "bridgeview.spec"


def build(dist: Path, work: Path) -> None:
    """Run PyInstaller on the recipe."""
    try:
        import PyInstaller  # noqa: F401
    except ImportError:
        raise SystemExit("build_bundle: PyInstaller is not installed: python3 -m pip install -e '.[bundle]'") from None
    cmd = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN", "--distpath", str(dist),
           "--workpath", str(work), str(SPEC)]
    print("+", " ".join(cmd), flush=True)
    subprocess.run(cmd, cwd=ROOT, check=True)


def _clean_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV", "CONDA"))}
    env.update(QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(home / "config"))
    return env


def size_mb(folder: Path) -> float:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink()) / 2**20


def smoke(bundle: Path) -> list[str]:
    """Run the bundled CLI; returns the failures (empty when all is well)."""
    exe = bundle / ("bridgeview-cli.exe" if os.name == "nt" else "bridgeview-cli")
    if not exe.exists():
        return [f"{exe} does not exist: build the bundle first"]
    samples = sorted(bundle.rglob("sample.pbn"))
    if not samples:
        return ["the bundle holds no sample.pbn: resources/ was not bundled"]
    sample = samples[0]
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="bridgeview-bundle-smoke-") as tmp:
        home = Path(tmp)
        env = _clean_env(home)

        def run(*args: str, expect: str = "") -> subprocess.CompletedProcess | None:
            proc = subprocess.run([str(exe), *args], cwd=home, env=env, capture_output=True, text=True, timeout=600)
            shown = " ".join(args)
            if proc.returncode != 0:
                failures.append(f"bridgeview-cli {shown}: exit {proc.returncode}: {proc.stderr.strip()[-500:]}")
                return None
            if "Cannot open" in proc.stderr:
                failures.append(f"bridgeview-cli {shown}: {proc.stderr.strip()[-500:]}")
            if expect and expect not in proc.stdout:
                failures.append(f"bridgeview-cli {shown}: {expect!r} not in its output: {proc.stdout[-300:]}")
            print(f"ok: bridgeview-cli {shown}", flush=True)
            return proc

        run("--version", expect="bridgeview ")
        run("info", str(sample), expect="boards:        16")
        shot = home / "window.png"
        if run("render", str(sample), "--board", "3", "--window", "-o", str(shot)) and (
                not shot.exists() or shot.stat().st_size < 20_000):
            failures.append("render --window wrote no (or an empty) picture")
        bare = home / "deals.zbd"
        solved = home / "solved.pbn"
        run("convert", str(sample), str(bare))
        if run("solve", str(bare), str(solved), "--jobs", "2"):
            text = solved.read_text(encoding="utf-8", errors="replace")
            if text.count("[OptimumResultTable") != 16:
                failures.append("solve wrote no DD tables: libdds did not load from the bundle?")
    return failures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dist", type=Path, default=ROOT / "dist", help="where the bundle goes (default: dist/)")
    ap.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller", help="PyInstaller's work folder")
    ap.add_argument("--smoke-only", action="store_true", help="only test an existing bundle")
    args = ap.parse_args(argv)
    if not args.smoke_only:
        build(args.dist, args.work)
    bundle = args.dist / "bridgeview"
    failures = smoke(bundle)
    for failure in failures:
        print(f"FAILED: {failure}", file=sys.stderr)
    if bundle.is_dir():
        print(f"bundle: {bundle} ({size_mb(bundle):.0f} MB)")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
