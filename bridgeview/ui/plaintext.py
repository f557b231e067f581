"""Text from files shown as text, never as HTML.

Qt guesses whether a label's or tooltip's text is rich text (``Qt.mightBeRichText``):
a LIN explanation ``<img src="/dev/zero">`` would be rendered, load the "image" and
kill the app.  Every text that comes from a file goes through these helpers: labels
are switched to ``Qt.PlainText``, and tooltips (which have no such switch) are sent
as rich text we build ourselves, with the file's text escaped.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

#: a tooltip longer than this is cut: a 500 KB explanation must not take seconds to lay out
TOOLTIP_LIMIT = 2000
#: a label longer than this is cut for the same reason (the Details tab shows the rest)
LABEL_LIMIT = 20_000


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, so pathological files stay quick to show."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def plain_label(label: QLabel) -> QLabel:
    """``label`` set to show its text literally, whatever it contains; returns it for chaining."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def set_plain_text(label: QLabel, text: str) -> None:
    """Show ``text`` in ``label`` literally (and clipped to :data:`LABEL_LIMIT`)."""
    if label.textFormat() != Qt.TextFormat.PlainText:
        label.setTextFormat(Qt.TextFormat.PlainText)
    label.setText(clip(text, LABEL_LIMIT))


def plain_tooltip(text: str | None) -> str:
    """A tooltip that shows ``text`` literally: escaped inside markup of our own (Qt would
    otherwise render text that looks like HTML), line breaks kept; ``""`` for no text."""
    if not text:
        return ""
    body = html.escape(clip(text, TOOLTIP_LIMIT)).replace("\n", "<br>")
    return f"<p style='white-space:pre-wrap'>{body}</p>"


def tooltip_text(tip: str | None) -> str:
    """What the user reads in a tooltip: rich text as Qt renders it (to plain text), else ``tip``."""
    if not tip:
        return ""
    from PySide6.QtGui import Qt as GuiQt
    from PySide6.QtGui import QTextDocument

    if not GuiQt.mightBeRichText(tip):
        return tip

    doc = QTextDocument()
    doc.setHtml(tip)
    return doc.toPlainText().replace("\u2028", "\n")
