"""``python -m bridgeview``, and the ``bridgeview`` command's entry point (``[project.scripts]``).

Only this small module is imported before Ctrl+C is looked after: the command's own modules (its parser, the
formats' registry) are imported inside :func:`main`, so a press while they load ends the command as a press
at any later moment does, "interrupted" and exit 130, not with Python's traceback.
"""

import sys


def main() -> int:
    """The ``bridgeview`` command with the process's arguments; its exit status."""
    try:
        from bridgeview.cli.main import main as command
    except KeyboardInterrupt:
        print("bridgeview: interrupted", file=sys.stderr)
        return 130
    return command()


if __name__ == "__main__":  # importing the module (the console script, a spawned child) runs nothing
    raise SystemExit(main())
