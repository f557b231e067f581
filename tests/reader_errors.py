"""Telling a reader's bug from bad input in what it reports.

Readers survive their own bugs: the PBN reader keeps a game it failed on and reports
``could not read this game (TypeError: ...)``, a lazily decoded record that raised
becomes an unreadable board ``KeyError: ...``.  The user still gets their file, so the
fuzz and property tests would pass a reader that fails on every auction unless they look
at these texts.  An expected problem is worded for users; an unexpected exception is
shown with its Python type, and that is what :func:`internal_errors` finds.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from bridgeview.formats.codec import is_lazy_text

#: a Python exception's name followed by its message ("KeyError: 5", "could not read this game (TypeError: ...)"),
#: or the words "internal error"; FormatError is the readers' own error for bad input, never a bug
INTERNAL = re.compile(
    r"\b(?!FormatError\b)[A-Z][A-Za-z]*(?:Error|Exception|Iteration|Interrupt|Exit)\b: |\binternal error\b"
)


def is_internal(text: str) -> bool:
    """Whether a problem text comes from an unexpected exception rather than a check of the input."""
    return INTERNAL.search(text) is not None


def internal_errors(texts: Iterable[str]) -> list[str]:
    """The texts among ``texts`` that come from unexpected exceptions."""
    return [t for t in texts if is_internal(t)]


def reported_texts(doc: Any) -> list[str]:
    """Everything a read document tells its user: the reader's problems, each board's problems
    (an unreadable record's reason included), or a cribbage game's problems."""
    if not hasattr(doc, "info"):  # a cribbage game
        return list(doc.problems())
    texts = [msg for _i, _line, msg in doc.problems]
    for b in doc:
        texts.extend(b.problems())
        if b.unreadable:
            texts.append(b.unreadable)
    problems_of = doc.problems_of if is_lazy_text(doc) else None
    if problems_of is not None:
        for i in range(len(doc)):
            texts.extend(msg for _line, msg in problems_of(i))
    return texts


def assert_no_internal_error(texts: Iterable[str], where: object = "") -> None:
    """Fail when any of ``texts`` comes from an unexpected exception: a reader bug, not bad input."""
    bad = internal_errors(texts)
    assert not bad, f"{where}: a reader raised an unexpected exception: {bad[0]!r}"
