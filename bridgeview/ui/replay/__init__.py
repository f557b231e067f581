"""Replaying a board: the auction, the play card by card, and the commentary at each step.

- ``controls.py``: :class:`ReplayController` (the step shown), :class:`ReplayBar` (buttons, slider,
  movie), the Play tab's trick table, and ``install_replay`` that puts them into a board set's tab;
- ``auction_view.py``: the bidding table with its notes and the result;
- ``commentary.py``: a vugraph's remarks under the diagram, at their step.
"""
