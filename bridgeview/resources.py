"""Where the app's bundled files (fonts, sample board set, licences) live."""

from __future__ import annotations

from pathlib import Path

RESOURCES = Path(__file__).resolve().parent.parent / "resources"


def resource(*parts: str) -> Path:
    """Path of a bundled file under the project's ``resources/`` folder."""
    return RESOURCES.joinpath(*parts)
