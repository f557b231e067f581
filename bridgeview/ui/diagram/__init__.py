"""What is painted of a board: the compass-rose hand diagram and the double-dummy grid.

- ``hand_diagram.py``: :class:`HandDiagram`, four hands around the board tray (QPainter);
- ``ddgrid.py``: :class:`DDGrid`, tricks for every seat and strain, makeable contracts marked;
- ``export.py``: the diagram as PNG or SVG (File › Export Diagram as PNG…/SVG…), by the same painting code;
- ``render_widget.py``: the diagram with its grid beside it, for ``bridgeview render``.
"""
