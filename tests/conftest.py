"""Test set-up: offscreen Qt, and paths to the shared real files (skipped when absent)."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# Keep the tests' QSettings (recent files, window state, replay options) away from the user's own.
_CONFIG = tempfile.mkdtemp(prefix="bridgeview-test-config-")
os.environ["XDG_CONFIG_HOME"] = _CONFIG
atexit.register(shutil.rmtree, _CONFIG, ignore_errors=True)

REPO = Path(__file__).resolve().parent.parent
SHARED = REPO.parent / "shared"
REALDATA = SHARED / "realdata"
SPECS = SHARED / "specs"


@pytest.fixture
def realdata() -> Path:
    """The shared real-world files; the test is skipped when ../shared is absent."""
    if not REALDATA.is_dir():
        pytest.skip("../shared/realdata is not present")
    return REALDATA


def realdata_files(sub: str, pattern: str = "*") -> list[Path]:
    """Real files for parametrisation (an empty list when ../shared is absent)."""
    d = REALDATA / sub
    return sorted(d.glob(pattern)) if d.is_dir() else []


class Messages:
    """Stands in for ``bridgeview.ui.dialogs.message``: records calls, answers with ``answer``."""

    def __init__(self, answer=None) -> None:
        from bridgeview.ui import dialogs

        self.calls: list[tuple[str, str, str]] = []
        self.answer = dialogs.Button.Ok if answer is None else answer

    def __call__(self, kind, parent, title, text, *rest, **kw):
        self.calls.append((kind, title, text))
        return self.answer


@pytest.fixture
def messages(monkeypatch) -> Messages:
    """Message boxes recorded instead of shown (they would block an offscreen test)."""
    from bridgeview.ui import dialogs

    m = Messages()
    monkeypatch.setattr(dialogs, "message", m)
    return m


@pytest.fixture(autouse=True)
def _message_boxes_never_block(request, monkeypatch):
    """Outside tests that use ``messages``, a message box answers at once instead of waiting offscreen
    for a click that never comes (a window closed at teardown with a modified document asks to save:
    the answer is Discard, else No or Cancel, else the default button)."""
    if "messages" in request.fixturenames or request.node.get_closest_marker("real_message_box"):
        yield
        return
    from bridgeview.ui import dialogs

    Button = dialogs.Button

    def answer(kind, parent, title, text, buttons=Button.Ok, default=Button.NoButton, *rest, **kw):
        for choice in (Button.Discard, Button.No, Button.Cancel):
            if buttons.value & choice.value:
                return choice
        return default if default != Button.NoButton else Button.Ok

    monkeypatch.setattr(dialogs, "message", answer)
    yield
