"""Where the app's bundled files (fonts, icons, sample board set, licences) live.

The repository keeps them in its top-level ``resources/`` folder; a wheel (see
setup.py) and the PyInstaller bundle carry the same files as the package data
``bridgeview/data``.  An installed or frozen app finds them there through
``importlib.resources``; a checkout or an editable install, whose package
folder has no ``data/``, finds the checkout's folder instead.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def _locate() -> Path:
    packaged = Path(str(files("bridgeview") / "data"))
    if (packaged / "sample.pbn").is_file():
        return packaged
    return Path(__file__).resolve().parent.parent / "resources"


RESOURCES = _locate()


def resource(*parts: str) -> Path:
    """Path of a bundled file (``resource("fonts", "DejaVuSans.ttf")``), wherever the app is installed."""
    return RESOURCES.joinpath(*parts)
