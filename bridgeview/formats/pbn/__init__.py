"""PBN (Portable Bridge Notation), one job a module.

``codec`` is the format as the registry sees it (sniff, read, write, check) with the whole-text
reader and writer; ``lex`` splits a file into games and games into tokens; ``read`` turns a game
into a Board, ``fast`` first for the usual well-formed game (``context`` is what ``#`` values
and the fast path's layouts carry from game to game; ``entry`` and ``checks`` are the tag entries
and their checks; ``dd`` the double-dummy tags); ``write`` is one board as text.  Big files:
``lazy`` opens them with one scan and decodes games on demand, ``bulk`` reads their chunks for
the conversion to ZRD/ZBD (:mod:`..chunked`), ``stream`` writes a lazily read set of another
format as PBN a chunk at a time.
"""
