"""BBO's LIN, one job a module.

``codec`` is the format as the registry sees it; ``tokens`` splits text into ``key|value|``
pairs, ``read`` turns them into boards and ``write`` boards into pairs; ``handviewer`` reads and
makes BBO handviewer links.  Big files: ``lazy`` opens hand records with one scan and decodes
boards on demand, ``bulk`` converts them to ZRD/ZBD in chunks, ``stream`` writes any set a line
at a time.
"""
