"""Editing board sets: the Edit and Boards menus, the editing dock, board-list edits and the clipboard.

- ``editor.py``: :class:`Editor`, made once by the main window (File › New, Generate Random Deals,
  the Boards menu, the editing dock, the undo history);
- ``edit_panel.py``: the dock itself (deal, tags, bidding box, play of the current board);
- ``board_ops.py``: insert, delete, duplicate, move, renumber, sort, cut, copy and paste boards, and
  dragging rows in the board list;
- ``clipboard.py``: boards from pasted or dropped text (a BBO link, LIN or PBN);
- ``generate_dialog.py``: deals to order (the dealer script part of Generate Random Deals).

Every change is an undo command of ``ui.document``.
"""
