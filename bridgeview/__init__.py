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


__version__ = _version()
