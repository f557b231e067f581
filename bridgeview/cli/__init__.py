"""The ``bridgeview`` command line: one module per sub-command, found by ``main``."""
