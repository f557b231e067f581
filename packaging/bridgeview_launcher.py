"""Entry script of the PyInstaller bundle (see bridgeview.spec): exactly the ``bridgeview`` command.

A separate file, not bridgeview/__main__.py, because PyInstaller puts the
entry script's folder on the import path, and bridgeview's own folder there
would expose its modules under wrong top-level names.
"""

from bridgeview.cli.main import main

raise SystemExit(main())
