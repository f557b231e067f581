"""An open document as every feature sees it: the bottom of ``ui/`` above the shared modules.

- ``tab.py``: :class:`DocumentTab`, the base of every tab of the main window, and :class:`OpenDocument`
  (the Qt-free ``app.document.Document`` with its undo stack);
- ``board_model.py``: the board list's table model, one row a board, decoded when Qt asks;
- ``board_commands.py``: the undo command of one board (``SetBoardCommand``) and the edits made of it;
- ``boardset_commands.py``: the undo commands of the whole set (the board list, many boards, the header);
- ``services.py``: what a feature may use of the window (``WindowServices``) and of a board set's tab
  (``BoardView``), and ``ViewPlugin`` for a feature's state kept per view.

Nothing here imports another ``ui`` package but ``diagram`` (the type of ``BoardView.diagram``).
"""
