"""The tab of a bridge board set: board list | diagram | DD grid and side tabs, built from the features.

- ``view.py``: :class:`DocumentView`, which makes each feature once and keeps it as a typed field
  (replay, solver, Check tab, panels, rooms …);
- ``panels.py``: small screens: board-list columns that drop as it narrows, side panels that collapse
  (and View › Board List, Analysis and Details Panel);
- ``rooms.py``: vugraph rooms: the Room column and showing one room (and View › Rooms);
- ``details.py``: the Details tab (the file's own fields, the current board's);
- ``traveller_view.py``: the Traveller tab (every table's result of the board).
"""
