"""The app layer, Qt-free: what an open file is to the app, shared by the window and the command line.

``document`` is one open file (its content, path, format, what is unsaved, the DD tables solved
for display) as every tab holds it; ``describe`` is what ``bridgeview info`` and the Details panel
say about a file.  It sits above ``formats``, ``check`` and ``solve`` and below ``ui`` and ``cli``.
"""
