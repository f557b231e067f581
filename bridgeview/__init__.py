"""bridgeview: view, check, replay, edit and convert bridge deal files."""

__version__ = "0.1.0"
