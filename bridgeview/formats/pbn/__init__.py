"""PBN (Portable Bridge Notation), one job a module.

``codec`` is the format as the registry sees it (sniff, read, write, check) and the whole-text
reader and writer; ``lex`` splits a file into games and games into tokens; ``read`` turns a game
into a Board (``fast`` first, for the usual well-formed game; ``entry`` and ``checks`` are the
tag entries and their checks both readers share; ``dd`` the double-dummy tags); ``write`` is one
board as text.  Big files: ``lazy`` opens them with one scan and decodes games on demand,
``bulk`` converts them to ZRD/ZBD in chunks, ``stream`` writes a lazily read binary set as PBN
a chunk at a time.
"""
