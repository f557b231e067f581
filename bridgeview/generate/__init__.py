"""Deals generated to order from scripts in Hans van Staveren's *dealer* language.

``parse`` reads a script (:mod:`.lexer`, :mod:`.parser`, the tree in :mod:`.script`);
:mod:`.dealing` shuffles many deals at once with numpy from the operating
system's random source or a seeded stream; :mod:`.evaluate` computes the
script's expressions on whole arrays of deals; :mod:`.actions` prints what
dealer's actions print; :mod:`.engine` runs it all in chunks (memory stays flat)
on one or several processes.  No Qt: the command line and the window share it.
"""

from __future__ import annotations
