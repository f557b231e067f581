"""The dealing desk: is the set fit to deal, how does it differ from another, what the machine is told.

- ``menu.py``: :class:`Desk`, the menu entries made once by the main window (Compare With…, Print and
  Export Hand Records…, Dealing Machine Settings (DUP)…) and the hand records dialog;
- ``check_panel.py``: the Check tab of a board set and the status bar's summary;
- ``compare_view.py``: two sets side by side (File › Compare With…);
- ``dup_settings.py``: the dealing machine's (DUP) control fields.

The sheets themselves are painted by ``ui.printing``.
"""
