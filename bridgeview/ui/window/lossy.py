"""After a save that could not keep everything: the tabs show each file as it really is.

Saving a PBN with auctions and play as BRI writes only the deals.  Relabelling
the tab with the new name would show data the BRI file does not hold, so:

- Save As into another file: the original tab stays as it was (its own file,
  its edits and undo history), and the new file opens in a tab beside it,
  read back from disk, showing exactly what it holds.
- Save over the tab's own file: the tab is re-opened from the file in place.

A tab already showing the target file is refreshed the same way.
"""

from __future__ import annotations

import os

from ...app.document import Document
from ...formats.codec import Codec
from ...formats.errors import FormatError
from ...formats.registry import read_file
from .. import dialogs
from ..document.services import BoardView, WindowServices
from ..document.tab import DocumentTab
from ..plaintext import plain_tooltip


def _replace_tab(window: WindowServices, old: DocumentTab, path: str, codec: Codec) -> DocumentTab | None:
    """Re-read ``path`` into a fresh tab in ``old``'s place (``old`` is closed); None when it cannot be read."""
    try:
        doc = Document(read_file(path, codec.name), path, codec.name)
    except (FormatError, OSError, ValueError) as e:
        text = e.full() if isinstance(e, FormatError) else f"{path}: {e}"
        dialogs.message("error", window.window(), "Cannot re-open", f"Saved, but cannot read the file back:\n\n{text}")
        return None
    index = window.tabs.indexOf(old)
    view = window.make_tab(doc)
    current = old.current_index() if isinstance(old, BoardView) else -1
    window.undo_group.removeStack(old.undo_stack)
    old.shutdown()
    window.tabs.insertTab(index, view, view.title())
    window.tabs.setTabToolTip(index, plain_tooltip(path))  # a file name may look like HTML
    window.tabs.removeTab(window.tabs.indexOf(old))
    old.deleteLater()
    window.tabs.setCurrentWidget(view)
    if isinstance(view, BoardView) and 0 <= current < len(view.boards):
        view.select_board(current)
    return view


def after_lossy_save(window: WindowServices, view: DocumentTab, path: str, codec: Codec, losses: list[str]) -> bool:
    """Show ``path`` as written (see the module docstring); True (the file was written either way)."""
    name = os.path.basename(path)
    window.add_recent(path)
    if view.path == path:
        _replace_tab(window, view, path, codec)
        window.statusBar().showMessage(
            f"Saved {name} as {codec.title} without {'; '.join(losses)}: re-opened as the file now holds it", 10000
        )
        return True
    for other in window.views():
        if other is not view and other.path == path:
            _replace_tab(window, other, path, codec)
            break
    else:
        window.open_file(path)
    window.statusBar().showMessage(
        f"Saved {name} as {codec.title} without {'; '.join(losses)}: opened beside "
        f"{os.path.basename(view.path) if view.path else view.untitled_name}, which stays as it was",
        10000,
    )
    return True


__all__ = ["after_lossy_save"]
