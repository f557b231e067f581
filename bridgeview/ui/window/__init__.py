"""What the main window does itself, apart from the features it hosts (``ui/mainwindow.py`` is the window).

- ``saving.py``: Save As: what the target format cannot hold, asked first, then written (in a thread when
  big); the open and save file filters;
- ``lossy.py``: after a save that lost something, the tabs show each file as it really is;
- ``keyboard.py``: the diagram takes the focus, and the step keys work from any pane.
"""
