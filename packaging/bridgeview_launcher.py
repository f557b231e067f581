"""Entry script of the PyInstaller bundle (see bridgeview.spec): exactly the ``bridgeview`` command (its entry point, as the console script).

A separate file, not bridgeview/__main__.py, because PyInstaller puts the
entry script's folder on the import path, and bridgeview's own folder there
would expose its modules under wrong top-level names.
"""

import multiprocessing

from bridgeview.__main__ import main

if __name__ == "__main__":
    # a worker process of `bridgeview generate` (spawned: the bundle is the executable) runs its work here
    multiprocessing.freeze_support()
    raise SystemExit(main())
