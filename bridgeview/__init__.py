"""bridgeview: view, check, replay, edit and convert bridge deal files."""


def _version() -> str:
    """The version written once, in pyproject.toml: from the installed metadata, else from the checkout's file.

    A plain checkout on PYTHONPATH (or a bundle without metadata) has no installed distribution, so the number is
    read from pyproject.toml beside the package; only that fallback pays for tomllib.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("bridgeview")
    except PackageNotFoundError:
        pass
    from pathlib import Path

    pyproject = Path(__file__).resolve().parent.parent / "pyproject.toml"
    try:
        import tomllib

        return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    except (OSError, ValueError, KeyError):
        return "0+unknown"


def __getattr__(name: str) -> str:
    """``bridgeview.__version__``, worked out when first asked for: finding it imports importlib.metadata
    (about 30 ms), which only ``--version``, the About box and the packaging scripts need, not every command."""
    if name == "__version__":
        version = _version()
        globals()["__version__"] = version
        return version
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
